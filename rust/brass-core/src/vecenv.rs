//! Batch stepping of many games for reinforcement learning: parallel, writing into caller buffers.
use crate::apply::{self, apply_unchecked};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::observation;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use rayon::prelude::*;

/// The deal seed of episode `episode` of environment `env` in a batch seeded with `seed`
/// (docs/performance.md): every environment's games are reproducible on their own.
pub fn episode_seed(seed: u64, env: u64, episode: u64) -> u64 {
    Rng(seed
        ^ env.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ episode.wrapping_mul(0xD1B5_4A32_D192_ED03))
    .next_u64()
}

/// Environments from which a pass over them is split between the pool's threads. Handing a pass to the pool and
/// waiting for it costs some 16 µs on a 2-vCPU machine, the work of dozens of environments (an observation or a
/// step is about 0.5 µs each): a smaller pass stays on the calling thread, as does every pass in a pool of one
/// thread (docs/performance.md, "Small rounds on the calling thread").
pub const SPLIT_ENVS: usize = 64;

/// The least length of a part of a pass over `n` environments (rayon's `with_min_len`): all of them, unless
/// the pass is split.
fn least_part(n: usize) -> usize {
    if rayon::current_num_threads() < 2 || n < SPLIT_ENVS {
        usize::MAX
    } else {
        1
    }
}

/// `n` games stepped together. Finished games start again at once (auto-reset).
pub struct VecEnv {
    pub game: Game,
    pub seed: u64,
    pub states: Vec<State>,
    /// Episodes started so far per environment (the first is episode 0).
    pub episodes: Vec<u64>,
    /// Each environment's legal actions, computed once per position and shared by the masks, sampling
    /// and the legality check of the next step.
    legal: Vec<Vec<u16>>,
    legal_fresh: bool,
}

