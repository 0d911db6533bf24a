//! Self-play with the network-guided search, many games at once (docs/learning.md, "Self-play"): every
//! game's search runs until it needs a leaf evaluated, the leaves of all the games go to the evaluator in
//! one batch, and so on. Each decision becomes a training sample: the observation of the player to move,
//! the legal actions, the policy target (the search's visits or its improved policy) and, once the game is
//! over, every seat's result and VP (the value and auxiliary targets). With playout-cap randomisation
//! (KataGo), only a share of the decisions is searched in full; the others are searched quickly to play on,
//! and their policy is no target (`SearchGame::targets`).
//!
//! Game `i` is dealt and its searches seeded from (`seed`, `i`) alone ([`selfplay_seeds`]), so a game does
//! not depend on the other games in the batch, nor on the number of threads.
use crate::agents::selfplay_seeds;
use crate::apply::{self, apply_unchecked};
use crate::game::Game;
use crate::observation;
use crate::puct::{Batch, Evaluator, Need, PuctConfig, Search};
use crate::rng::Rng;
use crate::rules;
use crate::selfplay::mask_bytes;
use crate::state::State;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What a decision's policy target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyTarget {
    /// The search's visit distribution (AlphaZero).
    Visits,
    /// The improved policy of the completed Q-values ([`Search::improved_policy`]).
    CompletedQ,
}

/// How the games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchGamesConfig {
    pub policy_target: PolicyTarget,
    pub search: PuctConfig,
    /// Games played at once (their leaves are evaluated together).
    pub parallel: usize,
    /// Decisions of each game (from its start) whose action is drawn with probability ∝ visits^(1/τ) …
    pub temperature_decisions: u32,
    /// … with this τ; later decisions take the most visited action (PUCT; a Gumbel search draws its own).
    pub temperature: f32,
    /// Playout-cap randomisation: the share of decisions searched in full (`search`, their policy a training
    /// target); the others are searched with `fast_simulations`, without noise, only to play on. 1: all.
    pub full_search_fraction: f32,
    pub fast_simulations: u32,
}

impl Default for SearchGamesConfig {
    fn default() -> SearchGamesConfig {
        SearchGamesConfig {
            search: PuctConfig {
                dirichlet_alpha: 0.3,
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::Visits,
            parallel: 64,
            temperature_decisions: 30,
            temperature: 1.0,
            full_search_fraction: 1.0,
            fast_simulations: 16,
        }
    }
}

impl SearchGamesConfig {
    /// The search of the decisions not searched in full: fewer simulations, no exploration noise.
    fn fast_search(&self) -> PuctConfig {
        let mut fast = self.search.clone();
        fast.simulations = self.fast_simulations;
        fast.dirichlet_alpha = 0.0;
        if let Some(g) = fast.gumbel.as_mut() {
            g.scale = 0.0;
        }
        fast
    }
}

/// A finished game and its training samples, one row per decision.
#[derive(Clone, Debug, Default)]
pub struct SearchGame {
    pub index: u64,
    /// The deal seed (the game record's seed).
    pub seed: u64,
    pub actions: Vec<u16>,
    pub scores: Vec<i32>,
    /// Every seat's zero-sum result (absolute seats).
    pub returns: Vec<f32>,
    /// The player who decided, per decision.
    pub players: Vec<u8>,
    /// `decisions × observation::size`: the observation of the player who decided.
    pub observations: Vec<f32>,
    /// `decisions × mask_bytes`: the legal actions, bit-packed (bit `a % 8` of byte `a / 8`).
    pub masks: Vec<u8>,
    /// `decisions × num_actions`: the policy target (the action taken, alone, when there was no choice or
    /// the decision was not searched in full).
    pub policies: Vec<f32>,
    /// Per decision, whether its policy is a training target (searched in full, or no choice).
    pub targets: Vec<bool>,
    /// Every seat's VP when the first era was scored (the final VP in a one-era game).
    pub era_scores: Vec<i32>,
}

/// One game under way.
struct Slot {
    game: SearchGame,
    state: State,
    rng: Rng,
    /// The search of the decision under way (kept between decisions for its buffers).
    search: Option<Search>,
    searching: bool,
    /// Whether the decision under way is searched in full.
    full: bool,
    /// Whether its search waits for the leaf in its batch row.
    waiting: bool,
}

/// Games at once from which a round's games are split between threads (fewer are advanced on the calling thread:
/// with two threads, 1.5–1.8× the leaves a second at 8–24 games at once, and at 32 splitting wins;
/// docs/performance.md).
pub const SPLIT_GAMES: usize = 32;

/// Games `first .. first + games` of a run seeded with `seed`, played with the search.
pub struct SearchGames {
    game: Game,
    config: SearchGamesConfig,
    fast: PuctConfig,
    seed: u64,
    /// The next game to hand out (shared by the lanes of [`Lanes`]), and the end of the run.
    next: Arc<AtomicU64>,
    end: u64,
    /// Whether the games advance on the calling thread only (a lane of [`Lanes`]), not split between threads.
    on_this_thread: bool,
    slots: Vec<Option<Slot>>,
    batch: Batch,
    /// Leaves evaluated so far.
    pub evaluations: u64,
    /// Seconds spent playing and searching (the engine) and evaluating leaves (the network) in `step`.
    pub engine_seconds: f64,
    pub network_seconds: f64,
}

impl SearchGames {
    pub fn new(
        game: &Game,
        config: SearchGamesConfig,
        seed: u64,
        first: u64,
        games: u64,
    ) -> SearchGames {
        let parallel = config.parallel.max(1);
        SearchGames {
            batch: Batch::new(game, parallel),
            game: game.clone(),
            fast: config.fast_search(),
            config,
            seed,
            next: Arc::new(AtomicU64::new(first)),
            end: first + games,
            on_this_thread: false,
            slots: (0..parallel).map(|_| None).collect(),
            evaluations: 0,
            engine_seconds: 0.0,
            network_seconds: 0.0,
        }
    }

