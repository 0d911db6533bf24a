//! Work on many games at once, with the GIL released: `brass.rollouts` and `brass.VecEnv`.
use crate::args::{
    action_ids_arg, game_arg, game_or_state_arg, games_arg, int_arg, sampler_arg, seed_arg,
    seed_or_zero, threads_arg,
};
use crate::errors::{detached, to_py};
use crate::wrappers::State;
use brass_core::{observation, rollout, vecenv, Error};
use numpy::{PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// Results of `brass.rollouts`: numpy arrays with one row per game, plus timing.
#[pyclass(module = "brass", frozen)]
pub(crate) struct RolloutResult {
    /// Final VP, shape (games, players), int32.
    #[pyo3(get)]
    scores: Py<PyAny>,
    /// True for each winner (shared wins have several), shape (games, players), bool.
    #[pyo3(get)]
    winners: Py<PyAny>,
    /// Decisions taken in each game, shape (games,), int32.
    #[pyo3(get)]
    decisions: Py<PyAny>,
    /// Wall-clock seconds of the playouts (GIL released).
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl RolloutResult {
    /// Games per second.
    #[getter]
    fn games_per_second(&self, py: Python<'_>) -> PyResult<f64> {
        let games = self.decisions.bind(py).len()?;
        Ok(games as f64 / self.seconds.max(1e-12))
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "RolloutResult(games={}, seconds={:.3}, threads={})",
            self.decisions.bind(py).len()?,
            self.seconds,
            self.threads
        ))
    }
}

/// Play `games` uniformly random games in Rust, in parallel, with the GIL released.
///
/// `game_or_state` is a `Game` (each game is dealt from its own seed) or a `State` (each game continues
/// from a copy of it). Results are the same for a given seed whatever `threads` (0 = all cores).
/// `sampler`: `"list"` (default; the legal actions listed, one picked: the games of earlier releases) or
/// `"draw"` (candidates drawn until one is legal: also uniform, other games for a seed; faster in Lancashire and
/// classic Brass, slower in Birmingham, docs/performance.md).
#[pyfunction]
#[pyo3(signature = (game_or_state, games, seed = None, threads = None, sampler = None))]
pub(crate) fn rollouts(
    py: Python<'_>,
    game_or_state: &Bound<'_, PyAny>,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    sampler: Option<&Bound<'_, PyAny>>,
) -> PyResult<RolloutResult> {
    let sampler = sampler_arg(py, sampler)?;
    let seed = seed_or_zero(py, seed)?;
    let games = games_arg(py, games)? as usize;
    let threads = threads_arg(py, threads)?;
    let (game, start) = game_or_state_arg(py, game_or_state)?;
    // Played in parts, the GIL taken back between them to see whether a Ctrl-C came: a batch of a million games
    // runs for minutes. The games are the same whatever the parts.
    let mut interrupt: Option<PyErr> = None;
    let (result, seconds) = detached(py, || {
        let t = Instant::now();
        let mut between = || match Python::attach(|py| py.check_signals()) {
            Ok(()) => true,
            Err(e) => {
                interrupt = Some(e);
                false
            }
        };
        let r = rollout::rollouts_in_parts(
            &game,
            start.as_ref(),
            games,
            seed,
            threads,
            sampler,
            ROLLOUT_PART,
            &mut between,
        );
        Ok((r, t.elapsed().as_secs_f64()))
    })?;
    let Some(result) = result else {
        return Err(interrupt.unwrap_or_else(|| {
            pyo3::exceptions::PyKeyboardInterrupt::new_err("the rollouts were stopped")
        }));
    };
    let n = result.players;
    let scores = PyArray1::from_vec(py, result.scores).reshape([games, n])?;
    let winners: Vec<bool> = result.winners.iter().map(|&w| w != 0).collect();
    let winners = PyArray1::from_vec(py, winners).reshape([games, n])?;
    let decisions: Vec<i32> = result.decisions.iter().map(|&d| d as i32).collect();
    let threads = if threads == 0 {
        rayon_threads()
    } else {
        threads
    };
    Ok(RolloutResult {
        scores: scores.into_any().unbind(),
        winners: winners.into_any().unbind(),
        decisions: PyArray1::from_vec(py, decisions).into_any().unbind(),
        seconds,
        threads,
    })
}

