//! Long soak: `cargo run --release --example soak -- [games] [threads]` (default 1,000,000 games, all cores).
//!
//! Plays random games at 2, 3 and 4 players in turn, checks every invariant (`invariants::validate`) after
//! every 16th decision and at the end of every game, and reports resident memory as the run goes, so a
//! leak or a broken invariant shows up. Exits non-zero on the first error.
use brass_core::{apply, invariants, rollout, rules, Game, Rng};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

fn resident_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1 << 20) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    if threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .expect("thread pool");
    }
    let configs: Vec<Game> = (2..=4)
        .map(|n| Game::new("lancashire", n, &BTreeMap::new()).expect("lancashire"))
        .collect();
    let started = Instant::now();
    let chunk = 10_000u64;
    let mut decisions = 0u64;
    println!(
        "{:>10} {:>10} {:>12} {:>10}",
        "games", "seconds", "decisions", "RSS MiB"
    );
    println!("{:>10} {:>10.1} {:>12} {:>10.1}", 0, 0.0, 0, resident_mib());
    let mut done = 0u64;
    while done < games {
        let n = chunk.min(games - done);
        let result: Result<u64, String> = (done..done + n)
            .into_par_iter()
            .map(|i| {
                let game = &configs[(i % 3) as usize];
                let (deal, mut rng) = rollout::game_seeds(0x50A4, i);
                let mut state = apply::new_state(game, deal);
                let mut ids = Vec::with_capacity(256);
                let mut k = 0u64;
                while !state.is_terminal() {
                    ids.clear();
                    rules::legal_actions(game, &state, &mut ids);
                    if ids.is_empty() {
                        return Err(format!("game {i}: no legal action"));
                    }
                    let id = ids[Rng::below(&mut rng, ids.len() as u64) as usize];
                    apply::apply(game, &mut state, id as i64)
                        .map_err(|e| format!("game {i}: {e}"))?;
                    k += 1;
                    if k % 16 == 0 {
                        invariants::validate(game, &state)
                            .map_err(|e| format!("game {i}, decision {k}: {e}"))?;
                    }
                    if k > game.max_decisions() as u64 {
                        return Err(format!(
                            "game {i}: more than {} decisions",
                            game.max_decisions()
                        ));
                    }
                }
                invariants::validate(game, &state).map_err(|e| format!("game {i} (end): {e}"))?;
                if apply::winners(game, &state).is_empty() {
                    return Err(format!("game {i}: no winner"));
                }
                Ok(k)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b));
        match result {
            Ok(k) => decisions += k,
            Err(e) => {
                eprintln!("soak failed: {e}");
                std::process::exit(1);
            }
        }
        done += n;
        if done % (games / 10).max(chunk) == 0 || done == games {
            println!(
                "{:>10} {:>10.1} {:>12} {:>10.1}",
                done,
                started.elapsed().as_secs_f64(),
                decisions,
                resident_mib()
            );
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {decisions} decisions, no error, {:.0} games/s",
        games as f64 / secs
    );
}
