//! The classic 2007 rules (`brass`, C-1 … C-17) and the Lancashire options (L-54 … L-57), docs/classic.md.
use crate::common;
use brass_core::game::Era;
use brass_core::state::Decision;
use brass_core::{apply, rules, Game, Rng};
use common::Pos;
use std::collections::BTreeMap;

fn game(name: &str, players: i64, options: &[(&str, bool)]) -> brass_core::Result<Game> {
    let options: BTreeMap<String, serde_json::Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::Bool(*v)))
        .collect();
    Game::new(name, players, &options)
}

fn sum(counts: &[u8]) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

/// Random games to the end; returns the cards each player played per era.
fn play_out(g: &Game, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut s = apply::new_state(g, seed);
    let mut rng = Rng(seed ^ 77);
    let mut ids = Vec::new();
    let n = g.players as usize;
    let mut canal = vec![0; n];
    while !s.is_terminal() {
        if s.era == Era::Canal {
            for (p, played) in canal.iter_mut().enumerate() {
                *played = sum(&s.players[p].discards);
            }
        }
        ids.clear();
        rules::legal_actions(g, &s, &mut ids);
        let era = s.era;
        let before: Vec<u32> = (0..n)
            .map(|p| sum(&s.players[p].discards) + s.players[p].hand_size())
            .collect();
        apply::apply(g, &mut s, ids[rng.below(ids.len() as u64) as usize] as i64).unwrap();
        if era == Era::Canal && s.era == Era::Rail {
            canal = before;
        }
    }
    let rail = if s.era == Era::Rail {
        (0..n).map(|p| sum(&s.players[p].discards)).collect()
    } else {
        vec![0; n]
    };
    if s.era == Era::Canal {
        canal = (0..n).map(|p| sum(&s.players[p].discards)).collect();
    }
    (canal, rail)
}

/// Twelve random games: each player plays 1 + 2 × (rounds − 1) cards in the Canal Era, 2 × rounds in the Rail Era.
fn assert_every_round_plays_its_cards(g: &Game, rounds: u8) {
    let players = g.players as usize;
    for seed in 0..12 {
        let (canal, rail) = play_out(g, seed);
        assert_eq!(canal, vec![1 + 2 * (rounds as u32 - 1); players]);
        assert_eq!(rail, vec![2 * rounds as u32; players]);
    }
}

#[test]
fn c2_c3_classic_games_play_every_card_in_10_or_8_rounds() {
    for (players, rounds) in [(3, 10), (4, 8)] {
        let g = game("brass", players, &[]).unwrap();
        assert_eq!(g.rounds_per_era, rounds);
        assert_every_round_plays_its_cards(&g, rounds);
    }
}

#[test]
fn l56_classic_deck_plays_every_card_and_3p_has_10_rounds() {
    for (players, rounds) in [(3, 10), (4, 8)] {
        let g = game("lancashire", players, &[("classic_deck", true)]).unwrap();
        assert_eq!((g.rounds_per_era, g.deck_size), (rounds, 66));
        assert_every_round_plays_its_cards(&g, rounds);
    }
}

#[test]
fn c3_classic_setup_deals_then_removes_cards_unseen() {
    for (players, removed_canal, removed_rail) in [(3, 9, 6), (4, 6, 2)] {
        let g = game("brass", players, &[]).unwrap();
        let s = apply::new_state(&g, 5);
        assert_eq!(sum(&s.removed), removed_canal);
        assert_eq!(sum(&s.lancashire().deck_tile), 0);
        assert_eq!(
            s.deck_size() as u32,
            66 - 8 * players as u32 - removed_canal
        );
        // Play to the Rail Era: the whole deck again, dealt, then the Rail removal.
        let mut s = s;
        let mut rng = Rng(1);
        let mut ids = Vec::new();
        while s.era == Era::Canal {
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            apply::apply(&g, &mut s, ids[rng.below(ids.len() as u64) as usize] as i64).unwrap();
        }
        assert_eq!(sum(&s.removed), removed_rail);
        let in_hands: u32 = (0..players as usize)
            .map(|p| s.players[p].hand_size())
            .sum();
        assert_eq!(in_hands + s.deck_size() as u32 + removed_rail, 66);
    }
}

#[test]
fn l56_classic_deck_tile_holds_9_or_6_cards() {
    let g = game("lancashire", 3, &[("classic_deck", true)]).unwrap();
    let s = apply::new_state(&g, 2);
    assert_eq!(
        (
            sum(&s.lancashire().deck_tile),
            sum(&s.removed),
            s.deck_size()
        ),
        (9, 0, 66 - 9 - 24)
    );
    let g = game("lancashire", 4, &[("classic_deck", true)]).unwrap();
    assert_eq!(sum(&apply::new_state(&g, 2).lancashire().deck_tile), 6);
}

