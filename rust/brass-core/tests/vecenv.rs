//! `vecenv::VecEnv`: the legal actions it lists while stepping (for the masks, the random actions and the next
//! step's check) are those of each environment's position, an illegal action changes nothing, and a pass split
//! between threads gives the same games as one kept on the calling thread.
use brass_core::vecenv::VecEnv;
use brass_core::{rules, Game};
use std::collections::BTreeMap;

/// The caller's buffers of a step: masks, actions, rewards, dones, scores.
type Buffers = (Vec<bool>, Vec<i64>, Vec<f32>, Vec<bool>, Vec<i32>);

fn buffers(env: &VecEnv) -> Buffers {
    let (n, players) = (env.len(), env.game.players as usize);
    (
        vec![false; n * env.game.num_actions()],
        vec![0; n],
        vec![0.0; n * players],
        vec![false; n],
        vec![0; n * players],
    )
}

#[test]
fn masks_after_every_step_are_the_legal_actions_of_each_position() {
    for (name, players) in [("lancashire", 4), ("birmingham", 3), ("brass", 4)] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let mut env = VecEnv::new(game.clone(), 16, 5);
        let (mut masks, mut actions, mut rewards, mut dones, mut scores) = buffers(&env);
        let a = game.num_actions();
        let mut ids = Vec::new();
        let mut games_ended = 0;
        for k in 0..400 {
            env.masks(&mut masks);
            for (i, s) in env.states.iter().enumerate() {
                ids.clear();
                rules::legal_actions(&game, s, &mut ids);
                let row: Vec<u16> = (0..a as u16)
                    .filter(|&id| masks[i * a + id as usize])
                    .collect();
                assert_eq!(row, ids, "{name}: environment {i} at step {k}");
            }
            env.sample_actions(k, &mut actions);
            env.step(&actions, &mut rewards, &mut dones, &mut scores)
                .unwrap();
            games_ended += dones.iter().filter(|&&d| d).count();
        }
        // The auto-reset path (a new game's first position) is among those checked.
        assert!(games_ended > 0, "{name}");
    }
}

#[test]
fn an_illegal_action_changes_no_state_and_no_mask() {
    let game = Game::new("birmingham", 4, &BTreeMap::new()).unwrap();
    let mut env = VecEnv::new(game.clone(), 8, 2);
    let (mut masks, mut actions, mut rewards, mut dones, mut scores) = buffers(&env);
    for k in 0..30 {
        env.sample_actions(k, &mut actions);
        env.step(&actions, &mut rewards, &mut dones, &mut scores)
            .unwrap();
    }
    env.masks(&mut masks);
    let (states, before) = (env.states.clone(), masks.clone());
    env.sample_actions(99, &mut actions);
    let a = game.num_actions();
    let illegal = (0..a).find(|&id| !masks[5 * a + id]).unwrap();
    actions[5] = illegal as i64;
    let err = env
        .step(&actions, &mut rewards, &mut dones, &mut scores)
        .unwrap_err()
        .to_string();
    assert!(err.contains("environment 5"), "{err}");
    assert_eq!(env.states, states);
    env.masks(&mut masks);
    assert_eq!(masks, before);
}

/// One VecEnv of `n` environments stepped `steps` times at random in a pool of `threads` threads: every state,
/// observation, reward, done and score along the way.
fn trajectory(game: &Game, n: usize, steps: u64, threads: usize) -> Vec<String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut env = VecEnv::new(game.clone(), n, 11);
        let (mut masks, mut actions, mut rewards, mut dones, mut scores) = buffers(&env);
        let mut obs = vec![0.0f32; n * brass_core::observation::size(game)];
        let mut seen = Vec::new();
        env.reset();
        for k in 0..steps {
            env.observations(&mut obs);
            env.masks(&mut masks);
            env.sample_actions(k, &mut actions);
            env.step(&actions, &mut rewards, &mut dones, &mut scores)
                .unwrap();
            seen.push(format!(
                "{:?} {:?} {:?} {:?} {:?} {:?}",
                env.states,
                obs.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                masks,
                rewards,
                dones,
                scores
            ));
        }
        seen
    })
}

#[test]
fn a_pass_split_between_threads_or_kept_on_one_gives_the_same_games() {
    // SPLIT_ENVS environments are split between two threads; fewer, or one thread, stay on the calling thread.
    let game = Game::new("birmingham", 2, &BTreeMap::new()).unwrap();
    let n = brass_core::vecenv::SPLIT_ENVS;
    let split = trajectory(&game, n, 60, 2);
    assert_eq!(split, trajectory(&game, n, 60, 1));
    let fewer = trajectory(&game, n - 1, 60, 2);
    assert_eq!(fewer, trajectory(&game, n - 1, 60, 1));
}
