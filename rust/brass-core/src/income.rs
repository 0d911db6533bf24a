//! Money and income, as every game uses them: money spent (L-5), the income track (L-43, L-48), a tile
//! flipped (its owner's income advances, L-20, L-28, L-41) and a cube taken from a mine or works (it flips
//! when emptied, L-20).
use crate::game::Game;
use crate::state::State;

/// Pay `amount` (L-5: money spent this round decides the next turn order).
pub(crate) fn spend(state: &mut State, p: usize, amount: u32) {
    state.players[p].money -= amount as i32;
    state.players[p].money_spent += amount as i32;
}

/// Advance a player's income marker by `spaces`, stopping at the last space (L-43, L-48).
pub(crate) fn gain_income(game: &Game, state: &mut State, player: u8, spaces: u8) {
    let p = &mut state.players[player as usize];
    p.income_space =
        (p.income_space as u16 + spaces as u16).min(game.last_track_space() as u16) as u8;
}

/// Flip a tile; its owner's income advances by the tile's income (L-20, L-28, L-41).
pub(crate) fn flip(game: &Game, state: &mut State, space: u8) {
    let tile = &mut state.board[space as usize];
    tile.flipped = true;
    let (owner, industry, level) = (tile.owner, tile.industry, tile.level);
    let income = game.tile_spec(industry, level).map_or(0, |t| t.income);
    gain_income(game, state, owner, income);
}

/// Take one cube from a mine or works; it flips when emptied, whoever took it (L-20).
pub(crate) fn take_cube(game: &Game, state: &mut State, space: u8) {
    let tile = &mut state.board[space as usize];
    tile.cubes -= 1;
    if tile.cubes == 0 {
        flip(game, state, space);
    }
}
