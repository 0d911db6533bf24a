//! Agents that choose actions: uniform random, one-ply greedy on a documented evaluation, and
//! determinised Monte-Carlo tree search for imperfect information (docs/agents.md).
//!
//! Every agent is deterministic for a given random generator: the caller seeds it per decision.
use crate::apply::{self, apply_unchecked, link_icons};
use crate::game::{Era, Game, NONE};
use crate::hidden::resample_hidden;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use std::time::{Duration, Instant};

/// Something that picks an action id at the current decision.
pub trait Agent: Send + Sync {
    /// A legal action id for `state`'s current player. `state` is not terminal.
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16;
    /// A short name for reports ("random", "greedy", "mcts(1000)").
    fn name(&self) -> String;
}

fn legal(game: &Game, state: &State) -> Vec<u16> {
    let mut ids = Vec::with_capacity(128);
    rules::legal_actions(game, state, &mut ids);
    ids
}

/// Uniformly random legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let ids = legal(game, state);
        ids[rng.below(ids.len() as u64) as usize]
    }
    fn name(&self) -> String {
        "random".into()
    }
}

/// Rounds still to be played in the game, the current one included.
fn rounds_left(game: &Game, state: &State) -> i32 {
    let r = game.rounds_per_era as i32;
    let this_era = r - state.round as i32 + 1;
    match state.era {
        Era::Canal => this_era + r,
        Era::Rail => this_era,
    }
}

/// VP-like value of one income level for one round still to play.
const INCOME_WEIGHT: f64 = 0.15;

/// Beer barrels on the player's own unflipped breweries: each sells one of the player's tiles later
/// (Birmingham, B-8), so it is worth something, less than the sale itself.
const BARREL_VALUE: f64 = 1.0;

/// The evaluation of a position for one player, in VP-like units (docs/agents.md):
/// VP scored + VP of flipped tiles (level 2+ counted again in the Canal Era, they score twice) + half the
/// VP of unflipped tiles + current link VP + income level × rounds left × 0.15 + money / 8. Birmingham
/// adds what its scarce money and beer call for: money / 12 (money scores no VP there, B-21), 1 per barrel
/// on own breweries, and part of the income an unflipped tile would bring (half for a tile that sells, a
/// quarter for a producer) over the rounds left.
pub fn evaluate(game: &Game, state: &State, player: u8) -> f64 {
    let pl = &state.players[player as usize];
    let mut value = pl.vp as f64;
    for s in 0..game.spaces.len() {
        let t = state.board[s];
        if t.owner != player {
            continue;
        }
        let vp = game.tile_spec(t.industry, t.level).map_or(0, |x| x.vp) as f64;
        if t.flipped {
            let twice = state.era == Era::Canal && t.level >= 2;
            value += if twice { 2.0 * vp } else { vp };
        } else {
            value += 0.5 * vp;
            if !game.switches.money_vp {
                // Birmingham: half the income the tile brings once flipped, for the rounds left (levels are
                // about half the track spaces). Without it a one-ply search passes rather than spend its
                // scarce money (£17 at the start) on tiles that pay only later.
                let income = game.tile_spec(t.industry, t.level).map_or(0, |x| x.income) as f64;
                // A tile that sells flips when sold; a producer only when its last cube leaves, which
                // the owner does not control: it counts a quarter.
                let chance = if game.roles[t.industry as usize].sold {
                    0.5
                } else {
                    0.25
                };
                value += chance * INCOME_WEIGHT * (income / 2.0) * rounds_left(game, state) as f64;
            }
            if game.produces(t.industry) == Some(crate::game::Resource::Beer) {
                value += BARREL_VALUE * t.cubes as f64;
            }
        }
    }
    for (i, line) in game.lines.iter().enumerate() {
        if state.links[i] == player {
            let icons: i32 = line.ends.iter().map(|&e| link_icons(game, state, e)).sum();
            value += icons as f64;
        }
    }
    if !state.is_terminal() {
        value += INCOME_WEIGHT
            * state.income_level(game, player) as f64
            * rounds_left(game, state) as f64;
        let per_vp = if game.switches.money_vp { 8.0 } else { 12.0 };
        value += pl.money as f64 / per_vp;
    }
    value
}

/// Own evaluation minus the best opponent's.
fn advantage(game: &Game, state: &State, player: u8) -> f64 {
    let mine = evaluate(game, state, player);
    let best_other = (0..game.players)
        .filter(|&q| q != player)
        .map(|q| evaluate(game, state, q))
        .fold(f64::NEG_INFINITY, f64::max);
    mine - best_other
}

/// One-ply greedy: the action whose result has the best [`evaluate`] advantage over the best opponent;
/// ties broken at random.
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent;