    /// Whether every game has been handed out.
    pub fn is_done(&self) -> bool {
        self.all_handed_out() && self.slots.iter().all(Option::is_none)
    }

    fn all_handed_out(&self) -> bool {
        self.next.load(Ordering::Relaxed) >= self.end
    }

    /// The next game's index, unless every game has been handed out.
    fn hand_out(&self) -> Option<u64> {
        let end = self.end;
        self.next
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < end).then_some(n + 1)
            })
            .ok()
    }

    /// One round: every game advances until its search needs a leaf evaluated (or the game ends), the
    /// leaves go to `evaluator` together, and the evaluations go back. Returns the games that ended.
    pub fn step(&mut self, evaluator: &mut dyn Evaluator) -> crate::error::Result<Vec<SearchGame>> {
        let started = Instant::now();
        // An evaluator that reads no masks is handed none: the leaves' legal actions are not listed.
        let masks = evaluator.reads_masks();
        let finished = self.play_on(masks);
        let rows = self.pack(masks);
        self.engine_seconds += started.elapsed().as_secs_f64();
        if rows > 0 {
            let size = observation::size(&self.game);
            let actions = if masks { self.game.num_actions() } else { 0 };
            let b = &mut self.batch;
            let started = Instant::now();
            evaluator.evaluate(
                &b.observations[..rows * size],
                &b.masks[..rows * actions],
                rows,
                &mut b.logits,
                &mut b.values,
            )?;
            self.network_seconds += started.elapsed().as_secs_f64();
            let started = Instant::now();
            let (logits, values) = (std::mem::take(&mut b.logits), std::mem::take(&mut b.values));
            let delivered = self.deliver(&logits, &values);
            (self.batch.logits, self.batch.values) = (logits, values);
            delivered?;
            // (This part is under 3 % of a step: cargo-mutants' `-=` here survives the test of the time
            // counted, which allows for the clock's grain: not killed.)
            self.engine_seconds += started.elapsed().as_secs_f64();
        }
        Ok(finished)
    }

    /// Move the rows of the waiting leaves to the front of the batch, in slot order (most often they are
    /// there already); their number.
    fn pack(&mut self, masks: bool) -> usize {
        let size = observation::size(&self.game);
        let actions = self.game.num_actions();
        let mut rows = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            if slot.as_ref().is_some_and(|s| s.waiting) {
                if i != rows {
                    let b = &mut self.batch;
                    b.observations
                        .copy_within(i * size..(i + 1) * size, rows * size);
                    if masks {
                        b.masks
                            .copy_within(i * actions..(i + 1) * actions, rows * actions);
                    }
                }
                rows += 1;
            }
        }
        rows
    }

    /// The first half of [`step`](SearchGames::step): every game advances until its search needs a leaf
    /// evaluated or it ends (new games take the places of those that end). Returns the games that ended.
    pub fn advance(&mut self) -> Vec<SearchGame> {
        self.play_on(true)
    }

    /// [`advance`](SearchGames::advance), the leaves' masks written only when `masks`.
    fn play_on(&mut self, masks: bool) -> Vec<SearchGame> {
        let mut finished = Vec::new();
        loop {
            for i in 0..self.slots.len() {
                if self.slots[i].is_some() {
                    continue;
                }
                let Some(index) = self.hand_out() else {
                    break;
                };
                self.slots[i] = Some(start(&self.game, self.seed, index));
            }
            let game = &self.game;
            let config = &self.config;
            let fast = &self.fast;
            let size = observation::size(game);
            let actions = game.num_actions();
            let batch = &mut self.batch;
            let one = |((slot, obs), mask): ((&mut Option<Slot>, &mut [f32]), &mut [bool])| {
                if let Some(s) = slot.as_mut() {
                    if !s.waiting {
                        let mask = if masks { mask } else { &mut [] };
                        advance(game, config, fast, s, obs, mask);
                    }
                }
            };
            // Split between threads, a round's games are handed to the pool's threads and waited for: some
            // 16 µs a round, more than a few games' advance (3–4 µs each) saves. So the games of a round are
            // split only from SPLIT_GAMES games on (docs/performance.md).
            if self.on_this_thread
                || rayon::current_num_threads() < 2
                || self.slots.len() < SPLIT_GAMES
            {
                self.slots
                    .iter_mut()
                    .zip(batch.observations.chunks_mut(size))
                    .zip(batch.masks.chunks_mut(actions))
                    .for_each(one);
            } else {
                self.slots
                    .par_iter_mut()
                    .zip(batch.observations.par_chunks_mut(size))
                    .zip(batch.masks.par_chunks_mut(actions))
                    .for_each(one);
            }
            let mut refill = false;
            for slot in &mut self.slots {
                if slot.as_ref().is_some_and(|s| s.state.is_terminal()) {
                    let s = slot.take().expect("a slot");
                    finished.push(finish(game, s));
                    refill = true;
                }
            }
            if !refill || self.all_handed_out() {
                return finished;
            }
        }
    }

    /// The leaves waiting for evaluation, packed: observations (`rows × observation::size`), masks
    /// (`rows × num_actions`) and `rows`.
    pub fn leaves(&self) -> (Vec<f32>, Vec<bool>, usize) {
        let size = observation::size(&self.game);
        let actions = self.game.num_actions();
        let mut obs = Vec::new();
        let mut masks = Vec::new();
        let mut rows = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            if slot.as_ref().is_some_and(|s| s.waiting) {
                obs.extend_from_slice(&self.batch.observations[i * size..(i + 1) * size]);
                masks.extend_from_slice(&self.batch.masks[i * actions..(i + 1) * actions]);
                rows += 1;
            }
        }
        (obs, masks, rows)
    }

    /// The second half of [`step`](SearchGames::step): the evaluations of the leaves of
    /// [`leaves`](SearchGames::leaves), in their order: logits (`rows × num_actions`) and values
    /// (`rows × players`, relative to each leaf's player to move).
    pub fn deliver(&mut self, logits: &[f32], values: &[f32]) -> crate::error::Result<()> {
        let game = &self.game;
        let actions = game.num_actions();
        let n = game.players as usize;
        let rows = self.slots.iter().flatten().filter(|s| s.waiting).count();
        crate::puct::check_evaluation(game, logits, values, rows)?;
        self.evaluations += rows as u64;
        let waiting = self.slots.iter_mut().flatten().filter(|s| s.waiting);
        for (k, s) in waiting.enumerate() {
            s.waiting = false;
            let search = s.search.as_mut().expect("a search under way");
            search.deliver(
                game,
                &logits[k * actions..(k + 1) * actions],
                &values[k * n..(k + 1) * n],
            );
        }
        Ok(())
    }
}

