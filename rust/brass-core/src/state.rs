//! The game state: small, flat and `Copy`, so cloning is a memcpy (docs/architecture.md).
use crate::game::family::Extra;
use crate::game::{
    Era, Game, MAX_CARD_KINDS, MAX_DECK, MAX_INDUSTRIES, MAX_LINES, MAX_PLAYERS, MAX_SPACES, NONE,
};
use crate::rng::Rng;

/// What the current player is being asked (docs/actions.md, "Decisions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    Action,
    Coal,
    Iron,
    /// Second rail link or stop.
    Link,
    /// Second tile or stop.
    Develop,
    /// Another sale or stop.
    Sell,
    Card,
    Remove,
    Over,
    /// Where the next beer barrel comes from (Birmingham, B-25).
    Beer,
    /// Gloucester's free develop, or `stop` to decline it (Birmingham, B-26, R-17).
    Bonus,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Action => "action",
            Decision::Coal => "coal",
            Decision::Iron => "iron",
            Decision::Link => "link",
            Decision::Develop => "develop",
            Decision::Sell => "sell",
            Decision::Card => "card",
            Decision::Remove => "remove",
            Decision::Over => "over",
            Decision::Beer => "beer",
            Decision::Bonus => "bonus",
        }
    }
    pub fn from_name(name: &str) -> Option<Decision> {
        Some(match name {
            "action" => Decision::Action,
            "coal" => Decision::Coal,
            "iron" => Decision::Iron,
            "link" => Decision::Link,
            "develop" => Decision::Develop,
            "sell" => Decision::Sell,
            "card" => Decision::Card,
            "remove" => Decision::Remove,
            "over" => Decision::Over,
            "beer" => Decision::Beer,
            "bonus" => Decision::Bonus,
            _ => return None,
        })
    }
}

/// The kind of the action under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    Build,
    Link,
    Develop,
    Sell,
    Loan,
    Pass,
    /// Birmingham's Scout (B-17).
    Scout,
}

impl ActionKind {
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Build => "build",
            ActionKind::Link => "link",
            ActionKind::Develop => "develop",
            ActionKind::Sell => "sell",
            ActionKind::Loan => "loan",
            ActionKind::Pass => "pass",
            ActionKind::Scout => "scout",
        }
    }
    pub fn from_name(name: &str) -> Option<ActionKind> {
        Some(match name {
            "build" => ActionKind::Build,
            "link" => ActionKind::Link,
            "develop" => ActionKind::Develop,
            "sell" => ActionKind::Sell,
            "loan" => ActionKind::Loan,
            "pass" => ActionKind::Pass,
            "scout" => ActionKind::Scout,
            _ => return None,
        })
    }
}

/// The action under way between decisions (docs/state-format.md, `action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Underway {
    pub kind: ActionKind,
    pub double: bool,
    /// Build: the space; link: the line placed last; a sale under way: the space of the tile sold; NONE
    /// otherwise.
    pub target: u8,
    /// Cubes still to take for the build / link / develop under way.
    pub coal: u8,
    pub iron: u8,
    /// Beer barrels still to take (Birmingham: a sale, a second rail).
    pub beer: u8,
    /// Links placed, tiles developed or successful sales so far; Scout: cards discarded so far.
    pub count: u8,
    /// Single build: bitmask of the card kinds that could pay; `None`: any card in hand pays.
    pub cards: Option<u32>,
    /// Double build: the first card's kind once discarded; Scout: the last card discarded; else NONE.
    pub first_card: u8,
    /// A sale under way: the index of its target in the Sell block (`Layout::sale_targets`), else NONE.
    pub sale: u8,
    /// The sale under way took the merchant's barrel (B-26: its bonus).
    pub merchant_beer: bool,
}

impl Underway {
    /// Cubes of `resource` still to take.
    pub fn owed(&self, resource: crate::game::Resource) -> u8 {
        match resource {
            crate::game::Resource::Coal => self.coal,
            crate::game::Resource::Iron => self.iron,
            crate::game::Resource::Beer => self.beer,
        }
    }
    pub fn owed_mut(&mut self, resource: crate::game::Resource) -> &mut u8 {
        match resource {
            crate::game::Resource::Coal => &mut self.coal,
            crate::game::Resource::Iron => &mut self.iron,
            crate::game::Resource::Beer => &mut self.beer,
        }
    }
    pub fn new(kind: ActionKind) -> Underway {
        Underway {
            kind,
            double: false,
            target: NONE,
            coal: 0,
            iron: 0,
            beer: 0,
            count: 0,
            cards: None,
            first_card: NONE,
            sale: NONE,
            merchant_beer: false,
        }
    }
}

