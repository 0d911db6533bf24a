//! A game configuration: ruleset, player count, options, and everything derived from the data
//! (map, tile stacks, deck, markets, tracks, the action-id layout). Immutable once built.
use crate::data::{self, DataFile};
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Most players any supported configuration has.
pub const MAX_PLAYERS: usize = 4;
/// Capacity of the fixed arrays in a state; location, space and line sets are `u64` bitsets.
pub const MAX_LOCATIONS: usize = 64;
pub const MAX_SPACES: usize = 64;
pub const MAX_LINES: usize = 64;
pub const MAX_CARD_KINDS: usize = 32;
pub const MAX_INDUSTRIES: usize = 6;
pub const MAX_DECK: usize = 72;
pub const MAX_DCM_TILES: usize = 16;
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
    /// Coal or iron cubes placed on the tile when built.
    pub cubes: u8,
    pub canal: bool,
    pub rail: bool,
}

impl TileSpec {
    /// May this tile be built in `era` (L-23)?
    pub fn buildable_in(&self, era: Era) -> bool {
        match era {
            Era::Canal => self.canal,
            Era::Rail => self.rail,
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
    /// Market trade icon printed on the board (L-15).
    pub trade_icon: bool,
    /// The location card of this location, or NONE.
    pub card: u8,
}

/// An industry space: where it is and which industry icons it shows.
#[derive(Clone, Debug)]
pub struct Space {
    pub location: u8,
    /// Bitmask over industry indices.
    pub icons: u8,
    pub name: String,
}

/// A line between two locations, on which one canal or rail link can be built.
#[derive(Clone, Debug)]
pub struct Line {
    pub a: u8,
    pub b: u8,
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
    pub fn ends(&self) -> u64 {
        (1u64 << self.a) | (1u64 << self.b)
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

/// What a card lets its holder build with (L-21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    Location(u8),
    Industry(u8),
}

/// The base offsets of each block of action ids (docs/actions.md) and the tables to decode them.
#[derive(Clone, Debug)]
pub struct Layout {
    pub build: u16,
    pub build_double: u16,
    pub link: u16,
    pub develop: u16,
    pub sell: u16,
    pub loan: u16,
    pub pass: u16,
    pub coal: u16,
    pub iron: u16,
    pub stop: u16,
    pub card: u16,
    pub remove: u16,
    pub total: u16,
    /// (space, industry) of each BUILD id.
    pub build_pairs: Vec<(u8, u8)>,
    /// Per space and industry, the index into `build_pairs`, or u16::MAX.
    pub build_index: Vec<[u16; MAX_INDUSTRIES]>,
    pub mill_spaces: Vec<u8>,
    pub port_spaces: Vec<u8>,
    pub coal_spaces: Vec<u8>,
    pub iron_spaces: Vec<u8>,
    /// Per space, its index in the lists above, or NONE.
    pub mill_index: Vec<u8>,
    pub port_index: Vec<u8>,
    pub coal_index: Vec<u8>,
    pub iron_index: Vec<u8>,
}

/// The games this engine plays and their player counts (`brass.games()`).
pub const CATALOG: &[(&str, &[u8])] = &[("brass", &[3, 4]), ("lancashire", &[2, 3, 4])];

/// The rules family a configuration plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// Brass: Lancashire, Roxley 2018.
    Lancashire,
    /// The original Brass, Warfrog 2007 (docs/classic.md).
    Classic,
}

/// The Lancashire options (docs/classic.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// L-54: the introductory game, Canal Era only, with extra scoring.
    pub intro: bool,
    /// L-55: the virtual link Liverpool–Birkenhead for industry cards.
    pub virtual_link: bool,
    /// L-56: the classic deck set-up.
    pub classic_deck: bool,
}

/// When loans stop (L-46, C-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoanBan {
    /// Not in the last four rounds of the Rail Era (L-46).
    LastFourRailRounds,
    /// Not in the Rail Era once the draw pile is empty (C-5).
    RailDeckEmpty,
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

/// A game configuration. Build it with [`Game::new`]; share it (it is immutable) between states.
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub ruleset: Ruleset,
    pub players: u8,
    /// Options as given (name → JSON value), sorted; part of the state and record JSON.
    pub options: BTreeMap<String, serde_json::Value>,
    /// `<game>/<data version>`, recorded in states and records.
    pub data_id: String,
    pub industries: Vec<String>,
    pub cotton_mill: u8,
    pub coal_mine: u8,
    pub iron_works: u8,
    pub port: u8,
    pub shipyard: u8,
    pub locations: Vec<Location>,
    pub spaces: Vec<Space>,
    pub lines: Vec<Line>,
    /// Per location, the lines touching it.
    pub lines_at: Vec<Vec<u8>>,
    /// Per location, the bitmask of the lines touching it.
    pub lines_mask_at: Vec<u64>,
    /// Locations with a printed market trade icon, as a bitmask.
    pub printed_trade: u64,
    /// Per industry, the groups of identical spaces showing it, location by location in data order,
    /// a location's single-icon group first.
    pub space_groups: Vec<Vec<SpaceGroup>>,
    /// Per industry, a player's stack from the top (lowest level first), one entry per tile.
    pub stacks: Vec<Vec<TileSpec>>,
    pub card_kinds: Vec<CardKind>,
    pub card_names: Vec<String>,
    /// Per industry, its industry card kind, or NONE.
    pub industry_cards: Vec<u8>,
    /// Cards of each kind in this configuration's deck.
    pub deck: Vec<u8>,
    pub deck_size: u8,
    /// DCM tiles for this player count (spaces moved), ascending.
    pub dcm_tiles: Vec<u8>,
    /// Income (track spaces) beside each DCM space above X.
    pub dcm_income: Vec<u8>,
    pub dcm_x: u8,
    /// Market space prices, cheapest first.
    pub coal_prices: Vec<u8>,
    pub iron_prices: Vec<u8>,
    pub coal_empty_price: u8,
    pub iron_empty_price: u8,
    pub coal_start: u8,
    pub iron_start: u8,
    /// Income level of each progress-track space.
    pub income_levels: Vec<i8>,
    pub start_income_space: u8,
    pub start_money: u8,
    pub hand_size: u8,
    pub links_per_player: u8,
    pub rounds_per_era: u8,
    pub first_round_actions: u8,
    pub actions_per_turn: u8,
    pub layout: Layout,
    pub flags: Options,
    /// Cards under the deck tile in the Canal Era (L-3, L-56); 0 for the classic rules.
    pub deck_tile_cards: u8,
    /// Cards removed from the game unseen after dealing, per era (C-3, L-56).
    pub removed_canal: u8,
    pub removed_rail: u8,
    /// C-4: income at the start of each round and hands refilled at the end of the round.
    pub classic_round: bool,
    pub loan_ban: LoanBan,
    /// C-7, L-55: the two locations joined for industry cards, or None.
    pub virtual_link: Option<(u8, u8)>,
    /// C-11: drawn DCM tiles go to the bottom of the pile.
    pub dcm_recycle: bool,
    /// C-15: the last tie-break is the next turn order (else a shared win, L-53).
    pub tie_break_turn_order: bool,
    /// L-22 / C-6: when an industry card may build anywhere.
    pub first_build: FirstBuild,
    /// L-36 / C-14: which end of a new rail its coal is measured from.
    pub rail_coal: RailCoal,
    /// L-6 / C-17: the first round's turn order.
    pub first_order: FirstOrder,
}

