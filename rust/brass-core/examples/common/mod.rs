//! What the agent experiments (`rescue`, `hopeless`) measure alike: seats at 0 VP in games every seat plays with
//! the agent, and the agent against Greedy.
use brass_core::agents::{play_games, Agent, GreedyAgent};
use brass_core::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// VP counts over many seats.
#[derive(Default)]
pub struct Seats {
    /// Seats at 0 VP.
    pub zero: u32,
    /// Seats under 20 VP.
    pub low: u32,
    pub vp: i64,
    pub count: u32,
}

impl Seats {
    fn add(&mut self, vp: i32) {
        self.zero += u32::from(vp == 0);
        self.low += u32::from(vp < 20);
        self.vp += vp as i64;
        self.count += 1;
    }

    pub fn mean(&self) -> f64 {
        self.vp as f64 / self.count.max(1) as f64
    }
}

/// Games with `agent` in every seat, 200 a seed for seeds `seeds` (seats rotated; the seeds split between threads).
pub fn all_seats(game: &Game, agent: &dyn Agent, seeds: std::ops::Range<u64>) -> Seats {
    let n = game.players as usize;
    let per_seed: Vec<Seats> = seeds
        .into_par_iter()
        .map(|seed| {
            let seats: Vec<&dyn Agent> = (0..n).map(|_| agent as &dyn Agent).collect();
            let mut counts = Seats::default();
            for r in play_games(game, &seats, seed, 0, 200, true, 1) {
                r.scores.iter().for_each(|&v| counts.add(v));
            }
            counts
        })
        .collect();
    let mut total = Seats::default();
    for s in per_seed {
        total.zero += s.zero;
        total.low += s.low;
        total.vp += s.vp;
        total.count += s.count;
    }
    total
}

/// `agent` in one seat and Greedy in the others, `games` games of `seed` with the seats rotated: the agent's
/// wins (a tie shared), its seats, and the Greedy seats at 0 VP.
pub fn against_greedy(game: &Game, agent: &dyn Agent, games: u64, seed: u64) -> (f64, Seats, u32) {
    let n = game.players as usize;
    let mut seats: Vec<&dyn Agent> = vec![agent];
    seats.extend((1..n).map(|_| &GreedyAgent as &dyn Agent));
    let (mut wins, mut own, mut others_zero) = (0.0, Seats::default(), 0);
    for (i, r) in play_games(game, &seats, seed, 0, games, true, 0)
        .iter()
        .enumerate()
    {
        for p in 0..n {
            if (p + i) % n == 0 {
                own.add(r.scores[p]);
                if r.winners.contains(&(p as u8)) {
                    wins += 1.0 / r.winners.len() as f64;
                }
            } else {
                others_zero += u32::from(r.scores[p] == 0);
            }
        }
    }
    (wins, own, others_zero)
}

/// Prints what [`all_seats`] counted: `label` first, `decisions` (the agent's own kind, e.g. "playout") after.
fn print_seats(label: &str, seats: &Seats, seconds: f64, decisions: (u64, &str)) {
    println!(
        "{label}: 0-VP seats {} of {}, under 20 VP {}, mean VP {:.1}, {seconds:.0} s, {} {} decisions",
        seats.zero,
        seats.count,
        seats.low,
        seats.mean(),
        decisions.0,
        decisions.1
    );
}

/// Prints what [`against_greedy`] counted for the agent `name` over `games` games.
fn print_against_greedy(
    name: &str,
    games: u64,
    (wins, own, others_zero): (f64, Seats, u32),
    seconds: f64,
    decisions: (u64, &str),
) {
    let p = wins / games as f64;
    println!(
        "{name}: wins {:.1} % (± {:.1}) of {games} against Greedy, mean VP {:.1}, seats at 0 VP {} (Greedy's \
         {others_zero}), {seconds:.0} s, {} {} decisions",
        100.0 * p,
        196.0 * (p * (1.0 - p) / games as f64).sqrt(),
        own.mean(),
        own.zero,
        decisions.0,
        decisions.1
    );
}

/// An experiment's two modes, from its arguments `EXAMPLE MODE GAME PLAYERS X Y …`: `zero S0 S1` (the agent in
/// every seat, seeds S0 … S1 − 1) or `h2h GAMES SEED` (the agent against Greedy). `label` follows the game in the
/// `zero` line; `triggered` counts the agent's own kind of decision, named `kind`.
pub fn run(
    args: &[String],
    game: &Game,
    agent: &dyn Agent,
    label: &str,
    triggered: &AtomicU64,
    kind: &str,
) {
    let num = |i: usize| -> u64 { args[i].parse().expect("a number") };
    let t = Instant::now();
    match args[1].as_str() {
        "zero" => {
            let seats = all_seats(game, agent, num(4)..num(5));
            let label = format!(
                "{} {}p seeds {}-{}{label}",
                args[2],
                game.players,
                num(4),
                num(5) - 1
            );
            let decisions = (triggered.load(Ordering::Relaxed), kind);
            print_seats(&label, &seats, t.elapsed().as_secs_f64(), decisions);
        }
        "h2h" => {
            let games = num(4);
            let counts = against_greedy(game, agent, games, num(5));
            let decisions = (triggered.load(Ordering::Relaxed), kind);
            let seconds = t.elapsed().as_secs_f64();
            print_against_greedy(&agent.name(), games, counts, seconds, decisions);
        }
        mode => panic!("{mode}: the mode is zero or h2h"),
    }
}
