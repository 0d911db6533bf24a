//! Greedy with playouts when its debt outruns its money: a measured experiment, not an agent of the library
//! (docs/agents.md, "Playouts in debt").
//!
//! At a decision where the player's income level is negative and its money plus that level times the rounds
//! still to play is below zero, the agent plays out Greedy's best `K` actions (by Greedy's own values) to the
//! end of the game, `D` deals each of what it cannot see (the same deals for every candidate), every seat
//! played by Greedy, and takes the one with the best mean final VP lead over the best opponent; elsewhere it
//! is Greedy. With a last argument `kinds`, the candidates also take the best action of every other kind.
//! With `BRASS_TRIGGER=pass` it also plays out where Greedy would pass holding £8 or more; with `BRASS_KINDS=1`
//! it prints, after the totals, how often each of Greedy's choices (its first word) became which.
//!
//! - `cargo run --release --example rescue -- zero GAME PLAYERS S0 S1 K D [kinds]`: all-rescue games, 200 a seed for
//!   seeds S0 … S1 − 1, seats rotated: seats at 0 VP, under 20 VP, mean VP (the `zero` example counts Greedy's);
//! - `cargo run --release --example rescue -- h2h GAME PLAYERS GAMES SEED K D [kinds]`: the agent in one seat, Greedy
//!   in the others, seats rotated.
use brass_core::actions::Action;
use brass_core::agents::{rounds_left, Agent, GreedyAgent};
use brass_core::apply::apply_unchecked;
use brass_core::hidden::Redealer;
use brass_core::rng::Rng;
use brass_core::state::State;
use brass_core::Game;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

mod common;

struct Rescue {
    candidates: usize,
    deals: usize,
    /// Also the best action of every kind (build, link, sell, loan, …) not among the best `candidates`.
    kinds: bool,
}

fn in_debt(game: &Game, state: &State, me: u8) -> bool {
    let level = state.income_level(game, me);
    level < 0 && state.players[me as usize].money + level * rounds_left(game, state) < 0
}

/// The final VP lead of `me` over the best other player.
fn lead(game: &Game, s: &State, me: u8) -> f64 {
    let best_other = (0..game.players)
        .filter(|&q| q != me)
        .map(|q| s.players[q as usize].vp)
        .max()
        .unwrap_or(0);
    (s.players[me as usize].vp - best_other) as f64
}

/// Playout decisions made so far (printed with the totals).
static TRIGGERED: AtomicU64 = AtomicU64::new(0);
/// With `BRASS_KINDS` set: how often Greedy's choice (its first word) was replaced by which.
static CHOSEN: std::sync::Mutex<BTreeMap<String, u64>> = std::sync::Mutex::new(BTreeMap::new());

/// Where the playouts are used: in debt ([`in_debt`]); with `BRASS_TRIGGER=pass` also where Greedy would pass
/// holding £8 or more (Lancashire's idle seats, docs/agents.md).
fn triggered(game: &Game, state: &State, me: u8, choice: u16) -> bool {
    let idle = || {
        std::env::var("BRASS_TRIGGER").is_ok_and(|t| t == "pass")
            && state.players[me as usize].money >= 8
            && matches!(game.decode(choice as i64), Ok(Action::Pass))
    };
    in_debt(game, state, me) || idle()
}

impl Agent for Rescue {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let mut scores = Vec::new();
        let choice = GreedyAgent.choose_scored(game, state, rng, &mut scores);
        let me = state.current_player(game).expect("a player to move");
        if scores.len() < 2 || !triggered(game, state, me, choice) {
            return choice;
        }
        TRIGGERED.fetch_add(1, Ordering::Relaxed);
        scores.sort_by(|a, b| b.1.total_cmp(&a.1));
        let kind = |id: u16| std::mem::discriminant(&game.decode(id as i64).expect("a legal id"));
        let mut kept: Vec<(u16, f64)> = scores.iter().take(self.candidates).copied().collect();
        if self.kinds {
            for &(id, v) in scores.iter().skip(self.candidates) {
                if !kept.iter().any(|&(k, _)| kind(k) == kind(id)) {
                    kept.push((id, v));
                }
            }
        }
        let scores = kept;
        let mut redealer = Redealer::new(game, state, me);
        let seeds: Vec<u64> = (0..self.deals).map(|_| rng.next_u64()).collect();
        let mut best = (f64::NEG_INFINITY, choice);
        for &(id, _) in &scores {
            let action: Action = game.decode(id as i64).expect("a legal id");
            let mut sum = 0.0;
            for &seed in &seeds {
                let mut s = redealer.deal(game, seed);
                apply_unchecked(game, &mut s, action);
                let mut r = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
                while !s.is_terminal() {
                    let a = GreedyAgent.choose(game, &s, &mut r);
                    apply_unchecked(game, &mut s, game.decode(a as i64).expect("a legal id"));
                }
                sum += lead(game, &s, me);
            }
            if sum > best.0 {
                best = (sum, id);
            }
        }
        if std::env::var("BRASS_KINDS").is_ok() {
            let words = |id: u16| {
                let t = game.notation(game.decode(id as i64).expect("a legal id"));
                t.split_whitespace().next().unwrap_or("").to_string()
            };
            let mut m = CHOSEN.lock().expect("a lock");
            *m.entry(format!("{} -> {}", words(choice), words(best.1)))
                .or_insert(0) += 1;
        }
        best.1
    }
    fn name(&self) -> String {
        format!("rescue({},{})", self.candidates, self.deals)
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let num = |i: usize| -> u64 { a[i].parse().expect("a number") };
    let game = Game::new(&a[2], num(3) as i64, &BTreeMap::new()).expect("a game");
    let rescue = Rescue {
        candidates: num(6) as usize,
        deals: num(7) as usize,
        kinds: a.get(8).is_some_and(|k| k == "kinds"),
    };
    common::run(&a, &game, &rescue, "", &TRIGGERED, "playout");
    for (k, v) in CHOSEN.lock().expect("a lock").iter() {
        println!("  {k}: {v}");
    }
}
