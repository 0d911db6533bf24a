//! `brass.agents`: the native agents' methods (random, greedy, MCTS; the base class's data is
//! `wrappers::Agent`) and native self-play, GIL released.
use crate::args::{
    bool_arg, first_arg, float_arg, game_arg, games_arg, int_arg, native_agents_arg, player_arg,
    sampler_arg, seed_or_zero, state_arg, threads_arg,
};
use crate::errors::{config_error, detached, guard, interruptible, to_py};
use crate::wrappers::Agent;
use brass_core::agents::{
    self, Agent as CoreAgent, GreedyAgent, MctsAgent, MctsConfig, RandomAgent,
};
use brass_core::sample::Sampler;
use brass_core::{apply, selfplay, Error, Rng};
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::sync::Arc;
use std::time::Duration;

#[pymethods]
impl Agent {
    /// A legal action id for the state's current player, deterministic for `seed`.
    #[pyo3(signature = (state, seed = None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u16> {
        let seed = seed_or_zero(py, seed)?;
        // A snapshot: the search runs without the GIL and without holding the state.
        let (game, s) = state_arg(py, state, "state")?;
        self.check_game(py, &game)?;
        if s.is_terminal() {
            return Err(to_py(
                py,
                Error::IllegalAction("the game is over: there is nothing to choose".into()),
            ));
        }
        let agent = self.inner.clone();
        if agent.may_take_long() {
            // A large search answers a Ctrl-C in milliseconds, not when it ends.
            return interruptible(py, move |stop| {
                Ok(agent.choose_or_stop(&game, &s, &mut Rng(seed), stop))
            });
        }
        detached(py, move || Ok(agent.choose(&game, &s, &mut Rng(seed))))
    }
    /// A short name: "random", "greedy", "mcts(1000)".
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
    fn __call__(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u16> {
        self.choose(py, state, None)
    }
    fn __repr__(&self) -> String {
        format!("<brass.agents {}>", self.inner.name())
    }
}

/// Uniformly random legal actions. `sampler`: `"list"` (default: the legal actions listed, one picked; the games
/// of earlier releases) or `"draw"` (candidates drawn until one is legal: also uniform, other games; faster in
/// Lancashire and classic Brass, slower in Birmingham).
#[pyclass(module = "brass.agents", extends = Agent, frozen)]
pub(crate) struct Random {
    sampler: Sampler,
}

#[pymethods]
impl Random {
    #[new]
    #[pyo3(signature = (sampler = None))]
    fn new(
        py: Python<'_>,
        sampler: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Random>> {
        let sampler = sampler_arg(py, sampler)?;
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(RandomAgent::new(sampler)),
            game: None,
        })
        .add_subclass(Random { sampler }))
    }
    /// Pickled as its constructor's arguments.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (&'static str,))> {
        Ok((slf.get_type(), (slf.get().sampler.name(),)))
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
            game: None,
        })
        .add_subclass(Greedy)
    }
    /// Pickled as its constructor's (no) arguments.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, ()) {
        (slf.get_type(), ())
    }
}

/// Determinised (single-observer information-set) Monte-Carlo tree search, docs/agents.md.
///
/// `iterations` per decision, or a `time_ms` wall-clock budget (then results depend on the machine);
/// `rollout_depth` random decisions before scoring a position (0: play to the end); `sampler`, how the
/// playouts draw their moves: `"list"` (default, the searches of earlier releases) or `"draw"` (other searches;
/// fewer instructions, as fast or somewhat faster).
#[pyclass(module = "brass.agents", extends = Agent, frozen, name = "MCTS")]
pub(crate) struct Mcts {
    config: MctsConfig,
}

