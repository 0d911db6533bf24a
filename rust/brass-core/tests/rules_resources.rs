//! Coal, iron and the markets: L-15 … L-20, L-27, L-28.
use crate::common;
use brass_core::state::Decision;
use common::Pos;

fn mill_builder() -> Pos {
    // Player 0 builds a level-2 cotton mill (needs 1 coal) in Manchester with the Manchester card.
    let mut p = Pos::new(4);
    p.lowest(0, "cotton_mill", 2)
        .hand(0, &["manchester", "wigan"]);
    p
}

#[test]
fn l16_equally_close_coal_mines_ask_the_player() {
    let mut p = mill_builder();
    p.tile("bolton/1", 1, "coal_mine", 1, 2)
        .tile("oldham/1", 2, "coal_mine", 1, 2);
    p.link("bolton-manchester", 1).link("oldham-manchester", 2);
    // A farther mine (Bury, over Bolton) and a space with no mine are not among the choices: refused.
    p.tile("bury/1", 3, "coal_mine", 1, 2)
        .link("bolton-bury", 3);
    p.play("build cotton_mill manchester/1");
    assert_eq!(p.decision(), Decision::Coal);
    assert_eq!(p.legal(), ["coal bolton/1", "coal oldham/1"]);
    for not_offered in ["coal bury/1", "coal wigan/1", "coal manchester/2"] {
        let why = p.refuse(not_offered);
        assert!(!why.is_empty(), "{not_offered}");
    }
    p.play("coal oldham/1");
    assert_eq!((p.at("oldham/1").cubes, p.at("bolton/1").cubes), (1, 2));
    assert_eq!(p.s.players[0].money, 30 - 14);
    assert_eq!(p.decision(), Decision::Action);
}

#[test]
fn l16_the_closest_mine_is_used_without_asking() {
    let mut p = mill_builder();
    p.tile("manchester/2", 1, "coal_mine", 1, 2)
        .tile("bolton/1", 2, "coal_mine", 1, 2);
    p.link("bolton-manchester", 1);
    p.play("build cotton_mill manchester/1");
    assert_eq!((p.at("manchester/2").cubes, p.at("bolton/1").cubes), (1, 2));
    assert_eq!(p.decision(), Decision::Action);
}

#[test]
fn l16_unconnected_mines_do_not_count_and_distance_uses_any_owners_links() {
    let mut p = mill_builder();
    // Wigan is not connected; Bury is two links away over player 3's canals.
    p.tile("wigan/1", 1, "coal_mine", 1, 2)
        .tile("bury/1", 2, "coal_mine", 1, 2);
    p.link("bolton-manchester", 3).link("bolton-bury", 3);
    p.play("build cotton_mill manchester/1");
    assert_eq!((p.at("wigan/1").cubes, p.at("bury/1").cubes), (2, 1));
}

#[test]
fn l17_no_coal_reachable_makes_the_build_illegal() {
    let mut p = Pos::new(4);
    p.lowest(0, "cotton_mill", 2).hand(0, &["colne", "wigan"]);
    p.tile("wigan/1", 1, "coal_mine", 1, 2);
    let why = p.refuse("build cotton_mill colne/1");
    assert!(why.contains("no coal"), "{why}");
    // A canal to Yorkshire (a market trade icon, L-15) opens the coal market: cheapest cube, £1.
    p.link("colne-yorkshire", 1);
    p.play("build cotton_mill colne/1");
    assert_eq!(p.s.markets[0], 7);
    assert_eq!(
        (p.s.players[0].money, p.s.players[0].money_spent),
        (30 - 15, 15)
    );
}

#[test]
fn l17_empty_coal_market_sells_at_five_pounds() {
    let mut p = Pos::new(4);
    p.lowest(0, "cotton_mill", 2).hand(0, &["colne", "wigan"]);
    p.link("colne-yorkshire", 1);
    p.s.markets[0] = 0;
    p.money(0, 18);
    let why = p.refuse("build cotton_mill colne/1");
    assert!(why.contains("not enough money"), "{why}");
    p.money(0, 19);
    p.play("build cotton_mill colne/1");
    assert_eq!((p.s.players[0].money, p.s.markets[0]), (0, 0));
}

#[test]
fn l15_a_port_tile_of_any_owner_is_a_market_trade_icon() {
    let mut p = mill_builder();
    p.link("manchester-warrington_runcorn", 1);
    assert!(!p.is_legal("build cotton_mill manchester/1"));
    p.tile("warrington_runcorn/1", 2, "port", 1, 0);
    assert!(p.is_legal("build cotton_mill manchester/1"));
    p.flipped("warrington_runcorn/1");
    assert!(
        p.is_legal("build cotton_mill manchester/1"),
        "flipped ports keep the icon"
    );
}

