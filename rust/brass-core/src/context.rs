//! The facts about a position that every legality check of one decision shares (`Ctx`), read from the state's
//! occupancy (bitmasks of the tiles and links on the board, `state::Occupancy`) rather than from every space:
//! the player's network and presence, the link components (union-find, kept while the links stay the same), the
//! coal and trade icons of each component, the hand. Used by the rules and by the game modules' checks
//! (docs/architecture.md).
use crate::game::{FirstBuild, Game, Resource, MAX_INDUSTRIES, MAX_LOCATIONS, NONE};
use crate::state::State;
use std::cell::Cell;

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
    /// Per component: coal on its mines (L-16).
    pub component_coal: [u16; MAX_LOCATIONS],
    /// The components holding a market trade icon (L-15), as a bitmask of component names.
    pub trade_components: u64,
    /// Locations holding one of the player's industry tiles (L-25).
    pub own_tile_locations: u64,
    /// The lines that hold a link (anyone's), as a bitmask.
    pub placed_links: u64,
    /// The spaces that hold a tile, as a bitmask (per industry: `state.occupancy.industry_spaces`).
    pub occupied: u64,
    /// Per industry, the undeveloped spaces a build may use (L-24), when computed for a build decision.
    pub canonical: Option<[u64; MAX_INDUSTRIES]>,
    /// With `canonical`: the industries whose next tile may be built in this era and costs no more than the
    /// player's money, as a bitmask (0 when not computed).
    pub buildable: u32,
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

/// The link components of a board (L-14), which depend only on the lines holding a link (`placed`, a bitmask):
/// the component of each location, named by one of its locations.
fn link_components(game: &Game, mut placed: u64) -> [u8; MAX_LOCATIONS] {
    let mut parent = [0u8; MAX_LOCATIONS];
    for (l, p) in parent.iter_mut().enumerate().take(game.locations.len()) {
        *p = l as u8;
    }
    while placed != 0 {
        let i = placed.trailing_zeros() as usize;
        placed &= placed - 1;
        let ends = &game.lines[i].ends;
        let first = root(&mut parent, ends[0]);
        for &e in &ends[1..] {
            let r = root(&mut parent, e);
            if r != first {
                parent[r as usize] = first;
            }
        }
    }
    let mut component = [NONE; MAX_LOCATIONS];
    for (l, c) in component.iter_mut().enumerate().take(game.locations.len()) {
        *c = root(&mut parent, l as u8);
    }
    component
}

/// The link components last computed on this thread, with the configuration and the lines holding a link
/// they are for. Most decisions place no link, so consecutive contexts (a legality check, then the follow-ups
/// of the action applied) almost always share them: comparing two words is far cheaper than the union-find.
#[derive(Clone, Copy)]
struct LastComponents {
    game: u64,
    placed: u64,
    component: [u8; MAX_LOCATIONS],
    /// The components holding a printed trade icon (L-15), which also change only with the links.
    printed_trade: u64,
}

thread_local! {
    static LAST_COMPONENTS: Cell<LastComponents> = const {
        Cell::new(LastComponents {
            game: 0,
            placed: 0,
            component: [NONE; MAX_LOCATIONS],
            printed_trade: 0,
        })
    };
}

/// The link components of the lines in `placed` and the components holding a printed trade icon.
fn components(game: &Game, placed: u64) -> ([u8; MAX_LOCATIONS], u64) {
    LAST_COMPONENTS.with(|last| {
        let known = last.get();
        if known.game == game.uid && known.placed == placed {
            return (known.component, known.printed_trade);
        }
        let added = placed & !known.placed;
        let component =
            if known.game == game.uid && known.placed & !placed == 0 && added.count_ones() == 1 {
                // One link more than the last components (the usual case: the link just placed): join its ends'
                // components instead of redoing the union-find. Names differ from a fresh union-find's, but only
                // which locations share a name matters.
                join_ends(game, known.component, added.trailing_zeros() as usize)
            } else {
                link_components(game, placed)
            };
        let printed_trade = components_of(&component, game.printed_trade_locations());
        last.set(LastComponents {
            game: game.uid,
            placed,
            component,
            printed_trade,
        });
        (component, printed_trade)
    })
}

