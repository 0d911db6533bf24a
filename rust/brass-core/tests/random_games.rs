//! Random games at every player count: they end, every legal action applies, JSON round-trips.
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
