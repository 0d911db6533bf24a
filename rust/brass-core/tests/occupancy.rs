//! The occupancy summary of a position (`State::occupancy`: per player the spaces of their tiles and the lines
//! of their links, per industry the spaces of its tiles), which the rules read instead of scanning the board
//! (docs/performance.md). It must equal what the board and links say after every change the rules make, and a
//! state written by hand is refused until it is refreshed.
use brass_core::invariants::check_state;
use brass_core::sample::Sampler;
use brass_core::state::{Occupancy, Tile};
use brass_core::{apply, Game, Rng};
use std::collections::BTreeMap;

#[test]
fn occupancy_is_current_after_every_decision_of_random_games_in_every_game() {
    let mut ids = Vec::new();
    for (name, players) in [
        ("lancashire", 2),
        ("lancashire", 4),
        ("brass", 3),
        ("brass", 4),
        ("birmingham", 2),
        ("birmingham", 4),
    ] {
        let game = Game::new(name, players, &BTreeMap::new()).unwrap();
        // Tiles leave the board at the Canal Era's end (L-51) and for shortfalls (L-11); links at the era's
        // end: the runs must pass through both.
        let (mut tiles_removed, mut links_removed) = (0, 0);
        for seed in 0..4 {
            let mut state = apply::new_state(&game, seed);
            let mut rng = Rng(seed + 50);
            while !state.is_terminal() {
                let id = Sampler::Draw.pick(&game, &state, &mut rng, &mut ids);
                let (tiles, links) = (
                    state.occupancy.occupied().count_ones(),
                    state.occupancy.placed_links().count_ones(),
                );
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
                assert_eq!(
                    state.occupancy,
                    Occupancy::of(&state.board, &state.links),
                    "{name} {players}p seed {seed}: after {}",
                    game.action_name(id as i64).unwrap()
                );
                tiles_removed += (state.occupancy.occupied().count_ones() < tiles) as u32;
                links_removed += (state.occupancy.placed_links().count_ones() < links) as u32;
            }
        }
        assert!(tiles_removed > 0 && links_removed > 0, "{name} {players}p");
    }
}

/// A position after 150 random decisions of Lancashire (tiles and links on the board).
fn midgame() -> (Game, brass_core::State) {
    let game = Game::new("lancashire", 3, &BTreeMap::new()).unwrap();
    let mut state = apply::new_state(&game, 5);
    let (mut rng, mut ids) = (Rng(9), Vec::new());
    for _ in 0..150 {
        let id = Sampler::List.pick(&game, &state, &mut rng, &mut ids);
        apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
    }
    assert!(state.occupancy.occupied() != 0 && state.occupancy.placed_links() != 0);
    (game, state)
}

#[test]
fn a_board_written_directly_is_refused_until_the_occupancy_is_refreshed() {
    let (game, mut state) = midgame();
    assert!(check_state(&game, &state).is_ok());
    let space = state.occupancy.occupied().trailing_zeros() as usize;
    let tile = state.board[space];
    state.board[space] = Tile::EMPTY;
    assert!(!state.occupancy_is_current());
    let err = check_state(&game, &state).unwrap_err().to_string();
    assert!(err.contains("refresh_occupancy"), "{err}");
    state.refresh_occupancy();
    assert!(state.occupancy_is_current());
    assert_eq!(
        state.occupancy.tiles_of[tile.owner as usize] & (1 << space),
        0
    );
    assert_eq!(
        state.occupancy.industry_spaces[tile.industry as usize] & (1 << space),
        0
    );
}

#[test]
fn set_tile_and_set_link_move_the_bits_between_players_and_industries() {
    let (game, mut state) = midgame();
    let space = state.occupancy.occupied().trailing_zeros() as u8;
    let old = state.board[space as usize];
    let other = (old.owner + 1) % game.players;
    // Another player's tile of another industry on the same space (an overbuild, as far as the bits go).
    let industry = (old.industry + 1) % game.industries.len() as u8;
    state.set_tile(
        space,
        Tile {
            owner: other,
            industry,
            ..old
        },
    );
    assert!(state.occupancy_is_current());
    let bit = 1u64 << space;
    assert_eq!(state.occupancy.tiles_of[old.owner as usize] & bit, 0);
    assert_eq!(state.occupancy.tiles_of[other as usize] & bit, bit);
    assert_eq!(
        state.occupancy.industry_spaces[old.industry as usize] & bit,
        0
    );
    assert_eq!(
        state.occupancy.industry_spaces[industry as usize] & bit,
        bit
    );
    state.set_tile(space, Tile::EMPTY);
    assert!(state.occupancy_is_current());
    assert_eq!(state.occupancy.occupied() & bit, 0);

    let line = state.occupancy.placed_links().trailing_zeros() as u8;
    let owner = state.links[line as usize];
    let other = (owner + 1) % game.players;
    state.set_link(line, other);
    assert!(state.occupancy_is_current());
    assert_eq!(state.occupancy.links_of[owner as usize] & (1 << line), 0);
    assert_eq!(
        state.occupancy.links_of[other as usize] & (1 << line),
        1 << line
    );
    state.set_link(line, brass_core::game::NONE);
    assert!(state.occupancy_is_current());
    assert_eq!(state.occupancy.placed_links() & (1 << line), 0);
}

#[test]
fn an_owner_out_of_range_written_by_hand_is_refused_not_a_panic() {
    let (game, mut state) = midgame();
    let space = state.occupancy.occupied().trailing_zeros() as usize;
    state.board[space].owner = 9;
    state.refresh_occupancy();
    assert!(check_state(&game, &state).is_err());
    state.set_tile(space as u8, Tile::EMPTY);
    state.set_link(0, 9);
    assert!(check_state(&game, &state).is_err());
}
