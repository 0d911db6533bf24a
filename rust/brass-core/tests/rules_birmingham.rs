//! Brass: Birmingham (docs/birmingham.md): B-1 … B-31 and the values K1 … K10, on hand-built positions.
use crate::common;
use brass_core::apply::{new_state, winners};
use brass_core::game::{Era, NONE};
use brass_core::games::birmingham::{space_by_name, TILE_KINDS};
use brass_core::state::Decision;
use common::Pos;

fn card(p: &Pos, name: &str) -> usize {
    p.g.card_by_name(name).unwrap() as usize
}

fn merchant_space(p: &Pos, name: &str) -> usize {
    space_by_name(p.g.birmingham(), name).unwrap() as usize
}

/// Whether the barrel beside a merchant space's tile is there.
fn merchant_beer(p: &Pos, name: &str) -> bool {
    p.s.birmingham().beer & (1 << merchant_space(p, name)) != 0
}

/// Let the last player of the era's last round pass with their last action: the era ends.
fn end_era(p: &mut Pos) {
    let n = p.g.players as usize;
    p.s.round = p.g.rounds_per_era;
    p.s.turn = (n - 1) as u8;
    p.s.actions_left = 1;
    let last = p.s.turn_order[n - 1];
    let hand = p.s.players[last as usize].hand;
    let kind = hand
        .iter()
        .position(|&c| c > 0)
        .expect("the last player holds a card");
    let mut only = [0u8; 32];
    only[kind] = 1;
    p.s.players[last as usize].hand = only;
    p.play("pass");
}

// --- set-up ------------------------------------------------------------------------------------------------

#[test]
fn b1_each_player_starts_with_17_pounds_8_cards_and_one_face_down() {
    for players in 2..=4u8 {
        let g = common::birmingham(players as i64, &[]);
        let s = new_state(&g, 7);
        for p in 0..players as usize {
            let pl = &s.players[p];
            assert_eq!(
                (pl.money, pl.vp, pl.hand_size(), pl.links_left),
                (17, 0, 8, 14)
            );
            assert_eq!(g.income_levels[pl.income_space as usize], 0);
            assert_eq!(pl.income_space, 10);
        }
        let removed: u32 = s.removed.iter().map(|&c| c as u32).sum();
        assert_eq!(removed, players as u32, "one face-down card per player");
        assert_eq!(
            (s.deck_len - s.deck_pos) as u32,
            g.deck_size as u32 - 9 * players as u32
        );
        brass_core::invariants::validate(&g, &s).unwrap();
    }
}

#[test]
fn k7_deck_sizes() {
    for (players, size, cm) in [(2, 40, 0), (3, 54, 6), (4, 64, 8)] {
        let g = common::birmingham(players, &[]);
        assert_eq!(g.deck_size, size, "{players} players");
        assert_eq!(g.deck.iter().map(|&c| c as u32).sum::<u32>(), size as u32);
        let k = g.card_by_name("cotton_mill_manufacturer").unwrap() as usize;
        assert_eq!(g.deck[k], cm);
        // B-2: wild cards are never in the deck.
        for wild in ["wild_location", "wild_industry"] {
            assert_eq!(g.deck[g.card_by_name(wild).unwrap() as usize], 0);
        }
    }
}

#[test]
fn k9_uttoxeter_has_one_card_at_3_players() {
    let g = common::birmingham(3, &[]);
    assert_eq!(g.deck[g.card_by_name("uttoxeter").unwrap() as usize], 1);
    let g = common::birmingham(4, &[]);
    assert_eq!(g.deck[g.card_by_name("uttoxeter").unwrap() as usize], 2);
    let g = common::birmingham(2, &[]);
    assert_eq!(g.deck[g.card_by_name("uttoxeter").unwrap() as usize], 0);
}

#[test]
fn k8_mat_holds_45_tiles() {
    let g = common::birmingham(4, &[]);
    let count = |name: &str| g.stacks[g.industry_by_name(name).unwrap() as usize].len();
    let counts: Vec<usize> = [
        "cotton_mill",
        "manufacturer",
        "pottery",
        "coal_mine",
        "iron_works",
        "brewery",
    ]
    .iter()
    .map(|n| count(n))
    .collect();
    assert_eq!(counts, [11, 11, 5, 7, 4, 7]);
    assert_eq!(counts.iter().sum::<usize>(), 45);
    let m = &g.stacks[g.industry_by_name("manufacturer").unwrap() as usize];
    assert_eq!(m.iter().filter(|t| t.level == 8).count(), 2);
}

#[test]
fn b3_merchant_tiles_of_the_player_count_one_per_space_in_use_with_beer_beside_non_blank() {
    for players in 2..=4i64 {
        let g = common::birmingham(players, &[]);
        for seed in 0..5 {
            let s = new_state(&g, seed);
            let e = s.birmingham();
            let config = g.birmingham();
            let mut kinds: Vec<u8> = Vec::new();
            for (m, space) in config.spaces.iter().enumerate() {
                let tile = e.tile[m];
                assert_eq!(tile != NONE, space.in_use, "{}", space.name);
                if tile != NONE {
                    kinds.push(tile);
                    let blank = TILE_KINDS[tile as usize] == "blank";
                    assert_eq!(e.beer & (1 << m) != 0, !blank, "{}", space.name);
                }
            }
            let mut want = config.tiles.clone();
            want.sort_unstable();
            kinds.sort_unstable();
            assert_eq!(kinds, want);
        }
        // B-3: 2 players use no Warrington or Nottingham space, 3 players no Nottingham space.
        let config = g.birmingham();
        let in_use =
            |name: &str| config.spaces[space_by_name(config, name).unwrap() as usize].in_use;
        assert_eq!(in_use("warrington/1"), players >= 3);
        assert_eq!(in_use("nottingham/2"), players == 4);
        assert!(in_use("shrewsbury/1"));
    }
}

// --- markets ------------------------------------------------------------------------------------------------

#[test]
fn b4_coal_from_the_market_costs_1_then_8_when_empty() {
    // Manufacturer I: £8 and a coal. Birmingham is linked to Oxford (a merchant location): market coal.
    let mut p = Pos::birmingham(4);
    p.hand(0, &["birmingham", "birmingham"])
        .link("birmingham-oxford", 2);
    assert_eq!(p.s.markets, [13, 8]);
    p.play("build manufacturer birmingham/2");
    assert_eq!(p.s.players[0].money, 17 - 8 - 1);
    assert_eq!(p.s.markets[0], 12);
    // An empty market sells at £8 (B-4).
    let mut p = Pos::birmingham(4);
    p.hand(0, &["birmingham", "birmingham"])
        .link("birmingham-oxford", 2);
    p.s.markets[0] = 0;
    p.money(0, 15);
    assert!(p
        .refuse("build manufacturer birmingham/2")
        .contains("money"));
    p.money(0, 16);
    p.play("build manufacturer birmingham/2");
    assert_eq!(p.s.players[0].money, 0);
}