impl Agent for GreedyAgent {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let ids = legal(game, state);
        let me = state.current_player(game).expect("a player to move");
        let mut best = f64::NEG_INFINITY;
        let mut choice = ids[0];
        let mut ties = 0u64;
        for &id in &ids {
            let mut next = *state;
            apply_unchecked(game, &mut next, game.decode(id as i64).expect("legal id"));
            let v = advantage(game, &next, me);
            if v > best + 1e-9 {
                best = v;
                choice = id;
                ties = 1;
            } else if (v - best).abs() <= 1e-9 {
                ties += 1;
                if rng.below(ties) == 0 {
                    choice = id;
                }
            }
        }
        choice
    }
    fn name(&self) -> String {
        "greedy".into()
    }
}

/// Budget and parameters of [`MctsAgent`].
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Iterations per decision (each: one determinisation, one tree descent, one playout).
    pub iterations: u32,
    /// Optional wall-clock limit per decision; results then depend on the machine's speed.
    pub time_limit: Option<Duration>,
    /// UCB exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Random playout length before the position is scored with [`evaluate`]; 0 plays to the end.
    pub rollout_depth: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 1000,
            time_limit: None,
            exploration: 0.7,
            rollout_depth: 40,
        }
    }
}

/// Single-observer information-set MCTS: each iteration redraws what the searching player cannot see
/// (`resample_hidden`), descends one shared tree of action ids by UCB among the actions legal in that
/// determinisation (counting availability), expands one action, plays random moves for `rollout_depth`
/// decisions, and backs up each player's reward (1 shared among winners at the end, otherwise the rank of
/// [`evaluate`] scaled to [0, 1]).
#[derive(Clone, Debug, Default)]
pub struct MctsAgent {
    pub config: MctsConfig,
}

struct Node {
    action: u16,
    /// The player who chose `action` (whose reward this node accumulates).
    player: u8,
    visits: u32,
    available: u32,
    reward: f64,
    children: Vec<u32>,
}

impl MctsAgent {
    pub fn new(config: MctsConfig) -> MctsAgent {
        MctsAgent { config }
    }

    fn rewards(game: &Game, state: &State) -> [f64; 4] {
        let n = game.players as usize;
        let mut r = [0.0; 4];
        if state.is_terminal() {
            let winners = apply::winners(game, state);
            for &w in &winners {
                r[w as usize] = 1.0 / winners.len() as f64;
            }
            return r;
        }
        let values: Vec<f64> = (0..n as u8).map(|p| evaluate(game, state, p)).collect();
        for p in 0..n {
            let below = values.iter().filter(|&&v| v < values[p]).count() as f64;
            let equal = values.iter().filter(|&&v| v == values[p]).count() as f64 - 1.0;
            r[p] = (below + 0.5 * equal) / (n as f64 - 1.0);
        }
        r
    }
}

