//! Every invariant of a state, in one place (docs/state-format.md, "Validation"): run on every
//! `from_json` (after the fields are read), after every checked `apply` in debug and test builds, and on
//! demand (`State.validate()` in Python). The reference engine checks the same.
use crate::error::{Error, Result};
use crate::game::{
    Era, FirstBuild, Game, MAX_CARD_KINDS, MAX_DECK, MAX_INDUSTRIES, MAX_PLAYERS, NONE,
};
use crate::rules;
use crate::state::{ActionKind, Decision, State, Underway};

fn invalid(msg: String) -> Error {
    Error::InvalidState(msg)
}

fn broken(what: &str) -> Error {
    Error::InvalidState(format!("corrupt state: {what}"))
}

/// Check the in-memory layout that the JSON form cannot show, then every rule invariant with the same
/// checks as the JSON loader ([`check_state`]).
pub fn validate(game: &Game, state: &State) -> Result<()> {
    check_layout(game, state)?;
    check_state(game, state)
}

/// The in-memory layout: indices within the game's tables, unused seats empty.
fn check_layout(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    if state.deck_pos > state.deck_len || state.deck_len as usize > MAX_DECK {
        return Err(broken("draw pile bounds"));
    }
    if state.deck[state.deck_pos as usize..state.deck_len as usize]
        .iter()
        .any(|&c| c as usize >= game.card_kinds.len())
    {
        return Err(broken("unknown card in the draw pile"));
    }
    if state.turn_order[..n].iter().any(|&p| p as usize >= n) || n > MAX_PLAYERS {
        return Err(broken("turn order"));
    }
    for (i, p) in state.players.iter().enumerate() {
        let unused = i >= n;
        let cards_beyond = p.hand[game.card_kinds.len()..]
            .iter()
            .chain(&p.discards[game.card_kinds.len()..])
            .any(|&c| c > 0);
        if cards_beyond || (unused && p.hand_size() > 0) {
            return Err(broken("cards outside the game's card kinds or seats"));
        }
        if !unused
            && p.taken[..game.industries.len()]
                .iter()
                .zip(&game.stacks)
                .any(|(&t, s)| t as usize > s.len())
        {
            return Err(broken("more tiles taken than the mat holds"));
        }
    }
    if state.removed[game.card_kinds.len()..MAX_CARD_KINDS]
        .iter()
        .any(|&c| c > 0)
    {
        return Err(broken("removed cards outside the game's card kinds"));
    }
    for (s, t) in state.board.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        if s >= game.spaces.len()
            || t.owner as usize >= n
            || t.industry as usize >= game.industries.len()
            || game.tile_spec(t.industry, t.level).is_none()
        {
            return Err(broken(
                "a tile off the map, of no player, or of no industry level",
            ));
        }
    }
    if state.links[game.lines.len()..].iter().any(|&o| o != NONE)
        || state.links[..game.lines.len()]
            .iter()
            .any(|&o| o != NONE && o as usize >= n)
    {
        return Err(broken("links"));
    }
    if let Some(u) = state.action {
        let max_target = match u.kind {
            ActionKind::Link => game.lines.len(),
            _ => game.spaces.len(),
        };
        if u.target != NONE && u.target as usize >= max_target {
            return Err(broken("action target"));
        }
        if u.first_card != NONE && u.first_card as usize >= game.card_kinds.len() {
            return Err(broken("action first card"));
        }
    }
    crate::games::check_layout(game, state)
}

/// Every rule invariant of a state: the checks `from_json` makes after reading the fields.
pub fn check_state(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    for (p, pl) in state.players[..n].iter().enumerate() {
        if pl.hand_size() > game.hand_size as u32 {
            return Err(invalid(format!(
                "players[{p}].hand: {} cards, more than {}",
                pl.hand_size(),
                game.hand_size
            )));
        }
    }
    check_tiles(game, state)?;
    check_links(game, state)?;
    if !state.occupancy_is_current() {
        return Err(invalid(
            "occupancy: out of date with the board and links (call `State::refresh_occupancy` after writing them directly)"
                .into(),
        ));
    }
    if game.switches.intro && state.era == Era::Rail {
        return Err(invalid(
            "era: the introductory game has no Rail Era (L-54)".into(),
        ));
    }
    crate::games::check_state(game, state)?;
    check_cards(game, state)?;
    if let Some(Underway { cards: Some(0), .. }) = state.action {
        return Err(invalid(
            "action.cards: a single build lists one or more card kinds".into(),
        ));
    }
    check_flips(game, state)?;
    check_action(state)?;
    check_decision(game, state)
}

