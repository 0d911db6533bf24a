//! Turns, rounds, income, shortfall, era ends, scoring and the winner (L-3, L-7 … L-12, L-48 … L-53).
use crate::common;
use brass_core::game::{Era, NONE};
use brass_core::state::Decision;
use brass_core::{apply, rules, Game, Rng};
use common::Pos;
use std::collections::BTreeMap;

/// Player 1 (last in turn order) is about to take the last action of round `round`.
fn last_action_of_round(players: i64, round: u8) -> Pos {
    let mut p = Pos::new(players);
    p.s.round = round;
    p.s.turn = players as u8 - 1;
    p.s.actions_left = 1;
    let last = players as u8 - 1;
    p.hand(last, &["wigan"]);
    p
}

/// Issue 25 (a mutation survivor in `apply/turns.rs`): a player whose last card went with their first action
/// cannot take the second, so their turn ends there and the next player acts (L-8).
#[test]
fn l8_a_player_left_with_no_cards_ends_the_turn() {
    let mut p = Pos::new(2);
    p.hand(0, &["wigan"]);
    assert_eq!((p.s.turn, p.s.actions_left), (0, 2));
    p.play("pass");
    while p.decision() == Decision::Card {
        p.play("card wigan");
    }
    // The turn is over: player 0 has drawn back up to 8 cards (L-9).
    assert_eq!(
        p.s.players[0].hand.iter().map(|&c| c as u32).sum::<u32>(),
        8
    );
    assert_eq!(
        p.s.current_player(&p.g),
        Some(1),
        "player 0 has no card for a second action"
    );
    assert_eq!((p.s.turn, p.s.actions_left), (1, 2));
}

#[test]
fn l8_first_canal_round_has_one_action_then_two() {
    let g = Game::new("lancashire", 3, &BTreeMap::new()).unwrap();
    let mut s = apply::new_state(&g, 3);
    assert_eq!(s.actions_left, 1);
    for _ in 0..3 {
        let id = g.parse_action("pass").unwrap();
        apply::apply(&g, &mut s, id as i64).unwrap();
        while s.decision == Decision::Card {
            let mut ids = Vec::new();
            rules::legal_actions(&g, &s, &mut ids);
            apply::apply(&g, &mut s, ids[0] as i64).unwrap();
        }
    }
    assert_eq!((s.round, s.turn, s.actions_left), (2, 0, 2));
}

#[test]
fn l11_turn_order_least_spent_first_and_ties_keep_their_order() {
    let mut p = last_action_of_round(4, 3);
    p.s.turn_order = [2, 0, 3, 1];
    for (player, spent) in [(0, 5), (1, 0), (2, 5), (3, 12)] {
        p.s.players[player].money_spent = spent;
    }
    p.s.turn = 3; // player 1 acts last
    p.hand(1, &["wigan"]);
    p.play("pass");
    assert_eq!(&p.s.turn_order[..4], &[1, 2, 0, 3]);
    assert!(p.s.players.iter().all(|pl| pl.money_spent == 0));
    assert_eq!((p.s.round, p.s.turn, p.s.actions_left), (4, 0, 2));
}

#[test]
fn l11_income_is_paid_at_the_end_of_the_round() {
    let mut p = last_action_of_round(2, 3);
    p.s.players[0].income_space = 13; // level 2
    p.s.players[1].income_space = 9; // level -1
    p.play("pass");
    assert_eq!((p.s.players[0].money, p.s.players[1].money), (32, 29));
}

