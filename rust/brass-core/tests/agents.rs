//! The agents' evaluation (docs/agents.md, "The evaluation") on hand-built positions.
use crate::common;

use brass_core::agents::{evaluate, play_games, Agent, GreedyAgent, RandomAgent};
use brass_core::game::Era;
use brass_core::state::Decision;
use brass_core::{apply, Game, Rng};
use common::Pos;
use std::collections::BTreeMap;

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
    // VP-like units times its prospect (0.8, 0.5; unconnected 0.4, 0.25, 0.15 or 0.1 as one, two, three, four
    // or more canals are still to build to a merchant that buys it: Gloucester is one away).
    let rounds = 2.0 * sellable.g.rounds_per_era as f64 - 1.0;
    let tile = 5.0 + 0.15 * 2.5 * rounds;
    assert!((v(&sellable) - v(&unconnected) - (0.8 - 0.4) * tile).abs() < 1e-9);
    assert!((v(&connected_no_beer) - v(&unconnected) - (0.5 - 0.4) * tile).abs() < 1e-9);
    // With nobody buying it anywhere, no link leads to a market: 0.1.
    let mut nobody = cotton_mill_at_worcester(false);
    nobody.merchant("gloucester/1", "blank", false);
    assert!((v(&unconnected) - v(&nobody) - (0.4 - 0.1) * tile).abs() < 1e-9);

    // Beer from an own brewery anywhere (B-8) makes the connected tile sellable again.
    let mut own_beer = cotton_mill_at_worcester(true);
    own_beer.merchant("gloucester/1", "cotton_mill", false);
    own_beer.tile("stone/1", 0, "brewery", 2, 1);
    let mut no_sale = cotton_mill_at_worcester(true);
    no_sale.merchant("gloucester/1", "cotton_mill", false);
    no_sale.tile("stone/1", 0, "brewery", 2, 1);
    no_sale.merchant("gloucester/1", "blank", false); // nobody buys it now
    assert!((v(&own_beer) - v(&no_sale) - (0.8 - 0.1) * tile).abs() < 1e-9);

    // The merchant's barrel is not player 1's: their evaluation does not move with player 0's prospect.
    assert_eq!(
        evaluate(&sellable.g, &sellable.s, 1),
        evaluate(&connected_no_beer.g, &connected_no_beer.s, 1)
    );
}

#[test]
fn b15_b25_birmingham_one_barrel_makes_one_of_two_tiles_sellable() {
    // A second Cotton Mill I of player 0's at Kidderminster, joined to Worcester by player 1's canal: both
    // mills reach Gloucester/1, whose barrel is the only beer. One sale takes it (B-25), so the second mill
    // counts as short of beer (0.5), not as sellable (0.8); with Gloucester/2 buying cotton beside its own
    // barrel, both count as sellable. Counted sellable on one barrel, each mill made the other's sale look like
    // a loss, and Greedy sold neither (docs/agents.md, 5 December 2026).
    let with_second = |second_barrel: bool, second_mill: bool| {
        let mut p = cotton_mill_at_worcester(true);
        p.link("kidderminster-worcester", 1);
        if second_barrel {
            p.merchant("gloucester/2", "cotton_mill", true);
        }
        if second_mill {
            p.tile("kidderminster/1", 0, "cotton_mill", 1, 0);
        }
        evaluate(&p.g, &p.s, 0)
    };
    let rounds = 2.0 * Pos::birmingham(4).g.rounds_per_era as f64 - 1.0;
    let tile = 5.0 + 0.15 * 2.5 * rounds;
    let one_barrel = with_second(false, true) - with_second(false, false);
    assert!((one_barrel - 0.5 * tile).abs() < 1e-9, "{one_barrel}");
    let two_barrels = with_second(true, true) - with_second(true, false);
    assert!((two_barrels - 0.8 * tile).abs() < 1e-9, "{two_barrels}");
    // An own brewery's barrel serves as well (B-8): it is spent by the first mill, the merchant's by the second.
    let mut brewery = cotton_mill_at_worcester(true);
    brewery.link("kidderminster-worcester", 1);
    brewery.tile("stone/1", 0, "brewery", 2, 1);
    let alone = evaluate(&brewery.g, &brewery.s, 0);
    brewery.tile("kidderminster/1", 0, "cotton_mill", 1, 0);
    let gap = evaluate(&brewery.g, &brewery.s, 0) - alone;
    assert!((gap - 0.8 * tile).abs() < 1e-9, "{gap}");
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
    // Canal Era) + the share of unflipped tiles' VP (a mill that cannot sell now and is four canals from the
    // nearest market, Bury–Manchester–Oldham–Rochdale–Yorkshire: 0.3) + link VP + 0.15 × income level ×
    // rounds left + money / 8 + the broke cushion (5, counted in full: £24 at the next turn).
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
    assert!(
        !p.legal().iter().any(|a| a.starts_with("sell")),
        "the mill cannot sell"
    );
    let rounds_left = 2.0 * g.rounds_per_era as f64 - 1.0; // round 2 of the Canal Era
    let expected = 2.0 * spec(2).vp as f64
        + 0.3 * spec(1).vp as f64
        + link_vp as f64
        + 0.15 * p.s.income_level(g, 0) as f64 * rounds_left
        + 24.0 / 8.0
        + 5.0;
    assert!((evaluate(g, &p.s, 0) - expected).abs() < 1e-9);
}

