//! `brass.agents.GameStream`: games played on native threads, read one by one in index order
//! (docs/selfplay.md). Waiting releases the GIL and wakes every 50 ms to let Python handle signals, so
//! Ctrl-C or SIGTERM stops a run between two games it has handed out.
use crate::agents::GameResult;
use crate::args::{
    bool_arg, first_arg, game_arg, games_arg, int_arg, native_agents_arg, rate_arg, seatings_arg,
    seed_arg, seed_or_zero, threads_arg,
};
use crate::errors::{config_error, detached, guard, internal_error};
use brass_core::agents::Agent as CoreAgent;
use brass_core::selfplay::{self, Batch, Finished, Schedule, Stream, StreamConfig};
use brass_core::{apply, observation, Error, Game as CoreGame};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a wait lasts before Python gets to run its signal handlers.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Games between native agents played on native threads and read in order, with bounded memory.
///
/// `GameStream(game, agents, games, seed=0, first=0, rotate=True, threads=0, sample_rate=None, window=0)`
/// plays games `first .. first + games` of the run seeded with `seed` (the games of `play_games`);
/// `GameStream(game, agents, seatings=[(deal, agents_seed, [agent index per player]), ...])` plays the
/// games listed. Iterating yields `GameResult`s in order; at most `window` games (default 8 per thread)
/// are played ahead of the reader. With `sample_rate` (0 < rate ≤ 1) each result carries the training
/// samples of its decisions kept with that probability. `cancel()` stops the games under way.
#[pyclass(module = "brass.agents", frozen)]
pub(crate) struct GameStream {
    stream: Stream,
    game: Arc<CoreGame>,
    names: Vec<String>,
    /// Finished games read from the stream but not yet yielded.
    buffer: Mutex<VecDeque<Finished>>,
}

