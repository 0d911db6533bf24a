//! Hidden information: a state re-dealt consistently with what one player knows (for determinised
//! search such as ISMCTS).
use crate::game::{Game, MAX_CARD_KINDS};
use crate::rng::Rng;
use crate::rules::card_choices;
use crate::state::{Decision, State};

/// Re-deals drawn before the current player's hand is left as it is (see [`resample_hidden`]).
const MAX_DEALS: usize = 1000;

/// A copy of `state` in which everything `player` cannot see is redrawn from `seed`: the other players'
/// hands (same sizes), the draw pile (same size), the cards the game sets aside unseen (the deck tile) and
/// the cards removed unseen, the game's own hidden order (the DCM pile), and the state's own RNG (which
/// fixes future shuffles). What `player` sees is unchanged: their hand, every discard pile, the board, the
/// markets and everything public.
///
/// Everything public is also respected when another player is in the middle of an action: everyone knows
/// that player holds a card that can pay for it (the build's cards, a double build's second card, Scout's
/// remaining cards), and two or more kinds of such cards when the player is being asked which card to
/// play. Deals that break this are drawn again (rejection keeps the deals equally likely among those
/// consistent with what `player` knows); in the rare case that [`MAX_DEALS`] deals all fail, that
/// player's hand is kept as it is and everything else is redrawn.
pub fn resample_hidden(game: &Game, state: &State, player: u8, seed: u64) -> State {
    Redealer::new(game, state, player).deal(game, seed)
}

/// [`resample_hidden`] of one state for one observer, dealt again and again (a determinised search deals its
/// root once per iteration): the unseen cards are counted once, and each deal only shuffles and deals them.
/// `deal(game, seed)` gives exactly `resample_hidden(game, state, player, seed)`; `game` must be the one it
/// was made with.
#[derive(Clone, Debug)]
pub struct Redealer {
    state: State,
    /// The player whose pending card payment the deal must respect.
    paying: Option<u8>,
    redealt: [bool; crate::game::MAX_PLAYERS],
    unseen: Vec<u8>,
    pool: Vec<u8>,
}

impl Redealer {
    /// What `player` cannot see in `state`, counted once for every deal.
    pub fn new(game: &Game, state: &State, player: u8) -> Redealer {
        let paying = state
            .current_player(game)
            .filter(|&c| c != player && state.action.is_some());
        let mut redealt = [false; crate::game::MAX_PLAYERS];
        for (p, r) in redealt.iter_mut().enumerate().take(game.players as usize) {
            *r = p != player as usize;
        }
        let unseen = unseen_cards(game, state, &redealt);
        Redealer {
            state: *state,
            paying,
            redealt,
            pool: Vec::with_capacity(unseen.len()),
            unseen,
        }
    }

    /// The state re-dealt from `seed` ([`resample_hidden`]).
    pub fn deal(&mut self, game: &Game, seed: u64) -> State {
        let mut s = self.state;
        self.deal_into(game, seed, &mut s);
        s
    }

    /// [`deal`](Redealer::deal) written over `s` (a search deals thousands of times a decision: this saves
    /// copying the 2 KB state out and back).
    pub fn deal_into(&mut self, game: &Game, seed: u64, s: &mut State) {
        let state = &self.state;
        let mut rng = Rng(seed);
        let mut deals = 0;
        loop {
            *s = *state;
            self.pool.clear();
            self.pool.extend_from_slice(&self.unseen);
            rng.shuffle(&mut self.pool);
            deal(game, s, &self.redealt, &self.pool);
            let ok = match self.paying {
                Some(c) => can_pay(s, c),
                None => true,
            };
            deals += 1;
            if ok {
                break;
            }
            if deals == MAX_DEALS {
                // That player's hand is kept; everything else is redrawn.
                let c = self.paying.expect("only a paying player fails") as usize;
                let mut redealt = self.redealt;
                redealt[c] = false;
                *s = *state;
                let mut pool = unseen_cards(game, state, &redealt);
                rng.shuffle(&mut pool);
                deal(game, s, &redealt, &pool);
                break;
            }
        }
        crate::games::resample_hidden(game, s, &mut rng);
        s.rng = Rng(rng.next_u64());
    }
}