#[test]
fn l20_l27_rail_era_each_further_unflipped_coal_mine_counts_half_the_one_before() {
    // A coal mine flips only when its last cube is taken (L-20); one built away from every market trade icon keeps
    // its cubes (L-27), and unflipped at the game's end it scores nothing. In the Rail Era the n-th own unflipped
    // mine counts 0.5^(n-1) of the half its VP the first counts; in the Canal Era each counts the half.
    let gaps = |era: Era| -> Vec<f64> {
        let mut p = Pos::new(3);
        p.s.era = era;
        let mut values = vec![evaluate(&p.g, &p.s, 0)];
        for space in ["wigan/1", "bolton/1", "blackburn/1"] {
            p.tile(space, 0, "coal_mine", 2, 1);
            values.push(evaluate(&p.g, &p.s, 0));
        }
        values.windows(2).map(|w| w[1] - w[0]).collect()
    };
    let p = Pos::new(3);
    let half = 0.5 * p.g.tile_spec(p.ind("coal_mine"), 2).unwrap().vp as f64;
    for (era, shares) in [(Era::Rail, [1.0, 0.5, 0.25]), (Era::Canal, [1.0, 1.0, 1.0])] {
        for (gap, share) in gaps(era).into_iter().zip(shares) {
            assert!(
                (gap - share * half).abs() < 1e-9,
                "{era:?}: {gap} != {share} × {half}"
            );
        }
    }
}

#[test]
fn lancashire_greedy_takes_a_loan_rather_than_pass_when_broke() {
    // No money, no income, mills that cannot sell: without the broke cushion a loan (three income levels for
    // every round left) looked worse than passing round after round.
    let mut p = Pos::new(2);
    p.tile("bury/1", 0, "cotton_mill", 1, 0)
        .money(0, 0)
        .hand(0, &["wigan", "iron_works", "port"]);
    let legal = p.legal();
    assert!(legal.contains(&"pass".to_string()) && legal.contains(&"loan 30".to_string()));
    let id = GreedyAgent.choose(&p.g, &p.s, &mut Rng(1));
    assert!(p.g.action_name(id as i64).unwrap().starts_with("loan"));
}

#[test]
fn l41_an_own_port_counts_more_with_a_cotton_mill_connected_that_could_flip_it() {
    let base = |mill: bool| {
        let mut p = Pos::new(3);
        p.tile("bolton/1", 0, "port", 1, 0).link("bolton-bury", 1);
        if mill {
            p.tile("bury/1", 1, "cotton_mill", 1, 0);
        }
        p
    };
    let (alone, connected) = (base(false), base(true));
    let vp = alone.g.tile_spec(alone.ind("port"), 1).unwrap().vp as f64;
    let gain = evaluate(&connected.g, &connected.s, 0) - evaluate(&alone.g, &alone.s, 0);
    assert!((gain - (0.5 - 0.15) * vp).abs() < 1e-9, "{gain}");
}

#[test]
fn l40_an_own_mill_that_can_sell_counts_more() {
    // The same mill with and without a port of another player's connected to it (without: four canals from
    // the nearest market, Bury–Manchester–Oldham–Rochdale–Yorkshire, 0.3 of its VP).
    let pos = |port: bool| {
        let mut p = Pos::new(3);
        p.tile("bury/1", 0, "cotton_mill", 1, 0)
            .link("bolton-bury", 1);
        if port {
            p.tile("bolton/1", 1, "port", 1, 0);
        }
        p
    };
    let (stuck, sells) = (pos(false), pos(true));
    assert!(sells.legal().iter().any(|a| a.starts_with("sell bury/1")));
    let mill = stuck.g.tile_spec(stuck.ind("cotton_mill"), 1).unwrap().vp as f64;
    let port_score = |p: &Pos| evaluate(&p.g, &p.s, 0);
    assert!((port_score(&sells) - port_score(&stuck) - (0.8 - 0.3) * mill).abs() < 1e-9);
}

