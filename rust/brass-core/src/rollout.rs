//! Native random playouts, in parallel and deterministic for a seed whatever the thread count.
use crate::apply::{self, apply_unchecked};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use rayon::prelude::*;

/// The seeds of game `index` of a batch: (deal seed, action-choice RNG). Documented in
/// docs/performance.md so a batch can be reproduced game by game.
pub fn game_seeds(seed: u64, index: u64) -> (u64, Rng) {
    let mut r = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let deal = r.next_u64();
    (deal, Rng(r.next_u64()))
}

/// Play uniformly random legal actions until the game ends; returns the number of decisions.
pub fn random_playout(game: &Game, state: &mut State, rng: &mut Rng, ids: &mut Vec<u16>) -> u32 {
    let mut decisions = 0;
    while !state.is_terminal() {
        ids.clear();
        rules::legal_actions(game, state, ids);
        let id = ids[rng.below(ids.len() as u64) as usize];
        apply_unchecked(game, state, game.decode(id as i64).expect("legal id"));
        decisions += 1;
    }
    decisions
}

/// One game's slot in the output arrays: (index, ((scores, winners), decisions)).
type Row<'a> = (usize, ((&'a mut [i32], &'a mut [u8]), &'a mut u32));

/// Results of a batch of playouts, one row per game.
#[derive(Clone, Debug, Default)]
pub struct Rollouts {
    pub players: usize,
    /// `games × players` final VP.
    pub scores: Vec<i32>,
    /// `games × players`, 1 for each winner (shared wins have several).
    pub winners: Vec<u8>,
    /// Decisions taken in each game.
    pub decisions: Vec<u32>,
}

pub use crate::sample::Sampler;

/// Play `games` random games, from `start` (each game from a copy of it) or from new games dealt with
/// each game's seed, on `threads` threads (0: all cores), with the listing sampler.
pub fn rollouts(
    game: &Game,
    start: Option<&State>,
    games: usize,
    seed: u64,
    threads: usize,
) -> Rollouts {
    rollouts_with(game, start, games, seed, threads, Sampler::List)
}

/// [`rollouts`] with the given sampler.
pub fn rollouts_with(
    game: &Game,
    start: Option<&State>,
    games: usize,
    seed: u64,
    threads: usize,
    sampler: Sampler,
) -> Rollouts {
    rollouts_in_parts(
        game,
        start,
        games,
        seed,
        threads,
        sampler,
        games.max(1),
        &mut || true,
    )
    .expect("never stopped")
}

/// [`rollouts_with`] played `part` games at a time, `between()` asked after each part whether to go on: None
/// once it says no. The games are the same whatever the parts (game `i` depends only on `seed` and `i`); the
/// caller uses the pauses to answer a Ctrl-C during a long batch.
#[allow(clippy::too_many_arguments)]
pub fn rollouts_in_parts(
    game: &Game,
    start: Option<&State>,
    games: usize,
    seed: u64,
    threads: usize,
    sampler: Sampler,
    part: usize,
    between: &mut dyn FnMut() -> bool,
) -> Option<Rollouts> {
    let n = game.players as usize;
    let mut out = Rollouts {
        players: n,
        scores: vec![0; games * n],
        winners: vec![0; games * n],
        decisions: vec![0; games],
    };
    let work = |(i, ((scores, winners), decisions)): Row<'_>| {
        let (deal, mut rng) = game_seeds(seed, i as u64);
        let mut state = match start {
            Some(s) => *s,
            None => apply::new_state(game, deal),
        };
        let mut ids = Vec::with_capacity(256);
        *decisions = match sampler {
            Sampler::List => random_playout(game, &mut state, &mut rng, &mut ids),
            Sampler::Draw => crate::sample::sampled_playout(game, &mut state, &mut rng, &mut ids),
        };
        for p in 0..n {
            scores[p] = state.players[p].vp;
        }
        for w in apply::winners(game, &state) {
            winners[w as usize] = 1;
        }
    };
    let part = part.max(1);
    // The parts are played in the pool, the pauses made on the calling thread (where a caller can look for a
    // Ctrl-C: Python sees signals on its main thread only).
    let pool = match threads {
        0 => None,
        t => rayon::ThreadPoolBuilder::new().num_threads(t).build().ok(),
    };
    let mut first = 0;
    while first < games {
        let last = (first + part).min(games);
        let play = |out: &mut Rollouts| {
            out.scores[first * n..last * n]
                .par_chunks_mut(n)
                .zip(out.winners[first * n..last * n].par_chunks_mut(n))
                .zip(out.decisions[first..last].par_iter_mut())
                .enumerate()
                .for_each(|(k, row)| work((first + k, row)));
        };
        match &pool {
            Some(pool) => pool.install(|| play(&mut out)),
            None => play(&mut out),
        }
        first = last;
        if first < games && !between() {
            return None;
        }
    }
    Some(out)
}
