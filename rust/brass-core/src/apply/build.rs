//! Build (L-21 … L-28): place the tile; then (after its coal and iron, which `apply` resolves) finish it.
use crate::game::{Game, Resource, NONE};
use crate::income::{flip, spend};
use crate::market;
use crate::network::{adjacency, reachable, trade_locations};
use crate::rules;
use crate::state::{ActionKind, State, Tile, Underway};

/// L-21 … L-26: fix the cards that may pay, place the tile (an overbuilt tile leaves with its cubes,
/// L-29, L-30), pay the cost; its coal and iron are owed (the caller resolves them).
pub(super) fn start_build(
    game: &Game,
    state: &mut State,
    p: usize,
    space: u8,
    industry: u8,
    double: bool,
) {
    // The cards that may pay are fixed now, before the tile joins the network (L-21, L-22).
    let cards = if double {
        None
    } else {
        let loc = game.spaces[space as usize].location;
        let net = crate::network::network(game, state, p as u8);
        let first_build_used = rules::first_build_used(game, state, p as u8);
        let overbuild = !state.board[space as usize].is_empty();
        Some(rules::build_cards(
            game,
            net,
            first_build_used,
            state.players[p].hand_kinds(),
            loc,
            industry,
            overbuild,
        ))
    };
    let spec = *state
        .next_tile(game, p as u8, industry)
        .expect("tile on mat");
    state.set_tile(
        space,
        Tile {
            owner: p as u8,
            industry,
            level: spec.level,
            flipped: false,
            cubes: 0,
        },
    );
    state.players[p].taken[industry as usize] += 1;
    if game.switches.first_build == crate::game::FirstBuild::FirstOfGame {
        state.players[p].built_industry = true;
    }
    spend(state, p, spec.cost as u32);
    let mut u = Underway::new(ActionKind::Build);
    u.double = double;
    u.target = space;
    u.coal = spec.coal;
    u.iron = spec.iron;
    u.cards = cards;
    state.action = Some(u);
}

/// L-27, L-28: a new coal mine or iron works gets its cubes and sells what fits to its market (a coal
/// mine only when connected to a trade icon); a tile of an industry that flips when built flips.
pub(super) fn finish_build(game: &Game, state: &mut State, space: u8) {
    let tile = state.board[space as usize];
    let spec = *game
        .tile_spec(tile.industry, tile.level)
        .expect("tile spec");
    let owner = tile.owner as usize;
    if let Some(resource) = game.produces(tile.industry) {
        // B-7: a brewery's barrels depend on the era it is built in.
        state.board[space as usize].cubes = spec.cubes_in(state.era);
        let to_market = match resource {
            Resource::Coal => {
                let loc = game.spaces[space as usize].location;
                let adj = adjacency(game, state);
                reachable(&adj, 1 << loc) & trade_locations(game, state, NONE) != 0
            }
            Resource::Iron => true,
            Resource::Beer => false,
        };
        if to_market {
            let (sold, money) = market::sell(
                game.market(resource),
                &mut state.markets[resource.index()],
                spec.cubes,
            );
            state.players[owner].money += money as i32;
            state.board[space as usize].cubes -= sold;
            if state.board[space as usize].cubes == 0 {
                flip(game, state, space);
            }
        }
    } else if game.roles[tile.industry as usize].flips_when_built {
        flip(game, state, space);
    }
}
