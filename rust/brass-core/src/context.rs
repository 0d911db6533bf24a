//! The facts about a position that every legality check of one decision shares (`Ctx`), read from the board
//! in one pass: the player's network and presence, the link components (union-find), the coal and trade icons
//! of each component, the hand. Used by the rules and by the game modules' checks (docs/architecture.md).
use crate::game::{FirstBuild, Game, Resource, MAX_INDUSTRIES, MAX_LOCATIONS, NONE};
use crate::state::State;

/// Facts about the position that every check of one decision shares.
pub struct Ctx {
    pub player: u8,
    pub network: u64,
    /// The industry-card "first build anywhere" exception is no longer available to the player (L-22,
    /// C-6; see [`first_build_used`]).
    pub first_build_used: bool,
    /// The player has an industry tile or a link on the board (L-22, R-2, B-12).
    pub presence: bool,
    /// Per resource, the cubes on all unflipped tiles producing it (L-16, L-18).
    pub on_board: [u32; 2],
    /// Connected component of each location (L-14): locations are connected exactly when they share one.
    pub component: [u8; MAX_LOCATIONS],
    /// Per component: coal on its mines (L-16) and whether it holds a market trade icon (L-15).
    pub component_coal: [u32; MAX_LOCATIONS],
    pub component_trade: [bool; MAX_LOCATIONS],
    /// Locations holding one of the player's industry tiles (L-25).
    pub own_tile_locations: u64,
    /// Per industry, the undeveloped spaces a build may use (L-24), when computed for a build decision.
    pub canonical: Option<[u64; MAX_INDUSTRIES]>,
    /// The card kinds in the player's hand, as a bitmask.
    pub hand: u32,
}

/// Union-find root with path halving.
fn root(parent: &mut [u8; MAX_LOCATIONS], mut x: u8) -> u8 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

impl Ctx {
    pub fn new(game: &Game, state: &State, player: u8) -> Ctx {
        let coal = game.producer(Resource::Coal);
        let iron = game.producer(Resource::Iron);
        let port = game.port_industry;
        let mut on_board = [0u32; 2];
        let mut coal_at = [0u32; MAX_LOCATIONS];
        let mut own_tile_locations = 0u64;
        let mut presence = false;
        let mut trade = game.printed_trade_locations();
        for (s, tile) in state.board[..game.spaces.len()].iter().enumerate() {
            if tile.is_empty() {
                continue;
            }
            let loc = game.spaces[s].location;
            if tile.owner == player {
                own_tile_locations |= 1 << loc;
                presence = true;
            }
            if tile.industry == iron {
                on_board[Resource::Iron.index()] += tile.cubes as u32;
            } else if tile.industry == coal {
                on_board[Resource::Coal.index()] += tile.cubes as u32;
                coal_at[loc as usize] += tile.cubes as u32;
            } else if tile.industry == port {
                trade |= 1 << loc;
            }
        }
        let mut network = own_tile_locations;
        // Components by union-find over the placed links (any owner).
        let mut parent = [0u8; MAX_LOCATIONS];
        for (l, p) in parent.iter_mut().enumerate().take(game.locations.len()) {
            *p = l as u8;
        }
        for (i, &owner) in state.links[..game.lines.len()].iter().enumerate() {
            if owner == NONE {
                continue;
            }
            let line = &game.lines[i];
            if owner == player {
                network |= line.ends();
                presence = true;
            }
            let first = root(&mut parent, line.ends[0]);
            for &e in &line.ends[1..] {
                let r = root(&mut parent, e);
                if r != first {
                    parent[r as usize] = first;
                }
            }
        }
        let mut component = [NONE; MAX_LOCATIONS];
        let mut component_coal = [0u32; MAX_LOCATIONS];
        let mut component_trade = [false; MAX_LOCATIONS];
        for l in 0..game.locations.len() {
            let c = root(&mut parent, l as u8);
            component[l] = c;
            component_coal[c as usize] += coal_at[l];
            component_trade[c as usize] |= trade & (1 << l) != 0;
        }
        let first_build_used = match game.switches.first_build {
            FirstBuild::NothingOnBoard => presence,
            FirstBuild::FirstOfGame => state.players[player as usize].built_industry,
        };
        Ctx {
            player,
            network,
            first_build_used,
            presence,
            on_board,
            component,
            component_coal,
            component_trade,
            own_tile_locations,
            canonical: None,
            hand: state.players[player as usize].hand_kinds(),
        }
    }

    /// Are two locations connected (L-14)?
    pub fn connected(&self, a: u8, b: u8) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }
}