#[test]
fn b9_coal_from_the_market_needs_a_link_to_a_merchant_location() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["birmingham", "birmingham"]);
    let why = p.refuse("build manufacturer birmingham/2");
    assert!(why.contains("coal"), "{why}");
    p.link("birmingham-coventry", 3);
    assert!(
        !p.is_legal("build manufacturer birmingham/2"),
        "Coventry is no merchant"
    );
    p.link("birmingham-oxford", 3);
    assert!(p.is_legal("build manufacturer birmingham/2"));
}

#[test]
fn b24_warrington_without_a_tile_still_opens_the_coal_market_at_2_players() {
    let mut p = Pos::birmingham(2);
    let config = p.g.birmingham();
    assert!(!config.spaces[space_by_name(config, "warrington/1").unwrap() as usize].in_use);
    // Manufacturer I in Stoke-on-Trent (stoke/1) with the Stoke card; Stoke–Warrington link of player 1.
    p.hand(0, &["stoke", "stoke"]);
    assert!(!p.is_legal("build manufacturer stoke/3"));
    p.link("stoke-warrington", 1);
    p.play("build manufacturer stoke/3");
    assert_eq!(p.s.markets[0], 12);
}

#[test]
fn b9_iron_from_the_market_needs_no_connection() {
    // Manufacturer II: £10 and an iron; the iron market's cheapest cube costs £2 (both £1 spaces empty).
    let mut p = Pos::birmingham(4);
    p.lowest(0, "manufacturer", 2)
        .hand(0, &["birmingham", "birmingham"]);
    p.play("build manufacturer birmingham/2");
    assert_eq!(p.s.players[0].money, 17 - 10 - 2);
    assert_eq!(p.s.markets[1], 7);
}

#[test]
fn b11_a_new_coal_mine_linked_to_a_merchant_location_sells_to_the_market() {
    // Coal mine I (2 cubes) at Dudley with the Dudley card; the market has 10 cubes, so the four cheapest
    // spaces (£1, £1, £2, £2) are empty: both cubes go to the £2 spaces for £4.
    let mut p = Pos::birmingham(4);
    p.hand(0, &["dudley", "dudley"])
        .link("birmingham-dudley", 1)
        .link("birmingham-oxford", 2);
    p.s.markets[0] = 10;
    p.play("build coal_mine dudley/1");
    assert_eq!(p.s.markets[0], 12);
    assert_eq!(p.s.players[0].money, 17 - 5 + 4);
    // B-6, B-28: empty at once, so flipped at once; coal mine I advances income 4 spaces.
    assert!(p.at("dudley/1").flipped);
    assert_eq!(p.income_space(0), 14);
    // Without the merchant link the cubes stay on the mine.
    let mut p = Pos::birmingham(4);
    p.hand(0, &["dudley", "dudley"]);
    p.play("build coal_mine dudley/1");
    assert_eq!((p.at("dudley/1").cubes, p.s.markets[0]), (2, 13));
}

// --- build ----------------------------------------------------------------------------------------------------

#[test]
fn k5_brewery_barrels_by_era() {
    // Brewery I in the Canal Era: 1 barrel. Brewery II in the Rail Era: 2 barrels (B-7), whatever the level.
    let mut p = Pos::birmingham(4);
    p.hand(0, &["brewery", "brewery"]);
    p.play("build brewery walsall/2");
    assert_eq!(p.at("walsall/2").cubes, 1);
    assert_eq!(p.s.players[0].money, 17 - 5 - 2);
    let mut p = Pos::birmingham(4).rail();
    p.lowest(0, "brewery", 2).hand(0, &["brewery", "brewery"]);
    p.play("build brewery walsall/2");
    assert_eq!(p.at("walsall/2").cubes, 2);
}

#[test]
fn b10_farm_breweries_are_built_with_a_brewery_or_wild_industry_card_only() {
    let mut p = Pos::birmingham(4);
    p.tile("cannock/1", 0, "coal_mine", 2, 3)
        .link("cannock-farm_north", 0);
    p.hand(0, &["cannock", "wild_location"]);
    assert!(
        !p.is_legal("build brewery farm_north/1"),
        "no location card names a farm"
    );
    p.hand(0, &["brewery", "cannock"]);
    assert!(p.is_legal("build brewery farm_north/1"));
    p.hand(0, &["wild_industry", "cannock"]);
    assert!(p.is_legal("build brewery farm_north/1"));
    // Out of the network a brewery card does not reach the south farm.
    p.hand(0, &["brewery", "cannock"]);
    assert!(!p.is_legal("build brewery farm_south/1"));
}

#[test]
fn b10_wild_location_card_builds_in_any_town_and_goes_back_to_its_pile() {
    let mut p = Pos::birmingham(4);
    p.tile("dudley/1", 0, "coal_mine", 2, 3);
    p.hand(0, &["wild_location"]);
    p.play("build brewery coalbrookdale/1");
    assert_eq!(p.at("coalbrookdale/1").owner, 0);
    assert_eq!(
        p.s.players[0].money,
        17 - 5 - 2,
        "Brewery I: £5 and an iron at £2"
    );
    let w = card(&p, "wild_location");
    assert_eq!(
        (p.s.players[0].hand[w], p.s.players[0].discards[w]),
        (0, 0),
        "B-17: back to its pile"
    );
}

#[test]
fn b10_industry_cards_build_in_the_network_cotton_mill_manufacturer_card_for_either() {
    let mut p = Pos::birmingham(4);
    p.tile("dudley/2", 0, "iron_works", 1, 0)
        .link("birmingham-dudley", 0)
        .link("birmingham-oxford", 2);
    p.hand(0, &["cotton_mill_manufacturer", "cotton_mill_manufacturer"]);
    assert!(p.is_legal("build manufacturer birmingham/2"));
    assert!(p.is_legal("build cotton_mill birmingham/1"));
    assert!(
        !p.is_legal("build cotton_mill worcester/1"),
        "Worcester is not in the network"
    );
    p.link("birmingham-worcester", 0);
    assert!(p.is_legal("build cotton_mill worcester/1"));
    assert!(
        !p.is_legal("build pottery coventry/1"),
        "the card shows no pottery"
    );
}

#[test]
fn b12_first_build_anywhere_with_an_industry_card_then_only_in_the_network() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["brewery", "brewery"]);
    assert!(p.is_legal("build brewery coalbrookdale/1"));
    assert!(p.is_legal("build brewery burton/2"));
    p.play("build brewery burton/2");
    assert!(!p.is_legal("build brewery coalbrookdale/1"));
    assert!(!p.is_legal("build brewery farm_south/1"));
}