/// An industry tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: u8,
    pub industry: u8,
    pub level: u8,
    pub flipped: bool,
    pub cubes: u8,
}

impl Tile {
    pub const EMPTY: Tile = Tile {
        owner: NONE,
        industry: NONE,
        level: 0,
        flipped: false,
        cubes: 0,
    };
    pub fn is_empty(&self) -> bool {
        self.owner == NONE
    }
}

/// Who holds each space and line and which industry each tile is, as bitmasks: what the rules would
/// otherwise scan the whole board and every line for at each decision (docs/performance.md). It is a
/// function of `State::board` and `State::links` alone, so two states with the same board and links have the
/// same occupancy and the state JSON does not hold it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Occupancy {
    /// Per player, the spaces holding their industry tiles.
    pub tiles_of: [u64; MAX_PLAYERS],
    /// Per player, the lines holding their links.
    pub links_of: [u64; MAX_PLAYERS],
    /// Per industry, the spaces holding a tile of it.
    pub industry_spaces: [u64; MAX_INDUSTRIES],
}

impl Occupancy {
    /// The occupancy of a board and its links, read from every space and line.
    pub fn of(board: &[Tile; MAX_SPACES], links: &[u8; MAX_LINES]) -> Occupancy {
        let mut o = Occupancy::default();
        for (s, tile) in board.iter().enumerate() {
            o.mark_tile(s as u8, tile, true);
        }
        for (l, &owner) in links.iter().enumerate() {
            o.mark_link(l as u8, owner, true);
        }
        o
    }

    /// Set (or clear) the bits of `tile` on `space`. An owner or industry out of range (a state written by
    /// hand, which `invariants::check_state` refuses) marks nothing rather than panicking.
    fn mark_tile(&mut self, space: u8, tile: &Tile, on: bool) {
        if tile.is_empty() {
            return;
        }
        let bit = 1u64 << space;
        for mask in [
            self.tiles_of.get_mut(tile.owner as usize),
            self.industry_spaces.get_mut(tile.industry as usize),
        ]
        .into_iter()
        .flatten()
        {
            *mask = if on { *mask | bit } else { *mask & !bit };
        }
    }

    /// Set (or clear) the bit of a link of `owner` (NONE: no link) on `line`.
    fn mark_link(&mut self, line: u8, owner: u8, on: bool) {
        if let Some(mask) = self.links_of.get_mut(owner as usize) {
            let bit = 1u64 << line;
            *mask = if on { *mask | bit } else { *mask & !bit };
        }
    }

    /// The spaces holding a tile.
    pub fn occupied(&self) -> u64 {
        self.tiles_of.iter().fold(0, |m, &t| m | t)
    }

    /// The lines holding a link.
    pub fn placed_links(&self) -> u64 {
        self.links_of.iter().fold(0, |m, &l| m | l)
    }
}

/// One player's holdings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// Negative only while a shortfall is being paid (decision `remove`).
    pub money: i32,
    pub money_spent: i32,
    pub income_space: u8,
    pub vp: i32,
    pub hand: [u8; MAX_CARD_KINDS],
    pub discards: [u8; MAX_CARD_KINDS],
    /// Tiles taken from the top of each industry's stack (built or developed).
    pub taken: [u8; MAX_INDUSTRIES],
    pub links_left: u8,
    /// The player has built an industry tile this game (C-6, R-14; classic Brass only, else false).
    pub built_industry: bool,
}

