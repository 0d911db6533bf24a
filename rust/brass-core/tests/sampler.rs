//! `sample::sample_legal`: one legal action drawn uniformly without listing them all. Every draw is legal, in
//! every configuration and decision; and over many draws from one position each legal action comes up as
//! often as uniform sampling says (a chi-square test with a fixed seed, so the test is deterministic).
use brass_core::sample::{sample_legal, sampled_playout};
use brass_core::state::Decision;
use brass_core::{apply, rules, Game, Rng};
use std::collections::{BTreeMap, HashMap};

fn configurations() -> Vec<Game> {
    let mut games = Vec::new();
    for (name, players) in [
        ("lancashire", 2),
        ("lancashire", 4),
        ("brass", 3),
        ("birmingham", 2),
        ("birmingham", 4),
    ] {
        games.push(Game::new(name, players, &BTreeMap::new()).unwrap());
    }
    games
}

#[test]
fn every_sampled_action_is_legal_in_every_decision() {
    let mut ids = Vec::new();
    let mut legal = Vec::new();
    for game in configurations() {
        let mut rng = Rng(3);
        let mut decisions: HashMap<Decision, u32> = HashMap::new();
        for seed in 0..6 {
            let mut state = apply::new_state(&game, seed);
            while !state.is_terminal() {
                legal.clear();
                rules::legal_actions(&game, &state, &mut legal);
                let id = sample_legal(&game, &state, &mut rng, &mut ids);
                assert!(
                    legal.contains(&id),
                    "{}: {:?} is not legal",
                    game.name,
                    game.action_name(id as i64)
                );
                *decisions.entry(state.decision).or_default() += 1;
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
            }
        }
        assert!(
            decisions[&Decision::Action] > 300 && decisions.len() >= 3,
            "{}: {decisions:?}",
            game.name
        );
    }
}