#[test]
fn b12_first_link_anywhere_with_any_card() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["pottery", "pottery"]);
    assert!(p.is_legal("link burton-derby"));
    assert!(p.is_legal("link kidderminster-worcester"));
    p.play("link burton-derby");
    assert_eq!(p.s.players[0].money, 14);
    // Now the network is Burton and Derby.
    assert!(p.is_legal("link burton-stone"));
    assert!(!p.is_legal("link kidderminster-worcester"));
    // A player with a tile but no link is no longer free (B-12).
    let mut p = Pos::birmingham(4);
    p.tile("dudley/1", 0, "coal_mine", 2, 3)
        .hand(0, &["pottery", "pottery"]);
    assert!(!p.is_legal("link burton-derby"));
    assert!(p.is_legal("link birmingham-dudley"));
}

#[test]
fn b10_canal_era_one_own_tile_per_location_and_rail_only_tiles() {
    let mut p = Pos::birmingham(4);
    p.tile("birmingham/3", 0, "iron_works", 1, 0)
        .link("birmingham-oxford", 2);
    p.hand(0, &["birmingham", "birmingham"]);
    assert!(
        !p.is_legal("build manufacturer birmingham/2"),
        "L-25: one own tile per location"
    );
    // Pottery V and Brewery IV are rail-only; Pottery I is buildable in both eras (K6).
    let mut p = Pos::birmingham(4);
    p.lowest(0, "pottery", 5)
        .hand(0, &["coventry", "coventry"])
        .link("birmingham-coventry", 1);
    assert!(!p.is_legal("build pottery coventry/1"));
    let mut p = Pos::birmingham(4).rail();
    p.tile("dudley/1", 1, "coal_mine", 2, 3)
        .link("birmingham-dudley", 1)
        .link("birmingham-coventry", 1);
    p.hand(0, &["coventry", "coventry"]).money(0, 30);
    assert!(
        p.is_legal("build pottery coventry/1"),
        "Pottery I in the Rail Era"
    );
}

// --- network --------------------------------------------------------------------------------------------------

#[test]
fn b13_second_rail_needs_a_barrel_from_a_brewery() {
    // Rail Era; player 0's coal mine at Dudley feeds both rails. Player 0 has an unconnected brewery at Stone.
    let mut p = Pos::birmingham(4).rail();
    p.tile("dudley/1", 0, "coal_mine", 2, 3)
        .tile("stone/1", 0, "brewery", 2, 1);
    p.hand(0, &["pottery", "pottery"]);
    p.play("link birmingham-dudley");
    assert_eq!(p.decision(), Decision::Link);
    assert!(p.legal().contains(&"link dudley-wolverhampton".to_string()));
    p.play("link dudley-wolverhampton");
    assert_eq!(p.at("stone/1").cubes, 0);
    assert!(
        p.at("stone/1").flipped,
        "B-28: the last barrel flips the brewery"
    );
    assert_eq!(p.at("dudley/1").cubes, 1);
    assert_eq!(p.s.players[0].money, 17 - 15);
    // Without a brewery no second rail is offered.
    let mut p = Pos::birmingham(4).rail();
    p.tile("dudley/1", 0, "coal_mine", 2, 3)
        .hand(0, &["pottery", "pottery"]);
    p.play("link birmingham-dudley");
    assert_eq!(p.decision(), Decision::Action);
}

#[test]
fn b25_an_opponents_brewery_counts_for_the_second_rail_once_connected_after_placement() {
    // Player 1's brewery at Wolverhampton? Wolverhampton has no brewery space: use Walsall/2.
    let mut p = Pos::birmingham(4).rail();
    p.tile("dudley/1", 0, "coal_mine", 2, 3)
        .tile("walsall/2", 1, "brewery", 2, 2);
    p.hand(0, &["pottery", "pottery"]);
    p.play("link birmingham-dudley");
    assert_eq!(p.decision(), Decision::Link);
    let legal = p.legal();
    assert!(
        legal.contains(&"link birmingham-walsall".to_string()),
        "{legal:?}"
    );
    assert!(
        !legal.contains(&"link dudley-kidderminster".to_string()),
        "{legal:?}"
    );
    p.play("link birmingham-walsall");
    assert_eq!(p.at("walsall/2").cubes, 1);
}

#[test]
fn b25_a_merchant_barrel_never_pays_for_a_rail() {
    let mut p = Pos::birmingham(4).rail();
    p.tile("dudley/1", 0, "coal_mine", 2, 3)
        .blank_merchants()
        .merchant("oxford/1", "any", true);
    p.hand(0, &["pottery", "pottery"]);
    p.play("link birmingham-dudley");
    assert_eq!(
        p.decision(),
        Decision::Action,
        "no second rail: Oxford's barrel is not for rails"
    );
}

// --- develop ----------------------------------------------------------------------------------------------

#[test]
fn b14_lightbulb_potteries_are_never_developed() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["pottery", "pottery"]);
    assert!(
        !p.is_legal("develop pottery"),
        "Pottery I has the lightbulb"
    );
    p.lowest(0, "pottery", 2);
    assert!(p.is_legal("develop pottery"));
    p.lowest(0, "pottery", 3);
    assert!(
        !p.is_legal("develop pottery"),
        "Pottery III has the lightbulb"
    );
}

// --- sell -----------------------------------------------------------------------------------------------------

/// Player 0's Cotton Mill I at Worcester, linked to Gloucester; Gloucester/1 buys cotton with a barrel.
fn seller() -> Pos {
    let mut p = Pos::birmingham(4);
    p.blank_merchants()
        .merchant("gloucester/1", "cotton_mill", true);
    p.tile("worcester/1", 0, "cotton_mill", 1, 0)
        .link("gloucester-worcester", 1);
    p.hand(0, &["pottery", "pottery"]);
    p
}

#[test]
fn b15_sell_to_a_connected_merchant_that_buys_the_industry_with_its_barrel() {
    let mut p = seller();
    p.play("sell worcester/1 gloucester/1");
    // One source of beer (the merchant's barrel): taken without asking, then the flip (+5 income spaces),
    // then Gloucester's bonus: a free develop, offered as decision `bonus`.
    assert!(p.at("worcester/1").flipped);
    assert_eq!(p.income_space(0), 15);
    assert!(!merchant_beer(&p, "gloucester/1"));
    assert_eq!(p.decision(), Decision::Bonus);
    assert!(p.legal().contains(&"develop coal_mine".to_string()));
    assert!(
        !p.legal().contains(&"develop pottery".to_string()),
        "Pottery I is a lightbulb tile"
    );
    p.play("develop coal_mine");
    assert_eq!(p.s.players[0].taken[p.ind("coal_mine") as usize], 1);
    assert_eq!(p.s.players[0].money, 17, "the bonus develop is free");
    assert_eq!(p.s.markets[1], 8, "and takes no iron");
}

