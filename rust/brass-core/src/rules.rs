//! Which actions are legal (docs/actions.md, "When each action id is legal"), with the reason when not.
use crate::actions::Action;
use crate::game::{Era, FirstBuild, Game, LoanBan, RailCoal, MAX_INDUSTRIES, MAX_LOCATIONS, NONE};
use crate::market;
use crate::network::{self, adjacency, closest_coal, reachable};
use crate::state::{ActionKind, Decision, State};

/// Why an action is not legal; shown to users after the action's notation.
pub type Why = &'static str;

/// Facts about the position that every check of one decision shares.
pub struct Ctx {
    pub player: u8,
    pub network: u64,
    /// The industry-card "first build anywhere" exception is no longer available to the player (L-22,
    /// C-6; see [`first_build_used`]).
    pub first_build_used: bool,
    /// Iron cubes on all unflipped iron works (L-18).
    pub iron_on_board: u32,
    pub coal_on_board: u32,
    /// Connected component of each location (L-14): locations are connected exactly when they share one.
    pub component: [u8; MAX_LOCATIONS],
    /// Per component: coal on its mines (L-16) and whether it holds a market trade icon (L-15).
    pub component_coal: [u32; MAX_LOCATIONS],
    pub component_trade: [bool; MAX_LOCATIONS],
    /// Locations holding one of the player's industry tiles (L-25).
    pub own_tile_locations: u64,
    /// Per industry, the undeveloped spaces a build may use (L-24), when computed for a build decision.
    pub canonical: Option<[u64; MAX_INDUSTRIES]>,
}

impl Ctx {
    pub fn new(game: &Game, state: &State, player: u8) -> Ctx {
        let mut iron_on_board = 0;
        let mut coal_on_board = 0;
        let mut coal_at = [0u32; MAX_LOCATIONS];
        let mut network = 0u64;
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
            if tile.industry == game.iron_works {
                iron_on_board += tile.cubes as u32;
            } else if tile.industry == game.coal_mine {
                coal_on_board += tile.cubes as u32;
                coal_at[loc as usize] += tile.cubes as u32;
            } else if tile.industry == game.port {
                trade |= 1 << loc;
            }
        }
        network |= own_tile_locations;
        // Components by union-find over the placed links (any owner).
        let mut parent = [0u8; MAX_LOCATIONS];
        for (l, p) in parent.iter_mut().enumerate().take(game.locations.len()) {
            *p = l as u8;
        }
        fn root(parent: &mut [u8; MAX_LOCATIONS], mut x: u8) -> u8 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        for (i, line) in game.lines.iter().enumerate() {
            let owner = state.links[i];
            if owner == NONE {
                continue;
            }
            if owner == player {
                network |= line.ends();
                presence = true;
            }
            let (a, b) = (root(&mut parent, line.a), root(&mut parent, line.b));
            if a != b {
                parent[a as usize] = b;
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
        let first_build_used = match game.first_build {
            FirstBuild::NothingOnBoard => presence,
            FirstBuild::FirstOfGame => state.players[player as usize].built_industry,
        };
        Ctx {
            player,
            network,
            first_build_used,
            iron_on_board,
            coal_on_board,
            component,
            component_coal,
            component_trade,
            own_tile_locations,
            canonical: None,
        }
    }

    /// The same, with the spaces builds may use computed (for a decision with many build checks).
    pub fn for_builds(game: &Game, state: &State, player: u8) -> Ctx {
        let mut ctx = Ctx::new(game, state, player);
        ctx.canonical = Some(canonical_spaces(game, state));
        ctx
    }

    /// Are two locations connected (L-14)?
    pub fn connected(&self, a: u8, b: u8) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }
}

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
    canonical_spaces(game, state)[industry as usize] & (1 << space) != 0
}