/// Player 0's Cotton Mill I at Warrington & Runcorn in the Canal Era, player 1's port at `port` (if any).
fn mill_at_warrington(port: Option<&str>) -> Pos {
    let mut p = Pos::new(3);
    p.tile("warrington_runcorn/2", 0, "cotton_mill", 1, 0)
        .money(0, 20)
        .hand(0, &["iron_works", "iron_works"]);
    if let Some(port) = port {
        p.tile(port, 1, "port", 1, 0);
    }
    p
}

#[test]
fn l14_l41_l42_a_mill_that_cannot_sell_counts_more_the_fewer_links_it_needs_to_a_market() {
    // Canals still to build from Warrington & Runcorn to a place its mill could sell to: a port of anyone's
    // one canal away at Ellesmere Port (0.6 of its VP); one two away at Liverpool, through Ellesmere Port
    // (0.45); none, and the nearest market trade icon for the Distant Cotton Market three away, through
    // Ellesmere Port and Northwich to the Midlands (0.35); with the Distant Cotton Market closed (its
    // marker on X), none at all (0.3).
    let mill = |p: &Pos| p.g.tile_spec(p.ind("cotton_mill"), 1).unwrap().vp as f64;
    let none = mill_at_warrington(None);
    let value = |p: &Pos| evaluate(&p.g, &p.s, 0);
    let vp = mill(&none);
    assert!(vp > 0.0);
    for (port, share) in [("ellesmere_port/1", 0.6), ("liverpool/1", 0.45)] {
        let p = mill_at_warrington(Some(port));
        assert!(!p.legal().iter().any(|a| a.starts_with("sell")), "{port}");
        let gain = value(&p) - value(&none);
        assert!((gain - (share - 0.35) * vp).abs() < 1e-9, "{port}: {gain}");
    }
    let mut closed = mill_at_warrington(None);
    let x = match &closed.g.variant {
        brass_core::games::Variant::Lancashire(config) => config.dcm_x,
        brass_core::games::Variant::Birmingham(_) => unreachable!("Lancashire"),
    };
    closed.s.lancashire_mut().dcm_marker = x;
    let gain = value(&none) - value(&closed);
    assert!((gain - (0.35 - 0.3) * vp).abs() < 1e-9, "{gain}");
}

#[test]
fn l14_l41_greedy_values_the_canal_towards_a_port_above_passing_and_other_canals() {
    // Player 1's port two canals away at Liverpool: the canal to Ellesmere Port brings it within one (0.45 →
    // 0.6 of the mill's VP, for £3), as does the one to Wigan (Wigan–Liverpool); the one to Manchester brings
    // nothing nearer. Before the mills were judged by the links they need, every canal was worth less than a
    // pass to Greedy, and all-Greedy Lancashire seats built mills no port reached and passed (docs/agents.md).
    let p = mill_at_warrington(Some("liverpool/1"));
    let mut scores = Vec::new();
    GreedyAgent.choose_scored(&p.g, &p.s, &mut Rng(1), &mut scores);
    let score = |name: &str| {
        scores
            .iter()
            .find(|(id, _)| p.g.action_name(*id as i64).unwrap() == name)
            .unwrap_or_else(|| panic!("{name} is not legal: {:?}", p.legal()))
            .1
    };
    let towards = score("link warrington_runcorn-ellesmere_port");
    assert!(towards > score("pass"), "{scores:?}");
    assert!(towards > score("link manchester-warrington_runcorn"));
}

/// Greedy must not collapse (issue 32). All-Greedy games of Lancashire and classic Brass, 800 per
/// configuration (seeds 77 and 5): before the broke cushion, mills that sell and ports that can flip, 142 of
/// 12,800 seats ended at 0 VP; after, 4 (all at 4 players). Since further Rail Era coal mines count half the one
/// before (7 Dec 2026) about 1 seat in a million does, on fresh seeds (docs/agents.md). Here 60 games per
/// configuration: none (about ten expected before the cushion).
#[test]
fn l11_l46_all_greedy_games_leave_almost_no_seat_at_zero_vp() {
    let mut zero = Vec::new();
    for (name, players) in [
        ("lancashire", 2),
        ("lancashire", 3),
        ("lancashire", 4),
        ("brass", 3),
        ("brass", 4),
    ] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let greedy: Vec<&dyn Agent> = (0..players).map(|_| &GreedyAgent as &dyn Agent).collect();
        for r in play_games(&game, &greedy, 77, 0, 60, false, 0) {
            if r.scores.contains(&0) {
                zero.push(format!("{name} {players}p {:?}", r.scores));
            }
        }
    }
    assert!(zero.is_empty(), "{zero:?}");
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