/// Games of a `rollouts` batch between two looks for a Ctrl-C: tens of milliseconds of play, against a pause of
/// a few µs to take the GIL back.
const ROLLOUT_PART: usize = 1024;

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The contents of a buffer owned by a VecEnv.
///
/// # Safety
/// The caller holds the VecEnv's lock, so no other Rust code touches the buffer, and takes at most one
/// slice of each array at a time. The arrays are C-contiguous and never resized. Python code reading an
/// array while a GIL-releasing call writes it sees a torn update, as with any numpy buffer written by a
/// GIL-releasing call.
// The returned slice aliases numpy-owned memory reached through a shared handle; exclusivity comes from the
// VecEnv lock (the contract above), which the lint cannot see.
#[allow(clippy::mut_from_ref)]
unsafe fn buffer<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    arr: &'a Bound<'_, numpy::PyArray<T, D>>,
    len: usize,
) -> PyResult<&'a mut [T]> {
    // The buffer handed out is a view (`handed`), but its `.base` is this array: one reshaped, resized or given
    // another dtype through it would be read with the wrong layout, so it is refused instead.
    let elements = PyUntypedArrayMethods::len(arr);
    if elements != len || !arr.dtype().is_equiv_to(&numpy::dtype::<T>(arr.py())) {
        return Err(to_py(
            arr.py(),
            Error::InvalidState(format!(
                "the VecEnv's own buffer was changed (it holds {} {} values, not {len} {}): \
                 make a new VecEnv, and copy or view the arrays it returns rather than reshaping them",
                elements,
                arr.dtype(),
                numpy::dtype::<T>(arr.py())
            )),
        ));
    }
    // SAFETY: the caller's contract above; the slice does not outlive the borrowed array handle.
    unsafe { arr.as_slice_mut() }
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}

/// A new view of one of the VecEnv's buffers, as the caller gets it: setting its `shape` or `dtype` changes the
/// view only, so the next call still fills (and returns) the buffer as it was made.
fn handed<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    arr: &Bound<'py, numpy::PyArray<T, D>>,
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let py = arr.py();
    // NumPy's C function, not the `view` method: a Python call would cost each step of a small VecEnv a tenth.
    // SAFETY: `PyArray_View` of a valid array with no new dtype or type returns a new reference to an array of
    // the same element type and dimensions, or NULL with the error set.
    unsafe {
        let view = numpy::npyffi::PY_ARRAY_API.PyArray_View(
            py,
            arr.as_array_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        Ok(Bound::from_owned_ptr_or_err(py, view)?.cast_into_unchecked())
    }
}

/// `(rewards, dones)` of `VecEnv.step`.
type StepResult<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);

/// `n` games stepped together for reinforcement learning, over preallocated numpy buffers.
///
/// `step(actions)` applies one action per environment (all are checked first; an illegal one raises
/// `IllegalActionError` naming the environment and changes nothing). Games that end are scored into
/// `rewards` / `scores`, flagged in `dones` and restarted at once. Arrays returned are views of the
/// environment's own buffers, overwritten by the next call: copy them to keep them.
#[pyclass(module = "brass", frozen)]
pub(crate) struct VecEnv {
    /// Locked by each call; a call while another thread's call runs gets a clear error instead of waiting.
    env: std::sync::Mutex<vecenv::VecEnv>,
    obs: Py<PyArray2<f32>>,
    masks: Py<PyArray2<bool>>,
    players: Py<PyArray1<i32>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    scores: Py<PyArray2<i32>>,
}

