//! The configuration of Brass: Lancashire and the original Brass (the `classic` family) and the part of a
//! position only they have: built once from the data (`configure`), read by the game's rules in
//! `games/lancashire.rs`. Below `game/` so that the configuration and the state need nothing above them.
use crate::data::DataFile;
use crate::error::{Error, Result};
use crate::game::layout::SaleTarget;
use crate::game::parts::{Location, Role, Space, MAX_CARD_KINDS};

/// Most DCM tiles any configuration has.
pub const MAX_DCM_TILES: usize = 16;
/// DCM tile values are the spaces they move the marker: 0 … 7.
pub const DCM_VALUES: usize = 8;

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
    classic: bool,
    players: u8,
    classic_deck: bool,
    virtual_link: bool,
    locations: &[Location],
) -> Result<Config> {
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
