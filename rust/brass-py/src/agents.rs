//! `brass.agents`: native agents (random, greedy, MCTS) and native self-play, GIL released.
use crate::errors::{detached, to_py};
use crate::game::{seed_arg, Game};
use crate::state::State;
use brass_core::agents::{
    self, Agent as CoreAgent, GreedyAgent, MctsAgent, MctsConfig, RandomAgent,
};
use brass_core::{Error, Rng};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// Base class of the native agents: `choose(state, seed=0)` returns a legal action id.
#[pyclass(module = "brass.agents", subclass, frozen)]
pub(crate) struct Agent {
    pub(crate) inner: Arc<dyn CoreAgent>,
}

#[pymethods]
impl Agent {
    /// A legal action id for the state's current player, deterministic for `seed`.
    #[pyo3(signature = (state, seed = None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: &State,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u16> {
        let seed = match seed {
            Some(s) => seed_arg(py, s)?,
            None => 0,
        };
        if state.inner.is_terminal() {
            return Err(to_py(
                py,
                Error::IllegalAction("the game is over: there is nothing to choose".into()),
            ));
        }
        let (agent, game, s) = (self.inner.clone(), state.game.clone(), state.inner);
        detached(py, move || Ok(agent.choose(&game, &s, &mut Rng(seed))))
    }
    /// A short name: "random", "greedy", "mcts(1000)".
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
    fn __call__(&self, py: Python<'_>, state: &State) -> PyResult<u16> {
        self.choose(py, state, None)
    }
    fn __repr__(&self) -> String {
        format!("<brass.agents {}>", self.inner.name())
    }
}

/// Uniformly random legal actions.
#[pyclass(module = "brass.agents", extends = Agent, frozen)]
pub(crate) struct Random;

#[pymethods]
impl Random {
    #[new]
    fn new() -> PyClassInitializer<Random> {
        PyClassInitializer::from(Agent {
            inner: Arc::new(RandomAgent),
        })
        .add_subclass(Random)
    }
}

/// One-ply greedy on the evaluation of docs/agents.md (VP, tiles, links, income, money).
#[pyclass(module = "brass.agents", extends = Agent, frozen)]
pub(crate) struct Greedy;

#[pymethods]
impl Greedy {
    #[new]
    fn new() -> PyClassInitializer<Greedy> {
        PyClassInitializer::from(Agent {
            inner: Arc::new(GreedyAgent),
        })
        .add_subclass(Greedy)
    }
}

/// Determinised (single-observer information-set) Monte-Carlo tree search, docs/agents.md.
///
/// `iterations` per decision, or a `time_ms` wall-clock budget (then results depend on the machine);
/// `rollout_depth` random decisions before scoring a position (0: play to the end).
#[pyclass(module = "brass.agents", extends = Agent, frozen, name = "MCTS")]
pub(crate) struct Mcts;

#[pymethods]
impl Mcts {
    #[new]
    #[pyo3(signature = (iterations = 1000, time_ms = None, exploration = 0.7, rollout_depth = 40))]
    fn new(
        py: Python<'_>,
        iterations: u32,
        time_ms: Option<u64>,
        exploration: f64,
        rollout_depth: u32,
    ) -> PyResult<PyClassInitializer<Mcts>> {
        if iterations == 0 || !(exploration.is_finite() && exploration >= 0.0) {
            return Err(to_py(
                py,
                Error::Config("MCTS needs iterations ≥ 1 and a finite exploration ≥ 0".into()),
            ));
        }
        let config = MctsConfig {
            iterations: if time_ms.is_some() {
                u32::MAX
            } else {
                iterations
            },
            time_limit: time_ms.map(Duration::from_millis),
            exploration,
            rollout_depth,
        };
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(MctsAgent::new(config)),
        })
        .add_subclass(Mcts))
    }
}

/// One finished game of `play_games`.
#[pyclass(module = "brass.agents", frozen, get_all)]
pub(crate) struct GameResult {
    /// Index of the game in its run.
    index: u64,
    /// The deal seed (the game record's seed).
    seed: u64,
    /// Agent name per seat.
    seats: Vec<String>,
    actions: Vec<u16>,
    scores: Vec<i32>,
    winners: Vec<u32>,
    /// The game record JSON (docs/state-format.md), replayable with `brass.replay`.
    record: String,
}

#[pymethods]
impl GameResult {
    fn __repr__(&self) -> String {
        format!(
            "GameResult(index={}, seats={:?}, scores={:?}, winners={:?})",
            self.index, self.seats, self.scores, self.winners
        )
    }
}

/// Play games `first .. first + games` between native agents, in parallel with the GIL released.
/// Game `i` is dealt and played from seeds derived from (`seed`, `i`) only, so any split of the
/// indices (threads, processes, machines) gives the same games. With `rotate`, game `i` seats agent
/// `(p + i) mod players` as player `p`.
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed = None, first = 0, rotate = true, threads = 0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_games(
    py: Python<'_>,
    game: &Game,
    agents: Vec<PyRef<'_, Agent>>,
    games: u64,
    seed: Option<&Bound<'_, PyAny>>,
    first: u64,
    rotate: bool,
    threads: usize,
) -> PyResult<Vec<GameResult>> {
    let seed = match seed {
        Some(s) => seed_arg(py, s)?,
        None => 0,
    };
    let g = game.inner.clone();
    if agents.len() != g.players as usize {
        return Err(to_py(
            py,
            Error::Config(format!(
                "{} agents for a {}-player game",
                agents.len(),
                g.players
            )),
        ));
    }
    let owned: Vec<Arc<dyn CoreAgent>> = agents.iter().map(|a| a.inner.clone()).collect();
    let results = detached(py, || {
        let refs: Vec<&dyn CoreAgent> = owned.iter().map(|a| a.as_ref()).collect();
        Ok(agents::play_games(
            &g, &refs, seed, first, games, rotate, threads,
        ))
    })?;
    let n = g.players as usize;
    Ok(results
        .into_iter()
        .zip(first..)
        .map(|(r, i)| GameResult {
            index: i,
            seed: r.seed,
            seats: (0..n)
                .map(|p| owned[if rotate { (p + i as usize) % n } else { p }].name())
                .collect(),
            record: r.record(&g),
            actions: r.actions,
            scores: r.scores,
            winners: r.winners.into_iter().map(u32::from).collect(),
        })
        .collect())
}

/// The evaluation the greedy agent maximises, for one player (docs/agents.md).
#[pyfunction]
pub(crate) fn evaluate(state: &State, player: u8) -> PyResult<f64> {
    if player >= state.game.players {
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "player {player} does not exist"
        )));
    }
    Ok(agents::evaluate(&state.game, &state.inner, player))
}