impl Game {
    /// Build a configuration. `options` are the keyword options from the API (docs/classic.md: `intro`,
    /// `virtual_link`, `classic_deck`, `variant` for Lancashire; none for `brass`); unknown names, options,
    /// option types or player counts are a [`Error::Config`].
    pub fn new(
        name: &str,
        players: i64,
        options: &BTreeMap<String, serde_json::Value>,
    ) -> Result<Game> {
        let (ruleset, allowed) = match name {
            "lancashire" => (Ruleset::Lancashire, [2, 3, 4].as_slice()),
            "brass" => (Ruleset::Classic, [3, 4].as_slice()),
            _ => {
                let names: Vec<String> = CATALOG.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                return Err(Error::Config(format!(
                    "unknown game `{name}`; available: {}",
                    names.join(", ")
                )));
            }
        };
        if !allowed.contains(&(players.clamp(0, 255) as u8)) || !(0..=255).contains(&players) {
            let counts: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
            let list = match counts.as_slice() {
                [a, b] => format!("{a} or {b}"),
                [a, b, c] => format!("{a}, {b} or {c}"),
                _ => counts.join(", "),
            };
            return Err(Error::Config(format!(
                "{name} is played by {list} players, not {players}"
            )));
        }
        let mut flags = Options::default();
        let mut recorded = BTreeMap::new();
        for (key, value) in options {
            match (ruleset, key.as_str()) {
                (Ruleset::Lancashire, "intro" | "virtual_link" | "classic_deck") => {
                    let on = value.as_bool().ok_or_else(|| {
                        Error::Config(format!("option `{key}` is True or False, not {value}"))
                    })?;
                    match key.as_str() {
                        "intro" => flags.intro = on,
                        "virtual_link" => flags.virtual_link = on,
                        _ => flags.classic_deck = on,
                    }
                    if on {
                        recorded.insert(key.clone(), value.clone());
                    }
                }
                (Ruleset::Lancashire, "variant") => {
                    return Err(Error::Config(match value.as_str() {
                        Some("community-2p") => "the community 2-player variant (L-57) needs the alternate map, whose spaces and lines are not known (R-13); it cannot be played yet".to_string(),
                        _ => format!("unknown variant {value}; the only variant, \"community-2p\", cannot be played yet (R-13)"),
                    }))
                }
                (Ruleset::Lancashire, _) => {
                    return Err(Error::Config(format!(
                        "unknown option `{key}` for lancashire; options: intro, virtual_link, classic_deck, variant"
                    )))
                }
                (Ruleset::Classic, _) => {
                    return Err(Error::Config(format!("unknown option `{key}`: brass (the 2007 rules) takes no options")))
                }
            }
        }
        if flags.classic_deck && players == 2 {
            return Err(Error::Config(
                "classic_deck (L-56) is for 3 or 4 players".into(),
            ));
        }
        let data = data::parse(data::LANCASHIRE_JSON).expect("embedded lancashire.json parses");
        Game::from_data(name, ruleset, players as u8, recorded, flags, &data)
    }