#[test]
fn l18_iron_from_any_works_with_a_choice_and_market_otherwise() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.tile("bolton/3", 1, "iron_works", 1, 2)
        .tile("rochdale/3", 2, "iron_works", 1, 3);
    p.play("develop cotton_mill");
    assert_eq!(p.decision(), Decision::Iron);
    assert_eq!(p.legal(), ["iron bolton/3", "iron rochdale/3"]);
    // A source not offered (an empty works, or a space with none) is refused (L-18).
    p.tile("preston/2", 3, "iron_works", 1, 0);
    for not_offered in ["iron preston/2", "iron manchester/4"] {
        let why = p.refuse(not_offered);
        assert!(!why.is_empty(), "{not_offered}");
    }
    p.play("iron rochdale/3");
    assert_eq!(p.at("rochdale/3").cubes, 2);
    // A second develop is offered; with no iron works left it comes from the market.
    assert_eq!(p.decision(), Decision::Develop);
    p.tile("bolton/3", 1, "iron_works", 1, 0)
        .tile("rochdale/3", 2, "iron_works", 1, 0);
    p.play("develop port");
    assert_eq!(p.s.markets[1], 7);
    assert_eq!(p.s.players[0].money, 29);
    assert_eq!(p.decision(), Decision::Card);
}

#[test]
fn l18_empty_iron_market_sells_at_five_pounds() {
    let mut p = Pos::new(2);
    p.hand(0, &["wigan"]);
    p.s.markets[1] = 0;
    p.money(0, 4);
    assert!(!p.is_legal("develop port"));
    p.money(0, 5);
    p.play("develop port");
    assert_eq!(p.s.players[0].money, 0);
}

#[test]
fn l20_a_mine_flips_when_its_last_cube_is_taken_and_its_owner_gains_income() {
    let mut p = mill_builder();
    p.tile("manchester/2", 1, "coal_mine", 1, 1);
    p.play("build cotton_mill manchester/1");
    assert!(p.at("manchester/2").flipped);
    assert_eq!(p.income_space(1), 10 + 4);
}

#[test]
fn l27_coal_mine_connected_to_a_trade_icon_sells_most_expensive_space_first() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.tile("liverpool/1", 2, "port", 1, 0)
        .link("wigan-liverpool", 1);
    p.s.markets[0] = 5; // empty spaces cost £1, £1, £2
    p.play("build coal_mine wigan/1");
    assert_eq!(p.s.markets[0], 7);
    assert_eq!(p.s.players[0].money, 30 - 5 + 2 + 1);
    assert_eq!(
        p.s.players[0].money_spent, 5,
        "money received is not money spent (L-10)"
    );
    assert!(p.at("wigan/1").flipped && p.at("wigan/1").cubes == 0);
    assert_eq!(p.income_space(0), 10 + 4);
}

#[test]
fn l27_unconnected_coal_mine_keeps_its_cubes() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"]);
    p.s.markets[0] = 0;
    p.play("build coal_mine wigan/1");
    assert_eq!((p.s.markets[0], p.at("wigan/1").cubes), (0, 2));
    assert!(!p.at("wigan/1").flipped);
}

#[test]
fn l27_iron_works_always_sells_to_the_iron_market() {
    let mut p = Pos::new(4);
    p.hand(0, &["bolton", "wigan"]);
    p.tile("bolton/1", 1, "coal_mine", 1, 1);
    p.s.markets[1] = 6;
    p.play("build iron_works bolton/3");
    assert_eq!(p.s.markets[1], 8);
    assert_eq!(p.at("bolton/3").cubes, 2);
    assert_eq!(p.s.players[0].money, 30 - 5 + 1 + 1);
    assert!(
        p.at("bolton/1").flipped,
        "the iron works took the last coal of the Bolton mine"
    );
}

#[test]
fn l28_shipyards_flip_when_built() {
    let mut p = Pos::new(4);
    p.lowest(0, "shipyard", 1).hand(0, &["liverpool", "wigan"]);
    p.tile("liverpool/1", 2, "port", 1, 0);
    p.play("build shipyard liverpool/4");
    assert!(p.at("liverpool/4").flipped);
    assert_eq!(p.s.players[0].money, 30 - 16 - 1 - 1);
    assert_eq!(p.income_space(0), 12);
}

#[test]
fn l19_the_whole_cost_including_market_purchases_must_be_affordable() {
    let mut p = Pos::new(4);
    p.lowest(0, "cotton_mill", 3).hand(0, &["colne", "wigan"]);
    p.link("colne-yorkshire", 1);
    // Level-3 mill: £16 + coal £1 + iron £1.
    p.money(0, 17);
    assert!(!p.is_legal("build cotton_mill colne/1"));
    p.money(0, 18);
    assert!(p.is_legal("build cotton_mill colne/1"));
}