impl Player {
    pub fn hand_size(&self) -> u32 {
        // Eight counts at a time (this runs several times per decision): bytes added in pairs into 16-bit
        // lanes, then the four lanes summed by a multiply (at most 4 × 510 per word, no overflow).
        const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
        let mut size = 0u32;
        for chunk in self.hand.chunks_exact(8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let pairs = (w & LOW_BYTES) + ((w >> 8) & LOW_BYTES);
            size += (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
        }
        size
    }
    /// Bitmask of the card kinds in hand.
    pub fn hand_kinds(&self) -> u32 {
        // Eight kinds at a time (this runs at every decision): a byte's top bit marks a non-zero count,
        // and the multiply gathers the eight top bits into the top byte.
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let mut kinds = 0u32;
        for (i, chunk) in self.hand.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let nonzero = (((w & LOW7) + LOW7) | w) & !LOW7;
            let bits = ((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
            kinds |= bits << (8 * i);
        }
        kinds
    }
}

/// A complete game position, hidden information included. Rules live in the other modules and take the
/// [`Game`] configuration alongside the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub rng: Rng,
    pub era: Era,
    pub round: u8,
    pub turn_order: [u8; MAX_PLAYERS],
    /// Index into `turn_order`; equal to the player count at end of round and when over.
    pub turn: u8,
    pub actions_left: u8,
    pub decision: Decision,
    pub action: Option<Underway>,
    pub players: [Player; MAX_PLAYERS],
    pub board: [Tile; MAX_SPACES],
    /// Owner of the link on each line, or NONE.
    pub links: [u8; MAX_LINES],
    /// Who and what holds each space and line, as bitmasks: a summary of `board` and `links` kept current by
    /// [`State::set_tile`] and [`State::set_link`]. Code that writes `board` or `links` directly must call
    /// [`State::refresh_occupancy`] after.
    pub occupancy: Occupancy,
    /// Cubes in each resource's market (coal, iron); the `k` cubes sit on the `k` most expensive spaces.
    pub markets: [u8; 2],
    /// The draw pile is `deck[deck_pos..deck_len]`, next card first.
    pub deck: [u8; MAX_DECK],
    pub deck_pos: u8,
    pub deck_len: u8,
    /// Cards out of the game, unseen (C-3, L-56), counted by kind.
    pub removed: [u8; MAX_CARD_KINDS],
    /// The game's own part of the position (`games/`).
    pub extra: Extra,
}

impl State {
    /// Put `tile` on `space` (`Tile::EMPTY` clears it), keeping the occupancy current.
    pub fn set_tile(&mut self, space: u8, tile: Tile) {
        let old = self.board[space as usize];
        self.occupancy.mark_tile(space, &old, false);
        self.occupancy.mark_tile(space, &tile, true);
        self.board[space as usize] = tile;
    }

    /// Give `line` a link of `owner` (NONE removes it), keeping the occupancy current.
    pub fn set_link(&mut self, line: u8, owner: u8) {
        let old = self.links[line as usize];
        self.occupancy.mark_link(line, old, false);
        self.occupancy.mark_link(line, owner, true);
        self.links[line as usize] = owner;
    }

    /// The spaces holding a tile of `industry` (none for NONE).
    pub fn tiles_of_industry(&self, industry: u8) -> u64 {
        self.occupancy
            .industry_spaces
            .get(industry as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Recompute the occupancy from `board` and `links`, after writing them directly.
    pub fn refresh_occupancy(&mut self) {
        self.occupancy = Occupancy::of(&self.board, &self.links);
    }

    /// Does the occupancy match `board` and `links`?
    pub fn occupancy_is_current(&self) -> bool {
        self.occupancy == Occupancy::of(&self.board, &self.links)
    }

    /// The player who must decide now, or None when the game is over.
    pub fn current_player(&self, game: &Game) -> Option<u8> {
        match self.decision {
            Decision::Over => None,
            Decision::Remove => self.turn_order[..game.players as usize]
                .iter()
                .copied()
                .find(|&p| self.players[p as usize].money < 0),
            _ => Some(self.turn_order[self.turn as usize]),
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.decision == Decision::Over
    }

    /// Cards left in the draw pile.
    pub fn deck_size(&self) -> u8 {
        self.deck_len - self.deck_pos
    }

    /// Cubes in the market of `resource`.
    pub fn market(&self, resource: crate::game::Resource) -> u8 {
        self.markets[resource.index()]
    }

    /// The lowest tile of `industry` left on `player`'s mat.
    pub fn next_tile<'g>(
        &self,
        game: &'g Game,
        player: u8,
        industry: u8,
    ) -> Option<&'g crate::game::TileSpec> {
        let taken = self.players[player as usize].taken[industry as usize] as usize;
        game.stacks[industry as usize].get(taken)
    }

    pub fn income_level(&self, game: &Game, player: u8) -> i32 {
        game.income_level(self.players[player as usize].income_space)
    }
}

impl State {
    /// The Lancashire-family block of the position (see [`Game::lancashire`]).
    pub fn lancashire(&self) -> &crate::game::lancashire::Extra {
        match &self.extra {
            Extra::Lancashire(e) => e,
            Extra::Birmingham(_) => panic!("not a Lancashire-family position"),
        }
    }
    pub fn lancashire_mut(&mut self) -> &mut crate::game::lancashire::Extra {
        match &mut self.extra {
            Extra::Lancashire(e) => e,
            Extra::Birmingham(_) => panic!("not a Lancashire-family position"),
        }
    }
    /// The Birmingham block of the position.
    pub fn birmingham(&self) -> &crate::game::birmingham::Extra {
        match &self.extra {
            Extra::Birmingham(e) => e,
            Extra::Lancashire(_) => panic!("not a Birmingham position"),
        }
    }
    pub fn birmingham_mut(&mut self) -> &mut crate::game::birmingham::Extra {
        match &mut self.extra {
            Extra::Birmingham(e) => e,
            Extra::Lancashire(_) => panic!("not a Birmingham position"),
        }
    }
}
