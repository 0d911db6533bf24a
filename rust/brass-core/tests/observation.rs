//! The observation's values pinned against the state, in Rust (issue 25: no Rust test called the observation
//! code, and the Python suite pinned the layout but not every value). Seats are relative to the observer.
use crate::common;
use brass_core::games::birmingham::TILE_KINDS;
use brass_core::{apply, game::NONE, observation, rules, Game, Rng};

fn field(game: &Game, name: &str) -> (usize, usize) {
    let f = observation::layout(game)
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name}"));
    (f.offset, f.len)
}

fn observe(game: &Game, state: &brass_core::State, player: u8) -> Vec<f32> {
    let mut out = vec![0f32; observation::size(game)];
    observation::write(game, state, player, &mut out);
    out
}

/// The position after `decisions` random legal decisions from the deal of `seed`.
fn played(game: &Game, seed: u64, decisions: usize) -> brass_core::State {
    let mut s = apply::new_state(game, seed);
    let mut rng = Rng(seed);
    let mut ids = Vec::new();
    for _ in 0..decisions {
        ids.clear();
        rules::legal_actions(game, &s, &mut ids);
        apply::apply(
            game,
            &mut s,
            ids[rng.below(ids.len() as u64) as usize] as i64,
        )
        .unwrap();
    }
    s
}

/// Birmingham 3p, seed 5, after some random play: the merchant tiles one-hot and the barrels, space by space,
/// the same for every observer (they are public).
#[test]
fn birmingham_merchant_tiles_and_barrels_are_the_state_s() {
    let g = common::birmingham(3, &[]);
    let s = played(&g, 5, 120);
    let config = g.birmingham();
    let n = config.spaces.len();
    let (tiles_at, tiles_len) = field(&g, "merchants.tile");
    let (beer_at, beer_len) = field(&g, "merchants.beer");
    assert_eq!((tiles_len, beer_len), (n * TILE_KINDS.len(), n));
    let extra = s.birmingham();
    assert!(
        extra.beer != 0 && (0..n).any(|i| extra.beer & (1 << i) == 0),
        "both barrels and gaps"
    );
    for observer in 0..3 {
        let o = observe(&g, &s, observer);
        for i in 0..n {
            for k in 0..TILE_KINDS.len() {
                let want = if extra.tile[i] != NONE && extra.tile[i] as usize == k {
                    1.0
                } else {
                    0.0
                };
                assert_eq!(
                    o[tiles_at + i * TILE_KINDS.len() + k],
                    want,
                    "{} {}",
                    config.spaces[i].name,
                    TILE_KINDS[k]
                );
            }
            let barrel = if extra.beer & (1 << i) != 0 { 1.0 } else { 0.0 };
            assert_eq!(
                o[beer_at + i],
                barrel,
                "barrel at {}",
                config.spaces[i].name
            );
        }
    }
}

/// Lancashire 3p, seed 2: the header and each seat's money, VP, links and hand size, relative to the observer.
#[test]
fn lancashire_header_and_seat_values_are_the_state_s_relative_to_the_observer() {
    let g = Game::new("lancashire", 3, &Default::default()).unwrap();
    let s = played(&g, 2, 90);
    for observer in 0..3u8 {
        let o = observe(&g, &s, observer);
        assert_eq!(o[field(&g, "actions_left").0], s.actions_left as f32 / 2.0);
        for seat in 0..3u8 {
            let p = &s.players[((observer + seat) % 3) as usize];
            let at = |name: &str| o[field(&g, &format!("seat{seat}.{name}")).0];
            assert_eq!(
                at("money"),
                p.money as f32 / 100.0,
                "observer {observer} seat {seat}"
            );
            assert_eq!(at("vp"), p.vp as f32 / 100.0);
            assert_eq!(at("links_left"), p.links_left as f32 / 14.0);
            let hand: u32 = p.hand.iter().map(|&c| c as u32).sum();
            assert_eq!(at("hand_size"), hand as f32 / 8.0);
        }
        let (to_act, _) = field(&g, "to_act");
        let mover = s.current_player(&g).unwrap();
        let relative = ((mover + 3 - observer) % 3) as usize;
        assert_eq!(o[to_act + relative], 1.0);
    }
}

/// Lancashire 3p after some random play with a Distant Cotton Market sale or two: the DCM blocks (marker one-hot,
/// drawn tiles by value / 4, the face-down pile / 12) are the state's, for every observer (issue 25: a mutation
/// run found no Rust test reading them).
#[test]
fn lancashire_distant_cotton_market_blocks_are_the_state_s() {
    let g = Game::new("lancashire", 3, &Default::default()).unwrap();
    let config = g.lancashire();
    let (marker_at, marker_len) = field(&g, "dcm.marker");
    let (discards_at, discards_len) = field(&g, "dcm.discards");
    let (pile_at, pile_len) = field(&g, "dcm.pile_size");
    assert_eq!(
        (marker_len, discards_len, pile_len),
        (config.dcm_x as usize + 1, 5, 1)
    );
    assert_eq!(
        (discards_at, pile_at),
        (marker_at + marker_len, discards_at + 5)
    );
    // A position with tiles drawn: sales to the DCM move the marker and fill the discards.
    let mut s = played(&g, 1, 0);
    {
        let extra = s.lancashire_mut();
        extra.dcm_marker = 3;
        extra.dcm_discards = [0; 8];
        extra.dcm_discards[1] = 2;
        extra.dcm_discards[3] = 1;
        extra.dcm_pile_len -= 3;
    }
    for observer in 0..3 {
        let o = observe(&g, &s, observer);
        for k in 0..marker_len {
            assert_eq!(
                o[marker_at + k],
                if k == 3 { 1.0 } else { 0.0 },
                "marker {k}"
            );
        }
        assert_eq!(
            &o[discards_at..discards_at + 5],
            &[0.0, 0.5, 0.0, 0.25, 0.0]
        );
        assert_eq!(o[pile_at], s.lancashire().dcm_pile_len as f32 / 12.0);
        assert!(o[pile_at] > 0.0 && o[pile_at] < 1.0);
        // The blocks after the game's own start where the layout says (the game module returns its length).
        let (deck_at, _) = field(&g, "deck_size");
        assert_eq!(deck_at, pile_at + 1);
        assert_eq!(o[deck_at], s.deck_size() as f32 / g.deck_size as f32);
        assert!(o[deck_at] > 0.0);
    }
}
