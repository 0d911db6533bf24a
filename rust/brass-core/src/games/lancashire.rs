//! Brass: Lancashire (Roxley 2018) and the original Brass (Warfrog 2007, the `classic` family, which plays on
//! the same map with the rule switches of `game::Switches`): what only these games have — ports as sale
//! targets, the Distant Cotton Market (L-4, L-42 … L-44, C-11), the deck tile (L-3, L-56) and the virtual
//! link Liverpool–Birkenhead (C-7, L-55).
use crate::data::DataFile;
use crate::error::{Error, Result};
use crate::game::{Game, Location, Role, SaleTarget, Space, MAX_CARD_KINDS};
use crate::rules::{Ctx, Why};
use crate::state::State;

use super::Family;

/// Most DCM tiles any configuration has.
pub const MAX_DCM_TILES: usize = 16;
/// DCM tile values are the spaces they move the marker: 0 … 7.
const DCM_VALUES: usize = 8;

/// The configuration block of these games.
#[derive(Clone, Debug)]
pub struct Config {
    /// The industry whose tiles are ports (sale targets and trade icons, L-15, L-41).
    pub port: u8,
    /// DCM tiles for this player count (spaces moved), ascending (L-4; C-11: all 12).
    pub dcm_tiles: Vec<u8>,
    /// Income (track spaces) beside each DCM space above X (L-42).
    pub dcm_income: Vec<u8>,
    pub dcm_x: u8,
    /// C-11: drawn DCM tiles go to the bottom of the pile.
    pub dcm_recycle: bool,
    /// Cards under the deck tile in the Canal Era (L-3, L-56); 0 for the classic rules.
    pub deck_tile_cards: u8,
    /// C-7, L-55: the two locations joined for industry cards, or None.
    pub virtual_link: Option<(u8, u8)>,
}

/// The part of a position only these games have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extra {
    pub dcm_marker: u8,
    pub dcm_pile: [u8; MAX_DCM_TILES],
    pub dcm_pile_len: u8,
    /// Drawn DCM tiles, counted by value (spaces moved).
    pub dcm_discards: [u8; DCM_VALUES],
    /// Cards under the deck tile (Canal Era), counted by kind.
    pub deck_tile: [u8; MAX_CARD_KINDS],
}

impl Extra {
    pub const EMPTY: Extra = Extra {
        dcm_marker: 0,
        dcm_pile: [0; MAX_DCM_TILES],
        dcm_pile_len: 0,
        dcm_discards: [0; DCM_VALUES],
        deck_tile: [0; MAX_CARD_KINDS],
    };
    /// The DCM pile, top first.
    pub fn dcm_pile(&self) -> &[u8] {
        &self.dcm_pile[..self.dcm_pile_len as usize]
    }
    /// Are there no DCM tiles at all (pile and discards empty, R-3)?
    pub fn dcm_exhausted(&self) -> bool {
        self.dcm_pile_len == 0 && self.dcm_discards.iter().all(|&c| c == 0)
    }
}

fn bad(what: String) -> Error {
    Error::Config(format!("game data: {what}"))
}

/// The configuration of a Lancashire-family game from its data.
pub fn configure(
    data: &DataFile,
    family: Family,
    players: u8,
    classic_deck: bool,
    virtual_link: bool,
    locations: &[Location],
) -> Result<Config> {
    let classic = family == Family::Classic;
    let port = data
        .industries
        .iter()
        .position(|i| data.industry_roles.get(i).is_some_and(|r| r.port))
        .ok_or_else(|| bad("no port industry".into()))? as u8;
    let dcm = data
        .distant_cotton_market
        .as_ref()
        .ok_or_else(|| bad("no distant_cotton_market section".into()))?;
    let key = if classic {
        "full".to_string()
    } else {
        players.to_string()
    };
    let mut dcm_tiles = dcm
        .tiles
        .get(&key)
        .ok_or_else(|| bad(format!("no DCM tiles for {players} players")))?
        .clone();
    if dcm_tiles.len() > MAX_DCM_TILES || dcm_tiles.iter().any(|&t| t as usize >= DCM_VALUES) {
        return Err(bad("DCM tiles".into()));
    }
    dcm_tiles.sort_unstable();
    let classic_data = data.classic.as_ref();
    let deck_tile_cards = match (classic, classic_deck) {
        (true, _) => 0,
        (false, true) => classic_data
            .and_then(|c| c.deck_tile.get(&players.to_string()).copied())
            .unwrap_or(0),
        (false, false) => players,
    };
    let virtual_link = if classic || virtual_link {
        let [a, b] = &classic_data
            .ok_or_else(|| bad("no classic section".into()))?
            .virtual_link;
        let index = |id: &str| {
            locations
                .iter()
                .position(|l| l.id == id)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("unknown location `{id}`")))
        };
        Some((index(a)?, index(b)?))
    } else {
        None
    };
    Ok(Config {
        port,
        dcm_tiles,
        dcm_income: dcm.income_by_space.clone(),
        dcm_x: dcm.x_space,
        dcm_recycle: classic,
        deck_tile_cards,
        virtual_link,
    })
}

