//! Build: cards, first build, levels, slot priority, canal limit, overbuilding (L-21 … L-31).
use crate::common;
use brass_core::state::Decision;
use brass_core::{apply, rules, Game, Rng, State};
use common::Pos;
use std::collections::BTreeMap;

#[test]
fn l21_location_card_builds_outside_the_network() {
    let mut p = Pos::new(4);
    p.hand(0, &["colne", "wigan"])
        .tile("bolton/1", 0, "cotton_mill", 1, 0);
    assert!(p.is_legal("build cotton_mill colne/1"));
    assert!(!p.is_legal("build cotton_mill stockport/1"));
}

#[test]
fn l21_industry_card_builds_only_in_the_network() {
    let mut p = Pos::new(4);
    p.hand(0, &["cotton_mill", "wigan"])
        .tile("bolton/1", 0, "coal_mine", 1, 1)
        .link("bolton-bury", 0);
    assert!(p.is_legal("build cotton_mill bury/1"));
    let why = p.refuse("build cotton_mill colne/1");
    assert!(why.contains("network"), "{why}");
}

#[test]
fn l21_double_build_uses_any_two_cards_anywhere_but_needs_two_actions() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "stockport", "bolton"])
        .tile("bolton/1", 0, "coal_mine", 1, 1);
    assert!(p.is_legal("build cotton_mill colne/1 double"));
    p.play("build cotton_mill colne/1 double");
    // Two card decisions (an unordered pair: the lower kind first).
    assert_eq!(p.decision(), Decision::Card);
    assert_eq!(p.legal(), ["card bolton", "card stockport"]);
    // The second card must be of the same or a later kind: only wigan is left, so it is taken.
    p.play("card stockport");
    assert_eq!(p.s.players[0].discards.iter().sum::<u8>(), 2);
    assert_eq!(p.s.turn, 1, "a double build uses both actions");
}

#[test]
fn l21_double_build_card_pair_is_unordered() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "stockport", "bolton"])
        .tile("bolton/1", 0, "coal_mine", 1, 1);
    p.play("build cotton_mill colne/1 double");
    p.play("card bolton");
    assert_eq!(p.legal(), ["card stockport", "card wigan"]);
    p.play("card wigan");
    assert_eq!(p.s.turn, 1, "a double build ends the turn");
    assert_eq!(
        p.s.players[0].hand_size(),
        8,
        "then the hand is refilled (L-9)"
    );
}

#[test]
fn l21_no_double_build_in_a_one_action_turn() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "stockport"]);
    p.s.round = 1;
    p.s.actions_left = 1;
    let why = p.refuse("build cotton_mill colne/1 double");
    assert!(why.contains("both actions"), "{why}");
}

#[test]
fn l22_first_build_with_an_industry_card_goes_anywhere() {
    let mut p = Pos::new(4);
    p.hand(0, &["port", "wigan"]);
    assert!(p.is_legal("build port fleetwood/1"));
    // Once the player has anything on the board, the exception is gone.
    p.link("bolton-manchester", 0);
    assert!(!p.is_legal("build port fleetwood/1"));
}

#[test]
fn l23_level_one_tiles_only_in_the_canal_era() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["colne", "wigan"]);
    p.tile("wigan/1", 1, "coal_mine", 2, 2)
        .link("colne-burnley", 1);
    let why = p.refuse("build cotton_mill colne/1");
    assert!(why.contains("Canal Era tile"), "{why}");
    p.lowest(0, "cotton_mill", 2);
    p.link("colne-yorkshire", 2);
    assert!(p.is_legal("build cotton_mill colne/1"));
}

#[test]
fn l23_shipyard_level_zero_never_and_level_two_only_in_rail() {
    let mut p = Pos::new(4);
    p.hand(0, &["liverpool", "wigan"])
        .tile("liverpool/1", 1, "port", 1, 0);
    let why = p.refuse("build shipyard liverpool/4");
    assert!(why.contains("never"), "{why}");
    p.lowest(0, "shipyard", 2);
    let why = p.refuse("build shipyard liverpool/4");
    assert!(why.contains("Rail Era"), "{why}");
    p.money(0, 100);
    let mut r = Pos::new(4).rail();
    r.hand(0, &["liverpool", "wigan"])
        .tile("liverpool/1", 1, "port", 2, 0)
        .lowest(0, "shipyard", 2);
    assert!(r.is_legal("build shipyard liverpool/4"));
}

