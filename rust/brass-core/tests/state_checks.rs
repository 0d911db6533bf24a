//! What `invariants::validate` refuses in each game's own block (the layout of the in-memory block, before any
//! rule is checked), and the names of Birmingham's merchant spaces as `brass_core::games` gives them. Each test
//! here pins code that a mutation run (docs/verification.md, "Mutation testing") found no other test reaching.
use crate::common;
use brass_core::games::{self, Extra};
use brass_core::{apply, invariants, Error, Game};
use common::Pos;

fn corrupt(game: &Game, state: &brass_core::State) -> String {
    match invariants::validate(game, state) {
        Err(Error::InvalidState(why)) => why,
        other => panic!("expected an invalid state, got {other:?}"),
    }
}

#[test]
fn b3_merchant_space_names_round_trip_through_the_game_modules() {
    let p = Pos::birmingham(4);
    let spaces = p.g.birmingham().spaces.len() as u8;
    let mut names = Vec::new();
    for m in 0..spaces {
        let name = games::merchant_space_name(&p.g, m);
        // `location/k`, the location one of the game's own.
        let (location, k) = name.split_once('/').expect("location/k");
        assert!(p.g.location_by_id(location).is_some(), "{name}");
        assert!(k.parse::<u8>().is_ok(), "{name}");
        assert_eq!(games::merchant_space_by_name(&p.g, name), Some(m));
        names.push(name.to_string());
    }
    names.sort();
    names.dedup();
    assert_eq!(
        names.len(),
        spaces as usize,
        "every merchant space has its own name"
    );
    assert_eq!(games::merchant_space_by_name(&p.g, "oxford/9"), None);
    assert_eq!(games::merchant_space_by_name(&p.g, ""), None);
    // Lancashire has no merchant spaces.
    let l = Pos::new(4);
    assert_eq!(games::merchant_space_by_name(&l.g, &names[0]), None);
}

#[test]
fn l3_l42_a_corrupt_lancashire_block_is_refused_before_any_rule() {
    let p = Pos::new(4);
    let fresh = apply::new_state(&p.g, 1);
    assert!(invariants::validate(&p.g, &fresh).is_ok());
    let mut s = fresh;
    s.lancashire_mut().dcm_pile_len = 17;
    assert!(corrupt(&p.g, &s).contains("corrupt state: DCM pile"));
    let mut s = fresh;
    let kinds = p.g.card_kinds.len();
    s.lancashire_mut().deck_tile[kinds] = 1;
    assert!(corrupt(&p.g, &s).contains("corrupt state: deck tile cards"));
}

#[test]
fn b3_a_corrupt_birmingham_merchant_block_is_refused_before_any_rule() {
    let p = Pos::birmingham(2);
    let spaces = p.g.birmingham().spaces.len();
    let fresh = apply::new_state(&p.g, 1);
    assert!(invariants::validate(&p.g, &fresh).is_ok());
    let mut s = fresh;
    s.birmingham_mut().beer |= 1 << spaces;
    assert!(corrupt(&p.g, &s).contains("corrupt state: merchant tiles"));
    let mut s = fresh;
    let in_use = (0..spaces)
        .find(|&m| s.birmingham().tile[m] != brass_core::game::NONE)
        .unwrap();
    s.birmingham_mut().tile[in_use] = 9;
    assert!(corrupt(&p.g, &s).contains("corrupt state: merchant tiles"));
    assert!(matches!(fresh.extra, Extra::Birmingham(_)));
}

#[test]
fn b2_a_wild_card_among_the_removed_cards_is_refused() {
    let p = Pos::birmingham(3);
    let fresh = apply::new_state(&p.g, 4);
    for wild in ["wild_location", "wild_industry"] {
        let k = p.g.card_by_name(wild).unwrap() as usize;
        let mut s = fresh;
        s.removed[k] = 1;
        let why = corrupt(&p.g, &s);
        assert!(
            why.contains("cards are never in the deck (B-2)"),
            "{wild}: {why}"
        );
    }
}

/// A mutation survivor (`games/lancashire.rs` `read_json`): the pile is bounded before it is read (a longer
/// one would overrun the state's array), and a pile the size of that array is read, then refused for what it
/// holds.
#[test]
fn l42_a_dcm_pile_longer_than_any_is_refused_before_it_is_read() {
    let g = Game::new("lancashire", 3, &Default::default()).unwrap();
    let state = apply::new_state(&g, 5);
    let mut value: serde_json::Value =
        serde_json::from_str(&brass_core::json::to_json(&g, &state)).unwrap();
    for (len, expected) in [(17, "dcm.pile: too many tiles"), (16, "dcm")] {
        value["dcm"]["pile"] = serde_json::Value::from(vec![1; len]);
        let err = brass_core::json::from_json_in(&g, &value.to_string())
            .unwrap_err()
            .to_string();
        assert!(err.contains(expected), "{len}: {err}");
        if len == 16 {
            assert!(
                !err.contains("too many tiles"),
                "16 tiles fit the state: {err}"
            );
        }
    }
}

