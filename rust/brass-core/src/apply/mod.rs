//! How actions resolve (docs/actions.md, "How each action resolves"): the action, then the coal and iron it
//! owes (asking only on a real choice), then its follow-up and its card. Turns, rounds and eras are in
//! `turns.rs`, scoring in `scoring.rs`, set-up in `setup.rs`.
use crate::actions::Action;
use crate::error::{Error, Result};
use crate::game::{BeerSource, Era, Game, Resource, NONE};
use crate::market;
use crate::rules::{self, card_choices, coal_choices, works_with_cubes, Ctx};
use crate::state::{ActionKind, Decision, State, Underway};

mod build;
mod scoring;
mod setup;
mod turns;

pub use crate::actions::SCOUT_CARDS;
use crate::income::{flip, spend, take_cube};
pub use scoring::{link_icons, placings, returns, winners};
pub use setup::new_state;

/// Apply an action id after checking that it is legal; on error the state is unchanged.
pub fn apply(game: &Game, state: &mut State, id: i64) -> Result<()> {
    let action = game.decode(id)?;
    if let Err(why) = rules::why_illegal(game, state, action) {
        return Err(Error::IllegalAction(format!(
            "`{}` is not legal now: {why}",
            game.notation(action)
        )));
    }
    // Debug and test builds check that every checked decision keeps a valid state valid (hand-built
    // test positions need not be valid to begin with).
    #[cfg(debug_assertions)]
    let was_valid = crate::invariants::validate(game, state).is_ok();
    apply_unchecked(game, state, action);
    #[cfg(debug_assertions)]
    if was_valid {
        if let Err(e) = crate::invariants::validate(game, state) {
            panic!("invariant broken after `{}`: {e}", game.notation(action));
        }
    }
    Ok(())
}

/// Apply an action known to be legal (for example one taken from `legal_actions`).
pub fn apply_unchecked(game: &Game, state: &mut State, action: Action) {
    let p = state.current_player(game).expect("a decision is pending") as usize;
    match action {
        Action::Build {
            space,
            industry,
            double,
        } => {
            build::start_build(game, state, p, space, industry, double);
            resolve(game, state);
        }
        Action::Link { line } => place_link(game, state, p, line),
        Action::Develop { industry } if state.decision == Decision::Bonus => {
            // B-26: Gloucester's free develop: the lowest tile leaves the mat, no iron, no card.
            state.players[p].taken[industry as usize] += 1;
            end_sale(game, state, p);
        }
        Action::Develop { industry } => {
            let mut u = state.action.unwrap_or(Underway::new(ActionKind::Develop));
            state.players[p].taken[industry as usize] += 1;
            u.count += 1;
            u.iron = 1;
            state.action = Some(u);
            resolve(game, state);
        }
        Action::Sell { tile, target } => {
            // The sale is under way until its beer is taken (B-15); it completes in `follow_up`.
            let mut u = state.action.unwrap_or(Underway::new(ActionKind::Sell));
            u.target = tile;
            u.sale = game
                .layout
                .target_index(target)
                .expect("a target of this game") as u8;
            u.beer = crate::games::sale_beer(game, state, tile);
            u.merchant_beer = false;
            state.action = Some(u);
            resolve(game, state);
        }
        Action::Loan { amount } => {
            // L-45: back `amount/10` levels, to the top space of the new level; not money spent (L-10).
            let level = state.income_level(game, p as u8) - (amount / 10) as i32;
            state.players[p].income_space = game.top_space_of_level(level);
            state.players[p].money += amount as i32;
            state.action = Some(Underway::new(ActionKind::Loan));
            card_stage(game, state);
        }
        Action::Pass => {
            state.action = Some(Underway::new(ActionKind::Pass));
            card_stage(game, state);
        }
        Action::Scout => {
            state.action = Some(Underway::new(ActionKind::Scout));
            card_stage(game, state);
        }
        Action::Coal { space } => take_chosen(game, state, space, Resource::Coal),
        Action::Iron { space } => take_chosen(game, state, space, Resource::Iron),
        Action::Beer { source } => {
            match source {
                BeerSource::Brewery(space) => take_cube(game, state, space),
                BeerSource::Merchant(m) => crate::games::take_merchant_beer(game, state, m),
            }
            state.action.as_mut().expect("an action").beer -= 1;
            resolve(game, state);
        }
        Action::Stop if state.decision == Decision::Bonus => end_sale(game, state, p),
        Action::Stop => card_stage(game, state),
        Action::Card { kind } => {
            if card_paid(game, state, p, kind) {
                card_stage(game, state);
            } else {
                turns::finish_action(game, state);
            }
        }
        Action::Remove { space } => {
            turns::remove_for_shortfall(game, state, space);
            turns::shortfall(game, state);
        }
    }
}

