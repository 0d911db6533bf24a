//! Build (L-21 … L-33, C-6): the tile, the space, the cards, coal and iron, money.
use crate::context::Ctx;
use crate::error::Why;
use crate::game::{Era, FirstBuild, Game, Resource, TileSpec, MAX_INDUSTRIES, NONE};
use crate::market;
use crate::network::{self, adjacency, closest_coal, reachable};
use crate::state::State;

/// What a legal build will do, as far as the choice of card is concerned.
#[derive(Clone, Copy, Debug)]
pub struct BuildPlan {
    /// Card kinds that can pay for a single build (bitmask); unused for a double build.
    pub cards: u32,
    pub overbuild: bool,
}

/// The undeveloped space a build of `industry` in `space`'s location must use, among those with the same
/// icons (L-24, R-1): single-icon spaces first; of identical spaces only the first is offered.
pub fn is_canonical_space(game: &Game, state: &State, space: u8, industry: u8) -> bool {
    canonical_spaces_of(game, state, 1 << industry)[industry as usize] & (1 << space) != 0
}

/// Per industry, the bitmask of undeveloped spaces a build of it may use (see [`is_canonical_space`]):
/// per location, the first free space of the single-icon group if it has one, otherwise the first free
/// space of each group of identical spaces (`Game::space_groups`).
pub fn canonical_spaces(game: &Game, state: &State) -> [u64; MAX_INDUSTRIES] {
    canonical_spaces_of(game, state, u32::MAX)
}

/// [`canonical_spaces`] for the industries in the bitmask `industries` only (the others are 0).
pub fn canonical_spaces_of(game: &Game, state: &State, industries: u32) -> [u64; MAX_INDUSTRIES] {
    let mut free = 0u64;
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if t.is_empty() {
            free |= 1 << s;
        }
    }
    canonical_free_spaces(game, free, industries)
}

/// [`canonical_spaces_of`] with the undeveloped spaces given as a bitmask (`free`).
fn canonical_free_spaces(game: &Game, free: u64, industries: u32) -> [u64; MAX_INDUSTRIES] {
    let mut out = [0u64; MAX_INDUSTRIES];
    for (industry, groups) in game.space_groups.iter().enumerate() {
        // Only to save work: the callers read the industries they asked for (computing all is an equivalent
        // mutant).
        if industries & (1 << industry) == 0 {
            continue;
        }
        let mut skip_location = NONE;
        for g in groups {
            if g.location == skip_location {
                continue;
            }
            let open = g.spaces & free;
            if open != 0 {
                out[industry] |= open & open.wrapping_neg();
                if g.single {
                    // Single-icon spaces must be used first: the location's other groups wait.
                    skip_location = g.location;
                }
            }
        }
    }
    out
}

/// The canonical spaces of `industry` at `location` alone (as [`canonical_free_spaces`] finds them there): the
/// first free space of the single-icon group if it has one, otherwise the first free space of each group.
fn canonical_at(game: &Game, free: u64, industry: usize, location: u8) -> u64 {
    let (from, to) = game.space_group_ranges[location as usize][industry];
    let mut out = 0u64;
    for g in &game.space_groups[industry][from as usize..to as usize] {
        let open = g.spaces & free;
        if open != 0 {
            out |= open & open.wrapping_neg();
            if g.single {
                // Single-icon spaces must be used first: the location's other groups wait.
                break;
            }
        }
    }
    out
}

/// Can `player` build `industry` on `space` (single or double build)? L-21 … L-33.
pub fn check_build(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
    double: bool,
) -> Result<BuildPlan, Why> {
    let player = &state.players[ctx.player as usize];
    if double {
        if state.actions_left < 2 {
            return Err("a double build needs both actions of the turn (L-21)");
        }
        if player.hand_size() < 2 {
            return Err("a double build needs two cards (L-21)");
        }
    }
    let overbuild = check_build_site(game, state, ctx, space, industry)?;
    if double {
        return Ok(BuildPlan {
            cards: 0,
            overbuild,
        });
    }
    let loc = game.spaces[space as usize].location;
    let cards = build_cards(
        game,
        ctx.network,
        ctx.first_build_used,
        ctx.hand,
        loc,
        industry,
        overbuild,
    );
    if cards == 0 {
        return Err("no card in hand allows it: it needs the location's card, or the industry's card with the location in your network (L-21, L-22)");
    }
    Ok(BuildPlan { cards, overbuild })
}

