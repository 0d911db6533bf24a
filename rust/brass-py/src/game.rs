//! `brass.Game`: a configuration.
use crate::errors::{guard, to_py};
use crate::state::State;
use brass_core::{apply, json, observation, Error, Game as CoreGame};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::collections::BTreeMap;
use std::sync::Arc;

fn options_from(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<BTreeMap<String, serde_json::Value>> {
    let mut out = BTreeMap::new();
    if let Some(d) = options {
        let json_mod = py.import("json")?;
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            // Options are JSON values (they are recorded in states and records).
            let bad = |why: String| to_py(py, Error::Config(format!("option `{key}`: {why}")));
            let text: String = json_mod
                .call_method1("dumps", (&v,))
                .and_then(|t| t.extract())
                .map_err(|_| bad(format!("{} is not a JSON value", type_name(&v))))?;
            let value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            out.insert(key, value);
        }
    }
    Ok(out)
}

/// A game configuration: `brass.Game("lancashire", players=4)`. Immutable and shareable.
#[pyclass(module = "brass", frozen, eq)]
pub(crate) struct Game {
    pub(crate) inner: Arc<CoreGame>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        json::game_json(&self.inner) == json::game_json(&other.inner)
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (name, players = None, **options))]
    fn new(
        py: Python<'_>,
        name: &Bound<'_, PyAny>,
        players: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let name: String = name.extract().map_err(|_| {
            crate::errors::type_error(
                py,
                format!("the game name must be a str, not {}", type_name(name)),
            )
        })?;
        let name = name.as_str();
        let players = match players {
            Some(p) => players_arg(py, p)?,
            None => match brass_core::catalog::entry(name) {
                // A missing count is a missing argument (a TypeError), worded like a wrong count.
                Some(entry) => {
                    return Err(crate::errors::type_error(
                        py,
                        format!(
                            "players is needed: {name} is played by {} players, e.g. \
                             brass.Game({name:?}, players={})",
                            brass_core::catalog::spoken_list(&entry.players),
                            entry.players.last().copied().unwrap_or(2)
                        ),
                    ))
                }
                None => 0, // the engine reports the unknown game
            },
        };
        let options = options_from(py, options)?;
        let inner = guard(py, || CoreGame::new(name, players, &options))?;
        Ok(Game {
            inner: Arc::new(inner),
        })
    }

    /// The game's name, e.g. "lancashire".
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn players(&self) -> u8 {
        self.inner.players
    }
    /// The options given when the configuration was built.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text =
            serde_json::Value::Object(self.inner.options.clone().into_iter().collect()).to_string();
        py.import("json")?.call_method1("loads", (text,))
    }
    /// Size of the action-id space: ids are `0 .. num_actions`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    /// Board space names in id order (`manchester/1`, ...).
    #[getter]
    fn spaces(&self) -> Vec<String> {
        self.inner.spaces.iter().map(|s| s.name.clone()).collect()
    }
    /// Line names in id order (`preston-wigan`, ...).
    #[getter]
    fn lines(&self) -> Vec<String> {
        self.inner.lines.iter().map(|l| l.name.clone()).collect()
    }
    #[getter]
    fn industries(&self) -> Vec<String> {
        self.inner.industries.clone()
    }
    #[getter]
    fn card_kinds(&self) -> Vec<String> {
        self.inner.card_names.clone()
    }
    /// Rounds in each era (L-7; C-2 and L-56: 10 at 3 players).
    #[getter]
    fn rounds_per_era(&self) -> u8 {
        self.inner.rounds_per_era
    }
    /// An upper bound on the number of decisions in one game (docs/actions.md).
    #[getter]
    fn max_decisions(&self) -> u32 {
        self.inner.max_decisions()
    }
    /// Length of `State.observation(player)`.
    #[getter]
    fn observation_size(&self) -> usize {
        observation::size(&self.inner)
    }
    /// The observation layout: `(name, offset, length, meaning)` per block (docs/observation.md).
    #[getter]
    fn observation_layout(&self) -> Vec<(String, usize, usize, &'static str)> {
        observation::layout(&self.inner)
            .into_iter()
            .map(|f| (f.name, f.offset, f.len, f.meaning))
            .collect()
    }
    /// The notation of an action id.
    fn action_name(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let id = action_id(py, &self.inner, action)?;
        guard(py, || self.inner.action_name(id))
    }
    /// The id of a notation; raises NotationError if the text names no action (ArgumentTypeError if it is
    /// not a str).
    fn parse_action(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u16> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(crate::errors::type_error(
                py,
                format!("notation must be a str, not {}", type_name(text)),
            ));
        };
        let text = unicode(py, text, Error::Notation)?;
        guard(py, || self.inner.parse_action(text))
    }
    /// A new game from a seed (an int in [0, 2**64)) that fixes every hidden card; without one, a fresh
    /// seed is drawn from the operating system and kept in `state.seed` (and the record).
    #[pyo3(signature = (seed = None))]
    fn new_state(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<State> {
        let seed = match seed {
            None => fresh_seed(py)?,
            Some(s) => seed_arg(py, s)?,
        };
        let game = self.inner.clone();
        let inner = guard(py, || Ok(apply::new_state(&game, seed)))?;
        Ok(State {
            game,
            inner,
            history: Vec::new(),
            seed: Some(seed),
            start: None,
        })
    }
    /// `brass.Game('birmingham', players=2, intro=True)`: the call that makes this game.
    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .inner
            .options
            .iter()
            .map(|(k, v)| match v.as_bool() {
                Some(true) => format!(", {k}=True"),
                Some(false) => format!(", {k}=False"),
                None => format!(", {k}={v}"),
            })
            .collect();
        format!(
            "brass.Game('{}', players={}{})",
            self.inner.name,
            self.inner.players,
            opts.join("")
        )
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        json::game_json(&self.inner).to_string().hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let f = py.import("brass._brass")?.getattr("_game_from_json")?;
        Ok((f, (json::game_json(&self.inner).to_string(),)))
    }
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The player count: an int (or an integer-like value such as a numpy integer); ArgumentTypeError for any
/// other type. The game checks the value (ConfigError).
fn players_arg(py: Python<'_>, players: &Bound<'_, PyAny>) -> PyResult<i64> {
    as_index(players).ok_or_else(|| {
        crate::errors::type_error(
            py,
            format!("players must be an int, not {}", type_name(players)),
        )
    })
}

