//! The agents' evaluation (docs/agents.md, "The evaluation") on hand-built positions.
mod common;

use brass_core::agents::{evaluate, Agent, GreedyAgent};
use brass_core::game::Era;
use brass_core::state::Decision;
use brass_core::Rng;
use common::Pos;

/// Player 0's Cotton Mill I at Worcester; Gloucester/1 buys cotton and has its barrel; every other merchant
/// is blank. With `linked`, player 1's canal joins Worcester to Gloucester.
fn cotton_mill_at_worcester(linked: bool) -> Pos {
    let mut p = Pos::birmingham(4);
    p.blank_merchants()
        .merchant("gloucester/1", "cotton_mill", true);
    p.tile("worcester/1", 0, "cotton_mill", 1, 0);
    if linked {
        p.link("gloucester-worcester", 1);
    }
    p.hand(0, &["pottery", "pottery"]);
    p
}

#[test]
fn birmingham_a_tile_that_can_be_sold_is_worth_more_than_one_that_cannot() {
    let sellable = cotton_mill_at_worcester(true);
    let connected_no_beer = {
        let mut p = cotton_mill_at_worcester(true);
        p.merchant("gloucester/1", "cotton_mill", false);
        p
    };
    let unconnected = cotton_mill_at_worcester(false);
    let v = |p: &Pos| evaluate(&p.g, &p.s, 0);
    assert!(v(&sellable) > v(&connected_no_beer));
    assert!(v(&connected_no_beer) > v(&unconnected));
    // The link is player 1's: only the tile's prospect differs. Cotton Mill I: 5 VP, 5 income spaces;
    // with R rounds left (15: round 2 of the Canal Era, 8 rounds an era) it counts 5 + 0.15 × 5/2 × R
    // VP-like units times its prospect (0.8, 0.5, 0.3).
    let rounds = 2.0 * sellable.g.rounds_per_era as f64 - 1.0;
    let tile = 5.0 + 0.15 * 2.5 * rounds;
    assert!((v(&sellable) - v(&unconnected) - (0.8 - 0.3) * tile).abs() < 1e-9);
    assert!((v(&connected_no_beer) - v(&unconnected) - (0.5 - 0.3) * tile).abs() < 1e-9);

    // Beer from an own brewery anywhere (B-8) makes the connected tile sellable again.
    let mut own_beer = cotton_mill_at_worcester(true);
    own_beer.merchant("gloucester/1", "cotton_mill", false);
    own_beer.tile("stone/1", 0, "brewery", 2, 1);
    let mut no_sale = cotton_mill_at_worcester(true);
    no_sale.merchant("gloucester/1", "cotton_mill", false);
    no_sale.tile("stone/1", 0, "brewery", 2, 1);
    no_sale.merchant("gloucester/1", "blank", false); // nobody buys it now
    assert!((v(&own_beer) - v(&no_sale) - (0.8 - 0.3) * tile).abs() < 1e-9);

    // The merchant's barrel is not player 1's: their evaluation does not move with player 0's prospect.
    assert_eq!(
        evaluate(&sellable.g, &sellable.s, 1),
        evaluate(&connected_no_beer.g, &connected_no_beer.s, 1)
    );
}

#[test]
fn birmingham_own_links_count_the_icons_of_own_tiles_likely_to_sell() {
    // Player 0's own canal to Gloucester: the link scores Gloucester's 2 printed icons now, and the
    // Cotton Mill's link icon (1) once sold, counted at its prospect.
    let mut own = cotton_mill_at_worcester(false);
    own.link("gloucester-worcester", 0);
    let mut theirs = cotton_mill_at_worcester(false);
    theirs.link("gloucester-worcester", 1);
    let gap = evaluate(&own.g, &own.s, 0) - evaluate(&theirs.g, &theirs.s, 0);
    assert!((gap - (2.0 + 0.8 * 1.0)).abs() < 1e-9, "{gap}");
}

#[test]
fn birmingham_a_sale_waiting_for_its_beer_is_valued_as_made_and_greedy_makes_it() {
    // Two sources of beer (an own brewery and the merchant's barrel): the sale waits for the choice (B-25).
    let mut p = cotton_mill_at_worcester(true);
    p.tile("stone/1", 0, "brewery", 2, 1);
    let before = evaluate(&p.g, &p.s, 0);
    let mut pending = Pos {
        g: p.g.clone(),
        s: p.s,
    };
    pending.play("sell worcester/1 gloucester/1");
    assert_eq!(pending.decision(), Decision::Beer);
    assert!(!pending.at("worcester/1").flipped);
    // Valued as flipped: its 5 VP in full and its income at the new level, where it counted 0.8 of both.
    assert!(evaluate(&pending.g, &pending.s, 0) > before + 1.0);
    // So Greedy sells (a one-ply search would otherwise see nothing happen).
    let id = GreedyAgent.choose(&p.g, &p.s, &mut Rng(1));
    assert_eq!(
        p.g.action_name(id as i64).unwrap(),
        "sell worcester/1 gloucester/1"
    );
}

