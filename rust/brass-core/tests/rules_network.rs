//! Links: adjacency, eras, costs, double rail and its coal (L-34 … L-38, R-2).
use crate::common;
use brass_core::state::Decision;
use common::Pos;

#[test]
fn l34_a_link_must_touch_the_network() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("bolton/1", 0, "coal_mine", 1, 1);
    assert!(p.is_legal("link bolton-bury"));
    assert!(p.is_legal("link bolton-manchester"));
    let why = p.refuse("link burnley-colne");
    assert!(why.contains("network"), "{why}");
}

#[test]
fn l34_r2_no_tile_and_no_link_means_no_link_action() {
    let p = Pos::new(4);
    let links: Vec<String> = p
        .legal()
        .into_iter()
        .filter(|a| a.starts_with("link"))
        .collect();
    assert!(links.is_empty(), "{links:?}");
}

#[test]
fn l34_a_line_holds_one_link() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("bolton/1", 0, "coal_mine", 1, 1)
        .link("bolton-bury", 1);
    assert!(!p.is_legal("link bolton-bury"));
}

#[test]
fn l35_canal_era_builds_canals_only_for_three_pounds() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("lancaster/1", 0, "port", 1, 0);
    assert!(
        !p.is_legal("link barrow_in_furness-lancaster"),
        "a rail-only line"
    );
    p.play("link lancaster-preston");
    assert_eq!(
        (
            p.s.players[0].money,
            p.s.players[0].money_spent,
            p.s.players[0].links_left
        ),
        (27, 3, 13)
    );
    assert_eq!(
        p.decision(),
        Decision::Card,
        "no second canal in one action"
    );
}

#[test]
fn l35_liverpool_ellesmere_port_is_canal_only() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"])
        .tile("liverpool/1", 0, "port", 2, 0);
    assert!(!p.is_legal("link liverpool-ellesmere_port"));
    let mut c = Pos::new(4);
    c.hand(0, &["wigan", "bolton"])
        .tile("liverpool/1", 0, "port", 1, 0);
    assert!(c.is_legal("link liverpool-ellesmere_port"));
}

#[test]
fn l36_double_rail_takes_coal_for_each_link() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"])
        .tile("manchester/1", 0, "cotton_mill", 2, 0);
    p.tile("bolton/1", 1, "coal_mine", 2, 3);
    p.play("link bolton-manchester");
    assert_eq!(p.at("bolton/1").cubes, 2);
    assert_eq!(p.decision(), Decision::Link, "a second rail is offered");
    assert!(p.legal().contains(&"stop".to_string()));
    p.play("link bolton-bury");
    assert_eq!(p.at("bolton/1").cubes, 1);
    assert_eq!(
        (p.s.players[0].money, p.s.players[0].links_left),
        (30 - 15, 12)
    );
    assert_eq!(p.decision(), Decision::Card);
}

#[test]
fn l36_second_rail_needs_ten_pounds_more_and_its_own_coal() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"])
        .tile("manchester/1", 0, "cotton_mill", 2, 0);
    p.tile("bolton/1", 1, "coal_mine", 2, 1);
    p.money(0, 14);
    // The first rail empties the Bolton mine; the second would need market coal through a trade icon,
    // and there is none, so no second rail is offered and the action goes on to its card.
    p.play("link bolton-manchester");
    assert!(p.at("bolton/1").flipped);
    assert_eq!(p.decision(), Decision::Card);
    assert_eq!(p.s.players[0].money, 9);
}

#[test]
fn l36_rail_coal_is_measured_from_either_end() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"])
        .tile("manchester/1", 0, "cotton_mill", 2, 0);
    // Bury's mine is 0 links from the new rail's Bury end; Stockport's is one link from Manchester.
    p.tile("bury/1", 1, "coal_mine", 2, 2)
        .tile("stockport/1", 2, "cotton_mill", 2, 0);
    p.tile("oldham/1", 2, "coal_mine", 2, 2)
        .link("oldham-manchester", 2);
    p.play("link bury-manchester");
    assert_eq!((p.at("bury/1").cubes, p.at("oldham/1").cubes), (1, 2));
}

#[test]
fn l36_rail_coal_ties_ask_the_player() {
    let mut p = Pos::new(4).rail();
    p.hand(0, &["wigan", "bolton"])
        .tile("manchester/1", 0, "cotton_mill", 2, 0);
    p.tile("bury/1", 1, "coal_mine", 2, 2)
        .tile("manchester/2", 2, "coal_mine", 2, 2);
    p.play("link bury-manchester");
    assert_eq!(p.decision(), Decision::Coal);
    assert_eq!(p.legal(), ["coal bury/1", "coal manchester/2"]);
}

#[test]
fn l37_no_link_tiles_left_means_no_link() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("bolton/1", 0, "coal_mine", 1, 1);
    p.s.players[0].links_left = 0;
    let why = p.refuse("link bolton-bury");
    assert!(why.contains("no link tiles"), "{why}");
}