#[test]
fn l11_shortfall_player_chooses_tiles_to_remove_and_keeps_the_excess() {
    let mut p = last_action_of_round(2, 3);
    p.s.players[1].income_space = 7; // level -3
    p.money(1, 1);
    p.tile("colne/1", 1, "cotton_mill", 1, 0)
        .tile("fleetwood/1", 1, "port", 1, 0);
    p.play("pass");
    assert_eq!(p.decision(), Decision::Remove);
    assert_eq!(p.s.current_player(&p.g), Some(1));
    assert_eq!(p.legal(), ["remove colne/1", "remove fleetwood/1"]);
    p.play("remove colne/1"); // worth £6: -2 + 6
    assert_eq!(p.s.players[1].money, 4);
    assert!(p.is_empty("colne/1") && !p.is_empty("fleetwood/1"));
    assert_eq!(p.decision(), Decision::Action);
    assert_eq!(p.s.players[1].vp, 0);
}

#[test]
fn l11_shortfall_without_tiles_costs_vp_never_below_zero() {
    let mut p = last_action_of_round(2, 3);
    p.s.players[1].income_space = 5; // level -5
    p.money(1, 2);
    p.s.players[1].vp = 2;
    p.play("pass");
    assert_eq!((p.s.players[1].money, p.s.players[1].vp), (0, 0));
    let mut q = last_action_of_round(2, 3);
    q.s.players[1].income_space = 7; // level -3
    q.money(1, 1);
    q.s.players[1].vp = 9;
    q.tile("fleetwood/1", 1, "port", 1, 0); // worth £3: -2 + 3 = 1
    q.play("pass");
    assert!(
        q.is_empty("fleetwood/1"),
        "a single tile is removed without asking"
    );
    assert_eq!((q.s.players[1].money, q.s.players[1].vp), (1, 9));
    let mut r = last_action_of_round(2, 3);
    r.s.players[1].income_space = 2; // level -8
    r.money(1, 0);
    r.s.players[1].vp = 9;
    r.tile("fleetwood/1", 1, "port", 1, 0); // £3 of £8
    r.play("pass");
    assert_eq!((r.s.players[1].money, r.s.players[1].vp), (0, 4));
}

#[test]
fn l11_no_income_after_the_last_round_of_the_game() {
    let mut p = last_action_of_round(2, 10).rail();
    p.s.players[0].income_space = 40;
    p.money(0, 5);
    p.play("pass");
    assert_eq!(p.decision(), Decision::Over);
    assert_eq!(p.s.players[0].money, 5);
    assert_eq!(p.s.players[0].vp, 0, "£5 is not a full £10 (L-52)");
}

#[test]
fn l48_income_advances_by_spaces_and_stops_at_the_top() {
    let mut p = Pos::new(2);
    p.hand(0, &["wigan", "bolton"]);
    p.s.players[0].income_space = 97;
    p.tile("manchester/1", 0, "cotton_mill", 1, 0)
        .tile("warrington_runcorn/1", 1, "port", 1, 0);
    p.link("manchester-warrington_runcorn", 1);
    p.play("sell manchester/1 warrington_runcorn/1");
    assert_eq!(p.income_space(0), 99);
}

#[test]
fn l49_l50_canal_scoring_links_then_flipped_tiles() {
    let mut p = last_action_of_round(2, 10);
    p.tile("manchester/1", 0, "cotton_mill", 1, 0)
        .flipped("manchester/1");
    p.tile("manchester/2", 1, "coal_mine", 2, 0); // flipped (empty)
    p.tile("bolton/1", 1, "coal_mine", 1, 1); // unflipped: no icon, no VP
    p.tile("ellesmere_port/1", 1, "port", 2, 0)
        .flipped("ellesmere_port/1");
    p.link("bolton-manchester", 0)
        .link("ellesmere_port-northwich", 1);
    p.play("pass");
    // Player 0: link 0 (Bolton) + 2 (two flipped tiles in Manchester) = 2; mill level 1: 5 VP.
    // Player 1: link 1 (flipped port) + 2 (Northwich prints 2) = 3; coal L2 2 VP + port L2 4 VP.
    assert_eq!((p.s.players[0].vp, p.s.players[1].vp), (2 + 5, 3 + 2 + 4));
    assert!(
        p.s.links.iter().all(|&l| l == NONE),
        "all links are removed"
    );
    assert_eq!(
        (p.s.players[0].links_left, p.s.players[1].links_left),
        (14, 14),
        "and returned"
    );
}

