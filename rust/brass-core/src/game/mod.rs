//! A game configuration: the catalog entry, the player count, the options, and everything derived from
//! the data (map, tile stacks, deck, markets, tracks, the action-id layout), plus the rule switches and
//! the per-game configuration block. Immutable once built (`build.rs`).
use crate::game::family::Variant;
use std::collections::BTreeMap;

pub mod birmingham;
pub mod build;
pub mod family;
pub mod lancashire;
mod layout;
pub mod parts;

pub use layout::{BeerSource, Layout, SaleTarget};
pub use parts::*;

/// A game configuration. Build it with [`Game::new`]; share it (it is immutable) between states.
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub players: u8,
    /// Options as given (name → JSON value), sorted; part of the state and record JSON.
    pub options: BTreeMap<String, serde_json::Value>,
    /// `<game>/<data version>`, recorded in states and records.
    pub data_id: String,
    pub industries: Vec<String>,
    /// Per industry, its role (entries past the game's industries are default).
    pub roles: [Role; MAX_INDUSTRIES],
    /// Per resource, the industry whose tiles produce it, or NONE.
    pub producer: [u8; 3],
    /// The industry whose tiles are ports (role `port`), or NONE.
    pub port_industry: u8,
    pub locations: Vec<Location>,
    /// Per location, its spaces as a bitmask.
    pub location_spaces: Vec<u64>,
    /// Per card kind, the spaces of the location it names (0 for the other cards), as a bitmask.
    pub card_spaces: Vec<u64>,
    /// The spaces of every location but the farm breweries: where a wild location card builds (B-10).
    pub town_spaces: u64,
    pub spaces: Vec<Space>,
    pub lines: Vec<Line>,
    /// Per location, the lines touching it.
    pub lines_at: Vec<Vec<u8>>,
    /// Per location, the bitmask of the lines touching it.
    pub lines_mask_at: Vec<u64>,
    /// The lines that take a link in each era (L-35, L-36), as bitmasks: Canal Era, Rail Era.
    pub lines_by_era: [u64; 2],
    /// Locations with a printed market trade icon, as a bitmask.
    pub printed_trade: u64,
    /// Per industry, the groups of identical spaces showing it, location by location in data order,
    /// a location's single-icon group first.
    pub space_groups: Vec<Vec<SpaceGroup>>,
    /// Per location, per industry, the range of `space_groups[industry]` at that location.
    pub space_group_ranges: Vec<[(u16, u16); MAX_INDUSTRIES]>,
    /// Per industry, a player's stack from the top (lowest level first), one entry per tile.
    pub stacks: Vec<Vec<TileSpec>>,
    pub card_kinds: Vec<CardKind>,
    pub card_names: Vec<String>,
    /// Per industry, the card kinds that build it with the network condition (its industry cards and the
    /// wild industry card), as a bitmask.
    pub industry_cards: Vec<u32>,
    /// The wild location card kind, or NONE.
    pub wild_location: u8,
    /// Wild cards of each kind that exist (B-17), per card kind (0 for cards of the deck).
    pub wild_count: Vec<u8>,
    /// The wild card kinds, as a bitmask.
    pub wild_kinds: u32,
    /// Cards of each kind in this configuration's deck.
    pub deck: Vec<u8>,
    pub deck_size: u8,
    /// Per resource, its market.
    pub markets: [Market; 2],
    /// Income level of each progress-track space.
    pub income_levels: Vec<i8>,
    pub start_income_space: u8,
    pub start_money: u8,
    pub hand_size: u8,
    pub links_per_player: u8,
    pub link_costs: LinkCosts,
    /// The loan amounts, ascending (L-45).
    pub loan_amounts: Vec<u8>,
    /// No loan may take the income level below this (L-45).
    pub lowest_income_level: i32,
    pub rounds_per_era: u8,
    pub first_round_actions: u8,
    pub actions_per_turn: u8,
    pub layout: Layout,
    pub switches: Switches,
    /// The per-game configuration (`games/`).
    pub variant: Variant,
    /// A number no other configuration built in this process has (its clones share it): the key of what is
    /// derived from a configuration and a position and kept between decisions (`context.rs`).
    pub uid: u64,
}

