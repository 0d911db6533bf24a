//! Building a [`Game`] from the catalog (name, players, options) and the data file, one builder per part:
//! options, map, tiles, cards, switches; the per-game block comes from the game's module (`games/`).
use super::layout::{Layout, LayoutSpec};
pub use super::parts::Options;
use super::{
    CardKind, Era, FirstBuild, FirstOrder, Game, LinkCosts, LoanBan, Location, Market, RailCoal,
    Resource, Role, Space, SpaceGroup, Switches, TileSpec, MAX_CARD_KINDS, MAX_DECK,
    MAX_INDUSTRIES, MAX_LINES, MAX_LOCATIONS, MAX_SPACES, NONE,
};
use crate::catalog::{self, spoken_list, GameEntry};
use crate::data::{self, DataFile};
use crate::error::{Error, Result};
use crate::game::family::{self as games, Family};
use std::collections::BTreeMap;

/// A failure of the embedded data: a build defect, reported as a configuration error.
fn bad(what: String) -> Error {
    Error::Config(format!("game data: {what}"))
}

impl Game {
    /// Build a configuration from a catalog name (`brass.games()`), a player count and options (the
    /// keyword options of the API). Unknown names, options, option types or player counts are a
    /// [`Error::Config`] naming what is allowed.
    pub fn new(
        name: &str,
        players: i64,
        options: &BTreeMap<String, serde_json::Value>,
    ) -> Result<Game> {
        let entry = catalog::entry(name).ok_or_else(|| {
            let names: Vec<String> = catalog::catalog()
                .games
                .iter()
                .map(|g| format!("\"{}\"", g.name))
                .collect();
            Error::Config(format!(
                "unknown game `{name}`; available: {}",
                names.join(", ")
            ))
        })?;
        Game::from_entry(entry, players, options)
    }

    /// Build a configuration from a catalog entry (`Game::new` looks the entry up by name; tests may
    /// build a game that is not registered yet).
    pub fn from_entry(
        entry: &GameEntry,
        players: i64,
        options: &BTreeMap<String, serde_json::Value>,
    ) -> Result<Game> {
        let name = entry.name.as_str();
        if !(0..=255).contains(&players) || !entry.players.contains(&(players as u8)) {
            return Err(Error::Config(format!(
                "{name} is played by {} players, not {players}",
                spoken_list(&entry.players)
            )));
        }
        let players = players as u8;
        let (flags, recorded) = read_options(entry, players, options)?;
        let family = Family::from_name(&entry.family)
            .ok_or_else(|| bad(format!("unknown rules family `{}`", entry.family)))?;
        let text = data::embedded(&entry.data)
            .ok_or_else(|| bad(format!("no data file `{}`", entry.data)))?;
        let data = data::parse(text).map_err(|e| bad(e.to_string()))?;
        Game::from_data(entry, family, players, recorded, flags, &data)
    }