/// A quiet 2-player Birmingham position in round `round` of the Canal Era: player 0 at income `level` with
/// `money`, nothing on the board.
fn at_level(round: u8, level: i32, money: i32) -> Pos {
    let mut p = Pos::birmingham(2);
    p.s.round = round;
    p.s.players[0].income_space = p.g.top_space_of_level(level);
    p.money(0, money);
    assert_eq!(p.s.income_level(&p.g, 0), level);
    p
}

#[test]
fn b16_birmingham_a_debt_deeper_than_one_loan_costs_more_than_its_levels() {
    // Income levels count 0.15 × level × rounds left; below −3 (one loan from level 0, B-16) each level
    // also costs 0.03 × (levels below −3)² × rounds left: the debt is paid every round and a shortfall
    // takes tiles and VP (L-11). £40 keeps the scarce-money term (below) full at every level here.
    let v = |level: i32| {
        let p = at_level(2, level, 40);
        evaluate(&p.g, &p.s, 0)
    };
    let rounds = 2.0 * 10.0 - 1.0; // round 2 of the Canal Era, 10 rounds an era with 2 players
    assert!((v(0) - v(-3) - 0.15 * 3.0 * rounds).abs() < 1e-9);
    let debt = |below: f64| 0.03 * below * below * rounds;
    assert!((v(-3) - v(-6) - 0.15 * 3.0 * rounds - debt(3.0)).abs() < 1e-9);
    assert!((v(-6) - v(-9) - 0.15 * 3.0 * rounds - (debt(6.0) - debt(3.0))).abs() < 1e-9);
}

#[test]
fn l45_lancashire_and_classic_a_debt_deeper_than_one_loan_costs_a_sixth_of_birminghams() {
    // The same term as Birmingham's (above) at 0.005 × (levels below −3)² × rounds left: a loan is £10 a level
    // (L-45), and heavier it kept broke seats from borrowing until their debt took their VP (docs/agents.md,
    // "A lighter debt in Lancashire and classic Brass"). £40 keeps the broke cushion full at every level here.
    for (name, players) in [("lancashire", 2), ("lancashire", 4), ("brass", 3)] {
        let v = |level: i32| {
            let mut p = Pos::of(name, players, &[]);
            p.s.players[0].income_space = p.g.top_space_of_level(level);
            p.money(0, 40);
            assert_eq!(p.s.income_level(&p.g, 0), level);
            evaluate(&p.g, &p.s, 0)
        };
        let g = Pos::of(name, players, &[]).g;
        let rounds = 2.0 * g.rounds_per_era as f64 - 1.0; // round 2 of the Canal Era
        assert!(
            (v(0) - v(-3) - 0.15 * 3.0 * rounds).abs() < 1e-9,
            "{name} {players}p"
        );
        let debt = |below: f64| 0.005 * below * below * rounds;
        assert!(
            (v(-3) - v(-6) - 0.15 * 3.0 * rounds - debt(3.0)).abs() < 1e-9,
            "{name} {players}p"
        );
        assert!(
            (v(-6) - v(-9) - 0.15 * 3.0 * rounds - (debt(6.0) - debt(3.0))).abs() < 1e-9,
            "{name} {players}p"
        );
    }
}

#[test]
fn b16_birmingham_scarce_money_is_the_money_at_the_next_turn() {
    // The first £20 the player will have at its next turn are worth 8 VP-like units on top of money / 12:
    // money plus this round's income, which a negative level takes first (L-11). Levels −3 to +5 keep the
    // debt term out; the difference is the income term and the scarce money.
    let v = |level: i32| {
        let p = at_level(2, level, 10);
        evaluate(&p.g, &p.s, 0)
    };
    let rounds = 19.0;
    let scarce = |next: f64| 8.0 * next.min(20.0) / 20.0;
    let income = |level: f64| 0.15 * level * rounds;
    assert!((v(-3) - v(0) - (income(-3.0) + scarce(7.0) - scarce(10.0))).abs() < 1e-9);
    assert!((v(5) - v(0) - (income(5.0) + scarce(15.0) - scarce(10.0))).abs() < 1e-9);
}