/// Pearson's chi-square statistic of `counts` against a uniform distribution over them.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn sampled_actions_are_uniform_over_the_legal_ones() {
    let mut ids = Vec::new();
    let mut checked = 0;
    for game in configurations() {
        // Positions of an Action decision a few turns into the game, with many legal actions.
        let mut state = apply::new_state(&game, 11);
        let mut walk = Rng(5);
        for _ in 0..40 {
            let id = sample_legal(&game, &state, &mut walk, &mut ids);
            apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
        }
        while state.decision != Decision::Action {
            let id = sample_legal(&game, &state, &mut walk, &mut ids);
            apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
        }
        let mut legal = Vec::new();
        rules::legal_actions(&game, &state, &mut legal);
        assert!(
            legal.len() >= 10,
            "{}: {} legal actions",
            game.name,
            legal.len()
        );
        let draws = 400 * legal.len() as u64;
        let mut counts: HashMap<u16, u64> = legal.iter().map(|&id| (id, 0)).collect();
        let mut rng = Rng(17);
        for _ in 0..draws {
            *counts
                .get_mut(&sample_legal(&game, &state, &mut rng, &mut ids))
                .expect("a legal id") += 1;
        }
        let counts: Vec<u64> = legal.iter().map(|id| counts[id]).collect();
        // Degrees of freedom k - 1; the statistic's mean is k - 1 and its sd sqrt(2 (k - 1)): 6 sd is far
        // beyond chance, and a sampler favouring one block (say, builds over links) lands far above it.
        let k = legal.len() as f64;
        let bound = (k - 1.0) + 6.0 * (2.0 * (k - 1.0)).sqrt();
        let stat = chi_square(&counts);
        assert!(
            stat < bound,
            "{}: chi-square {stat:.1} over {bound:.1} for {} actions",
            game.name,
            legal.len()
        );
        assert!(counts.iter().all(|&c| c > 0));
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[test]
fn sampled_playouts_end_and_keep_every_invariant() {
    let mut ids = Vec::new();
    for game in configurations() {
        let mut state = apply::new_state(&game, 2);
        let decisions = sampled_playout(&game, &mut state, &mut Rng(9), &mut ids);
        assert!(state.is_terminal() && decisions > 50);
        brass_core::invariants::validate(&game, &state).unwrap();
    }
}

#[test]
fn draw_rollouts_are_reproducible_whatever_the_threads_and_differ_from_list_rollouts() {
    use brass_core::rollout::{rollouts_with, Sampler};
    let game = Game::new("birmingham", 3, &BTreeMap::new()).unwrap();
    let one = rollouts_with(&game, None, 24, 5, 1, Sampler::Draw);
    let two = rollouts_with(&game, None, 24, 5, 2, Sampler::Draw);
    assert_eq!((&one.scores, &one.decisions), (&two.scores, &two.decisions));
    let listed = rollouts_with(&game, None, 24, 5, 1, Sampler::List);
    assert_eq!(
        listed.decisions,
        brass_core::rollout::rollouts(&game, None, 24, 5, 1).decisions
    );
    assert_ne!(one.decisions, listed.decisions);
}

#[test]
fn the_random_agent_and_mcts_playouts_draw_with_the_sampler_they_are_given() {
    use brass_core::agents::{play_game, Agent, MctsAgent, MctsConfig, RandomAgent};
    use brass_core::sample::Sampler;
    let game = Game::new("lancashire", 4, &BTreeMap::new()).unwrap();
    // The default random agent plays the games of earlier releases: ids[below(len)] of the listed actions.
    let listed = RandomAgent::default();
    let drawn = RandomAgent::new(Sampler::Draw);
    assert_eq!(
        (listed.name(), drawn.name()),
        ("random".to_string(), "random(draw)".to_string())
    );
    let state = apply::new_state(&game, 8);
    let mut ids = Vec::new();
    rules::legal_actions(&game, &state, &mut ids);
    let mut a = Rng(11);
    let mut b = Rng(11);
    assert_eq!(
        listed.choose(&game, &state, &mut a),
        ids[b.below(ids.len() as u64) as usize]
    );
    let mut a = Rng(11);
    let mut b = Rng(11);
    let mut scratch = Vec::new();
    assert_eq!(
        drawn.choose(&game, &state, &mut a),
        sample_legal(&game, &state, &mut b, &mut scratch)
    );
    // Whole games: each sampler's games are reproducible and the two are other games.
    let seats_draw: [&dyn Agent; 4] = [&drawn, &drawn, &drawn, &drawn];
    let seats_list: [&dyn Agent; 4] = [&listed, &listed, &listed, &listed];
    let g1 = play_game(&game, &seats_draw, 3, 0);
    let g2 = play_game(&game, &seats_draw, 3, 0);
    let g3 = play_game(&game, &seats_list, 3, 0);
    assert_eq!(g1.actions, g2.actions);
    assert_ne!(g1.actions, g3.actions);
    // MCTS: the playout sampler changes the search (other playouts), each reproducible for its seed.
    let config = |sampler| MctsConfig {
        iterations: 60,
        rollout_depth: 0,
        sampler,
        ..MctsConfig::default()
    };
    let mcts_list = MctsAgent::new(config(Sampler::List));
    let mcts_draw = MctsAgent::new(config(Sampler::Draw));
    assert_eq!(mcts_draw.name(), "mcts(60, draw)");
    assert_eq!(mcts_list.name(), "mcts(60)");
    let visits = |agent: &MctsAgent| agent.search(&game, &state, &mut Rng(5));
    assert_eq!(visits(&mcts_draw), visits(&mcts_draw));
    assert_ne!(visits(&mcts_draw), visits(&mcts_list));
    let choice = mcts_draw.choose(&game, &state, &mut Rng(5));
    assert!(ids.contains(&choice));
}

/// An FNV-1a hash of every action drawn in `games` games of each sampler, from `rollout::game_seeds(11, i)`.
fn games_hash(game: &Game, games: u64, sampler: brass_core::sample::Sampler) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut ids = Vec::new();
    for index in 0..games {
        let (deal, mut rng) = brass_core::rollout::game_seeds(11, index);
        let mut state = apply::new_state(game, deal);
        while !state.is_terminal() {
            let id = sampler.pick(game, &state, &mut rng, &mut ids);
            hash = (hash ^ id as u64).wrapping_mul(0x100_0000_01b3);
            apply::apply_unchecked(game, &mut state, game.decode(id as i64).unwrap());
        }
    }
    hash
}

