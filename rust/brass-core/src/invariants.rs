//! `validate`: every invariant of a state (docs/state-format.md, "Validation"). Run on every `from_json`,
//! after every checked `apply` in debug and test builds, and on demand (`State.validate()` in Python).
use crate::error::{Error, Result};
use crate::game::{Game, MAX_CARD_KINDS, MAX_DCM_TILES, MAX_DECK, MAX_PLAYERS, NONE};
use crate::json;
use crate::state::State;

fn broken(what: &str) -> Error {
    Error::InvalidState(format!("corrupt state: {what}"))
}

/// Check the in-memory layout that the JSON form cannot show, then every rule invariant with the same
/// checks as the JSON loader (`json::check_state`) (money and VP not negative outside a shortfall, tiles per player within the
/// mat's stacks, one link per line and 14 link tiles each, markets within their spaces, cards conserved
/// against the deck, a permutation as turn order, income space on the track, a decision that fits the
/// action under way and has a legal action...).
pub fn validate(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    if state.deck_pos > state.deck_len || state.deck_len as usize > MAX_DECK {
        return Err(broken("draw pile bounds"));
    }
    if state.deck[state.deck_pos as usize..state.deck_len as usize]
        .iter()
        .any(|&c| c as usize >= game.card_kinds.len())
    {
        return Err(broken("unknown card in the draw pile"));
    }
    if state.dcm_pile_len as usize > MAX_DCM_TILES || state.dcm_pile().iter().any(|&t| t > 7) {
        return Err(broken("DCM pile"));
    }
    if state.turn_order[..n].iter().any(|&p| p as usize >= n) || n > MAX_PLAYERS {
        return Err(broken("turn order"));
    }
    for (i, p) in state.players.iter().enumerate() {
        let unused = i >= n;
        let cards_beyond = p.hand[game.card_kinds.len()..]
            .iter()
            .chain(&p.discards[game.card_kinds.len()..])
            .any(|&c| c > 0);
        if cards_beyond || (unused && p.hand_size() > 0) {
            return Err(broken("cards outside the game's card kinds or seats"));
        }
        if !unused
            && p.taken[..game.industries.len()]
                .iter()
                .zip(&game.stacks)
                .any(|(&t, s)| t as usize > s.len())
        {
            return Err(broken("more tiles taken than the mat holds"));
        }
    }
    if state.deck_tile[game.card_kinds.len()..MAX_CARD_KINDS]
        .iter()
        .any(|&c| c > 0)
    {
        return Err(broken("deck tile cards outside the game's card kinds"));
    }
    for (s, t) in state.board.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        let on_map = s < game.spaces.len();
        if !on_map
            || t.owner as usize >= n
            || t.industry as usize >= game.industries.len()
            || game.tile_spec(t.industry, t.level).is_none()
        {
            return Err(broken(
                "a tile off the map, of no player, or of no industry level",
            ));
        }
    }
    if state.links[game.lines.len()..].iter().any(|&o| o != NONE)
        || state.links[..game.lines.len()]
            .iter()
            .any(|&o| o != NONE && o as usize >= n)
    {
        return Err(broken("links"));
    }
    if let Some(u) = state.action {
        let max_target = match u.kind {
            crate::state::ActionKind::Link => game.lines.len(),
            _ => game.spaces.len(),
        };
        if u.target != NONE && u.target as usize >= max_target {
            return Err(broken("action target"));
        }
        if u.first_card != NONE && u.first_card as usize >= game.card_kinds.len() {
            return Err(broken("action first card"));
        }
    }
    json::check_state(game, state)
}