#[test]
fn b16_birmingham_greedy_borrows_when_broke_but_not_a_third_time() {
    // Round 7 of the Canal Era, £5, nothing on the board, cards that build nothing affordable. At level 0 a
    // loan (£30, three levels down, B-16) is worth taking; at −6 a third loan would leave 14 rounds of
    // paying £9 a round, which the evaluation before counted no worse than the first loan.
    let choice = |level: i32| {
        let mut p = at_level(7, level, 5);
        p.hand(0, &["pottery", "pottery", "pottery"]);
        assert!(p.legal().contains(&"loan 30".to_string()));
        let id = GreedyAgent.choose(&p.g, &p.s, &mut Rng(1));
        p.g.action_name(id as i64).unwrap()
    };
    assert_eq!(choice(0), "loan 30");
    assert_ne!(choice(-6), "loan 30");
}

#[test]
fn birmingham_a_brewery_counts_less_of_its_vp_with_one_opponent() {
    // An unflipped producer counts half its VP and a quarter of its income (0.15 × income spaces / 2 × rounds
    // left), plus 0.5 per barrel; a brewery in a 2-player game 0.36 of its VP, as often as Greedy's 2-player
    // games saw one flipped.
    for (players, share) in [(2, 0.36), (3, 0.5), (4, 0.5)] {
        let mut p = Pos::birmingham(players);
        let before = evaluate(&p.g, &p.s, 0);
        p.tile("stone/1", 0, "brewery", 1, 1);
        let spec = p.g.tile_spec(p.ind("brewery"), 1).unwrap();
        let rounds = 2.0 * p.g.rounds_per_era as f64 - 1.0;
        let expected =
            share * spec.vp as f64 + 0.25 * 0.15 * spec.income as f64 / 2.0 * rounds + 0.5;
        let gap = evaluate(&p.g, &p.s, 0) - before;
        assert!(
            (gap - expected).abs() < 1e-9,
            "{players} players: {gap} != {expected}"
        );
    }
}

#[test]
fn b16_l11_b21_birmingham_greedy_never_collapses_against_random_in_two_player_games() {
    // The collapse this guards against (docs/agents.md, "The evaluation"): with the evaluation before it,
    // Greedy ended 15 of the 200 games of seed 77 and 26 of seed 1 at 0 VP. It opened with breweries nobody
    // emptied, hoarded scarce money, borrowed three times in the Canal Era (B-16: −3 levels each, to −9)
    // and paid the debt with its tiles and VP (L-11); money scores nothing (B-21). Seats rotate: game i
    // seats Greedy as player i mod 2.
    let game = Game::new("birmingham", 2, &BTreeMap::new()).unwrap();
    let mut results = play_games(
        &game,
        &[&GreedyAgent, &RandomAgent::default()],
        77,
        0,
        200,
        true,
        0,
    );
    results.extend(play_games(
        &game,
        &[&GreedyAgent, &RandomAgent::default()],
        1,
        0,
        200,
        true,
        0,
    ));
    let mut wins = 0.0;
    for (i, r) in results.iter().enumerate() {
        let greedy = ((2 - i % 2) % 2) as u8;
        let mut s = apply::new_state(&game, r.seed);
        let mut canal_end_level = None;
        for &id in &r.actions {
            let canal = s.era == Era::Canal;
            apply::apply(&game, &mut s, id as i64).unwrap();
            if canal && s.era == Era::Rail {
                canal_end_level = Some(s.income_level(&game, greedy));
            }
        }
        let vp = r.scores[greedy as usize];
        let level = canal_end_level.expect("a Rail Era");
        assert!(vp > 0, "game {i}: Greedy ended at 0 VP");
        // At most two loans deep when the Rail Era starts, its debt paid from its income and money.
        assert!(
            level >= -6,
            "game {i}: Greedy began the Rail Era at income level {level}"
        );
        if r.winners.contains(&greedy) {
            wins += 1.0 / r.winners.len() as f64;
        }
    }
    assert!(
        wins >= 390.0,
        "Greedy won {wins} of 400 games against Random"
    );
}

