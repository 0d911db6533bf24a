//! One legal action drawn uniformly at random without listing them all (docs/performance.md, "Instructions per
//! random game"). An Action decision has hundreds of candidate ids and listing the legal ones checks every one;
//! here candidates are drawn from a cheap superset of the legal ids (each legal id in it exactly once) and
//! checked one at a time until one is legal. Rejection sampling from a superset is exactly uniform over the
//! legal ids; it draws the random numbers differently from picking `ids[below(len)]` of `legal_actions`, so it
//! is a sampler of its own, and playouts made with it are other games than the listing sampler's (same seed).
//! The other decisions have few choices, listed as bitmasks: they are listed and one is picked.
use crate::actions::Action;
use crate::context::Ctx;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules;
use crate::state::{Decision, State};

/// How a random move is drawn (random playouts, `RandomAgent`, MCTS playouts). Both are uniform over the legal
/// actions; they use the random numbers differently, so the same seed gives other games with each. `List` is
/// the first sampler (the games of every earlier release, and the default); `Draw` draws candidates without
/// listing the legal actions ([`sample_legal`]): faster in Lancashire and classic Brass; since the listing
/// decides whole groups at once, slower in Birmingham, where many drawn candidates are rejected
/// (docs/performance.md, "Issue 23: where it stands").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sampler {
    /// List the legal actions, take `ids[below(len)]`.
    #[default]
    List,
    /// Draw from a superset of the legal actions until one is legal ([`sample_legal`]).
    Draw,
}

impl Sampler {
    /// A legal action of `state` (not over), uniformly at random. `ids` is scratch space.
    pub fn pick(self, game: &Game, state: &State, rng: &mut Rng, ids: &mut Vec<u16>) -> u16 {
        match self {
            Sampler::List => {
                ids.clear();
                rules::legal_actions(game, state, ids);
                ids[rng.below(ids.len() as u64) as usize]
            }
            Sampler::Draw => sample_legal(game, state, rng, ids),
        }
    }

    /// The sampler's name as the Python API spells it: `"list"` or `"draw"`.
    pub fn name(self) -> &'static str {
        match self {
            Sampler::List => "list",
            Sampler::Draw => "draw",
        }
    }

    /// The sampler named `name` (`"list"` or `"draw"`).
    pub fn from_name(name: &str) -> Option<Sampler> {
        match name {
            "list" => Some(Sampler::List),
            "draw" => Some(Sampler::Draw),
            _ => None,
        }
    }
}

