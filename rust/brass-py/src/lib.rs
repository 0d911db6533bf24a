//! The Python binding of brass-core: wrappers, error mapping, GIL release, numpy buffers. No rules here.
//!
//! Every entry point goes through [`guard`]: core errors become the `brass.BrassError` subclasses of
//! `brass._errors` (the same classes the pure-Python reference engine raises), and a Rust panic, which
//! would be a bug, becomes a `BrassError` instead of an interpreter-level `PanicException`.
use brass_core::{apply, json, rules, Error, Game as CoreGame, State as CoreState};
use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

static BRASS_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CONFIG_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_ACTION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static INVALID_STATE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static NOTATION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Raise one of brass's exception classes (looked up once, lazily: `brass._errors` is pure Python).
fn raise(py: Python<'_>, cell: &'static PyOnceLock<Py<PyType>>, name: &str, msg: String) -> PyErr {
    match cell.import(py, "brass._errors", name) {
        Ok(cls) => PyErr::from_type(cls.clone(), msg),
        Err(e) => e,
    }
}

fn to_py(py: Python<'_>, err: Error) -> PyErr {
    match err {
        Error::Config(m) => raise(py, &CONFIG_ERROR, "ConfigError", m),
        Error::IllegalAction(m) => raise(py, &ILLEGAL_ACTION_ERROR, "IllegalActionError", m),
        Error::InvalidState(m) => raise(py, &INVALID_STATE_ERROR, "InvalidStateError", m),
        Error::Notation(m) => raise(py, &NOTATION_ERROR, "NotationError", m),
    }
}

/// Run core code at the boundary: map its errors, and turn a panic (a bug) into a BrassError.
fn guard<T>(py: Python<'_>, f: impl FnOnce() -> brass_core::Result<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(raise(
                py,
                &BRASS_ERROR,
                "BrassError",
                format!("internal error in the brass engine (please report it): {what}"),
            ))
        }
    }
}

fn options_from(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<BTreeMap<String, serde_json::Value>> {
    let mut out = BTreeMap::new();
    if let Some(d) = options {
        let json_mod = py.import("json")?;
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let text: String = json_mod.call_method1("dumps", (v,))?.extract()?;
            let value = serde_json::from_str(&text)
                .map_err(|e| to_py(py, Error::Config(format!("option `{key}`: {e}"))))?;
            out.insert(key, value);
        }
    }
    Ok(out)
}