/// The targets of a sale, in id order: every space that shows a port, then the Distant Cotton Market.
pub fn sale_targets(config: &Config, spaces: &[Space], _roles: &[Role]) -> Vec<SaleTarget> {
    let mut targets: Vec<SaleTarget> = (0..spaces.len() as u8)
        .filter(|&s| spaces[s as usize].icons & (1 << config.port) != 0)
        .map(SaleTarget::Port)
        .collect();
    targets.push(SaleTarget::Distant);
    targets
}

/// The option values these games refuse (L-57, R-13).
pub fn refuse_option(key: &str, value: &serde_json::Value) -> Error {
    Error::Config(match (key, value.as_str()) {
        ("variant", Some("community-2p")) => "the community 2-player variant (L-57) needs the alternate map, whose spaces and lines are not known (R-13); it cannot be played yet".to_string(),
        ("variant", _) => format!("unknown variant {value}; the only variant, \"community-2p\", cannot be played yet (R-13)"),
        _ => format!("option `{key}` is True or False, not {value}"),
    })
}

// --- set-up and eras ---------------------------------------------------------------------------------------

/// L-3, L-56: the bottom cards of the shuffled deck go under the deck tile.
pub fn set_aside_deck_tile(config: &Config, extra: &mut Extra, deck: &mut Vec<u8>) {
    let under = config.deck_tile_cards as usize;
    for &card in &deck[deck.len() - under..] {
        extra.deck_tile[card as usize] += 1;
    }
    deck.truncate(deck.len() - under);
}

/// L-4, L-51, C-16: a new DCM pile, shuffled; discards empty, marker on the top space.
pub fn shuffle_dcm(config: &Config, state: &mut State) {
    let mut tiles = config.dcm_tiles.clone();
    state.rng.shuffle(&mut tiles);
    let extra = state.lancashire_mut();
    extra.dcm_pile[..tiles.len()].copy_from_slice(&tiles);
    extra.dcm_pile_len = tiles.len() as u8;
    extra.dcm_discards = [0; DCM_VALUES];
    extra.dcm_marker = 0;
}

/// L-51: the Rail Era has no deck tile.
pub fn clear_deck_tile(state: &mut State) {
    state.lancashire_mut().deck_tile = [0; MAX_CARD_KINDS];
}

// --- the industry card and the virtual link ------------------------------------------------------------

/// C-7, L-55: the virtual link lets an industry card reach the other end from either one.
pub fn industry_card_network(config: &Config, network: u64) -> u64 {
    let mut network = network;
    if let Some((a, b)) = config.virtual_link {
        if network & (1 << a) != 0 {
            network |= 1 << b;
        }
        if network & (1 << b) != 0 {
            network |= 1 << a;
        }
    }
    network
}

// --- selling ------------------------------------------------------------------------------------------

/// Can the player sell the tile on `tile` to `target` (L-40 … L-42)? The tile is checked by the caller
/// to be the player's own unflipped tile of an industry that is sold.
pub fn check_sale(
    game: &Game,
    config: &Config,
    state: &State,
    ctx: &Ctx,
    tile: u8,
    target: SaleTarget,
) -> std::result::Result<(), Why> {
    let mill_loc = game.spaces[tile as usize].location;
    match target {
        SaleTarget::Merchant(_) => {
            return Err("Lancashire sells to ports and the Distant Cotton Market");
        }
        SaleTarget::Distant => {
            let extra = state.lancashire();
            if extra.dcm_marker >= config.dcm_x {
                return Err("the Distant Cotton Market marker is on X (L-42)");
            }
            if extra.dcm_exhausted() {
                return Err("no Distant Cotton Market tile is left (R-3)");
            }
            if !ctx.component_trade[ctx.component[mill_loc as usize] as usize] {
                return Err("the mill is not connected to a market trade icon (L-42, L-15)");
            }
        }
        SaleTarget::Port(port) => {
            let target = state.board[port as usize];
            if target.is_empty() || target.industry != config.port {
                return Err("that space holds no port (L-41)");
            }
            if target.flipped {
                return Err("that port has already been used (L-41)");
            }
            if !ctx.connected(mill_loc, game.spaces[port as usize].location) {
                return Err("the port is not connected to the mill (L-41)");
            }
        }
    }
    Ok(())
}