/// The layout bounds of the DCM pile, exactly (mutation survivors in `check_layout`): a pile as long as the
/// state's array, or holding a tile of value 7, is laid out correctly (what it holds is refused later, by the
/// game's rules); a value of 8 is not.
#[test]
fn l42_the_dcm_pile_layout_bounds_are_exact() {
    let g = Game::new("lancashire", 4, &Default::default()).unwrap();
    let fresh = apply::new_state(&g, 1);
    let mut s = fresh;
    s.lancashire_mut().dcm_pile_len = 16;
    let why = corrupt(&g, &s);
    assert!(!why.contains("corrupt state"), "{why}");
    assert!(why.contains("dcm: pile and discards hold"), "{why}");
    let mut s = fresh;
    s.lancashire_mut().dcm_pile[0] = 7;
    let why = corrupt(&g, &s);
    assert!(!why.contains("corrupt state"), "{why}");
    let mut s = fresh;
    s.lancashire_mut().dcm_pile[0] = 8;
    assert!(corrupt(&g, &s).contains("corrupt state: DCM pile"));
}

/// The Lancashire block's rules (C-11, L-51): the classic rules keep no drawn DCM tiles, and the Rail Era has
/// no deck tile.
#[test]
fn c11_l51_the_lancashire_block_s_rules_are_checked() {
    let classic = Game::new("brass", 4, &Default::default()).unwrap();
    let mut s = apply::new_state(&classic, 2);
    let extra = s.lancashire_mut();
    let top = extra.dcm_pile[extra.dcm_pile_len as usize - 1];
    extra.dcm_pile_len -= 1;
    extra.dcm_discards[top as usize] += 1;
    assert!(corrupt(&classic, &s).contains("(C-11)"));
    let g = Game::new("lancashire", 4, &Default::default()).unwrap();
    let mut s = apply::new_state(&g, 2);
    s.era = brass_core::game::Era::Rail;
    assert!(corrupt(&g, &s).contains("(L-3, L-51, L-56)"));
}

/// `Player::hand_size` and `hand_kinds` add and test eight counts at a time: they must agree with the plain
/// sum and test over every kind, for any counts a state may hold (0 to 255 of a kind).
#[test]
fn hand_size_and_hand_kinds_agree_with_the_plain_count() {
    let game = brass_core::Game::new("birmingham", 4, &std::collections::BTreeMap::new()).unwrap();
    let mut player = brass_core::apply::new_state(&game, 1).players[0];
    let mut rng = brass_core::Rng(17);
    for round in 0..2000 {
        for k in 0..player.hand.len() {
            // Mostly small counts and many zeros, as in play; every tenth hand anything up to 255.
            player.hand[k] = match (round % 10, rng.below(4)) {
                (0, _) => rng.below(256) as u8,
                (_, 0) => rng.below(9) as u8,
                _ => 0,
            };
        }
        let sum: u32 = player.hand.iter().map(|&c| c as u32).sum();
        let kinds = (0..player.hand.len())
            .filter(|&k| player.hand[k] > 0)
            .fold(0u32, |m, k| m | 1 << k);
        assert_eq!(player.hand_size(), sum, "{:?}", player.hand);
        assert_eq!(player.hand_kinds(), kinds, "{:?}", player.hand);
    }
}

/// The first card of a double build (L-21): `card_choices` offers every kind with a second card of the same or a
/// later kind, found with bit tricks; it must agree with that rule spelled out kind by kind, at every such
/// decision of random games.
#[test]
fn l21_double_build_first_card_choices_agree_with_the_plain_rule() {
    use brass_core::{rules, state::Decision, Rng};
    let mut seen = 0;
    for (name, players) in [("lancashire", 4), ("brass", 3), ("lancashire", 2)] {
        let game = Game::new(name, players, &std::collections::BTreeMap::new()).unwrap();
        for seed in 0..6 {
            let mut s = apply::new_state(&game, seed);
            let mut rng = Rng(seed + 40);
            let mut ids = Vec::new();
            while !s.is_terminal() {
                let p = s.current_player(&game).unwrap();
                if s.decision == Decision::Card
                    && s.action
                        .is_some_and(|u| u.double && u.first_card == brass_core::game::NONE)
                {
                    let hand = &s.players[p as usize].hand;
                    let plain = (0..hand.len())
                        .filter(|&k| {
                            hand[k] >= 2 || (hand[k] == 1 && hand[k + 1..].iter().any(|&c| c > 0))
                        })
                        .fold(0u32, |m, k| m | 1 << k);
                    assert_eq!(rules::card_choices(&s, p), plain, "{name}: {hand:?}");
                    seen += 1;
                }
                ids.clear();
                rules::legal_actions(&game, &s, &mut ids);
                let id = ids[rng.below(ids.len() as u64) as usize];
                apply::apply(&game, &mut s, id as i64).unwrap();
            }
        }
    }
    assert!(seen > 20, "double builds' first cards were chosen ({seen})");
}
