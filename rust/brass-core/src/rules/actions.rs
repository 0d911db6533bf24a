//! The other actions: Network (L-34 … L-37), Develop (L-39), Sell (L-40, the targets in the game's module),
//! Loan (L-45, L-46, C-5).
use crate::context::Ctx;
use crate::error::Why;
use crate::game::{Era, Game, LoanBan, Resource, SaleTarget, NONE};
use crate::market;
use crate::state::State;

/// Can the player build a link on `line` (L-34 … L-37)? `second` is the second rail of one action.
// Inlined into the loops that check one drawn or listed line after another (the drawing sampler), where its
// loads of the player and era are hoisted: when the listing still checked each line with it, 100 random 4-player
// games of Birmingham took 9 % fewer instructions (cachegrind), Lancashire 4 %.
#[inline(always)]
pub fn check_link(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    line: u8,
    second: bool,
) -> Result<(), Why> {
    let player = &state.players[ctx.player as usize];
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
    // B-12: with nothing on the board, a link may go on any line.
    let anywhere = game.switches.first_link_anywhere && !ctx.presence;
    if ctx.network & l.ends() == 0 && !anywhere {
        return Err("neither end of the line is in your network (L-34)");
    }
    match state.era {
        Era::Canal => {
            if player.money < game.link_costs.canal as i32 {
                return Err("a canal costs £3 (L-35)");
            }
        }
        Era::Rail => {
            let (on_mines, trade) = rail_coal_and_trade(game, ctx, line);
            let mut cost = if second {
                game.link_costs.second_rail
            } else {
                game.link_costs.rail
            } as u32;
            if on_mines == 0 {
                if !trade {
                    return Err("no coal for the rail: no connected coal mine has coal and there is no connection to a market trade icon (L-36, L-17)");
                }
                cost +=
                    market::buy_cost(game.market(Resource::Coal), state.market(Resource::Coal), 1);
            }
            if player.money < cost as i32 {
                return Err("not enough money for the rail and its coal (L-36)");
            }
            if second
                && game.switches.double_rail_beer
                && !crate::games::rail_beer_available(game, state, ctx, line)
            {
                return Err(
                    "the second rail needs a beer from a brewery: yours, or a connected one (B-13)",
                );
            }
        }
    }
    Ok(())
}

/// The coal on the mines a rail on `line` would connect, and whether it would connect to a market trade icon
/// (L-36, L-16, L-17): placing the link joins the components of its ends (two, or three: MAX_LINE_ENDS).
#[inline(always)]
pub fn rail_coal_and_trade(game: &Game, ctx: &Ctx, line: u8) -> (u32, bool) {
    let ends = &game.lines[line as usize].ends;
    let comp = |i: usize| ctx.component[ends[i] as usize] as usize;
    let (c0, c1) = (comp(0), comp(1));
    let (mut on_mines, mut trade) = (ctx.component_coal[c0] as u32, ctx.has_trade(c0));
    if c1 != c0 {
        on_mines += ctx.component_coal[c1] as u32;
        trade |= ctx.has_trade(c1);
    }
    // The one three-ended line (Birmingham's Kidderminster–Worcester–farm) ends at a farm that no other line
    // reaches and that holds no coal or trade: its component never adds any, so a mutant skipping this block is
    // equivalent on today's maps.
    if ends.len() > 2 {
        let c2 = comp(2);
        if c2 != c0 && c2 != c1 {
            on_mines += ctx.component_coal[c2] as u32;
            trade |= ctx.has_trade(c2);
        }
    }
    (on_mines, trade)
}

/// Can the player develop (remove) the lowest tile of `industry` (L-39)?
#[inline]
pub fn check_develop(game: &Game, state: &State, ctx: &Ctx, industry: u8) -> Result<(), Why> {
    match state.next_tile(game, ctx.player, industry) {
        None => return Err("you have no tile of that industry left"),
        Some(t) if !t.developable => {
            return Err("a lightbulb pottery can never be developed, only built (B-14)")
        }
        Some(_) => {}
    }
    let iron_price = market::buy_cost(game.market(Resource::Iron), state.market(Resource::Iron), 1);
    if ctx.on_board[Resource::Iron.index()] == 0
        && state.players[ctx.player as usize].money < iron_price as i32
    {
        return Err("not enough money for the iron (L-39, L-18)");
    }
    Ok(())
}

/// Can the player sell the tile on `tile` to `target` (L-40 … L-42)? The tile must be the player's own
/// unflipped tile of an industry that is sold; where it may go is the game's rule.
#[inline]
pub fn check_sell(
    game: &Game,
    state: &State,
    ctx: &Ctx,
    tile: u8,
    target: SaleTarget,
) -> Result<(), Why> {
    let t = state.board[tile as usize];
    if t.owner != ctx.player || !game.roles[t.industry as usize].sold {
        return Err("that space holds no tile of yours of an industry that sells (L-40, B-15)");
    }
    if t.flipped {
        return Err("that tile has already sold (L-40, B-15)");
    }
    crate::games::check_sale(game, state, ctx, tile, target)
}

/// The spaces holding a tile (anyone's, flipped or not) of an industry that sells (L-40, B-15), as a bitmask.
pub fn selling_industry_spaces(game: &Game, state: &State) -> u64 {
    let mut spaces = 0u64;
    for (industry, role) in game.roles.iter().enumerate() {
        if role.sold {
            spaces |= state.tiles_of_industry(industry as u8);
        }
    }
    spaces
}

/// The spaces holding `player`'s unflipped tiles of an industry that sells: the tiles a sale may use
/// (L-40, B-15), as a bitmask (`check_sell` decides each target).
pub fn sale_tiles(game: &Game, state: &State, player: u8) -> u64 {
    let mut tiles =
        selling_industry_spaces(game, state) & state.occupancy.tiles_of[player as usize];
    let mut out = 0u64;
    while tiles != 0 {
        let s = tiles.trailing_zeros();
        tiles &= tiles - 1;
        if !state.board[s as usize].flipped {
            out |= 1 << s;
        }
    }
    out
}

/// Is any sale legal now (to offer `sell` follow-ups)?
pub fn any_sale(game: &Game, state: &State, ctx: &Ctx) -> bool {
    let mut tiles = sale_tiles(game, state, ctx.player);
    while tiles != 0 {
        let tile = tiles.trailing_zeros() as u8;
        tiles &= tiles - 1;
        // `sale_tiles` passed `check_sell`'s own test of the tile; the game decides the targets.
        if crate::games::sale_target_mask(game, state, ctx, tile) != 0 {
            return true;
        }
    }
    false
}

/// Can the player take a loan of `amount` (L-45, L-46, C-5)?
pub fn check_loan(game: &Game, state: &State, player: u8, amount: u8) -> Result<(), Why> {
    if state.income_level(game, player) - ((amount / 10) as i32) < game.lowest_income_level {
        return Err("a loan may not take the income level below -10 (L-45)");
    }
    if state.era == Era::Rail {
        match game.switches.loan_ban {
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

/// Can the player Scout (B-17, B-31): no wild card in hand, and the three cards to discard?
pub fn check_scout(game: &Game, state: &State, player: u8) -> Result<(), Why> {
    let p = &state.players[player as usize];
    if p.hand_kinds() & game.wild_kinds != 0 {
        return Err("you may not Scout while holding a wild card (B-17)");
    }
    if p.hand_size() < crate::actions::SCOUT_CARDS as u32 {
        return Err("Scout discards 3 cards (B-17)");
    }
    Ok(())
}