/// Everything a build needs except the cards (shared by single and double builds): the tile (L-23), the
/// space (L-24, L-29, L-30), the Canal Era limit (L-25, L-31), coal, iron and money (L-16 … L-19, L-33).
/// Returns whether the build overbuilds a tile.
pub fn check_build_site(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
) -> Result<bool, Why> {
    let p = ctx.player;
    let player = &state.players[p as usize];
    let spec = state
        .next_tile(game, p, industry)
        .ok_or("you have no tile of that industry left")?;
    if !spec.buildable_in(state.era) {
        return Err(if !spec.canal && !spec.rail {
            "your lowest tile of that industry can never be built; develop it first (L-23)"
        } else if state.era == Era::Rail {
            "your lowest tile of that industry is a Canal Era tile; develop it first (L-23)"
        } else {
            "your lowest tile of that industry can only be built in the Rail Era (L-23)"
        });
    }
    // Cheapest test first: the tile's own cost (market purchases only add to it).
    if player.money < spec.cost as i32 {
        return Err("not enough money for the tile and its coal and iron (L-19)");
    }
    let loc = game.spaces[space as usize].location;
    let on_space = state.board[space as usize];
    let overbuild = !on_space.is_empty();
    if overbuild {
        check_overbuild(game, state, ctx, space, industry, spec.level)?;
    } else if !match ctx.canonical {
        // The callers that compute the spaces only try spaces among them (`build_candidates`), so this test
        // passes there anyway (`|` for `&` is an equivalent mutant); `why_illegal` takes the other branch.
        Some(c) => c[industry as usize] & (1 << space) != 0,
        None => is_canonical_space(game, state, space, industry),
    } {
        return Err("another space of that location must be used first (L-24)");
    }
    if state.era == Era::Canal {
        let mine_here = ctx.own_tile_locations & (1 << loc) != 0;
        if mine_here && !(overbuild && on_space.owner == p) {
            return Err("in the Canal Era you may have only one tile per location (L-25, L-31)");
        }
    }
    let cost = build_resource_cost(game, state, ctx, space, industry, spec, overbuild)?;
    if player.money < (spec.cost as u32 + cost) as i32 {
        return Err("not enough money for the tile and its coal and iron (L-19)");
    }
    Ok(overbuild)
}

/// The spaces of `free` (undeveloped spaces a build of `industry` may use, L-24: the context's canonical
/// spaces) where [`check_build_site`] accepts a build of it, as a bitmask, without checking one space at a
/// time. What can differ between two such spaces is only the Canal Era limit (L-25) and the coal of the
/// location's link component (L-16, L-17): the tile, its iron and the money are the same for all. A build is
/// affordable with `k` cubes in the component exactly when `k` is at least the least affordable count, since
/// each cube fewer is one more bought. `tests/rules_build.rs` checks the result against the site check.
pub fn free_build_sites(game: &Game, state: &State, ctx: &Ctx, industry: u8, free: u64) -> u64 {
    debug_assert!(free & ctx.occupied == 0, "free spaces only");
    let p = ctx.player;
    let money = state.players[p as usize].money;
    let Some(spec) = state.next_tile(game, p, industry) else {
        return 0;
    };
    if !spec.buildable_in(state.era) {
        return 0;
    }
    let iron_on_works = ctx.on_board[Resource::Iron.index()];
    let iron_cost = market::buy_cost(
        game.market(Resource::Iron),
        state.market(Resource::Iron),
        (spec.iron as u32).saturating_sub(iron_on_works),
    );
    let budget = money - (spec.cost as u32 + iron_cost) as i32;
    if budget < 0 {
        return 0;
    }
    let coal = spec.coal as u16;
    // The fewest cubes the component must hold for the rest to be bought within the budget (`coal`: none
    // can be bought).
    let least_coal = (0..coal)
        .find(|&k| {
            let bought = (coal - k) as u32;
            market::buy_cost(
                game.market(Resource::Coal),
                state.market(Resource::Coal),
                bought,
            ) as i32
                <= budget
        })
        .unwrap_or(coal);
    let canal = state.era == Era::Canal;
    if coal == 0 && !canal {
        return free;
    }
    let port = game.roles[industry as usize].port;
    let mut sites = 0u64;
    let mut spaces = free;
    while spaces != 0 {
        let space = spaces.trailing_zeros();
        spaces &= spaces - 1;
        let loc = game.spaces[space as usize].location;
        if canal && ctx.own_tile_locations & (1 << loc) != 0 {
            continue;
        }
        if coal > 0 {
            let c = ctx.component[loc as usize] as usize;
            let cubes = ctx.component_coal[c];
            if cubes < coal && (cubes < least_coal || !(port || ctx.has_trade(c))) {
                continue;
            }
        }
        sites |= 1 << space;
    }
    sites
}