    fn from_data(
        entry: &GameEntry,
        family: Family,
        players: u8,
        options: BTreeMap<String, serde_json::Value>,
        flags: Options,
        data: &DataFile,
    ) -> Result<Game> {
        let (roles, producer) = build_roles(data)?;
        let map = build_map(data)?;
        let stacks = build_stacks(data, family == Family::Classic)?;
        let cards = build_cards(data, &map.locations, family, players, flags)?;
        let space_group_ranges = group_ranges(&map.space_groups, map.locations.len());
        let mut locations = map.locations;
        for (k, kind) in cards.kinds.iter().enumerate() {
            if let CardKind::Location(l) = kind {
                locations[*l as usize].card = k as u8;
            }
        }
        let variant = games::configure(family, data, players, flags, &locations)?;
        let switches = build_switches(data, family, players, flags)?;
        let rounds_per_era = rounds(data, family, players, flags)?;
        let sold = roles
            .iter()
            .enumerate()
            .filter(|(_, r)| r.sold)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        let layout = Layout::new(LayoutSpec {
            spaces: &map.spaces,
            lines: map.lines.len(),
            industries: data.industries.len(),
            cards: cards.kinds.len(),
            sold,
            sale_targets: games::sale_targets(&variant, &map.spaces, &roles),
            coal_producer: producer[Resource::Coal.index()],
            iron_producer: producer[Resource::Iron.index()],
            loans: data.loans.amounts.len(),
            double_build: games::has_double_build(family),
            scout: games::has_scout(family),
            beer_sources: games::beer_sources(
                &variant,
                &map.spaces,
                producer[Resource::Beer.index()],
            ),
        });
        let (printed_trade, location_spaces, card_spaces, town_spaces) =
            location_masks(&locations, cards.kinds.len());
        let start_money = match (&data.classic, family) {
            (Some(c), Family::Classic) => c.money,
            _ => data.setup.money,
        };
        Ok(Game {
            name: entry.name.clone(),
            players,
            options,
            data_id: format!("{}/{}", data.game, data.version),
            industries: data.industries.clone(),
            port_industry: (0..data.industries.len())
                .find(|&i| roles[i].port)
                .map_or(NONE, |i| i as u8),
            roles,
            producer,
            printed_trade,
            locations,
            location_spaces,
            card_spaces,
            town_spaces,
            space_group_ranges,
            space_groups: map.space_groups,
            spaces: map.spaces,
            lines_at: map.lines_at,
            lines_mask_at: map.lines_mask_at,
            lines_by_era: lines_by_era(&map.lines),
            lines: map.lines,
            stacks,
            industry_cards: cards.industry_cards(data.industries.len()),
            wild_location: cards
                .kinds
                .iter()
                .position(|k| *k == CardKind::WildLocation)
                .map_or(NONE, |k| k as u8),
            wild_count: data
                .card_kinds
                .iter()
                .map(|id| data.wild_cards.get(id).map_or(0, |w| w.count))
                .collect(),
            wild_kinds: cards
                .kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| k.is_wild())
                .fold(0, |m, (k, _)| m | 1 << k),
            card_kinds: cards.kinds,
            card_names: data.card_kinds.clone(),
            deck_size: cards.deck.iter().map(|&c| c as u32).sum::<u32>() as u8,
            deck: cards.deck,
            markets: [market(&data.coal_market), market(&data.iron_market)],
            income_levels: data.income_track.levels.clone(),
            start_income_space: data.income_track.start_space,
            start_money,
            hand_size: data.setup.hand_size,
            links_per_player: data.setup.links,
            link_costs: LinkCosts {
                canal: data.link_costs.canal,
                rail: data.link_costs.rail,
                second_rail: data.link_costs.second_rail,
            },
            loan_amounts: data.loans.amounts.clone(),
            lowest_income_level: data.loans.lowest_income_level as i32,
            rounds_per_era,
            first_round_actions: data.setup.first_round_actions,
            actions_per_turn: data.setup.actions_per_turn,
            layout,
            switches,
            variant,
            uid: next_uid(),
        })
    }
}

/// Check the options against the catalog entry: known names, the right types, the player counts they
/// allow; the game's module refuses values it cannot play. Returns the flags and the options to record
/// (only those set: an option given as False is the configuration without it).
fn read_options(
    entry: &GameEntry,
    players: u8,
    options: &BTreeMap<String, serde_json::Value>,
) -> Result<(Options, BTreeMap<String, serde_json::Value>)> {
    let mut flags = Options::default();
    let mut recorded = BTreeMap::new();
    for (key, value) in options {
        let Some(spec) = entry.options.iter().find(|o| o.name == *key) else {
            return Err(Error::Config(if entry.options.is_empty() {
                format!(
                    "unknown option `{key}`: {} ({}) takes no options",
                    entry.name, entry.title
                )
            } else {
                let names: Vec<&str> = entry.options.iter().map(|o| o.name.as_str()).collect();
                format!(
                    "unknown option `{key}` for {}; options: {}",
                    entry.name,
                    names.join(", ")
                )
            }));
        };
        match spec.kind.as_str() {
            "bool" => {
                let on = value.as_bool().ok_or_else(|| {
                    Error::Config(format!("option `{key}` is True or False, not {value}"))
                })?;
                if on {
                    flags.set(key);
                    recorded.insert(key.clone(), value.clone());
                }
            }
            _ => return Err(games::refuse_option(entry, key, value)),
        }
    }
    for spec in &entry.options {
        if recorded.contains_key(&spec.name) && !spec.players.contains(&players) {
            return Err(Error::Config(format!(
                "{} ({}) is for {} players",
                spec.name,
                spec.rule,
                spoken_list(&spec.players)
            )));
        }
    }
    Ok((flags, recorded))
}