#[test]
fn b26_the_bonus_develop_refuses_an_industry_it_does_not_offer() {
    let mut p = seller();
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.decision(), Decision::Bonus);
    // Pottery I is a lightbulb tile: not offered, and refused with the rule's reason, nothing changed.
    let why = p.refuse("develop pottery");
    assert!(why.contains("B-26"), "{why}");
    // A decision of another kind names what is expected.
    let why = p.refuse("loan 30");
    assert!(
        why.contains("the Gloucester develop or `stop` is expected"),
        "{why}"
    );
    p.play("develop coal_mine");
}

#[test]
fn b25_a_beer_source_the_decision_does_not_offer_is_refused() {
    let mut p = seller();
    p.tile("stone/1", 0, "brewery", 2, 1);
    // An empty brewery of the player's, a space with no brewery and a merchant not sold to: no sources.
    p.tile("uttoxeter/1", 0, "brewery", 1, 0);
    p.merchant("oxford/1", "any", true);
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.decision(), Decision::Beer);
    assert_eq!(p.legal(), ["beer stone/1", "beer gloucester/1"]);
    for source in ["beer uttoxeter/1", "beer farm_north/1", "beer oxford/1"] {
        let why = p.refuse(source);
        assert!(why.contains("B-25"), "{source}: {why}");
    }
    let why = p.refuse("stop");
    assert!(why.contains("the beer source is expected"), "{why}");
    p.play("beer gloucester/1");
}

#[test]
fn b15_merchants_that_do_not_buy_the_industry_or_are_not_connected_are_no_targets() {
    let mut p = seller();
    p.merchant("gloucester/1", "manufacturer", true);
    assert!(!p.is_legal("sell worcester/1 gloucester/1"));
    p.merchant("gloucester/1", "blank", false);
    assert!(!p.is_legal("sell worcester/1 gloucester/1"));
    p.merchant("gloucester/1", "any", true);
    assert!(p.is_legal("sell worcester/1 gloucester/1"));
    p.merchant("oxford/1", "any", true);
    assert!(
        !p.is_legal("sell worcester/1 oxford/1"),
        "Oxford is not connected to Worcester"
    );
}

#[test]
fn b15_no_beer_no_sale() {
    let mut p = seller();
    p.merchant("gloucester/1", "cotton_mill", false);
    assert!(!p.is_legal("sell worcester/1 gloucester/1"));
    // B-8: an own brewery anywhere gives beer, without a connection.
    p.tile("stone/1", 0, "brewery", 2, 1);
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.at("stone/1").cubes, 0);
    assert!(p.at("worcester/1").flipped);
}

#[test]
fn b25_an_opponents_brewery_must_be_connected_to_the_tile_sold() {
    let mut p = seller();
    p.merchant("gloucester/1", "cotton_mill", false);
    p.tile("stone/1", 1, "brewery", 2, 1);
    assert!(!p.is_legal("sell worcester/1 gloucester/1"));
    p.tile("kidderminster/1", 1, "cotton_mill", 1, 0).tile(
        "kidderminster/2",
        2,
        "cotton_mill",
        1,
        0,
    );
    // A brewery of player 2 on the south farm, reached over the Kidderminster–Worcester link.
    p.tile("farm_south/1", 2, "brewery", 1, 1)
        .link("kidderminster-worcester", 3);
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.at("farm_south/1").cubes, 0);
    assert!(p.at("farm_south/1").flipped);
}

#[test]
fn b25_two_sources_of_beer_ask_the_player() {
    let mut p = seller();
    p.tile("stone/1", 0, "brewery", 2, 1);
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.decision(), Decision::Beer);
    assert_eq!(p.legal(), ["beer stone/1", "beer gloucester/1"]);
    p.play("beer stone/1");
    // The own barrel paid: the merchant keeps its barrel, no bonus.
    assert!(merchant_beer(&p, "gloucester/1"));
    assert!(p.at("worcester/1").flipped);
    assert_ne!(p.decision(), Decision::Bonus);
}

#[test]
fn reading_a_tile_that_needs_no_beer_takes_no_merchant_barrel() {
    // Manufacturer III needs no beer: the sale takes nothing and earns no bonus.
    let mut p = Pos::birmingham(4);
    p.blank_merchants()
        .merchant("shrewsbury/1", "manufacturer", true);
    p.tile("coalbrookdale/1", 1, "iron_works", 1, 0);
    p.tile("wolverhampton/1", 0, "manufacturer", 3, 0)
        .link("coalbrookdale-wolverhampton", 1);
    p.link("coalbrookdale-shrewsbury", 1)
        .hand(0, &["pottery", "pottery"]);
    p.play("sell wolverhampton/1 shrewsbury/1");
    assert!(merchant_beer(&p, "shrewsbury/1"));
    assert_eq!(p.s.players[0].vp, 0);
    assert_eq!(p.income_space(0), 14);
}

#[test]
fn b26_merchant_bonuses() {
    // Each merchant's barrel consumed gives its bonus to the seller: Shrewsbury +4 VP, Nottingham +3 VP,
    // Warrington +£5, Oxford +2 income spaces. A level-1 cotton mill (1 beer, +5 income) sold at each.
    let cases = [
        (
            "shrewsbury/1",
            &["coalbrookdale-shrewsbury", "coalbrookdale-kidderminster"][..],
            "kidderminster/2",
            (4, 17, 15),
        ),
        (
            "nottingham/1",
            &["derby-nottingham"],
            "derby/1",
            (3, 17, 15),
        ),
        (
            "warrington/1",
            &["stoke-warrington"],
            "stoke/1",
            (0, 22, 15),
        ),
        (
            "oxford/1",
            &["birmingham-oxford"],
            "birmingham/1",
            (0, 17, 17),
        ),
    ];
    for (merchant, lines, space, (vp, money, income)) in cases {
        let mut p = Pos::birmingham(4);
        p.blank_merchants().merchant(merchant, "any", true);
        p.tile(space, 0, "cotton_mill", 1, 0)
            .hand(0, &["pottery", "pottery"]);
        for line in lines {
            p.link(line, 1);
        }
        p.play(&format!("sell {space} {merchant}"));
        let pl = &p.s.players[0];
        assert_eq!(
            (pl.vp, pl.money, pl.income_space),
            (vp, money, income),
            "{merchant}"
        );
    }
}

#[test]
fn b26_gloucester_bonus_may_be_declined_and_skips_when_nothing_qualifies() {
    let mut p = seller();
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.decision(), Decision::Bonus);
    p.play("stop");
    assert!(
        p.s.players[0].taken.iter().all(|&t| t == 0),
        "nothing developed"
    );
    assert_ne!(p.decision(), Decision::Bonus);
    // With every industry's lowest tile a lightbulb pottery or none left, no bonus decision is asked:
    // only potteries left on the mat, lowest Pottery I.
    let mut p = seller();
    for name in [
        "cotton_mill",
        "manufacturer",
        "coal_mine",
        "iron_works",
        "brewery",
    ] {
        let i = p.ind(name) as usize;
        p.s.players[0].taken[i] = p.g.stacks[i].len() as u8;
    }
    p.play("sell worcester/1 gloucester/1");
    assert_ne!(p.decision(), Decision::Bonus);
    assert!(
        !merchant_beer(&p, "gloucester/1"),
        "the barrel was still taken"
    );
}

