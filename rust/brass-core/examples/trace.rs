//! One all-Greedy game, one seat's decisions: `trace GAME PLAYERS SEED INDEX SEAT [TOP]` prints, for each
//! decision of SEAT, the round, its VP, money and income level, the action chosen and Greedy's TOP (5) best
//! actions with their values: for reading why a seat collapsed (docs/agents.md). An action that draws a hidden
//! tile (a sale to the Distant Cotton Market) is shown at its mean over deals from a fixed generator, so its value
//! can differ a little from the one Greedy compared at that decision.
use brass_core::agents::{play_dealt, selfplay_seeds, Agent, GreedyAgent};
use brass_core::rng::Rng;
use brass_core::Game;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 6 {
        eprintln!("usage: trace GAME PLAYERS SEED INDEX SEAT [TOP]");
        std::process::exit(2);
    }
    let num = |i: usize| -> u64 { args[i].parse().expect("a number") };
    let game = Game::new(&args[1], num(2) as i64, &BTreeMap::new()).expect("a game of the catalog");
    let (seed, index, seat) = (num(3), num(4), num(5) as u8);
    let top = args.get(6).map_or(5, |x| x.parse().expect("TOP"));
    let n = game.players as usize;
    // The seats of game INDEX, rotated as `play_games` rotates them: all Greedy, so the same agent.
    let seats: Vec<&dyn Agent> = (0..n).map(|_| &GreedyAgent as &dyn Agent).collect();
    let (deal, rng) = selfplay_seeds(seed, index);
    let mut scores = Vec::new();
    let r = play_dealt(
        &game,
        &seats,
        deal,
        rng,
        &AtomicBool::new(false),
        |s, p, id| {
            if p != seat {
                return;
            }
            GreedyAgent.choose_scored(&game, s, &mut Rng(0), &mut scores);
            scores.sort_by(|a, b| b.1.total_cmp(&a.1));
            let pl = &s.players[p as usize];
            let best: Vec<String> = scores
                .iter()
                .take(top)
                .map(|&(a, v)| format!("{} {v:.2}", game.action_name(a as i64).unwrap()))
                .collect();
            println!(
                "{:?} r{} vp {} £{} lvl {} | {} | {}",
                s.era,
                s.round,
                pl.vp,
                pl.money,
                s.income_level(&game, p),
                game.action_name(id as i64).unwrap(),
                best.join("; ")
            );
        },
    )
    .expect("a game");
    println!("scores {:?}", r.scores);
}