#[pymethods]
impl Mcts {
    #[new]
    #[pyo3(signature = (iterations = None, time_ms = None, exploration = None, rollout_depth = None, sampler = None))]
    fn new(
        py: Python<'_>,
        iterations: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
        exploration: Option<&Bound<'_, PyAny>>,
        rollout_depth: Option<&Bound<'_, PyAny>>,
        sampler: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Mcts>> {
        let defaults = MctsConfig::default();
        let iterations = match iterations {
            Some(i) => int_arg(py, i, "iterations", 1, u32::MAX as i64, Error::Config)? as u32,
            None => defaults.iterations,
        };
        let time_ms = match time_ms {
            Some(t) if !t.is_none() => {
                Some(int_arg(py, t, "time_ms", 1, 86_400_000, Error::Config)? as u64)
            }
            _ => None,
        };
        let exploration = match exploration {
            Some(e) => float_arg(py, e, "exploration")?,
            None => defaults.exploration,
        };
        if exploration < 0.0 {
            return Err(config_error(py, "exploration must be ≥ 0".into()));
        }
        let rollout_depth = match rollout_depth {
            Some(d) => int_arg(py, d, "rollout_depth", 0, 100_000, Error::Config)? as u32,
            None => defaults.rollout_depth,
        };
        let config = MctsConfig {
            iterations: if time_ms.is_some() {
                u32::MAX
            } else {
                iterations
            },
            time_limit: time_ms.map(Duration::from_millis),
            exploration,
            rollout_depth,
            sampler: sampler_arg(py, sampler)?,
        };
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(MctsAgent::new(config.clone())),
            game: None,
        })
        .add_subclass(Mcts { config }))
    }

    /// Pickled as its constructor's arguments: `iterations` or `time_ms`, `exploration`, `rollout_depth`,
    /// `sampler`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (Option<u32>, Option<u128>, f64, u32, &'static str),
    ) {
        let c = &slf.get().config;
        let (iterations, time_ms) = match c.time_limit {
            Some(t) => (None, Some(t.as_millis())),
            None => (Some(c.iterations), None),
        };
        let args = (
            iterations,
            time_ms,
            c.exploration,
            c.rollout_depth,
            c.sampler.name(),
        );
        (slf.get_type(), args)
    }

    /// One search from `state`, as `choose` runs it (the same `seed` gives the same search): each root action
    /// tried, as `(action, visits, mean)`, the mean being the reward for the player to move (1 a sure win, 0 a
    /// sure loss), most visited first (then the best mean): the first is the action `choose` plays. With one legal
    /// action, it alone, unsearched.
    #[pyo3(signature = (state, seed = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(u16, u32, f64)>> {
        let seed = seed_or_zero(py, seed)?;
        let (game, s) = state_arg(py, state, "state")?;
        if s.is_terminal() {
            return Err(to_py(
                py,
                Error::IllegalAction("the game is over: there is nothing to analyse".into()),
            ));
        }
        let agent = MctsAgent::new(self.config.clone());
        interruptible(py, move |stop| {
            let mut ids = Vec::new();
            brass_core::rules::legal_actions(&game, &s, &mut ids);
            if ids.len() == 1 {
                return Ok(Some(vec![(ids[0], 0, 0.0)]));
            }
            let Some(searched) = agent.search_or_stop(&game, &s, &mut Rng(seed), stop) else {
                return Ok(None);
            };
            let mut visits: Vec<(u16, u32, f64)> = searched
                .into_iter()
                .map(|v| (v.action, v.visits, v.mean))
                .collect();
            // Stable: equal ones stay in the order the search first tried them, the first being `choose`'s.
            visits.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
            Ok(Some(visits))
        })
    }
}

/// One finished game of `play_games` or a `GameStream`.
#[pyclass(module = "brass.agents", frozen, get_all)]
pub(crate) struct GameResult {
    /// Index of the game in its run.
    pub(crate) index: u64,
    /// The deal seed (the game record's seed).
    pub(crate) seed: u64,
    /// Agent name per seat.
    pub(crate) seats: Vec<String>,
    pub(crate) actions: Vec<u16>,
    pub(crate) scores: Vec<i32>,
    pub(crate) winners: Vec<u32>,
    /// Each seat's place after the tie-breaks, 0 first (players tied on every tie-break share a place).
    pub(crate) placings: Vec<u32>,
    /// Each seat's zero-sum result (`State.returns`: a sole winner +1, the others −1/(players − 1)).
    pub(crate) returns: Vec<f64>,
    /// The game record JSON (docs/state-format.md), replayable with `brass.replay`.
    pub(crate) record: String,
    /// The line `brass selfplay --out` writes for the game (JSON, no newline; docs/selfplay.md).
    pub(crate) line: String,
    /// Training samples (a dict of numpy arrays, docs/selfplay.md) when the stream takes them, else None.
    pub(crate) samples: Option<Py<PyAny>>,
}