/// A legal action of `state` (not over), uniformly at random over its legal actions. `ids` is scratch space.
pub fn sample_legal(game: &Game, state: &State, rng: &mut Rng, ids: &mut Vec<u16>) -> u16 {
    if state.decision != Decision::Action {
        ids.clear();
        rules::legal_actions(game, state, ids);
        return ids[rng.below(ids.len() as u64) as usize];
    }
    let p = state.current_player(game).expect("a player to decide");
    let l = &game.layout;
    let ctx = Ctx::for_builds(game, state, p);
    let (builds, doubles_possible) = rules::build_candidates(game, state, &ctx);
    let links = rules::link_candidates(game, state, &ctx);
    let sale_tiles = rules::sale_tiles(game, state, p);
    let targets = l.sale_targets.len() as u64;
    let singles: u64 = builds.iter().map(|m| m.count_ones() as u64).sum();
    let build_block = singles * if doubles_possible { 2 } else { 1 };
    let link_block = links.count_ones() as u64;
    let develop_block = game.industries.len() as u64;
    let sale_block = sale_tiles.count_ones() as u64 * targets;
    let loan_block = game.loan_amounts.len() as u64;
    let scout_block = u64::from(l.pass > l.scout);
    // Pass is always legal in an Action decision, so the loop ends.
    let total =
        build_block + link_block + develop_block + sale_block + loan_block + scout_block + 1;
    // Links and develops already checked this decision, and the legal ones: a candidate drawn again is not
    // checked again (the same answer; the draws, and so the games, are unchanged: cargo-mutants' `&=` for
    // `|=` below, which checks again every time, is equivalent).
    let (mut links_checked, mut links_legal) = (0u64, 0u64);
    let (mut develops_checked, mut develops_legal) = (0u32, 0u32);
    loop {
        let mut r = rng.below(total);
        if r < build_block {
            let double = r >= singles;
            if double {
                r -= singles;
            }
            let (space, industry) = nth_build(&builds, r);
            if let Ok(overbuild) = rules::check_build_site(game, state, &ctx, space, industry) {
                let loc = game.spaces[space as usize].location;
                let cards = || {
                    rules::build_cards(
                        game,
                        ctx.network,
                        ctx.first_build_used,
                        ctx.hand,
                        loc,
                        industry,
                        overbuild,
                    )
                };
                if double || cards() != 0 {
                    return game.encode(Action::Build {
                        space,
                        industry,
                        double,
                    });
                }
            }
            continue;
        }
        r -= build_block;
        if r < link_block {
            let line = nth_bit(links, r);
            let bit = 1u64 << line;
            if links_checked & bit == 0 {
                links_checked |= bit;
                if rules::check_link(game, state, &ctx, line, false).is_ok() {
                    links_legal |= bit;
                }
            }
            if links_legal & bit != 0 {
                return l.link + line as u16;
            }
            continue;
        }
        r -= link_block;
        if r < develop_block {
            let bit = 1u32 << r;
            if develops_checked & bit == 0 {
                develops_checked |= bit;
                if rules::check_develop(game, state, &ctx, r as u8).is_ok() {
                    develops_legal |= bit;
                }
            }
            if develops_legal & bit != 0 {
                return l.develop + r as u16;
            }
            continue;
        }
        r -= develop_block;
        if r < sale_block {
            let tile = nth_bit(sale_tiles, r / targets);
            let target = l.sale_targets[(r % targets) as usize];
            if rules::check_sell(game, state, &ctx, tile, target).is_ok() {
                return game.encode(Action::Sell { tile, target });
            }
            continue;
        }
        r -= sale_block;
        if r < loan_block {
            if rules::check_loan(game, state, p, game.loan_amounts[r as usize]).is_ok() {
                return l.loan + r as u16;
            }
            continue;
        }
        r -= loan_block;
        if r < scout_block {
            if rules::check_scout(game, state, p).is_ok() {
                return l.scout;
            }
            continue;
        }
        return l.pass;
    }
}

/// The position of the `n`-th set bit of `mask` (from 0, lowest first; `n` below its number of bits).
fn nth_bit(mask: u64, mut n: u64) -> u8 {
    // Skip whole bytes by their bit counts, then clear the low bits of the byte holding it.
    let mut base = 0;
    loop {
        let byte = (mask >> base) & 0xff;
        let count = byte.count_ones() as u64;
        if n < count {
            let mut byte = byte;
            for _ in 0..n {
                byte &= byte - 1;
            }
            return base as u8 + byte.trailing_zeros() as u8;
        }
        n -= count;
        base += 8;
    }
}

/// The `n`-th build candidate, industry by industry, spaces ascending: (space, industry).
fn nth_build(builds: &[u64], mut n: u64) -> (u8, u8) {
    for (industry, &mask) in builds.iter().enumerate() {
        let count = mask.count_ones() as u64;
        if n < count {
            return (nth_bit(mask, n), industry as u8);
        }
        n -= count;
    }
    unreachable!("n is below the number of build candidates")
}

/// Play actions drawn by [`sample_legal`] until the game ends; returns the number of decisions.
pub fn sampled_playout(game: &Game, state: &mut State, rng: &mut Rng, ids: &mut Vec<u16>) -> u32 {
    let mut decisions = 0;
    while !state.is_terminal() {
        let id = sample_legal(game, state, rng, ids);
        crate::apply::apply_unchecked(game, state, game.decode(id as i64).expect("legal id"));
        decisions += 1;
    }
    decisions
}
