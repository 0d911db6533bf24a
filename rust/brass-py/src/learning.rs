//! Networks and the search they guide (docs/learning.md): `brass.agents.Net`, `brass.agents.NetMCTS` and
//! `brass.search.SearchGames`, whose leaves a native network evaluates with the GIL released, or a Python
//! callable in batches.
use crate::agents::Agent;
use crate::args::{float_arg, game_arg, int_arg};
use crate::errors::{detached, to_py, type_error};
use crate::game::{seed_arg, type_name, Game};
use brass_core::net::{game_key, Net as CoreNet, Scratch};
use brass_core::net_agents::{NetAgent, NetEvaluator, NetMctsAgent};
use brass_core::puct::{Evaluator, PuctConfig};
use brass_core::search_games::{PolicyTarget, SearchGamesConfig};
use brass_core::search_games::{SearchGame as CoreSearchGame, SearchGames as CoreSearchGames};
use brass_core::{observation, selfplay, Error, Game as CoreGame};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

fn config(py: Python<'_>, msg: String) -> PyErr {
    to_py(py, Error::Config(msg))
}

/// Read a network from a path (str or os.PathLike) or the bytes of a file.
fn load(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<(Arc<CoreNet>, Arc<CoreGame>)> {
    let bytes: Vec<u8> = if let Ok(b) = source.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        let os = py.import("os")?;
        let path: String = os
            .call_method1("fspath", (source,))
            .and_then(|p| p.extract())
            .map_err(|_| {
                type_error(
                    py,
                    format!(
                        "a network is a path or the bytes of a file, not {}",
                        type_name(source)
                    ),
                )
            })?;
        std::fs::read(&path)
            .map_err(|e| config(py, format!("cannot read the network {path}: {e}")))?
    };
    let (net, game) = detached(py, || CoreNet::from_bytes(&bytes))?;
    Ok((Arc::new(net), Arc::new(game)))
}

/// Logits and values of a batch of observations.
type Outputs<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>);

/// A trained policy-value network, playing its raw policy: the legal action with the highest logit, no
/// search (`Net(path)`, `Net.pretrained("birmingham-2p")`). `evaluate(observations)` gives its outputs.
#[pyclass(module = "brass.agents", extends = Agent, frozen)]
pub(crate) struct Net {
    pub(crate) net: Arc<CoreNet>,
    pub(crate) game: Arc<CoreGame>,
}

#[pymethods]
impl Net {
    #[new]
    fn new(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Net>> {
        let (net, game) = load(py, source)?;
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(NetAgent {
                net: net.clone(),
                game: game.clone(),
            }),
            game: Some(game.clone()),
        })
        .add_subclass(Net { net, game }))
    }

    /// A network shipped with the package (`docs/learning.md`, "Shipped networks").
    #[classmethod]
    fn pretrained(cls: &Bound<'_, pyo3::types::PyType>, name: &str) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        let path = py
            .import("brass.agents")?
            .getattr("_pretrained_path")?
            .call1((name,))?;
        Ok(cls.call1((path,))?.unbind())
    }

    /// The game the network was trained for.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<Game>> {
        Py::new(
            py,
            Game {
                inner: self.game.clone(),
            },
        )
    }

    /// The widths of its hidden layers.
    #[getter]
    fn widths(&self) -> Vec<usize> {
        self.net.widths()
    }

    /// The metadata of its file.
    #[getter]
    fn metadata(&self) -> std::collections::HashMap<String, String> {
        self.net.metadata.clone()
    }

    /// Logits `(rows, num_actions)` and values `(rows, players)` (each relative to its observer) for
    /// observations `(rows, observation_size)` float32.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<Outputs<'py>> {
        let shape = observations.shape();
        if shape[1] != self.net.inputs() {
            return Err(config(
                py,
                format!(
                    "observations have {} columns; the network takes {}",
                    shape[1],
                    self.net.inputs()
                ),
            ));
        }
        let rows = shape[0];
        let obs: Vec<f32> = observations.as_array().iter().copied().collect();
        let net = self.net.clone();
        let (logits, values) = detached(py, move || {
            let (mut l, mut v) = (Vec::new(), Vec::new());
            net.evaluate(&obs, rows, &mut Scratch::default(), &mut l, &mut v);
            Ok((l, v))
        })?;
        Ok((
            PyArray1::from_vec(py, logits).reshape([rows, self.net.actions()])?,
            PyArray1::from_vec(py, values).reshape([rows, self.net.players()])?,
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<brass.agents.Net for {}, hidden layers {:?}>",
            game_key(&self.game),
            self.net.widths()
        )
    }
}