#[test]
fn b26_oxford_income_bonus_stops_at_the_tracks_end() {
    let mut p = Pos::birmingham(4);
    p.blank_merchants().merchant("oxford/1", "any", true);
    p.tile("birmingham/1", 0, "cotton_mill", 1, 0)
        .link("birmingham-oxford", 1)
        .hand(0, &["pottery", "pottery"]);
    p.s.players[0].income_space = 93;
    p.play("sell birmingham/1 oxford/1");
    assert_eq!(
        p.income_space(0),
        99,
        "K10: +5 then +2, stopped at space 99"
    );
}

#[test]
fn b15_further_sales_in_the_same_action() {
    let mut p = seller();
    p.merchant("gloucester/2", "any", true);
    p.tile("worcester/2", 0, "cotton_mill", 1, 0);
    p.play("sell worcester/1 gloucester/1");
    p.play("stop"); // decline Gloucester's develop
    assert_eq!(p.decision(), Decision::Sell);
    assert_eq!(p.legal(), ["sell worcester/2 gloucester/2", "stop"]);
    p.play("sell worcester/2 gloucester/2");
    p.play("stop");
    assert!(p.at("worcester/2").flipped);
    assert_eq!(p.income_space(0), 20);
}

#[test]
fn k1_manufacturer_iv_costs_8_and_advances_income_6() {
    let mut p = Pos::birmingham(4);
    p.lowest(0, "manufacturer", 4)
        .hand(0, &["birmingham", "birmingham"]);
    p.play("build manufacturer birmingham/2");
    assert_eq!(p.s.players[0].money, 17 - 8 - 2, "£8 and one iron at £2");
    p.blank_merchants()
        .merchant("oxford/1", "manufacturer", false)
        .link("birmingham-oxford", 1);
    p.tile("stone/1", 0, "brewery", 1, 2); // two barrels: it does not flip (no income from it)
    p.play("sell birmingham/2 oxford/1");
    assert_eq!(p.income_space(0), 16);
    let spec = p.g.stacks[p.ind("manufacturer") as usize][4];
    assert_eq!((spec.level, spec.vp, spec.link_icons), (4, 3, 1));
}

#[test]
fn k4_manufacturer_ii_advances_income_1() {
    let mut p = Pos::birmingham(4);
    p.blank_merchants()
        .merchant("oxford/1", "manufacturer", true);
    p.tile("birmingham/1", 0, "manufacturer", 2, 0)
        .link("birmingham-oxford", 1);
    p.hand(0, &["pottery", "pottery"]);
    p.play("sell birmingham/1 oxford/1");
    assert_eq!(
        p.income_space(0),
        10 + 1 + 2,
        "+1 for the tile, +2 Oxford's bonus"
    );
}

// --- loans, scout ----------------------------------------------------------------------------------------------

#[test]
fn b16_loan_of_30_in_every_round_but_not_below_level_minus_10() {
    let mut p = Pos::birmingham(4).rail();
    p.s.round = p.g.rounds_per_era;
    p.hand(0, &["pottery", "pottery"]);
    p.play("loan 30");
    assert_eq!(p.s.players[0].money, 47);
    assert_eq!(p.g.income_levels[p.income_space(0) as usize], -3);
    assert_eq!(p.income_space(0), 7, "the highest space of level −3");
    p.s.players[0].income_space = 2; // level −8
    assert!(!p.is_legal("loan 30"));
    assert!(
        p.g.parse_action("loan 10").is_err(),
        "Birmingham lends only £30"
    );
}

#[test]
fn b17_scout_discards_three_cards_and_takes_one_wild_card_of_each_kind() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["pottery", "coventry", "dudley", "dudley"]);
    p.play("scout");
    // The three cards are an unordered set, asked lowest kind first: every set of three from these four
    // holds a Dudley card, so the first is paid without asking; then Dudley or Coventry; then the last.
    assert_eq!(p.decision(), Decision::Card);
    assert_eq!(p.s.players[0].hand[card(&p, "dudley")], 1);
    assert_eq!(p.legal(), ["card dudley", "card coventry"]);
    p.play("card dudley");
    assert_eq!(p.legal(), ["card coventry", "card pottery"]);
    p.play("card pottery");
    let h = p.s.players[0].hand;
    assert_eq!(h[card(&p, "coventry")], 1);
    assert_eq!(h[card(&p, "wild_location")], 1);
    assert_eq!(h[card(&p, "wild_industry")], 1);
    assert_eq!(p.s.players[0].discards[card(&p, "dudley")], 2);
    // B-17: not while holding a wild card.
    assert!(!p.is_legal("scout"));
}

#[test]
fn b17_scout_needs_three_cards() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["pottery", "coventry"]);
    assert!(!p.is_legal("scout"));
    p.hand(0, &["pottery", "coventry", "coventry"]);
    assert!(p.is_legal("scout"));
}

// --- scoring and the eras ----------------------------------------------------------------------------------

#[test]
fn k2_merchant_locations_score_2_link_icons_even_without_a_tile() {
    // 2 players: Warrington has no tile; the Stoke–Warrington link still scores its 2 icons.
    let mut p = Pos::birmingham(2);
    p.link("stoke-warrington", 0);
    end_era(&mut p);
    assert_eq!(p.s.players[0].vp, 2);
}

#[test]
fn k3_unflipped_tiles_show_no_link_icons() {
    let mut p = Pos::birmingham(4);
    p.tile("dudley/1", 1, "coal_mine", 2, 3) // unflipped: no icons
        .tile("birmingham/1", 1, "cotton_mill", 2, 0)
        .flipped("birmingham/1") // flipped Cotton Mill II: 2 icons
        .link("birmingham-dudley", 0);
    end_era(&mut p);
    assert_eq!(p.s.players[0].vp, 2);
    assert_eq!(p.s.players[1].vp, 5, "the mill's own VP only");
}

#[test]
fn b19_the_kidderminster_worcester_link_counts_the_south_farm_brewery() {
    let mut p = Pos::birmingham(4);
    p.tile("farm_south/1", 1, "brewery", 1, 0)
        .link("kidderminster-worcester", 0);
    assert!(p.at("farm_south/1").flipped);
    end_era(&mut p);
    assert_eq!(p.s.players[0].vp, 2, "Brewery I shows 2 link icons");
    assert_eq!(p.s.players[1].vp, 4);
}