/// Per industry, the bitmask of undeveloped spaces a build of it may use (see [`is_canonical_space`]):
/// per location, the first free space of the single-icon group if it has one, otherwise the first free
/// space of each group of identical spaces (`Game::space_groups`).
pub fn canonical_spaces(game: &Game, state: &State) -> [u64; MAX_INDUSTRIES] {
    let mut free = 0u64;
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if t.is_empty() {
            free |= 1 << s;
        }
    }
    let mut out = [0u64; MAX_INDUSTRIES];
    for (industry, groups) in game.space_groups.iter().enumerate() {
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

/// The original single-space form of the rule, kept as the specification `canonical_spaces` follows.
#[cfg(test)]
fn is_canonical_space_slow(game: &Game, state: &State, space: u8, industry: u8) -> bool {
    let loc = &game.locations[game.spaces[space as usize].location as usize];
    let range = loc.first_space..loc.first_space + loc.num_spaces;
    let only = 1u8 << industry;
    let open =
        |s: u8| state.board[s as usize].is_empty() && game.spaces[s as usize].icons & only != 0;
    let any_single = range
        .clone()
        .any(|s| open(s) && game.spaces[s as usize].icons == only);
    let icons = game.spaces[space as usize].icons;
    if any_single && icons != only {
        return false;
    }
    // No earlier open space with the same icons.
    !range
        .take_while(|&s| s != space)
        .any(|s| open(s) && game.spaces[s as usize].icons == icons)
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
        player,
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
        if on_space.industry != industry {
            return Err("that space holds another industry");
        }
        if on_space.level >= spec.level {
            return Err("overbuilding needs a higher-level tile (L-29)");
        }
        if on_space.owner != p {
            let left = if industry == game.coal_mine {
                ctx.coal_on_board + state.coal_market as u32
            } else if industry == game.iron_works {
                ctx.iron_on_board + state.iron_market as u32
            } else {
                return Err(
                    "only coal mines and iron works of other players can be overbuilt (L-30)",
                );
            };
            if left > 0 {
                return Err("an opponent's mine or works can be overbuilt only when no such cube is left on the board or in its market (L-30)");
            }
        }
    } else if !match ctx.canonical {
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
    let cost = build_resource_cost(
        game, state, ctx, space, industry, spec.coal, spec.iron, overbuild,
    )?;
    if player.money < (spec.cost as u32 + cost) as i32 {
        return Err("not enough money for the tile and its coal and iron (L-19)");
    }
    Ok(overbuild)
}

/// Has the player lost the industry-card "first build anywhere" exception? Lancashire (L-22, R-2): while
/// they have a tile or a link on the board. Classic Brass (C-6, R-14): once they have built an industry
/// tile in this game, even if the end of the Canal Era emptied the board again.
pub fn first_build_used(game: &Game, state: &State, player: u8) -> bool {
    match game.first_build {
        FirstBuild::NothingOnBoard => crate::network::has_presence(game, state, player),
        FirstBuild::FirstOfGame => state.players[player as usize].built_industry,
    }
}

/// The card kinds in hand that can pay for a single build at `loc` (L-21, L-22): the location's card, or
/// the industry's card with the location in the network (anywhere for a first build, L-22, C-6).
pub fn build_cards(
    game: &Game,
    network: u64,
    first_build_used: bool,
    player: &crate::state::Player,
    loc: u8,
    industry: u8,
    overbuild: bool,
) -> u32 {
    let mut cards = 0u32;
    let loc_card = game.locations[loc as usize].card;
    if loc_card != NONE && player.hand[loc_card as usize] > 0 {
        cards |= 1 << loc_card;
    }
    // C-7, L-55: the virtual link lets an industry card reach the other end from either one.
    let mut network = network;
    if let Some((a, b)) = game.virtual_link {
        if network & (1 << a) != 0 {
            network |= 1 << b;
        }
        if network & (1 << b) != 0 {
            network |= 1 << a;
        }
    }
    let ind_card = game.industry_cards[industry as usize];
    if ind_card != NONE
        && player.hand[ind_card as usize] > 0
        && (network & (1 << loc) != 0 || (!first_build_used && !overbuild))
    {
        cards |= 1 << ind_card;
    }
    cards
}

/// Money the market part of a build's coal and iron costs (L-16 … L-18), or why it cannot be had.
#[allow(clippy::too_many_arguments)]
fn build_resource_cost(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    space: u8,
    industry: u8,
    coal: u8,
    iron: u8,
    overbuild: bool,
) -> Result<u32, Why> {
    let mut cost = 0;
    let loc = game.spaces[space as usize].location;
    if coal > 0 {
        let c = ctx.component[loc as usize] as usize;
        // An overbuilt tile leaves first, so it is neither a coal source nor a trade icon.
        let adj = if overbuild {
            adjacency(game, state)
        } else {
            [0; MAX_LOCATIONS]
        };
        let on_mines = if overbuild {
            closest_coal(game, state, &adj, 1 << loc, space).1
        } else {
            ctx.component_coal[c]
        };
        let from_market = (coal as u32).saturating_sub(on_mines);
        if from_market > 0 {
            let has_trade = if overbuild {
                let mut trade = network::trade_locations(game, state, space);
                if industry == game.port {
                    trade |= 1 << loc;
                }
                reachable(&adj, 1 << loc) & trade != 0
            } else {
                ctx.component_trade[c] || industry == game.port
            };
            if !has_trade {
                return Err("no coal: no connected coal mine has coal and there is no connection to a market trade icon (L-16, L-17)");
            }
            cost += market::buy_cost(
                &game.coal_prices,
                state.coal_market,
                from_market,
                game.coal_empty_price,
            );
        }
    }
    if iron > 0 {
        let mut on_works = ctx.iron_on_board;
        if overbuild && industry == game.iron_works {
            on_works -= state.board[space as usize].cubes as u32;
        }
        let from_market = (iron as u32).saturating_sub(on_works);
        cost += market::buy_cost(
            &game.iron_prices,
            state.iron_market,
            from_market,
            game.iron_empty_price,
        );
    }
    Ok(cost)
}

/// Can the player build a link on `line` (L-34 … L-37)? `second` is the second rail of one action.
pub fn check_link(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    line: u8,
    second: bool,
) -> Result<(), Why> {
    let p = ctx.player;
    let player = &state.players[p as usize];
    let l = &game.lines[line as usize];
    if player.links_left == 0 {
        return Err("you have no link tiles left (L-37)");
    }
    if state.links[line as usize] != NONE {
        return Err("that line already has a link (L-34)");
    }
    if !l.allowed_in(state.era) {
        return Err(match state.era {
            Era::Canal => "that line takes no canal (L-35)",
            Era::Rail => "that line takes no rail (L-36)",
        });
    }
    if ctx.network & l.ends() == 0 {
        return Err("neither end of the line is in your network (L-34)");
    }
    match state.era {
        Era::Canal => {
            if player.money < 3 {
                return Err("a canal costs £3 (L-35)");
            }
        }
        Era::Rail => {
            // Placing the link joins the components of its two ends.
            let (a, b) = (
                ctx.component[l.a as usize] as usize,
                ctx.component[l.b as usize] as usize,
            );
            let (on_mines, trade) = if a == b {
                (ctx.component_coal[a], ctx.component_trade[a])
            } else {
                (
                    ctx.component_coal[a] + ctx.component_coal[b],
                    ctx.component_trade[a] || ctx.component_trade[b],
                )
            };
            let mut cost = if second { 10 } else { 5 };
            if on_mines == 0 {
                if !trade {
                    return Err("no coal for the rail: no connected coal mine has coal and there is no connection to a market trade icon (L-36, L-17)");
                }
                cost += market::buy_cost(
                    &game.coal_prices,
                    state.coal_market,
                    1,
                    game.coal_empty_price,
                );
            }
            if player.money < cost as i32 {
                return Err("not enough money for the rail and its coal (L-36)");
            }
        }
    }
    Ok(())
}

/// Can the player develop (remove) the lowest tile of `industry` (L-39)?
pub fn check_develop(game: &Game, state: &State, ctx: &Ctx, industry: u8) -> Result<(), Why> {
    if state.next_tile(game, ctx.player, industry).is_none() {
        return Err("you have no tile of that industry left");
    }
    if ctx.iron_on_board == 0
        && state.players[ctx.player as usize].money
            < market::buy_cost(
                &game.iron_prices,
                state.iron_market,
                1,
                game.iron_empty_price,
            ) as i32
    {
        return Err("not enough money for the iron (L-39, L-18)");
    }
    Ok(())
}

/// Can the player sell the cotton mill on `mill` to the port on `port` (NONE: the Distant Cotton
/// Market)? L-40 … L-42.
pub fn check_sell(game: &Game, state: &State, ctx: &Ctx, mill: u8, port: u8) -> Result<(), Why> {
    let tile = state.board[mill as usize];
    if tile.owner != ctx.player || tile.industry != game.cotton_mill {
        return Err("that space holds no cotton mill of yours (L-40)");
    }
    if tile.flipped {
        return Err("that cotton mill has already sold (L-40)");
    }
    let mill_loc = game.spaces[mill as usize].location;
    if port == NONE {
        if state.dcm_marker >= game.dcm_x {
            return Err("the Distant Cotton Market marker is on X (L-42)");
        }
        if state.dcm_pile_len == 0 && state.dcm_discards.iter().all(|&c| c == 0) {
            return Err("no Distant Cotton Market tile is left (R-3)");
        }
        if !ctx.component_trade[ctx.component[mill_loc as usize] as usize] {
            return Err("the mill is not connected to a market trade icon (L-42, L-15)");
        }
    } else {
        let target = state.board[port as usize];
        if target.is_empty() || target.industry != game.port {
            return Err("that space holds no port (L-41)");
        }
        if target.flipped {
            return Err("that port has already been used (L-41)");
        }
        if !ctx.connected(mill_loc, game.spaces[port as usize].location) {
            return Err("the port is not connected to the mill (L-41)");
        }
    }
    Ok(())
}

/// Can the player take a loan of `amount` (L-45, L-46)?
pub fn check_loan(game: &Game, state: &State, player: u8, amount: u8) -> Result<(), Why> {
    if state.income_level(game, player) - ((amount / 10) as i32) < -10 {
        return Err("a loan may not take the income level below -10 (L-45)");
    }
    if state.era == Era::Rail {
        match game.loan_ban {
            LoanBan::LastFourRailRounds if state.round as i32 > game.rounds_per_era as i32 - 4 => {
                return Err("no loans in the last 4 rounds of the Rail Era (L-46)");
            }
            LoanBan::RailDeckEmpty if state.deck_size() == 0 => {
                return Err("no loans in the Rail Era once the draw deck is exhausted (C-5)");
            }
            _ => {}
        }
    }
    Ok(())
}

/// The coal mines the player may take the next coal from (L-16); a decision when there are two or more.
/// A rail's coal in classic Brass (C-14, R-15): the player chooses the end that receives it, so the
/// choices are the closest mines to either end, each end measured on its own.
pub fn coal_choices(game: &Game, state: &State) -> u64 {
    let Some(u) = state.action else { return 0 };
    let adj = adjacency(game, state);
    if u.kind == ActionKind::Link && game.rail_coal == RailCoal::ChosenEnd {
        let line = &game.lines[u.target as usize];
        return closest_coal(game, state, &adj, 1 << line.a, NONE).0
            | closest_coal(game, state, &adj, 1 << line.b, NONE).0;
    }
    let consumers = consumer_locations(game, u.kind, u.target);
    closest_coal(game, state, &adj, consumers, NONE).0
}

/// The locations a coal cube must reach for the action under way: the build location or both ends of
/// the rail link just placed (L-16, L-36).
pub fn consumer_locations(game: &Game, kind: ActionKind, target: u8) -> u64 {
    match kind {
        ActionKind::Link => game.lines[target as usize].ends(),
        _ => 1u64 << game.spaces[target as usize].location,
    }
}

/// Iron works with iron, as a bitmask of spaces (L-18).
pub fn iron_works_with_iron(game: &Game, state: &State) -> u64 {
    let mut m = 0u64;
    for (s, tile) in state.board[..game.spaces.len()].iter().enumerate() {
        if !tile.is_empty() && tile.industry == game.iron_works && tile.cubes > 0 {
            m |= 1 << s;
        }
    }
    m
}

/// The card kinds the current player may discard at a `card` decision (docs/actions.md, "Cards").
pub fn card_choices(state: &State, player: u8) -> u32 {
    let p = &state.players[player as usize];
    let hand = p.hand_kinds();
    let Some(u) = state.action else { return 0 };
    if u.double {
        if u.first_card == NONE {
            // The lower card of the pair: a kind with a second card of the same or a later kind.
            let mut m = 0;
            for k in 0..32 {
                if p.hand[k] >= 2 || (p.hand[k] == 1 && hand >> (k + 1) != 0) {
                    m |= 1 << k;
                }
            }
            m
        } else {
            hand & !((1u32 << u.first_card) - 1)
        }
    } else {
        match u.cards {
            Some(mask) => mask & hand,
            None => hand,
        }
    }
}

/// Spaces holding the player's tiles (shortfall choices, L-11).
pub fn own_tiles(game: &Game, state: &State, player: u8) -> u64 {
    let mut m = 0u64;
    for (s, tile) in state.board[..game.spaces.len()].iter().enumerate() {
        if tile.owner == player {
            m |= 1 << s;
        }
    }
    m
}

/// Is any sale legal now (to offer `sell` follow-ups)?
pub fn any_sale(game: &Game, state: &State, ctx: &Ctx) -> bool {
    let l = &game.layout;
    l.mill_spaces.iter().any(|&m| {
        let t = state.board[m as usize];
        t.owner == ctx.player
            && t.industry == game.cotton_mill
            && !t.flipped
            && (check_sell(game, state, ctx, m, NONE).is_ok()
                || l.port_spaces
                    .iter()
                    .any(|&port| check_sell(game, state, ctx, m, port).is_ok()))
    })
}

/// Append the legal action ids of the current decision to `out`, ascending.
pub fn legal_actions(game: &Game, state: &State, out: &mut Vec<u16>) {
    let Some(p) = state.current_player(game) else {
        return;
    };
    let l = &game.layout;
    match state.decision {
        Decision::Over => {}
        Decision::Action => {
            let ctx = Ctx::for_builds(game, state, p);
            let player = &state.players[p as usize];
            let doubles_possible = state.actions_left >= 2 && player.hand_size() >= 2;
            // Industries whose next tile cannot be built now or cannot be afforded are skipped early
            // (check_build_site refuses them too).
            let mut industry_ok = [false; MAX_INDUSTRIES];
            for (i, ok) in industry_ok
                .iter_mut()
                .enumerate()
                .take(game.industries.len())
            {
                *ok = state
                    .next_tile(game, p, i as u8)
                    .is_some_and(|t| t.buildable_in(state.era) && player.money >= t.cost as i32);
            }
            // One site check per candidate (space, industry) serves the single and the double build.
            // Candidates: per industry, the undeveloped spaces a build may use and the spaces holding a
            // tile of that industry (overbuilds); every other pair is refused by check_build_site anyway.
            let mut occupied_by = [0u64; MAX_INDUSTRIES];
            for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
                if !t.is_empty() {
                    occupied_by[t.industry as usize] |= 1 << s;
                }
            }
            let canonical = ctx.canonical.expect("computed for builds");
            let (mut singles, mut doubles) = (0u128, 0u128);
            for industry in 0..game.industries.len() {
                if !industry_ok[industry] {
                    continue;
                }
                let mut candidates = canonical[industry] | occupied_by[industry];
                while candidates != 0 {
                    let space = candidates.trailing_zeros() as u8;
                    candidates &= candidates - 1;
                    let Ok(overbuild) = check_build_site(game, state, &ctx, space, industry as u8)
                    else {
                        continue;
                    };
                    let pair = l.build_index[space as usize][industry] as u32;
                    let loc = game.spaces[space as usize].location;
                    if build_cards(
                        game,
                        ctx.network,
                        ctx.first_build_used,
                        player,
                        loc,
                        industry as u8,
                        overbuild,
                    ) != 0
                    {
                        singles |= 1 << pair;
                    }
                    if doubles_possible {
                        doubles |= 1 << pair;
                    }
                }
            }
            for (base, mut bits) in [(l.build, singles), (l.build_double, doubles)] {
                while bits != 0 {
                    let i = bits.trailing_zeros() as u16;
                    bits &= bits - 1;
                    out.push(base + i);
                }
            }
            push_links(game, state, &ctx, false, out);
            push_develops(game, state, &ctx, out);
            push_sales(game, state, &ctx, out);
            for (i, amount) in crate::actions::LOAN_AMOUNTS.iter().enumerate() {
                if check_loan(game, state, p, *amount).is_ok() {
                    out.push(l.loan + i as u16);
                }
            }
            out.push(l.pass);
        }
        Decision::Coal => push_spaces(
            coal_choices(game, state),
            |s| game.encode(Action::Coal { space: s }),
            out,
        ),
        Decision::Iron => push_spaces(
            iron_works_with_iron(game, state),
            |s| game.encode(Action::Iron { space: s }),
            out,
        ),
        Decision::Link => {
            push_links(game, state, &Ctx::new(game, state, p), true, out);
            out.push(l.stop);
        }
        Decision::Develop => {
            push_develops(game, state, &Ctx::new(game, state, p), out);
            out.push(l.stop);
        }
        Decision::Sell => {
            push_sales(game, state, &Ctx::new(game, state, p), out);
            out.push(l.stop);
        }
        Decision::Card => {
            let mut m = card_choices(state, p);
            while m != 0 {
                let k = m.trailing_zeros();
                m &= m - 1;
                out.push(l.card + k as u16);
            }
        }
        Decision::Remove => push_spaces(own_tiles(game, state, p), |s| l.remove + s as u16, out),
    }
}

