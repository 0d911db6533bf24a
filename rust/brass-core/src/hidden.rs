//! Hidden information: a state re-dealt consistently with what one player knows (for determinised
//! search such as ISMCTS).
use crate::game::{Game, MAX_CARD_KINDS};
use crate::rng::Rng;
use crate::state::State;

/// A copy of `state` in which everything `player` cannot see is redrawn from `seed`: the other players'
/// hands (same sizes), the draw pile (same size), the cards the game sets aside unseen (the deck tile) and
/// the cards removed unseen, the game's own hidden order (the DCM pile), and the state's own RNG (which
/// fixes future shuffles). What `player` sees is unchanged: their hand, every discard pile, the board, the
/// markets and everything public.
pub fn resample_hidden(game: &Game, state: &State, player: u8, seed: u64) -> State {
    let n = game.players as usize;
    let mut s = *state;
    let mut rng = Rng(seed);
    // The unseen cards, listed in card-kind order before the shuffle so the result depends only on what
    // the observer knows and the seed.
    let mut counts = [0u32; MAX_CARD_KINDS];
    for p in (0..n).filter(|&p| p != player as usize) {
        for (k, &c) in s.players[p].hand.iter().enumerate() {
            counts[k] += c as u32;
        }
    }
    for &c in &s.deck[s.deck_pos as usize..s.deck_len as usize] {
        counts[c as usize] += 1;
    }
    let aside = crate::games::set_aside_cards(&s);
    for k in 0..MAX_CARD_KINDS {
        counts[k] += aside[k] as u32 + s.removed[k] as u32;
    }
    let mut pool = Vec::new();
    for (k, &c) in counts.iter().enumerate() {
        pool.extend(std::iter::repeat_n(k as u8, c as usize));
    }
    rng.shuffle(&mut pool);
    let mut next = pool.into_iter();
    for p in (0..n).filter(|&p| p != player as usize) {
        let size = s.players[p].hand_size();
        s.players[p].hand = [0; MAX_CARD_KINDS];
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
    refill(crate::games::set_aside_cards_mut(&mut s));
    refill(&mut s.removed);
    crate::games::resample_hidden(game, &mut s, &mut rng);
    s.rng = Rng(rng.next_u64());
    s
}
