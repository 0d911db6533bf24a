//! `resample_hidden`: redeals respect everything the observer knows, including the card another player in
//! the middle of an action is known to hold.
use crate::common;
use brass_core::hidden::resample_hidden;
use brass_core::{apply, invariants, json, rules, Game, Rng};
use std::collections::BTreeMap;

fn check_game(g: &Game, seed: u64) {
    let mut s = apply::new_state(g, seed);
    let mut rng = Rng(seed ^ 0x5EED);
    let mut ids = Vec::new();
    while !s.is_terminal() {
        if s.action.is_some() {
            for observer in 0..g.players {
                for k in 0..3 {
                    let r = resample_hidden(g, &s, observer, seed * 31 + k);
                    invariants::validate(g, &r).unwrap_or_else(|e| {
                        panic!("observer {observer}: {e}\n{}", json::to_json(g, &s))
                    });
                    assert_eq!(
                        r.players[observer as usize].hand,
                        s.players[observer as usize].hand
                    );
                    assert_eq!(r.decision, s.decision);
                    // The redealt state plays on.
                    let mut legal = Vec::new();
                    rules::legal_actions(g, &r, &mut legal);
                    assert!(!legal.is_empty());
                }
            }
        }
        ids.clear();
        rules::legal_actions(g, &s, &mut ids);
        let id = ids[rng.below(ids.len() as u64) as usize];
        apply::apply(g, &mut s, id as i64).unwrap();
    }
}

#[test]
fn resample_keeps_a_card_that_pays_for_the_build_under_way() {
    // Player 0 builds in Bury with the Bury card and is asked for coal or a card; observer 1 redeals
    // player 0's hand, which must still hold a card able to pay.
    let g = Game::new("lancashire", 4, &BTreeMap::new()).unwrap();
    let mut found = 0;
    for seed in 0..40u64 {
        let s0 = apply::new_state(&g, seed);
        let mut ids = Vec::new();
        rules::legal_actions(&g, &s0, &mut ids);
        for &id in &ids {
            let mut s = s0;
            apply::apply(&g, &mut s, id as i64).unwrap();
            if s.action.is_none() {
                continue;
            }
            found += 1;
            let me = s.current_player(&g).unwrap();
            for observer in (0..4).filter(|&o| o != me) {
                for k in 0..5 {
                    let r = resample_hidden(&g, &s, observer, k);
                    invariants::validate(&g, &r)
                        .unwrap_or_else(|e| panic!("{}: {e}", g.action_name(id as i64).unwrap()));
                }
            }
        }
        if found > 50 {
            break;
        }
    }
    assert!(found > 0);
}

#[test]
fn resample_in_random_games_of_every_family_stays_valid() {
    let none = BTreeMap::new();
    for players in [2, 3, 4] {
        check_game(
            &Game::new("lancashire", players, &none).unwrap(),
            players as u64,
        );
        check_game(&common::birmingham(players, &[]), players as u64);
    }
    check_game(&Game::new("brass", 4, &none).unwrap(), 9);
}

/// Issue 25 (a mutation survivor): the face-down Distant Cotton Market tiles are hidden from every player
/// (L-42), so a redeal reshuffles their order while keeping the same tiles. A search over resampled states
/// must not see the true order.
#[test]
fn l42_resample_hidden_reshuffles_the_dcm_pile() {
    let g = Game::new("lancashire", 3, &BTreeMap::new()).unwrap();
    let s = apply::new_state(&g, 1);
    let pile = |st: &brass_core::State| {
        let e = st.lancashire();
        e.dcm_pile[..e.dcm_pile_len as usize].to_vec()
    };
    let truth = pile(&s);
    assert!(truth.len() > 1);
    let mut sorted_truth = truth.clone();
    sorted_truth.sort_unstable();
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let r = resample_hidden(&g, &s, 0, seed);
        let mut tiles = pile(&r);
        orders.insert(tiles.clone());
        tiles.sort_unstable();
        assert_eq!(tiles, sorted_truth, "the same tiles, in some order");
    }
    assert!(
        orders.len() > 1 || !orders.contains(&truth),
        "eight redeals all kept the true order of the pile"
    );
}

/// A `Redealer` (one per search) deals each seed exactly as a fresh `resample_hidden` does, however many deals
/// came before, at every fifth decision of random games in three games; and different seeds give different deals.
#[test]
fn a_redealer_reused_deals_as_resample_hidden() {
    use brass_core::hidden::Redealer;
    for (name, players) in [("lancashire", 4), ("brass", 3), ("birmingham", 4)] {
        let g = Game::new(name, players, &BTreeMap::new()).unwrap();
        let mut s = apply::new_state(&g, 9);
        let mut rng = Rng(9);
        let mut ids = Vec::new();
        let mut decision = 0;
        while !s.is_terminal() {
            if decision % 5 == 0 {
                let observer = (decision / 5 % players as u64) as u8;
                let mut redealer = Redealer::new(&g, &s, observer);
                let deals: Vec<_> = (0..6).map(|seed| redealer.deal(&g, seed)).collect();
                for (seed, deal) in deals.iter().enumerate() {
                    assert_eq!(*deal, resample_hidden(&g, &s, observer, seed as u64));
                }
                if s.deck_size() > 2 {
                    assert!(
                        deals.windows(2).any(|w| w[0].deck != w[1].deck),
                        "{name}: the pile is redealt"
                    );
                }
            }
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            apply::apply(&g, &mut s, ids[rng.below(ids.len() as u64) as usize] as i64).unwrap();
            decision += 1;
        }
    }
}
