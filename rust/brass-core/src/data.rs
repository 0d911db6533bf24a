//! The game data files (maps, decks, tiles, markets, tracks), embedded at build time.
//!
//! The same files ship in the Python package (`python/brass/data/`) and are read by the pure-Python
//! reference engine: one source of truth for both engines. Sections that only one game has are optional
//! (`Option`), so one format serves every game of the catalog (`catalog.rs`).
use serde::Deserialize;
use std::collections::BTreeMap;

/// The Lancashire data file (Roxley 2018 full map, with the classic 2007 differences).
pub const LANCASHIRE_JSON: &str = include_str!("../../../python/brass/data/lancashire.json");
/// The Birmingham data file (Roxley 2018).
pub const BIRMINGHAM_JSON: &str = include_str!("../../../python/brass/data/birmingham.json");

/// The embedded text of a data file named in the catalog, or None.
pub fn embedded(name: &str) -> Option<&'static str> {
    match name {
        "lancashire" => Some(LANCASHIRE_JSON),
        "birmingham" => Some(BIRMINGHAM_JSON),
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
    /// Industry cards that show several industries (card kind → industries); other industry cards are
    /// named after their industry.
    #[serde(default)]
    pub industry_cards: BTreeMap<String, Vec<String>>,
    /// Wild cards (card kind → what it builds and how many exist); not in the deck (B-2, B-17).
    #[serde(default)]
    pub wild_cards: BTreeMap<String, WildData>,
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
    /// Merchant tiles (Birmingham only).
    #[serde(default)]
    pub merchant_tiles: Option<MerchantTilesData>,
}

/// A wild card kind.
#[derive(Debug, Deserialize)]
pub struct WildData {
    /// "location" or "industry".
    pub builds: String,
    pub count: u8,
}

/// The merchant tiles: the industries each kind accepts, and the tiles of each player count.
#[derive(Debug, Deserialize)]
pub struct MerchantTilesData {
    pub kinds: BTreeMap<String, Vec<String>>,
    pub by_player_count: BTreeMap<String, Vec<String>>,
}

/// A merchant location: its spaces (each with the player counts it is used at) and its bonus.
#[derive(Debug, Deserialize)]
pub struct MerchantData {
    pub slots: Vec<Vec<u8>>,
    pub bonus: BonusData,
}

#[derive(Debug, Deserialize)]
pub struct BonusData {
    /// "vp", "money", "income" or "develop".
    #[serde(rename = "type")]
    pub kind: String,
    pub amount: u8,
}

/// The rules role of an industry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleData {
    /// The resource its tiles hold and give out: "coal", "iron" or "beer".
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
    /// A farm brewery: no location card builds there (B-10).
    #[serde(default)]
    pub farm: bool,
    /// A merchant location (Birmingham).
    #[serde(default)]
    pub merchant: Option<MerchantData>,
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
    /// Link icons printed on the flipped tile (L-49: 1; B-19: per tile).
    #[serde(default = "one")]
    pub link_icons: u8,
    /// Beer needed to sell the tile (B-15).
    #[serde(default)]
    pub beer: u8,
    /// False for tiles that can never be developed (B-14: lightbulb potteries).
    #[serde(default = "yes")]
    pub developable: bool,
    /// Cubes placed when built in the Rail Era, where they differ (B-7: breweries).
    #[serde(default)]
    pub cubes_rail: Option<u8>,
}

fn one() -> u8 {
    1
}

fn yes() -> bool {
    true
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
    /// Cards each player takes face down after the deal, out of play in the Canal Era (B-1).
    #[serde(default)]
    pub face_down_cards: u8,
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