#[test]
fn l51_end_of_canal_removes_level_one_resets_dcm_and_deals_the_whole_deck() {
    let mut p = last_action_of_round(3, 9);
    p.tile("manchester/1", 0, "cotton_mill", 1, 0)
        .tile("wigan/1", 1, "coal_mine", 1, 2);
    p.tile("bolton/1", 2, "coal_mine", 2, 3);
    p.s.lancashire_mut().dcm_marker = 5;
    p.play("pass");
    assert_eq!(p.s.era, Era::Rail);
    assert!(p.is_empty("manchester/1") && p.is_empty("wigan/1"));
    assert_eq!(p.at("bolton/1").cubes, 3);
    assert_eq!(
        (
            p.s.lancashire().dcm_marker,
            p.s.lancashire().dcm_pile_len as usize
        ),
        (0, p.g.lancashire().dcm_tiles.len())
    );
    assert_eq!(p.s.deck_size() as u32, p.g.deck_size as u32 - 8 * 3);
    assert!(p.s.lancashire().deck_tile.iter().all(|&c| c == 0));
    assert!(p.s.players[..3]
        .iter()
        .all(|pl| pl.hand_size() == 8 && pl.discards.iter().all(|&d| d == 0)));
    assert_eq!((p.s.round, p.s.turn, p.s.actions_left), (1, 0, 2));
}

#[test]
fn l52_rail_end_scores_one_vp_per_full_ten_pounds() {
    let mut p = last_action_of_round(2, 10).rail();
    p.money(0, 39).money(1, 40);
    p.play("pass");
    assert_eq!((p.s.players[0].vp, p.s.players[1].vp), (3, 4));
}

#[test]
fn l53_r4_ties_break_on_income_level_then_money_not_on_the_track_space() {
    // The example of R-4: 102 VP and income level 10 each; space 30 with £20 against space 29 with £29.
    let mut p = last_action_of_round(2, 10).rail();
    for pl in 0..2 {
        p.s.players[pl].vp = 100;
    }
    p.s.players[0].income_space = 30; // level 10, further along
    p.s.players[1].income_space = 29; // level 10
    p.money(0, 20).money(1, 29);
    p.play("pass"); // + £2 and £2 of final money VP (L-52): 102 VP each
    assert_eq!(
        (p.s.players[0].vp, p.s.players[1].vp),
        (102, 102),
        "equal VP after the final scoring"
    );
    assert_eq!(apply::winners(&p.g, &p.s), vec![1], "more money wins alone");
    // Income level still comes before money.
    let mut p = last_action_of_round(3, 9).rail();
    for pl in 0..3 {
        p.money(pl, 9);
        p.s.players[pl as usize].vp = 20;
    }
    p.s.players[0].income_space = 27; // level 9
    p.s.players[1].income_space = 29; // level 10
    p.s.players[2].income_space = 28; // level 9
    p.money(1, 8); // less money, higher level
    p.play("pass");
    assert_eq!(apply::winners(&p.g, &p.s), vec![1]);
    let mut q = last_action_of_round(2, 10).rail();
    q.s.players[0].vp = 5;
    q.s.players[1].vp = 5;
    q.s.players[0].income_space = 11; // level 1
    q.s.players[1].income_space = 12; // level 1, further along
    assert_eq!(
        q.g.income_level(q.s.players[0].income_space),
        q.g.income_level(q.s.players[1].income_space),
        "two spaces of one level"
    );
    q.play("pass");
    assert_eq!(
        apply::winners(&q.g, &q.s),
        vec![0, 1],
        "equal VP, income level and money share the win, whatever the track space"
    );
}