/// Speed work must not change the games either sampler plays (issue 23, "Must not change"): the hashes of the
/// actions of 20 games per configuration, recorded before the occupancy summary and the memo of checked
/// candidates (commit b34bfd9).
#[test]
fn both_samplers_play_the_games_they_played_before_the_speed_work() {
    use brass_core::sample::Sampler;
    let mut got = Vec::new();
    for game in configurations() {
        for sampler in [Sampler::List, Sampler::Draw] {
            got.push((
                format!("{} {}p {}", game.name, game.players, sampler.name()),
                games_hash(&game, 20, sampler),
            ));
        }
    }
    let expected: [(&str, u64); 10] = EXPECTED_GAME_HASHES;
    for ((name, hash), (want_name, want)) in got.iter().zip(expected) {
        assert_eq!(name, want_name);
        assert_eq!(*hash, want, "{name}: other games than before");
    }
}

const EXPECTED_GAME_HASHES: [(&str, u64); 10] = [
    ("lancashire 2p list", 0xeafc3ac2401b1949),
    ("lancashire 2p draw", 0x82b14194c3325ec3),
    ("lancashire 4p list", 0x8f6d6bf38e31c8ef),
    ("lancashire 4p draw", 0xe6cfd802a5e392ac),
    ("brass 3p list", 0x271624c562a9b7c4),
    ("brass 3p draw", 0x2c1da8593ff43efd),
    ("birmingham 2p list", 0x22a3b5d9d8abf48d),
    ("birmingham 2p draw", 0x5ad46ed96b3a3e8e),
    ("birmingham 4p list", 0x2f6aaad08b99fa5e),
    ("birmingham 4p draw", 0x8cc86cd86e094114),
];

#[test]
fn each_sampler_is_found_by_its_name() {
    use brass_core::sample::Sampler;
    for sampler in [Sampler::List, Sampler::Draw] {
        assert_eq!(Sampler::from_name(sampler.name()), Some(sampler));
    }
    assert_eq!(
        (Sampler::List.name(), Sampler::Draw.name()),
        ("list", "draw")
    );
    assert_eq!(Sampler::from_name("uniform"), None);
}

#[test]
fn rollouts_in_parts_are_the_same_games_and_stop_when_asked() {
    use brass_core::rollout::{rollouts_in_parts, rollouts_with, Sampler};
    let game = Game::new("birmingham", 3, &BTreeMap::new()).unwrap();
    let whole = rollouts_with(&game, None, 23, 9, 2, Sampler::List);
    for part in [1, 5, 23, 100] {
        let mut pauses = 0;
        let parts = rollouts_in_parts(&game, None, 23, 9, 2, Sampler::List, part, &mut || {
            pauses += 1;
            true
        })
        .expect("not stopped");
        assert_eq!(parts.scores, whole.scores, "part {part}");
        assert_eq!(parts.winners, whole.winners, "part {part}");
        assert_eq!(parts.decisions, whole.decisions, "part {part}");
        assert_eq!(
            pauses,
            23usize.div_ceil(part) - 1,
            "asked between parts only"
        );
    }
    let mut asked = 0;
    let stopped = rollouts_in_parts(&game, None, 23, 9, 1, Sampler::List, 5, &mut || {
        asked += 1;
        asked < 2
    });
    assert!(
        stopped.is_none() && asked == 2,
        "stopped at the second pause"
    );
}
