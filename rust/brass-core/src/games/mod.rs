//! The games, one module each, over the shared mechanics (network, markets, resources, cards, turns,
//! rounds and eras, scoring): each module holds what only its game has — where goods are sold, its own
//! configuration block ([`Variant`]) and its own small `Copy` block of the position ([`Extra`]). The shared
//! code reaches a game's rules through the small enum dispatch below (docs/architecture.md).
use crate::context::Ctx;
use crate::error::{Result, Why};
use crate::game::{Game, SaleTarget, MAX_CARD_KINDS};
use crate::state::{State, Underway};

pub mod birmingham;
pub mod lancashire;

pub use crate::game::family::{Extra, Family, Variant};

/// No cards set aside (a game without a deck tile).
static NO_CARDS: [u8; MAX_CARD_KINDS] = [0; MAX_CARD_KINDS];

/// An empty per-game block for a new position.
pub fn new_extra(game: &Game) -> Extra {
    match &game.variant {
        Variant::Lancashire(_) => Extra::Lancashire(lancashire::Extra::EMPTY),
        Variant::Birmingham(_) => Extra::Birmingham(birmingham::Extra::EMPTY),
    }
}

/// The name of a merchant space (`oxford/2`).
pub fn merchant_space_name(game: &Game, m: u8) -> &str {
    game.merchant_space_name(m)
}

/// The merchant space with this name, in a game with merchants.
pub fn merchant_space_by_name(game: &Game, name: &str) -> Option<u8> {
    game.merchant_space_by_name(name)
}

// --- set-up and eras ----------------------------------------------------------------------------------

/// Set-up after the deck is shuffled, before the deal (L-3: the deck tile).
pub fn after_shuffle(game: &Game, state: &mut State, deck: &mut Vec<u8>) {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::set_aside_deck_tile(c, state.lancashire_mut(), deck),
        Variant::Birmingham(_) => {}
    }
}

/// Set-up of the game's own boards after the deal (L-4: the DCM pile; B-3: the merchant tiles).
pub fn setup_boards(game: &Game, state: &mut State) {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::shuffle_dcm(c, state),
        Variant::Birmingham(c) => birmingham::place_merchant_tiles(c, state),
    }
}

/// The game's own part of the new era, before the new deck (L-51: the DCM and the deck tile; B-20: the
/// merchant barrels).
pub fn new_era(game: &Game, state: &mut State) {
    match &game.variant {
        Variant::Lancashire(c) => {
            lancashire::shuffle_dcm(c, state);
            lancashire::clear_deck_tile(state);
        }
        Variant::Birmingham(c) => birmingham::refill_beer(c, state),
    }
}

/// Cards the game sets aside unseen outside hands, discards, draw pile and `removed` (the deck tile), by
/// kind.
pub fn set_aside_cards(state: &State) -> &[u8; MAX_CARD_KINDS] {
    match &state.extra {
        Extra::Lancashire(e) => &e.deck_tile,
        Extra::Birmingham(_) => &NO_CARDS,
    }
}

/// The same, to change (None in a game without them).
pub fn set_aside_cards_mut(state: &mut State) -> Option<&mut [u8; MAX_CARD_KINDS]> {
    match &mut state.extra {
        Extra::Lancashire(e) => Some(&mut e.deck_tile),
        Extra::Birmingham(_) => None,
    }
}

/// Redraw the game's own hidden information (`hidden::resample_hidden`): the DCM pile's order.
pub fn resample_hidden(game: &Game, state: &mut State, rng: &mut crate::rng::Rng) {
    match &game.variant {
        Variant::Lancashire(_) => {
            let extra = state.lancashire_mut();
            let len = extra.dcm_pile_len as usize;
            extra.dcm_pile[..len].sort_unstable();
            rng.shuffle(&mut extra.dcm_pile[..len]);
        }
        Variant::Birmingham(_) => {}
    }
}