/// One sale (L-41, L-42). The port (of any owner) flips first; a distant sale draws a DCM tile and moves the
/// marker. Returns false when the marker reached X: the sale fails and the action ends (L-42).
pub fn sell(game: &Game, config: &Config, state: &mut State, p: u8, target: SaleTarget) -> bool {
    match target {
        SaleTarget::Merchant(_) => unreachable!("no merchants in Lancashire"),
        SaleTarget::Port(port) => {
            crate::apply::flip(game, state, port);
            true
        }
        SaleTarget::Distant => {
            if state.lancashire().dcm_pile_len == 0 {
                reshuffle_dcm_discards(state);
            }
            let extra = state.lancashire_mut();
            let tile = extra.dcm_pile[0];
            let len = extra.dcm_pile_len as usize;
            extra.dcm_pile.copy_within(1..len, 0);
            if config.dcm_recycle {
                // C-11: the drawn tile goes to the bottom of the pile.
                extra.dcm_pile[len - 1] = tile;
            } else {
                extra.dcm_pile_len -= 1;
                extra.dcm_discards[tile as usize] += 1;
            }
            extra.dcm_marker = (extra.dcm_marker + tile).min(config.dcm_x);
            if extra.dcm_marker >= config.dcm_x {
                return false;
            }
            let income = config.dcm_income[extra.dcm_marker as usize];
            crate::apply::gain_income(game, state, p, income);
            true
        }
    }
}

/// an empty DCM pile is refilled from the discards, shuffled.
fn reshuffle_dcm_discards(state: &mut State) {
    let mut tiles = Vec::new();
    for (value, &count) in state.lancashire().dcm_discards.iter().enumerate() {
        tiles.extend(std::iter::repeat_n(value as u8, count as usize));
    }
    state.rng.shuffle(&mut tiles);
    let extra = state.lancashire_mut();
    extra.dcm_pile[..tiles.len()].copy_from_slice(&tiles);
    extra.dcm_pile_len = tiles.len() as u8;
    extra.dcm_discards = [0; DCM_VALUES];
}

/// The flat DCM discards as a sorted list of tile values.
pub fn dcm_discard_list(extra: &Extra) -> Vec<u8> {
    let mut out = Vec::new();
    for (v, &c) in extra.dcm_discards.iter().enumerate() {
        out.extend(std::iter::repeat_n(v as u8, c as usize));
    }
    out
}

// --- the state JSON and its invariants ------------------------------------------------------------------

/// The state keys only these games have.
pub const JSON_KEYS: [&str; 2] = ["dcm", "deck_tile"];

/// `dcm` (marker, pile top first, discards sorted) and `deck_tile` (card kind → count).
pub fn write_json(
    game: &Game,
    state: &State,
    obj: &mut serde_json::Map<String, serde_json::Value>,
) {
    let extra = state.lancashire();
    obj.insert(
        "dcm".into(),
        serde_json::json!({"marker": extra.dcm_marker, "pile": extra.dcm_pile(),
                           "discards": dcm_discard_list(extra)}),
    );
    obj.insert(
        "deck_tile".into(),
        crate::json::counts(game, &extra.deck_tile),
    );
}

