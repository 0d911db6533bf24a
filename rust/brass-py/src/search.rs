//! `brass.search`: the search a policy-value network guides (docs/learning.md): `SearchGames` (self-play,
//! many games at once), `SearchGame` and `analyse`. A native network (`agents.Net`) evaluates the leaves with
//! the GIL released, a Python callable in batches.
use crate::args::{
    bool_arg, evaluator_arg, evaluator_output, first_arg, fraction_arg, game_arg, games_arg,
    int_arg, non_negative_arg, policy_target_arg, search_rule_arg, seed_or_zero, simulations_arg,
    simulations_named, state_arg, EvaluatorArg, GumbelArgs,
};
use crate::errors::{detached, guard, interruptible, to_py};
use brass_core::net::{Net as CoreNet, Scratch};
use brass_core::net_agents::NetEvaluator;
use brass_core::puct::{Evaluator, PuctConfig, LONG_SEARCH_SIMULATIONS};
use brass_core::search_games::SearchGamesConfig;
use brass_core::search_games::{
    Lanes, SearchGame as CoreSearchGame, SearchGames as CoreSearchGames,
};
use brass_core::{observation, selfplay, Error, Game as CoreGame};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

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

impl<'a, 'py> PyEvaluator<'a, 'py> {
    fn new(py: Python<'py>, callable: &'a Bound<'py, PyAny>, game: &CoreGame) -> Self {
        PyEvaluator {
            py,
            callable,
            size: observation::size(game),
            actions: game.num_actions(),
            players: game.players as usize,
            error: None,
        }
    }

    /// The callable's logits and values for `rows` leaves.
    fn call(
        &self,
        observations: &[f32],
        masks: &[bool],
        rows: usize,
    ) -> PyResult<(Vec<f32>, Vec<f32>)> {
        let py = self.py;
        let obs = PyArray1::from_slice(py, observations).reshape([rows, self.size])?;
        let mask = PyArray1::from_slice(py, masks).reshape([rows, self.actions])?;
        let out = self.callable.call1((obs, mask))?;
        evaluator_output(py, &out, rows, self.actions, self.players)
    }

