//! Random games at every player count: they end, every legal action applies, JSON round-trips.
use crate::common;
use brass_core::{apply, json, rules, Game, Rng};
use std::collections::BTreeMap;

fn game(players: i64) -> Game {
    Game::new("lancashire", players, &BTreeMap::new()).unwrap()
}

#[test]
fn random_games_reach_the_end() {
    for players in 2..=4 {
        let g = game(players);
        for seed in 0..30u64 {
            let mut s = apply::new_state(&g, seed);
            let mut rng = Rng(seed ^ 0xABCDEF);
            let mut ids = Vec::new();
            let mut steps = 0;
            while !s.is_terminal() {
                ids.clear();
                rules::legal_actions(&g, &s, &mut ids);
                assert!(
                    !ids.is_empty(),
                    "no legal action at {}",
                    json::to_json(&g, &s)
                );
                let id = ids[rng.below(ids.len() as u64) as usize];
                apply::apply(&g, &mut s, id as i64)
                    .unwrap_or_else(|e| panic!("{e} at {}", json::to_json(&g, &s)));
                if steps % 7 == 0 {
                    let text = json::to_json(&g, &s);
                    let (_, back) =
                        json::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
                    assert_eq!(json::to_json(&g, &back), text);
                }
                steps += 1;
                assert!(steps < 5000);
            }
        }
    }
}

/// Random Birmingham games to the end at every player count, every decision checked against the state's
/// invariants (debug builds validate after each checked apply).
#[test]
fn birmingham_random_games_end_and_stay_valid() {
    for players in 2..=4 {
        let g = common::birmingham(players, &[]);
        for seed in 0..8u64 {
            let mut s = brass_core::apply::new_state(&g, seed);
            brass_core::invariants::validate(&g, &s).unwrap();
            let mut rng = brass_core::Rng(seed ^ 99);
            let mut ids = Vec::new();
            let mut n = 0;
            while !s.is_terminal() {
                ids.clear();
                brass_core::rules::legal_actions(&g, &s, &mut ids);
                assert!(!ids.is_empty(), "no legal action at {:?}", s.decision);
                let id = ids[rng.below(ids.len() as u64) as usize];
                brass_core::apply::apply(&g, &mut s, id as i64)
                    .unwrap_or_else(|e| panic!("{players}p seed {seed}: {e}"));
                n += 1;
                let text = json::to_json(&g, &s);
                let s2 = json::from_json_in(&g, &text)
                    .unwrap_or_else(|e| panic!("{players}p seed {seed}: {e}\n{text}"));
                assert_eq!(json::to_json(&g, &s2), text, "JSON round trip");
                assert!(n <= g.max_decisions(), "too many decisions");
            }
            assert!(!brass_core::apply::winners(&g, &s).is_empty());
        }
    }
}