/// Whether going from `before` to `after` (one action) touched what `observer` cannot see: a card drawn, a
/// shuffle (the state's RNG moved), another player's hand, the cards set aside or removed, the game's own hidden
/// order. When it did not, the action's result is the same in every deal consistent with what `observer` knows
/// (up to the hidden cards themselves), so a determinised search may deal the hidden cards after it instead of
/// before (`puct`).
pub fn touches_hidden(game: &Game, before: &State, after: &State, observer: u8) -> bool {
    before.rng != after.rng
        || before.deck_pos != after.deck_pos
        || before.deck_len != after.deck_len
        || before.removed != after.removed
        || crate::games::set_aside_cards(before) != crate::games::set_aside_cards(after)
        || crate::games::hidden_order_differs(before, after)
        || (0..game.players as usize)
            .filter(|&p| p != observer as usize)
            .any(|p| before.players[p].hand != after.players[p].hand)
}

/// Whether `player`, in the middle of an action, still holds what everyone knows they hold: a card that
/// can pay for the action, and two or more kinds of them at a `card` decision.
fn can_pay(state: &State, player: u8) -> bool {
    let kinds = card_choices(state, player).count_ones();
    if state.decision == Decision::Card {
        kinds >= 2
    } else {
        kinds >= 1
    }
}

/// Wild cards in hands are public (taken openly by Scout, B-17): they are never redealt.
fn is_hidden(game: &Game, kind: usize) -> bool {
    kind < game.card_kinds.len() && !game.is_wild(kind as u8)
}

/// The cards being redealt — the hidden cards of the `redealt` hands, the draw pile, the cards set aside and
/// the removed cards — listed in card-kind order so the result depends only on what the observer knows
/// and the seed.
fn unseen_cards(game: &Game, state: &State, redealt: &[bool]) -> Vec<u8> {
    let mut counts = [0u32; MAX_CARD_KINDS];
    for p in (0..game.players as usize).filter(|&p| redealt[p]) {
        for (k, &c) in state.players[p].hand.iter().enumerate() {
            if is_hidden(game, k) {
                counts[k] += c as u32;
            }
        }
    }
    for &c in &state.deck[state.deck_pos as usize..state.deck_len as usize] {
        counts[c as usize] += 1;
    }
    let aside = crate::games::set_aside_cards(state);
    for k in 0..MAX_CARD_KINDS {
        counts[k] += aside[k] as u32 + state.removed[k] as u32;
    }
    let mut pool = Vec::new();
    for (k, &c) in counts.iter().enumerate() {
        pool.extend(std::iter::repeat_n(k as u8, c as usize));
    }
    pool
}

/// Deal the shuffled `pool` back: the `redealt` hands (same sizes), the draw pile, the cards set aside, the
/// removed cards.
fn deal(game: &Game, s: &mut State, redealt: &[bool], pool: &[u8]) {
    let mut next = pool.iter().copied();
    for p in (0..game.players as usize).filter(|&p| redealt[p]) {
        let hand = &mut s.players[p].hand;
        let mut size = 0;
        for (k, c) in hand.iter_mut().enumerate() {
            if is_hidden(game, k) {
                size += *c as u32;
                *c = 0;
            }
        }
        for _ in 0..size {
            let k = next.next().expect("pool holds every unseen card");
            s.players[p].hand[k as usize] += 1;
        }
    }
    for i in s.deck_pos as usize..s.deck_len as usize {
        s.deck[i] = next.next().expect("pool holds every unseen card");
    }
    let mut refill = |pile: &mut [u8; MAX_CARD_KINDS]| {
        let size: u32 = pile.iter().map(|&c| c as u32).sum();
        *pile = [0; MAX_CARD_KINDS];
        for _ in 0..size {
            let k = next.next().expect("pool holds every unseen card");
            pile[k as usize] += 1;
        }
    };
    if let Some(aside) = crate::games::set_aside_cards_mut(s) {
        refill(aside);
    }
    refill(&mut s.removed);
}
