//! The choices of the follow-up decisions: where coal and iron come from (L-16, L-18, C-14), which card
//! pays (docs/actions.md, "Cards"), which tile a shortfall removes (L-11).
use crate::game::{Game, RailCoal, Resource, NONE};
use crate::network::{adjacency, closest_coal};
use crate::state::{ActionKind, State};

/// The coal mines the player may take the next coal from (L-16); a decision when there are two or more.
/// A rail's coal in classic Brass (C-14, R-15): the player chooses the end that receives it, so the
/// choices are the closest mines to either end, each end measured on its own.
pub fn coal_choices(game: &Game, state: &State) -> u64 {
    let Some(u) = state.action else { return 0 };
    let adj = adjacency(game, state);
    if u.kind == ActionKind::Link && game.switches.rail_coal == RailCoal::ChosenEnd {
        return game.lines[u.target as usize].ends.iter().fold(0, |m, &e| {
            m | closest_coal(game, state, &adj, 1 << e, NONE).0
        });
    }
    let consumers = consumer_locations(game, u.kind, u.target);
    closest_coal(game, state, &adj, consumers, NONE).0
}

/// The locations a coal cube must reach for the action under way: the build location or the ends of
/// the rail link just placed (L-16, L-36).
pub fn consumer_locations(game: &Game, kind: ActionKind, target: u8) -> u64 {
    match kind {
        ActionKind::Link => game.lines[target as usize].ends(),
        _ => 1u64 << game.spaces[target as usize].location,
    }
}

/// Unflipped tiles producing `resource` that still hold cubes, as a bitmask of spaces (L-18: iron
/// comes from any of them, connected or not).
pub fn works_with_cubes(game: &Game, state: &State, resource: Resource) -> u64 {
    let mut works = state.tiles_of_industry(game.producer(resource));
    let mut m = 0u64;
    while works != 0 {
        let s = works.trailing_zeros();
        works &= works - 1;
        if state.board[s as usize].cubes > 0 {
            m |= 1 << s;
        }
    }
    m
}

/// The card kinds the current player may discard at a `card` decision (docs/actions.md, "Cards").
pub fn card_choices(state: &State, player: u8) -> u32 {
    let p = &state.players[player as usize];
    let hand = p.hand_kinds();
    let Some(u) = state.action else { return 0 };
    if u.kind == ActionKind::Scout {
        // B-17: three cards, an unordered set: each of a kind not lower than the last, with enough cards of
        // that kind or later ones left for the rest.
        let left = (crate::actions::SCOUT_CARDS - u.count) as u32;
        let from = if u.first_card == NONE {
            0
        } else {
            u.first_card as usize
        };
        let mut m = 0;
        // Cards of kind k or a later kind, counted over the kinds in hand only (the others add nothing and are
        // never offered), highest first.
        let mut from_here = 0u32;
        let mut kinds = hand & !((1u32 << from) - 1);
        while kinds != 0 {
            let k = 31 - kinds.leading_zeros() as usize;
            kinds &= !(1 << k);
            from_here += p.hand[k] as u32;
            if from_here >= left {
                m |= 1 << k;
            }
        }
        return m;
    }
    if u.double {
        if u.first_card == NONE {
            // The lower card of the pair: a kind with a second card of the same or a later kind, so every kind in
            // hand below the highest, and the highest when two of it are held.
            if hand == 0 {
                return 0;
            }
            let highest = 31 - hand.leading_zeros();
            let below_highest = hand & ((1u32 << highest) - 1);
            if p.hand[highest as usize] >= 2 {
                below_highest | 1 << highest
            } else {
                below_highest
            }
        } else {
            hand & !((1u32 << u.first_card) - 1)
        }
    } else {
        match u.cards {
            Some(mask) => mask & hand,
            None => hand,
        }
    }
}

/// Spaces holding the player's tiles (shortfall choices, L-11).
pub fn own_tiles(game: &Game, state: &State, player: u8) -> u64 {
    debug_assert!((player as usize) < game.players as usize);
    state.occupancy.tiles_of[player as usize]
}
