//! Which actions are legal (docs/actions.md, "When each action id is legal"), with the reason when not.
//! One check per action kind (`build.rs`, `actions.rs`), shared by `legal_actions` and `why_illegal`, so
//! the two cannot disagree; the choices of the follow-up decisions are in `choices.rs`.
use crate::actions::Action;
use crate::game::{BeerSource, FirstBuild, Game, Resource, MAX_INDUSTRIES, MAX_LOCATIONS, NONE};
use crate::state::{Decision, State};

mod actions;
mod build;
mod choices;

pub use actions::{any_sale, check_develop, check_link, check_loan, check_scout, check_sell};
pub use build::{
    build_cards, canonical_spaces, canonical_spaces_of, check_build, check_build_site,
    first_build_used, is_canonical_space, BuildPlan,
};
pub use choices::{card_choices, coal_choices, consumer_locations, own_tiles, works_with_cubes};

/// Why an action is not legal; shown to users after the action's notation.
pub type Why = &'static str;

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

    /// The same, with the spaces builds may use computed (for a decision with many build checks).
    pub fn for_builds(game: &Game, state: &State, player: u8) -> Ctx {
        let mut ctx = Ctx::new(game, state, player);
        // Only industries whose next tile may be built now and is affordable can be built at all (the
        // site check refuses the others before it looks at spaces).
        let player = &state.players[player as usize];
        let industries = (0..game.industries.len())
            .filter(|&i| {
                state
                    .next_tile(game, ctx.player, i as u8)
                    .is_some_and(|t| t.buildable_in(state.era) && player.money >= t.cost as i32)
            })
            .fold(0u32, |m, i| m | 1 << i);
        ctx.canonical = Some(canonical_spaces_of(game, state, industries));
        ctx
    }

    /// Are two locations connected (L-14)?
    pub fn connected(&self, a: u8, b: u8) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }
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
            push_builds(game, state, &ctx, out);
            push_links(game, state, &ctx, false, out);
            push_develops(game, state, &ctx, out);
            push_sales(game, state, &ctx, out);
            for (i, &amount) in game.loan_amounts.iter().enumerate() {
                if check_loan(game, state, p, amount).is_ok() {
                    out.push(l.loan + i as u16);
                }
            }
            if l.pass > l.scout && check_scout(game, state, p).is_ok() {
                out.push(l.scout);
            }
            out.push(l.pass);
        }
        Decision::Coal => push_spaces(
            coal_choices(game, state),
            |s| game.encode(Action::Coal { space: s }),
            out,
        ),
        Decision::Iron => push_spaces(
            works_with_cubes(game, state, Resource::Iron),
            |s| game.encode(Action::Iron { space: s }),
            out,
        ),
        Decision::Beer => {
            let (breweries, merchants) = crate::games::beer_choices(game, state);
            push_spaces(
                breweries,
                |s| {
                    game.encode(Action::Beer {
                        source: BeerSource::Brewery(s),
                    })
                },
                out,
            );
            push_spaces(
                merchants as u64,
                |m| {
                    game.encode(Action::Beer {
                        source: BeerSource::Merchant(m),
                    })
                },
                out,
            );
        }
        Decision::Bonus => {
            let industries = crate::games::bonus_industries(game, state, p);
            push_spaces(industries as u64, |i| l.develop + i as u16, out);
            out.push(l.stop);
        }
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