impl Agent for MctsAgent {
    fn choose(&self, game: &Game, root_state: &State, rng: &mut Rng) -> u16 {
        let root_ids = legal(game, root_state);
        if root_ids.len() == 1 {
            return root_ids[0];
        }
        let me = root_state.current_player(game).expect("a player to move");
        let cfg = &self.config;
        let started = Instant::now();
        let mut nodes = vec![Node {
            action: u16::MAX,
            player: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }];
        let mut ids = Vec::with_capacity(128);
        let mut path = Vec::with_capacity(64);
        for it in 0..cfg.iterations {
            if let Some(limit) = cfg.time_limit {
                if it > 0 && started.elapsed() >= limit {
                    break;
                }
            }
            let mut state = resample_hidden(game, root_state, me, rng.next_u64());
            let mut node = 0usize;
            path.clear();
            path.push(0usize);
            // Selection and expansion.
            while !state.is_terminal() {
                ids.clear();
                rules::legal_actions(game, &state, &mut ids);
                let mover = state.current_player(game).expect("player");
                let mut untried = Vec::new();
                for &id in &ids {
                    match nodes[node]
                        .children
                        .iter()
                        .find(|&&c| nodes[c as usize].action == id)
                    {
                        Some(&c) => nodes[c as usize].available += 1,
                        None => untried.push(id),
                    }
                }
                if !untried.is_empty() {
                    let id = untried[rng.below(untried.len() as u64) as usize];
                    let child = nodes.len();
                    nodes.push(Node {
                        action: id,
                        player: mover,
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                        children: Vec::new(),
                    });
                    nodes[node].children.push(child as u32);
                    apply_unchecked(game, &mut state, game.decode(id as i64).expect("legal"));
                    path.push(child);
                    break;
                }
                let mut best = f64::NEG_INFINITY;
                let mut pick = 0usize;
                for &c in &nodes[node].children {
                    let ch = &nodes[c as usize];
                    if !ids.contains(&ch.action) {
                        continue;
                    }
                    let mean = ch.reward / ch.visits.max(1) as f64;
                    let ucb = mean
                        + cfg.exploration
                            * ((ch.available.max(1) as f64).ln() / ch.visits.max(1) as f64).sqrt();
                    if ucb > best {
                        best = ucb;
                        pick = c as usize;
                    }
                }
                node = pick;
                apply_unchecked(
                    game,
                    &mut state,
                    game.decode(nodes[node].action as i64).expect("legal"),
                );
                path.push(node);
            }
            // Playout.
            let mut depth = 0;
            while !state.is_terminal() && (cfg.rollout_depth == 0 || depth < cfg.rollout_depth) {
                ids.clear();
                rules::legal_actions(game, &state, &mut ids);
                let id = ids[rng.below(ids.len() as u64) as usize];
                apply_unchecked(game, &mut state, game.decode(id as i64).expect("legal"));
                depth += 1;
            }
            let reward = Self::rewards(game, &state);
            for &n in &path {
                let nd = &mut nodes[n];
                nd.visits += 1;
                if nd.player != NONE {
                    nd.reward += reward[nd.player as usize];
                }
            }
        }
        let root = &nodes[0];
        let mut best = (0u32, f64::NEG_INFINITY, root_ids[0]);
        for &c in &root.children {
            let ch = &nodes[c as usize];
            let key = (ch.visits, ch.reward / ch.visits.max(1) as f64);
            if (key.0, key.1) > (best.0, best.1) && root_ids.contains(&ch.action) {
                best = (key.0, key.1, ch.action);
            }
        }
        best.2
    }
    fn name(&self) -> String {
        match self.config.time_limit {
            Some(t) => format!("mcts({}ms)", t.as_millis()),
            None => format!("mcts({})", self.config.iterations),
        }
    }
}

/// The result of one game played by agents.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub seed: u64,
    pub actions: Vec<u16>,
    pub scores: Vec<i32>,
    pub winners: Vec<u8>,
}

/// The deal seed and agents' RNG of game `index` of a self-play run seeded with `seed`.
pub fn selfplay_seeds(seed: u64, index: u64) -> (u64, Rng) {
    let mut r = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x5EED);
    let deal = r.next_u64();
    (deal, Rng(r.next_u64()))
}

/// Play games `first .. first + games` in parallel (0 threads: all cores). With `rotate`, game `i` seats
/// agent `(p + i) mod players` as player `p`, so every agent plays every seat equally often.
pub fn play_games(
    game: &Game,
    agents: &[&dyn Agent],
    seed: u64,
    first: u64,
    games: u64,
    rotate: bool,
    threads: usize,
) -> Vec<GameResult> {
    use rayon::prelude::*;
    let n = game.players as usize;
    let run = || {
        (first..first + games)
            .into_par_iter()
            .map(|i| {
                let seats: Vec<&dyn Agent> = (0..n)
                    .map(|p| {
                        if rotate {
                            agents[(p + i as usize) % n]
                        } else {
                            agents[p]
                        }
                    })
                    .collect();
                play_game(game, &seats, seed, i)
            })
            .collect()
    };
    if threads == 0 {
        run()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        }
    }
}

/// Play one game with `seats[p]` choosing for player `p`. Each decision's agent RNG is drawn from the
/// game's RNG, so the game is reproducible from (seed, index).
pub fn play_game(game: &Game, seats: &[&dyn Agent], seed: u64, index: u64) -> GameResult {
    let (deal, mut rng) = selfplay_seeds(seed, index);
    let mut state = apply::new_state(game, deal);
    let mut actions = Vec::with_capacity(256);
    while !state.is_terminal() {
        let p = state.current_player(game).expect("player") as usize;
        let mut decision_rng = Rng(rng.next_u64());
        let id = seats[p].choose(game, &state, &mut decision_rng);
        apply::apply(game, &mut state, id as i64).expect("agents choose legal actions");
        actions.push(id);
    }
    GameResult {
        seed: deal,
        actions,
        scores: state.players[..game.players as usize]
            .iter()
            .map(|p| p.vp)
            .collect(),
        winners: apply::winners(game, &state),
    }
}

impl GameResult {
    /// The game record JSON (docs/state-format.md).
    pub fn record(&self, game: &Game) -> String {
        crate::json::record_json(
            game,
            Some(self.seed),
            None,
            &self.actions,
            crate::json::RecordMoves::Ids,
        )
    }
}