    fn from_data(
        name: &str,
        ruleset: Ruleset,
        players: u8,
        options: BTreeMap<String, serde_json::Value>,
        flags: Options,
        data: &DataFile,
    ) -> Result<Game> {
        let classic = ruleset == Ruleset::Classic;
        let bad = |what: String| Error::Config(format!("game data: {what}"));
        let industries = data.industries.clone();
        let ind = |id: &str| -> Result<u8> {
            industries
                .iter()
                .position(|x| x == id)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("unknown industry `{id}`")))
        };
        let loc_index = |id: &str| -> Result<u8> {
            data.locations
                .iter()
                .position(|l| l.id == id)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("unknown location `{id}`")))
        };

        let mut locations = Vec::new();
        let mut spaces = Vec::new();
        for (li, loc) in data.locations.iter().enumerate() {
            let first_space = spaces.len() as u8;
            for (n, icons) in loc.spaces.iter().enumerate() {
                let mut mask = 0u8;
                for icon in icons {
                    mask |= 1 << ind(icon)?;
                }
                spaces.push(Space {
                    location: li as u8,
                    icons: mask,
                    name: format!("{}/{}", loc.id, n + 1),
                });
            }
            locations.push(Location {
                id: loc.id.clone(),
                name: loc.name.clone(),
                first_space,
                num_spaces: loc.spaces.len() as u8,
                printed_link_icons: loc.printed_link_icons,
                trade_icon: loc.trade_icon,
                card: NONE,
            });
        }
        let mut lines = Vec::new();
        let mut lines_at = vec![Vec::new(); locations.len()];
        for (i, l) in data.lines.iter().enumerate() {
            let (a, b) = (loc_index(&l.ends[0])?, loc_index(&l.ends[1])?);
            lines_at[a as usize].push(i as u8);
            lines_at[b as usize].push(i as u8);
            lines.push(Line {
                a,
                b,
                canal: l.canal,
                rail: l.rail,
                name: format!("{}-{}", l.ends[0], l.ends[1]),
            });
        }
        let lines_mask_at = lines_at
            .iter()
            .map(|ls| ls.iter().fold(0u64, |m, &l| m | 1 << l))
            .collect();
        let mut space_groups = vec![Vec::new(); industries.len()];
        for (li, loc) in locations.iter().enumerate() {
            for (i, groups) in space_groups.iter_mut().enumerate() {
                let only = 1u8 << i;
                let mut mine: Vec<SpaceGroup> = Vec::new();
                let mut icons_of: Vec<u8> = Vec::new();
                for s in loc.first_space..loc.first_space + loc.num_spaces {
                    let icons = spaces[s as usize].icons;
                    if icons & only == 0 {
                        continue;
                    }
                    match icons_of.iter().position(|&x| x == icons) {
                        Some(k) => mine[k].spaces |= 1 << s,
                        None => {
                            icons_of.push(icons);
                            mine.push(SpaceGroup {
                                location: li as u8,
                                single: icons == only,
                                spaces: 1 << s,
                            });
                        }
                    }
                }
                mine.sort_by_key(|g| !g.single);
                groups.extend(mine);
            }
        }
        if locations.len() > MAX_LOCATIONS || spaces.len() > MAX_SPACES || lines.len() > MAX_LINES {
            return Err(bad("map too large".into()));
        }

        let mut stacks = Vec::new();
        for industry in &industries {
            let rows = data
                .tiles
                .get(industry)
                .ok_or_else(|| bad(format!("no tiles for `{industry}`")))?;
            let mut stack = Vec::new();
            for row in rows {
                let spec = TileSpec {
                    level: row.level,
                    cost: row.cost,
                    coal: row.coal,
                    iron: row.iron,
                    vp: if classic {
                        row.vp_classic.unwrap_or(row.vp)
                    } else {
                        row.vp
                    },
                    income: row.income,
                    cubes: row.cubes,
                    canal: row.eras.iter().any(|e| e == "canal"),
                    rail: row.eras.iter().any(|e| e == "rail"),
                };
                stack.extend(std::iter::repeat_n(spec, row.count as usize));
            }
            stacks.push(stack);
        }

        let mut card_kinds = Vec::new();
        for id in &data.card_kinds {
            if let Ok(i) = ind(id) {
                card_kinds.push(CardKind::Industry(i));
            } else {
                let l = loc_index(id)?;
                locations[l as usize].card = card_kinds.len() as u8;
                card_kinds.push(CardKind::Location(l));
            }
        }
        let key = players.to_string();
        let full_deck = classic || flags.classic_deck;
        let deck_key = if full_deck {
            "full".to_string()
        } else {
            key.clone()
        };
        let composition = data
            .decks
            .get(&deck_key)
            .ok_or_else(|| bad(format!("no deck for {players} players")))?;
        let mut deck = vec![0u8; card_kinds.len()];
        for (card, count) in composition {
            let k = data
                .card_kinds
                .iter()
                .position(|c| c == card)
                .ok_or_else(|| bad(format!("unknown card `{card}`")))?;
            deck[k] = *count;
        }
        let deck_size: u32 = deck.iter().map(|&c| c as u32).sum();
        if deck_size as usize > MAX_DECK || card_kinds.len() > MAX_CARD_KINDS {
            return Err(bad("deck too large".into()));
        }

        let dcm = &data.distant_cotton_market;
        let dcm_key = if classic {
            "full".to_string()
        } else {
            key.clone()
        };
        let mut dcm_tiles = dcm
            .tiles
            .get(&dcm_key)
            .ok_or_else(|| bad(format!("no DCM tiles for {players} players")))?
            .clone();
        dcm_tiles.sort_unstable();
        let rounds_table = if full_deck {
            &data.classic.rounds_per_era
        } else {
            &data.setup.rounds_per_era
        };
        let rounds_per_era = *rounds_table
            .get(&key)
            .ok_or_else(|| bad(format!("no round count for {players} players")))?;
        let removed = |era: &str| -> u8 {
            data.classic
                .removed_unseen
                .get(era)
                .and_then(|m| m.get(&key))
                .copied()
                .unwrap_or(0)
        };
        let (deck_tile_cards, removed_canal, removed_rail) = match (classic, flags.classic_deck) {
            (true, _) => (0, removed("canal"), removed("rail")),
            (false, true) => (
                data.classic.deck_tile.get(&key).copied().unwrap_or(0),
                0,
                removed("rail"),
            ),
            (false, false) => (players, 0, 0),
        };

        let industry_cards = (0..industries.len() as u8)
            .map(|i| {
                card_kinds
                    .iter()
                    .position(|k| *k == CardKind::Industry(i))
                    .map_or(NONE, |k| k as u8)
            })
            .collect();
        let printed_trade = locations
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trade_icon)
            .fold(0, |m, (i, _)| m | 1 << i);
        let virtual_link = if classic || flags.virtual_link {
            let [a, b] = &data.classic.virtual_link;
            Some((loc_index(a)?, loc_index(b)?))
        } else {
            None
        };
        let cotton_mill = ind("cotton_mill")?;
        let coal_mine = ind("coal_mine")?;
        let iron_works = ind("iron_works")?;
        let port = ind("port")?;
        let shipyard = ind("shipyard")?;
        let layout = Layout::new(
            &spaces,
            &lines,
            industries.len(),
            card_kinds.len(),
            cotton_mill,
            port,
            coal_mine,
            iron_works,
        );

        Ok(Game {
            name: name.to_string(),
            ruleset,
            players,
            options,
            data_id: format!("{}/{}", data.game, data.version),
            industries,
            cotton_mill,
            coal_mine,
            iron_works,
            port,
            shipyard,
            locations,
            spaces,
            lines,
            lines_at,
            lines_mask_at,
            space_groups,
            printed_trade,
            stacks,
            card_names: data.card_kinds.clone(),
            card_kinds,
            industry_cards,
            deck,
            deck_size: deck_size as u8,
            dcm_tiles,
            dcm_income: dcm.income_by_space.clone(),
            dcm_x: dcm.x_space,
            coal_prices: data.coal_market.prices.clone(),
            iron_prices: data.iron_market.prices.clone(),
            coal_empty_price: data.coal_market.empty_price,
            iron_empty_price: data.iron_market.empty_price,
            coal_start: data.coal_market.start,
            iron_start: data.iron_market.start,
            income_levels: data.income_track.levels.clone(),
            start_income_space: data.income_track.start_space,
            start_money: if classic {
                data.classic.money
            } else {
                data.setup.money
            },
            hand_size: data.setup.hand_size,
            links_per_player: data.setup.links,
            rounds_per_era,
            first_round_actions: data.setup.first_round_actions,
            actions_per_turn: data.setup.actions_per_turn,
            layout,
            flags,
            deck_tile_cards,
            removed_canal,
            removed_rail,
            classic_round: classic,
            loan_ban: if classic {
                LoanBan::RailDeckEmpty
            } else {
                LoanBan::LastFourRailRounds
            },
            virtual_link,
            dcm_recycle: classic,
            tie_break_turn_order: classic,
            first_build: if classic {
                FirstBuild::FirstOfGame
            } else {
                FirstBuild::NothingOnBoard
            },
            rail_coal: if classic {
                RailCoal::ChosenEnd
            } else {
                RailCoal::EitherEnd
            },
            first_order: if classic {
                FirstOrder::RandomStartClockwise
            } else {
                FirstOrder::Shuffled
            },
        })
    }

    /// An upper bound on the decisions in one game (docs/actions.md): per card played at most 7 (the
    /// action, one coal and one iron choice per tile or link, one follow-up question, the card), plus one
    /// per successful sale (each flips a cotton mill: at most a player's cotton tiles) and one per tile
    /// removed for a shortfall (at most a player's tiles).
    pub fn max_decisions(&self) -> u32 {
        let r = self.rounds_per_era as u32;
        let per_turn = self.actions_per_turn as u32;
        let cards = self.first_round_actions as u32 + per_turn * (r - 1) + per_turn * r;
        let tiles: u32 = self.stacks.iter().map(|s| s.len() as u32).sum();
        let mills = self.stacks[self.cotton_mill as usize].len() as u32;
        self.players as u32 * (7 * cards + mills + tiles)
    }

    /// Number of action ids of this configuration.
    pub fn num_actions(&self) -> usize {
        self.layout.total as usize
    }

    /// The tile of `industry` at `level` as printed.
    pub fn tile_spec(&self, industry: u8, level: u8) -> Option<&TileSpec> {
        self.stacks[industry as usize]
            .iter()
            .find(|t| t.level == level)
    }

    /// Income level of a progress-track space (L-48).
    pub fn income_level(&self, space: u8) -> i32 {
        self.income_levels[space as usize] as i32
    }

    /// The highest track space of an income level (where a loan puts the marker, L-45).
    pub fn top_space_of_level(&self, level: i32) -> u8 {
        self.income_levels
            .iter()
            .rposition(|&l| l as i32 == level)
            .unwrap_or(0) as u8
    }

    pub fn last_track_space(&self) -> u8 {
        (self.income_levels.len() - 1) as u8
    }

    pub fn location_by_id(&self, id: &str) -> Option<u8> {
        self.locations
            .iter()
            .position(|l| l.id == id)
            .map(|i| i as u8)
    }
    pub fn space_by_name(&self, name: &str) -> Option<u8> {
        self.spaces
            .iter()
            .position(|s| s.name == name)
            .map(|i| i as u8)
    }
    pub fn line_by_name(&self, name: &str) -> Option<u8> {
        if let Some(i) = self.lines.iter().position(|l| l.name == name) {
            return Some(i as u8);
        }
        // Also accept the ends the other way round.
        let (a, b) = name.split_once('-')?;
        let flipped = format!("{b}-{a}");
        self.lines
            .iter()
            .position(|l| l.name == flipped)
            .map(|i| i as u8)
    }
    pub fn industry_by_name(&self, name: &str) -> Option<u8> {
        self.industries
            .iter()
            .position(|x| x == name)
            .map(|i| i as u8)
    }
    pub fn card_by_name(&self, name: &str) -> Option<u8> {
        self.card_names
            .iter()
            .position(|x| x == name)
            .map(|i| i as u8)
    }
    /// Bitmask of the locations with a printed market trade icon (L-15).
    pub fn printed_trade_locations(&self) -> u64 {
        self.printed_trade
    }
    /// Canonical deck list for a shuffle: card kinds in order, each repeated by its count.
    pub fn deck_list(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.deck_size as usize);
        for (k, &n) in self.deck.iter().enumerate() {
            v.extend(std::iter::repeat_n(k as u8, n as usize));
        }
        v
    }
}