/// The BUILD and BUILD_DOUBLE ids legal now: one site check per candidate (space, industry) serves the
/// single and the double build. Candidates: per industry, the undeveloped spaces a build may use and the
/// spaces holding a tile of that industry (overbuilds); every other pair is refused by the site check.
fn push_builds(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    let l = &game.layout;
    let p = ctx.player;
    let player = &state.players[p as usize];
    let doubles_possible =
        l.link > l.build_double && state.actions_left >= 2 && player.hand_size() >= 2;
    let mut occupied_by = [0u64; MAX_INDUSTRIES];
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if !t.is_empty() {
            occupied_by[t.industry as usize] |= 1 << s;
        }
    }
    let canonical = ctx.canonical.expect("computed for builds");
    // Without a double build, a site no card in hand could pay for is never legal: skip its (costly) site
    // check. The card test here is looser than `build_cards` (which still decides), never stricter.
    let card_sites = (!doubles_possible).then(|| CardSites::new(game, ctx));
    let (mut singles, mut doubles) = (0u128, 0u128);
    for industry in 0..game.industries.len() {
        // Industries whose next tile cannot be built now or cannot be afforded are skipped early.
        let buildable = state
            .next_tile(game, p, industry as u8)
            .is_some_and(|t| t.buildable_in(state.era) && player.money >= t.cost as i32);
        if !buildable {
            continue;
        }
        let mut candidates = canonical[industry] | occupied_by[industry];
        if let Some(sites) = &card_sites {
            candidates &= sites.for_industry(game, ctx, industry);
        }
        while candidates != 0 {
            let space = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            let Ok(overbuild) = check_build_site(game, state, ctx, space, industry as u8) else {
                continue;
            };
            let pair = l.build_index[space as usize][industry] as u32;
            let loc = game.spaces[space as usize].location;
            let cards = build_cards(
                game,
                ctx.network,
                ctx.first_build_used,
                ctx.hand,
                loc,
                industry as u8,
                overbuild,
            );
            if cards != 0 {
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
}

/// The spaces where some card in the player's hand could pay for a single build (L-21, L-22, B-10), as
/// space bitmasks: a superset of what [`build_cards`] allows there.
struct CardSites {
    /// Spaces of the locations whose location card is in hand, or of every town with a wild location card.
    by_location_card: u64,
    /// Spaces an industry card reaches: the network (and the virtual link), or everywhere for a first build.
    by_industry_card: u64,
}

impl CardSites {
    fn new(game: &Game, ctx: &Ctx) -> CardSites {
        let wild_location = game.wild_location != NONE && ctx.hand & (1 << game.wild_location) != 0;
        let reach = crate::games::industry_card_network(game, ctx.network);
        let (mut by_location_card, mut by_industry_card) = (0u64, 0u64);
        for loc in &game.locations {
            let spaces = ((1u64 << loc.num_spaces) - 1) << loc.first_space;
            let own_card = loc.card != NONE && ctx.hand & (1 << loc.card) != 0;
            if own_card || (wild_location && !loc.farm) {
                by_location_card |= spaces;
            }
        }
        for (i, loc) in game.locations.iter().enumerate() {
            if !ctx.first_build_used || reach & (1 << i) != 0 {
                by_industry_card |= ((1u64 << loc.num_spaces) - 1) << loc.first_space;
            }
        }
        CardSites {
            by_location_card,
            by_industry_card,
        }
    }

    fn for_industry(&self, game: &Game, ctx: &Ctx, industry: usize) -> u64 {
        if ctx.hand & game.industry_cards[industry] != 0 {
            self.by_location_card | self.by_industry_card
        } else {
            self.by_location_card
        }
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
    // Only lines touching the network can be legal (L-34), or any line for a first link (B-12).
    let mut candidates = 0u64;
    let mut net = ctx.network;
    while net != 0 {
        let l = net.trailing_zeros() as usize;
        net &= net - 1;
        candidates |= game.lines_mask_at[l];
    }
    if game.switches.first_link_anywhere && !ctx.presence {
        candidates = (1u64 << game.lines.len()) - 1;
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
    for &tile in &game.layout.sell_spaces {
        let t = state.board[tile as usize];
        if t.owner != ctx.player || !game.roles[t.industry as usize].sold || t.flipped {
            continue;
        }
        for &target in &game.layout.sale_targets {
            if check_sell(game, state, ctx, tile, target).is_ok() {
                out.push(game.encode(Action::Sell { tile, target }));
            }
        }
    }
}

/// Why `action` is not legal now, or Ok if it is. Agrees with [`legal_actions`] by construction: both
/// use the same checks.
pub fn why_illegal(game: &Game, state: &State, action: Action) -> Result<(), Why> {
    let Some(p) = state.current_player(game) else {
        return Err("the game is over");
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
        (Decision::Action | Decision::Sell, Action::Sell { tile, target }) => {
            check_sell(game, state, &ctx(), tile, target)
        }
        (Decision::Action, Action::Loan { amount }) => check_loan(game, state, p, amount),
        (Decision::Action, Action::Scout) => check_scout(game, state, p),
        (Decision::Action, Action::Pass) => Ok(()),
        (Decision::Link | Decision::Develop | Decision::Sell | Decision::Bonus, Action::Stop) => {
            Ok(())
        }
        (Decision::Bonus, Action::Develop { industry }) => {
            if crate::games::bonus_industries(game, state, p) & (1 << industry) != 0 {
                Ok(())
            } else {
                Err("the Gloucester bonus removes the lowest tile of an industry that can be developed (B-26)")
            }
        }
        (Decision::Beer, Action::Beer { source }) => {
            let (breweries, merchants) = crate::games::beer_choices(game, state);
            let ok = match source {
                BeerSource::Brewery(s) => breweries & (1 << s) != 0,
                BeerSource::Merchant(m) => merchants & (1 << m) != 0,
            };
            if ok {
                Ok(())
            } else {
                Err("the beer must come from your brewery, a connected brewery or the merchant sold to (B-25)")
            }
        }
        (Decision::Coal, Action::Coal { space }) => {
            if coal_choices(game, state) & (1 << space) != 0 {
                Ok(())
            } else {
                Err("coal must come from one of the closest connected coal mines with coal (L-16)")
            }
        }
        (Decision::Iron, Action::Iron { space }) => {
            if works_with_cubes(game, state, Resource::Iron) & (1 << space) != 0 {
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
        _ => Err(expected(state.decision)),
    }
}

/// What the current decision expects, for an action of the wrong kind.
fn expected(decision: Decision) -> Why {
    match decision {
        Decision::Action => {
            "an action (build, link, develop, sell, loan, scout or pass) is expected"
        }
        Decision::Coal => "the coal source is expected (`coal <space>`)",
        Decision::Iron => "the iron source is expected (`iron <space>`)",
        Decision::Link => "a second rail link or `stop` is expected",
        Decision::Develop => "a second develop or `stop` is expected",
        Decision::Sell => "another sale or `stop` is expected",
        Decision::Card => "the card to discard is expected (`card <kind>`)",
        Decision::Remove => "a tile to remove for the shortfall is expected (`remove <space>`)",
        Decision::Over => "the game is over",
        Decision::Beer => "the beer source is expected (`beer <space>` or `beer <merchant>/<n>`)",
        Decision::Bonus => "the Gloucester develop or `stop` is expected",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apply;
    use crate::rng::Rng;
    use std::collections::BTreeMap;

    /// The original single-space form of L-24, kept as the specification `canonical_spaces` follows.
    fn is_canonical_space_slow(game: &Game, state: &State, space: u8, industry: u8) -> bool {
        let loc = &game.locations[game.spaces[space as usize].location as usize];
        let only = 1u8 << industry;
        let open =
            |s: u8| state.board[s as usize].is_empty() && game.spaces[s as usize].icons & only != 0;
        let any_single = loc
            .spaces()
            .any(|s| open(s) && game.spaces[s as usize].icons == only);
        let icons = game.spaces[space as usize].icons;
        if any_single && icons != only {
            return false;
        }
        // No earlier open space with the same icons.
        !loc.spaces()
            .take_while(|&s| s != space)
            .any(|s| open(s) && game.spaces[s as usize].icons == icons)
    }

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
