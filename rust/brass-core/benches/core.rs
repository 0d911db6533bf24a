//! Core benchmarks (`cargo bench -p brass-core`): legal actions, apply, clone, full random games.
//! A plain timing harness (no extra dependencies): each figure is the best of several timed batches.
use brass_core::{apply, rollout, rules, Game, Rng, State};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

/// Best time per iteration over `rounds` batches of `iters` calls, in nanoseconds.
fn time_ns(rounds: usize, iters: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / iters as f64);
    }
    best
}

/// Positions met in random play, for per-decision benchmarks.
fn sample_positions(game: &Game, games: u64) -> Vec<State> {
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for seed in 0..games {
        let mut s = apply::new_state(game, seed);
        let mut rng = Rng(seed + 1000);
        while !s.is_terminal() {
            out.push(s);
            ids.clear();
            rules::legal_actions(game, &s, &mut ids);
            let id = ids[rng.below(ids.len() as u64) as usize];
            apply::apply_unchecked(game, &mut s, game.decode(id as i64).unwrap());
        }
    }
    out
}

fn main() {
    // `core rollouts GAME PLAYERS GAMES`: only random games, one thread (for profilers: callgrind, cachegrind).
    let args: Vec<String> = std::env::args().collect();
    // `core sampled GAME PLAYERS GAMES`: random games with the sampler that lists nothing (`sample.rs`).
    if let Some(at) = args.iter().position(|a| a == "sampled") {
        let name = args.get(at + 1).map_or("birmingham", String::as_str);
        let players: i64 = args.get(at + 2).map_or(4, |a| a.parse().expect("players"));
        let games: u64 = args.get(at + 3).map_or(300, |a| a.parse().expect("games"));
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let t = Instant::now();
        let (mut decisions, mut ids) = (0u64, Vec::with_capacity(512));
        for index in 0..games {
            let (deal, mut rng) = rollout::game_seeds(7, index);
            let mut state = apply::new_state(&game, deal);
            decisions +=
                brass_core::sample::sampled_playout(&game, &mut state, &mut rng, &mut ids) as u64;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name} {players}p sampled: {games} games, {decisions} decisions, {:.0} games/s",
            games as f64 / secs
        );
        return;
    }
    // `core net NET ROWS`: the network's evaluation of batches of ROWS observations of random positions.
    if let Some(at) = args.iter().position(|a| a == "net") {
        use brass_core::net::{Net, Scratch};
        let path = args.get(at + 1).expect("a network file");
        let rows: usize = args.get(at + 2).map_or(8, |a| a.parse().expect("rows"));
        let (net, game) = Net::from_bytes(&std::fs::read(path).expect("the file")).unwrap();
        let size = brass_core::observation::size(&game);
        let positions = sample_positions(&game, 4);
        let mut obs = vec![0.0f32; rows * size];
        for (r, row) in obs.chunks_exact_mut(size).enumerate() {
            let s = &positions[(r * 37) % positions.len()];
            let p = s.current_player(&game).unwrap();
            brass_core::observation::write(&game, s, p, row);
        }
        let (mut scratch, mut logits, mut values) = (Scratch::default(), Vec::new(), Vec::new());
        let ns = time_ns(7, 2000 / rows + 1, || {
            net.evaluate(&obs, rows, &mut scratch, &mut logits, &mut values);
            black_box(&logits);
        });
        println!(
            "net {rows} rows: {:.2} us per row",
            ns / rows as f64 / 1000.0
        );
        return;
    }
    // `core searchgames NET GAMES SIMULATIONS PARALLEL [gumbel] [lanes]`: self-play with the network-guided
    // search, the leaves evaluated by the network file NET (for profilers: one thread with RAYON_NUM_THREADS=1);
    // `lanes`: a lane of games per thread (`search_games::Lanes`, what `brass.search.SearchGames` does with a
    // native network), else one `SearchGames` split between threads each round.
    if let Some(at) = args.iter().position(|a| a == "searchgames") {
        use brass_core::net::{Net, Scratch};
        use brass_core::net_agents::NetEvaluator;
        use brass_core::search_games::{Lanes, SearchGames, SearchGamesConfig};
        let path = args.get(at + 1).expect("a network file");
        let games: u64 = args.get(at + 2).map_or(8, |a| a.parse().expect("games"));
        let simulations: u32 = args.get(at + 3).map_or(64, |a| a.parse().expect("sims"));
        let parallel: usize = args.get(at + 4).map_or(8, |a| a.parse().expect("parallel"));
        let (net, game) = Net::from_bytes(&std::fs::read(path).expect("the file")).unwrap();
        let mut config = SearchGamesConfig {
            parallel,
            ..SearchGamesConfig::default()
        };
        config.search.simulations = simulations;
        let rest = &args[(at + 5).min(args.len())..];
        if rest.iter().any(|a| a == "gumbel") {
            config.search.gumbel = Some(brass_core::puct::GumbelConfig::default());
            config.policy_target = brass_core::search_games::PolicyTarget::CompletedQ;
        }
        let evaluator = |on_this_thread| NetEvaluator {
            net: &net,
            scratch: Scratch::default(),
            batch: true,
            on_this_thread,
        };
        let t = Instant::now();
        let mut decisions = 0;
        let (evaluations, engine, network, lanes) = if rest.iter().any(|a| a == "lanes") {
            let mut play = Lanes::new(&game, config, 1, 0, games, Lanes::for_threads(parallel));
            let mut evaluators: Vec<_> =
                (0..play.len()).map(|_| evaluator(play.len() > 1)).collect();
            while !play.is_done() {
                for g in play.step(&mut evaluators).unwrap() {
                    decisions += g.actions.len();
                }
            }
            let (engine, network) = play.seconds();
            (play.evaluations(), engine, network, play.len())
        } else {
            let mut play = SearchGames::new(&game, config, 1, 0, games);
            let mut evaluator = evaluator(false);
            while !play.is_done() {
                for g in play.step(&mut evaluator).unwrap() {
                    decisions += g.actions.len();
                }
            }
            (
                play.evaluations,
                play.engine_seconds,
                play.network_seconds,
                1,
            )
        };
        let secs = t.elapsed().as_secs_f64();
        println!(
            "searchgames: {games} games, {decisions} decisions, {lanes} lane(s), {evaluations} leaves, engine {engine:.2} s, \
             network {network:.2} s, engine share {:.1} %, {:.0} leaves/s",
            100.0 * engine / (engine + network),
            evaluations as f64 / secs,
        );
        return;
    }
    // `core mcts GAME PLAYERS SEARCHES SAMPLER`: MCTS searches of 200 iterations (default settings otherwise)
    // from the first positions of a game, the playouts drawn with SAMPLER (`list` or `draw`).
    if let Some(at) = args.iter().position(|a| a == "mcts") {
        use brass_core::agents::{MctsAgent, MctsConfig};
        let name = args.get(at + 1).map_or("birmingham", String::as_str);
        let players: i64 = args.get(at + 2).map_or(4, |a| a.parse().expect("players"));
        let searches: u64 = args
            .get(at + 3)
            .map_or(10, |a| a.parse().expect("searches"));
        let sampler = args.get(at + 4).map_or("list", String::as_str);
        let sampler = brass_core::sample::Sampler::from_name(sampler).expect("list or draw");
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let iterations = 200;
        let agent = MctsAgent::new(MctsConfig {
            iterations,
            sampler,
            ..MctsConfig::default()
        });
        // The same positions for both samplers: every fifth decision of a game played at random (listing).
        let positions: Vec<State> = sample_positions(&game, 1 + searches / 20)
            .into_iter()
            .step_by(5)
            .take(searches as usize)
            .collect();
        let mut rng = Rng(3);
        let t = Instant::now();
        for state in &positions {
            black_box(agent.search(&game, state, &mut rng));
        }
        let searches = positions.len() as u64;
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name} {players}p mcts ({}): {searches} searches, {:.0} iterations/s",
            sampler.name(),
            (searches * iterations as u64) as f64 / secs
        );
        return;
    }
    // `core vecenv GAME PLAYERS ENVS STEPS [no-observations]`: a VecEnv's full loop (observations, masks, native
    // random actions, step), as `brass bench` times it from Python, without Python (for profilers); with
    // `no-observations`, the loop without them (their share of the time).
    if let Some(at) = args.iter().position(|a| a == "vecenv") {
        let name = args.get(at + 1).map_or("birmingham", String::as_str);
        let players: i64 = args.get(at + 2).map_or(4, |a| a.parse().expect("players"));
        let envs: usize = args.get(at + 3).map_or(256, |a| a.parse().expect("envs"));
        let steps: u64 = args.get(at + 4).map_or(200, |a| a.parse().expect("steps"));
        let observe = args.get(at + 5).map(String::as_str) != Some("no-observations");
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let size = brass_core::observation::size(&game);
        let mut env = brass_core::vecenv::VecEnv::new(game, envs, 1);
        let players = players as usize;
        let (mut obs, mut masks) = (
            vec![0f32; envs * size],
            vec![false; envs * env.game.num_actions()],
        );
        let (mut actions, mut rewards, mut dones, mut scores) = (
            vec![0i64; envs],
            vec![0f32; envs * players],
            vec![false; envs],
            vec![0i32; envs * players],
        );
        let t = Instant::now();
        // Time per part of the step: observations, masks (with the legal actions), random actions, step.
        let mut parts = [0f64; 4];
        let mut lap = Instant::now();
        let mut split = |i: usize, lap: &mut Instant| {
            parts[i] += lap.elapsed().as_secs_f64();
            *lap = Instant::now();
        };
        for k in 0..steps {
            if observe {
                env.observations(&mut obs);
            }
            split(0, &mut lap);
            env.masks(&mut masks);
            split(1, &mut lap);
            env.sample_actions(k, &mut actions);
            split(2, &mut lap);
            env.step(&actions, &mut rewards, &mut dones, &mut scores)
                .unwrap();
            split(3, &mut lap);
        }
        let secs = t.elapsed().as_secs_f64();
        let per_step = |s: f64| s / (steps as usize * envs) as f64 * 1e9;
        println!(
            "{name} {players}p vecenv({envs}): {steps} steps, ns per env-step: observations {:.0}, masks {:.0}, \
             random actions {:.0}, step {:.0}; {:.0} env-steps/s",
            per_step(parts[0]),
            per_step(parts[1]),
            per_step(parts[2]),
            per_step(parts[3]),
            (steps as usize * envs) as f64 / secs
        );
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "rollouts") {
        let name = args.get(at + 1).map_or("birmingham", String::as_str);
        let players: i64 = args.get(at + 2).map_or(4, |a| a.parse().expect("players"));
        let games: usize = args.get(at + 3).map_or(300, |a| a.parse().expect("games"));
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let t = Instant::now();
        let r = rollout::rollouts(&game, None, games, 7, 1);
        let secs = t.elapsed().as_secs_f64();
        let decisions: u64 = r.decisions.iter().map(|&d| d as u64).sum();
        println!(
            "{name} {players}p: {games} games, {decisions} decisions, {:.0} games/s",
            games as f64 / secs
        );
        return;
    }
    println!(
        "{:<12} {:<8} {:>14} {:>14} {:>12} {:>16} {:>18}",
        "game", "players", "legal ns", "apply ns", "clone ns", "game us", "games/s 1 thread"
    );
    for (name, players) in ["lancashire", "birmingham"]
        .into_iter()
        .flat_map(|name| (2..=4).map(move |p| (name, p)))
    {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let positions = sample_positions(&game, 20);
        let mut ids = Vec::with_capacity(512);
        let mut k = 0;
        let legal = time_ns(5, positions.len(), || {
            ids.clear();
            rules::legal_actions(&game, black_box(&positions[k % positions.len()]), &mut ids);
            k += 1;
            black_box(&ids);
        });
        let moves: Vec<(State, u16)> = positions
            .iter()
            .map(|s| {
                let mut v = Vec::new();
                rules::legal_actions(&game, s, &mut v);
                (*s, v[v.len() / 2])
            })
            .collect();
        let mut k = 0;
        let apply_ns = time_ns(5, moves.len(), || {
            let (s, id) = &moves[k % moves.len()];
            let mut s = *s;
            apply::apply_unchecked(&game, &mut s, game.decode(*id as i64).unwrap());
            k += 1;
            black_box(&s);
        });
        let mid = positions[positions.len() / 2];
        let clone = time_ns(5, 100_000, || {
            black_box(*black_box(&mid));
        });
        let games = 300;
        let t = Instant::now();
        let r = rollout::rollouts(&game, None, games, 7, 1);
        let secs = t.elapsed().as_secs_f64();
        black_box(&r);
        println!(
            "{:<12} {:<8} {:>14.0} {:>14.0} {:>12.1} {:>16.0} {:>18.0}",
            name,
            players,
            legal,
            apply_ns,
            clone,
            secs * 1e6 / games as f64,
            games as f64 / secs
        );
    }
    println!("state size: {} bytes", std::mem::size_of::<State>());
}