/// Speed work on the search must not change what it finds (issue 23): the root visits of searches from
/// positions of random games, hashed, for both playout samplers, as recorded before the tree's lookups were
/// made linear (commit 3a36c10). Lancashire's and classic Brass's were recorded again when their evaluation
/// changed on purpose (issue 32: the broke cushion, mills that sell, ports that can flip; mills by the links
/// they still need, 6 Dec 2026; a lighter debt, 6 Dec 2026, late night; Rail Era producers counted like
/// Birmingham's, 7 Dec 2026), Birmingham's when
/// its evaluation counted repeated producers less (4 Dec 2026) and when a sale's beer was promised to one tile
/// at a time (5 Dec 2026), when tiles no merchant reaches were judged by the links they need (6 Dec 2026), and
/// when a player in debt with no tile that sells counted its later producers half (7 Dec 2026).
#[test]
fn mcts_searches_find_what_they_found_before_the_speed_work() {
    use brass_core::agents::{MctsAgent, MctsConfig};
    use brass_core::sample::Sampler;
    let mut got = Vec::new();
    for (name, players) in [("lancashire", 4), ("birmingham", 3), ("brass", 4)] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        for sampler in [Sampler::List, Sampler::Draw] {
            let agent = MctsAgent::new(MctsConfig {
                iterations: 60,
                sampler,
                ..MctsConfig::default()
            });
            let mut hash = 0xcbf2_9ce4_8422_2325u64;
            let mut state = apply::new_state(&game, 4);
            let (mut rng, mut ids) = (Rng(8), Vec::new());
            for decision in 0..120 {
                if state.is_terminal() {
                    break;
                }
                if decision % 15 == 0 {
                    for visit in agent.search(&game, &state, &mut Rng(decision)) {
                        for x in [
                            visit.action as u64,
                            visit.visits as u64,
                            visit.mean.to_bits(),
                        ] {
                            hash = (hash ^ x).wrapping_mul(0x100_0000_01b3);
                        }
                    }
                }
                let id = Sampler::List.pick(&game, &state, &mut rng, &mut ids);
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
            }
            got.push(format!("{name} {} {hash:#x}", sampler.name()));
        }
    }
    assert_eq!(got, EXPECTED_SEARCH_HASHES);
}

/// A search and a batch of games can be given up (the binding stops them on a Ctrl-C): once the flag is set
/// they return `None` within a few iterations or one decision; with it unset they are the very search and
/// games of the calls without a flag.
#[test]
fn a_search_and_a_batch_of_games_give_up_when_stopped_and_are_the_same_when_not() {
    use brass_core::agents::{play_games_or_stop, MctsAgent, MctsConfig};
    use std::sync::atomic::{AtomicBool, Ordering};
    let game = Game::new("birmingham", 2, &BTreeMap::new()).unwrap();
    let state = apply::new_state(&game, 3);
    let agent = MctsAgent::new(MctsConfig {
        iterations: 200,
        ..MctsConfig::default()
    });
    let go_on = AtomicBool::new(false);
    let visits = |v: Vec<brass_core::agents::RootVisit>| -> Vec<(u16, u32, u64)> {
        v.iter()
            .map(|r| (r.action, r.visits, r.mean.to_bits()))
            .collect()
    };
    let searched = agent
        .search_or_stop(&game, &state, &mut Rng(5), &go_on)
        .unwrap();
    assert_eq!(
        visits(searched),
        visits(agent.search(&game, &state, &mut Rng(5)))
    );
    assert_eq!(
        agent.choose_or_stop(&game, &state, &mut Rng(6), &go_on),
        Some(agent.choose(&game, &state, &mut Rng(6)))
    );
    // A search of 1,000 iterations (the default) is watched for a stop; 200, like a Greedy choice, is too short
    // for it to pay.
    assert!(MctsAgent::new(MctsConfig::default()).may_take_long());
    assert!(!agent.may_take_long() && !GreedyAgent.may_take_long());

    // A search of four billion iterations, stopped from another thread while it runs.
    let endless = MctsAgent::new(MctsConfig {
        iterations: u32::MAX,
        ..MctsConfig::default()
    });
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let search = scope.spawn(|| endless.choose_or_stop(&game, &state, &mut Rng(7), &stop));
        stop.store(true, Ordering::Relaxed);
        assert_eq!(search.join().unwrap(), None);
    });
    assert!(agent
        .search_or_stop(&game, &state, &mut Rng(5), &stop)
        .is_none());

    let (random, greedy) = (RandomAgent::default(), GreedyAgent);
    let seats: [&dyn Agent; 2] = [&random, &greedy];
    let played = play_games_or_stop(&game, &seats, 11, 0..6, true, 1, &go_on).unwrap();
    let direct = play_games(&game, &seats, 11, 0, 6, true, 1);
    assert_eq!(
        played.iter().map(|r| &r.actions).collect::<Vec<_>>(),
        direct.iter().map(|r| &r.actions).collect::<Vec<_>>()
    );
    assert!(play_games_or_stop(&game, &seats, 11, 0..6, true, 1, &stop).is_none());
}

