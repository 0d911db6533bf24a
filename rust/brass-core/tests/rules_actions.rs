//! Develop, sell, loan and pass (L-39 … L-47).
use crate::common;
use brass_core::state::Decision;
use common::Pos;

#[test]
fn l39_develop_one_or_two_tiles_each_with_iron_even_of_one_industry() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.play("develop shipyard");
    assert_eq!(p.decision(), Decision::Develop);
    p.play("develop shipyard");
    assert_eq!(p.s.players[0].taken[p.ind("shipyard") as usize], 2);
    assert_eq!((p.s.markets[1], p.s.players[0].money), (6, 28));
    assert_eq!(p.decision(), Decision::Card);
}

#[test]
fn l40_a_card_not_in_hand_does_not_pay_and_each_decision_names_what_it_expects() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    let why = p.refuse("coal manchester/1");
    assert!(
        why.contains("an action (build, link, develop, sell, loan, scout or pass) is expected"),
        "{why}"
    );
    p.play("develop shipyard").play("stop");
    assert_eq!(p.decision(), Decision::Card);
    let why = p.refuse("card preston");
    assert!(
        why.contains("that card cannot pay for this action"),
        "{why}"
    );
    let why = p.refuse("pass");
    assert!(why.contains("the card to discard is expected"), "{why}");
    p.play("card wigan");
}

#[test]
fn l39_develop_stop_after_one() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "wigan"]);
    p.play("develop coal_mine").play("stop");
    assert_eq!(p.s.players[0].taken[p.ind("coal_mine") as usize], 1);
    assert_eq!(p.s.actions_left, 1);
}

#[test]
fn l41_port_sale_flips_port_and_mill_and_pays_both_owners_income() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.tile("manchester/1", 0, "cotton_mill", 1, 0)
        .tile("warrington_runcorn/1", 1, "port", 1, 0);
    assert!(
        !p.is_legal("sell manchester/1 warrington_runcorn/1"),
        "not connected yet"
    );
    p.link("manchester-warrington_runcorn", 2);
    p.play("sell manchester/1 warrington_runcorn/1");
    assert!(p.at("manchester/1").flipped && p.at("warrington_runcorn/1").flipped);
    assert_eq!((p.income_space(0), p.income_space(1)), (15, 13));
    assert_eq!(p.decision(), Decision::Card);
    assert_eq!(
        p.legal(),
        ["card bolton", "card wigan"],
        "any card pays for a sale"
    );
}

#[test]
fn l41_flipped_ports_cannot_take_cotton_but_still_carry_the_trade_icon() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.tile("manchester/1", 0, "cotton_mill", 1, 0)
        .tile("warrington_runcorn/1", 1, "port", 1, 0);
    p.flipped("warrington_runcorn/1")
        .link("manchester-warrington_runcorn", 2);
    assert!(!p.is_legal("sell manchester/1 warrington_runcorn/1"));
    assert!(p.is_legal("sell manchester/1 distant"));
}

#[test]
fn l42_distant_sale_moves_the_marker_and_pays_the_income_beside_it() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("colne/1", 0, "cotton_mill", 1, 0)
        .link("colne-yorkshire", 1);
    p.s.lancashire_mut().dcm_pile[0] = 1;
    p.play("sell colne/1 distant");
    assert_eq!(p.s.lancashire().dcm_marker, 1);
    assert_eq!(p.income_space(0), 10 + 3 + 5);
    assert!(p.at("colne/1").flipped);
    assert_eq!(p.s.lancashire().dcm_discards[1], 1);
}

