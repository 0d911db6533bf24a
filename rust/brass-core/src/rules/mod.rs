//! Which actions are legal (docs/actions.md, "When each action id is legal"), with the reason when not.
//! One check per action kind (`build.rs`, `actions.rs`), shared by `legal_actions` and `why_illegal`, so
//! the two cannot disagree; the choices of the follow-up decisions are in `choices.rs`.
use crate::actions::Action;
use crate::game::{BeerSource, Game, Resource, MAX_INDUSTRIES, NONE};
use crate::state::{Decision, State};

mod actions;
mod build;
mod choices;

pub use crate::context::Ctx;
pub use crate::error::Why;
pub use actions::{
    any_sale, check_develop, check_link, check_loan, check_scout, check_sell, sale_tiles,
    selling_industry_spaces,
};
pub use build::{
    build_cards, canonical_spaces, canonical_spaces_of, check_build, check_build_site,
    first_build_used, free_build_sites, is_canonical_space, BuildPlan,
};
pub use choices::{card_choices, coal_choices, consumer_locations, own_tiles, works_with_cubes};

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

/// The build candidates of an Action decision: per industry, the spaces worth a site check (a superset of the
/// legal builds: the undeveloped spaces a build may use and the spaces holding a tile of that industry, less
/// those no card in hand could pay for when no double build is possible); and whether a double build is
/// possible now (L-21). `check_build_site` and `build_cards` decide.
pub fn build_candidates(game: &Game, state: &State, ctx: &Ctx) -> ([u64; MAX_INDUSTRIES], bool) {
    candidates_with_cards(game, state, ctx, None)
}

/// [`build_candidates`], with the card sites when the caller has them already.
fn candidates_with_cards(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    card_sites: Option<&CardSites>,
) -> ([u64; MAX_INDUSTRIES], bool) {
    let l = &game.layout;
    let p = ctx.player;
    let player = &state.players[p as usize];
    let doubles_possible =
        l.link > l.build_double && state.actions_left >= 2 && player.hand_size() >= 2;
    let canonical = ctx.canonical.expect("computed for builds");
    // Without a double build, a site no card in hand could pay for is never legal: skip its (costly) site
    // check. The card test here is looser than `build_cards` (which still decides), never stricter.
    let card_sites = (!doubles_possible).then(|| {
        card_sites
            .copied()
            .unwrap_or_else(|| CardSites::new(game, ctx))
    });
    let mut out = [0u64; MAX_INDUSTRIES];
    for (industry, candidates) in out.iter_mut().enumerate().take(game.industries.len()) {
        // Industries whose next tile cannot be built now or cannot be afforded are skipped early.
        if ctx.buildable & (1 << industry) == 0 {
            continue;
        }
        // Free spaces and occupied ones: disjoint, so `|` and `^` agree (an equivalent mutant).
        *candidates = canonical[industry] | state.occupancy.industry_spaces[industry];
        if let Some(sites) = &card_sites {
            *candidates &= sites.for_industry(game, ctx, industry);
        }
    }
    (out, doubles_possible)
}