/// Issue 25 (a mutation survivor of `check_build_site`): with the two other shipyard spaces taken, the last
/// free one, Liverpool's, is still offered (L-24 chooses among the free spaces; it never drops the last).
#[test]
fn l24_the_last_free_shipyard_space_is_still_offered() {
    let mut p = Pos::new(4);
    p.hand(0, &["liverpool", "wigan"])
        .tile("liverpool/1", 1, "port", 1, 0)
        .lowest(0, "shipyard", 1)
        .money(0, 100);
    assert!(p.is_legal("build shipyard liverpool/4"));
    p.tile("barrow_in_furness/1", 1, "shipyard", 1, 0)
        .tile("birkenhead/1", 2, "shipyard", 1, 0);
    assert!(p.is_legal("build shipyard liverpool/4"));
    p.play("build shipyard liverpool/4");
    assert_eq!(p.at("liverpool/4").owner, 0);
}

#[test]
fn l24_slot_priority_in_lancaster() {
    let mut p = Pos::new(4);
    p.hand(0, &["lancaster", "wigan"]);
    assert!(p.is_legal("build port lancaster/1"));
    assert!(!p.is_legal("build port lancaster/2"));
    assert!(p.is_legal("build cotton_mill lancaster/2"));
    p.tile("lancaster/1", 1, "port", 1, 0);
    assert!(p.is_legal("build port lancaster/2"));
}

#[test]
fn l24_slot_priority_in_preston() {
    let mut p = Pos::new(4);
    p.hand(0, &["preston", "wigan"]);
    assert!(p.is_legal("build port preston/3"));
    assert!(!p.is_legal("build port preston/1"));
    assert!(p.is_legal("build cotton_mill preston/1"));
    p.tile("preston/3", 1, "port", 1, 0);
    assert!(p.is_legal("build port preston/1"));
}

#[test]
fn l24_identical_spaces_offer_only_the_first_free_one() {
    let mut p = Pos::new(4);
    p.hand(0, &["manchester", "wigan"]);
    let builds: Vec<String> = p
        .legal()
        .into_iter()
        .filter(|a| a.starts_with("build cotton_mill manchester"))
        .collect();
    assert_eq!(
        builds,
        [
            "build cotton_mill manchester/1",
            "build cotton_mill manchester/1 double"
        ]
    );
    p.tile("manchester/1", 1, "coal_mine", 1, 1);
    assert!(p.is_legal("build cotton_mill manchester/2"));
    assert!(!p.is_legal("build cotton_mill manchester/3"));
}

#[test]
fn l25_canal_era_second_tile_in_a_location_is_refused() {
    let mut p = Pos::new(4);
    p.hand(0, &["manchester", "wigan"])
        .tile("manchester/1", 0, "cotton_mill", 1, 0);
    let why = p.refuse("build coal_mine manchester/2");
    assert!(why.contains("one tile per location"), "{why}");
    let mut r = Pos::new(4).rail();
    r.hand(0, &["manchester", "wigan"])
        .tile("manchester/1", 0, "cotton_mill", 2, 0)
        .lowest(0, "coal_mine", 2);
    assert!(r.is_legal("build coal_mine manchester/2"));
}

#[test]
fn l29_own_tiles_can_be_overbuilt_and_their_cubes_return_to_the_supply() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("wigan/1", 0, "coal_mine", 1, 1)
        .lowest(0, "coal_mine", 2);
    p.play("build coal_mine wigan/1");
    let t = p.at("wigan/1");
    assert_eq!((t.owner, t.level, t.cubes, t.flipped), (0, 2, 3, false));
    // Same level or lower cannot overbuild.
    let mut q = Pos::new(4);
    q.hand(0, &["wigan", "bolton"])
        .tile("wigan/1", 0, "coal_mine", 2, 1)
        .lowest(0, "coal_mine", 2);
    assert!(!q.is_legal("build coal_mine wigan/1"));
}

