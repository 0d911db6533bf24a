//! The parts a configuration is made of, and the rule switches: plain types with no behaviour beyond
//! their own fields, below everything that reads them (docs/architecture.md, "Layers").
/// Most players any supported configuration has.
pub const MAX_PLAYERS: usize = 4;
/// Capacity of the fixed arrays in a state; location, space and line sets are `u64` bitsets.
pub const MAX_LOCATIONS: usize = 64;
pub const MAX_SPACES: usize = 64;
pub const MAX_LINES: usize = 64;
pub const MAX_CARD_KINDS: usize = 32;
pub const MAX_INDUSTRIES: usize = 6;
pub const MAX_DECK: usize = 72;
/// "No player / no space / no card" in `u8` fields.
pub const NONE: u8 = u8::MAX;

/// The two eras of every Brass game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Era {
    Canal,
    Rail,
}

impl Era {
    pub fn name(self) -> &'static str {
        match self {
            Era::Canal => "canal",
            Era::Rail => "rail",
        }
    }
}

/// A resource that tiles hold and actions consume (L-16 … L-18, B-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    Coal,
    Iron,
    /// Beer barrels (Birmingham): no market.
    Beer,
}

impl Resource {
    /// In the order an action takes them (coal, then iron, then beer).
    pub const ALL: [Resource; 3] = [Resource::Coal, Resource::Iron, Resource::Beer];
    /// The resources with a market.
    pub const MARKETS: [Resource; 2] = [Resource::Coal, Resource::Iron];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Resource::Coal => "coal",
            Resource::Iron => "iron",
            Resource::Beer => "beer",
        }
    }
    pub fn from_name(name: &str) -> Option<Resource> {
        Resource::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// What an industry does in the rules (data `industry_roles`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Role {
    /// Its tiles hold this resource and give it out (coal mines, iron works).
    pub produces: Option<Resource>,
    /// Its tiles are sold by the Sell action (cotton mills).
    pub sold: bool,
    /// Its tiles are sale targets and market trade icons (Lancashire ports).
    pub port: bool,
    /// Its tiles flip as soon as they are built (shipyards, L-28).
    pub flips_when_built: bool,
}

/// One industry tile as printed (the same for every player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileSpec {
    pub level: u8,
    pub cost: u8,
    pub coal: u8,
    pub iron: u8,
    pub vp: u8,
    /// Income gained when the tile flips, in track spaces.
    pub income: u8,
    /// Cubes (or barrels) placed on the tile when built in the Canal Era.
    pub cubes: u8,
    /// The same in the Rail Era (B-7: breweries 2).
    pub cubes_rail: u8,
    pub canal: bool,
    pub rail: bool,
    /// Link icons printed on the flipped tile (L-49, B-19).
    pub link_icons: u8,
    /// Beer needed to sell the tile (B-15).
    pub beer: u8,
    /// False for a tile that can never be developed (B-14).
    pub developable: bool,
}

impl TileSpec {
    /// May this tile be built in `era` (L-23)?
    pub fn buildable_in(&self, era: Era) -> bool {
        match era {
            Era::Canal => self.canal,
            Era::Rail => self.rail,
        }
    }
    /// Cubes or barrels placed when the tile is built in `era`.
    pub fn cubes_in(&self, era: Era) -> u8 {
        match era {
            Era::Canal => self.cubes,
            Era::Rail => self.cubes_rail,
        }
    }
}

/// A location on the map: a town with industry spaces, or a place with none (Blackpool, Scotland, ...).
#[derive(Clone, Debug)]
pub struct Location {
    pub id: String,
    pub name: String,
    pub first_space: u8,
    pub num_spaces: u8,
    /// Link VP icons printed on the board at this location (L-49).
    pub printed_link_icons: u8,
    /// Market trade icon printed on the board (L-15; B-9: merchant locations).
    pub trade_icon: bool,
    /// The location card of this location, or NONE.
    pub card: u8,
    /// A farm brewery: no location card reaches it (B-10).
    pub farm: bool,
}

impl Location {
    /// The location's spaces, in data order.
    pub fn spaces(&self) -> std::ops::Range<u8> {
        self.first_space..self.first_space + self.num_spaces
    }
}

/// An industry space: where it is and which industry icons it shows.
#[derive(Clone, Debug)]
pub struct Space {
    pub location: u8,
    /// Bitmask over industry indices.
    pub icons: u8,
    pub name: String,
}

/// Most locations one line joins (Birmingham's Kidderminster–Worcester line also reaches a farm brewery).
pub const MAX_LINE_ENDS: usize = 3;

/// The ends of a line: a small inline list (no allocation, read in the hottest loops), used as a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEnds {
    ends: [u8; MAX_LINE_ENDS],
    len: u8,
}

impl LineEnds {
    /// The ends, or None for fewer than two or more than [`MAX_LINE_ENDS`].
    pub fn new(ends: &[u8]) -> Option<LineEnds> {
        if ends.len() < 2 || ends.len() > MAX_LINE_ENDS {
            return None;
        }
        let mut e = [NONE; MAX_LINE_ENDS];
        e[..ends.len()].copy_from_slice(ends);
        Some(LineEnds {
            ends: e,
            len: ends.len() as u8,
        })
    }
}