/// A mutation survivor (`apply/turns.rs` `begin_turn`): a player who starts a turn with no cards takes no
/// action; the turn passes straight to the next player (L-8).
#[test]
fn l8_a_player_starting_a_turn_with_no_cards_is_skipped() {
    let mut p = Pos::new(3);
    p.hand(0, &["wigan", "wigan"]);
    p.s.players[1].hand = [0; 32];
    p.play("pass");
    while p.decision() == Decision::Card {
        p.play("card wigan");
    }
    p.play("pass");
    while p.decision() == Decision::Card {
        p.play("card wigan");
    }
    assert_eq!(
        p.s.current_player(&p.g),
        Some(2),
        "player 1 holds no card: skipped"
    );
    assert_eq!(p.s.turn, 2);
}

/// The results a learner is given (docs/api.md, "Returns"): zero-sum, +1 for a sole winner and −1/(n − 1) for
/// each other player, a shared win split as (n/k − 1)/(n − 1); nothing before the end (L-53).
#[test]
fn l53_returns_are_zero_sum_with_a_sole_or_a_shared_win() {
    let finish = |vp: [i32; 3]| {
        let mut p = last_action_of_round(3, 1).rail();
        p.s.round = p.g.rounds_per_era;
        for pl in 0..3u8 {
            p.money(pl, 9);
            p.s.players[pl as usize].vp = vp[pl as usize];
            p.s.players[pl as usize].income_space = 27;
        }
        assert_eq!(
            apply::returns(&p.g, &p.s),
            [0.0; 4],
            "nothing before the end"
        );
        p.play("pass");
        assert!(p.s.is_terminal());
        (apply::placings(&p.g, &p.s), apply::returns(&p.g, &p.s))
    };
    let (places, returns) = finish([30, 20, 10]);
    assert_eq!(places, [0, 1, 2]);
    assert_eq!(returns, [1.0, -0.5, -0.5, 0.0]);
    let (places, returns) = finish([20, 30, 30]);
    assert_eq!(places, [2, 0, 0]);
    assert_eq!(returns, [-0.5, 0.25, 0.25, 0.0]);
    let (places, returns) = finish([20, 20, 20]);
    assert_eq!(places, [0, 0, 0]);
    assert_eq!(returns, [0.0; 4], "a win shared by all is worth nothing");
    // Two players: +1 and −1.
    let mut p = last_action_of_round(2, 10).rail();
    p.s.players[1].vp = 7;
    p.play("pass");
    assert_eq!(apply::returns(&p.g, &p.s), [-1.0, 1.0, 0.0, 0.0]);
}

/// Play a random game to the end, watching the deck tile (L-3, L-9, L-51).
#[test]
fn l3_deck_tile_cards_are_unused_in_the_canal_era_and_used_in_the_rail_era() {
    for players in 2..=4 {
        let g = Game::new("lancashire", players, &BTreeMap::new()).unwrap();
        let mut s = apply::new_state(&g, 40 + players as u64);
        let under: u32 = s.lancashire().deck_tile.iter().map(|&c| c as u32).sum();
        assert_eq!(under, players as u32);
        let mut rng = Rng(9);
        let mut ids = Vec::new();
        let mut saw_rail_deck = false;
        while !s.is_terminal() {
            if s.era == Era::Canal {
                assert_eq!(
                    s.lancashire()
                        .deck_tile
                        .iter()
                        .map(|&c| c as u32)
                        .sum::<u32>(),
                    players as u32
                );
            } else if !saw_rail_deck {
                // The whole deck is in play in the Rail Era: hands plus draw pile.
                let in_hands: u32 = s.players[..players as usize]
                    .iter()
                    .map(|p| p.hand_size())
                    .sum();
                assert_eq!(in_hands + s.deck_size() as u32, g.deck_size as u32);
                saw_rail_deck = true;
            }
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            let id = ids[rng.below(ids.len() as u64) as usize];
            apply::apply(&g, &mut s, id as i64).unwrap();
        }
        assert!(saw_rail_deck);
    }
}