/// Tiles: on a space showing their industry, a buildable level, no rail-only tile in the Canal Era and no
/// level-1 tile in the Rail Era, cubes within the printed number (the Canal Era's for a brewery), no more per player, industry and level than have left that player's mat;
/// classic Brass: a player with a tile has built (C-6).
fn check_tiles(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    let mut built = [[[0u8; 10]; MAX_INDUSTRIES]; MAX_PLAYERS];
    let first_of_game = game.switches.first_build == FirstBuild::FirstOfGame;
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        let path = format!("board.{}", game.spaces[s].name);
        // A state written in Rust may hold any numbers: out of range is refused here, not a panic below.
        if t.owner as usize >= n || t.industry as usize >= game.industries.len() {
            return Err(invalid(format!(
                "{path}: owner {} or industry {} does not exist",
                t.owner, t.industry
            )));
        }
        let ind_name = &game.industries[t.industry as usize];
        if game.spaces[s].icons & (1 << t.industry) == 0 {
            return Err(invalid(format!(
                "{path}: the space does not show {ind_name}"
            )));
        }
        let spec = game
            .tile_spec(t.industry, t.level)
            .ok_or_else(|| invalid(format!("{path}.level: {ind_name} has no level {}", t.level)))?;
        if !spec.canal && !spec.rail {
            return Err(invalid(format!(
                "{path}: {ind_name} level {} can never be built",
                t.level
            )));
        }
        // L-51, B-20: level-1 tiles leave the board at the Canal Era's end; only one buildable in the
        // Rail Era (Pottery I) can be there afterwards.
        if state.era == Era::Rail && t.level == 1 && !spec.rail {
            return Err(invalid(format!(
                "{path}: level-1 tiles leave the board at the end of the Canal Era (L-51)"
            )));
        }
        // L-23, B-10: every tile on the board in the Canal Era was built in it, so none is rail-only, and a
        // brewery holds the Canal Era's barrels at most (B-7: 1, against 2 for one built in the Rail Era).
        if state.era == Era::Canal && !spec.canal {
            return Err(invalid(format!(
                "{path}: {ind_name} level {} is built only in the Rail Era, so it cannot be on the board in the Canal Era (L-23, B-10)",
                t.level
            )));
        }
        let most = match state.era {
            Era::Canal => spec.cubes,
            Era::Rail => spec.cubes.max(spec.cubes_rail),
        };
        if t.cubes > most {
            let era = match state.era {
                Era::Canal => " in the Canal Era (B-7)",
                Era::Rail => "",
            };
            return Err(invalid(format!(
                "{path}.cubes: more than the tile's {most}{era}"
            )));
        }
        built[t.owner as usize][t.industry as usize][t.level as usize] += 1;
        if first_of_game && !state.players[t.owner as usize].built_industry {
            return Err(invalid(format!(
                "players[{}].built_industry: false, but the player has a tile on {} (C-6)",
                t.owner, game.spaces[s].name
            )));
        }
    }
    if !first_of_game && state.players[..n].iter().any(|p| p.built_industry) {
        return Err(invalid(
            "players: built_industry is kept only by classic Brass (C-6)".into(),
        ));
    }
    for p in 0..n {
        for ind in 0..game.industries.len() {
            let taken = &game.stacks[ind][..state.players[p].taken[ind] as usize];
            for level in 0..10u8 {
                let on_board = built[p][ind][level as usize] as usize;
                let available = taken.iter().filter(|t| t.level == level).count();
                if on_board > available {
                    return Err(invalid(format!(
                        "board: player {p} has {on_board} {} tiles of level {level} on the board but only {available} have left the mat",
                        game.industries[ind]
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Links: of the era's kind; with the tiles left, each player's 14 (L-37).
fn check_links(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    let mut links_on_board = [0u32; MAX_PLAYERS];
    for (l, &owner) in state.links[..game.lines.len()].iter().enumerate() {
        if owner == NONE {
            continue;
        }
        if owner as usize >= n {
            return Err(invalid(format!(
                "links.{}: player {owner} does not exist",
                game.lines[l].name
            )));
        }
        if !game.lines[l].allowed_in(state.era) {
            return Err(invalid(format!(
                "links.{}: that line takes no link in the {} era",
                game.lines[l].name,
                state.era.name()
            )));
        }
        links_on_board[owner as usize] += 1;
    }
    for p in 0..n {
        if links_on_board[p] + state.players[p].links_left as u32 != game.links_per_player as u32 {
            return Err(invalid(format!(
                "players[{p}].links_left: {} on the board plus {} left is not {}",
                links_on_board[p], state.players[p].links_left, game.links_per_player
            )));
        }
    }
    Ok(())
}

/// Cards: hands, discards, draw pile, the cards the game sets aside (deck tile) and `removed` hold exactly
/// the deck (L-2, L-3, L-51); the removed cards number those of the era (C-3, L-56; B-1).
fn check_cards(game: &Game, state: &State) -> Result<()> {
    let n = game.players as usize;
    let want_removed = match state.era {
        Era::Canal => game.switches.removed_canal as u32,
        Era::Rail => game.switches.removed_rail as u32,
    };
    let removed: u32 = state.removed.iter().map(|&c| c as u32).sum();
    if removed != want_removed {
        return Err(invalid(format!(
            "removed: {want_removed} cards are out of the game in this era (C-3, L-56; B-1 in Birmingham), not {removed}"
        )));
    }
    let aside = crate::games::set_aside_cards(state);
    let mut cards = [0u32; MAX_CARD_KINDS];
    for &c in &state.deck[state.deck_pos as usize..state.deck_len as usize] {
        cards[c as usize] += 1;
    }
    for k in 0..game.card_kinds.len() {
        if game.is_wild(k as u8) {
            continue; // B-17: wild cards are not in the deck (the game module checks them)
        }
        cards[k] += aside[k] as u32 + state.removed[k] as u32;
        for p in 0..n {
            cards[k] += state.players[p].hand[k] as u32 + state.players[p].discards[k] as u32;
        }
        if cards[k] != game.deck[k] as u32 {
            return Err(invalid(format!(
                "cards: {} `{}` cards in hands, discards, deck, deck tile and removed, but the deck has {}",
                cards[k], game.card_names[k], game.deck[k]
            )));
        }
    }
    Ok(())
}

/// Flips and cubes (L-20, L-28) and the Canal Era's one tile per player and location (L-25); negative
/// money only while paying a shortfall.
fn check_flips(game: &Game, state: &State) -> Result<()> {
    let d = state.decision;
    let building = state
        .action
        .filter(|u| u.kind == ActionKind::Build && matches!(d, Decision::Coal | Decision::Iron));
    for s in 0..game.spaces.len() {
        let t = state.board[s];
        if t.is_empty() {
            continue;
        }
        let name = &game.spaces[s].name;
        let producer = game.produces(t.industry).is_some();
        if building.is_some_and(|u| u.target as usize == s) {
            if t.flipped || t.cubes != 0 {
                return Err(invalid(format!("board.{name}: a tile being built is unflipped and empty until its coal and iron are taken")));
            }
        } else if producer && t.flipped != (t.cubes == 0) {
            return Err(invalid(format!(
                "board.{name}: a coal mine or iron works is flipped exactly when empty (L-20)"
            )));
        } else if !producer && t.cubes != 0 {
            return Err(invalid(format!(
                "board.{name}: only coal mines and iron works hold cubes"
            )));
        } else if game.roles[t.industry as usize].flips_when_built && !t.flipped {
            return Err(invalid(format!(
                "board.{name}: a shipyard is flipped as soon as it is built (L-28)"
            )));
        }
    }
    if state.era == Era::Canal {
        for loc in &game.locations {
            for p in 0..game.players {
                let own = loc
                    .spaces()
                    .filter(|&s| state.board[s as usize].owner == p)
                    .count();
                if own > 1 {
                    return Err(invalid(format!(
                        "board: player {p} has {own} tiles in {} in the Canal Era (L-25)",
                        loc.id
                    )));
                }
            }
        }
    }
    for (i, pl) in state.players[..game.players as usize].iter().enumerate() {
        if pl.money < 0 && d != Decision::Remove {
            return Err(invalid(format!(
                "players[{i}].money: negative money is only possible while paying a shortfall"
            )));
        }
    }
    Ok(())
}

/// The action under way fits the decision and its own kind.
fn check_action(state: &State) -> Result<()> {
    let d = state.decision;
    let bad = |m: &str| Err(invalid(m.to_string()));
    let Some(u) = state.action else {
        if !matches!(d, Decision::Action | Decision::Remove | Decision::Over) {
            return bad("action: this decision needs the action under way");
        }
        return Ok(());
    };
    if matches!(d, Decision::Action | Decision::Remove | Decision::Over) {
        return bad("action: must be null at this decision");
    }
    let (lo, hi) = match u.kind {
        ActionKind::Build | ActionKind::Loan | ActionKind::Pass => (0, 0),
        ActionKind::Link | ActionKind::Develop => (1, 2),
        ActionKind::Sell => (0, u8::MAX),
        ActionKind::Scout => (0, crate::actions::SCOUT_CARDS - 1),
    };
    if u.count < lo || u.count > hi {
        return Err(invalid(format!(
            "action.count: {} is impossible for a {}",
            u.count,
            u.kind.name()
        )));
    }
    if u.kind == ActionKind::Link && state.era == Era::Canal && u.count != 1 {
        return bad("action.count: one canal per action (L-35)");
    }
    if u.double && u.kind != ActionKind::Build {
        return bad("action.double: only a build can be double");
    }
    if u.coal > 0 && !matches!(u.kind, ActionKind::Build | ActionKind::Link) {
        return bad("action.coal: only a build or a rail takes coal");
    }
    if u.beer > 0 && !matches!(u.kind, ActionKind::Sell | ActionKind::Link) {
        return bad("action.beer: only a sale or a second rail takes beer");
    }
    if (u.sale != NONE || u.merchant_beer) && !matches!(d, Decision::Beer | Decision::Bonus) {
        return bad("action.merchant: set only while a sale's beer or bonus is asked");
    }
    if u.kind == ActionKind::Sell && (u.sale == NONE) != (u.target == NONE) {
        return bad("action.target: a sale under way names its tile and its merchant");
    }
    if u.iron > 0 && !matches!(u.kind, ActionKind::Build | ActionKind::Develop) {
        return bad("action.iron: only a build or a develop takes iron");
    }
    if matches!(u.kind, ActionKind::Build | ActionKind::Link) && u.target == NONE {
        return bad("action.target: a build or a link names its space or line");
    }
    if u.kind == ActionKind::Build && (u.double == u.cards.is_some()) {
        return bad("action.cards: a single build lists its cards; every other action has null");
    }
    if u.first_card != NONE
        && !(d == Decision::Card && (u.double || (u.kind == ActionKind::Scout && u.count > 0)))
    {
        return bad("action.first_card: set only while a double build's second card or Scout's next card is asked");
    }
    if u.kind == ActionKind::Scout && (u.count > 0) != (u.first_card != NONE) {
        return bad("action.first_card: Scout names the last card discarded once one is");
    }
    Ok(())
}

/// The decision: whose, with how many actions left, and every question a real choice (the engine asks
/// only when there are two or more options).
fn check_decision(game: &Game, state: &State) -> Result<()> {
    let n = game.players;
    let d = state.decision;
    let bad = |m: &str| Err(invalid(m.to_string()));
    if matches!(d, Decision::Remove | Decision::Over) {
        if state.turn != n || state.actions_left != 0 {
            return bad("decision: `remove` and `over` need turn = players and actions_left = 0");
        }
        if d == Decision::Over {
            if !game.is_last_round(state.era, state.round) {
                return bad(
                    "decision: the game can only be over after the last round of its last era",
                );
            }
            return Ok(());
        }
        let p = state.current_player(game).ok_or_else(|| {
            invalid("decision: `remove` needs a player with negative money".into())
        })?;
        if rules::own_tiles(game, state, p).count_ones() < 2 {
            return bad("decision: `remove` needs the player in debt to own two or more tiles");
        }
        return Ok(());
    }
    if state.turn >= n {
        return bad("turn: must be below the number of players at a player's decision");
    }
    let per_turn = game.actions_in(state.era, state.round);
    if state.actions_left == 0 || state.actions_left > per_turn {
        return Err(invalid(format!(
            "actions_left: {} with {per_turn} actions per turn this round",
            state.actions_left
        )));
    }
    let p = state.turn_order[state.turn as usize];
    let Some(u) = state.action else {
        if state.players[p as usize].hand_size() == 0 {
            return bad(
                "players: the current player holds no card, so cannot take an action (L-8)",
            );
        }
        return Ok(());
    };
    check_pending_question(game, state, p, u)
}

/// A pending question of the action under way: its target is the player's, a card can pay, and there are
/// two or more answers.
fn check_pending_question(game: &Game, state: &State, p: u8, u: Underway) -> Result<()> {
    let d = state.decision;
    let bad = |m: &str| Err(invalid(m.to_string()));
    if rules::card_choices(state, p) == 0 {
        return bad(
            "action: no card in the current player's hand can pay for the action under way",
        );
    }
    if u.double && state.actions_left != 2 {
        return bad("action.double: a double build uses both actions, so actions_left must be 2");
    }
    if matches!(u.kind, ActionKind::Build | ActionKind::Sell)
        && u.target != NONE
        && state.board[u.target as usize].owner != p
    {
        return bad(
            "action.target: the space built on or sold must hold the current player's tile",
        );
    }
    if u.kind == ActionKind::Link && state.links[u.target as usize] != p {
        return bad("action.target: the line must hold the link the current player just placed");
    }
    if u.kind == ActionKind::Link {
        // B-13: only the second rail takes a barrel, owed from its placement until it is taken.
        let second_rail_beer = u.count == 2 && game.switches.double_rail_beer;
        if u.beer > u8::from(second_rail_beer) {
            return bad("action.beer: a rail takes no barrel, but the second rail one (B-13)");
        }
        if second_rail_beer && d == Decision::Coal && u.beer != 1 {
            return bad("action.beer: the second rail's barrel is owed from its placement until taken (B-13)");
        }
    }
    if u.kind == ActionKind::Sell && u.target != NONE && u.beer > 0 {
        let t = state.board[u.target as usize];
        let printed = if t.is_empty() {
            0
        } else {
            game.tile_spec(t.industry, t.level).map_or(0, |x| x.beer)
        };
        if u.beer > printed {
            return bad("action.beer: more barrels than the tile being sold needs (B-15)");
        }
    }
    // The decision's shape first: the legal actions are computed only for a question that fits the action
    // under way (they read its target).
    let fits = match d {
        Decision::Coal => matches!(u.kind, ActionKind::Build | ActionKind::Link) && u.coal > 0,
        Decision::Iron => {
            matches!(u.kind, ActionKind::Build | ActionKind::Develop) && u.coal == 0 && u.iron > 0
        }
        Decision::Link => {
            u.kind == ActionKind::Link
                && state.era == Era::Rail
                && u.count == 1
                && u.coal == 0
                && u.beer == 0
        }
        Decision::Develop => u.kind == ActionKind::Develop && u.count == 1 && u.iron == 0,
        Decision::Sell => u.kind == ActionKind::Sell && u.count >= 1 && u.sale == NONE,
        Decision::Card => u.coal == 0 && u.iron == 0 && u.beer == 0,
        Decision::Beer => {
            u.coal == 0
                && u.iron == 0
                && u.beer > 0
                // B-13: a rail's barrel is the second rail's.
                && ((u.kind == ActionKind::Link && u.count == 2 && u.sale == NONE && !u.merchant_beer)
                    || (u.kind == ActionKind::Sell && u.sale != NONE))
        }
        Decision::Bonus => u.kind == ActionKind::Sell && u.merchant_beer && u.beer == 0,
        _ => true,
    };
    if fits && u.kind == ActionKind::Sell && u.sale != NONE {
        check_sale_under_way(game, state, p, u)?;
    }
    let ok = fits && {
        let mut ids = Vec::new();
        rules::legal_actions(game, state, &mut ids);
        ids.len() >= 2
    };
    if !ok {
        return Err(invalid(format!(
            "decision: `{}` does not fit the action under way or is not a real choice (the engine asks only when there are two or more options)",
            d.name()
        )));
    }
    Ok(())
}

/// A sale asking for its beer or its bonus (B-15, B-25, B-26): the tile is the player's, of an industry that
/// sells, unflipped until its barrels are taken and flipped at the bonus; the merchant buys it; a merchant
/// barrel taken is gone from beside its tile.
fn check_sale_under_way(game: &Game, state: &State, p: u8, u: Underway) -> Result<()> {
    let bad = |m: &str| Err(invalid(m.to_string()));
    let t = state.board[u.target as usize];
    if t.is_empty() || t.owner != p || !game.roles[t.industry as usize].sold {
        return bad(
            "action.target: a sale names the current player's tile of an industry that sells",
        );
    }
    if t.flipped != (state.decision == Decision::Bonus) {
        return bad(
            "action.target: the tile being sold flips after its beer, before the bonus (B-15)",
        );
    }
    crate::games::check_sale_under_way(game, state, u)
}