#[test]
fn c4_classic_refills_at_the_end_of_the_round_and_collects_income_at_the_start() {
    let mut p = Pos::of("brass", 3, &[]);
    p.hand(0, &["wigan", "bolton"]);
    p.s.players[1].income_space = 13; // level 2
    p.play("pass").play("card bolton").play("pass");
    assert_eq!(p.s.turn, 1);
    assert_eq!(
        p.s.players[0].hand_size(),
        0,
        "no refill at the end of a turn (C-4)"
    );
    let deck = p.s.deck_size();
    // Players 1 and 2 pass twice each; then the round ends.
    for _ in 0..4 {
        p.play("pass");
        if p.decision() == Decision::Card {
            let id = p.legal()[0].clone();
            p.play(&id);
        }
    }
    assert_eq!(p.s.round, 3);
    assert_eq!(
        p.s.players[0].hand_size(),
        8,
        "refilled at the end of the round"
    );
    assert_eq!(
        p.s.deck_size(),
        deck - 8 - 2 - 2,
        "player 0 draws 8, the others 2 each"
    );
    assert_eq!(
        p.s.players[1].money, 32,
        "income collected at the start of the round"
    );
}

#[test]
fn c4_classic_has_no_income_after_the_last_round_and_collects_it_before_rail_round_1() {
    let g = game("brass", 4, &[]).unwrap();
    let mut s = apply::new_state(&g, 9);
    let mut rng = Rng(3);
    let mut ids = Vec::new();
    loop {
        ids.clear();
        rules::legal_actions(&g, &s, &mut ids);
        let before = s;
        apply::apply(&g, &mut s, ids[rng.below(ids.len() as u64) as usize] as i64).unwrap();
        if before.era == Era::Canal && s.era == Era::Rail {
            // Canal scoring, the new deal, then income for Rail round 1 (shortfalls aside).
            for p in 0..4 {
                if s.players[p].money >= 0 && s.decision != Decision::Remove {
                    let level = g.income_level(s.players[p].income_space);
                    assert!(s.players[p].money >= level.min(0));
                }
            }
        }
        if s.is_terminal() {
            let last_round_money: Vec<i32> = (0..4).map(|p| before.players[p].money).collect();
            let end: Vec<i32> = (0..4).map(|p| s.players[p].money).collect();
            assert_eq!(
                last_round_money, end,
                "no income after the last round of the game"
            );
            break;
        }
    }
}

#[test]
fn c5_classic_loans_stop_once_the_rail_deck_is_empty() {
    let mut p = Pos::of("brass", 4, &[]).rail();
    p.s.removed = [0; 32];
    p.hand(0, &["wigan", "bolton"]);
    p.s.round = 6;
    assert!(p.is_legal("loan 10"), "cards left in the draw pile");
    p.s.deck_pos = p.s.deck_len;
    let why = p.refuse("loan 10");
    assert!(why.contains("C-5"), "{why}");
    let mut q = Pos::new(4).rail();
    q.hand(0, &["wigan", "bolton"]);
    q.s.round = 3;
    q.s.deck_pos = q.s.deck_len;
    assert!(
        q.is_legal("loan 10"),
        "Lancashire bans loans by round (L-46), not by the deck"
    );
}

fn virtual_link_position(name: &str, options: &[(&str, bool)]) -> Pos {
    let mut p = Pos::of(name, 4, options).rail();
    p.s.removed = [0; 32];
    p.hand(0, &["shipyard", "wigan"]).lowest(0, "shipyard", 2);
    p.tile("liverpool/1", 0, "port", 2, 0)
        .tile("ellesmere_port/1", 1, "port", 2, 0);
    p.link("ellesmere_port-birkenhead", 1);
    p
}

#[test]
fn l55_c7_virtual_link_lets_an_industry_card_build_across_the_mersey() {
    assert!(!virtual_link_position("lancashire", &[]).is_legal("build shipyard birkenhead/1"));
    assert!(
        virtual_link_position("lancashire", &[("virtual_link", true)])
            .is_legal("build shipyard birkenhead/1")
    );
    assert!(virtual_link_position("brass", &[]).is_legal("build shipyard birkenhead/1"));
}