/// L-35, L-36: pay, place the link; a rail then owes one coal (`resolve`).
fn place_link(game: &Game, state: &mut State, p: usize, line: u8) {
    let second = state.decision == Decision::Link;
    let mut u = state.action.unwrap_or(Underway::new(ActionKind::Link));
    let cost = match (state.era, second) {
        (Era::Canal, _) => game.link_costs.canal,
        (Era::Rail, false) => game.link_costs.rail,
        (Era::Rail, true) => game.link_costs.second_rail,
    };
    spend(state, p, cost as u32);
    state.set_link(line, p as u8);
    state.players[p].links_left -= 1;
    u.target = line;
    u.count += 1;
    u.coal = if state.era == Era::Rail { 1 } else { 0 };
    // B-13: the second rail also takes a beer from a brewery.
    u.beer = (second && game.switches.double_rail_beer) as u8;
    state.action = Some(u);
    resolve(game, state);
}

/// A `coal` or `iron` decision: the cube comes from the chosen tile.
fn take_chosen(game: &Game, state: &mut State, space: u8, resource: Resource) {
    take_cube(game, state, space);
    if let Some(u) = state.action.as_mut() {
        *u.owed_mut(resource) -= 1;
    }
    resolve(game, state);
}

/// The tiles one cube of `resource` may come from now: the closest coal mines (L-16, C-14) or every iron
/// works with iron (L-18); for beer the breweries (the merchant barrel is counted by `resolve`).
fn sources(game: &Game, state: &State, resource: Resource) -> u64 {
    match resource {
        Resource::Coal => coal_choices(game, state),
        Resource::Iron => works_with_cubes(game, state, Resource::Iron),
        Resource::Beer => crate::games::beer_choices(game, state).0,
    }
}

/// Take the coal, iron and beer still owed by the action under way, asking only on a real choice; then go
/// on to the action's follow-up or its card.
fn resolve(game: &Game, state: &mut State) {
    let p = state.current_player(game).expect("player") as usize;
    for resource in Resource::ALL {
        while state.action.expect("an action is under way").owed(resource) > 0 {
            let choices = sources(game, state, resource);
            let merchants = if resource == Resource::Beer {
                crate::games::beer_choices(game, state).1
            } else {
                0
            };
            match choices.count_ones() + merchants.count_ones() {
                0 => {
                    // L-17, L-18: no source on the board; the market (checked reachable when chosen).
                    // (Beer always has a source: a sale or a rail is legal only with its beer.)
                    let price = market::buy_one(
                        game.market(resource),
                        &mut state.markets[resource.index()],
                    );
                    spend(state, p, price);
                }
                1 if merchants != 0 => {
                    crate::games::take_merchant_beer(game, state, merchants.trailing_zeros() as u8);
                }
                1 => take_cube(game, state, choices.trailing_zeros() as u8),
                _ => {
                    state.decision = match resource {
                        Resource::Coal => Decision::Coal,
                        Resource::Iron => Decision::Iron,
                        Resource::Beer => Decision::Beer,
                    };
                    return;
                }
            }
            *state.action.as_mut().expect("an action").owed_mut(resource) -= 1;
        }
    }
    follow_up(game, state, p);
}

