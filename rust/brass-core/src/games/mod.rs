//! The games, one module each, over the shared mechanics (network, markets, resources, cards, turns,
//! rounds and eras, scoring): each module holds what only its game has — where goods are sold, its own
//! configuration block ([`Variant`]) and its own small `Copy` block of the position ([`Extra`]). The shared
//! code reaches a game's rules through the small enum dispatch below (docs/architecture.md).
use crate::catalog::GameEntry;
use crate::data::DataFile;
use crate::error::{Error, Result};
use crate::game::build::Options;
use crate::game::{Game, Location, Role, SaleTarget, Space, MAX_CARD_KINDS};
use crate::rules::{Ctx, Why};
use crate::state::State;

pub mod lancashire;

/// The rules family of a catalog entry (`games.json` `family`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Brass: Lancashire (Roxley 2018).
    Lancashire,
    /// The original Brass (Warfrog 2007): the Lancashire module with the classic switches.
    Classic,
}

impl Family {
    pub fn from_name(name: &str) -> Option<Family> {
        match name {
            "lancashire" => Some(Family::Lancashire),
            "classic" => Some(Family::Classic),
            _ => None,
        }
    }
}

/// The per-game configuration block of a [`Game`].
#[derive(Clone, Debug)]
pub enum Variant {
    Lancashire(lancashire::Config),
}

/// The per-game block of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    Lancashire(lancashire::Extra),
}

impl Game {
    /// The Lancashire-family configuration. Only the Lancashire module and code behind its dispatch call
    /// this; any other game reaching it is an engine bug.
    pub fn lancashire(&self) -> &lancashire::Config {
        match &self.variant {
            Variant::Lancashire(c) => c,
        }
    }
}

impl State {
    /// The Lancashire-family block of the position (see [`Game::lancashire`]).
    pub fn lancashire(&self) -> &lancashire::Extra {
        match &self.extra {
            Extra::Lancashire(e) => e,
        }
    }
    pub fn lancashire_mut(&mut self) -> &mut lancashire::Extra {
        match &mut self.extra {
            Extra::Lancashire(e) => e,
        }
    }
}

/// The configuration block of a family.
pub(crate) fn configure(
    family: Family,
    data: &DataFile,
    players: u8,
    flags: Options,
    locations: &[Location],
) -> Result<Variant> {
    match family {
        Family::Lancashire | Family::Classic => Ok(Variant::Lancashire(lancashire::configure(
            data,
            family,
            players,
            flags.classic_deck,
            flags.virtual_link,
            locations,
        )?)),
    }
}

/// An empty per-game block for a new position.
pub fn new_extra(game: &Game) -> Extra {
    match &game.variant {
        Variant::Lancashire(_) => Extra::Lancashire(lancashire::Extra::EMPTY),
    }
}

/// The targets of the Sell block, in id order.
pub(crate) fn sale_targets(variant: &Variant, spaces: &[Space], roles: &[Role]) -> Vec<SaleTarget> {
    match variant {
        Variant::Lancashire(c) => lancashire::sale_targets(c, spaces, roles),
    }
}

/// Does the family have the double-action build (L-21)?
pub(crate) fn has_double_build(family: Family) -> bool {
    match family {
        Family::Lancashire | Family::Classic => true,
    }
}

/// The error for an option value of a type the generic reader does not take (a `str` option).
pub(crate) fn refuse_option(entry: &GameEntry, key: &str, value: &serde_json::Value) -> Error {
    match Family::from_name(&entry.family) {
        Some(Family::Lancashire | Family::Classic) | None => lancashire::refuse_option(key, value),
    }
}

// --- set-up and eras ----------------------------------------------------------------------------------

/// Set-up after the deck is shuffled, before the deal (L-3: the deck tile).
pub fn after_shuffle(game: &Game, state: &mut State, deck: &mut Vec<u8>) {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::set_aside_deck_tile(c, state.lancashire_mut(), deck),
    }
}

/// Set-up of the game's own boards after the deal (L-4: the DCM pile).
pub fn setup_boards(game: &Game, state: &mut State) {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::shuffle_dcm(c, state),
    }
}

/// The game's own part of the new era, before the new deck (L-51: the DCM; the deck tile is gone).
pub fn new_era(game: &Game, state: &mut State) {
    match &game.variant {
        Variant::Lancashire(c) => {
            lancashire::shuffle_dcm(c, state);
            lancashire::clear_deck_tile(state);
        }
    }
}

/// Cards the game sets aside unseen outside hands, discards, draw pile and `removed` (the deck tile), by
/// kind.
pub fn set_aside_cards(state: &State) -> &[u8; MAX_CARD_KINDS] {
    match &state.extra {
        Extra::Lancashire(e) => &e.deck_tile,
    }
}

pub fn set_aside_cards_mut(state: &mut State) -> &mut [u8; MAX_CARD_KINDS] {
    match &mut state.extra {
        Extra::Lancashire(e) => &mut e.deck_tile,
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
    }
}

// --- the rules that differ ---------------------------------------------------------------------------------

/// The locations an industry card reaches from a network (C-7, L-55: the virtual link).
pub fn industry_card_network(game: &Game, network: u64) -> u64 {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::industry_card_network(c, network),
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
    }
}

/// The target's part of one sale; false when the sale fails and ends the action (L-42).
pub fn sell_to(game: &Game, state: &mut State, p: u8, target: SaleTarget) -> bool {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::sell(game, c, state, p, target),
    }
}

// --- the state JSON and its invariants ----------------------------------------------------------------

/// The state keys the game adds to the shared ones.
pub fn json_keys(game: &Game) -> &'static [&'static str] {
    match &game.variant {
        Variant::Lancashire(_) => &lancashire::JSON_KEYS,
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
    }
}

/// Read the game's own sections of the state JSON.
pub(crate) fn read_json(game: &Game, r: &crate::json::Reader, state: &mut State) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::read_json(game, c, r, state),
    }
}

/// The in-memory layout of the game's block (`invariants::validate`).
pub fn check_layout(game: &Game, state: &State) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(_) => lancashire::check_layout(game, state),
    }
}

/// The invariants of the game's block (`invariants::check_state`).
pub fn check_state(game: &Game, state: &State) -> Result<()> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::check_state(c, state),
    }
}

// --- observations ---------------------------------------------------------------------------------------

/// The game's own blocks of the observation vector (docs/observation.md): (name, length, meaning).
pub fn observation_fields(game: &Game) -> Vec<(String, usize, &'static str)> {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::observation_fields(c),
    }
}

/// Write the game's own blocks at the start of `out`; returns their length.
pub fn write_observation(game: &Game, state: &State, out: &mut [f32]) -> usize {
    match &game.variant {
        Variant::Lancashire(c) => lancashire::write_observation(c, state, out),
    }
}