/// The other way across (a mutation survivor: only Liverpool → Birkenhead was tested): a network at
/// Birkenhead reaches Liverpool for an industry card.
#[test]
fn l55_c7_virtual_link_works_from_either_end() {
    let from_birkenhead = |options: &[(&str, bool)]| {
        let mut p = Pos::of("lancashire", 4, options).rail();
        p.s.removed = [0; 32];
        p.hand(0, &["shipyard", "wigan"]).lowest(0, "shipyard", 2);
        // Another player's port at Liverpool: coal comes from the market there (the link carries none).
        p.tile("ellesmere_port/1", 1, "port", 2, 0)
            .tile("liverpool/1", 1, "port", 2, 0);
        p.link("ellesmere_port-birkenhead", 0);
        p
    };
    let why = from_birkenhead(&[]).refuse("build shipyard liverpool/4");
    assert!(why.contains("network"), "{why}");
    assert!(from_birkenhead(&[("virtual_link", true)]).is_legal("build shipyard liverpool/4"));
}

#[test]
fn l55_c7_virtual_link_carries_no_coal_and_joins_no_network() {
    let mut p = Pos::of("lancashire", 4, &[("virtual_link", true)]).rail();
    p.hand(0, &["shipyard", "wigan"]).lowest(0, "shipyard", 2);
    p.tile("liverpool/1", 0, "port", 2, 0);
    let why = p.refuse("build shipyard birkenhead/1");
    assert!(why.contains("no coal"), "{why}");
    assert!(
        !p.is_legal("link ellesmere_port-birkenhead"),
        "Birkenhead is not in the network"
    );
}

#[test]
fn c11_classic_dcm_tiles_go_to_the_bottom_of_the_pile() {
    let mut p = Pos::of("brass", 4, &[]);
    p.hand(0, &["wigan", "bolton"])
        .tile("colne/1", 0, "cotton_mill", 1, 0)
        .link("colne-yorkshire", 1);
    assert_eq!(p.s.lancashire().dcm_pile_len, 12);
    let top = p.s.lancashire().dcm_pile[0];
    p.play("sell colne/1 distant");
    assert_eq!(p.s.lancashire().dcm_pile_len, 12);
    assert_eq!(p.s.lancashire().dcm_pile[11], top);
    assert_eq!(p.s.lancashire().dcm_discards, [0; 8]);
}

#[test]
fn r11_classic_cotton_mill_level_one_scores_three() {
    let lancashire = game("lancashire", 4, &[]).unwrap();
    let brass = game("brass", 4, &[]).unwrap();
    assert_eq!(
        lancashire
            .tile_spec(lancashire.industry_by_name("cotton_mill").unwrap(), 1)
            .unwrap()
            .vp,
        5
    );
    assert_eq!(
        brass
            .tile_spec(brass.industry_by_name("cotton_mill").unwrap(), 1)
            .unwrap()
            .vp,
        3
    );
}

#[test]
fn c15_classic_ties_go_to_the_earlier_player_in_the_next_turn_order() {
    let mut p = Pos::of("brass", 3, &[]).rail();
    p.s.removed = [0; 32];
    p.s.round = 10;
    p.s.turn = 2;
    p.s.actions_left = 1;
    p.s.turn_order = [0, 1, 2, 0];
    for pl in 0..3 {
        p.money(pl, 9);
        p.s.players[pl as usize].vp = 20;
        p.s.players[pl as usize].income_space = 20;
        p.hand(pl, &[]);
    }
    p.hand(2, &["wigan"]);
    p.s.players[2].money_spent = 0;
    p.s.players[0].money_spent = 3;
    p.s.players[1].money_spent = 1;
    p.play("pass");
    assert_eq!(p.decision(), Decision::Over);
    assert_eq!(&p.s.turn_order[..3], &[2, 1, 0]);
    assert_eq!(
        apply::winners(&p.g, &p.s),
        vec![2],
        "least spent plays first next, and wins the tie"
    );
}

#[test]
fn l54_intro_game_ends_after_the_canal_era_with_extra_scoring() {
    let mut p = Pos::of("lancashire", 2, &[("intro", true)]);
    p.s.round = 10;
    p.s.turn = 1;
    p.s.actions_left = 1;
    p.hand(1, &["wigan"]);
    p.hand(0, &[]);
    p.s.deck_pos = p.s.deck_len;
    p.money(0, 70).money(1, 9);
    p.s.players[0].income_space = 20; // level 5
    p.s.players[1].income_space = 5; // level -5
    p.s.players[1].vp = 3;
    p.tile("manchester/1", 0, "cotton_mill", 2, 0)
        .flipped("manchester/1");
    p.tile("bolton/1", 0, "cotton_mill", 1, 0)
        .flipped("bolton/1");
    p.play("pass");
    assert_eq!(p.decision(), Decision::Over);
    assert_eq!(p.s.era, Era::Canal);
    // Player 0: tiles 5 + 5 (Canal scoring), then min(70/4, 15) = 15, +5 income level, +5 the level-2 mill again.
    assert_eq!(p.s.players[0].vp, 5 + 5 + 15 + 5 + 5);
    // Player 1: 3, then 9/4 = 2, then -5 (not below 0).
    assert_eq!(p.s.players[1].vp, 0);
    assert_eq!(
        p.s.players[0].money, 70,
        "no income after the last round of the game"
    );
}