/// The components after a link on `line` joins its ends: every location of an end's component takes the
/// first end's name.
fn join_ends(game: &Game, mut component: [u8; MAX_LOCATIONS], line: usize) -> [u8; MAX_LOCATIONS] {
    let ends = &game.lines[line].ends;
    let name = component[ends[0] as usize];
    for &e in &ends[1..] {
        let old = component[e as usize];
        if old != name {
            for c in component.iter_mut().take(game.locations.len()) {
                if *c == old {
                    *c = name;
                }
            }
        }
    }
    component
}

/// The components (named as in `component`) of the locations in `locations`, as a bitmask.
fn components_of(component: &[u8; MAX_LOCATIONS], mut locations: u64) -> u64 {
    let mut out = 0u64;
    while locations != 0 {
        let l = locations.trailing_zeros() as usize;
        locations &= locations - 1;
        out |= 1 << component[l];
    }
    out
}

/// The cubes on the tiles of `spaces`.
fn cubes_on(state: &State, mut spaces: u64) -> u32 {
    let mut cubes = 0;
    while spaces != 0 {
        let s = spaces.trailing_zeros() as usize;
        spaces &= spaces - 1;
        cubes += state.board[s].cubes as u32;
    }
    cubes
}

impl Ctx {
    /// The context of `player`'s decision, read from the state's occupancy (the tiles and links on the board
    /// as bitmasks) rather than from every space and line.
    pub fn new(game: &Game, state: &State, player: u8) -> Ctx {
        debug_assert!(
            state.occupancy_is_current(),
            "the occupancy is out of date: call State::refresh_occupancy after writing board or links"
        );
        let o = &state.occupancy;
        let placed_links = o.placed_links();
        let (component, printed_trade) = components(game, placed_links);
        let mut on_board = [0u32; 2];
        on_board[Resource::Iron.index()] = cubes_on(
            state,
            state.tiles_of_industry(game.producer(Resource::Iron)),
        );
        let mut component_coal = [0u16; MAX_LOCATIONS];
        let mut mines = state.tiles_of_industry(game.producer(Resource::Coal));
        while mines != 0 {
            let s = mines.trailing_zeros() as usize;
            mines &= mines - 1;
            let cubes = state.board[s].cubes as u32;
            on_board[Resource::Coal.index()] += cubes;
            component_coal[component[game.spaces[s].location as usize] as usize] += cubes as u16;
        }
        let mut port_locations = 0u64;
        let mut ports = state.tiles_of_industry(game.port_industry);
        while ports != 0 {
            let s = ports.trailing_zeros() as usize;
            ports &= ports - 1;
            port_locations |= 1 << game.spaces[s].location;
        }
        let mut own_tile_locations = 0u64;
        let mut mine = o.tiles_of[player as usize];
        while mine != 0 {
            let s = mine.trailing_zeros() as usize;
            mine &= mine - 1;
            own_tile_locations |= 1 << game.spaces[s].location;
        }
        let mut network = own_tile_locations;
        let mut own_links = o.links_of[player as usize];
        let presence = o.tiles_of[player as usize] != 0 || own_links != 0;
        while own_links != 0 {
            let i = own_links.trailing_zeros() as usize;
            own_links &= own_links - 1;
            network |= game.lines[i].ends();
        }
        let trade_components = printed_trade | components_of(&component, port_locations);
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
            trade_components,
            own_tile_locations,
            placed_links,
            occupied: o.occupied(),
            canonical: None,
            buildable: 0,
            hand: state.players[player as usize].hand_kinds(),
        }
    }

    /// Does component `c` (a name from `component`) hold a market trade icon (L-15)?
    pub fn has_trade(&self, c: usize) -> bool {
        self.trade_components & (1 << c) != 0
    }

    /// Are two locations connected (L-14)?
    pub fn connected(&self, a: u8, b: u8) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }
}
