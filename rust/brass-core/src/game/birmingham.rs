//! The configuration of Brass: Birmingham (its merchant spaces, tiles and bonuses) and the part of a position
//! only it has: built once from the data (`configure`), read by the game's rules in `games/birmingham.rs`.
//! Below `game/` so that the configuration and the state need nothing above them.
use crate::data::DataFile;
use crate::error::{Error, Result};
use crate::game::layout::{BeerSource, SaleTarget};
use crate::game::parts::{Location, Space, NONE};

/// Most merchant spaces a map has.
pub const MAX_MERCHANT_SPACES: usize = 12;
/// The merchant tile kinds, in the order of the state's and the observation's encodings.
pub const TILE_KINDS: [&str; 5] = ["blank", "any", "cotton_mill", "manufacturer", "pottery"];

/// One merchant space: where it is and whether this player count uses it (B-3).
#[derive(Clone, Debug)]
pub struct MerchantSpace {
    pub location: u8,
    /// `<merchant>/<n>`.
    pub name: String,
    pub in_use: bool,
}

/// A merchant's bonus for its barrel (B-26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    Vp(u8),
    Money(u8),
    /// Income track spaces.
    Income(u8),
    /// A free develop, optional.
    Develop,
}

/// The configuration block of Birmingham.
#[derive(Clone, Debug)]
pub struct Config {
    pub spaces: Vec<MerchantSpace>,
    /// Per merchant space, its location's bonus.
    pub bonus: Vec<Bonus>,
    /// Per tile kind (`TILE_KINDS`), the industries it buys, as a bitmask.
    pub accepts: [u8; TILE_KINDS.len()],
    /// The player count's merchant tiles (kinds), in the data's order.
    pub tiles: Vec<u8>,
}

/// The part of a position only Birmingham has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extra {
    /// Per merchant space, the kind of its tile, or NONE when the space is not in use.
    pub tile: [u8; MAX_MERCHANT_SPACES],
    /// Merchant spaces with a barrel beside their tile, as a bitmask.
    pub beer: u16,
}

impl Extra {
    pub const EMPTY: Extra = Extra {
        tile: [NONE; MAX_MERCHANT_SPACES],
        beer: 0,
    };
}

fn bad(what: String) -> Error {
    Error::Config(format!("game data: {what}"))
}

/// The configuration from the data: the merchant spaces of every merchant location (in data order), which
/// this player count uses, the bonuses, the tiles.
pub fn configure(data: &DataFile, players: u8, locations: &[Location]) -> Result<Config> {
    let mut spaces = Vec::new();
    let mut bonus = Vec::new();
    for (li, loc) in data.locations.iter().enumerate() {
        let Some(m) = &loc.merchant else { continue };
        let b = match m.bonus.kind.as_str() {
            "vp" => Bonus::Vp(m.bonus.amount),
            "money" => Bonus::Money(m.bonus.amount),
            "income" => Bonus::Income(m.bonus.amount),
            "develop" => Bonus::Develop,
            other => return Err(bad(format!("unknown merchant bonus `{other}`"))),
        };
        for (n, counts) in m.slots.iter().enumerate() {
            spaces.push(MerchantSpace {
                location: li as u8,
                name: format!("{}/{}", locations[li].id, n + 1),
                in_use: counts.contains(&players),
            });
            bonus.push(b);
        }
    }
    if spaces.len() > MAX_MERCHANT_SPACES {
        return Err(bad("too many merchant spaces".into()));
    }
    let mt = data
        .merchant_tiles
        .as_ref()
        .ok_or_else(|| bad("no merchant_tiles section".into()))?;
    let mut accepts = [0u8; TILE_KINDS.len()];
    for (k, name) in TILE_KINDS.iter().enumerate() {
        for industry in mt
            .kinds
            .get(*name)
            .ok_or_else(|| bad(format!("no tile kind `{name}`")))?
        {
            let i = data
                .industries
                .iter()
                .position(|x| x == industry)
                .ok_or_else(|| bad(format!("unknown industry `{industry}`")))?;
            accepts[k] |= 1 << i;
        }
    }
    let tiles = mt
        .by_player_count
        .get(&players.to_string())
        .ok_or_else(|| bad(format!("no merchant tiles for {players} players")))?
        .iter()
        .map(|name| {
            TILE_KINDS
                .iter()
                .position(|k| k == name)
                .map(|k| k as u8)
                .ok_or_else(|| bad(format!("unknown merchant tile `{name}`")))
        })
        .collect::<Result<Vec<u8>>>()?;
    if tiles.len() != spaces.iter().filter(|s| s.in_use).count() {
        return Err(bad("merchant tiles and spaces in use differ".into()));
    }
    Ok(Config {
        spaces,
        bonus,
        accepts,
        tiles,
    })
}

/// The Sell block's targets: every merchant space.
pub fn sale_targets(config: &Config) -> Vec<SaleTarget> {
    (0..config.spaces.len() as u8)
        .map(SaleTarget::Merchant)
        .collect()
}

/// The Beer block's sources: every space showing a brewery, then every merchant space.
pub fn beer_sources(config: &Config, spaces: &[Space], brewery: u8) -> Vec<BeerSource> {
    let mut out: Vec<BeerSource> = (0..spaces.len() as u8)
        .filter(|&s| brewery != NONE && spaces[s as usize].icons & (1 << brewery) != 0)
        .map(BeerSource::Brewery)
        .collect();
    out.extend((0..config.spaces.len() as u8).map(BeerSource::Merchant));
    out
}

/// The merchant space's name, `<merchant>/<n>`.
pub fn space_name(config: &Config, m: u8) -> &str {
    &config.spaces[m as usize].name
}

/// The merchant space named `<merchant>/<n>`, if any.
pub fn space_by_name(config: &Config, name: &str) -> Option<u8> {
    config
        .spaces
        .iter()
        .position(|s| s.name == name)
        .map(|i| i as u8)
}