/// Self-play split into lanes, one per thread: each lane plays its share of the games at once and has its
/// leaves evaluated by its own evaluator on its own thread, so the threads never wait for each other between
/// rounds (a [`SearchGames::step`] split between threads joins them twice a round: once to advance the games,
/// once to evaluate the leaves — on two cores, a wait as long as the engine's work for a 48-game round).
///
/// The games are those of one [`SearchGames`] of the same settings, bit for bit: game `i` depends only on
/// (`seed`, `i`), a network's batches give every row the same values whatever rows share them
/// ([`Net::evaluate_batch`](crate::net::Net::evaluate_batch)), and the lanes hand out the games from one
/// counter (which lane plays a game depends on timing; what the game is does not).
pub struct Lanes {
    lanes: Vec<SearchGames>,
}

impl Lanes {
    /// `lanes` lanes (at least one, at most `config.parallel`) sharing the `config.parallel` games at once.
    pub fn new(
        game: &Game,
        config: SearchGamesConfig,
        seed: u64,
        first: u64,
        games: u64,
        lanes: usize,
    ) -> Lanes {
        let parallel = config.parallel.max(1);
        let count = lanes.clamp(1, parallel);
        let next = Arc::new(AtomicU64::new(first));
        let lanes = (0..count)
            .map(|k| {
                let share = parallel / count + usize::from(k < parallel % count);
                let config = SearchGamesConfig {
                    parallel: share,
                    ..config.clone()
                };
                let mut lane = SearchGames::new(game, config, seed, first, games);
                lane.next = Arc::clone(&next);
                // One lane alone splits its rounds between threads as a `SearchGames` does (from
                // SPLIT_GAMES games on).
                lane.on_this_thread = count > 1;
                lane
            })
            .collect();
        Lanes { lanes }
    }

    /// The lanes for `parallel` games at once: one per thread of the pool, as long as each has a game. Even
    /// lanes of one or two games (a batch of a row or two) play more leaves a second than one lane of all the
    /// games on one thread (docs/performance.md, "Small rounds on the calling thread").
    pub fn for_threads(parallel: usize) -> usize {
        rayon::current_num_threads().min(parallel).max(1)
    }

    /// The number of lanes (the evaluators [`step`](Lanes::step) needs).
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Never: there is always a lane.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// Whether every game has been played.
    pub fn is_done(&self) -> bool {
        self.lanes.iter().all(SearchGames::is_done)
    }

    /// Leaves evaluated so far.
    pub fn evaluations(&self) -> u64 {
        self.lanes.iter().map(|l| l.evaluations).sum()
    }

    /// Seconds in the engine and in the network so far: each lane's, averaged over the lanes (they run at the
    /// same time, so these are wall-clock seconds, as a [`SearchGames`]' are).
    pub fn seconds(&self) -> (f64, f64) {
        let n = self.lanes.len() as f64;
        let engine: f64 = self.lanes.iter().map(|l| l.engine_seconds).sum();
        let network: f64 = self.lanes.iter().map(|l| l.network_seconds).sum();
        (engine / n, network / n)
    }