/// L-29, L-30: a higher-level tile of the same industry; an opponent's tile only when it is a producer
/// and no cube of its resource is left on the board or in its market.
fn check_overbuild(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
    level: u8,
) -> Result<(), Why> {
    let on_space = state.board[space as usize];
    if on_space.industry != industry {
        return Err("that space holds another industry");
    }
    if on_space.level >= level {
        return Err("overbuilding needs a higher-level tile (L-29)");
    }
    if on_space.owner != ctx.player {
        let Some(resource) = game.produces(industry).filter(|&r| r != Resource::Beer) else {
            return Err(
                "only coal mines and iron works of other players can be overbuilt (L-30, B-27)",
            );
        };
        if ctx.on_board[resource.index()] + state.market(resource) as u32 > 0 {
            return Err("an opponent's mine or works can be overbuilt only when no such cube is left on the board or in its market (L-30)");
        }
    }
    Ok(())
}

/// Has the player lost the industry-card "first build anywhere" exception? Lancashire (L-22, R-2): while
/// they have a tile or a link on the board. Classic Brass (C-6, R-14): once they have built an industry
/// tile in this game, even if the end of the Canal Era emptied the board again.
pub fn first_build_used(game: &Game, state: &State, player: u8) -> bool {
    match game.switches.first_build {
        FirstBuild::NothingOnBoard => network::has_presence(game, state, player),
        FirstBuild::FirstOfGame => state.players[player as usize].built_industry,
    }
}

/// The card kinds in hand that can pay for a single build at `loc` (L-21, L-22): the location's card, or
/// the industry's card with the location in the network (anywhere for a first build, L-22, C-6).
pub fn build_cards(
    game: &Game,
    network: u64,
    first_build_used: bool,
    hand: u32,
    loc: u8,
    industry: u8,
    overbuild: bool,
) -> u32 {
    let location = &game.locations[loc as usize];
    let mut cards = 0u32;
    if location.card != NONE {
        cards |= hand & (1 << location.card);
    }
    // B-10: the wild location card is any town's card, never a farm brewery's.
    if game.wild_location != NONE && !location.farm {
        cards |= hand & (1 << game.wild_location);
    }
    let reach = crate::games::industry_card_network(game, network);
    if reach & (1 << loc) != 0 || (!first_build_used && !overbuild) {
        cards |= hand & game.industry_cards[industry as usize];
    }
    cards
}

/// Money the market part of a build's coal and iron costs (L-16 … L-18), or why it cannot be had.
fn build_resource_cost(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
    spec: &TileSpec,
    overbuild: bool,
) -> Result<u32, Why> {
    let mut cost = 0;
    // `spec.coal > 0` and `spec.iron > 0` only skip work: with none needed nothing is bought (`>=` is an
    // equivalent mutant).
    if spec.coal > 0 {
        let from_market = coal_from_market(game, state, ctx, space, overbuild, spec.coal);
        if from_market > 0 {
            if !build_reaches_trade(game, state, ctx, space, industry, overbuild) {
                return Err("no coal: no connected coal mine has coal and there is no connection to a market trade icon (L-16, L-17)");
            }
            cost += market::buy_cost(
                game.market(Resource::Coal),
                state.market(Resource::Coal),
                from_market,
            );
        }
    }
    if spec.iron > 0 {
        let mut on_works = ctx.on_board[Resource::Iron.index()];
        // No iron works tile of today's games needs iron, so this never runs (its mutants are equivalent on
        // today's data); it keeps an overbuilt works' own cubes out of the count if one ever does.
        if overbuild && game.produces(industry) == Some(Resource::Iron) {
            on_works -= state.board[space as usize].cubes as u32;
        }
        let from_market = (spec.iron as u32).saturating_sub(on_works);
        cost += market::buy_cost(
            game.market(Resource::Iron),
            state.market(Resource::Iron),
            from_market,
        );
    }
    Ok(cost)
}