fn build_roles(data: &DataFile) -> Result<([Role; MAX_INDUSTRIES], [u8; 3])> {
    if data.industries.len() > MAX_INDUSTRIES {
        return Err(bad("too many industries".into()));
    }
    let mut roles = [Role::default(); MAX_INDUSTRIES];
    let mut producer = [NONE; 3];
    for (i, industry) in data.industries.iter().enumerate() {
        let r = data
            .industry_roles
            .get(industry)
            .ok_or_else(|| bad(format!("no role for `{industry}`")))?;
        let produces = match &r.produces {
            None => None,
            Some(name) => Some(
                Resource::from_name(name)
                    .ok_or_else(|| bad(format!("unknown resource `{name}`")))?,
            ),
        };
        if let Some(res) = produces {
            producer[res.index()] = i as u8;
        }
        roles[i] = Role {
            produces,
            sold: r.sold,
            port: r.port,
            flips_when_built: r.flips_when_built,
        };
    }
    Ok((roles, producer))
}

/// The map: locations, spaces, lines and the groups of identical spaces.
struct Map {
    locations: Vec<Location>,
    spaces: Vec<Space>,
    lines: Vec<super::Line>,
    lines_at: Vec<Vec<u8>>,
    lines_mask_at: Vec<u64>,
    space_groups: Vec<Vec<SpaceGroup>>,
}

fn industry_index(data: &DataFile, id: &str) -> Result<u8> {
    data.industries
        .iter()
        .position(|x| x == id)
        .map(|i| i as u8)
        .ok_or_else(|| bad(format!("unknown industry `{id}`")))
}

fn location_index(data: &DataFile, id: &str) -> Result<u8> {
    data.locations
        .iter()
        .position(|l| l.id == id)
        .map(|i| i as u8)
        .ok_or_else(|| bad(format!("unknown location `{id}`")))
}

fn build_map(data: &DataFile) -> Result<Map> {
    let mut locations = Vec::new();
    let mut spaces = Vec::new();
    for (li, loc) in data.locations.iter().enumerate() {
        let first_space = spaces.len() as u8;
        for (n, icons) in loc.spaces.iter().enumerate() {
            let mut mask = 0u8;
            for icon in icons {
                mask |= 1 << industry_index(data, icon)?;
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
            farm: loc.farm,
        });
    }
    let mut lines = Vec::new();
    let mut lines_at = vec![Vec::new(); locations.len()];
    for (i, l) in data.lines.iter().enumerate() {
        let list = l
            .ends
            .iter()
            .map(|e| location_index(data, e))
            .collect::<Result<Vec<u8>>>()?;
        let ends = super::LineEnds::new(&list)
            .ok_or_else(|| bad(format!("line {i} needs two or three ends")))?;
        for &e in ends.iter() {
            lines_at[e as usize].push(i as u8);
        }
        lines.push(super::Line {
            mask: ends.iter().fold(0, |m, &e| m | 1 << e),
            ends,
            canal: l.canal,
            rail: l.rail,
            name: format!("{}-{}", l.ends[0], l.ends[1]),
        });
    }
    if locations.len() > MAX_LOCATIONS || spaces.len() > MAX_SPACES || lines.len() > MAX_LINES {
        return Err(bad("map too large".into()));
    }
    let lines_mask_at = lines_at
        .iter()
        .map(|ls| ls.iter().fold(0u64, |m, &l| m | 1 << l))
        .collect();
    let space_groups = group_spaces(&locations, &spaces, data.industries.len());
    Ok(Map {
        locations,
        spaces,
        lines,
        lines_at,
        lines_mask_at,
        space_groups,
    })
}