/// PUCT search guided by a trained network (`NetMCTS(path_or_net, simulations=64, c_puct=1.5,
/// fpu_reduction=0.0)`): no noise, the most visited action.
#[pyclass(module = "brass.agents", extends = Agent, frozen, name = "NetMCTS")]
pub(crate) struct NetMcts;

#[pymethods]
impl NetMcts {
    #[new]
    #[pyo3(signature = (network, simulations = None, c_puct = None, fpu_reduction = None))]
    fn new(
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        simulations: Option<&Bound<'_, PyAny>>,
        c_puct: Option<&Bound<'_, PyAny>>,
        fpu_reduction: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<NetMcts>> {
        let (net, game) = match network.cast::<Net>() {
            Ok(n) => (n.get().net.clone(), n.get().game.clone()),
            Err(_) => load(py, network)?,
        };
        let mut search = PuctConfig::default();
        if let Some(s) = simulations {
            search.simulations = int_arg(py, s, "simulations", 2, 1 << 24, Error::Config)? as u32;
        }
        if let Some(c) = c_puct {
            search.c_puct = positive(py, c, "c_puct")?;
        }
        if let Some(x) = fpu_reduction {
            search.fpu_reduction = float_arg(py, x, "fpu_reduction")? as f32;
        }
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(NetMctsAgent {
                net,
                game: game.clone(),
                config: search,
            }),
            game: Some(game),
        })
        .add_subclass(NetMcts))
    }
}

fn positive(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f32> {
    let v = float_arg(py, obj, what)?;
    if v < 0.0 {
        return Err(config(py, format!("{what} must be ≥ 0, not {v}")));
    }
    Ok(v as f32)
}

/// A Python callable evaluating leaves: `(observations float32[B, obs], masks bool[B, A]) -> (logits
/// [B, A], values [B, players])`. Its exception is kept to be raised as it is.
struct PyEvaluator<'a, 'py> {
    py: Python<'py>,
    callable: &'a Bound<'py, PyAny>,
    size: usize,
    actions: usize,
    players: usize,
    error: Option<PyErr>,
}

impl PyEvaluator<'_, '_> {
    fn call(
        &mut self,
        observations: &[f32],
        masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> PyResult<()> {
        let py = self.py;
        let obs = PyArray1::from_slice(py, observations).reshape([rows, self.size])?;
        let mask = PyArray1::from_slice(py, masks).reshape([rows, self.actions])?;
        let out = self.callable.call1((obs, mask))?;
        let (l, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = out.extract().map_err(|_| {
            type_error(
                py,
                "the evaluator must return (logits, values) arrays".to_string(),
            )
        })?;
        let numpy = py.import("numpy")?;
        let as_f32 = |x: &Bound<'_, PyAny>, shape: [usize; 2], what: &str| -> PyResult<Vec<f32>> {
            let a = numpy.call_method1("ascontiguousarray", (x, "float32"))?;
            let a: PyReadonlyArray2<'_, f32> = a.extract().map_err(|_| {
                config(
                    py,
                    format!("the evaluator's {what} are not a 2-dimensional array"),
                )
            })?;
            if a.shape() != shape {
                return Err(config(
                    py,
                    format!(
                        "the evaluator's {what} have shape {:?}, not {shape:?}",
                        a.shape()
                    ),
                ));
            }
            Ok(a.as_slice()?.to_vec())
        };
        *logits = as_f32(&l, [rows, self.actions], "logits")?;
        *values = as_f32(&v, [rows, self.players], "values")?;
        Ok(())
    }
}