#[test]
fn l57_community_variant_and_bad_options_are_refused() {
    let bad = |name: &str, players: i64, options: BTreeMap<String, serde_json::Value>| {
        Game::new(name, players, &options)
            .expect_err("refused")
            .to_string()
    };
    let one = |k: &str, v: serde_json::Value| {
        [(k.to_string(), v)].into_iter().collect::<BTreeMap<_, _>>()
    };
    assert!(bad("lancashire", 2, one("variant", "community-2p".into())).contains("R-13"));
    assert!(bad("lancashire", 2, one("classic_deck", true.into())).contains("3 or 4"));
    assert!(bad("lancashire", 4, one("intro", 1.into())).contains("True or False"));
    assert!(bad("brass", 4, one("intro", true.into())).contains("no options"));
    assert!(bad("brass", 2, BTreeMap::new()).contains("3 or 4"));
    let g = game("lancashire", 4, &[("intro", false), ("virtual_link", true)]).unwrap();
    assert_eq!(
        g.options.keys().collect::<Vec<_>>(),
        ["virtual_link"],
        "False options are not recorded"
    );
}

#[test]
fn l54_l55_option_games_reach_their_end() {
    for players in 2..=4 {
        let intro = game(
            "lancashire",
            players,
            &[("intro", true), ("virtual_link", true)],
        )
        .unwrap();
        for seed in 0..8 {
            let (canal, rail) = play_out(&intro, seed);
            assert_eq!(
                canal,
                vec![1 + 2 * (intro.rounds_per_era as u32 - 1); players as usize]
            );
            assert_eq!(
                rail,
                vec![0; players as usize],
                "the introductory game has no Rail Era"
            );
        }
    }
}

/// C-6, R-14: the industry-card "build anywhere" exception is a player's first industry build of the game,
/// not "nothing on the board": once used, a player whose tiles all left the board does not get it back.
#[test]
fn c6_r14_first_build_anywhere_is_the_first_industry_build_of_the_game_only() {
    let mut p = Pos::of("brass", 3, &[]).rail();
    p.hand(0, &["coal_mine"]).lowest(0, "coal_mine", 2);
    // Nothing of player 0 on the board, and no build yet in this game: anywhere.
    assert!(!p.s.players[0].built_industry);
    assert!(p.is_legal("build coal_mine bolton/1"));
    assert!(p.is_legal("build coal_mine wigan/1"));
    // Nothing on the board, but the Canal Era's tiles were built (and removed at its end): only in the
    // network, which is empty.
    p.s.players[0].built_industry = true;
    assert!(!p.is_legal("build coal_mine bolton/1"));
    assert!(!p.is_legal("build coal_mine wigan/1"));
    assert!(p.refuse("build coal_mine wigan/1").contains("L-22"));
    // Lancashire keeps L-22: with nothing on the board, an industry card builds anywhere again.
    let mut q = Pos::new(3).rail();
    q.hand(0, &["coal_mine"]).lowest(0, "coal_mine", 2);
    assert!(q.is_legal("build coal_mine bolton/1"));
}

