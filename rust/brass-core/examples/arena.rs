//! Agent strength check: `cargo run --release --example arena -- <games> <agent> <agent> ...`
//! (`BRASS_GAME=birmingham` for another game of the catalog, `BRASS_SEED=5` for other deals: game `i` is
//! `play_games`' game `i` of that seed). Prints each agent's wins, mean VP and seats at 0 VP.
//! Agents: random, greedy, mcts:<iterations>[:<rollout depth>]. Seats rotate every game.
use brass_core::agents::{play_game, Agent, GreedyAgent, MctsAgent, MctsConfig, RandomAgent};
use brass_core::Game;
use std::collections::BTreeMap;
use std::time::Instant;

fn agent(spec: &str) -> Box<dyn Agent> {
    let parts: Vec<&str> = spec.split(':').collect();
    match parts[0] {
        "random" => Box::new(RandomAgent::default()),
        "greedy" => Box::new(GreedyAgent),
        "mcts" => {
            let mut c = MctsConfig::default();
            if let Some(i) = parts.get(1) {
                c.iterations = i.parse().unwrap();
            }
            if let Some(d) = parts.get(2) {
                c.rollout_depth = d.parse().unwrap();
            }
            Box::new(MctsAgent::new(c))
        }
        _ => panic!("unknown agent {spec}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args[1].parse().unwrap();
    let agents: Vec<Box<dyn Agent>> = args[2..].iter().map(|s| agent(s)).collect();
    let n = agents.len();
    let name = std::env::var("BRASS_GAME").unwrap_or_else(|_| "lancashire".into());
    let game = Game::new(&name, n as i64, &BTreeMap::new()).unwrap();
    let mut wins = vec![0.0; n];
    let mut vp = vec![0i64; n];
    let mut zero = vec![0u64; n];
    let seed: u64 =
        std::env::var("BRASS_SEED").map_or(1, |s| s.parse().expect("BRASS_SEED: a number"));
    let t = Instant::now();
    for g in 0..games {
        let seats: Vec<&dyn Agent> = (0..n)
            .map(|p| agents[(p + g as usize) % n].as_ref())
            .collect();
        let r = play_game(&game, &seats, seed, g);
        for p in 0..n {
            let a = (p + g as usize) % n;
            vp[a] += r.scores[p] as i64;
            zero[a] += u64::from(r.scores[p] == 0);
            if r.winners.contains(&(p as u8)) {
                wins[a] += 1.0 / r.winners.len() as f64;
            }
        }
    }
    for a in 0..n {
        println!(
            "{:<14} wins {:>6.1} / {games}  mean VP {:>6.1}  at 0 VP {}",
            agents[a].name(),
            wins[a],
            vp[a] as f64 / games as f64,
            zero[a]
        );
    }
    println!("{:.1}s", t.elapsed().as_secs_f64());
}
