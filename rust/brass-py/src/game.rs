//! `brass.Game`'s methods (its data is `wrappers::Game`), `brass.games` and the unpickling of a game.
use crate::args::{action_id_arg, game_name_arg, notation_arg, options_arg, players_arg, seed_arg};
use crate::errors::guard;
use crate::wrappers::{Game, State};
use brass_core::{apply, json, observation, Game as CoreGame};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

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
        let name = game_name_arg(py, name)?;
        let players = players_arg(py, &name, players)?;
        let options = options_arg(py, options)?;
        let inner = guard(py, || CoreGame::new(&name, players, &options))?;
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
        let id = action_id_arg(py, &self.inner, action)?;
        guard(py, || self.inner.action_name(id))
    }
    /// The id of a notation; raises NotationError if the text names no action (ArgumentTypeError if it is
    /// not a str).
    fn parse_action(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u16> {
        let text = notation_arg(py, text)?;
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
        // Its record starts from the seed, not from a saved position.
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

/// A fresh seed from the operating system's randomness (`secrets.randbits(64)`), for a game asked for
/// without one.
fn fresh_seed(py: Python<'_>) -> PyResult<u64> {
    py.import("secrets")?
        .call_method1("randbits", (64,))?
        .extract()
}

/// The configuration of a game JSON text (unpickling a `Game`, `Game.__reduce__`).
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
