//! Random playouts, timed: `cargo run --release --example random_games -- 4 2000 [game]`.
use brass_core::{apply, rules, Game, Rng};
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: i64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let name = args.get(3).map_or("lancashire", String::as_str);
    let g = Game::new(name, players, &BTreeMap::new()).unwrap();
    let start = Instant::now();
    let mut decisions = 0u64;
    let mut ids = Vec::new();
    let mut vp = 0i64;
    for seed in 0..games {
        let mut s = apply::new_state(&g, seed);
        let mut rng = Rng(seed ^ 0x5555);
        while !s.is_terminal() {
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            let id = ids[rng.below(ids.len() as u64) as usize];
            apply::apply_unchecked(&g, &mut s, g.decode(id as i64).unwrap());
            decisions += 1;
        }
        vp += s.players[..players as usize]
            .iter()
            .map(|p| p.vp as i64)
            .sum::<i64>();
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{players}p: {games} games in {t:.2}s = {:.0} games/s, {:.0} decisions/game, {:.2} us/decision, mean VP {:.1}",
        games as f64 / t,
        decisions as f64 / games as f64,
        t * 1e6 / decisions as f64,
        vp as f64 / (games * players as u64) as f64
    );
}
