//! A new game from a seed (L-1 … L-6, C-3, C-17; the RNG order is in docs/state-format.md), and the
//! card movements set-up and era changes share.
use crate::game::{
    Era, FirstOrder, Game, Resource, MAX_CARD_KINDS, MAX_INDUSTRIES, MAX_LINES, MAX_PLAYERS,
    MAX_SPACES, NONE,
};
use crate::games;
use crate::rng::Rng;
use crate::state::{Decision, Player, State, Tile};

/// A new game from a seed.
pub fn new_state(game: &Game, seed: u64) -> State {
    let n = game.players as usize;
    let player = Player {
        money: game.start_money as i32,
        money_spent: 0,
        income_space: game.start_income_space,
        vp: 0,
        hand: [0; MAX_CARD_KINDS],
        discards: [0; MAX_CARD_KINDS],
        taken: [0; MAX_INDUSTRIES],
        links_left: game.links_per_player,
        built_industry: false,
    };
    let mut state = State {
        rng: Rng(seed),
        era: Era::Canal,
        round: 1,
        turn_order: [0; MAX_PLAYERS],
        turn: 0,
        actions_left: game.first_round_actions,
        decision: Decision::Action,
        action: None,
        players: [player; MAX_PLAYERS],
        board: [Tile::EMPTY; MAX_SPACES],
        links: [NONE; MAX_LINES],
        occupancy: crate::state::Occupancy::default(),
        markets: [
            game.market(Resource::Coal).start,
            game.market(Resource::Iron).start,
        ],
        deck: [0; crate::game::MAX_DECK],
        deck_pos: 0,
        deck_len: 0,
        removed: [0; MAX_CARD_KINDS],
        extra: games::new_extra(game),
    };
    // L-2, L-3, L-56, C-3: shuffle; the game sets cards aside (the deck tile); deal 8 each in seat order;
    // then (classic) cards from the top leave the game unseen.
    let mut deck = game.deck_list();
    state.rng.shuffle(&mut deck);
    games::after_shuffle(game, &mut state, &mut deck);
    set_deck(&mut state, &deck);
    for p in 0..n {
        draw(&mut state, p, game.hand_size as u32);
    }
    remove_unseen(&mut state, game.switches.removed_canal);
    // L-4: the game's own boards (the DCM pile).
    games::setup_boards(game, &mut state);
    // L-6: a random first turn order; C-17: a random start player, then clockwise (seat order).
    let mut order: Vec<u8> = (0..n as u8).collect();
    match game.switches.first_order {
        FirstOrder::Shuffled => state.rng.shuffle(&mut order),
        FirstOrder::RandomStartClockwise => {
            let start = state.rng.below(n as u64) as usize;
            order.rotate_left(start);
        }
    }
    state.turn_order[..n].copy_from_slice(&order);
    state
}

/// C-3, L-56: the top `n` cards of the draw pile leave the game unseen.
pub(crate) fn remove_unseen(state: &mut State, n: u8) {
    for _ in 0..n {
        if state.deck_pos == state.deck_len {
            break;
        }
        let card = state.deck[state.deck_pos as usize];
        state.deck_pos += 1;
        state.removed[card as usize] += 1;
    }
}

pub(crate) fn set_deck(state: &mut State, cards: &[u8]) {
    state.deck[..cards.len()].copy_from_slice(cards);
    state.deck_pos = 0;
    state.deck_len = cards.len() as u8;
}

/// Draw up to `n` cards from the top of the draw pile into a hand (L-9).
pub(crate) fn draw(state: &mut State, player: usize, n: u32) {
    for _ in 0..n {
        if state.deck_pos == state.deck_len {
            break;
        }
        let card = state.deck[state.deck_pos as usize];
        state.deck_pos += 1;
        state.players[player].hand[card as usize] += 1;
    }
}

/// A new era's cards (L-51, C-3, L-56): every card shuffled into a new deck, hands and discards emptied,
/// 8 dealt to each seat, then (classic) cards from the top leave the game unseen.
pub(crate) fn deal_new_era(game: &Game, state: &mut State) {
    let n = game.players as usize;
    let mut deck = game.deck_list();
    state.rng.shuffle(&mut deck);
    set_deck(state, &deck);
    state.removed = [0; MAX_CARD_KINDS];
    for p in 0..n {
        state.players[p].discards = [0; MAX_CARD_KINDS];
        state.players[p].hand = [0; MAX_CARD_KINDS];
    }
    for p in 0..n {
        draw(state, p, game.hand_size as u32);
    }
    remove_unseen(state, game.switches.removed_rail);
}