/// A fresh seed from the operating system's randomness (`secrets.randbits(64)`), for a game asked for
/// without one.
pub(crate) fn fresh_seed(py: Python<'_>) -> PyResult<u64> {
    py.import("secrets")?
        .call_method1("randbits", (64,))?
        .extract()
}

/// A seed: an int (or integer-like) with 0 ≤ seed < 2**64. ArgumentTypeError for another type,
/// ConfigError for a value out of range.
pub(crate) fn seed_arg(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if as_index(seed).is_none() {
        return Err(crate::errors::type_error(
            py,
            format!(
                "seed must be an int with 0 <= seed < 2**64, not {}",
                type_name(seed)
            ),
        ));
    }
    index_object(seed)
        .and_then(|i| i.extract::<u64>().ok())
        .ok_or_else(|| {
            to_py(
                py,
                Error::Config(format!(
                    "seed must be an int with 0 <= seed < 2**64, not {seed}"
                )),
            )
        })
}

/// The Python int behind an integer-like value (`__index__`), or None.
fn index_object<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || obj.is_instance_of::<PyString>() {
        return None;
    }
    if !obj.is_instance_of::<pyo3::types::PyInt>() && !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    obj.call_method0("__index__").ok()
}

/// An integer argument: an int or anything with `__index__` (numpy integers), never a bool or a str.
/// Returns None for anything else. Magnitudes beyond i64 saturate to `i64::MIN` / `i64::MAX`, so they
/// fail every range check; messages print the Python value itself, never the saturated number.
pub(crate) fn as_index(obj: &Bound<'_, PyAny>) -> Option<i64> {
    let saturated = |index: &Bound<'_, PyAny>| {
        index.extract::<i64>().unwrap_or_else(|_| {
            if index.lt(0i64).unwrap_or(false) {
                i64::MIN
            } else {
                i64::MAX
            }
        })
    };
    // An exact int (never a bool, a subclass) is its own index: read it without calling `__index__`, which
    // costs more than the rest of a Python loop's `apply(id)` crossing.
    if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        return Some(saturated(obj));
    }
    let index = index_object(obj)?;
    Some(saturated(&index))
}

/// An action id from a Python object: an integer in `0 ≤ id < num_actions`; ArgumentTypeError for
/// another type, IllegalActionError for an integer out of range, naming the value as given.
pub(crate) fn action_id(
    py: Python<'_>,
    game: &CoreGame,
    action: &Bound<'_, PyAny>,
) -> PyResult<i64> {
    let id = as_index(action).ok_or_else(|| {
        let msg = format!(
            "an action is an int id or a notation str, not {}",
            type_name(action)
        );
        crate::errors::type_error(py, msg)
    })?;
    if id < 0 || id >= game.num_actions() as i64 {
        return Err(to_py(
            py,
            Error::IllegalAction(format!(
                "action id {action} is out of range: ids go from 0 to {}",
                game.num_actions() - 1
            )),
        ));
    }
    Ok(id)
}

/// The message for a player index outside the game (the same words in both engines).
pub(crate) fn no_such_player(index: &Bound<'_, PyAny>, players: u8) -> String {
    format!(
        "player {index} does not exist: players go from 0 to {}",
        players - 1
    )
}

#[pyfunction]
pub(crate) fn _game_from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
    let inner = guard(py, || json::game_from_value(&json::parse_bounded(text)?))?;
    Ok(Game {
        inner: Arc::new(inner),
    })
}

/// The games this engine plays, from the one catalog (`python/brass/data/games.json`): name →
/// `{"title", "players", "options": {name: {"type", "players", "rule", "doc"}}}`.
#[pyfunction]
pub(crate) fn games(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let text = brass_core::catalog::games_value().to_string();
    py.import("json")?.call_method1("loads", (text,))
}

/// The UTF-8 text of a Python str; a str that has none (a lone surrogate) is bad input of the given kind.
pub(crate) fn unicode<'a>(
    py: Python<'_>,
    text: &'a Bound<'_, PyString>,
    kind: fn(String) -> Error,
) -> PyResult<&'a str> {
    text.to_str().map_err(|_| {
        to_py(
            py,
            kind("the text is not valid Unicode (it contains a lone surrogate)".into()),
        )
    })
}