/// A game configuration: `brass.Game("lancashire", players=4)`. Immutable and shareable.
#[pyclass(module = "brass", frozen, eq)]
struct Game {
    inner: Arc<CoreGame>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        json::game_json(&self.inner) == json::game_json(&other.inner)
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (name, players, **options))]
    fn new(
        py: Python<'_>,
        name: &str,
        players: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let players = players_arg(py, players)?;
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
    /// The notation of an action id.
    fn action_name(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let id = action_id(py, action)?;
        guard(py, || self.inner.action_name(id))
    }
    /// The id of a notation; raises NotationError if the text names no action.
    fn parse_action(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u16> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(to_py(
                py,
                Error::Notation(format!("notation must be a str, not {}", type_name(text))),
            ));
        };
        let text = text.to_str()?;
        guard(py, || self.inner.parse_action(text))
    }
    /// A new game from a seed (an int in [0, 2**64)).
    #[pyo3(signature = (seed = None))]
    fn new_state(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<State> {
        let seed = match seed {
            None => 0,
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
    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .inner
            .options
            .iter()
            .map(|(k, v)| format!(", {k}={v}"))
            .collect();
        format!(
            "brass.Game({:?}, players={}{})",
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

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn players_arg(py: Python<'_>, players: &Bound<'_, PyAny>) -> PyResult<i64> {
    if players.is_instance_of::<pyo3::types::PyBool>()
        || !players.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(to_py(
            py,
            Error::Config(format!(
                "players must be an int, not {}",
                type_name(players)
            )),
        ));
    }
    Ok(players.extract::<i64>().unwrap_or(i64::MAX))
}

fn seed_arg(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if seed.is_instance_of::<pyo3::types::PyBool>() || !seed.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(to_py(
            py,
            Error::Config(format!(
                "seed must be an int in [0, 2**64), not {}",
                type_name(seed)
            )),
        ));
    }
    seed.extract::<u64>().map_err(|_| {
        to_py(
            py,
            Error::Config(format!("seed must be an int in [0, 2**64), not {seed}")),
        )
    })
}

/// An integer argument: an int or anything with `__index__` (numpy integers), never a bool or a str.
/// Returns None for anything else; out-of-range magnitudes become -1 (reported as out of range).
fn as_index(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || obj.is_instance_of::<PyString>() {
        return None;
    }
    if !obj.is_instance_of::<pyo3::types::PyInt>() && !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    let index = obj.call_method0("__index__").ok()?;
    Some(index.extract::<i64>().unwrap_or(-1))
}

/// An action id from a Python object.
fn action_id(py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<i64> {
    as_index(action).ok_or_else(|| {
        let msg = format!(
            "an action is an int id or a notation str, not {}",
            type_name(action)
        );
        to_py(py, Error::IllegalAction(msg))
    })
}

#[pyfunction]
fn _game_from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
    let inner = guard(py, || json::game_from_value(&json::parse_bounded(text)?))?;
    Ok(Game {
        inner: Arc::new(inner),
    })
}

/// One player's holdings, as a snapshot.
#[pyclass(module = "brass", frozen, get_all)]
struct PlayerView {
    money: i32,
    money_spent: i32,
    income_level: i32,
    income_space: u8,
    vp: i32,
    hand: Vec<String>,
    discards: Vec<String>,
    mat: BTreeMap<String, usize>,
    links_left: u8,
}

#[pymethods]
impl PlayerView {
    fn __repr__(&self) -> String {
        format!(
            "PlayerView(money={}, income_level={}, vp={}, hand={:?}, links_left={})",
            self.money, self.income_level, self.vp, self.hand, self.links_left
        )
    }
}

fn card_list(game: &CoreGame, counts: &[u8]) -> Vec<String> {
    let mut v = Vec::new();
    for (k, &c) in counts[..game.card_kinds.len()].iter().enumerate() {
        for _ in 0..c {
            v.push(game.card_names[k].clone());
        }
    }
    v
}

/// A game position. Mutable: `apply` changes it in place; `clone` copies it.
#[pyclass(module = "brass")]
struct State {
    game: Arc<CoreGame>,
    inner: CoreState,
    history: Vec<u16>,
    seed: Option<u64>,
    start: Option<Box<CoreState>>,
}

impl State {
    fn legal(&self) -> Vec<u16> {
        let mut ids = Vec::new();
        rules::legal_actions(&self.game, &self.inner, &mut ids);
        ids
    }
}

#[pymethods]
impl State {
    /// The configuration this state belongs to.
    #[getter]
    fn game(&self) -> Game {
        Game {
            inner: self.game.clone(),
        }
    }
    /// The player who decides now, or None when the game is over.
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.inner.current_player(&self.game)
    }
    /// Round within the era, from 1.
    #[getter]
    fn round(&self) -> u8 {
        self.inner.round
    }
    /// "canal" or "rail".
    #[getter]
    fn era(&self) -> &'static str {
        self.inner.era.name()
    }
    /// The kind of decision pending (docs/actions.md): action, coal, iron, link, develop, sell, card, remove, over.
    #[getter]
    fn decision(&self) -> &'static str {
        self.inner.decision.name()
    }
    #[getter]
    fn turn_order(&self) -> Vec<u32> {
        self.inner.turn_order[..self.game.players as usize]
            .iter()
            .map(|&p| p as u32)
            .collect()
    }
    #[getter]
    fn actions_left(&self) -> u8 {
        self.inner.actions_left
    }
    /// Cards left in the draw pile.
    #[getter]
    fn deck_size(&self) -> u8 {
        self.inner.deck_size()
    }
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    /// Legal action ids, ascending, without duplicates; empty when the game is over.
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<u16>> {
        guard(py, || Ok(self.legal()))
    }
    /// A numpy bool array of length `game.num_actions`, True at the legal ids.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let ids = guard(py, || Ok(self.legal()))?;
        let mut mask = vec![false; self.game.num_actions()];
        for id in ids {
            mask[id as usize] = true;
        }
        Ok(PyArray1::from_vec(py, mask))
    }
    /// Apply an action id or notation. Raises IllegalActionError / NotationError and leaves the state
    /// unchanged when it is not legal.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = if let Ok(text) = action.cast::<PyString>() {
            let text = text.to_str()?;
            guard(py, || self.game.parse_action(text))? as i64
        } else {
            action_id(py, action)?
        };
        let mut next = self.inner;
        let game = &self.game;
        guard(py, || apply::apply(game, &mut next, id))?;
        self.inner = next;
        self.history.push(id as u16);
        Ok(())
    }
    /// An independent copy (history included).
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            inner: self.inner,
            history: self.history.clone(),
            seed: self.seed,
            start: self.start.clone(),
        }
    }
    fn __copy__(&self) -> State {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }
    /// Each player's VP so far (final VP once the game is over).
    fn scores(&self) -> Vec<i32> {
        self.inner.players[..self.game.players as usize]
            .iter()
            .map(|p| p.vp)
            .collect()
    }
    /// The winners after tie-breaks (L-53); empty until the game is over.
    fn winners(&self) -> Vec<u32> {
        apply::winners(&self.game, &self.inner)
            .into_iter()
            .map(u32::from)
            .collect()
    }
    /// Canonical JSON (docs/state-format.md).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(json::to_json(&self.game, &self.inner)))
    }
    /// Load a state from JSON, validating it; raises InvalidStateError naming the first problem.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<State> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(to_py(
                py,
                Error::InvalidState(format!("state JSON must be a str, not {}", type_name(text))),
            ));
        };
        let text = text.to_str()?;
        let (game, inner) = guard(py, || json::from_json(text))?;
        Ok(State {
            game: Arc::new(game),
            inner,
            history: Vec::new(),
            seed: None,
            start: Some(Box::new(inner)),
        })
    }
    /// The action ids applied so far.
    fn history(&self) -> Vec<u16> {
        self.history.clone()
    }
    /// The game record (configuration + seed or start state + actions) as JSON.
    fn record(&self) -> String {
        json::record_json(&self.game, self.seed, self.start.as_deref(), &self.history)
    }
    /// A snapshot of one player's holdings.
    fn player(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<PlayerView> {
        let i = as_index(index).ok_or_else(|| {
            PyTypeError::new_err(format!(
                "a player index is an int, not {}",
                type_name(index)
            ))
        })?;
        if i < 0 || i >= self.game.players as i64 {
            return Err(PyIndexError::new_err(format!(
                "player {i} does not exist (players 0..{})",
                self.game.players
            )));
        }
        let _ = py;
        let g = &self.game;
        let p = &self.inner.players[i as usize];
        Ok(PlayerView {
            money: p.money,
            money_spent: p.money_spent,
            income_level: g.income_level(p.income_space),
            income_space: p.income_space,
            vp: p.vp,
            hand: card_list(g, &p.hand),
            discards: card_list(g, &p.discards),
            mat: g
                .industries
                .iter()
                .enumerate()
                .map(|(k, n)| (n.clone(), g.stacks[k].len() - p.taken[k] as usize))
                .collect(),
            links_left: p.links_left,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<State>() {
            Ok(o) => {
                let o = o.borrow();
                json::to_json(&self.game, &self.inner) == json::to_json(&o.game, &o.inner)
            }
            Err(_) => false,
        }
    }
    fn __repr__(&self) -> String {
        match self.inner.current_player(&self.game) {
            Some(p) => format!(
                "<brass.State {} {}p, {} era round {}, player {p} to decide ({})>",
                self.game.name,
                self.game.players,
                self.inner.era.name(),
                self.inner.round,
                self.inner.decision.name()
            ),
            None => format!(
                "<brass.State {} {}p, game over, scores {:?}>",
                self.game.name,
                self.game.players,
                self.scores()
            ),
        }
    }
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let f = py.import("brass._brass")?.getattr("_state_from_pickle")?;
        let start = self.start.as_deref().map(|s| json::to_json(&self.game, s));
        let args = PyTuple::new(
            py,
            [
                json::to_json(&self.game, &self.inner)
                    .into_pyobject(py)?
                    .into_any(),
                self.history.clone().into_pyobject(py)?.into_any(),
                self.seed.into_pyobject(py)?.into_any(),
                start.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((f, args))
    }
}

#[pyfunction]
fn _state_from_pickle(
    py: Python<'_>,
    text: &str,
    history: Vec<u16>,
    seed: Option<u64>,
    start: Option<String>,
) -> PyResult<State> {
    let (game, inner) = guard(py, || json::from_json(text))?;
    let start = match start {
        Some(s) => Some(Box::new(guard(py, || json::from_json(&s))?.1)),
        None => None,
    };
    Ok(State {
        game: Arc::new(game),
        inner,
        history,
        seed,
        start,
    })
}

/// Replay a game record, checking every action; returns the final state.
#[pyfunction]
fn replay(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<State> {
    let Ok(text) = text.cast::<PyString>() else {
        return Err(to_py(
            py,
            Error::InvalidState(format!("a record must be a str, not {}", type_name(text))),
        ));
    };
    let text = text.to_str()?;
    let (game, inner, history, seed, start) = guard(py, || {
        let rec = json::parse_record(text)?;
        let mut state = rec.start;
        let mut history = Vec::with_capacity(rec.actions.len());
        for (i, &id) in rec.actions.iter().enumerate() {
            apply::apply(&rec.game, &mut state, id).map_err(|e| match e {
                Error::IllegalAction(m) => Error::IllegalAction(format!("record action {i}: {m}")),
                other => other,
            })?;
            history.push(id as u16);
        }
        let start = if rec.seed.is_some() {
            None
        } else {
            Some(Box::new(rec.start))
        };
        Ok((rec.game, state, history, rec.seed, start))
    })?;
    Ok(State {
        game: Arc::new(game),
        inner,
        history,
        seed,
        start,
    })
}

#[pymodule]
fn _brass(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<PlayerView>()?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(_game_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_pickle, m)?)?;
    Ok(())
}