#[test]
fn b20_canal_end_removes_level_1_refills_merchant_beer_and_deals_a_new_deck() {
    let mut p = Pos::birmingham(4);
    p.tile("coventry/1", 0, "pottery", 1, 0)
        .flipped("coventry/1")
        .tile("birmingham/1", 1, "cotton_mill", 2, 0)
        .tile("walsall/2", 2, "brewery", 1, 1)
        .blank_merchants()
        .merchant("oxford/1", "any", false);
    end_era(&mut p);
    assert_eq!(p.s.era, Era::Rail);
    assert!(p.is_empty("coventry/1"), "K6: Pottery I leaves the board");
    assert!(p.is_empty("walsall/2"), "with its barrels");
    assert!(!p.is_empty("birmingham/1"));
    assert_eq!(p.s.players[0].vp, 10, "Pottery I scored before it left");
    assert!(
        merchant_beer(&p, "oxford/1"),
        "B-20: barrels back beside non-blank tiles"
    );
    assert_eq!(
        p.s.removed, [0; 32],
        "the face-down cards are back in the deck"
    );
    for pl in &p.s.players[..4] {
        assert_eq!(pl.hand_size(), 8);
        assert_eq!(pl.discards, [0; 32]);
    }
    assert_eq!((p.s.deck_len - p.s.deck_pos) as u32, 64 - 32);
}

#[test]
fn k6_pottery_i_can_be_built_in_the_rail_era() {
    let mut p = Pos::birmingham(4).rail();
    p.hand(0, &["pottery", "pottery"]).money(0, 19);
    p.tile("dudley/1", 1, "coal_mine", 2, 3);
    p.play("build pottery coventry/1");
    assert_eq!(p.at("coventry/1").level, 1);
    assert_eq!(p.s.players[0].money, 0, "£17 and an iron at £2");
}

#[test]
fn b21_no_money_vp_and_ties_go_to_income_then_money() {
    let mut p = Pos::birmingham(2).rail();
    p.s.players[0].vp = 50;
    p.s.players[1].vp = 50;
    p.s.players[0].money = 100;
    p.s.players[1].money = 10;
    p.s.players[0].income_space = 30;
    p.s.players[1].income_space = 40;
    end_era(&mut p);
    assert!(p.s.is_terminal());
    // No VP for money; income collected at the last round's end does not change the VP.
    assert_eq!((p.s.players[0].vp, p.s.players[1].vp), (50, 50));
    assert_eq!(
        winners(&p.g, &p.s),
        [1],
        "the higher income level wins the tie"
    );
}

#[test]
fn b22_introductory_game_ends_with_the_canal_era_and_its_own_scoring() {
    let mut p = Pos::birmingham_with(2, &[("intro", true)]);
    p.tile("dudley/1", 0, "coal_mine", 2, 0) // flipped Coal Mine II: 2 VP, counted twice
        .tile("coventry/1", 0, "pottery", 1, 0)
        .flipped("coventry/1"); // Pottery I: level 1, counted once
    p.s.players[0].income_space = 25; // level 8
    p.s.players[1].income_space = 5; // level −5: no VP below 0
    end_era(&mut p);
    assert!(p.s.is_terminal());
    let m0 = p.s.players[0].money;
    let want0 = 2 + 10 + 2 + 8 + (m0 / 4).min(15);
    assert_eq!(p.s.players[0].vp, want0);
    let m1 = p.s.players[1].money;
    assert_eq!(m1, 17);
    assert_eq!(
        p.s.players[1].vp, 0,
        "4 VP for money, then −5 for the level, stopped at 0"
    );
}

// --- overbuilding, flips, the track ------------------------------------------------------------------------

#[test]
fn b27_another_players_brewery_is_never_overbuilt() {
    let mut p = Pos::birmingham(4);
    p.tile("walsall/2", 1, "brewery", 1, 0);
    p.lowest(0, "brewery", 2).hand(0, &["walsall", "walsall"]);
    assert!(!p.is_legal("build brewery walsall/2"));
    // The owner may overbuild it with a higher level (any time, R-20).
    let mut p = Pos::birmingham(4);
    p.tile("walsall/2", 0, "brewery", 1, 1);
    p.lowest(0, "brewery", 2).hand(0, &["walsall", "walsall"]);
    assert!(p.is_legal("build brewery walsall/2"));
}

#[test]
fn b27_an_opponents_coal_mine_only_when_no_coal_is_anywhere() {
    let mut p = Pos::birmingham(4);
    p.tile("dudley/1", 1, "coal_mine", 1, 0)
        .hand(0, &["dudley", "dudley"]);
    p.lowest(0, "coal_mine", 2);
    assert!(
        !p.is_legal("build coal_mine dudley/1"),
        "coal in the market"
    );
    p.s.markets[0] = 0;
    assert!(p.is_legal("build coal_mine dudley/1"));
    p.tile("cannock/2", 2, "coal_mine", 1, 1);
    assert!(
        !p.is_legal("build coal_mine dudley/1"),
        "a cube on the board"
    );
}

#[test]
fn b28_a_brewery_flips_when_its_last_barrel_is_taken_and_its_owner_gains_income_at_once() {
    // Player 0 sells with player 1's connected brewery: player 1's brewery flips, +4 income spaces at once.
    let mut p = seller();
    p.merchant("gloucester/1", "cotton_mill", false);
    p.tile("worcester/2", 1, "brewery", 1, 1);
    p.play("sell worcester/1 gloucester/1");
    assert!(p.at("worcester/2").flipped);
    assert_eq!(p.income_space(1), 14);
}

#[test]
fn k10_income_stops_at_space_99() {
    let mut p = seller();
    p.s.players[0].income_space = 97;
    p.play("sell worcester/1 gloucester/1");
    assert_eq!(p.income_space(0), 99);
    assert_eq!(p.g.income_levels.len(), 100);
    assert_eq!(p.g.income_levels[99], 30);
}

#[test]
fn b31_wild_cards_never_exceed_one_of_each_kind_per_player() {
    // The invariants refuse a hand with two wild cards of a kind.
    let mut p = Pos::birmingham(4);
    let w = card(&p, "wild_location");
    p.s.players[1].hand[w] = 2;
    assert!(brass_core::invariants::validate(&p.g, &p.s).is_err());
}

// --- rounds, pass, what Birmingham does not have, the Rail Era's start ---------------------------------------

#[test]
fn b5_rounds_per_era_and_one_action_in_the_first_canal_round() {
    for (players, rounds) in [(2, 10), (3, 9), (4, 8)] {
        let g = common::birmingham(players, &[]);
        assert_eq!(g.rounds_per_era, rounds);
        let s = new_state(&g, 3);
        assert_eq!((s.round, s.actions_left), (1, 1));
    }
}

#[test]
fn b18_pass_discards_any_one_card() {
    let mut p = Pos::birmingham(4);
    p.hand(0, &["pottery", "dudley"]);
    p.play("pass");
    assert_eq!(p.decision(), Decision::Card);
    assert_eq!(p.legal(), ["card dudley", "card pottery"]);
    p.play("card pottery");
    assert_eq!(p.s.players[0].discards[card(&p, "pottery")], 1);
    assert_eq!(p.s.players[0].money, 17, "passing costs nothing");
}