#[pymethods]
impl GameResult {
    /// The number of decisions of the game (`len(actions)`, without building the list).
    #[getter]
    fn decisions(&self) -> usize {
        self.actions.len()
    }
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
#[pyo3(signature = (game, agents, games, seed = None, first = None, rotate = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_games(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    first: Option<&Bound<'_, PyAny>>,
    rotate: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<GameResult>> {
    let seed = seed_or_zero(py, seed)?;
    let g = game_arg(py, game, "game")?;
    let agents = native_agents_arg(py, agents)?;
    let games = games_arg(py, games)?;
    let first = first_arg(py, first)?;
    let rotate = rotate.map_or(Ok(true), |r| bool_arg(py, r, "rotate"))?;
    let threads = threads_arg(py, threads)?;
    if agents.len() != g.players as usize {
        return Err(config_error(
            py,
            format!(
                "{} agent{} for a {}-player game: give one agent per seat",
                agents.len(),
                if agents.len() == 1 { "" } else { "s" },
                g.players
            ),
        ));
    }
    for a in &agents {
        a.check_game(py, &g)?;
    }
    let owned: Vec<Arc<dyn CoreAgent>> = agents.iter().map(|a| a.inner.clone()).collect();
    let n = g.players as usize;
    let names: Vec<String> = owned.iter().map(|a| a.name()).collect();
    let seat_names = |i: u64| -> Vec<String> {
        (0..n)
            .map(|p| names[if rotate { (p + i as usize) % n } else { p }].clone())
            .collect()
    };
    // Every game looks at the stop flag between decisions (MCTS within its search): a Ctrl-C is answered in
    // milliseconds, not when the batch ends.
    let results = interruptible(py, |stop| {
        let refs: Vec<&dyn CoreAgent> = owned.iter().map(|a| a.as_ref()).collect();
        let indices = first..first + games;
        let Some(played) =
            agents::play_games_or_stop(&g, &refs, seed, indices, rotate, threads, stop)
        else {
            return Ok(None);
        };
        Ok(Some(
            played
                .into_iter()
                .zip(first..)
                .map(|(r, i)| {
                    let record = r.record(&g);
                    let line = selfplay::line(i, Some(seed), &seat_names(i), &r, &record);
                    (r, i, record, line)
                })
                .collect::<Vec<_>>(),
        ))
    })?;
    Ok(results
        .into_iter()
        .map(|(r, i, record, line)| GameResult {
            index: i,
            seed: r.seed,
            seats: seat_names(i),
            record,
            line,
            actions: r.actions,
            scores: r.scores,
            winners: r.winners.into_iter().map(u32::from).collect(),
            placings: r.placings.into_iter().map(u32::from).collect(),
            returns: r.returns,
            samples: None,
        })
        .collect())
}

/// Each player's place in a finished game after the tie-breaks, 0 first (players tied on every tie-break
/// share a place: 0, 0, 2, …); the game must be over.
#[pyfunction]
pub(crate) fn placings(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let (game, s) = state_arg(py, state, "state")?;
    if !s.is_terminal() {
        return Err(to_py(
            py,
            Error::IllegalAction("the game is not over: it has no placings yet".into()),
        ));
    }
    let placings = guard(py, || Ok(apply::placings(&game, &s)))?;
    Ok(placings.into_iter().map(u32::from).collect())
}

/// The evaluation the greedy agent maximises, for one player (docs/agents.md).
#[pyfunction]
pub(crate) fn evaluate(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    player: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let (game, s) = state_arg(py, state, "state")?;
    let p = player_arg(py, player, game.players)?;
    guard(py, || Ok(agents::evaluate(&game, &s, p)))
}