fn push_spaces(mut mask: u64, id: impl Fn(u8) -> u16, out: &mut Vec<u16>) {
    while mask != 0 {
        let s = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        out.push(id(s));
    }
}

fn push_links(game: &Game, state: &State, ctx: &Ctx, second: bool, out: &mut Vec<u16>) {
    // Only lines touching the network can be legal (L-34).
    let mut candidates = 0u64;
    let mut net = ctx.network;
    while net != 0 {
        let l = net.trailing_zeros() as usize;
        net &= net - 1;
        candidates |= game.lines_mask_at[l];
    }
    while candidates != 0 {
        let line = candidates.trailing_zeros() as u8;
        candidates &= candidates - 1;
        if check_link(game, state, ctx, line, second).is_ok() {
            out.push(game.layout.link + line as u16);
        }
    }
}

fn push_develops(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    for industry in 0..game.industries.len() as u8 {
        if check_develop(game, state, ctx, industry).is_ok() {
            out.push(game.layout.develop + industry as u16);
        }
    }
}

fn push_sales(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    let l = &game.layout;
    for &mill in &l.mill_spaces {
        let t = state.board[mill as usize];
        if t.owner != ctx.player || t.industry != game.cotton_mill || t.flipped {
            continue;
        }
        for &port in &l.port_spaces {
            if check_sell(game, state, ctx, mill, port).is_ok() {
                out.push(game.encode(Action::Sell { mill, port }));
            }
        }
        if check_sell(game, state, ctx, mill, NONE).is_ok() {
            out.push(game.encode(Action::Sell { mill, port: NONE }));
        }
    }
}