/// C-6, R-14: a build sets the per-player fact (a develop does not), and the end of the Canal Era, which
/// removes the player's level-1 tiles, does not reset it.
#[test]
fn c6_r14_a_build_records_the_first_build_and_the_canal_era_end_keeps_it() {
    let mut p = Pos::of("brass", 3, &[]);
    p.hand(0, &["coal_mine", "cotton_mill"]);
    p.play("develop cotton_mill")
        .play("stop")
        .play("card cotton_mill");
    assert!(!p.s.players[0].built_industry, "a develop is not a build");
    p.play("build coal_mine wigan/1");
    assert!(p.s.players[0].built_industry);
    assert!(p.json().contains("\"built_industry\":true"));
    assert!(p.json().contains("\"built_industry\":false"));
    // Lancashire states have no such key.
    assert!(!Pos::new(3).json().contains("built_industry"));

    // The last action of the Canal Era: player 0's only tile is level 1 and leaves the board.
    let mut e = Pos::of("brass", 3, &[]);
    e.tile("wigan/1", 0, "coal_mine", 1, 2);
    e.s.players[0].built_industry = true;
    e.s.round = e.g.rounds_per_era;
    e.s.turn = 2;
    e.s.actions_left = 1;
    e.hand(0, &[]).hand(1, &[]).hand(2, &["bolton"]);
    e.play("pass");
    assert_eq!(e.s.era, Era::Rail);
    assert!(e.is_empty("wigan/1"));
    assert!(e.s.players[0].built_industry, "the era's end keeps it");
    e.s.turn_order = [0, 1, 2, 0];
    e.s.turn = 0;
    e.s.decision = Decision::Action;
    e.hand(0, &["coal_mine"]).lowest(0, "coal_mine", 2);
    assert!(!e.is_legal("build coal_mine bolton/1"));
}

fn rail_coal_position(name: &str) -> Pos {
    // Player 0 owns the Wigan mine (so Wigan is in the network); a Manchester mine of player 1 is one link
    // from Bolton. The new rail Wigan–Bolton: from Wigan the Wigan mine is closest (0 links); from Bolton
    // both mines are 1 link away.
    let mut p = Pos::of(name, 3, &[]).rail();
    p.tile("wigan/1", 0, "coal_mine", 2, 3)
        .tile("manchester/1", 1, "coal_mine", 2, 3)
        .link("bolton-manchester", 1)
        .hand(0, &["bolton"]);
    p
}

/// C-14, R-15: the player chooses the end of a new rail that receives its coal, then the closest source
/// to that end: the Manchester mine (closest to Bolton) is offered beside the Wigan mine.
#[test]
fn c14_r15_classic_rail_coal_comes_to_the_end_the_player_chooses() {
    let mut p = rail_coal_position("brass");
    p.play("link wigan-bolton");
    assert_eq!(p.decision(), Decision::Coal);
    assert_eq!(p.legal(), vec!["coal manchester/1", "coal wigan/1"]);
    p.play("coal manchester/1");
    assert_eq!(p.at("manchester/1").cubes, 2);
    assert_eq!(p.at("wigan/1").cubes, 3);
    // L-36 (Lancashire, unchanged): the closest source to either end, the ends together: Wigan, no question.
    let mut q = rail_coal_position("lancashire");
    q.play("link wigan-bolton");
    assert_ne!(q.decision(), Decision::Coal);
    assert_eq!(q.at("wigan/1").cubes, 2);
    assert_eq!(q.at("manchester/1").cubes, 3);
}

/// C-14, R-15: one source only (the same mine closest to both ends) asks nothing.
#[test]
fn c14_r15_classic_rail_coal_asks_only_on_a_real_choice() {
    let mut p = Pos::of("brass", 3, &[]).rail();
    p.tile("wigan/1", 0, "coal_mine", 2, 3).hand(0, &["bolton"]);
    p.play("link wigan-bolton");
    assert_ne!(p.decision(), Decision::Coal);
    assert_eq!(p.at("wigan/1").cubes, 2);
}

/// C-17, R-16: classic Brass starts with a random start player, then clockwise in seat order (a rotation of
/// the seats, drawn with one `below(players)` after the DCM shuffle); Lancashire shuffles the whole order (L-6).
#[test]
fn c17_r16_classic_first_round_is_a_rotation_of_the_seats() {
    for players in [3i64, 4] {
        let g = game("brass", players, &[]).unwrap();
        let mut starts = [0u32; 4];
        for seed in 0..200u64 {
            let s = apply::new_state(&g, seed);
            let n = players as usize;
            let first = s.turn_order[0] as usize;
            let expected: Vec<u8> = (0..n).map(|i| ((first + i) % n) as u8).collect();
            assert_eq!(&s.turn_order[..n], &expected[..], "seed {seed}");
            starts[first] += 1;
        }
        assert!(
            starts[..players as usize].iter().all(|&c| c > 20),
            "every seat starts sometimes: {starts:?}"
        );
    }
    // Lancashire: some first orders are not rotations.
    let g = game("lancashire", 4, &[]).unwrap();
    let rotations = (0..200u64)
        .filter(|&seed| {
            let o = apply::new_state(&g, seed).turn_order;
            (0..4).all(|i| o[i] == (o[0] + i as u8) % 4)
        })
        .count();
    assert!(rotations < 200, "Lancashire shuffles the whole order (L-6)");
}