impl Layout {
    #[allow(clippy::too_many_arguments)]
    fn new(
        spaces: &[Space],
        lines: &[Line],
        num_industries: usize,
        num_cards: usize,
        cotton_mill: u8,
        port: u8,
        coal_mine: u8,
        iron_works: u8,
    ) -> Layout {
        let mut build_pairs = Vec::new();
        let mut build_index = vec![[u16::MAX; MAX_INDUSTRIES]; spaces.len()];
        for (s, space) in spaces.iter().enumerate() {
            for i in 0..num_industries {
                if space.icons & (1 << i) != 0 {
                    build_index[s][i] = build_pairs.len() as u16;
                    build_pairs.push((s as u8, i as u8));
                }
            }
        }
        let showing = |industry: u8| -> (Vec<u8>, Vec<u8>) {
            let list: Vec<u8> = (0..spaces.len() as u8)
                .filter(|&s| spaces[s as usize].icons & (1 << industry) != 0)
                .collect();
            let mut index = vec![NONE; spaces.len()];
            for (i, &s) in list.iter().enumerate() {
                index[s as usize] = i as u8;
            }
            (list, index)
        };
        let (mill_spaces, mill_index) = showing(cotton_mill);
        let (port_spaces, port_index) = showing(port);
        let (coal_spaces, coal_index) = showing(coal_mine);
        let (iron_spaces, iron_index) = showing(iron_works);
        // Legal-action generation keeps build pairs in a u128 bitmask.
        assert!(
            build_pairs.len() <= 128,
            "more than 128 (space, industry) pairs"
        );
        let builds = build_pairs.len() as u16;
        let build = 0u16;
        let build_double = build + builds;
        let link = build_double + builds;
        let develop = link + lines.len() as u16;
        let sell = develop + num_industries as u16;
        let loan = sell + (mill_spaces.len() * (port_spaces.len() + 1)) as u16;
        let pass = loan + 3;
        let coal = pass + 1;
        let iron = coal + coal_spaces.len() as u16;
        let stop = iron + iron_spaces.len() as u16;
        let card = stop + 1;
        let remove = card + num_cards as u16;
        let total = remove + spaces.len() as u16;
        Layout {
            build,
            build_double,
            link,
            develop,
            sell,
            loan,
            pass,
            coal,
            iron,
            stop,
            card,
            remove,
            total,
            build_pairs,
            build_index,
            mill_spaces,
            port_spaces,
            coal_spaces,
            iron_spaces,
            mill_index,
            port_index,
            coal_index,
            iron_index,
        }
    }
}