#[test]
fn l42_x_reached_mid_sell_ends_the_action_and_the_mill_stays_unflipped() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"]);
    p.tile("colne/1", 0, "cotton_mill", 2, 0)
        .tile("burnley/1", 0, "cotton_mill", 2, 0);
    p.link("colne-yorkshire", 1).link("burnley-colne", 1);
    p.s.lancashire_mut().dcm_marker = 6;
    p.s.lancashire_mut().dcm_pile[0] = 1;
    p.s.lancashire_mut().dcm_pile[1] = 4;
    p.play("sell colne/1 distant");
    assert_eq!(
        p.income_space(0),
        14,
        "no DCM income beside space 7; the mill gives 4"
    );
    assert_eq!(p.decision(), Decision::Sell);
    p.play("sell burnley/1 distant");
    assert_eq!(p.s.lancashire().dcm_marker, 8);
    assert!(!p.at("burnley/1").flipped);
    assert_eq!(p.income_space(0), 14);
    assert_eq!(
        p.decision(),
        Decision::Card,
        "the whole Sell action ends at X"
    );
    p.play("card bolton");
    assert!(
        !p.is_legal("sell burnley/1 distant"),
        "no distant sale for the rest of the era"
    );
}

#[test]
fn l42_distant_market_needs_a_connection_to_a_trade_icon() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("stockport/1", 0, "cotton_mill", 1, 0);
    assert!(!p.is_legal("sell stockport/1 distant"));
    p.link("manchester-stockport", 1)
        .link("manchester-warrington_runcorn", 1);
    p.tile("warrington_runcorn/1", 2, "port", 1, 0);
    assert!(p.is_legal("sell stockport/1 distant"));
}

#[test]
fn l44_r3_an_empty_dcm_pile_is_reshuffled_from_the_discards() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("colne/1", 0, "cotton_mill", 1, 0)
        .link("colne-yorkshire", 1);
    p.s.lancashire_mut().dcm_pile_len = 0;
    p.s.lancashire_mut().dcm_discards = [0, 0, 1, 0, 0, 0, 0, 0];
    p.play("sell colne/1 distant");
    assert_eq!(p.s.lancashire().dcm_marker, 2);
    assert_eq!(p.s.lancashire().dcm_discards[2], 1);
}

#[test]
fn l45_loan_moves_back_levels_to_the_top_space_of_the_new_level() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.s.players[0].income_space = 20; // level 5
    p.play("loan 30");
    assert_eq!(p.income_space(0), 14); // level 2 spans spaces 13-14
    assert_eq!((p.s.players[0].money, p.s.players[0].money_spent), (60, 0));
}

#[test]
fn l45_loan_at_minus_eight_for_thirty_pounds_is_refused() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.s.players[0].income_space = 2; // level -8
    let why = p.refuse("loan 30");
    assert!(why.contains("-10"), "{why}");
    p.play("loan 20");
    assert_eq!(p.income_space(0), 0);
}

#[test]
fn l46_no_loans_in_the_last_four_rail_rounds() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"]);
    p.s.round = 4;
    assert!(p.is_legal("loan 10"));
    p.s.round = 5; // 8 rounds at 4 players: rounds 5..8 start with an empty draw deck
    let why = p.refuse("loan 10");
    assert!(why.contains("last 4 rounds"), "{why}");
    let mut two = Pos::new(2).rail();
    two.hand(0, &["bolton"]);
    two.s.round = 6;
    assert!(two.is_legal("loan 10"));
    two.s.round = 7;
    assert!(!two.is_legal("loan 10"));
}

#[test]
fn l47_pass_discards_a_card() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.play("pass");
    assert_eq!(p.decision(), Decision::Card);
    p.play("card wigan");
    assert_eq!(
        p.s.players[0].discards[p.g.card_by_name("wigan").unwrap() as usize],
        1
    );
    assert_eq!(p.s.actions_left, 1);
}