#[test]
fn b23_no_double_build_and_no_deck_tile() {
    let p = Pos::birmingham(4);
    assert!(p.g.parse_action("build brewery walsall/2 double").is_err());
    assert!(p
        .g
        .parse_action("build cotton_mill belper/1 double")
        .is_err());
    assert!((0..p.g.num_actions() as i64).all(|id| !p
        .g
        .action_name(id)
        .unwrap()
        .contains("double")));
    assert_eq!(
        brass_core::games::set_aside_cards(&p.s).iter().sum::<u8>(),
        0
    );
    assert!(p.g.parse_action("loan 10").is_err() && p.g.parse_action("loan 30").is_ok());
}

#[test]
fn b30_turn_order_carries_into_the_rail_era_and_a_player_left_with_nothing_links_anywhere() {
    let mut p = Pos::birmingham(4);
    // Player 0 owns only a level-1 tile and a canal: both leave at the Canal Era's end.
    p.tile("dudley/1", 0, "coal_mine", 1, 0)
        .link("birmingham-dudley", 0);
    p.tile("cannock/2", 1, "coal_mine", 2, 3);
    // Money spent in the last round decides the Rail Era's first order (L-11): 3, 2, 0, 1.
    for (player, spent) in [(0, 9), (1, 12), (2, 4), (3, 0)] {
        p.s.players[player].money_spent = spent;
    }
    end_era(&mut p);
    assert_eq!(p.s.era, Era::Rail);
    assert_eq!(&p.s.turn_order[..4], &[3, 2, 0, 1]);
    assert!(p.is_empty("dudley/1") && p.s.links.iter().all(|&o| o == NONE));
    // Player 0's turn: with nothing on the board, a rail may go on any line that can have its coal (B-12).
    p.s.turn = 2;
    p.s.actions_left = 2;
    p.hand(0, &["pottery", "pottery"]);
    assert!(
        p.is_legal("link derby-nottingham"),
        "Nottingham opens the coal market"
    );
    assert!(
        p.is_legal("link cannock-walsall"),
        "player 1's Cannock mine has coal"
    );
    assert!(
        !p.is_legal("link leek-stoke"),
        "no coal reaches Leek or Stoke"
    );
}

// --- the loader refuses what play cannot reach (docs/birmingham.md, "The state") -----------------------------

/// The first position of random play (from several seeds) where `wanted` holds.
fn find(
    players: i64,
    wanted: impl Fn(&brass_core::State) -> bool,
) -> (brass_core::Game, brass_core::State) {
    let g = common::birmingham(players, &[]);
    for seed in 0..400 {
        let mut s = new_state(&g, seed);
        let mut rng = brass_core::Rng(seed * 7 + 1);
        let mut ids = Vec::new();
        while !s.is_terminal() {
            if wanted(&s) {
                return (g, s);
            }
            ids.clear();
            brass_core::rules::legal_actions(&g, &s, &mut ids);
            let id = ids[rng.below(ids.len() as u64) as usize];
            brass_core::apply::apply(&g, &mut s, id as i64).unwrap();
        }
    }
    panic!("no such position in 400 random games");
}

fn refused(g: &brass_core::Game, s: &brass_core::State, what: &str) {
    let err = brass_core::invariants::validate(g, s).expect_err(what);
    assert!(
        matches!(err, brass_core::Error::InvalidState(_)),
        "{what}: {err}"
    );
    // And the JSON loader refuses it the same way, without a panic.
    let text = brass_core::json::to_json(g, s);
    assert!(brass_core::json::from_json(&text).is_err(), "{what}");
}

#[test]
fn b31_wild_cards_are_never_in_the_draw_pile_or_removed() {
    let g = common::birmingham(2, &[]);
    let mut s = new_state(&g, 1);
    brass_core::invariants::validate(&g, &s).unwrap();
    let w = g.card_by_name("wild_industry").unwrap();
    let mut pile = s;
    pile.deck[pile.deck_len as usize - 1] = w; // one card swapped for a wild card
    refused(&g, &pile, "wild card in the draw pile");
    s.removed[w as usize] += 1;
    refused(&g, &s, "wild card removed");
}

#[test]
fn a_decision_that_does_not_fit_the_action_is_refused_not_a_panic() {
    // After `pass` with two card kinds: decision `card`. As `beer` or `coal` it fits nothing.
    let (g, s) = find(2, |s| {
        s.decision == Decision::Card
            && s.action
                .is_some_and(|u| u.kind == brass_core::state::ActionKind::Pass)
    });
    for d in [
        Decision::Beer,
        Decision::Coal,
        Decision::Iron,
        Decision::Bonus,
        Decision::Link,
    ] {
        let mut bad = s;
        bad.decision = d;
        refused(&g, &bad, d.name());
    }
    let (g, s) = find(3, |s| {
        s.decision == Decision::Card
            && s.action
                .is_some_and(|u| u.kind == brass_core::state::ActionKind::Scout)
    });
    let mut bad = s;
    bad.decision = Decision::Coal;
    refused(&g, &bad, "coal during Scout");
}

#[test]
fn a_sale_under_way_must_fit_its_tile_merchant_and_barrel() {
    use brass_core::state::ActionKind;
    let (g, s) = find(4, |s| {
        s.decision == Decision::Beer && s.action.is_some_and(|u| u.kind == ActionKind::Sell)
    });
    brass_core::invariants::validate(&g, &s).unwrap();
    let u = s.action.unwrap();
    let config = g.birmingham();
    let industry = s.board[u.target as usize].industry;
    // 6a: a merchant space whose tile does not buy the tile's industry.
    let other = (0..g.layout.sale_targets.len()).find(|&i| match g.layout.sale_targets[i] {
        brass_core::game::SaleTarget::Merchant(m) => {
            let kind = s.birmingham().tile[m as usize];
            kind != NONE && config.accepts[kind as usize] & (1 << industry) == 0
        }
        _ => false,
    });
    if let Some(i) = other {
        let mut bad = s;
        bad.action.as_mut().unwrap().sale = i as u8;
        refused(&g, &bad, "merchant not buying the tile");
    }
    // 6b: the merchant barrel marked taken while it is still there.
    let brass_core::game::SaleTarget::Merchant(m) = g.layout.sale_targets[u.sale as usize] else {
        unreachable!("Birmingham sells to merchants")
    };
    let mut bad = s;
    bad.action.as_mut().unwrap().merchant_beer = true;
    bad.birmingham_mut().beer |= 1 << m;
    refused(&g, &bad, "merchant barrel taken and still there");
    // 6c: the target is not a tile that sells.
    let brewery_or_mine = (0..g.spaces.len()).find(|&sp| {
        let t = s.board[sp];
        t.owner == s.current_player(&g).unwrap() && !g.roles[t.industry as usize].sold
    });
    if let Some(sp) = brewery_or_mine {
        let mut bad = s;
        bad.action.as_mut().unwrap().target = sp as u8;
        refused(&g, &bad, "target not a tile that sells");
    }
    // A sale with no tile named.
    let mut bad = s;
    bad.action.as_mut().unwrap().target = NONE;
    refused(&g, &bad, "sale without its tile");
}

