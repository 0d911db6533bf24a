//! Greedy that plays for its own score once it is far behind: a measured experiment, not an agent of the library
//! (docs/agents.md, "Far behind: its own score").
//!
//! Greedy maximises its advantage: its evaluation less the best opponent's. A seat far behind then refuses every
//! action that also helps the leader (using the leader's last iron cube flips the leader's works) and passes
//! with money in hand until the debt takes its VP. Here, at a decision where the player's evaluation is more than
//! `MARGIN` below the best opponent's, the agent chooses by its own evaluation alone (a pass still counts
//! Greedy's pass cost); elsewhere it is Greedy.
//!
//! - `cargo run --release --example hopeless -- zero GAME PLAYERS S0 S1 MARGIN`: all-variant games, 200 a seed
//!   for seeds S0 … S1 − 1, seats rotated: seats at 0 VP, under 20 VP, mean VP (the `zero` example counts
//!   Greedy's);
//! - `cargo run --release --example hopeless -- h2h GAME PLAYERS GAMES SEED MARGIN`: the variant in one seat,
//!   Greedy in the others, seats rotated.
use brass_core::actions::Action;
use brass_core::agents::{evaluate, Agent, GreedyAgent};
use brass_core::apply::apply_unchecked;
use brass_core::rng::Rng;
use brass_core::state::State;
use brass_core::Game;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

mod common;

struct Hopeless {
    margin: f64,
}

/// Decisions chosen by the player's own evaluation (printed with the totals).
static TRIGGERED: AtomicU64 = AtomicU64::new(0);

/// Greedy's cost of a pass in Birmingham (agents.rs, `PASS_COST`).
const PASS_COST: f64 = 3.0;

impl Agent for Hopeless {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let mut scores = Vec::new();
        let choice = GreedyAgent.choose_scored(game, state, rng, &mut scores);
        let me = state.current_player(game).expect("a player to move");
        let mine = evaluate(game, state, me);
        let best_other = (0..game.players)
            .filter(|&q| q != me)
            .map(|q| evaluate(game, state, q))
            .fold(f64::NEG_INFINITY, f64::max);
        if scores.len() < 2 || mine - best_other >= -self.margin {
            return choice;
        }
        TRIGGERED.fetch_add(1, Ordering::Relaxed);
        let mut best = (f64::NEG_INFINITY, choice);
        for &(id, _) in &scores {
            let action = game.decode(id as i64).expect("a legal id");
            let mut s = *state;
            apply_unchecked(game, &mut s, action);
            let mut v = evaluate(game, &s, me);
            if matches!(action, Action::Pass) && !game.switches.money_vp {
                v -= PASS_COST;
            }
            if v > best.0 {
                best = (v, id);
            }
        }
        best.1
    }
    fn name(&self) -> String {
        format!("hopeless({})", self.margin)
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let num = |i: usize| -> u64 { a[i].parse().expect("a number") };
    let game = Game::new(&a[2], num(3) as i64, &BTreeMap::new()).expect("a game");
    let agent = Hopeless {
        margin: a[6].parse().expect("MARGIN"),
    };
    common::run(
        &a,
        &game,
        &agent,
        &format!(" margin {}", agent.margin),
        &TRIGGERED,
        "own-score",
    );
}