/// Per industry, the groups of identical spaces showing it (L-24): location by location, a location's
/// single-icon group first.
fn group_spaces(
    locations: &[Location],
    spaces: &[Space],
    industries: usize,
) -> Vec<Vec<SpaceGroup>> {
    let mut space_groups = vec![Vec::new(); industries];
    for (li, loc) in locations.iter().enumerate() {
        for (i, groups) in space_groups.iter_mut().enumerate() {
            let only = 1u8 << i;
            let mut mine: Vec<SpaceGroup> = Vec::new();
            let mut icons_of: Vec<u8> = Vec::new();
            for s in loc.spaces() {
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
    space_groups
}

/// Per era (canal, rail), the lines open in it, as a bitmask (`Game::lines_by_era`).
fn lines_by_era(lines: &[super::Line]) -> [u64; 2] {
    [Era::Canal, Era::Rail].map(|era| {
        (lines.iter().enumerate())
            .filter(|(_, l)| l.allowed_in(era))
            .fold(0, |m, (i, _)| m | 1 << i)
    })
}

/// Per location, per industry, the range of the industry's groups at the location (`Game::space_group_ranges`;
/// the groups are in location order).
fn group_ranges(groups: &[Vec<SpaceGroup>], locations: usize) -> Vec<[(u16, u16); MAX_INDUSTRIES]> {
    let mut ranges = vec![[(0u16, 0u16); MAX_INDUSTRIES]; locations];
    for (industry, groups) in groups.iter().enumerate() {
        for (i, g) in groups.iter().enumerate() {
            let r = &mut ranges[g.location as usize][industry];
            if r.0 == r.1 {
                *r = (i as u16, i as u16 + 1);
            } else {
                r.1 = i as u16 + 1;
            }
        }
    }
    ranges
}

/// Per industry, a player's stack of tiles from the top (R-11: the classic VP where they differ).
fn build_stacks(data: &DataFile, classic: bool) -> Result<Vec<Vec<TileSpec>>> {
    let mut stacks = Vec::new();
    for industry in &data.industries {
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
                vp: match (classic, row.vp_classic) {
                    (true, Some(vp)) => vp,
                    _ => row.vp,
                },
                income: row.income,
                cubes: row.cubes,
                cubes_rail: row.cubes_rail.unwrap_or(row.cubes),
                canal: row.eras.iter().any(|e| e == "canal"),
                rail: row.eras.iter().any(|e| e == "rail"),
                link_icons: row.link_icons,
                beer: row.beer,
                developable: row.developable,
            };
            stack.extend(std::iter::repeat_n(spec, row.count as usize));
        }
        stacks.push(stack);
    }
    Ok(stacks)
}

/// A market's prices, empty price and starting cubes, from the data.
fn market(data: &data::MarketData) -> Market {
    Market {
        prices: data.prices.clone(),
        empty_price: data.empty_price,
        start: data.start,
    }
}

/// The card kinds and this configuration's deck.
struct Cards {
    kinds: Vec<CardKind>,
    deck: Vec<u8>,
}

impl Cards {
    /// Per industry, the card kinds that build it: its industry cards and the wild industry card.
    fn industry_cards(&self, industries: usize) -> Vec<u32> {
        (0..industries)
            .map(|i| {
                self.kinds
                    .iter()
                    .enumerate()
                    .fold(0u32, |m, (k, kind)| match kind {
                        CardKind::Industry(mask) if mask & (1 << i) != 0 => m | 1 << k,
                        CardKind::WildIndustry => m | 1 << k,
                        _ => m,
                    })
            })
            .collect()
    }
}

fn build_cards(
    data: &DataFile,
    locations: &[Location],
    family: Family,
    players: u8,
    flags: Options,
) -> Result<Cards> {
    let mut kinds = Vec::new();
    for id in &data.card_kinds {
        if let Some(industries) = data.industry_cards.get(id) {
            let mut mask = 0u8;
            for i in industries {
                mask |= 1 << industry_index(data, i)?;
            }
            kinds.push(CardKind::Industry(mask));
        } else if let Some(wild) = data.wild_cards.get(id) {
            kinds.push(match wild.builds.as_str() {
                "location" => CardKind::WildLocation,
                "industry" => CardKind::WildIndustry,
                other => return Err(bad(format!("wild card `{id}` builds `{other}`"))),
            });
        } else if let Ok(i) = industry_index(data, id) {
            kinds.push(CardKind::Industry(1 << i));
        } else {
            let l = locations
                .iter()
                .position(|l| l.id == *id)
                .ok_or_else(|| bad(format!("unknown card `{id}`")))?;
            kinds.push(CardKind::Location(l as u8));
        }
    }
    let deck_key = if family == Family::Classic || flags.classic_deck {
        "full".to_string()
    } else {
        players.to_string()
    };
    let composition = data
        .decks
        .get(&deck_key)
        .ok_or_else(|| bad(format!("no deck for {players} players")))?;
    let mut deck = vec![0u8; kinds.len()];
    for (card, count) in composition {
        let k = data
            .card_kinds
            .iter()
            .position(|c| c == card)
            .ok_or_else(|| bad(format!("unknown card `{card}`")))?;
        deck[k] = *count;
    }
    let size: u32 = deck.iter().map(|&c| c as u32).sum();
    if size as usize > MAX_DECK || kinds.len() > MAX_CARD_KINDS {
        return Err(bad("deck too large".into()));
    }
    Ok(Cards { kinds, deck })
}

/// Rounds per era (L-7; C-2 and L-56: the classic counts, 10 at 3 players).
fn rounds(data: &DataFile, family: Family, players: u8, flags: Options) -> Result<u8> {
    let table = match (
        &data.classic,
        family == Family::Classic || flags.classic_deck,
    ) {
        (Some(c), true) => &c.rounds_per_era,
        _ => &data.setup.rounds_per_era,
    };
    table
        .get(&players.to_string())
        .copied()
        .ok_or_else(|| bad(format!("no round count for {players} players")))
}

fn build_switches(
    data: &DataFile,
    family: Family,
    players: u8,
    flags: Options,
) -> Result<Switches> {
    let classic = family == Family::Classic;
    let removed = |era: &str| -> u8 {
        data.classic
            .as_ref()
            .and_then(|c| c.removed_unseen.get(era))
            .and_then(|m| m.get(&players.to_string()))
            .copied()
            .unwrap_or(0)
    };
    let birmingham = family == Family::Birmingham;
    let (removed_canal, removed_rail) = match (classic, flags.classic_deck) {
        (true, _) => (removed("canal"), removed("rail")),
        (false, true) => (0, removed("rail")),
        // B-1: the face-down cards are out of play in the Canal Era.
        (false, false) => (players * data.setup.face_down_cards, 0),
    };
    Ok(Switches {
        last_era: if flags.intro { Era::Canal } else { Era::Rail },
        intro: flags.intro,
        income_at_round_start: classic,
        loan_ban: match family {
            Family::Classic => LoanBan::RailDeckEmpty,
            Family::Lancashire => LoanBan::LastFourRailRounds,
            Family::Birmingham => LoanBan::Never,
        },
        tie_break_turn_order: classic,
        money_vp: !birmingham,
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
        removed_canal,
        removed_rail,
        first_link_anywhere: birmingham,
        double_rail_beer: birmingham,
    })
}

/// The locations with a printed trade icon; the spaces of each location, of the location each card kind
/// names, and of every location but the farm breweries; as bitmasks (`Game::printed_trade`,
/// `location_spaces`, `card_spaces`, `town_spaces`).
fn location_masks(locations: &[Location], card_kinds: usize) -> (u64, Vec<u64>, Vec<u64>, u64) {
    let printed_trade = locations
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trade_icon)
        .fold(0, |m, (i, _)| m | 1 << i);
    let location_spaces: Vec<u64> = locations
        .iter()
        .map(|l| l.spaces().fold(0u64, |m, s| m | 1 << s))
        .collect();
    let mut card_spaces = vec![0u64; card_kinds];
    let mut town_spaces = 0u64;
    for (l, loc) in locations.iter().enumerate() {
        if loc.card != NONE {
            card_spaces[loc.card as usize] |= location_spaces[l];
        }
        if !loc.farm {
            town_spaces |= location_spaces[l];
        }
    }
    (printed_trade, location_spaces, card_spaces, town_spaces)
}

/// A fresh `Game::uid` (never 0, the "none yet" of the caches keyed by it).
fn next_uid() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
