//! Networks, connection and distance over the links on the board (L-13, L-14, L-15, L-38).
use crate::game::{Era, Game, Resource, MAX_LOCATIONS, NONE};
use crate::state::State;

/// Per location, the bitmask of locations one placed link away (links of any owner, L-38).
pub fn adjacency(game: &Game, state: &State) -> [u64; MAX_LOCATIONS] {
    let mut adj = [0u64; MAX_LOCATIONS];
    let mut placed = state.occupancy.placed_links();
    while placed != 0 {
        let line = &game.lines[placed.trailing_zeros() as usize];
        placed &= placed - 1;
        let ends = line.ends();
        for &e in line.ends.iter() {
            adj[e as usize] |= ends & !(1 << e);
        }
    }
    adj
}

/// Locations connected to any of `from` (L-14: a location is connected to itself).
pub fn reachable(adj: &[u64; MAX_LOCATIONS], from: u64) -> u64 {
    let mut seen = from;
    let mut frontier = from;
    while frontier != 0 {
        let mut next = 0;
        let mut f = frontier;
        while f != 0 {
            let l = f.trailing_zeros() as usize;
            f &= f - 1;
            next |= adj[l];
        }
        frontier = next & !seen;
        seen |= frontier;
    }
    seen
}

/// Breadth-first layers from `from`: `layers[d]` holds the locations at distance d (fewest links).
/// Returns the number of layers filled.
pub fn layers(adj: &[u64; MAX_LOCATIONS], from: u64, out: &mut [u64; MAX_LOCATIONS]) -> usize {
    let mut seen = from;
    let mut frontier = from;
    let mut n = 0;
    while frontier != 0 {
        out[n] = frontier;
        n += 1;
        let mut next = 0;
        let mut f = frontier;
        while f != 0 {
            let l = f.trailing_zeros() as usize;
            f &= f - 1;
            next |= adj[l];
        }
        frontier = next & !seen;
        seen |= frontier;
    }
    n
}

/// Per location, the fewest links still to build to join it to one of `targets` (a bitmask of locations):
/// links of the kind the current era builds (L-14: canals in the Canal Era, rails in the Rail Era), placed links
/// of any owner free; `u8::MAX` where none leads. Who may build each link is not asked.
pub fn links_to(game: &Game, state: &State, targets: u64) -> [u8; MAX_LOCATIONS] {
    let placed = adjacency(game, state);
    let built = state.occupancy.placed_links();
    let mut unbuilt = [0u64; MAX_LOCATIONS];
    for (i, line) in game.lines.iter().enumerate() {
        let this_era = match state.era {
            Era::Canal => line.canal,
            Era::Rail => line.rail,
        };
        if built & (1 << i) == 0 && this_era {
            let ends = line.ends();
            for &e in line.ends.iter() {
                unbuilt[e as usize] |= ends & !(1 << e);
            }
        }
    }
    // Breadth first by links to build; each layer closed over the placed links, which cost nothing.
    let mut out = [u8::MAX; MAX_LOCATIONS];
    let mut seen = reachable(&placed, targets);
    let mut layer = seen;
    let mut distance = 0u8;
    while layer != 0 {
        let mut next = 0u64;
        let mut l = layer;
        while l != 0 {
            let at = l.trailing_zeros() as usize;
            l &= l - 1;
            out[at] = distance;
            next |= unbuilt[at];
        }
        layer = reachable(&placed, next & !seen) & !seen;
        seen |= layer;
        distance += 1;
    }
    out
}

/// A player's network: locations holding one of their industry tiles or at an end of one of their
/// links (L-13).
pub fn network(game: &Game, state: &State, player: u8) -> u64 {
    let mut net = 0u64;
    let mut tiles = state.occupancy.tiles_of[player as usize];
    while tiles != 0 {
        net |= 1 << game.spaces[tiles.trailing_zeros() as usize].location;
        tiles &= tiles - 1;
    }
    let mut links = state.occupancy.links_of[player as usize];
    while links != 0 {
        net |= game.lines[links.trailing_zeros() as usize].ends();
        links &= links - 1;
    }
    net
}

/// Has the player any industry tile or link on the board (L-22, R-2)?
pub fn has_presence(game: &Game, state: &State, player: u8) -> bool {
    debug_assert!((player as usize) < game.players as usize);
    state.occupancy.tiles_of[player as usize] != 0 || state.occupancy.links_of[player as usize] != 0
}

/// Locations showing a market trade icon: printed ones and every location with a port tile of any
/// owner, flipped or not (L-15). `exclude` is a space whose tile is about to be replaced.
pub fn trade_locations(game: &Game, state: &State, exclude: u8) -> u64 {
    let mut m = game.printed_trade_locations();
    let kept = if exclude == NONE {
        !0
    } else {
        !(1u64 << exclude)
    };
    for (industry, role) in game.roles.iter().enumerate() {
        if !role.port {
            continue;
        }
        let mut ports = state.tiles_of_industry(industry as u8) & kept;
        while ports != 0 {
            m |= 1 << game.spaces[ports.trailing_zeros() as usize].location;
            ports &= ports - 1;
        }
    }
    m
}

/// The coal mines with coal at the smallest distance from `from` (L-16), as a bitmask of spaces, and the
/// total coal on all connected mines (so callers can tell how much must come from the market).
/// `exclude` is a space whose tile is about to be replaced.
pub fn closest_coal(
    game: &Game,
    state: &State,
    adj: &[u64; MAX_LOCATIONS],
    from: u64,
    exclude: u8,
) -> (u64, u32) {
    let coal_mine = game.producer(Resource::Coal);
    let mut by_location = [0u64; MAX_LOCATIONS];
    let mut with_coal = 0u64;
    let mut mines = state.tiles_of_industry(coal_mine);
    while mines != 0 {
        let s = mines.trailing_zeros() as usize;
        mines &= mines - 1;
        if state.board[s].cubes > 0 && s as u8 != exclude {
            let l = game.spaces[s].location as usize;
            by_location[l] |= 1 << s;
            with_coal |= 1 << l;
        }
    }
    if with_coal == 0 {
        return (0, 0);
    }
    let mut out = [0u64; MAX_LOCATIONS];
    let n = layers(adj, from, &mut out);
    let mut closest = 0u64;
    let mut total = 0u32;
    for layer in &out[..n] {
        let nearest_layer = closest == 0;
        let mut hit = layer & with_coal;
        while hit != 0 {
            let l = hit.trailing_zeros() as usize;
            hit &= hit - 1;
            if nearest_layer {
                closest |= by_location[l];
            }
            let mut spaces = by_location[l];
            while spaces != 0 {
                let s = spaces.trailing_zeros() as usize;
                spaces &= spaces - 1;
                total += state.board[s].cubes as u32;
            }
        }
    }
    (closest, total)
}