/// The coal a build on `space` must buy from the market: what connected mines cannot give (L-16, L-17).
/// An overbuilt tile leaves first, so it is no coal source.
fn coal_from_market(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    overbuild: bool,
    coal: u8,
) -> u32 {
    let loc = game.spaces[space as usize].location;
    let on_mines = if overbuild {
        let adj = adjacency(game, state);
        closest_coal(game, state, &adj, 1 << loc, space).1
    } else {
        ctx.component_coal[ctx.component[loc as usize] as usize] as u32
    };
    (coal as u32).saturating_sub(on_mines)
}

/// Is the build location connected to a market trade icon (L-15), with the built tile in place (a new
/// port is one itself) and an overbuilt tile gone?
fn build_reaches_trade(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
    overbuild: bool,
) -> bool {
    let loc = game.spaces[space as usize].location;
    let is_port = game.roles[industry as usize].port;
    // The slow path matters only for an overbuilt port (its trade icon leaves with it), and no port tile needs
    // coal: on today's data both paths agree (the mutants here are equivalent).
    if !overbuild {
        return ctx.has_trade(ctx.component[loc as usize] as usize) || is_port;
    }
    let adj = adjacency(game, state);
    let mut trade = network::trade_locations(game, state, space);
    if is_port {
        trade |= 1 << loc;
    }
    reachable(&adj, 1 << loc) & trade != 0
}

impl Ctx {
    /// The same, with the spaces builds may use computed (for a decision with many build checks).
    pub fn for_builds(game: &Game, state: &State, player: u8) -> Ctx {
        let mut ctx = Ctx::new(game, state, player);
        // Only industries whose next tile may be built now and is affordable can be built at all (the
        // site check refuses the others before it looks at spaces): a filter to save work, so its mutants
        // (a weaker test, `^` for `|` on distinct bits) are equivalent.
        let player = &state.players[player as usize];
        let industries = (0..game.industries.len())
            .filter(|&i| {
                state
                    .next_tile(game, ctx.player, i as u8)
                    .is_some_and(|t| t.buildable_in(state.era) && player.money >= t.cost as i32)
            })
            .fold(0u32, |m, i| m | 1 << i);
        let free = game.all_spaces() & !ctx.occupied;
        let mut canonical = canonical_free_spaces_cached(game, free);
        for (i, c) in canonical.iter_mut().enumerate() {
            if industries & (1 << i) == 0 {
                *c = 0;
            }
        }
        ctx.canonical = Some(canonical);
        ctx.buildable = industries;
        ctx
    }
}

/// The canonical spaces of every industry last computed on this thread, with the configuration and the free
/// spaces they are for: they change only when a tile is built or removed, far less often than they are read.
#[derive(Clone, Copy)]
struct LastCanonical {
    game: u64,
    free: u64,
    canonical: [u64; MAX_INDUSTRIES],
}

thread_local! {
    static LAST_CANONICAL: std::cell::Cell<LastCanonical> = const {
        std::cell::Cell::new(LastCanonical { game: 0, free: 0, canonical: [0; MAX_INDUSTRIES] })
    };
}

/// [`canonical_free_spaces`] of every industry, remembered between calls with the same free spaces. When the
/// free spaces differ from the last ones at one location only (a tile built or removed), only that location's
/// groups are looked at again.
fn canonical_free_spaces_cached(game: &Game, free: u64) -> [u64; MAX_INDUSTRIES] {
    LAST_CANONICAL.with(|last| {
        let known = last.get();
        if known.game == game.uid && known.free == free {
            return known.canonical;
        }
        // The one location whose free spaces changed, if only one did (same configuration: `changed` is not 0).
        let changed = known.free ^ free;
        let location = (known.game == game.uid)
            .then(|| game.spaces[changed.trailing_zeros() as usize].location)
            .filter(|&l| changed & !game.location_spaces[l as usize] == 0);
        let canonical = match location {
            Some(location) => {
                let here = game.location_spaces[location as usize];
                let mut canonical = known.canonical;
                for (industry, c) in canonical.iter_mut().enumerate().take(game.industries.len()) {
                    *c = (*c & !here) | canonical_at(game, free, industry, location);
                }
                canonical
            }
            None => canonical_free_spaces(game, free, u32::MAX),
        };
        last.set(LastCanonical {
            game: game.uid,
            free,
            canonical,
        });
        canonical
    })
}