#[test]
fn birmingham_greedy_takes_a_loan_rather_than_pass_when_broke() {
    // No money, nothing on the board: every build and link costs money, so the choice is loan, scout or pass.
    let mut p = Pos::birmingham(4);
    p.money(0, 0)
        .hand(0, &["coal_mine", "iron_works", "pottery"]);
    let legal = p.legal();
    assert!(legal.contains(&"pass".to_string()) && legal.contains(&"loan 30".to_string()));
    let id = GreedyAgent.choose(&p.g, &p.s, &mut Rng(1));
    assert_eq!(p.g.action_name(id as i64).unwrap(), "loan 30");
}

#[test]
fn lancashire_evaluation_is_the_plain_formula() {
    // Lancashire keeps the formula without the Birmingham terms: VP + flipped VP (level 2+ twice in the
    // Canal Era) + half the VP of unflipped tiles + link VP + 0.15 × income level × rounds left + money / 8.
    let mut p = Pos::new(3);
    p.tile("bolton/1", 0, "cotton_mill", 2, 0)
        .flipped("bolton/1")
        .tile("bury/1", 0, "cotton_mill", 1, 0)
        .link("bolton-bury", 0)
        .money(0, 24);
    let g = &p.g;
    let spec = |level| g.tile_spec(p.ind("cotton_mill"), level).unwrap();
    let link_vp: i32 = ["bolton", "bury"]
        .iter()
        .map(|l| brass_core::apply::link_icons(g, &p.s, g.location_by_id(l).unwrap()))
        .sum();
    let rounds_left = 2.0 * g.rounds_per_era as f64 - 1.0; // round 2 of the Canal Era
    let expected = 2.0 * spec(2).vp as f64
        + 0.5 * spec(1).vp as f64
        + link_vp as f64
        + 0.15 * p.s.income_level(g, 0) as f64 * rounds_left
        + 24.0 / 8.0;
    assert!((evaluate(g, &p.s, 0) - expected).abs() < 1e-9);
}

#[test]
fn l54_b22_the_introductory_games_evaluation_counts_only_the_canal_era_and_its_end_scoring() {
    // The introductory game has no Rail Era: the income term counts the Canal Era's rounds left only, and the
    // income level itself is added (the game's end scores it as VP, L-54, B-22). Same position, with and
    // without the option: the difference is exactly those two terms.
    let build = |intro: bool| {
        let mut p = Pos::of("lancashire", 3, &[("intro", intro)]);
        p.tile("bolton/1", 0, "cotton_mill", 1, 0).money(0, 24);
        let space = p.s.players[0].income_space;
        p.s.players[0].income_space = space + 8; // a positive income level
        p
    };
    let (full, intro) = (build(false), build(true));
    let level = full.s.income_level(&full.g, 0) as f64;
    assert!(level > 0.0);
    // Round 2 of the Canal Era: the full game counts the Rail Era's r rounds more than the introductory one.
    let r = full.g.rounds_per_era as f64;
    let expected = -0.15 * level * r + level;
    let difference = evaluate(&intro.g, &intro.s, 0) - evaluate(&full.g, &full.s, 0);
    assert!(
        (difference - expected).abs() < 1e-9,
        "{difference} != {expected}"
    );

    // Birmingham's introductory game also scores money (1 VP per £4): in the game's last round money keeps
    // its worth, where the full game's last round (in the Rail Era) fades it to a third.
    let last_round = |intro: bool| {
        let mut p = Pos::of("birmingham", 2, &[("intro", intro)]);
        p.s.round = p.g.rounds_per_era;
        if !intro {
            p.s.era = Era::Rail;
        }
        p.money(0, 20);
        p
    };
    let (full, intro) = (last_round(false), last_round(true));
    let (eval_full, eval_intro) = (
        evaluate(&full.g, &full.s, 0),
        evaluate(&intro.g, &intro.s, 0),
    );
    assert!(
        eval_intro > eval_full + 5.0,
        "money in the last round: {eval_intro} vs {eval_full}"
    );
}