/// The BUILD and BUILD_DOUBLE ids legal now. The undeveloped candidates of an industry are decided together
/// ([`free_build_sites`]), with the cards as space masks ([`CardSites`], exact for them); a space holding a tile
/// gets its own site check (L-29, L-30), which serves the single and the double build.
fn push_builds(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    let l = &game.layout;
    let p = ctx.player;
    let card_sites = CardSites::new(game, ctx);
    let (candidates_by_industry, doubles_possible) =
        candidates_with_cards(game, state, ctx, Some(&card_sites));
    // The legal build pairs (`Layout::build_index`) as bit sets, one per block, to list them in id order.
    let mut singles = [0u64; BUILD_PAIR_WORDS];
    let mut doubles = [0u64; BUILD_PAIR_WORDS];
    for (industry, &candidates) in candidates_by_industry.iter().enumerate() {
        if candidates == 0 {
            continue;
        }
        let free = candidates & !ctx.occupied;
        let sites = free_build_sites(game, state, ctx, industry as u8, free);
        let mut single_sites = sites & card_sites.for_industry(game, ctx, industry);
        let mut double_sites = sites;
        // Only the player's own tiles, or a coal mine or iron works of anyone's when no cube of its resource is
        // left, can be overbuilt (L-29, L-30): the site check refuses the others, so skipping them only saves work.
        let overbuildable = match game.produces(industry as u8) {
            Some(r)
                if r != Resource::Beer && ctx.on_board[r.index()] + state.market(r) as u32 == 0 =>
            {
                u64::MAX
            }
            _ => state.occupancy.tiles_of[p as usize],
        };
        let mut overbuilds = candidates & ctx.occupied & overbuildable;
        while overbuilds != 0 {
            let space = overbuilds.trailing_zeros() as u8;
            overbuilds &= overbuilds - 1;
            let Ok(overbuild) = check_build_site(game, state, ctx, space, industry as u8) else {
                continue;
            };
            double_sites |= 1 << space;
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
                single_sites |= 1 << space;
            }
        }
        if !doubles_possible {
            double_sites = 0;
        }
        let index = &l.build_index;
        while single_sites != 0 {
            let space = single_sites.trailing_zeros() as usize;
            single_sites &= single_sites - 1;
            let pair = index[space][industry] as usize;
            singles[pair >> 6] |= 1 << (pair & 63);
        }
        while double_sites != 0 {
            let space = double_sites.trailing_zeros() as usize;
            double_sites &= double_sites - 1;
            let pair = index[space][industry] as usize;
            doubles[pair >> 6] |= 1 << (pair & 63);
        }
    }
    for (base, words) in [(l.build, singles), (l.build_double, doubles)] {
        for (w, mut bits) in words.into_iter().enumerate() {
            while bits != 0 {
                let i = (w * 64) as u16 + bits.trailing_zeros() as u16;
                bits &= bits - 1;
                out.push(base + i);
            }
        }
    }
}

/// Words of 64 bits holding one bit per build pair (`Layout::build_index`; the layout refuses more pairs).
pub const BUILD_PAIR_WORDS: usize = 2;

/// The spaces where some card in the player's hand could pay for a single build (L-21, L-22, B-10), as
/// space bitmasks: a superset of what [`build_cards`] allows there.
#[derive(Clone, Copy)]
struct CardSites {
    /// Spaces of the locations whose location card is in hand, or of every town with a wild location card.
    by_location_card: u64,
    /// Spaces an industry card reaches: the network (and the virtual link), or everywhere for a first build.
    by_industry_card: u64,
}