#[test]
fn a_bonus_comes_after_every_barrel_and_a_rails_barrel_is_the_second_rails() {
    use brass_core::state::ActionKind;
    let (g, s) = find(4, |s| s.decision == Decision::Bonus);
    brass_core::invariants::validate(&g, &s).unwrap();
    let mut bad = s;
    bad.action.as_mut().unwrap().beer = 1;
    refused(&g, &bad, "barrels left at the bonus");
    let (g, s) = find(2, |s| {
        s.decision == Decision::Beer && s.action.is_some_and(|u| u.kind == ActionKind::Link)
    });
    brass_core::invariants::validate(&g, &s).unwrap();
    let mut bad = s;
    bad.action.as_mut().unwrap().count = 1;
    refused(&g, &bad, "a first rail's barrel");
    let mut bad = s;
    bad.action.as_mut().unwrap().merchant_beer = true;
    refused(&g, &bad, "merchant barrel in a rail");
}

/// Issue 25 (mutation survivors of `check_state`): on a new 2-player state, each of these breaks B-2, B-3 or
/// B-17 and must be refused by validation and by the JSON loader.
#[test]
fn b2_b3_b17_states_the_rules_forbid_are_refused() {
    let g = common::birmingham(2, &[]);
    let s = new_state(&g, 1);
    brass_core::invariants::validate(&g, &s).unwrap();
    let w = g.card_by_name("wild_location").unwrap() as usize;
    // B-17: a wild card goes back to its own pile, never to a discard pile.
    let mut bad = s;
    bad.players[0].discards[w] += 1;
    refused(&g, &bad, "wild card in a discard pile");
    // B-2: a wild card added to the draw pile (one more card, not a swap).
    let mut bad = s;
    bad.deck[bad.deck_len as usize] = w as u8;
    bad.deck_len += 1;
    refused(&g, &bad, "wild card added to the draw pile");
    let config = g.birmingham();
    let blank = TILE_KINDS.iter().position(|&k| k == "blank").unwrap() as u8;
    // B-3: a barrel beside a blank merchant tile, wherever the blank tile lies (not only the first space).
    let blanks: Vec<usize> = (0..config.spaces.len())
        .filter(|&i| s.birmingham().tile[i] == blank)
        .collect();
    assert!(
        !blanks.is_empty(),
        "a 2-player deal has blank merchant tiles"
    );
    for &i in &blanks {
        let mut bad = s;
        bad.birmingham_mut().beer |= 1 << i;
        refused(&g, &bad, "barrel beside a blank tile");
    }
    // B-3: a barrel on a merchant space that 2 players do not use.
    let unused: Vec<usize> = (0..config.spaces.len())
        .filter(|&i| !config.spaces[i].in_use)
        .collect();
    assert!(!unused.is_empty(), "2 players leave merchant spaces unused");
    for &i in &unused {
        let mut bad = s;
        bad.birmingham_mut().beer |= 1 << i;
        // The JSON lists only the spaces in use, so it cannot even say this: validation alone refuses it.
        let err =
            brass_core::invariants::validate(&g, &bad).expect_err("barrel on an unused space");
        assert!(matches!(err, brass_core::Error::InvalidState(_)), "{err}");
    }
}

#[test]
fn l23_b10_b7_a_canal_era_board_holds_no_rail_only_tile_and_breweries_with_one_barrel() {
    // Every tile on the board in the Canal Era was built in it: no rail-only tile (L-23, B-10: Brewery IV,
    // Pottery V), and a brewery built then got 1 barrel, not the Rail Era's 2 (B-7). A new game's state and a
    // Rail Era state of a random game, each with one tile added.
    let space_by_name_of = |g: &brass_core::Game, name: &str| {
        (0..g.spaces.len() as u8)
            .find(|&s| g.spaces[s as usize].name == name)
            .unwrap()
    };
    let canal = {
        let g = common::birmingham(2, &[]);
        let s = new_state(&g, 1);
        (g, s)
    };
    let (farm, coventry) = (
        space_by_name_of(&canal.0, "farm_south/1"),
        space_by_name_of(&canal.0, "coventry/1"),
    );
    let rail = find(2, |s| {
        s.era == Era::Rail
            && s.decision == Decision::Action
            && s.board[farm as usize].is_empty()
            && s.board[coventry as usize].is_empty()
    });
    let with = |industry: &str, level: u8, cubes: u8, in_rail: bool| {
        let (g, mut s) = if in_rail { rail.clone() } else { canal.clone() };
        let i = g.industry_by_name(industry).unwrap();
        let role = g.roles[i as usize];
        let space = if industry == "brewery" {
            farm
        } else {
            coventry
        };
        s.set_tile(
            space,
            brass_core::state::Tile {
                owner: 0,
                industry: i,
                level,
                flipped: (role.produces.is_some() && cubes == 0) || role.flips_when_built,
                cubes,
            },
        );
        let taken = g.stacks[i as usize]
            .iter()
            .rposition(|t| t.level == level)
            .unwrap()
            + 1;
        let t = &mut s.players[0].taken[i as usize];
        *t = (*t).max(taken as u8);
        s.refresh_occupancy();
        (g, s)
    };
    for (industry, level, cubes, why) in [
        ("brewery", 4, 1, "built only in the Rail Era"),
        ("pottery", 5, 0, "built only in the Rail Era"),
        ("brewery", 1, 2, "more than the tile's 1 in the Canal Era"),
        ("brewery", 2, 2, "more than the tile's 1 in the Canal Era"),
    ] {
        let (g, s) = with(industry, level, cubes, false);
        let what = format!("{industry} {level} with {cubes} in the Canal Era");
        refused(&g, &s, &what);
        let err = brass_core::invariants::validate(&g, &s).unwrap_err();
        assert!(err.to_string().contains(why), "{what}: {err}");
    }
    // The same tiles where the rules allow them.
    for (industry, level, cubes, rail) in [
        ("brewery", 1, 1, false),
        ("brewery", 2, 1, false),
        ("brewery", 4, 2, true),
        ("brewery", 2, 2, true),
        ("pottery", 5, 0, true),
    ] {
        let (g, s) = with(industry, level, cubes, rail);
        brass_core::invariants::validate(&g, &s)
            .unwrap_or_else(|e| panic!("{industry} {level} {cubes} rail {rail}: {e}"));
    }
}
