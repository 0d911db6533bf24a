//! `brass.agents`: native agents (random, greedy, MCTS) and native self-play, GIL released.
use crate::args::{bool_arg, float_arg, game_arg, int_arg, sampler_arg, state_arg};
use crate::errors::{detached, player_index_error, to_py, type_error};
use crate::game::{as_index, seed_arg, type_name};
use brass_core::agents::{
    self, Agent as CoreAgent, GreedyAgent, MctsAgent, MctsConfig, RandomAgent,
};
use brass_core::{apply, net, selfplay, Error, Rng};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// Base class of the native agents: `choose(state, seed=0)` returns a legal action id.
#[pyclass(module = "brass.agents", subclass, frozen)]
pub(crate) struct Agent {
    pub(crate) inner: Arc<dyn CoreAgent>,
    /// The one game the agent can play (a trained network's), or None for any game.
    pub(crate) game: Option<Arc<brass_core::Game>>,
}

impl Agent {
    /// An error unless the agent can play `game`.
    pub(crate) fn check_game(&self, py: Python<'_>, game: &brass_core::Game) -> PyResult<()> {
        match &self.game {
            Some(trained) if net::game_key(trained) != net::game_key(game) => Err(to_py(
                py,
                Error::Config(format!(
                    "{} was trained for {}, not for {}",
                    self.inner.name(),
                    net::game_key(trained),
                    net::game_key(game)
                )),
            )),
            _ => Ok(()),
        }
    }
}

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
        let seed = match seed {
            Some(s) => seed_arg(py, s)?,
            None => 0,
        };
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
pub(crate) struct Random;

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
        .add_subclass(Random))
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
            return Err(to_py(py, Error::Config("exploration must be ≥ 0".into())));
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
        let seed = match seed {
            Some(s) => seed_arg(py, s)?,
            None => 0,
        };
        let (game, s) = state_arg(py, state, "state")?;
        if s.is_terminal() {
            return Err(to_py(
                py,
                Error::IllegalAction("the game is over: there is nothing to analyse".into()),
            ));
        }
        let agent = MctsAgent::new(self.config.clone());
        detached(py, move || {
            let mut ids = Vec::new();
            brass_core::rules::legal_actions(&game, &s, &mut ids);
            if ids.len() == 1 {
                return Ok(vec![(ids[0], 0, 0.0)]);
            }
            let mut visits: Vec<(u16, u32, f64)> = agent
                .search(&game, &s, &mut Rng(seed))
                .into_iter()
                .map(|v| (v.action, v.visits, v.mean))
                .collect();
            // Stable: equal ones stay in the order the search first tried them, the first being `choose`'s.
            visits.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
            Ok(visits)
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

/// `agents` as native agents, or a `TypeError` that names the first entry that is not one (a Python
/// function is played by `agents.play_game`, which calls it).
pub(crate) fn native_agents<'py>(
    py: Python<'py>,
    agents: &Bound<'py, PyAny>,
) -> PyResult<Vec<PyRef<'py, Agent>>> {
    let Ok(items) = agents.extract::<Vec<Bound<'py, PyAny>>>() else {
        return Err(type_error(
            py,
            format!(
                "agents must be a list of native agents (brass.agents.Random(), Greedy(), MCTS(...), Net(...), \
                 NetMCTS(...)), not {}",
                type_name(agents)
            ),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.extract::<PyRef<'py, Agent>>().map_err(|_| {
                type_error(
                    py,
                    format!(
                        "agents[{i}] is a {}, not a native agent: these games run on native threads; \
                         play a Python policy with brass.agents.play_game",
                        type_name(item)
                    ),
                )
            })
        })
        .collect()
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
    let seed = match seed {
        Some(s) => seed_arg(py, s)?,
        None => 0,
    };
    let g = game_arg(py, game, "game")?;
    let agents = native_agents(py, agents)?;
    let games = int_arg(py, games, "games", 0, u32::MAX as i64, Error::Config)? as u64;
    let first = match first {
        Some(f) => int_arg(py, f, "first", 0, i64::MAX >> 1, Error::Config)? as u64,
        None => 0,
    };
    let rotate = match rotate {
        Some(r) => bool_arg(py, r, "rotate")?,
        None => true,
    };
    let threads = match threads {
        Some(t) => int_arg(py, t, "threads", 0, 4096, Error::Config)? as usize,
        None => 0,
    };
    if agents.len() != g.players as usize {
        return Err(to_py(
            py,
            Error::Config(format!(
                "{} agent{} for a {}-player game: give one agent per seat",
                agents.len(),
                if agents.len() == 1 { "" } else { "s" },
                g.players
            )),
        ));
    }
    for a in &agents {
        a.check_game(py, &g)?;
    }
    let owned: Vec<Arc<dyn CoreAgent>> = agents.iter().map(|a| a.inner.clone()).collect();
    let results = detached(py, || {
        let refs: Vec<&dyn CoreAgent> = owned.iter().map(|a| a.as_ref()).collect();
        Ok(agents::play_games(
            &g, &refs, seed, first, games, rotate, threads,
        ))
    })?;
    let n = g.players as usize;
    let names: Vec<String> = owned.iter().map(|a| a.name()).collect();
    let seat_names = |i: u64| -> Vec<String> {
        (0..n)
            .map(|p| names[if rotate { (p + i as usize) % n } else { p }].clone())
            .collect()
    };
    Ok(results
        .into_iter()
        .zip(first..)
        .map(|(r, i)| {
            let record = r.record(&g);
            let line = selfplay::line(i, Some(seed), &seat_names(i), &r, &record);
            GameResult {
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
            }
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
    Ok(apply::placings(&game, &s)
        .into_iter()
        .map(u32::from)
        .collect())
}

/// The evaluation the greedy agent maximises, for one player (docs/agents.md).
#[pyfunction]
pub(crate) fn evaluate(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    player: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let (game, s) = state_arg(py, state, "state")?;
    let p = as_index(player).ok_or_else(|| {
        type_error(
            py,
            format!("a player index is an int, not {}", type_name(player)),
        )
    })?;
    if p < 0 || p >= game.players as i64 {
        return Err(player_index_error(
            py,
            crate::game::no_such_player(player, game.players),
        ));
    }
    Ok(agents::evaluate(&game, &s, p as u8))
}