/// Why `action` is not legal now, or Ok if it is. Agrees with [`legal_actions`] by construction: both
/// use the same checks.
pub fn why_illegal(game: &Game, state: &State, action: Action) -> Result<(), Why> {
    let Some(p) = state.current_player(game) else {
        return Err("the game is over");
    };
    let wrong_step = match state.decision {
        Decision::Action => "an action (build, link, develop, sell, loan or pass) is expected",
        Decision::Coal => "the coal source is expected (`coal <space>`)",
        Decision::Iron => "the iron source is expected (`iron <space>`)",
        Decision::Link => "a second rail link or `stop` is expected",
        Decision::Develop => "a second develop or `stop` is expected",
        Decision::Sell => "another sale or `stop` is expected",
        Decision::Card => "the card to discard is expected (`card <kind>`)",
        Decision::Remove => "a tile to remove for the shortfall is expected (`remove <space>`)",
        Decision::Over => "the game is over",
    };
    let ctx = || Ctx::new(game, state, p);
    match (state.decision, action) {
        (
            Decision::Action,
            Action::Build {
                space,
                industry,
                double,
            },
        ) => check_build(game, state, &ctx(), space, industry, double).map(|_| ()),
        (Decision::Action, Action::Link { line }) => check_link(game, state, &ctx(), line, false),
        (Decision::Link, Action::Link { line }) => check_link(game, state, &ctx(), line, true),
        (Decision::Action | Decision::Develop, Action::Develop { industry }) => {
            check_develop(game, state, &ctx(), industry)
        }
        (Decision::Action | Decision::Sell, Action::Sell { mill, port }) => {
            check_sell(game, state, &ctx(), mill, port)
        }
        (Decision::Action, Action::Loan { amount }) => check_loan(game, state, p, amount),
        (Decision::Action, Action::Pass) => Ok(()),
        (Decision::Link | Decision::Develop | Decision::Sell, Action::Stop) => Ok(()),
        (Decision::Coal, Action::Coal { space }) => {
            if coal_choices(game, state) & (1 << space) != 0 {
                Ok(())
            } else {
                Err("coal must come from one of the closest connected coal mines with coal (L-16)")
            }
        }
        (Decision::Iron, Action::Iron { space }) => {
            if iron_works_with_iron(game, state) & (1 << space) != 0 {
                Ok(())
            } else {
                Err("that space holds no iron works with iron (L-18)")
            }
        }
        (Decision::Card, Action::Card { kind }) => {
            if card_choices(state, p) & (1 << kind) != 0 {
                Ok(())
            } else {
                Err("that card cannot pay for this action (not in hand, or not one the action allows)")
            }
        }
        (Decision::Remove, Action::Remove { space }) => {
            if state.board[space as usize].owner == p {
                Ok(())
            } else {
                Err("that space holds no tile of yours (L-11)")
            }
        }
        _ => Err(wrong_step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apply;
    use crate::rng::Rng;
    use std::collections::BTreeMap;

    #[test]
    fn l24_canonical_spaces_agree_with_the_single_space_rule() {
        let game = Game::new("lancashire", 4, &BTreeMap::new()).unwrap();
        let mut rng = Rng(5);
        for seed in 0..20 {
            let mut state = apply::new_state(&game, seed);
            let mut ids = Vec::new();
            while !state.is_terminal() {
                let c = canonical_spaces(&game, &state);
                for s in 0..game.spaces.len() as u8 {
                    for i in 0..game.industries.len() as u8 {
                        // The rule is about undeveloped spaces (occupied ones are overbuilds).
                        if game.spaces[s as usize].icons & (1 << i) != 0
                            && state.board[s as usize].is_empty()
                        {
                            assert_eq!(
                                c[i as usize] & (1 << s) != 0,
                                is_canonical_space_slow(&game, &state, s, i)
                            );
                        }
                    }
                }
                ids.clear();
                legal_actions(&game, &state, &mut ids);
                let id = ids[rng.below(ids.len() as u64) as usize];
                apply::apply_unchecked(&game, &mut state, game.decode(id as i64).unwrap());
            }
        }
    }
}