    /// Rounds of every lane at once, each lane on its own thread with its own evaluator (`evaluators[k]` for
    /// lane `k`), until a lane finishes a game (every lane stops at the end of its round then), an evaluator
    /// fails, or every game has been played. Returns the games that ended.
    pub fn step<E: Evaluator + Send>(
        &mut self,
        evaluators: &mut [E],
    ) -> crate::error::Result<Vec<SearchGame>> {
        assert_eq!(evaluators.len(), self.lanes.len(), "an evaluator per lane");
        let stop = AtomicBool::new(false);
        let results: Vec<crate::error::Result<Vec<SearchGame>>> = self
            .lanes
            .par_iter_mut()
            .zip(evaluators.par_iter_mut())
            .map(|(lane, evaluator)| {
                let mut finished = Vec::new();
                // At least one round each call, whatever the other lanes did meanwhile.
                while !lane.is_done() {
                    let round = lane.step(evaluator);
                    if !round.as_ref().is_ok_and(Vec::is_empty) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    finished.extend(round?);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
                Ok(finished)
            })
            .collect();
        let mut finished = Vec::new();
        for result in results {
            finished.extend(result?);
        }
        Ok(finished)
    }
}

fn start(game: &Game, seed: u64, index: u64) -> Slot {
    let (deal, rng) = selfplay_seeds(seed, index);
    Slot {
        game: SearchGame {
            index,
            seed: deal,
            ..SearchGame::default()
        },
        state: apply::new_state(game, deal),
        rng,
        search: None,
        searching: false,
        full: false,
        waiting: false,
    }
}

/// Play the slot's game on until its search needs a leaf (written to `obs`, `mask`) or the game ends.
fn advance(
    game: &Game,
    config: &SearchGamesConfig,
    fast: &PuctConfig,
    s: &mut Slot,
    obs: &mut [f32],
    mask: &mut [bool],
) {
    let mut ids = Vec::new();
    while !s.state.is_terminal() {
        if !s.searching {
            ids.clear();
            rules::legal_actions(game, &s.state, &mut ids);
            if ids.len() == 1 {
                record(game, s, &[(ids[0], 1.0)], ids[0], true);
                continue;
            }
            // (`<=` would differ only for a draw exactly equal to the fraction, one in 2^24: equivalent.)
            s.full = config.full_search_fraction >= 1.0
                || unit(&mut s.rng) < config.full_search_fraction;
            let search = if s.full { &config.search } else { fast };
            let seed = s.rng.next_u64();
            match s.search.as_mut() {
                Some(x) => x.restart(game, &s.state, search, seed),
                None => s.search = Some(Search::new(game, &s.state, search, seed)),
            }
            s.searching = true;
        }
        let search = s.search.as_mut().expect("a search");
        match search.advance(game, obs, mask) {
            Need::Evaluation => {
                s.waiting = true;
                return;
            }
            Need::Finished => {
                let decision = s.game.actions.len() as u32;
                let temperature = if s.full && decision < config.temperature_decisions {
                    config.temperature
                } else {
                    0.0
                };
                let mut rng = Rng(s.rng.next_u64());
                let action = search.action(temperature, &mut rng);
                let target = match (s.full, config.policy_target) {
                    (false, _) => vec![(action, 1.0)],
                    (true, PolicyTarget::Visits) => search
                        .visits()
                        .iter()
                        .map(|&(a, v)| (a, v as f32))
                        .collect::<Vec<_>>(),
                    (true, PolicyTarget::CompletedQ) => search.improved_policy(),
                };
                s.searching = false;
                let full = s.full;
                record(game, s, &target, action, full);
            }
        }
    }
}

/// A uniform draw in [0, 1).
fn unit(rng: &mut Rng) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

/// Record the decision about to be taken (its sample, `target` the policy target's weights, normalised
/// here; `full`: a training target), then take it.
fn record(game: &Game, s: &mut Slot, target: &[(u16, f32)], action: u16, full: bool) {
    let player = s.state.current_player(game).expect("a player to move");
    let g = &mut s.game;
    g.players.push(player);
    let at = g.observations.len();
    g.observations.resize(at + observation::size(game), 0.0);
    observation::write(game, &s.state, player, &mut g.observations[at..]);
    let mut ids = Vec::new();
    rules::legal_actions(game, &s.state, &mut ids);
    let at = g.masks.len();
    g.masks.resize(at + mask_bytes(game), 0);
    for &id in &ids {
        g.masks[at + id as usize / 8] |= 1 << (id % 8);
    }
    let at = g.policies.len();
    g.policies.resize(at + game.num_actions(), 0.0);
    let total: f32 = target.iter().map(|&(_, w)| w).sum();
    // A search of two simulations or more (the API's least) always gives weights: the `else` is a guard
    // that no reachable decision takes (so cargo-mutants' changes to it, and `>=` here, are equivalent).
    if total > 0.0 {
        for &(a, w) in target {
            g.policies[at + a as usize] = w / total;
        }
    } else {
        g.policies[at + action as usize] = 1.0;
    }
    g.actions.push(action);
    g.targets.push(full);
    let era = s.state.era;
    apply_unchecked(
        game,
        &mut s.state,
        game.decode(action as i64).expect("legal"),
    );
    if g.era_scores.is_empty() && (s.state.era != era || s.state.is_terminal()) {
        let n = game.players as usize;
        g.era_scores = s.state.players[..n].iter().map(|p| p.vp).collect();
    }
}

fn finish(game: &Game, s: Slot) -> SearchGame {
    let mut g = s.game;
    let n = game.players as usize;
    g.scores = s.state.players[..n].iter().map(|p| p.vp).collect();
    g.returns = apply::returns(game, &s.state)[..n]
        .iter()
        .map(|&r| r as f32)
        .collect();
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puct::tests::Varied;
    use std::collections::BTreeMap;

    /// Priors that prefer low action ids, values 0: deterministic and cheap. `Slanted(true)` fails instead.
    struct Slanted(bool);
    impl Evaluator for Slanted {
        fn evaluate(
            &mut self,
            _: &[f32],
            masks: &[bool],
            rows: usize,
            logits: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) -> crate::error::Result<()> {
            if self.0 {
                return Err(crate::error::Error::Config("failed on purpose".into()));
            }
            let a = masks.len() / rows.max(1);
            logits.clear();
            logits.extend((0..masks.len()).map(|i| -((i % a) as f32) / a as f32));
            values.clear();
            values.resize(rows * 2, 0.0);
            Ok(())
        }
    }

    /// Game `index` of a run seeded with `seed`, played plainly as the module's documentation says: one
    /// decision at a time with `puct::search`, its seeds drawn from the game's own RNG.
    fn plain_game(
        g: &Game,
        config: &SearchGamesConfig,
        seed: u64,
        index: u64,
        net: &mut Varied,
    ) -> SearchGame {
        let (deal, mut rng) = selfplay_seeds(seed, index);
        let mut state = apply::new_state(g, deal);
        // The quick search of the decisions not searched in full: fewer simulations, no noise.
        let mut fast = config.search.clone();
        fast.simulations = config.fast_simulations;
        fast.dirichlet_alpha = 0.0;
        if let Some(gumbel) = fast.gumbel.as_mut() {
            gumbel.scale = 0.0;
        }
        let n = g.players as usize;
        let (size, actions) = (observation::size(g), g.num_actions());
        let mut x = SearchGame {
            index,
            seed: deal,
            ..SearchGame::default()
        };
        while !state.is_terminal() {
            let mut ids = Vec::new();
            rules::legal_actions(g, &state, &mut ids);
            let (action, target, full) = if ids.len() == 1 {
                (ids[0], vec![(ids[0], 1.0)], true)
            } else {
                // A draw only when some decisions are searched quickly.
                let full = config.full_search_fraction >= 1.0
                    || ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
                        < config.full_search_fraction;
                let setting = if full { &config.search } else { &fast };
                let mut s =
                    crate::puct::search(g, &state, setting, rng.next_u64(), net).expect("search");
                let hot = full && (x.actions.len() as u32) < config.temperature_decisions;
                let temperature = if hot { config.temperature } else { 0.0 };
                let action = s.action(temperature, &mut Rng(rng.next_u64()));
                let target = match (full, config.policy_target) {
                    (false, _) => vec![(action, 1.0)],
                    (true, PolicyTarget::Visits) => {
                        s.visits().iter().map(|&(a, v)| (a, v as f32)).collect()
                    }
                    (true, PolicyTarget::CompletedQ) => s.improved_policy(),
                };
                (action, target, full)
            };
            let player = state.current_player(g).expect("player");
            x.players.push(player);
            let mut obs = vec![0.0; size];
            observation::write(g, &state, player, &mut obs);
            x.observations.extend(obs);
            let mut mask = vec![0u8; mask_bytes(g)];
            for &id in &ids {
                mask[id as usize / 8] |= 1 << (id % 8);
            }
            x.masks.extend(mask);
            let mut policy = vec![0.0f32; actions];
            let total: f32 = target.iter().map(|&(_, w)| w).sum();
            for &(a, w) in &target {
                policy[a as usize] = w / total;
            }
            x.policies.extend(policy);
            x.actions.push(action);
            x.targets.push(full);
            let era = state.era;
            apply::apply(g, &mut state, action as i64).expect("legal");
            if x.era_scores.is_empty() && (state.era != era || state.is_terminal()) {
                x.era_scores = state.players[..n].iter().map(|p| p.vp).collect();
            }
        }
        x.scores = state.players[..n].iter().map(|p| p.vp).collect();
        x.returns = apply::returns(g, &state)[..n]
            .iter()
            .map(|&r| r as f32)
            .collect();
        x
    }

    fn assert_same_game(a: &SearchGame, b: &SearchGame, what: &str) {
        assert_eq!((a.index, a.seed), (b.index, b.seed), "{what}");
        assert_eq!(a.actions, b.actions, "{what}: actions");
        assert_eq!(a.players, b.players, "{what}");
        assert_eq!(a.targets, b.targets, "{what}");
        assert_eq!(a.masks, b.masks, "{what}");
        assert_eq!(a.observations, b.observations, "{what}");
        assert_eq!(a.policies, b.policies, "{what}: policies");
        assert_eq!(a.era_scores, b.era_scores, "{what}");
        assert_eq!((&a.scores, &a.returns), (&b.scores, &b.returns), "{what}");
    }

    /// Every game of `SearchGames`, whether its leaves are evaluated by `step` or through `leaves` and
    /// `deliver`, is the game played plainly decision by decision: the same moves, observations, masks,
    /// policy targets, target flags, era scores and results, and as many leaves evaluated.
    #[test]
    fn the_games_are_the_plain_games_of_the_documentation() {
        let puct = SearchGamesConfig {
            search: PuctConfig {
                simulations: 6,
                dirichlet_alpha: 0.3,
                fpu_reduction: 0.1,
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::Visits,
            parallel: 2,
            temperature_decisions: 12,
            temperature: 0.7,
            full_search_fraction: 0.5,
            fast_simulations: 3,
        };
        let gumbel = SearchGamesConfig {
            search: PuctConfig {
                simulations: 5,
                gumbel: Some(crate::puct::GumbelConfig::default()),
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::CompletedQ,
            parallel: 3,
            full_search_fraction: 0.3,
            fast_simulations: 2,
            ..SearchGamesConfig::default()
        };
        // Every decision searched in full, and a temperature so high that the first decisions are drawn
        // almost uniformly among the visited actions: the last drawn one shows where the drawing stops.
        let hot = SearchGamesConfig {
            temperature_decisions: 7,
            temperature: 100.0,
            full_search_fraction: 1.0,
            ..puct.clone()
        };
        for (name, players, config) in [
            ("birmingham", 2, puct),
            ("lancashire", 3, gumbel),
            ("birmingham", 2, hot),
        ] {
            let g = Game::new(name, players, &BTreeMap::new()).expect("game");
            let (seed, first, games) = (21, 4, 3);
            let mut plain_net = Varied::new(&g);
            let plain: Vec<SearchGame> = (first..first + games)
                .map(|i| plain_game(&g, &config, seed, i, &mut plain_net))
                .collect();
            for split in [false, true] {
                let mut net = Varied::new(&g);
                let mut play = SearchGames::new(&g, config.clone(), seed, first, games);
                let mut got = Vec::new();
                while !play.is_done() {
                    if split {
                        got.extend(play.advance());
                        let (obs, masks, rows) = play.leaves();
                        if !play.all_handed_out() {
                            // New games take the places of those that ended: every slot has a leaf.
                            assert_eq!(rows, config.parallel);
                        }
                        if rows > 0 {
                            let (mut logits, mut values) = (Vec::new(), Vec::new());
                            net.evaluate(&obs, &masks, rows, &mut logits, &mut values)
                                .expect("evaluate");
                            play.deliver(&logits, &values).expect("deliver");
                        }
                    } else {
                        got.extend(play.step(&mut net).expect("step"));
                    }
                }
                got.sort_by_key(|x| x.index);
                assert_eq!(got.len(), plain.len());
                for (a, b) in got.iter().zip(&plain) {
                    assert_same_game(a, b, &format!("{name}, game {}, split {split}", b.index));
                    let fast = a.targets.iter().filter(|&&t| !t).count();
                    assert!(fast > 0 || config.full_search_fraction >= 1.0, "{fast}");
                }
                assert_eq!(
                    play.evaluations as usize, plain_net.rows,
                    "{name}: leaves evaluated"
                );
                assert_eq!(net.rows, plain_net.rows);
                if !split {
                    assert!(play.engine_seconds > 0.0 && play.network_seconds > 0.0);
                }
            }
        }
    }

    #[test]
    fn the_leaves_waiting_are_packed_to_the_front_in_slot_order() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            parallel: 3,
            ..SearchGamesConfig::default()
        };
        let mut play = SearchGames::new(&g, config, 4, 0, 3);
        play.advance();
        let (size, actions) = (observation::size(&g), g.num_actions());
        let rows = |b: &Batch, i: usize| {
            (
                b.observations[i * size..(i + 1) * size].to_vec(),
                b.masks[i * actions..(i + 1) * actions].to_vec(),
            )
        };
        let (second, third) = (rows(&play.batch, 1), rows(&play.batch, 2));
        assert_ne!(second, third, "two games, two leaves");
        // The first game ended: the leaves of the second and third move up.
        play.slots[0] = None;
        assert_eq!(play.pack(true), 2);
        assert_eq!(
            (rows(&play.batch, 0), rows(&play.batch, 1)),
            (second, third)
        );
    }

    /// The engine's and the network's time add up to (nearly) all of the time spent in `step`.
    ///
    /// The check is of wall-clock time, so on a loaded machine a single preemption in the few instructions
    /// `step` does not count can take a quarter of a short run (CI saw 73 %): the games are played up to
    /// three times and one run of the three must count over 80 %; every run must count no more than all.
    #[test]
    fn step_counts_the_time_of_the_engine_and_of_the_network() {
        let g = Game::new("lancashire", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            search: PuctConfig {
                simulations: 4,
                ..PuctConfig::default()
            },
            parallel: 2,
            ..SearchGamesConfig::default()
        };
        let mut shares = Vec::new();
        for seed in 1..=3 {
            let mut play = SearchGames::new(&g, config.clone(), seed, 0, 3);
            let mut net = Varied::new(&g);
            let mut in_step = 0.0;
            while !play.is_done() {
                let started = Instant::now();
                play.step(&mut net).expect("step");
                in_step += started.elapsed().as_secs_f64();
            }
            let counted = play.engine_seconds + play.network_seconds;
            assert!(play.engine_seconds > 0.0 && play.network_seconds > 0.0);
            assert!(counted <= in_step, "{counted} of {in_step}");
            shares.push(counted / in_step);
            if counted > 0.8 * in_step {
                return;
            }
        }
        panic!("no run counted over 80 % of the time in step: {shares:?}");
    }

    #[test]
    fn an_evaluation_of_the_wrong_size_or_not_finite_is_refused() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let mut play = SearchGames::new(&g, SearchGamesConfig::default(), 1, 0, 3);
        play.advance();
        let (_, _, rows) = play.leaves();
        assert_eq!(rows, 3);
        let a = g.num_actions();
        let logits = vec![0.0f32; rows * a];
        let values = vec![0.0f32; rows * 2];
        let short = play.deliver(&logits[1..], &values).unwrap_err().to_string();
        assert!(
            short.contains(&format!("for 3 leaves: {} and 6 are needed", 3 * a)),
            "{short}"
        );
        let few_values = play.deliver(&logits, &values[1..]).unwrap_err().to_string();
        assert!(few_values.contains("5 values for 3 leaves"), "{few_values}");
        for bad in [f32::NAN, f32::INFINITY] {
            let mut l = logits.clone();
            l[a + 7] = bad;
            l[2 * a + 1] = bad;
            let text = play.deliver(&l, &values).unwrap_err().to_string();
            assert!(text.contains(&format!("not finite ({bad})")), "{text}");
            let mut v = values.clone();
            v[5] = bad;
            assert!(play.deliver(&logits, &v).is_err());
        }
        assert_eq!(play.evaluations, 0, "nothing refused is counted");
        play.deliver(&logits, &values).expect("the right sizes");
        assert_eq!(play.evaluations, 3);
    }