/// Read `dcm` and `deck_tile`.
pub(crate) fn read_json(
    game: &Game,
    config: &Config,
    r: &crate::json::Reader,
    state: &mut State,
) -> Result<()> {
    use crate::json::{int_in, invalid, Reader};
    let dr = Reader::new("dcm", r.value("dcm"), &["marker", "pile", "discards"])?;
    let pile = dr.list("pile")?;
    let discards = dr.list("discards")?;
    if pile.len() > MAX_DCM_TILES {
        return Err(invalid("dcm.pile: too many tiles".into()));
    }
    let extra = state.lancashire_mut();
    extra.dcm_marker = dr.int("marker", 0, config.dcm_x as i64)? as u8;
    for (i, t) in pile.iter().enumerate() {
        extra.dcm_pile[i] = int_in(&format!("dcm.pile[{i}]"), t, 0, 7)? as u8;
    }
    extra.dcm_pile_len = pile.len() as u8;
    extra.dcm_discards = [0; DCM_VALUES];
    let mut last = 0;
    for (i, t) in discards.iter().enumerate() {
        let t = int_in(&format!("dcm.discards[{i}]"), t, 0, 7)? as u8;
        if t < last {
            return Err(invalid("dcm.discards: must be sorted ascending".into()));
        }
        last = t;
        extra.dcm_discards[t as usize] += 1;
    }
    extra.deck_tile = crate::json::card_counts(game, "deck_tile", r.value("deck_tile"))?;
    Ok(())
}

/// The in-memory layout of the block: pile within bounds, tile values, deck-tile cards of this game.
pub fn check_layout(game: &Game, state: &State) -> Result<()> {
    let extra = state.lancashire();
    let broken = |what: &str| Err(Error::InvalidState(format!("corrupt state: {what}")));
    if extra.dcm_pile_len as usize > MAX_DCM_TILES || extra.dcm_pile().iter().any(|&t| t > 7) {
        return broken("DCM pile");
    }
    if extra.deck_tile[game.card_kinds.len()..]
        .iter()
        .any(|&c| c > 0)
    {
        return broken("deck tile cards outside the game's card kinds");
    }
    Ok(())
}

/// The block's invariants: the DCM pile and discards hold exactly the configuration's tiles (C-11: no
/// discards when drawn tiles are recycled); the deck tile holds its cards in the Canal Era only (L-3,
/// L-51, L-56).
pub fn check_state(config: &Config, state: &State) -> Result<()> {
    let invalid = |m: String| Err(Error::InvalidState(m));
    let extra = state.lancashire();
    if config.dcm_recycle && extra.dcm_discards.iter().any(|&c| c > 0) {
        return invalid(
            "dcm.discards: the classic rules put drawn tiles back under the pile (C-11)".into(),
        );
    }
    let mut all: Vec<u8> = extra.dcm_pile().to_vec();
    all.extend(dcm_discard_list(extra));
    all.sort_unstable();
    if all != config.dcm_tiles {
        return invalid(format!(
            "dcm: pile and discards hold {all:?}, but the DCM tiles of this game are {:?}",
            config.dcm_tiles
        ));
    }
    let under: u32 = extra.deck_tile.iter().map(|&c| c as u32).sum();
    let want_under = match state.era {
        crate::game::Era::Canal => config.deck_tile_cards as u32,
        crate::game::Era::Rail => 0,
    };
    if under != want_under {
        return invalid(format!(
            "deck_tile: must hold {want_under} cards in the {} Era (L-3, L-51, L-56), not {under}",
            if state.era == crate::game::Era::Canal {
                "Canal"
            } else {
                "Rail"
            }
        ));
    }
    Ok(())
}

// --- observations ---------------------------------------------------------------------------------------

/// The Distant Cotton Market blocks of the observation (public: the marker, the drawn tiles, the pile size).
pub fn observation_fields(config: &Config) -> Vec<(String, usize, &'static str)> {
    vec![
        (
            "dcm.marker".into(),
            config.dcm_x as usize + 1,
            "one-hot marker space (last = X)",
        ),
        (
            "dcm.discards".into(),
            5,
            "drawn DCM tiles by value 0..4, count / 4",
        ),
        ("dcm.pile_size".into(), 1, "DCM tiles face down / 12"),
    ]
}

/// Write the blocks of [`observation_fields`]; returns their length.
pub fn write_observation(config: &Config, state: &State, out: &mut [f32]) -> usize {
    let extra = state.lancashire();
    out[extra.dcm_marker as usize] = 1.0;
    let at = config.dcm_x as usize + 1;
    for v in 0..5 {
        out[at + v] = extra.dcm_discards[v] as f32 / 4.0;
    }
    out[at + 5] = extra.dcm_pile_len as f32 / 12.0;
    at + 6
}