impl VecEnv {
    fn lock(&self, py: Python<'_>) -> PyResult<std::sync::MutexGuard<'_, vecenv::VecEnv>> {
        match self.env.try_lock() {
            Ok(guard) => Ok(guard),
            Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => Err(to_py(
                py,
                Error::InvalidState(
                    "this VecEnv is in use by another thread; use one VecEnv per thread".into(),
                ),
            )),
        }
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, n, seed = None))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<VecEnv> {
        let seed = seed_or_zero(py, seed)?;
        let n = int_arg(
            py,
            n,
            "the number of environments",
            1,
            1 << 20,
            Error::Config,
        )? as usize;
        let core_game = (*game_arg(py, game, "game")?).clone();
        let players = core_game.players as usize;
        let obs_size = observation::size(&core_game);
        let actions = core_game.num_actions();
        let env = detached(py, move || Ok(vecenv::VecEnv::new(core_game, n, seed)))?;
        Ok(VecEnv {
            env: std::sync::Mutex::new(env),
            obs: PyArray2::zeros(py, [n, obs_size], false).unbind(),
            masks: PyArray2::zeros(py, [n, actions], false).unbind(),
            players: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, players], false).unbind(),
            dones: PyArray1::zeros(py, n, false).unbind(),
            scores: PyArray2::zeros(py, [n, players], false).unbind(),
        })
    }

    /// Number of environments.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.len())
    }

    /// Start a new game in every environment; returns `observations()`.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        {
            let mut env = self.lock(py)?;
            let env = &mut *env;
            detached(py, || {
                env.reset();
                Ok(())
            })?;
        }
        self.observations(py)
    }

    /// Apply one action id per environment (a sequence or numpy array of ints); returns
    /// `(rewards, dones)`.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
        let ids = action_ids_arg(py, actions)?;
        let mut env = self.lock(py)?;
        let (rewards, dones, scores) = (
            self.rewards.bind(py),
            self.dones.bind(py),
            self.scores.bind(py),
        );
        let (n, players) = (env.len(), env.game.players as usize);
        // SAFETY: the lock is held; three distinct arrays.
        let (r, d, s) = unsafe {
            (
                buffer(rewards, n * players)?,
                buffer(dones, n)?,
                buffer(scores, n * players)?,
            )
        };
        let env = &mut *env;
        detached(py, || env.step(&ids, r, d, s))?;
        Ok((handed(rewards)?, handed(dones)?))
    }

    /// Each environment's observation for its current player, shape (n, observation size), float32.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let env = self.lock(py)?;
        let obs = self.obs.bind(py);
        let len = env.len() * observation::size(&env.game);
        // SAFETY: the lock is held.
        let out = unsafe { buffer(obs, len)? };
        let env = &*env;
        detached(py, || {
            env.observations(out);
            Ok(())
        })?;
        handed(obs)
    }

    /// Legal-action masks, shape (n, num_actions), bool.
    fn legal_action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let mut env = self.lock(py)?;
        let masks = self.masks.bind(py);
        let len = env.len() * env.game.num_actions();
        // SAFETY: the lock is held.
        let out = unsafe { buffer(masks, len)? };
        let env = &mut *env;
        detached(py, || {
            env.masks(out);
            Ok(())
        })?;
        handed(masks)
    }

    /// The player to decide in each environment, shape (n,), int32.
    #[getter]
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let env = self.lock(py)?;
        let players = self.players.bind(py);
        // SAFETY: the lock is held.
        env.current_players(unsafe { buffer(players, env.len())? });
        handed(players)
    }

    /// A uniformly random legal action per environment (int64 array), drawn from `seed`: a native
    /// random policy for baselines and exploration.
    fn sample_legal_actions<'py>(
        &self,
        py: Python<'py>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let seed = seed_arg(py, seed)?;
        let mut env = self.lock(py)?;
        let mut out = vec![0i64; env.len()];
        let (env, buf) = (&mut *env, &mut out);
        detached(py, || {
            env.sample_actions(seed, buf);
            Ok(())
        })?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Rewards of the last step, shape (n, players): each player's return for a game that ended at this step
    /// (zero-sum, as `State.returns`: a sole winner +1, the others −1/(n−1); 0 for games still running).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        handed(self.rewards.bind(py))
    }
    /// Which environments' games ended (and restarted) at the last step, shape (n,).
    #[getter]
    fn dones<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        handed(self.dones.bind(py))
    }
    /// Final VP of the games that ended at the last step (0 elsewhere), shape (n, players).
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        handed(self.scores.bind(py))
    }
    /// A copy of environment `i`'s current state.
    fn state(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<State> {
        let env = self.lock(py)?;
        let i = int_arg(
            py,
            i,
            "the environment index",
            0,
            env.len() as i64 - 1,
            Error::Config,
        )? as usize;
        Ok(State::from_core(Arc::new(env.game.clone()), env.states[i]))
    }
}
