//! The game data files (maps, decks, tiles, markets, tracks), embedded at build time.
//!
//! The same files ship in the Python package (`python/brass/data/`) and are read by the pure-Python
//! reference engine: one source of truth for both engines. Sections that only one game has are optional
//! (`Option`), so one format serves every game of the catalog (`catalog.rs`).
use serde::Deserialize;
use std::collections::BTreeMap;

/// The Lancashire data file (Roxley 2018 full map, with the classic 2007 differences).
pub const LANCASHIRE_JSON: &str = include_str!("../../../python/brass/data/lancashire.json");

/// The embedded text of a data file named in the catalog, or None.
pub fn embedded(name: &str) -> Option<&'static str> {
    match name {
        "lancashire" => Some(LANCASHIRE_JSON),
        _ => None,
    }
}

#[derive(Debug, Deserialize)]
pub struct DataFile {
    pub game: String,
    pub version: String,
    pub industries: Vec<String>,
    /// What each industry does in the rules (docs/architecture.md, "Industries by role").
    pub industry_roles: BTreeMap<String, RoleData>,
    pub locations: Vec<LocationData>,
    pub lines: Vec<LineData>,
    pub tiles: BTreeMap<String, Vec<TileData>>,
    pub card_kinds: Vec<String>,
    pub decks: BTreeMap<String, BTreeMap<String, u8>>,
    pub coal_market: MarketData,
    pub iron_market: MarketData,
    pub income_track: TrackData,
    pub setup: SetupData,
    pub link_costs: LinkCostData,
    pub loans: LoanData,
    /// Lancashire only.
    #[serde(default)]
    pub distant_cotton_market: Option<DcmData>,
    /// The classic (2007) rules' numbers (Lancashire's file only).
    #[serde(default)]
    pub classic: Option<ClassicData>,
}

/// The rules role of an industry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleData {
    /// The resource its tiles hold and give out: "coal", "iron" (and "beer" later).
    #[serde(default)]
    pub produces: Option<String>,
    /// Its tiles are sold by the Sell action (cotton mills).
    #[serde(default)]
    pub sold: bool,
    /// Its tiles are a sale target and a market trade icon (Lancashire ports, L-15, L-41).
    #[serde(default)]
    pub port: bool,
    /// Its tiles flip as soon as they are built (shipyards, L-28).
    #[serde(default)]
    pub flips_when_built: bool,
}

/// The classic (2007) rules' numbers, and those of the Lancashire options borrowed from them.
#[derive(Debug, Deserialize)]
pub struct ClassicData {
    pub money: u8,
    pub rounds_per_era: BTreeMap<String, u8>,
    /// Cards removed unseen per era and player count (C-3, L-56).
    pub removed_unseen: BTreeMap<String, BTreeMap<String, u8>>,
    /// Cards under the deck tile in the Canal Era with the classic deck set-up (L-56).
    pub deck_tile: BTreeMap<String, u8>,
    /// The two locations of the virtual link (C-7, L-55).
    pub virtual_link: [String; 2],
}

#[derive(Debug, Deserialize)]
pub struct LocationData {
    pub id: String,
    pub name: String,
    pub spaces: Vec<Vec<String>>,
    pub printed_link_icons: u8,
    pub trade_icon: bool,
}

/// A line: any number of ends (two on most boards), and which link kinds it takes.
#[derive(Debug, Deserialize)]
pub struct LineData {
    pub ends: Vec<String>,
    pub canal: bool,
    pub rail: bool,
}

#[derive(Debug, Deserialize)]
pub struct TileData {
    pub level: u8,
    pub count: u8,
    pub cost: u8,
    pub coal: u8,
    pub iron: u8,
    pub vp: u8,
    pub income: u8,
    pub cubes: u8,
    pub eras: Vec<String>,
    /// The classic (2007) VP where it differs.
    #[serde(default)]
    pub vp_classic: Option<u8>,
}

#[derive(Debug, Deserialize)]
pub struct MarketData {
    pub prices: Vec<u8>,
    pub empty_price: u8,
    pub start: u8,
}

#[derive(Debug, Deserialize)]
pub struct DcmData {
    pub income_by_space: Vec<u8>,
    pub x_space: u8,
    pub tiles: BTreeMap<String, Vec<u8>>,
}

#[derive(Debug, Deserialize)]
pub struct TrackData {
    pub levels: Vec<i8>,
    pub start_space: u8,
}

#[derive(Debug, Deserialize)]
pub struct SetupData {
    pub money: u8,
    pub hand_size: u8,
    pub links: u8,
    pub rounds_per_era: BTreeMap<String, u8>,
    pub first_round_actions: u8,
    pub actions_per_turn: u8,
}

/// What links cost (L-35, L-36).
#[derive(Debug, Deserialize)]
pub struct LinkCostData {
    pub canal: u8,
    pub rail: u8,
    /// The second rail of one action (a double rail costs `rail + second_rail`).
    pub second_rail: u8,
}

/// Loans (L-45).
#[derive(Debug, Deserialize)]
pub struct LoanData {
    /// The amounts a loan may be, ascending; each £10 moves the income marker back one level.
    pub amounts: Vec<u8>,
    /// No loan may take the income level below this.
    pub lowest_income_level: i8,
}

/// Parse a data file. The embedded files are tested to parse, so a failure here is a build defect.
pub fn parse(text: &str) -> Result<DataFile, serde_json::Error> {
    serde_json::from_str(text)
}