#[test]
fn l29_own_cotton_mill_can_be_overbuilt() {
    let mut p = Pos::new(4);
    p.hand(0, &["colne", "bolton"])
        .tile("colne/1", 0, "cotton_mill", 1, 0)
        .flipped("colne/1");
    p.lowest(0, "cotton_mill", 2).link("colne-yorkshire", 1);
    p.play("build cotton_mill colne/1");
    assert_eq!((p.at("colne/1").level, p.at("colne/1").flipped), (2, false));
}

#[test]
fn l30_opponent_mine_overbuild_refused_while_coal_is_left_anywhere() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"]).lowest(0, "coal_mine", 2);
    p.tile("wigan/1", 1, "coal_mine", 1, 0);
    // The wigan/2 space is free, so the empty overbuild target is wigan/1 only by explicit choice.
    let why = p.refuse("build coal_mine wigan/1");
    assert!(why.contains("no such cube"), "{why}");
    p.s.markets[0] = 0;
    p.tile("bolton/1", 2, "coal_mine", 2, 1);
    assert!(
        !p.is_legal("build coal_mine wigan/1"),
        "cubes on another mine still block it"
    );
    p.tile("bolton/1", 2, "coal_mine", 2, 0);
    p.play("build coal_mine wigan/1");
    assert_eq!((p.at("wigan/1").owner, p.at("wigan/1").level), (0, 2));
}

#[test]
fn l30_opponent_iron_works_overbuild_needs_no_iron_anywhere() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["bolton", "wigan"]).lowest(0, "iron_works", 2);
    p.tile("bolton/3", 1, "iron_works", 1, 0)
        .tile("bolton/1", 2, "coal_mine", 2, 2);
    assert!(
        !p.is_legal("build iron_works bolton/3"),
        "iron market still holds iron"
    );
    p.s.markets[1] = 0;
    assert!(p.is_legal("build iron_works bolton/3"));
}

#[test]
fn l30_opponent_cotton_mills_and_ports_cannot_be_overbuilt() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["colne", "wigan"])
        .lowest(0, "cotton_mill", 3)
        .tile("colne/1", 1, "cotton_mill", 2, 0);
    p.tile("colne/2", 1, "cotton_mill", 2, 0);
    let why = p.refuse("build cotton_mill colne/1");
    assert!(why.contains("only coal mines and iron works"), "{why}");
}

#[test]
fn l31_canal_overbuild_of_an_opponent_counts_as_a_tile_in_the_location() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]).lowest(0, "coal_mine", 2);
    p.tile("wigan/1", 1, "coal_mine", 1, 0)
        .tile("wigan/2", 0, "coal_mine", 1, 0);
    p.s.markets[0] = 0;
    let why = p.refuse("build coal_mine wigan/1");
    assert!(why.contains("one tile per location"), "{why}");
}

/// The original single-space form of L-24, kept as the specification `canonical_spaces` follows.
fn is_canonical_space_slow(game: &Game, state: &State, space: u8, industry: u8) -> bool {
    let loc = &game.locations[game.spaces[space as usize].location as usize];
    let only = 1u8 << industry;
    let open =
        |s: u8| state.board[s as usize].is_empty() && game.spaces[s as usize].icons & only != 0;
    let any_single = loc
        .spaces()
        .any(|s| open(s) && game.spaces[s as usize].icons == only);
    let icons = game.spaces[space as usize].icons;
    if any_single && icons != only {
        return false;
    }
    // No earlier open space with the same icons.
    !loc.spaces()
        .take_while(|&s| s != space)
        .any(|s| open(s) && game.spaces[s as usize].icons == icons)
}