    /// The Python error that stopped a search: the callable's own exception, as it was raised.
    fn failure(&mut self, err: Error) -> PyErr {
        self.error.take().unwrap_or_else(|| to_py(self.py, err))
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
        match self.call(observations, masks, rows) {
            Ok((l, v)) => {
                (*logits, *values) = (l, v);
                Ok(())
            }
            Err(e) => {
                // Kept to be raised as it is; the search only needs to stop.
                self.error = Some(e);
                Err(Error::Config("the evaluator failed".into()))
            }
        }
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
    inner: Mutex<Play>,
    game: Arc<CoreGame>,
    evaluator: Py<PyAny>,
    native: Option<Arc<CoreNet>>,
    ready: Mutex<VecDeque<CoreSearchGame>>,
    /// Set while a Python evaluator has a round's leaves: the games may not be stepped again until they are
    /// delivered (by the evaluator itself calling back, or by another thread).
    evaluating: AtomicBool,
}

#[pymethods]
impl SearchGames {
    #[new]
    #[pyo3(signature = (game, evaluator, games, seed = None, first = None, simulations = None,
                        parallel = None, c_puct = None, dirichlet_alpha = None, dirichlet_fraction = None,
                        temperature = None, temperature_decisions = None, policy_target = None,
                        search = None, considered = None, gumbel_scale = None, full_search_fraction = None,
                        fast_simulations = None, rescale = None, c_visit = None, c_scale = None))]
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
        policy_target: Option<&Bound<'_, PyAny>>,
        search: Option<&Bound<'_, PyAny>>,
        considered: Option<&Bound<'_, PyAny>>,
        gumbel_scale: Option<&Bound<'_, PyAny>>,
        full_search_fraction: Option<&Bound<'_, PyAny>>,
        fast_simulations: Option<&Bound<'_, PyAny>>,
        rescale: Option<&Bound<'_, PyAny>>,
        c_visit: Option<&Bound<'_, PyAny>>,
        c_scale: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SearchGames> {
        let g = game_arg(py, game, "game")?;
        let native = match evaluator_arg(py, evaluator, &g)? {
            EvaluatorArg::Native(net) => Some(net),
            EvaluatorArg::Python(_) => None,
        };
        let mut c = SearchGamesConfig::default();
        if let Some(s) = simulations {
            c.search.simulations = simulations_arg(py, s)?;
        }
        if let Some(p) = parallel {
            c.parallel = int_arg(py, p, "parallel", 1, 1 << 16, Error::Config)? as usize;
        }
        if let Some(x) = c_puct {
            c.search.c_puct = non_negative_arg(py, x, "c_puct")?;
        }
        if let Some(x) = dirichlet_alpha {
            c.search.dirichlet_alpha = non_negative_arg(py, x, "dirichlet_alpha")?;
        }
        if let Some(x) = dirichlet_fraction {
            c.search.dirichlet_fraction = fraction_arg(py, x, "dirichlet_fraction")?;
        }
        if let Some(x) = temperature {
            c.temperature = non_negative_arg(py, x, "temperature")?;
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
        c.policy_target = policy_target_arg(py, policy_target)?;
        let given = GumbelArgs {
            considered,
            scale: gumbel_scale,
            rescale: rescale.map(|r| bool_arg(py, r, "rescale")).transpose()?,
            c_visit,
            c_scale,
        };
        c.search.gumbel = search_rule_arg(py, search, given, None)?;
        if let Some(x) = full_search_fraction {
            c.full_search_fraction = fraction_arg(py, x, "full_search_fraction")?;
        }
        if let Some(x) = fast_simulations {
            c.fast_simulations = simulations_named(py, x, "fast_simulations")?;
        }
        let games = games_arg(py, games)?;
        let seed = seed_or_zero(py, seed)?;
        let first = first_arg(py, first)?;
        let inner = guard(py, || {
            Ok(match &native {
                // A native network: a lane of games per thread, each evaluating its own leaves.
                Some(_) => {
                    let lanes = Lanes::for_threads(c.parallel);
                    Play::Lanes(Lanes::new(&g, c, seed, first, games, lanes))
                }
                None => Play::One(Box::new(CoreSearchGames::new(&g, c, seed, first, games))),
            })
        })?;
        Ok(SearchGames {
            inner: Mutex::new(inner),
            game: g,
            evaluator: evaluator.clone().unbind(),
            native,
            ready: Mutex::new(VecDeque::new()),
            evaluating: AtomicBool::new(false),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Leaves evaluated so far.
    #[getter]
    fn leaf_evaluations(&self) -> u64 {
        match &*lock(&self.inner) {
            Play::One(p) => p.evaluations,
            Play::Lanes(l) => l.evaluations(),
        }
    }

    /// Seconds spent so far in the engine (playing, searching, observations) and in a native network's
    /// evaluations — wall-clock seconds: with a native network, each lane's averaged over the lanes, which
    /// run at the same time; with a Python evaluator, its time is not counted here.
    #[getter]
    fn seconds(&self) -> (f64, f64) {
        match &*lock(&self.inner) {
            Play::One(p) => (p.engine_seconds, p.network_seconds),
            Play::Lanes(l) => l.seconds(),
        }
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

/// The games under way: split into lanes (a native network), or one batch for a Python evaluator.
enum Play {
    One(Box<CoreSearchGames>),
    Lanes(Lanes),
}

impl Play {
    fn is_done(&self) -> bool {
        match self {
            Play::One(p) => p.is_done(),
            Play::Lanes(l) => l.is_done(),
        }
    }

    fn one(&mut self) -> &mut CoreSearchGames {
        match self {
            Play::One(p) => p,
            Play::Lanes(_) => unreachable!("a Python evaluator plays one batch"),
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
                let Play::Lanes(lanes) = &mut *inner else {
                    unreachable!("a native network plays in lanes");
                };
                let split = lanes.len() > 1;
                let mut evaluators: Vec<NetEvaluator> = (0..lanes.len())
                    .map(|_| NetEvaluator {
                        net: &net,
                        scratch: Scratch::default(),
                        batch: true,
                        on_this_thread: split,
                    })
                    .collect();
                lanes.step(&mut evaluators)
            });
        }
        // The lock is let go while the evaluator runs (it holds the GIL, and may release it): one caller at a
        // time, or a second round would be played on leaves still out and deliver evaluations for none.
        if self.evaluating.swap(true, Ordering::AcqRel) {
            return Err(to_py(
                py,
                Error::Config(
                    "these SearchGames are being stepped already: a round's leaves are out with the evaluator, \
                     which (or another thread) asked for the next game before evaluating them; step one \
                     SearchGames from one caller at a time"
                        .into(),
                ),
            ));
        }
        struct Evaluating<'a>(&'a AtomicBool);
        impl Drop for Evaluating<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let _evaluating = Evaluating(&self.evaluating);
        let (finished, leaves) = detached(py, || {
            let mut inner = lock(&self.inner);
            let play = inner.one();
            let finished = play.advance();
            Ok((finished, play.leaves()))
        })?;
        let (obs, masks, rows) = leaves;
        if rows > 0 {
            let mut evaluator = PyEvaluator::new(py, self.evaluator.bind(py), &self.game);
            let (mut logits, mut values) = (Vec::new(), Vec::new());
            if let Err(e) = evaluator.evaluate(&obs, &masks, rows, &mut logits, &mut values) {
                return Err(evaluator.failure(e));
            }
            detached(py, || lock(&self.inner).one().deliver(&logits, &values))?;
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
    /// Every seat's VP when the first era was scored (the final VP in a one-era game).
    era_scores: Vec<i32>,
    /// The game record JSON.
    record: String,
    /// Per decision: `player` (int8), `observation` (float32, rows × observation_size), `legal_mask`
    /// (uint8, bit-packed), `policy` (float32, rows × num_actions: the policy target), `target` (bool: whether
    /// the policy is a training target: the decision was searched in full, or had one legal action).
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
        d.set_item("target", PyArray1::from_vec(py, g.targets))?;
        let record = guard(py, || {
            Ok(brass_core::json::seeded_record_json(
                &brass_core::json::game_json(game).to_string(),
                g.seed,
                &g.actions,
            ))
        })?;
        Ok(SearchGame {
            index: g.index,
            seed: g.seed,
            actions: g.actions,
            scores: g.scores,
            returns: g.returns,
            era_scores: g.era_scores,
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
#[pyo3(signature = (state, evaluator, simulations = None, c_puct = None, seed = None, search = None,
                    considered = None, gumbel_scale = None, rescale = None, c_visit = None, c_scale = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyse(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    evaluator: &Bound<'_, PyAny>,
    simulations: Option<&Bound<'_, PyAny>>,
    c_puct: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    search: Option<&Bound<'_, PyAny>>,
    considered: Option<&Bound<'_, PyAny>>,
    gumbel_scale: Option<&Bound<'_, PyAny>>,
    rescale: Option<&Bound<'_, PyAny>>,
    c_visit: Option<&Bound<'_, PyAny>>,
    c_scale: Option<&Bound<'_, PyAny>>,
) -> PyResult<(std::collections::BTreeMap<u16, u32>, Vec<f32>)> {
    let (game, s) = state_arg(py, state, "state")?;
    if s.is_terminal() {
        return Err(to_py(
            py,
            Error::IllegalAction("the game is over: there is nothing to search".into()),
        ));
    }
    let mut c = PuctConfig::default();
    if let Some(x) = simulations {
        c.simulations = simulations_arg(py, x)?;
    }
    if let Some(x) = c_puct {
        c.c_puct = non_negative_arg(py, x, "c_puct")?;
    }
    let given = GumbelArgs {
        considered,
        scale: gumbel_scale,
        rescale: rescale.map(|r| bool_arg(py, r, "rescale")).transpose()?,
        c_visit,
        c_scale,
    };
    c.gumbel = search_rule_arg(py, search, given, None)?;
    let seed = seed_or_zero(py, seed)?;
    let done = match evaluator_arg(py, evaluator, &game)? {
        EvaluatorArg::Native(net) => {
            let game = game.clone();
            let long = c.simulations >= LONG_SEARCH_SIMULATIONS;
            let search = move |stop: &AtomicBool| {
                let mut e = NetEvaluator {
                    net: &net,
                    scratch: Scratch::default(),
                    batch: false,
                    on_this_thread: false,
                };
                brass_core::puct::search_or_stop(&game, &s, &c, seed, &mut e, stop)
            };
            if long {
                // A Ctrl-C stops it within one evaluation.
                interruptible(py, search)?
            } else {
                detached(py, || {
                    let go_on = AtomicBool::new(false);
                    Ok(search(&go_on)?.expect("nothing stops it"))
                })?
            }
        }
        // The callable runs with the GIL, so the search does too.
        EvaluatorArg::Python(callable) => {
            let mut e = PyEvaluator::new(py, callable, &game);
            let search = guard(py, || {
                Ok(brass_core::puct::search(&game, &s, &c, seed, &mut e))
            })?;
            search.map_err(|err| e.failure(err))?
        }
    };
    Ok((
        done.visits().into_iter().collect(),
        done.root_value()[..game.players as usize].to_vec(),
    ))
}