/// A sale whose beer is taken completes: the target's part (a port flips, the DCM moves, L-41, L-42),
/// the tile flips (its income), the merchant bonus (B-26; Gloucester asks, decision `bonus`); then the
/// next sale or the card. A sale that fails (the DCM reached X) ends the action.
fn complete_sale(game: &Game, state: &mut State, p: usize) {
    let u = state.action.expect("a sale under way");
    let target = game.layout.sale_targets[u.sale as usize];
    if !crate::games::sell_to(game, state, p as u8, target) {
        let u = state.action.as_mut().expect("a sale");
        (u.target, u.sale, u.merchant_beer) = (NONE, NONE, false);
        card_stage(game, state);
        return;
    }
    flip(game, state, u.target);
    state.action.as_mut().expect("a sale").count += 1;
    let u = state.action.expect("a sale");
    if crate::games::after_sale(game, state, p as u8, &u) {
        state.decision = Decision::Bonus;
        return;
    }
    end_sale(game, state, p);
}

/// The sale is over: another sale may follow (decision `sell`), else the card.
fn end_sale(game: &Game, state: &mut State, p: usize) {
    let u = state.action.as_mut().expect("a sale");
    (u.target, u.sale, u.merchant_beer) = (NONE, NONE, false);
    let ctx = Ctx::new(game, state, p as u8);
    if rules::any_sale(game, state, &ctx) {
        state.decision = Decision::Sell;
    } else {
        card_stage(game, state);
    }
}

/// After the cubes: the build finishes; a rail, a develop or a sale may offer another; then the card.
fn follow_up(game: &Game, state: &mut State, p: usize) {
    let u = state.action.expect("an action is under way");
    let another = match u.kind {
        ActionKind::Build => {
            build::finish_build(game, state, u.target);
            None
        }
        ActionKind::Link => {
            let second = state.era == Era::Rail && u.count == 1 && {
                let ctx = Ctx::new(game, state, p as u8);
                rules::legal_links(game, state, &ctx, true) != 0
            };
            second.then_some(Decision::Link)
        }
        ActionKind::Develop => {
            let second = u.count == 1 && {
                let iron_on_board = works_with_cubes(game, state, Resource::Iron) != 0;
                rules::develops(game, state, p as u8, iron_on_board) != 0
            };
            second.then_some(Decision::Develop)
        }
        ActionKind::Sell => {
            complete_sale(game, state, p);
            return;
        }
        ActionKind::Loan | ActionKind::Pass | ActionKind::Scout => None,
    };
    match another {
        Some(decision) => state.decision = decision,
        None => card_stage(game, state),
    }
}

/// A card leaves the hand: to the discards, or a wild card back to its pile (B-17).
fn discard(game: &Game, state: &mut State, p: usize, kind: u8) {
    state.players[p].hand[kind as usize] -= 1;
    if !game.is_wild(kind) {
        state.players[p].discards[kind as usize] += 1;
    }
}

/// Pay one card of the action under way; true while more cards are owed (a double build's second card,
/// Scout's second and third). Scout's third card takes the wild cards (B-17).
fn card_paid(game: &Game, state: &mut State, p: usize, kind: u8) -> bool {
    discard(game, state, p, kind);
    let u = state.action.as_mut().expect("an action is under way");
    if u.double && u.first_card == NONE {
        u.first_card = kind;
        return true;
    }
    if u.kind == ActionKind::Scout {
        u.count += 1;
        u.first_card = kind;
        if u.count < SCOUT_CARDS {
            return true;
        }
        for (k, kind) in game.card_kinds.iter().enumerate() {
            if kind.is_wild() {
                state.players[p].hand[k] += 1;
            }
        }
    }
    false
}

/// Ask for the action's card, or discard it when only one kind can pay.
fn card_stage(game: &Game, state: &mut State) {
    let p = state.current_player(game).expect("player") as usize;
    loop {
        let choices = card_choices(state, p as u8);
        if choices.count_ones() >= 2 {
            state.decision = Decision::Card;
            return;
        }
        debug_assert!(choices != 0, "an action with no card to pay for it");
        if !card_paid(game, state, p, choices.trailing_zeros() as u8) {
            break;
        }
    }
    turns::finish_action(game, state);
}