#[test]
fn l24_canonical_spaces_agree_with_the_single_space_rule() {
    let game = Game::new("lancashire", 4, &BTreeMap::new()).unwrap();
    let mut rng = Rng(5);
    for seed in 0..20 {
        let mut state = apply::new_state(&game, seed);
        let mut ids = Vec::new();
        while !state.is_terminal() {
            let c = rules::canonical_spaces(&game, &state);
            for s in 0..game.spaces.len() as u8 {
                for i in 0..game.industries.len() as u8 {
                    // The rule is about undeveloped spaces (occupied ones are overbuilds).
                    if game.spaces[s as usize].icons & (1 << i) != 0
                        && state.board[s as usize].is_empty()
                    {
                        assert_eq!(
                            c[i as usize] & (1 << s) != 0,
                            is_canonical_space_slow(&game, &state, s, i)
                        );
                    }
                }
            }
            ids.clear();
            rules::legal_actions(&game, &state, &mut ids);
            let id = ids[rng.below(ids.len() as u64) as usize];
            apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
        }
    }
}

/// L-16, L-17, L-19, L-25: the listing decides an industry's undeveloped candidates together
/// (`free_build_sites`); it must accept exactly the spaces the one-space site check accepts. Every third Action
/// decision of random games in each game, with the player's money also set to 0, 3, … 39 so that the coal
/// bought from the market (one cube or two, at rising prices) decides some builds.
#[test]
fn l16_free_build_sites_agree_with_the_site_check() {
    let mut decided = [0usize; 2];
    for (name, players, seed) in [
        ("lancashire", 4, 3),
        ("lancashire", 2, 4),
        ("brass", 3, 5),
        ("birmingham", 4, 6),
        ("birmingham", 3, 7),
    ] {
        let mut visits = 0u64;
        common::at_each_money_of_a_random_game(name, players, seed, |game, probe, p| {
            visits += 1;
            // Every third decision (14 money levels each).
            if probe.decision != Decision::Action || visits / 14 % 3 != 0 {
                return;
            }
            let ctx = rules::Ctx::for_builds(game, probe, p);
            let canonical = ctx.canonical.unwrap();
            for i in 0..game.industries.len() as u8 {
                let free = canonical[i as usize];
                let sites = rules::free_build_sites(game, probe, &ctx, i, free);
                for s in (0..64u8).filter(|&s| free & (1 << s) != 0) {
                    let ok = rules::check_build_site(game, probe, &ctx, s, i).is_ok();
                    let money = probe.players[p as usize].money;
                    assert_eq!(
                        sites & (1 << s) != 0,
                        ok,
                        "{name}: space {s}, industry {i}, £{money}"
                    );
                    decided[ok as usize] += 1;
                }
            }
        });
    }
    assert!(
        decided[0] > 1000 && decided[1] > 1000,
        "both outcomes seen: {decided:?}"
    );
}

/// L-24: the canonical spaces a build context carries (remembered between decisions and, when the free spaces
/// change at one location, updated there alone) are those computed afresh, for every industry the context
/// computes, at every decision of random games in each game (tiles built, and removed at the Canal Era's end).
#[test]
fn l24_remembered_canonical_spaces_agree_with_fresh_ones() {
    for (name, players) in [
        ("lancashire", 4),
        ("brass", 3),
        ("birmingham", 4),
        ("birmingham", 2),
    ] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let mut rng = Rng(23);
        let mut checked = 0;
        for seed in 0..3 {
            let mut state = apply::new_state(&game, seed);
            let mut ids = Vec::new();
            while !state.is_terminal() {
                let p = state.current_player(&game).unwrap();
                let ctx = rules::Ctx::for_builds(&game, &state, p);
                let fresh = rules::canonical_spaces(&game, &state);
                let remembered = ctx.canonical.unwrap();
                for i in 0..game.industries.len() {
                    if ctx.buildable & (1 << i) != 0 {
                        assert_eq!(remembered[i], fresh[i], "{name}: industry {i}");
                        checked += 1;
                    }
                }
                ids.clear();
                rules::legal_actions(&game, &state, &mut ids);
                let id = ids[rng.below(ids.len() as u64) as usize];
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
            }
        }
        assert!(checked > 500, "{name}: {checked}");
    }
}