/// The legal actions and `why_illegal` agree on every id, at every fifth decision of random games in each game:
/// `legal_actions` works from candidates and the context's spaces builds may use (L-24), `why_illegal` checks
/// one action from scratch, so the shortcuts of the first are checked against the second.
#[test]
fn l24_legal_actions_and_why_illegal_agree_on_every_id() {
    use brass_core::{apply, rules, Game, Rng};
    for (name, players) in [
        ("lancashire", 4),
        ("brass", 3),
        ("birmingham", 4),
        ("birmingham", 2),
    ] {
        let g = Game::new(name, players, &Default::default()).unwrap();
        let mut s = apply::new_state(&g, 21);
        let mut rng = Rng(8);
        let mut ids = Vec::new();
        let mut decision = 0;
        let mut builds = 0;
        while !s.is_terminal() {
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            if decision % 5 == 0 {
                let agreed: Vec<u16> = (0..g.num_actions() as u16)
                    .filter(|&id| rules::why_illegal(&g, &s, g.decode(id as i64).unwrap()).is_ok())
                    .collect();
                assert_eq!(ids, agreed, "{name} {players}p, decision {decision}");
                builds += ids.iter().filter(|&&id| id < g.layout.link).count();
            }
            let id = ids[rng.below(ids.len() as u64) as usize];
            apply::apply(&g, &mut s, id as i64).unwrap();
            decision += 1;
        }
        assert!(builds > 20, "{name}: builds were offered ({builds})");
    }
}

/// L-34 … L-37, B-12, B-13: `legal_links` decides the lines together (the Canal Era by the money alone, a rail
/// with its cost and coal price decided once); it must accept exactly the lines `check_link` accepts, at every
/// Action and `link` decision of random games in four configurations, with the player's money also set to
/// 0, 3, … 39 so that the rail's cost and its market coal decide some lines.
#[test]
fn l36_legal_links_agree_with_check_link_on_every_line() {
    use brass_core::rules;
    use brass_core::state::Decision;
    let mut decided = [0usize; 2];
    for (name, players, seed) in [
        ("lancashire", 4, 11),
        ("brass", 4, 12),
        ("birmingham", 4, 13),
        ("birmingham", 2, 14),
    ] {
        common::at_each_money_of_a_random_game(name, players, seed, |g, s, p| {
            let second = s.decision == Decision::Link;
            if !second && s.decision != Decision::Action {
                return;
            }
            let ctx = rules::Ctx::new(g, s, p);
            let lines = rules::legal_links(g, s, &ctx, second);
            for line in 0..g.lines.len() as u8 {
                let ok = rules::check_link(g, s, &ctx, line, second).is_ok();
                assert_eq!(
                    lines & (1 << line) != 0,
                    ok,
                    "{name}: line {line}, £{}",
                    s.players[p as usize].money
                );
                decided[ok as usize] += 1;
            }
        });
    }
    assert!(decided[1] > 1000, "lines accepted: {decided:?}");
}

/// Issue 34, item 8: a notation that starts with a known word is told what is wrong after that word, not
/// offered the list of words it already used.
#[test]
fn a_notation_with_a_known_first_word_says_what_is_wrong_after_it() {
    use brass_core::Game;
    let why = |g: &Game, text: &str| match g.parse_action(text) {
        Err(e) => e.to_string(),
        Ok(id) => panic!("`{text}` parsed as {id}"),
    };
    let bham = common::birmingham(2, &[]);
    let said = why(&bham, "build cotton mill birmingham/1");
    assert!(!said.contains("expected one of"), "{said}");
    assert!(said.contains("`build <industry> <space>`"), "{said}");
    assert!(said.contains("`cotton_mill`"), "{said}");
    let said = why(&bham, "sell birmingham/1");
    assert!(
        said.contains("`sell <space> <target>`") && !said.contains("expected one of"),
        "{said}"
    );
    let said = why(&bham, "develop cotton mill");
    assert!(
        said.contains("`develop <industry>`") && said.contains("`cotton_mill`"),
        "{said}"
    );
    let lancashire = Game::new("lancashire", 2, &Default::default()).unwrap();
    let said = why(&lancashire, "scout");
    assert!(said.contains("Birmingham only"), "{said}");
    // An unknown first word still lists the words an action starts with.
    let said = why(&bham, "construct cotton_mill birmingham/1");
    assert!(said.contains("expected one of build, link"), "{said}");
}