/// Whether the game's own hidden information (what [`resample_hidden`] redraws: the DCM pile's order) differs
/// between two states.
pub fn hidden_order_differs(a: &State, b: &State) -> bool {
    match (&a.extra, &b.extra) {
        (Extra::Lancashire(x), Extra::Lancashire(y)) => {
            x.dcm_pile_len != y.dcm_pile_len || x.dcm_pile != y.dcm_pile
        }
        _ => false,
    }
}

// --- the rules that differ ---------------------------------------------------------------------------------

/// The locations an industry card reaches from a network (C-7, L-55: the virtual link).
pub fn industry_card_network(game: &Game, network: u64) -> u64 {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::industry_card_network(c, network),
        Variant::Birmingham(_) => network,
    }
}

/// Can the tile on `tile` be sold to `target` now (the tile already checked to be the player's own
/// unflipped tile of a sold industry)?
pub fn check_sale(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    tile: u8,
    target: SaleTarget,
) -> std::result::Result<(), Why> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::check_sale(game, c, state, ctx, tile, target),
        Variant::Birmingham(c) => birmingham::check_sale(game, c, state, ctx, tile, target),
    }
}

/// The targets [`check_sale`] accepts for the tile on `tile` (the player's own unflipped tile of a sold
/// industry), as a bitmask of indices into `layout.sale_targets` (fewer than 64 in every game): one call per
/// tile instead of one per target.
pub fn sale_target_mask(game: &Game, state: &State, ctx: &Ctx, tile: u8) -> u64 {
    let targets = &game.layout.sale_targets;
    debug_assert!(targets.len() <= 64);
    let mut mask = 0u64;
    match &game.variant {
        Variant::Lancashire(c) => {
            for (i, &target) in targets.iter().enumerate() {
                if lancashire::check_sale(game, c, state, ctx, tile, target).is_ok() {
                    mask |= 1 << i;
                }
            }
        }
        Variant::Birmingham(c) => {
            for (i, &target) in targets.iter().enumerate() {
                if birmingham::check_sale(game, c, state, ctx, tile, target).is_ok() {
                    mask |= 1 << i;
                }
            }
        }
    }
    mask
}

/// The barrels a sale of the tile on `tile` needs (B-15; none in Lancashire).
pub fn sale_beer(game: &Game, state: &State, tile: u8) -> u8 {
    match &game.variant {
        Variant::Lancashire(_) => 0,
        Variant::Birmingham(_) => {
            let t = state.board[tile as usize];
            game.tile_spec(t.industry, t.level).map_or(0, |s| s.beer)
        }
    }
}

/// Where the next barrel of the action under way may come from: brewery spaces and merchant spaces (B-8,
/// B-25); none in a game without beer.
pub fn beer_choices(game: &Game, state: &State) -> (u64, u16) {
    match &game.variant {
        Variant::Lancashire(_) => (0, 0),
        Variant::Birmingham(_) => birmingham::beer_choices(game, state),
    }
}

/// Can a second rail on `line` have its barrel (B-13)? Never in a game without beer.
pub fn rail_beer_available(game: &Game, state: &State, ctx: &Ctx, line: u8) -> bool {
    match &game.variant {
        Variant::Lancashire(_) => false,
        Variant::Birmingham(_) => birmingham::rail_beer_available(game, state, ctx, line),
    }
}

/// Take the barrel beside the merchant tile on merchant space `m` (B-25).
pub fn take_merchant_beer(game: &Game, state: &mut State, m: u8) {
    match &game.variant {
        Variant::Lancashire(_) => unreachable!("Lancashire has no merchant barrels"),
        Variant::Birmingham(_) => birmingham::take_merchant_beer(state, m),
    }
}

/// The industries a free develop bonus may take now (B-26, Gloucester), as a bitmask; none in a game
/// without merchant bonuses.
pub fn bonus_industries(game: &Game, state: &State, p: u8) -> u8 {
    match &game.variant {
        Variant::Lancashire(_) => 0,
        Variant::Birmingham(_) => birmingham::bonus_industries(game, state, p),
    }
}