impl VecEnv {
    pub fn new(game: Game, n: usize, seed: u64) -> VecEnv {
        let states = (0..n)
            .map(|i| apply::new_state(&game, episode_seed(seed, i as u64, 0)))
            .collect();
        VecEnv {
            game,
            seed,
            states,
            episodes: vec![0; n],
            legal: vec![Vec::new(); n],
            legal_fresh: false,
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    fn ensure_legal(&mut self) {
        if self.legal_fresh {
            return;
        }
        let game = &self.game;
        let part = least_part(self.states.len());
        self.legal
            .par_iter_mut()
            .zip(self.states.par_iter())
            .with_min_len(part)
            .for_each(|(ids, s)| {
                ids.clear();
                rules::legal_actions(game, s, ids);
            });
        self.legal_fresh = true;
    }

    /// Start a new game in every environment.
    pub fn reset(&mut self) {
        self.legal_fresh = false;
        let (game, seed) = (&self.game, self.seed);
        let part = least_part(self.states.len());
        self.states
            .par_iter_mut()
            .zip(self.episodes.par_iter_mut())
            .enumerate()
            .with_min_len(part)
            .for_each(|(i, (s, e))| {
                *e += 1;
                *s = apply::new_state(game, episode_seed(seed, i as u64, *e));
            });
    }

    /// Apply one action per environment. All actions are checked first; if any is illegal nothing
    /// changes and the error names the environment. `rewards` (`n × players`) receives, for each game
    /// that ended, its zero-sum result ([`apply::returns`]; 0 for games still running); `dones`
    /// marks the games that ended (and were reset); `scores` (`n × players`) their final VP.
    pub fn step(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        dones: &mut [bool],
        scores: &mut [i32],
    ) -> Result<()> {
        let n = self.states.len();
        let players = self.game.players as usize;
        if actions.len() != n
            || rewards.len() != n * players
            || dones.len() != n
            || scores.len() != n * players
        {
            return Err(Error::IllegalAction(format!(
                "expected {n} actions, one per environment, got {}",
                actions.len()
            )));
        }
        self.ensure_legal();
        let game = &self.game;
        // On one thread: a decode and a binary search per environment cost less than waking the thread pool;
        // the first illegal action (lowest environment) is the error.
        let decoded = self
            .states
            .iter()
            .zip(&self.legal)
            .zip(actions)
            .enumerate()
            .map(|(i, ((s, legal), &id))| {
                let action = game
                    .decode(id)
                    .map_err(|e| Error::IllegalAction(format!("environment {i}: {e}")))?;
                if legal.binary_search(&(id as u16)).is_err() {
                    // legal_actions and why_illegal share their checks, so this names the reason.
                    let why = rules::why_illegal(game, s, action)
                        .err()
                        .unwrap_or("not a legal action");
                    return Err(Error::IllegalAction(format!(
                        "environment {i}: `{}` is not legal now: {why}",
                        game.notation(action)
                    )));
                }
                Ok(action)
            });
        let mut checked = Vec::with_capacity(n);
        for d in decoded {
            checked.push(d?);
        }
        let seed = self.seed;
        let part = least_part(self.states.len());
        // The next position's legal actions are listed in the same pass, while the state is in cache: the
        // masks, the random actions and the next step's check all need them, and one parallel pass fewer per
        // step is one wake-up of the thread pool fewer.
        self.states
            .par_iter_mut()
            .zip(self.episodes.par_iter_mut())
            .zip(self.legal.par_iter_mut())
            .zip(checked.par_iter())
            .zip(rewards.par_chunks_mut(players))
            .zip(scores.par_chunks_mut(players))
            .zip(dones.par_iter_mut())
            .enumerate()
            .with_min_len(part)
            .for_each(|(i, ((((((s, e), ids), &action), reward), score), done))| {
                apply_unchecked(game, s, action);
                reward.fill(0.0);
                *done = s.is_terminal();
                if *done {
                    let result = apply::returns(game, s);
                    for (r, &x) in reward.iter_mut().zip(&result) {
                        *r = x as f32;
                    }
                    for p in 0..players {
                        score[p] = s.players[p].vp;
                    }
                    *e += 1;
                    *s = apply::new_state(game, episode_seed(seed, i as u64, *e));
                } else {
                    score.fill(0);
                }
                ids.clear();
                rules::legal_actions(game, s, ids);
            });
        self.legal_fresh = true;
        Ok(())
    }

    /// Each environment's observation for its current player, row by row (`n × observation size`).
    pub fn observations(&self, out: &mut [f32]) {
        let size = observation::size(&self.game);
        let game = &self.game;
        let part = least_part(self.states.len());
        out.par_chunks_mut(size)
            .zip(self.states.par_iter())
            .with_min_len(part)
            .for_each(|(row, s)| {
                let p = s.current_player(game).unwrap_or(0);
                observation::write(game, s, p, row);
            });
    }

    /// Legal-action masks, row by row (`n × num_actions`).
    pub fn masks(&mut self, out: &mut [bool]) {
        self.ensure_legal();
        let a = self.game.num_actions();
        // On one thread: a row is a fill and a few writes, cheaper than waking the thread pool.
        for (row, ids) in out.chunks_mut(a).zip(&self.legal) {
            row.fill(false);
            for &id in ids {
                row[id as usize] = true;
            }
        }
    }

    /// A uniformly random legal action per environment, drawn from `seed` (the same seed and states give
    /// the same actions whatever the thread count).
    pub fn sample_actions(&mut self, seed: u64, out: &mut [i64]) {
        self.ensure_legal();
        // On one thread: tens of nanoseconds per environment cost less than waking the thread pool.
        for (i, (o, ids)) in out.iter_mut().zip(&self.legal).enumerate() {
            let mut rng = Rng(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            *o = ids[rng.below(ids.len() as u64) as usize] as i64;
        }
    }

    /// The player to decide in each environment.
    pub fn current_players(&self, out: &mut [i32]) {
        for (o, s) in out.iter_mut().zip(&self.states) {
            *o = s.current_player(&self.game).map_or(-1, |p| p as i32);
        }
    }
}