impl Evaluator for PyEvaluator<'_, '_> {
    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> brass_core::Result<()> {
        self.call(observations, masks, rows, logits, values)
            .map_err(|e| {
                self.error = Some(e);
                Error::Config("the evaluator failed".into())
            })
    }
}

/// Self-play games with the network-guided search, many at once (docs/learning.md, "Self-play").
///
/// `SearchGames(game, evaluator, games, seed=0, first=0, simulations=64, parallel=64, c_puct=1.5,
/// dirichlet_alpha=0.3, dirichlet_fraction=0.25, temperature=1.0, temperature_decisions=30,
/// policy_target="visits")`; `policy_target="completed_q"` gives the improved policy of the completed
/// Q-values instead of the visit distribution (docs/learning.md). `evaluator`
/// is an `agents.Net` (evaluated natively, the GIL released) or a callable `(observations float32[B, obs],
/// masks bool[B, A]) -> (logits [B, A], values [B, players])` called with each batch of leaves. Iterating
/// yields each `SearchGame` as it ends (not in index order).
#[pyclass(module = "brass.search", frozen)]
pub(crate) struct SearchGames {
    inner: Mutex<CoreSearchGames>,
    game: Arc<CoreGame>,
    evaluator: Py<PyAny>,
    native: Option<Arc<CoreNet>>,
    ready: Mutex<VecDeque<CoreSearchGame>>,
}