impl std::ops::Deref for LineEnds {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.ends[..self.len as usize]
    }
}

/// A line on which one canal or rail link can be built. Most lines join two locations; a line may join
/// more (the link then connects all of them). It is named after its first two ends.
#[derive(Clone, Debug)]
pub struct Line {
    /// The locations the line joins, in data order.
    pub ends: LineEnds,
    /// The same, as a bitmask of locations.
    pub mask: u64,
    pub canal: bool,
    pub rail: bool,
    pub name: String,
}

impl Line {
    pub fn allowed_in(&self, era: Era) -> bool {
        match era {
            Era::Canal => self.canal,
            Era::Rail => self.rail,
        }
    }
    /// The line's ends as a bitmask of locations.
    pub fn ends(&self) -> u64 {
        self.mask
    }
}

/// Spaces of one location showing an industry with the same set of icons: interchangeable for a build.
#[derive(Clone, Copy, Debug)]
pub struct SpaceGroup {
    pub location: u8,
    /// The spaces show only this industry (they must be used first, L-24).
    pub single: bool,
    /// The spaces, as a bitmask.
    pub spaces: u64,
}

/// What a card lets its holder build with (L-21, B-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    /// The card of one location.
    Location(u8),
    /// An industry card: the industries it shows, as a bitmask (Birmingham's cotton mill / manufacturer
    /// card shows two).
    Industry(u8),
    /// A wild location card: any town's card (not a farm brewery), B-10.
    WildLocation,
    /// A wild industry card: any industry card, B-10.
    WildIndustry,
}

impl CardKind {
    pub fn is_wild(self) -> bool {
        matches!(self, CardKind::WildLocation | CardKind::WildIndustry)
    }
}

/// A market for one resource (L-5, L-17, L-18).
#[derive(Clone, Debug)]
pub struct Market {
    /// Space prices, cheapest first.
    pub prices: Vec<u8>,
    /// The price of a cube when the market is empty.
    pub empty_price: u8,
    /// Cubes at set-up.
    pub start: u8,
}

/// What links cost (L-35, L-36).
#[derive(Clone, Copy, Debug)]
pub struct LinkCosts {
    pub canal: u8,
    pub rail: u8,
    /// The second rail of one action.
    pub second_rail: u8,
}

/// When loans stop (L-46, C-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoanBan {
    /// Not in the last four rounds of the Rail Era (L-46).
    LastFourRailRounds,
    /// Not in the Rail Era once the draw pile is empty (C-5).
    RailDeckEmpty,
    /// Loans in every round (B-16).
    Never,
}

/// When the industry-card "first build anywhere" exception is available (L-22, C-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstBuild {
    /// While the player has no industry tile and no link on the board (L-22, R-2).
    NothingOnBoard,
    /// For the player's first industry build of the game only (C-6, R-14); kept in the state as
    /// `Player::built_industry`, since the era's end can empty the board again.
    FirstOfGame,
}

/// From where a new rail's coal is measured (L-36, C-14, R-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RailCoal {
    /// The closest source to either end of the new link, both ends together (L-36).
    EitherEnd,
    /// The player chooses the end that receives the coal; the closest source to that end (C-14, R-15).
    ChosenEnd,
}

/// How the first round's turn order is drawn (L-6, C-17, R-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstOrder {
    /// A random order of all players (L-6).
    Shuffled,
    /// A random start player, then clockwise in seat order (C-17).
    RandomStartClockwise,
}

/// The rule switches shared by the game families: each is read at the one place its rule applies
/// (docs/architecture.md, "Where a rule lives").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    /// The last era of the game (the Canal Era in an introductory game, L-54).
    pub last_era: Era,
    /// L-54: the introductory game's extra scoring.
    pub intro: bool,
    /// C-4: income at the start of each round and hands refilled at the end of the round.
    pub income_at_round_start: bool,
    pub loan_ban: LoanBan,
    /// C-15: the last tie-break is the next turn order (else a shared win, L-53).
    pub tie_break_turn_order: bool,
    /// L-52: 1 VP per full £10 at the end of the game.
    pub money_vp: bool,
    pub first_build: FirstBuild,
    pub rail_coal: RailCoal,
    pub first_order: FirstOrder,
    /// Cards removed from the game unseen after dealing, per era (C-3, L-56; B-1: one per player).
    pub removed_canal: u8,
    pub removed_rail: u8,
    /// B-12: with nothing on the board, any card places a link on any line.
    pub first_link_anywhere: bool,
    /// B-13: the second rail of an action also needs a beer from a brewery.
    pub double_rail_beer: bool,
}

/// The options a configuration was built with, as plain values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// L-54: the introductory game.
    pub intro: bool,
    /// L-55: the virtual link Liverpool–Birkenhead.
    pub virtual_link: bool,
    /// L-56: the classic deck set-up.
    pub classic_deck: bool,
}

impl Options {
    pub(crate) fn set(&mut self, name: &str) {
        match name {
            "intro" => self.intro = true,
            "virtual_link" => self.virtual_link = true,
            "classic_deck" => self.classic_deck = true,
            _ => {}
        }
    }
}