#[pymethods]
impl GameStream {
    #[new]
    #[pyo3(signature = (game, agents, games = None, seed = None, first = None, rotate = None,
                        threads = None, sample_rate = None, window = None, seatings = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        agents: &Bound<'_, PyAny>,
        games: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        first: Option<&Bound<'_, PyAny>>,
        rotate: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        sample_rate: Option<&Bound<'_, PyAny>>,
        window: Option<&Bound<'_, PyAny>>,
        seatings: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<GameStream> {
        let g = game_arg(py, game, "game")?;
        let agents = native_agents_arg(py, agents)?;
        for a in &agents {
            a.check_game(py, &g)?;
        }
        let owned: Vec<Arc<dyn CoreAgent>> = agents.iter().map(|a| a.inner.clone()).collect();
        let players = g.players as usize;
        let schedule = match (games, seatings) {
            (Some(games), None) => {
                let games = games_arg(py, games)?;
                if owned.len() != players {
                    return Err(config_error(
                        py,
                        format!(
                            "{} agent{} for a {players}-player game: give one agent per seat",
                            owned.len(),
                            if owned.len() == 1 { "" } else { "s" }
                        ),
                    ));
                }
                Schedule::Run {
                    seed: seed_or_zero(py, seed)?,
                    first: first_arg(py, first)?,
                    games,
                    rotate: rotate.map_or(Ok(true), |r| bool_arg(py, r, "rotate"))?,
                }
            }
            (None, Some(list)) => {
                if seed.is_some() || first.is_some() || rotate.is_some() {
                    return Err(config_error(
                        py,
                        "seatings give each game's seeds and seats: no seed, first or rotate"
                            .into(),
                    ));
                }
                Schedule::Games(seatings_arg(py, list, players, owned.len())?)
            }
            _ => {
                return Err(config_error(
                    py,
                    "give either games (a run of games) or seatings (a list of games)".into(),
                ))
            }
        };
        let threads = threads_arg(py, threads)?;
        let window = match window {
            Some(w) => int_arg(py, w, "window", 0, 1 << 20, Error::Config)? as u64,
            None => 0,
        };
        let sample_rate = match sample_rate {
            Some(r) if !r.is_none() => Some(rate_arg(py, r, "sample_rate")?),
            _ => None,
        };
        let names = owned.iter().map(|a| a.name()).collect();
        let config = StreamConfig {
            threads,
            window,
            sample_rate,
        };
        let stream = guard(py, || {
            Ok(Stream::start(g.clone(), owned, schedule, &config))
        })?;
        Ok(GameStream {
            stream,
            game: g,
            names,
            buffer: Mutex::new(VecDeque::new()),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<GameResult> {
        loop {
            if let Some(f) = self.lock().pop_front() {
                return self.result(py, f);
            }
            match detached(py, || Ok(self.stream.next_batch(SIGNAL_CHECK)))? {
                Batch::Ready(games) => self.lock().extend(games),
                Batch::Pending => {
                    if let Err(e) = py.check_signals() {
                        // Ctrl-C / SIGTERM: stop the games under way; what was handed out stays handed out.
                        self.stream.cancel();
                        return Err(e);
                    }
                }
                Batch::Done => return Err(PyStopIteration::new_err(())),
                Batch::Failed(what) => return Err(internal_error(py, what)),
            }
        }
    }

    /// Stop: no new game starts and the games under way end at their next decision (a search stops within
    /// its decision). Iterating afterwards yields the games that had finished in order, then stops.
    fn cancel(&self) {
        self.stream.cancel();
    }

    /// Games yielded so far.
    #[getter]
    fn games_done(&self) -> u64 {
        self.stream.handed_out() - self.lock().len() as u64
    }

    /// Games in the stream.
    fn __len__(&self) -> usize {
        self.stream.len() as usize
    }

    /// The agent names, in the order given.
    #[getter]
    fn agents(&self) -> Vec<String> {
        self.names.clone()
    }
}

impl GameStream {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Finished>> {
        self.buffer.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn result(&self, py: Python<'_>, f: Finished) -> PyResult<GameResult> {
        let samples = match f.samples {
            Some(s) => Some(samples_dict(py, &self.game, s)?),
            None => None,
        };
        Ok(GameResult {
            index: f.index,
            seed: f.result.seed,
            seats: f.seats.iter().map(|&a| self.names[a].clone()).collect(),
            actions: f.result.actions,
            scores: f.result.scores,
            winners: f.result.winners.into_iter().map(u32::from).collect(),
            placings: f.result.placings.into_iter().map(u32::from).collect(),
            returns: f.result.returns,
            record: f.record,
            line: f.line,
            samples,
        })
    }
}

/// The samples of one game as numpy arrays (docs/selfplay.md, "Samples").
fn samples_dict(py: Python<'_>, game: &CoreGame, s: selfplay::Samples) -> PyResult<Py<PyAny>> {
    let rows = s.decisions.len();
    let d = PyDict::new(py);
    d.set_item("decision", PyArray1::from_vec(py, s.decisions))?;
    d.set_item("player", PyArray1::from_vec(py, s.players))?;
    d.set_item("action", PyArray1::from_vec(py, s.actions))?;
    d.set_item(
        "observation",
        PyArray1::from_vec(py, s.observations).reshape([rows, observation::size(game)])?,
    )?;
    d.set_item(
        "legal_mask",
        PyArray1::from_vec(py, s.masks).reshape([rows, selfplay::mask_bytes(game)])?,
    )?;
    Ok(d.into_any().unbind())
}

/// The training samples of a recorded game (`brass.selfplay.samples_of_record`): the game dealt from
/// `seed` is replayed with `actions`, each decision kept with probability `sample_rate` exactly as a
/// `GameStream` taking samples keeps it. The dict also holds the final `scores` and `returns` (all 0 if
/// the record stops before the end).
#[pyfunction]
pub(crate) fn _samples_of_game(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    actions: Vec<u16>,
    sample_rate: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let g = game_arg(py, game, "game")?;
    let seed = seed_arg(py, seed)?;
    let rate = rate_arg(py, sample_rate, "sample_rate")?;
    let n = g.players as usize;
    let (samples, end, returns) = detached(py, || {
        let (samples, end) = selfplay::samples_of_game(&g, seed, &actions, rate)?;
        let returns = apply::returns(&g, &end)[..n].to_vec();
        Ok((samples, end, returns))
    })?;
    let dict = samples_dict(py, &g, samples)?;
    let d = dict.bind(py);
    let scores: Vec<i32> = end.players[..n].iter().map(|p| p.vp).collect();
    d.set_item("scores", scores)?;
    d.set_item("returns", returns)?;
    Ok(dict)
}