/// The state's sale under way (at a `beer` or `bonus` decision) fits the game's targets (invariants).
pub fn check_sale_under_way(game: &Game, state: &State, u: Underway) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(_) => Ok(()),
        Variant::Birmingham(c) => birmingham::check_sale_under_way(game, c, state, u),
    }
}

/// The target's part of one sale, before the tile flips; false when the sale fails and ends the action
/// (L-42).
pub fn sell_to(game: &Game, state: &mut State, p: u8, target: SaleTarget) -> bool {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::sell(game, c, state, p, target),
        Variant::Birmingham(_) => true,
    }
}

/// After a sale's flip: its merchant bonus (B-26). True when a `bonus` decision must be asked.
pub fn after_sale(game: &Game, state: &mut State, p: u8, u: &Underway) -> bool {
    match (&game.variant, game.layout.sale_targets[u.sale as usize]) {
        (Variant::Birmingham(c), SaleTarget::Merchant(m)) if u.merchant_beer => {
            birmingham::merchant_bonus(game, c, state, p, m)
        }
        _ => false,
    }
}

// --- the state JSON and its invariants ----------------------------------------------------------------

/// The state keys the game adds to the shared ones.
pub fn json_keys(game: &Game) -> &'static [&'static str] {
    match &game.variant {
        Variant::Lancashire(_) => &lancashire::JSON_KEYS,
        Variant::Birmingham(_) => &birmingham::JSON_KEYS,
    }
}

/// The keys the game adds to the `action` object.
pub fn action_keys(game: &Game) -> &'static [&'static str] {
    match &game.variant {
        Variant::Lancashire(_) => &[],
        Variant::Birmingham(_) => &birmingham::ACTION_KEYS,
    }
}

/// Write the game's own sections of the state JSON.
pub fn write_json(
    game: &Game,
    state: &State,
    obj: &mut serde_json::Map<String, serde_json::Value>,
) {
    match &game.variant {
        Variant::Lancashire(_) => lancashire::write_json(game, state, obj),
        Variant::Birmingham(c) => birmingham::write_json(c, state, obj),
    }
}

/// Write the game's own keys of the `action` object.
pub fn write_action(
    game: &Game,
    u: &Underway,
    obj: &mut serde_json::Map<String, serde_json::Value>,
) {
    match &game.variant {
        Variant::Lancashire(_) => {}
        Variant::Birmingham(_) => birmingham::write_action(game, u, obj),
    }
}

/// Read the game's own sections of the state JSON.
pub(crate) fn read_json(
    game: &Game,
    r: &crate::json::fields::Reader,
    state: &mut State,
) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::read_json(game, c, r, state),
        Variant::Birmingham(c) => birmingham::read_json(c, r, state),
    }
}

/// Read the game's own keys of the `action` object.
pub(crate) fn read_action(
    game: &Game,
    ar: &crate::json::fields::Reader,
    u: &mut Underway,
) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(_) => Ok(()),
        Variant::Birmingham(_) => birmingham::read_action(game, ar, u),
    }
}

/// The in-memory layout of the game's block (`invariants::validate`).
pub fn check_layout(game: &Game, state: &State) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(_) => lancashire::check_layout(game, state),
        Variant::Birmingham(c) => birmingham::check_layout(c, state),
    }
}

/// The invariants of the game's block (`invariants::check_state`).
pub fn check_state(game: &Game, state: &State) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::check_state(c, state),
        Variant::Birmingham(c) => birmingham::check_state(game, c, state),
    }
}

// --- observations ---------------------------------------------------------------------------------------

/// The game's own blocks of the observation vector (docs/observation.md): (name, length, meaning).
pub fn observation_fields(game: &Game) -> Vec<(String, usize, &'static str)> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::observation_fields(c),
        Variant::Birmingham(c) => birmingham::observation_fields(c),
    }
}

/// Write the game's own blocks at the start of `out`; returns their length.
pub fn write_observation(game: &Game, state: &State, out: &mut [f32]) -> usize {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::write_observation(c, state, out),
        Variant::Birmingham(c) => birmingham::write_observation(c, state, out),
    }
}