const EXPECTED_SEARCH_HASHES: [&str; 6] = [
    "lancashire list 0xba42eef012a1bdc2",
    "lancashire draw 0x2512ef9e94a5fcda",
    "birmingham list 0x2c9079c2a2b6945f",
    "birmingham draw 0x9806376f2c071196",
    "brass list 0x38ca7f86780bf7ca",
    "brass draw 0x5b824ce155bb152f",
];

#[test]
fn b18_birmingham_greedy_does_not_pass_with_money_to_spend() {
    // Round 6 of the Canal Era in a 2-player all-Greedy game (deal 1395798487715073062, the first 29
    // decisions of game 39 of seed 5 before 4 Dec 2026): player 0 has two breweries nobody empties, one loan
    // (level −3), £21 and the wild cards of a scout. Greedy passed here and in the four rounds after, paying
    // £3 a round, and ended the game at 0 VP: the first £20 at the next turn were worth more than any build or
    // link. A pass now costs an action's worth (B-18): it links.
    let game = Game::new("birmingham", 2, &BTreeMap::new()).unwrap();
    let mut s = apply::new_state(&game, 1395798487715073062);
    for id in [
        111, 505, 16, 47, 96, 509, 68, 42, 446, 513, 5, 445, 508, 45, 34, 446, 510, 515, 445, 519,
        99, 502, 447, 514, 446, 510, 49, 447, 506,
    ] {
        apply::apply(&game, &mut s, id).unwrap();
    }
    assert_eq!(s.current_player(&game), Some(0));
    assert_eq!((s.players[0].money, s.income_level(&game, 0)), (21, -3));
    let mut ids = Vec::new();
    brass_core::rules::legal_actions(&game, &s, &mut ids);
    let legal: Vec<String> = ids
        .iter()
        .map(|&id| game.action_name(id as i64).unwrap())
        .collect();
    assert!(legal.contains(&"pass".to_string()));
    assert!(legal.iter().any(|a| a.starts_with("build ")));
    let id = GreedyAgent.choose(&game, &s, &mut Rng(1));
    assert_ne!(game.action_name(id as i64).unwrap(), "pass");
}

#[test]
fn b6_b28_birmingham_a_second_producer_of_an_industry_counts_half_the_first() {
    // A producer flips only when its last cube or barrel leaves (B-6, B-28), which others mostly do: the
    // more the player has waiting, the less likely each is emptied. Its VP and income terms count 1, ½, ¼
    // … for the first, second, third own unflipped producer of the industry (in space order); barrels
    // count 0.5 each whatever.
    let mut p = Pos::birmingham(3);
    let rounds = 2.0 * p.g.rounds_per_era as f64 - 1.0;
    let spec = *p.g.tile_spec(p.ind("brewery"), 1).unwrap();
    let share =
        |n: f64| n * (0.5 * spec.vp as f64 + 0.25 * 0.15 * spec.income as f64 / 2.0 * rounds) + 0.5;
    let mut values = vec![evaluate(&p.g, &p.s, 0)];
    for space in ["stone/1", "walsall/2", "worcester/2"] {
        p.tile(space, 0, "brewery", 1, 1);
        values.push(evaluate(&p.g, &p.s, 0));
    }
    for (i, n) in [1.0, 0.5, 0.25].iter().enumerate() {
        let gap = values[i + 1] - values[i];
        assert!(
            (gap - share(*n)).abs() < 1e-9,
            "brewery {}: {gap} != {}",
            i + 1,
            share(*n)
        );
    }
    // Another industry's producer counts in full again.
    p.tile("dudley/1", 0, "coal_mine", 1, 2);
    let coal = *p.g.tile_spec(p.ind("coal_mine"), 1).unwrap();
    let gap = evaluate(&p.g, &p.s, 0) - values[3];
    let full = 0.5 * coal.vp as f64 + 0.25 * 0.15 * coal.income as f64 / 2.0 * rounds;
    assert!((gap - full).abs() < 1e-9, "{gap} != {full}");
}

