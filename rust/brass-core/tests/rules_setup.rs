//! Setup and a few rules that follow from the data (L-1 … L-7, L-10, L-32, L-40).
use crate::common;
use brass_core::game::Resource;
use brass_core::{apply, Game};
use common::Pos;
use std::collections::BTreeMap;

fn game(players: i64) -> Game {
    Game::new("lancashire", players, &BTreeMap::new()).unwrap()
}

#[test]
fn l1_l5_players_start_equal_and_markets_full() {
    for n in 2..=4 {
        let g = game(n);
        let s = apply::new_state(&g, 5);
        for p in &s.players[..n as usize] {
            assert_eq!(
                (p.money, p.income_space, p.vp, p.links_left),
                (30, 10, 0, 14)
            );
            assert_eq!(g.income_level(p.income_space), 0);
            assert_eq!(p.taken, [0; 6]);
        }
        assert_eq!(g.stacks.iter().map(|s| s.len()).sum::<usize>(), 37);
        assert_eq!((s.market(Resource::Coal), s.market(Resource::Iron)), (8, 8));
        assert_eq!(g.market(Resource::Coal).prices, [1, 1, 2, 2, 3, 3, 4, 4]);
    }
}

#[test]
fn l2_l3_deck_sizes_deck_tile_and_hands() {
    for (n, size) in [(2, 40), (3, 54), (4, 64)] {
        let g = game(n);
        assert_eq!(g.deck_size as i64, size);
        assert_eq!(
            g.deck_size as i64,
            n * 2 * g.rounds_per_era as i64,
            "L-2: players x 2 x rounds"
        );
        let s = apply::new_state(&g, 17);
        assert_eq!(
            s.lancashire()
                .deck_tile
                .iter()
                .map(|&c| c as i64)
                .sum::<i64>(),
            n
        );
        assert!(s.players[..n as usize].iter().all(|p| p.hand_size() == 8));
        assert_eq!(s.deck_size() as i64, size - n - 8 * n);
    }
}

#[test]
fn l4_dcm_tiles_by_player_count_and_marker_on_top() {
    for (n, tiles) in [(2, 8), (3, 10), (4, 12)] {
        let g = game(n);
        let s = apply::new_state(&g, 1);
        assert_eq!(s.lancashire().dcm_pile_len, tiles);
        assert_eq!(s.lancashire().dcm_marker, 0);
        let mut pile = s.lancashire().dcm_pile().to_vec();
        pile.sort();
        assert_eq!(pile, g.lancashire().dcm_tiles);
    }
}

#[test]
fn l6_l7_first_turn_order_is_seeded_and_rounds_per_era() {
    let g = game(4);
    let orders: std::collections::BTreeSet<_> = (0..40)
        .map(|seed| apply::new_state(&g, seed).turn_order)
        .collect();
    assert!(
        orders.len() > 5,
        "the first turn order varies with the seed"
    );
    assert_eq!(
        [
            game(2).rounds_per_era,
            game(3).rounds_per_era,
            game(4).rounds_per_era
        ],
        [10, 9, 8]
    );
}

#[test]
fn l10_money_spent_counts_payments_not_loans() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.play("loan 10").play("card bolton");
    assert_eq!(p.s.players[0].money_spent, 0);
    p.play("build coal_mine wigan/1");
    assert_eq!(p.s.players[0].money_spent, 5);
}

#[test]
fn l32_birkenhead_and_barrow_get_no_coal_in_the_canal_era() {
    let mut p = Pos::new(4);
    p.lowest(0, "shipyard", 1)
        .hand(0, &["birkenhead", "barrow_in_furness"]);
    p.tile("liverpool/1", 1, "port", 1, 0)
        .link("wigan-liverpool", 1)
        .tile("wigan/1", 1, "coal_mine", 1, 2);
    assert!(!p.is_legal("build shipyard birkenhead/1"));
    assert!(!p.is_legal("build iron_works barrow_in_furness/2"));
    assert!(p.g.lines.iter().filter(|l| l.canal).all(|l| {
        let ends = [
            &p.g.locations[l.ends[0] as usize].id,
            &p.g.locations[l.ends[1] as usize].id,
        ];
        !ends.contains(&&"birkenhead".to_string())
            && !ends.contains(&&"barrow_in_furness".to_string())
    }));
}

#[test]
fn l40_only_own_unflipped_mills_sell() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]).link("colne-yorkshire", 1);
    p.tile("colne/1", 1, "cotton_mill", 1, 0);
    assert!(!p.is_legal("sell colne/1 distant"));
    p.tile("colne/1", 0, "cotton_mill", 1, 0).flipped("colne/1");
    assert!(!p.is_legal("sell colne/1 distant"));
    p.tile("colne/1", 0, "cotton_mill", 1, 0);
    assert!(p.is_legal("sell colne/1 distant"));
}

#[test]
fn hand_kinds_marks_every_kind_held() {
    let mut rng = brass_core::Rng(5);
    let counts = [0u8, 0, 0, 1, 2, 4, 127, 128, 255];
    let game = Game::new("lancashire", 2, &Default::default()).unwrap();
    let mut p = apply::new_state(&game, 1).players[0];
    for _ in 0..2000 {
        for c in p.hand.iter_mut() {
            *c = counts[rng.below(counts.len() as u64) as usize];
        }
        let want = p
            .hand
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .fold(0u32, |m, (k, _)| m | 1 << k);
        assert_eq!(p.hand_kinds(), want);
    }
}
