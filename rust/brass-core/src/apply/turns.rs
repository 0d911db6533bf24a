//! Turns, rounds and eras (L-8 … L-12, C-4): the end of an action, of a turn, of a round (turn order,
//! income, shortfall) and the step into the next round or era.
use super::setup::draw;
use crate::game::{Game, MAX_PLAYERS};
use crate::rules::own_tiles;
use crate::state::{Decision, State, Tile};

/// The action uses its actions of the turn (a double build both); then the next action or the turn's end.
pub(super) fn finish_action(game: &Game, state: &mut State) {
    let u = state.action.take().expect("action");
    state.actions_left -= if u.double { 2 } else { 1 };
    let p = state.turn_order[state.turn as usize] as usize;
    if state.actions_left > 0 && state.players[p].hand_size() > 0 {
        state.decision = Decision::Action;
        return;
    }
    end_turn(game, state, p);
}

/// L-9: refill, then the next player (C-4: the classic rules refill at the end of the round instead).
fn end_turn(game: &Game, state: &mut State, p: usize) {
    if !game.switches.income_at_round_start {
        refill(game, state, p);
    }
    state.turn += 1;
    if state.turn < game.players {
        state.actions_left = game.actions_in(state.era, state.round);
        state.decision = Decision::Action;
        begin_turn(game, state);
    } else {
        end_round(game, state);
    }
}

fn refill(game: &Game, state: &mut State, p: usize) {
    let need = (game.hand_size as u32).saturating_sub(state.players[p].hand_size());
    draw(state, p, need);
}

/// L-8: every action discards a card, so a player holding none takes no action and the turn ends at once.
/// (Never the case in a game dealt by the rules; it keeps hand-built positions playable.)
fn begin_turn(game: &Game, state: &mut State) {
    let p = state.turn_order[state.turn as usize] as usize;
    if state.players[p].hand_size() == 0 {
        end_turn(game, state, p);
    }
}

/// The end of a round. Lancashire (L-11): turn order, income (not after the last round of the game),
/// shortfall, then the era's end or the next round. Classic (C-4): turn order, refill in the new order,
/// the era's end, then the next round's income and shortfall.
fn end_round(game: &Game, state: &mut State) {
    let n = game.players as usize;
    state.actions_left = 0;
    state.turn = game.players;
    // Least money spent first; the sort is stable, so ties keep their order.
    let mut order = [0u8; MAX_PLAYERS];
    order[..n].copy_from_slice(&state.turn_order[..n]);
    order[..n].sort_by_key(|&p| state.players[p as usize].money_spent);
    state.turn_order = order;
    for p in 0..n {
        state.players[p].money_spent = 0;
    }
    if game.switches.income_at_round_start {
        for &p in &order[..n] {
            refill(game, state, p as usize);
        }
        if state.round == game.rounds_per_era {
            super::scoring::end_era(game, state);
            if state.is_terminal() {
                return;
            }
        } else {
            state.round += 1;
        }
        collect_income(game, state);
    } else if !game.is_last_round(state.era, state.round) {
        collect_income(game, state);
    }
    shortfall(game, state);
}

/// Each player receives (or pays) their income level, in turn order (L-11.2, C-4).
fn collect_income(game: &Game, state: &mut State) {
    for i in 0..game.players as usize {
        let p = state.turn_order[i];
        let level = state.income_level(game, p);
        state.players[p as usize].money += level;
    }
}

/// L-11.3: players who could not pay remove tiles (asked when they have a choice), then lose VP; then the
/// round goes on (the era's end or the next round's first turn).
pub(super) fn shortfall(game: &Game, state: &mut State) {
    let n = game.players as usize;
    for i in 0..n {
        let p = state.turn_order[i];
        while state.players[p as usize].money < 0 {
            let tiles = own_tiles(game, state, p);
            match tiles.count_ones() {
                0 => {
                    let player = &mut state.players[p as usize];
                    player.vp = (player.vp + player.money).max(0);
                    player.money = 0;
                }
                1 => remove_for_shortfall(game, state, tiles.trailing_zeros() as u8),
                _ => {
                    state.decision = Decision::Remove;
                    return;
                }
            }
        }
    }
    if !game.switches.income_at_round_start {
        if state.round == game.rounds_per_era {
            super::scoring::end_era(game, state);
            if state.is_terminal() {
                return;
            }
        } else {
            state.round += 1;
        }
    }
    // The next round's first turn (classic: the round already began with income).
    state.turn = 0;
    state.actions_left = game.actions_in(state.era, state.round);
    state.decision = Decision::Action;
    begin_turn(game, state);
}

/// A tile removed to pay a shortfall raises half its cost, rounded down (L-11.3).
pub(super) fn remove_for_shortfall(game: &Game, state: &mut State, space: u8) {
    let tile = state.board[space as usize];
    let cost = game
        .tile_spec(tile.industry, tile.level)
        .map_or(0, |t| t.cost);
    state.set_tile(space, Tile::EMPTY);
    state.players[tile.owner as usize].money += (cost / 2) as i32;
}