    #[test]
    fn completed_q_targets_are_distributions_over_the_legal_actions() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            search: PuctConfig {
                simulations: 6,
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::CompletedQ,
            parallel: 2,
            ..SearchGamesConfig::default()
        };
        let mut play = SearchGames::new(&g, config, 3, 0, 2);
        let mut games = Vec::new();
        while !play.is_done() {
            games.extend(play.step(&mut Slanted(false)).expect("step"));
        }
        let a = g.num_actions();
        for x in &games {
            let mut state = apply::new_state(&g, x.seed);
            for (d, &action) in x.actions.iter().enumerate() {
                let policy = &x.policies[d * a..(d + 1) * a];
                assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                let mut ids = Vec::new();
                rules::legal_actions(&g, &state, &mut ids);
                for (id, &p) in policy.iter().enumerate() {
                    assert_eq!(
                        p > 0.0,
                        ids.contains(&(id as u16)),
                        "every legal action and no other"
                    );
                }
                apply::apply(&g, &mut state, action as i64).expect("legal");
            }
        }
    }

    #[test]
    fn gumbel_games_with_playout_caps_mark_their_targets_and_era_scores() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            search: PuctConfig {
                simulations: 8,
                gumbel: Some(crate::puct::GumbelConfig::default()),
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::CompletedQ,
            parallel: 2,
            full_search_fraction: 0.25,
            fast_simulations: 2,
            ..SearchGamesConfig::default()
        };
        let mut runs = Vec::new();
        for parallel in [2, 1] {
            let config = SearchGamesConfig {
                parallel,
                ..config.clone()
            };
            let mut play = SearchGames::new(&g, config, 5, 0, 2);
            let mut games = Vec::new();
            while !play.is_done() {
                games.extend(play.step(&mut Slanted(false)).expect("step"));
            }
            games.sort_by_key(|x| x.index);
            runs.push(games);
        }
        let a = g.num_actions();
        for (x, y) in runs[0].iter().zip(&runs[1]) {
            assert_eq!(x.actions, y.actions, "independent of the batch");
            assert_eq!(x.targets.len(), x.actions.len());
            let full = x.targets.iter().filter(|&&t| t).count();
            assert!(
                full > 0 && full < x.actions.len(),
                "{full} of {}",
                x.actions.len()
            );
            let mut state = apply::new_state(&g, x.seed);
            let mut era_scores = None;
            for (d, &action) in x.actions.iter().enumerate() {
                let policy = &x.policies[d * a..(d + 1) * a];
                if !x.targets[d] {
                    assert_eq!(
                        policy[action as usize], 1.0,
                        "a fast search's policy is its action alone"
                    );
                }
                let era = state.era;
                apply::apply(&g, &mut state, action as i64).expect("legal");
                if era_scores.is_none() && state.era != era {
                    era_scores = Some(state.players[..2].iter().map(|p| p.vp).collect::<Vec<_>>());
                }
            }
            assert_eq!(Some(x.era_scores.clone()), era_scores);
        }
    }

    /// With a real network, a game's moves and targets do not depend on the batches it shared (the general
    /// product computes every row the same way for a batch of one or of many), and lanes play the games of
    /// one `SearchGames` of the same settings bit for bit, however many lanes (the network evaluated on each
    /// lane's thread; and with an evaluator of the observation alone), evaluating as many leaves; in a pool of
    /// one thread, and split between two.
    #[test]
    fn network_games_are_the_same_bit_for_bit_whatever_the_batches_and_lanes() {
        use crate::net::{Net, Scratch};
        use crate::net_agents::NetEvaluator;
        let g = Game::new("birmingham", 3, &BTreeMap::new()).expect("game");
        let (net, _) = Net::from_bytes(&crate::net::tests::file(&g, &[16, 8], &g)).expect("net");
        let config = SearchGamesConfig {
            search: PuctConfig {
                simulations: 5,
                gumbel: Some(crate::puct::GumbelConfig::default()),
                ..PuctConfig::default()
            },
            policy_target: PolicyTarget::CompletedQ,
            full_search_fraction: 0.5,
            fast_simulations: 2,
            parallel: 5,
            ..SearchGamesConfig::default()
        };
        let (seed, first, games) = (13, 2, 7);
        let net_evaluator = |on_this_thread| NetEvaluator {
            net: &net,
            scratch: Scratch::default(),
            batch: true,
            on_this_thread,
        };
        let same = |got: &mut Vec<SearchGame>, want: &[SearchGame], what: &str| {
            got.sort_by_key(|x| x.index);
            assert_eq!(got.len(), want.len(), "{what}");
            for (a, b) in got.iter().zip(want) {
                assert_same_game(a, b, &format!("{what}, game {}", b.index));
                let bits =
                    |x: &SearchGame| x.policies.iter().map(|p| p.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(a), bits(b), "{what}, game {}", b.index);
            }
        };
        let (mut plain, mut plain_varied) = (Vec::new(), Vec::new());
        let mut one = SearchGames::new(&g, config.clone(), seed, first, games);
        let mut evaluator = net_evaluator(false);
        while !one.is_done() {
            plain.extend(one.step(&mut evaluator).expect("step"));
        }
        plain.sort_by_key(|x| x.index);
        let mut one_varied = SearchGames::new(&g, config.clone(), seed, first, games);
        let mut varied = Varied::new(&g);
        while !one_varied.is_done() {
            plain_varied.extend(one_varied.step(&mut varied).expect("step"));
        }
        plain_varied.sort_by_key(|x| x.index);
        for parallel in [2, 1] {
            let config = SearchGamesConfig {
                parallel,
                ..config.clone()
            };
            let mut play = SearchGames::new(&g, config, seed, first, games);
            let mut got = Vec::new();
            while !play.is_done() {
                got.extend(play.step(&mut evaluator).expect("step"));
            }
            same(&mut got, &plain, &format!("{parallel} at once"));
        }
        // In a pool of one thread the rounds are played on the calling thread (nothing to split them between);
        // in a pool of two with SPLIT_GAMES at once, split between the threads.
        for (threads, parallel) in [(1, config.parallel), (2, SPLIT_GAMES)] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            let config = SearchGamesConfig {
                parallel,
                ..config.clone()
            };
            let mut got = pool.install(|| {
                let mut play = SearchGames::new(&g, config, seed, first, games);
                let mut got = Vec::new();
                while !play.is_done() {
                    got.extend(play.step(&mut evaluator).expect("step"));
                }
                got
            });
            same(
                &mut got,
                &plain,
                &format!("a pool of {threads}, {parallel} at once"),
            );
        }
        for count in [1, 2, 3, 5, 9] {
            let mut lanes = Lanes::new(&g, config.clone(), seed, first, games, count);
            assert_eq!(lanes.len(), count.min(config.parallel));
            let mut evaluators: Vec<_> = (0..lanes.len())
                .map(|_| net_evaluator(lanes.len() > 1))
                .collect();
            let mut got = Vec::new();
            while !lanes.is_done() {
                got.extend(lanes.step(&mut evaluators).expect("step"));
            }
            same(&mut got, &plain, &format!("{count} lanes"));
            assert_eq!(lanes.evaluations(), one.evaluations, "{count} lanes");
            let (engine, network) = lanes.seconds();
            assert!(engine > 0.0 && network > 0.0);

            let mut lanes = Lanes::new(&g, config.clone(), seed, first, games, count);
            let mut evaluators: Vec<_> = (0..lanes.len()).map(|_| Varied::new(&g)).collect();
            let mut got = Vec::new();
            while !lanes.is_done() {
                got.extend(lanes.step(&mut evaluators).expect("step"));
            }
            same(&mut got, &plain_varied, &format!("{count} lanes (Varied)"));
            let rows: usize = evaluators.iter().map(|e| e.rows).sum();
            assert_eq!(rows, varied.rows, "{count} lanes (Varied)");
        }
    }

    /// A network evaluator that says whether it reads the masks, and records the masks' sizes it was given.
    struct Told<'n> {
        inner: crate::net_agents::NetEvaluator<'n>,
        reads: bool,
        mask_sizes: Vec<usize>,
    }
    impl Evaluator for Told<'_> {
        fn evaluate(
            &mut self,
            observations: &[f32],
            masks: &[bool],
            rows: usize,
            logits: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) -> crate::error::Result<()> {
            self.mask_sizes.push(masks.len() / rows.max(1));
            self.inner
                .evaluate(observations, masks, rows, logits, values)
        }
        fn reads_masks(&self) -> bool {
            self.reads
        }
    }

    /// The native network reads no masks: it is handed none, the leaves' legal actions are not listed, and
    /// the games are the same bit for bit as when the masks are written (Birmingham 2p and Lancashire 4p,
    /// Gumbel, some decisions searched quickly).
    #[test]
    fn an_evaluator_that_reads_no_masks_gets_none_and_the_same_games() {
        use crate::net::{Net, Scratch};
        use crate::net_agents::NetEvaluator;
        for (name, players) in [("birmingham", 2), ("lancashire", 4)] {
            let g = Game::new(name, players, &BTreeMap::new()).expect("game");
            let (net, _) = Net::from_bytes(&crate::net::tests::file(&g, &[16], &g)).expect("net");
            let native = || NetEvaluator {
                net: &net,
                scratch: Scratch::default(),
                batch: true,
                on_this_thread: true,
            };
            assert!(!native().reads_masks());
            let config = SearchGamesConfig {
                search: PuctConfig {
                    simulations: 6,
                    gumbel: Some(crate::puct::GumbelConfig::default()),
                    ..PuctConfig::default()
                },
                policy_target: PolicyTarget::CompletedQ,
                full_search_fraction: 0.5,
                fast_simulations: 2,
                parallel: 3,
                ..SearchGamesConfig::default()
            };
            let play = |reads: bool| {
                let mut told = Told {
                    inner: native(),
                    reads,
                    mask_sizes: Vec::new(),
                };
                let mut play = SearchGames::new(&g, config.clone(), 21, 0, 3);
                let mut got = Vec::new();
                while !play.is_done() {
                    got.extend(play.step(&mut told).expect("step"));
                }
                got.sort_by_key(|x| x.index);
                (got, told.mask_sizes, play.evaluations)
            };
            let (with, sizes, evaluations) = play(true);
            let (without, no_sizes, no_evaluations) = play(false);
            assert!(sizes.iter().all(|&n| n == g.num_actions()), "{name}");
            assert!(
                !no_sizes.is_empty() && no_sizes.iter().all(|&n| n == 0),
                "{name}"
            );
            assert_eq!(evaluations, no_evaluations, "{name}");
            assert_eq!(with.len(), 3);
            for (a, b) in with.iter().zip(&without) {
                assert_same_game(a, b, name);
                let bits =
                    |x: &SearchGame| x.policies.iter().map(|p| p.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(a), bits(b), "{name}");
            }
        }
    }

    /// An evaluator that fails stops its lane's step with its error; the other lanes stop at the end of their
    /// round.
    #[test]
    fn a_failing_lane_evaluator_is_the_steps_error() {
        let g = Game::new("lancashire", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            parallel: 4,
            ..SearchGamesConfig::default()
        };
        let mut lanes = Lanes::new(&g, config, 1, 0, 4, 2);
        let mut evaluators = [Slanted(false), Slanted(true)];
        let err = lanes.step(&mut evaluators).unwrap_err().to_string();
        assert!(err.contains("failed on purpose"), "{err}");
        assert!(!lanes.is_done());
    }

    #[test]
    fn a_lane_for_each_thread_that_has_a_game() {
        let threads = rayon::current_num_threads();
        assert_eq!(Lanes::for_threads(0), 1);
        assert_eq!(Lanes::for_threads(1), 1);
        assert_eq!(Lanes::for_threads(2), threads.min(2));
        assert_eq!(Lanes::for_threads(1000), threads);
    }

    #[test]
    fn games_are_legal_replayable_and_independent_of_the_batch() {
        let g = Game::new("lancashire", 2, &BTreeMap::new()).expect("game");
        let config = SearchGamesConfig {
            search: PuctConfig {
                simulations: 4,
                dirichlet_alpha: 0.3,
                ..PuctConfig::default()
            },
            parallel: 3,
            ..SearchGamesConfig::default()
        };
        let mut runs = Vec::new();
        for parallel in [3, 1] {
            let mut play = SearchGames::new(
                &g,
                SearchGamesConfig {
                    parallel,
                    ..config.clone()
                },
                7,
                2,
                3,
            );
            let mut games = Vec::new();
            while !play.is_done() {
                games.extend(play.step(&mut Slanted(false)).expect("step"));
            }
            games.sort_by_key(|x| x.index);
            runs.push(games);
        }
        assert_eq!(
            runs[0].iter().map(|x| x.index).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        for (a, b) in runs[0].iter().zip(&runs[1]) {
            assert_eq!(a.actions, b.actions);
        }
        let size = observation::size(&g);
        for x in &runs[0] {
            let mut state = apply::new_state(&g, x.seed);
            let mut obs = vec![0.0; size];
            for (d, &a) in x.actions.iter().enumerate() {
                let p = state.current_player(&g).expect("player");
                assert_eq!(x.players[d], p);
                observation::write(&g, &state, p, &mut obs);
                assert_eq!(&x.observations[d * size..(d + 1) * size], &obs[..]);
                let policy = &x.policies[d * g.num_actions()..(d + 1) * g.num_actions()];
                assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                assert!(policy[a as usize] > 0.0, "the action taken was visited");
                apply::apply(&g, &mut state, a as i64).expect("legal");
            }
            assert!(state.is_terminal());
            assert!(x.returns.iter().sum::<f32>().abs() < 1e-6);
        }
    }
}