#[pymethods]
impl SearchGames {
    #[new]
    #[pyo3(signature = (game, evaluator, games, seed = None, first = None, simulations = None,
                        parallel = None, c_puct = None, dirichlet_alpha = None, dirichlet_fraction = None,
                        temperature = None, temperature_decisions = None, policy_target = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        evaluator: &Bound<'_, PyAny>,
        games: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        first: Option<&Bound<'_, PyAny>>,
        simulations: Option<&Bound<'_, PyAny>>,
        parallel: Option<&Bound<'_, PyAny>>,
        c_puct: Option<&Bound<'_, PyAny>>,
        dirichlet_alpha: Option<&Bound<'_, PyAny>>,
        dirichlet_fraction: Option<&Bound<'_, PyAny>>,
        temperature: Option<&Bound<'_, PyAny>>,
        temperature_decisions: Option<&Bound<'_, PyAny>>,
        policy_target: Option<&str>,
    ) -> PyResult<SearchGames> {
        let g = game_arg(py, game, "game")?;
        let native = match evaluator.cast::<Net>() {
            Ok(n) => {
                let n = n.get();
                if game_key(&n.game) != game_key(&g) {
                    return Err(config(
                        py,
                        format!(
                            "the network was trained for {}, not for {}",
                            game_key(&n.game),
                            game_key(&g)
                        ),
                    ));
                }
                Some(n.net.clone())
            }
            Err(_) if evaluator.is_callable() => None,
            Err(_) => {
                return Err(type_error(
                    py,
                    format!(
                        "evaluator must be a brass.agents.Net or a callable, not {}",
                        type_name(evaluator)
                    ),
                ))
            }
        };
        let mut c = SearchGamesConfig::default();
        if let Some(s) = simulations {
            c.search.simulations = int_arg(py, s, "simulations", 2, 1 << 24, Error::Config)? as u32;
        }
        if let Some(p) = parallel {
            c.parallel = int_arg(py, p, "parallel", 1, 1 << 16, Error::Config)? as usize;
        }
        if let Some(x) = c_puct {
            c.search.c_puct = positive(py, x, "c_puct")?;
        }
        if let Some(x) = dirichlet_alpha {
            c.search.dirichlet_alpha = positive(py, x, "dirichlet_alpha")?;
        }
        if let Some(x) = dirichlet_fraction {
            let f = positive(py, x, "dirichlet_fraction")?;
            if f > 1.0 {
                return Err(config(
                    py,
                    format!("dirichlet_fraction must be ≤ 1, not {f}"),
                ));
            }
            c.search.dirichlet_fraction = f;
        }
        if let Some(x) = temperature {
            c.temperature = positive(py, x, "temperature")?;
        }
        if let Some(x) = temperature_decisions {
            c.temperature_decisions = int_arg(
                py,
                x,
                "temperature_decisions",
                0,
                u32::MAX as i64,
                Error::Config,
            )? as u32;
        }
        c.policy_target = match policy_target {
            None | Some("visits") => PolicyTarget::Visits,
            Some("completed_q") => PolicyTarget::CompletedQ,
            Some(other) => {
                return Err(config(
                    py,
                    format!("policy_target is \"visits\" or \"completed_q\", not {other:?}"),
                ))
            }
        };
        let games = int_arg(py, games, "games", 0, u32::MAX as i64, Error::Config)? as u64;
        let seed = seed.map_or(Ok(0), |s| seed_arg(py, s))?;
        let first = match first {
            Some(f) => int_arg(py, f, "first", 0, i64::MAX >> 1, Error::Config)? as u64,
            None => 0,
        };
        Ok(SearchGames {
            inner: Mutex::new(CoreSearchGames::new(&g, c, seed, first, games)),
            game: g,
            evaluator: evaluator.clone().unbind(),
            native,
            ready: Mutex::new(VecDeque::new()),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Leaves evaluated so far.
    #[getter]
    fn leaf_evaluations(&self) -> u64 {
        lock(&self.inner).evaluations
    }

    /// Seconds spent so far in the engine (playing, searching, observations) and in a native network's
    /// evaluations; with a Python evaluator, its time is not counted here.
    #[getter]
    fn seconds(&self) -> (f64, f64) {
        let inner = lock(&self.inner);
        (inner.engine_seconds, inner.network_seconds)
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<SearchGame> {
        loop {
            if let Some(g) = lock(&self.ready).pop_front() {
                return SearchGame::new(py, &self.game, g);
            }
            let finished = self.step(py)?;
            let mut ready = lock(&self.ready);
            ready.extend(finished);
            if ready.is_empty() && lock(&self.inner).is_done() {
                return Err(PyStopIteration::new_err(()));
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl SearchGames {
    /// One round of every game: native evaluation without the GIL, or the Python evaluator with it.
    fn step(&self, py: Python<'_>) -> PyResult<Vec<CoreSearchGame>> {
        if let Some(net) = &self.native {
            let net = net.clone();
            return detached(py, || {
                let mut inner = lock(&self.inner);
                let mut evaluator = NetEvaluator {
                    net: &net,
                    scratch: Scratch::default(),
                };
                inner.step(&mut evaluator)
            });
        }
        let (finished, leaves) = detached(py, || {
            let mut inner = lock(&self.inner);
            let finished = inner.advance();
            Ok((finished, inner.leaves()))
        })?;
        let (obs, masks, rows) = leaves;
        if rows > 0 {
            let mut evaluator = PyEvaluator {
                py,
                callable: self.evaluator.bind(py),
                size: observation::size(&self.game),
                actions: self.game.num_actions(),
                players: self.game.players as usize,
                error: None,
            };
            let (mut logits, mut values) = (Vec::new(), Vec::new());
            if evaluator
                .evaluate(&obs, &masks, rows, &mut logits, &mut values)
                .is_err()
            {
                return Err(evaluator.error.take().expect("the evaluator's error"));
            }
            detached(py, || lock(&self.inner).deliver(&logits, &values))?;
        }
        Ok(finished)
    }
}

/// A game played by `SearchGames`, with one training sample per decision.
#[pyclass(module = "brass.search", frozen, get_all)]
pub(crate) struct SearchGame {
    /// The game's index in its run.
    index: u64,
    /// The deal seed (the record's seed).
    seed: u64,
    actions: Vec<u16>,
    scores: Vec<i32>,
    /// Every seat's zero-sum result.
    returns: Vec<f32>,
    /// The game record JSON.
    record: String,
    /// Per decision: `player` (int8), `observation` (float32, rows × observation_size), `legal_mask`
    /// (uint8, bit-packed), `policy` (float32, rows × num_actions: the search's visit distribution).
    samples: Py<PyAny>,
}

impl SearchGame {
    fn new(py: Python<'_>, game: &CoreGame, g: CoreSearchGame) -> PyResult<SearchGame> {
        let rows = g.players.len();
        let d = PyDict::new(py);
        d.set_item("player", PyArray1::from_vec(py, g.players))?;
        d.set_item(
            "observation",
            PyArray1::from_vec(py, g.observations).reshape([rows, observation::size(game)])?,
        )?;
        d.set_item(
            "legal_mask",
            PyArray1::from_vec(py, g.masks).reshape([rows, selfplay::mask_bytes(game)])?,
        )?;
        d.set_item(
            "policy",
            PyArray1::from_vec(py, g.policies).reshape([rows, game.num_actions()])?,
        )?;
        let record = brass_core::json::seeded_record_json(
            &brass_core::json::game_json(game).to_string(),
            g.seed,
            &g.actions,
        );
        Ok(SearchGame {
            index: g.index,
            seed: g.seed,
            actions: g.actions,
            scores: g.scores,
            returns: g.returns,
            record,
            samples: d.into_any().unbind(),
        })
    }
}

#[pymethods]
impl SearchGame {
    fn __repr__(&self) -> String {
        format!(
            "SearchGame(index={}, decisions={}, scores={:?})",
            self.index,
            self.actions.len(),
            self.scores
        )
    }
}

/// One search from `state` (`brass.search.analyse`): the visits of each root action and the root's mean
/// value per seat. `evaluator` as for `SearchGames`.
#[pyfunction]
#[pyo3(signature = (state, evaluator, simulations = None, c_puct = None, seed = None))]
pub(crate) fn analyse(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    evaluator: &Bound<'_, PyAny>,
    simulations: Option<&Bound<'_, PyAny>>,
    c_puct: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<(std::collections::BTreeMap<u16, u32>, Vec<f32>)> {
    let (game, s) = crate::args::state_arg(py, state, "state")?;
    if s.is_terminal() {
        return Err(to_py(
            py,
            Error::IllegalAction("the game is over: there is nothing to search".into()),
        ));
    }
    let mut c = PuctConfig::default();
    if let Some(x) = simulations {
        c.simulations = int_arg(py, x, "simulations", 2, 1 << 24, Error::Config)? as u32;
    }
    if let Some(x) = c_puct {
        c.c_puct = positive(py, x, "c_puct")?;
    }
    let seed = seed.map_or(Ok(0), |x| seed_arg(py, x))?;
    let done = match evaluator.cast::<Net>() {
        Ok(n) => {
            let n = n.get();
            if game_key(&n.game) != game_key(&game) {
                return Err(config(
                    py,
                    format!(
                        "the network was trained for {}, not for {}",
                        game_key(&n.game),
                        game_key(&game)
                    ),
                ));
            }
            let net = n.net.clone();
            let game = game.clone();
            detached(py, move || {
                let mut e = NetEvaluator {
                    net: &net,
                    scratch: Scratch::default(),
                };
                brass_core::puct::search(&game, &s, &c, seed, &mut e)
            })?
        }
        Err(_) => {
            let mut e = PyEvaluator {
                py,
                callable: evaluator,
                size: observation::size(&game),
                actions: game.num_actions(),
                players: game.players as usize,
                error: None,
            };
            match brass_core::puct::search(&game, &s, &c, seed, &mut e) {
                Ok(done) => done,
                Err(_) => return Err(e.error.take().expect("the evaluator's error")),
            }
        }
    };
    Ok((
        done.visits().into_iter().collect(),
        done.root_value()[..game.players as usize].to_vec(),
    ))
}