#[test]
fn b15_b16_birmingham_a_player_in_debt_with_no_tile_that_sells_counts_its_later_producers_half() {
    // A player who owns no cotton mill, manufacturer or pottery (B-15) earns only when others empty its
    // producers; once it has borrowed (level −3 or lower, B-16), each own producer after its first counts half
    // again. The gap a coal mine makes as the player's second producer (after a brewery):
    let gap = |level: i32, seller: bool| -> (f64, f64) {
        let mut p = Pos::birmingham(3);
        p.s.players[0].income_space = p.g.top_space_of_level(level);
        if seller {
            p.tile("birmingham/2", 0, "manufacturer", 1, 0);
        }
        let rounds = 2.0 * p.g.rounds_per_era as f64 - 1.0;
        let coal = *p.g.tile_spec(p.ind("coal_mine"), 1).unwrap();
        let full = 0.5 * coal.vp as f64 + 0.25 * 0.15 * coal.income as f64 / 2.0 * rounds;
        let first = evaluate(&p.g, &p.s, 0);
        p.tile("stone/1", 0, "brewery", 1, 1);
        let before = evaluate(&p.g, &p.s, 0);
        p.tile("dudley/1", 0, "coal_mine", 1, 2);
        let brewery = *p.g.tile_spec(p.ind("brewery"), 1).unwrap();
        // The first producer counts in full whatever the debt (and its barrel 0.5).
        let first_full =
            0.5 * brewery.vp as f64 + 0.25 * 0.15 * brewery.income as f64 / 2.0 * rounds + 0.5;
        assert!(
            (before - first - first_full).abs() < 1e-9,
            "level {level}: the first producer {} != {first_full}",
            before - first
        );
        (evaluate(&p.g, &p.s, 0) - before, full)
    };
    for (level, seller, share) in [
        (-2, false, 1.0),
        (-3, false, 0.5),
        (-9, false, 0.5),
        (-3, true, 1.0),
    ] {
        let (gap, full) = gap(level, seller);
        assert!(
            (gap - share * full).abs() < 1e-9,
            "level {level}, a tile that sells {seller}: {gap} != {share} × {full}"
        );
    }
}

#[test]
fn b16_b18_all_greedy_birmingham_games_rarely_leave_a_seat_at_zero_vp() {
    // 150 all-Greedy games per player count (seed 5): before the pass cost and the repeated producers
    // (4 Dec 2026) 5 of the 1,350 seats ended at 0 VP and 19 under 20 VP; after, none and 4; with beer promised
    // to one sale at a time and tiles no merchant reaches at 0.15 (5 Dec), 2 (one at 3 players, one at 4) and 2.
    // Over many seeds the rate is now about 1 seat in 40,000 at 2 players and 1 in 24,000 at 3 (fresh seeds
    // 421–620, the producers of a player in debt with nothing that sells counted half, 7 Dec: docs/agents.md):
    // not none over many seeds, none in these 450 games.
    let (mut zero, mut low) = (Vec::new(), 0);
    for players in [2, 3, 4] {
        let game = Game::new("birmingham", players, &BTreeMap::new()).unwrap();
        let greedy: Vec<&dyn Agent> = (0..players).map(|_| &GreedyAgent as &dyn Agent).collect();
        for (i, r) in play_games(&game, &greedy, 5, 0, 150, false, 0)
            .iter()
            .enumerate()
        {
            if r.scores.contains(&0) {
                zero.push(format!("{players}p game {i} {:?}", r.scores));
            }
            low += r.scores.iter().filter(|&&vp| vp < 20).count();
        }
    }
    assert!(zero.is_empty(), "{zero:?}");
    assert!(low <= 8, "{low} seats under 20 VP");
}

/// `choose_scored` is `choose` with its values shown: the same action and the same draws from the generator,
/// a value for every legal action in their order, and the chosen action's the largest (ties at random).
#[test]
fn greedy_choose_scored_shows_the_values_choose_compares() {
    for (name, players) in [("birmingham", 2), ("lancashire", 3), ("brass", 4)] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        let mut state = apply::new_state(&game, 9);
        let mut rng = Rng(3);
        let mut scores = Vec::new();
        for _ in 0..60 {
            let seed = rng.next_u64();
            let (mut a, mut b) = (Rng(seed), Rng(seed));
            let plain = GreedyAgent.choose(&game, &state, &mut a);
            let shown = GreedyAgent.choose_scored(&game, &state, &mut b, &mut scores);
            assert_eq!(plain, shown, "{name}");
            assert_eq!(a.0, b.0, "{name}: the same draws");
            let mut legal = Vec::new();
            brass_core::rules::legal_actions(&game, &state, &mut legal);
            let ids: Vec<u16> = scores.iter().map(|s| s.0).collect();
            assert_eq!(ids, legal, "{name}");
            let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
            let chosen = scores.iter().find(|s| s.0 == shown).unwrap().1;
            assert!(chosen >= best - 1e-9, "{name}: {chosen} < {best}");
            let action = game.decode(shown as i64).unwrap();
            apply::apply_unchecked(&game, &mut state, action);
            if state.is_terminal() {
                break;
            }
        }
    }
}