impl Game {
    /// Every space of the map, as a bitmask.
    pub fn all_spaces(&self) -> u64 {
        u64::MAX >> (64 - self.spaces.len())
    }
    /// The lines that take a link in `era` (L-35, L-36), as a bitmask.
    pub fn lines_in(&self, era: Era) -> u64 {
        match era {
            Era::Canal => self.lines_by_era[0],
            Era::Rail => self.lines_by_era[1],
        }
    }

    /// An upper bound on the decisions in one game (docs/actions.md, docs/birmingham.md): per card played
    /// at most 7 (the action, one coal and one iron choice per tile or link, one follow-up question, the
    /// card), 8 with Birmingham's double rail (its beer), plus per successful sale its follow-up, its beer choices
    /// and a bonus (each sale flips a tile that sells: at most a player's tiles of those industries), plus
    /// one per tile removed for a shortfall (at most a player's tiles).
    pub fn max_decisions(&self) -> u32 {
        let r = self.rounds_per_era as u32;
        let per_turn = self.actions_per_turn as u32;
        let cards = self.first_round_actions as u32 + per_turn * (r - 1) + per_turn * r;
        let tiles: u32 = self.stacks.iter().map(|s| s.len() as u32).sum();
        let mut per_sale = 1;
        let mut sold = 0;
        for i in (0..self.industries.len()).filter(|&i| self.roles[i].sold) {
            sold += self.stacks[i].len() as u32;
            let beer = self.stacks[i]
                .iter()
                .map(|t| t.beer as u32)
                .max()
                .unwrap_or(0);
            per_sale = per_sale.max(1 + beer + u32::from(!self.layout.beer_sources.is_empty()));
        }
        let per_card = 7 + u32::from(self.switches.double_rail_beer);
        self.players as u32 * (per_card * cards + per_sale * sold + tiles)
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

    /// The highest tile level of any industry (4 in Lancashire, 8 in Birmingham): the observation's scale.
    pub fn highest_level(&self) -> u8 {
        self.stacks
            .iter()
            .flatten()
            .map(|t| t.level)
            .max()
            .unwrap_or(1)
    }

    /// The industry producing `resource` (NONE if no industry does).
    pub fn producer(&self, resource: Resource) -> u8 {
        self.producer[resource.index()]
    }

    /// The resource `industry` produces, if any.
    pub fn produces(&self, industry: u8) -> Option<Resource> {
        self.roles[industry as usize].produces
    }

    /// The market of `resource` (coal or iron).
    pub fn market(&self, resource: Resource) -> &Market {
        &self.markets[resource.index()]
    }

    /// Is the card kind a wild card?
    pub fn is_wild(&self, kind: u8) -> bool {
        self.card_kinds[kind as usize].is_wild()
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

    /// The rounds of an era for this configuration's actions per turn: 1 action each in the first
    /// Canal round (L-8).
    pub fn actions_in(&self, era: Era, round: u8) -> u8 {
        if era == Era::Canal && round == 1 {
            self.first_round_actions
        } else {
            self.actions_per_turn
        }
    }

    /// Is (`era`, `round`) the last round of the game (L-11, L-54)?
    pub fn is_last_round(&self, era: Era, round: u8) -> bool {
        era == self.switches.last_era && round == self.rounds_per_era
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

impl Game {
    /// The Lancashire-family configuration. Only the Lancashire module and code behind its dispatch call
    /// this; any other game reaching it is an engine bug.
    pub fn lancashire(&self) -> &crate::game::lancashire::Config {
        match &self.variant {
            Variant::Lancashire(c) => c,
            Variant::Birmingham(_) => panic!("not a Lancashire-family game"),
        }
    }
    /// The Birmingham configuration (see [`Game::lancashire`]).
    pub fn birmingham(&self) -> &crate::game::birmingham::Config {
        match &self.variant {
            Variant::Birmingham(c) => c,
            Variant::Lancashire(_) => panic!("not Birmingham"),
        }
    }
    /// The name of a merchant space (`oxford/2`), in a game with merchants.
    pub fn merchant_space_name(&self, m: u8) -> &str {
        crate::game::birmingham::space_name(self.birmingham(), m)
    }
    /// The merchant space with this name, in a game with merchants (None in the others).
    pub fn merchant_space_by_name(&self, name: &str) -> Option<u8> {
        match &self.variant {
            Variant::Birmingham(c) => crate::game::birmingham::space_by_name(c, name),
            Variant::Lancashire(_) => None,
        }
    }
}
