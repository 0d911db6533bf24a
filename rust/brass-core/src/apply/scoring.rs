//! Scoring and the end of an era (L-49 … L-54): links and flipped tiles, the new era's set-up, the final
//! scoring, the winners and each player's result.
use super::setup::deal_new_era;
use crate::game::{Era, Game, MAX_PLAYERS, NONE};
use crate::state::{Decision, State, Tile};

/// Link VP icons at a location: the printed ones plus those printed on each flipped tile there, of any
/// owner (L-49: one per tile; B-19: per tile kind; unflipped tiles show none, K3).
pub fn link_icons(game: &Game, state: &State, location: u8) -> i32 {
    let loc = &game.locations[location as usize];
    let on_tiles: i32 = loc
        .spaces()
        .map(|s| state.board[s as usize])
        .filter(|t| !t.is_empty() && t.flipped)
        .map(|t| {
            game.tile_spec(t.industry, t.level)
                .map_or(0, |x| x.link_icons) as i32
        })
        .sum();
    loc.printed_link_icons as i32 + on_tiles
}

/// The VP a link on `line` scores: the link icons of all its ends (L-49).
fn link_vp(game: &Game, state: &State, line: u8) -> i32 {
    game.lines[line as usize]
        .ends
        .iter()
        .map(|&e| link_icons(game, state, e))
        .sum()
}

/// L-49, L-50: score every link (the link tiles go back to their owners: the original rulebook has the
/// canal tiles taken back) and every flipped tile.
fn score_era(game: &Game, state: &mut State) {
    for i in 0..game.lines.len() {
        let owner = state.links[i];
        if owner != NONE {
            let vp = link_vp(game, state, i as u8);
            state.players[owner as usize].vp += vp;
        }
    }
    for i in 0..game.lines.len() {
        let owner = state.links[i];
        if owner != NONE {
            state.players[owner as usize].links_left += 1;
            state.set_link(i as u8, NONE);
        }
    }
    for s in 0..game.spaces.len() {
        let t = state.board[s];
        if !t.is_empty() && t.flipped {
            state.players[t.owner as usize].vp += tile_vp(game, &t);
        }
    }
}

fn tile_vp(game: &Game, t: &Tile) -> i32 {
    game.tile_spec(t.industry, t.level).map_or(0, |x| x.vp) as i32
}

/// L-49 … L-52, L-54: score the era; end the game after its last era, or set up the Rail Era (L-51, C-16).
pub(super) fn end_era(game: &Game, state: &mut State) {
    score_era(game, state);
    if state.era == game.switches.last_era {
        final_scoring(game, state);
        state.decision = Decision::Over;
        return;
    }
    // L-51, C-16: level-1 tiles leave the board; the game's own boards (DCM); a new deck and deal.
    for s in 0..game.spaces.len() {
        if !state.board[s].is_empty() && state.board[s].level == 1 {
            state.set_tile(s as u8, Tile::EMPTY);
        }
    }
    crate::games::new_era(game, state);
    deal_new_era(game, state);
    state.era = Era::Rail;
    state.round = 1;
}

/// After the last era: the introductory game's extra scoring (L-54), or 1 VP per full £10 (L-52).
fn final_scoring(game: &Game, state: &mut State) {
    let n = game.players as usize;
    if game.switches.intro {
        for p in 0..n {
            let level = state.income_level(game, p as u8);
            let pl = &mut state.players[p];
            pl.vp += (pl.money / 4).min(15);
            pl.vp = (pl.vp + level).max(0);
        }
        for s in 0..game.spaces.len() {
            let t = state.board[s];
            if !t.is_empty() && t.flipped && t.level >= 2 {
                state.players[t.owner as usize].vp += tile_vp(game, &t);
            }
        }
    } else if game.switches.money_vp {
        for p in 0..n {
            state.players[p].vp += state.players[p].money / 10;
        }
    }
}

/// The final ranking key of each player (L-53, R-4): VP, then income level, then money; the track space
/// within an income level is not a tie-break (R-4, the Lancashire rulebook). Classic Brass (C-15): then the
/// earlier place in the next turn order, so there is always one winner. Greater is better.
fn ranking_keys(game: &Game, state: &State) -> Vec<(i32, i32, i32, std::cmp::Reverse<usize>)> {
    let n = game.players as usize;
    (0..game.players)
        .map(|p| {
            let pl = &state.players[p as usize];
            let position = if game.switches.tie_break_turn_order {
                state.turn_order[..n]
                    .iter()
                    .position(|&q| q == p)
                    .unwrap_or(n)
            } else {
                0
            };
            (
                pl.vp,
                state.income_level(game, p),
                pl.money,
                std::cmp::Reverse(position),
            )
        })
        .collect()
}

/// Final ranking (L-53, R-4, C-15): the players first on every tie-break share the win.
pub fn winners(game: &Game, state: &State) -> Vec<u8> {
    placings(game, state)
        .iter()
        .enumerate()
        .filter(|&(_, &place)| place == 0)
        .map(|(p, _)| p as u8)
        .collect()
}

/// Each player's place at the end (0 first), by the tie-breaks of [`winners`]: the number of players
/// ranked strictly ahead, so players tied on every tie-break share a place (1st, 1st, 3rd, …). Empty
/// before the game is over.
pub fn placings(game: &Game, state: &State) -> Vec<u8> {
    if !state.is_terminal() {
        return Vec::new();
    }
    let keys = ranking_keys(game, state);
    keys.iter()
        .map(|k| keys.iter().filter(|other| *other > k).count() as u8)
        .collect()
}

/// Each player's result, zero-sum (docs/api.md, "Returns"): with n players of whom k share the win, each
/// winner gets (n/k − 1)/(n − 1) and every other player −1/(n − 1), so the results sum to 0 (a sole
/// winner +1; at two players +1 / −1; a win shared by all 0 each). All 0 before the game is over.
pub fn returns(game: &Game, state: &State) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    let winners = winners(game, state);
    if winners.is_empty() {
        return out;
    }
    let n = game.players as f64;
    let k = winners.len() as f64;
    for r in out.iter_mut().take(game.players as usize) {
        *r = -1.0 / (n - 1.0);
    }
    for &w in &winners {
        out[w as usize] = (n / k - 1.0) / (n - 1.0);
    }
    out
}