#[test]
fn l38_anyones_links_carry_coal_and_sales() {
    let mut p = Pos::new(4);
    p.hand(0, &["wigan", "bolton"])
        .tile("colne/1", 0, "cotton_mill", 1, 0);
    p.link("colne-yorkshire", 3);
    assert!(p.is_legal("sell colne/1 distant"));
}

/// L-14: the context's link components (kept between decisions while the links stay the same) always say
/// what a breadth-first search over the links says, also when games of two configurations, and positions of
/// one game far apart, alternate on one thread (a component kept for the wrong board would show here).
#[test]
fn l14_context_components_match_a_fresh_search_when_games_alternate() {
    use brass_core::{apply, rules, Game, Rng};
    let games = [
        Game::new("birmingham", 4, &Default::default()).unwrap(),
        Game::new("lancashire", 4, &Default::default()).unwrap(),
    ];
    let mut states: Vec<_> = games.iter().map(|g| apply::new_state(g, 3)).collect();
    let mut early = states.clone();
    let mut rng = Rng(11);
    let mut ids = Vec::new();
    let mut checked = 0;
    for step in 0..4000 {
        let k = step % 2;
        let (game, state) = (&games[k], &mut states[k]);
        if state.is_terminal() {
            *state = apply::new_state(game, step as u64);
        }
        if step % 97 == 0 {
            std::mem::swap(state, &mut early[k]);
        }
        assert_components_agree_with_a_search(game, state);
        checked += 1;
        ids.clear();
        rules::legal_actions(game, state, &mut ids);
        let id = ids[rng.below(ids.len() as u64) as usize];
        apply::apply_unchecked(game, state, game.decode(id as i64).unwrap());
    }
    assert_eq!(checked, 4000);
}

/// L-14: the context's link components of the player to move connect exactly the locations a breadth-first
/// search over the placed links reaches.
fn assert_components_agree_with_a_search(game: &brass_core::Game, state: &brass_core::State) {
    use brass_core::network::{adjacency, reachable};
    let p = state.current_player(game).unwrap();
    let ctx = brass_core::rules::Ctx::new(game, state, p);
    let adj = adjacency(game, state);
    for a in 0..game.locations.len() as u8 {
        let reach = reachable(&adj, 1 << a);
        for b in 0..game.locations.len() as u8 {
            assert_eq!(
                ctx.connected(a, b),
                reach & (1 << b) != 0,
                "{} {a} {b}",
                game.name
            );
        }
    }
}

/// L-14: within one game on one thread the components are kept, and joined link by link as links are placed
/// (instead of a new union-find); they still agree with a search at every decision of random games in three
/// games, through the era's end where the links leave.
#[test]
fn l14_context_components_joined_link_by_link_agree_with_a_search() {
    use brass_core::sample::Sampler;
    use brass_core::{apply, Game, Rng};
    let mut ids = Vec::new();
    for (name, players) in [("lancashire", 4), ("brass", 3), ("birmingham", 4)] {
        let game = Game::new(name, players, &Default::default()).unwrap();
        let mut checked = 0;
        for seed in 0..3 {
            let mut state = apply::new_state(&game, seed);
            let mut rng = Rng(seed + 70);
            while !state.is_terminal() {
                assert_components_agree_with_a_search(&game, &state);
                checked += 1;
                let id = Sampler::List.pick(&game, &state, &mut rng, &mut ids);
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
            }
        }
        assert!(checked > 300);
    }
}

#[test]
fn l14_links_to_counts_the_links_of_the_eras_kind_still_to_build_placed_links_free() {
    use brass_core::network::links_to;
    let loc = |p: &Pos, id: &str| p.g.location_by_id(id).unwrap() as usize;
    let mut p = Pos::new(3);
    let liverpool = 1u64 << loc(&p, "liverpool");
    // Canal Era: Warrington is two canals from Liverpool (by Wigan or Ellesmere Port), Bolton four (and Manchester).
    let canal = links_to(&p.g, &p.s, liverpool);
    assert_eq!(canal[loc(&p, "liverpool")], 0);
    assert_eq!(canal[loc(&p, "warrington_runcorn")], 2);
    assert_eq!(canal[loc(&p, "bolton")], 4);
    // A placed link of anyone's costs nothing: with Warrington–Ellesmere Port built, Warrington is one away.
    p.link("warrington_runcorn-ellesmere_port", 1);
    let linked = links_to(&p.g, &p.s, liverpool);
    assert_eq!(linked[loc(&p, "warrington_runcorn")], 1);
    assert_eq!(linked[loc(&p, "ellesmere_port")], 1);
    // Rail Era: the rail Liverpool–Warrington exists (no canal does); Liverpool–Ellesmere Port is a canal only, so
    // Birkenhead is three rails away (Warrington, Ellesmere Port).
    let rail = Pos::new(3).rail();
    let by_rail = links_to(&rail.g, &rail.s, liverpool);
    assert_eq!(by_rail[loc(&rail, "warrington_runcorn")], 1);
    assert_eq!(by_rail[loc(&rail, "birkenhead")], 3);
    // A location nothing leads to: no lines of this era's kind reach it.
    let barrow = loc(&p, "barrow_in_furness");
    assert_eq!(canal[barrow], u8::MAX);
}