impl CardSites {
    fn new(game: &Game, ctx: &Ctx) -> CardSites {
        let wild_location = game.wild_location != NONE && ctx.hand & (1 << game.wild_location) != 0;
        let mut by_location_card = if wild_location { game.town_spaces } else { 0 };
        let mut hand = ctx.hand;
        while hand != 0 {
            by_location_card |= game.card_spaces[hand.trailing_zeros() as usize];
            hand &= hand - 1;
        }
        let by_industry_card = if ctx.first_build_used {
            let mut reach = crate::games::industry_card_network(game, ctx.network)
                & (u64::MAX >> (64 - game.locations.len()));
            let mut spaces = 0u64;
            while reach != 0 {
                spaces |= game.location_spaces[reach.trailing_zeros() as usize];
                reach &= reach - 1;
            }
            spaces
        } else {
            game.all_spaces()
        };
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
    let mut lines = legal_links(game, state, ctx, second);
    while lines != 0 {
        let line = lines.trailing_zeros() as u16;
        lines &= lines - 1;
        out.push(game.layout.link + line);
    }
}

/// The lines [`check_link`] accepts, as a bitmask. [`link_candidates`] already applies everything but the
/// cost (L-34, L-35, L-37, B-12), so in the Canal Era the money alone decides, the same for every line (L-35);
/// a rail's coal and beer depend on its ends (L-36, B-13), so each rail candidate's ends are looked at, with
/// the rail's cost and the price of a market coal decided once. `tests/rules_actions.rs` checks the result
/// against `check_link` on every line.
pub fn legal_links(game: &Game, state: &State, ctx: &Ctx, second: bool) -> u64 {
    let candidates = link_candidates(game, state, ctx);
    if state.era == crate::game::Era::Canal {
        let money = state.players[ctx.player as usize].money;
        return if money >= game.link_costs.canal as i32 {
            candidates
        } else {
            0
        };
    }
    // The rail's own cost and the price of one market coal are the same for every line: decided once.
    let money = state.players[ctx.player as usize].money;
    let rail = if second {
        game.link_costs.second_rail
    } else {
        game.link_costs.rail
    } as i32;
    if money < rail {
        return 0;
    }
    let coal_price =
        crate::market::buy_cost(game.market(Resource::Coal), state.market(Resource::Coal), 1)
            as i32;
    let beer = second && game.switches.double_rail_beer;
    let mut lines = 0u64;
    let mut rest = candidates;
    while rest != 0 {
        let line = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let (on_mines, trade) = actions::rail_coal_and_trade(game, ctx, line);
        if on_mines == 0 && !(trade && money >= rail + coal_price) {
            continue;
        }
        if beer && !crate::games::rail_beer_available(game, state, ctx, line) {
            continue;
        }
        lines |= 1 << line;
    }
    lines
}

/// The lines `check_link` may accept, as a bitmask (a superset of the legal ones; `check_link` decides): none
/// for a player without link tiles (L-37); no line with a link (L-34) or closed in this era (L-35, L-36); only
/// lines touching the network (L-34), or any line for a first link (B-12).
pub fn link_candidates(game: &Game, state: &State, ctx: &Ctx) -> u64 {
    if state.players[ctx.player as usize].links_left == 0 {
        return 0;
    }
    let mut candidates = 0u64;
    let mut net = ctx.network;
    while net != 0 {
        let l = net.trailing_zeros() as usize;
        net &= net - 1;
        candidates |= game.lines_mask_at[l];
    }
    if game.switches.first_link_anywhere && !ctx.presence {
        candidates = u64::MAX;
    }
    candidates & game.lines_in(state.era) & !ctx.placed_links
}

fn push_develops(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    let mut industries = develop_industries(game, state, ctx);
    while industries != 0 {
        let industry = industries.trailing_zeros() as u16;
        industries &= industries - 1;
        out.push(game.layout.develop + industry);
    }
}

/// The industries [`check_develop`] accepts, as a bitmask: the iron (L-39, L-18) is the same for all of them, so
/// it is decided once. `tests/rules_actions.rs` checks it against `why_illegal`.
pub fn develop_industries(game: &Game, state: &State, ctx: &Ctx) -> u32 {
    develops(
        game,
        state,
        ctx.player,
        ctx.on_board[Resource::Iron.index()] > 0,
    )
}

/// [`develop_industries`] of `player`, told only whether any iron works holds iron (all a develop needs of the
/// board), so a follow-up develop is decided without a whole context.
pub fn develops(game: &Game, state: &State, player: u8, iron_on_board: bool) -> u32 {
    let iron_price =
        crate::market::buy_cost(game.market(Resource::Iron), state.market(Resource::Iron), 1);
    if !iron_on_board && state.players[player as usize].money < iron_price as i32 {
        return 0;
    }
    let mut industries = 0u32;
    for industry in 0..game.industries.len() as u8 {
        if state
            .next_tile(game, player, industry)
            .is_some_and(|t| t.developable)
        {
            industries |= 1 << industry;
        }
    }
    industries
}

fn push_sales(game: &Game, state: &State, ctx: &Ctx, out: &mut Vec<u16>) {
    // `sale_tiles` are the tiles `check_sell` accepts before it asks the game (its own tile test), so only the
    // game's targets are left to decide. Ascending spaces, then targets, as the ids go.
    let mut tiles = sale_tiles(game, state, ctx.player);
    while tiles != 0 {
        let tile = tiles.trailing_zeros() as u8;
        tiles &= tiles - 1;
        let mut targets = crate::games::sale_target_mask(game, state, ctx, tile);
        while targets != 0 {
            let target = game.layout.sale_targets[targets.trailing_zeros() as usize];
            targets &= targets - 1;
            out.push(game.encode(Action::Sell { tile, target }));
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
