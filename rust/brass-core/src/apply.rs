//! How actions resolve and how turns, rounds and eras end (docs/actions.md, "How each action resolves").
use crate::actions::Action;
use crate::error::{Error, Result};
use crate::game::{Era, FirstBuild, FirstOrder, Game, MAX_PLAYERS, NONE};
use crate::market;
use crate::network::{adjacency, reachable, trade_locations};
use crate::rng::Rng;
use crate::rules::{self, card_choices, coal_choices, iron_works_with_iron, own_tiles, Ctx};
use crate::state::{ActionKind, Decision, Player, State, Tile, Underway};

/// A new game from a seed (L-1 … L-6; RNG order in docs/state-format.md).
pub fn new_state(game: &Game, seed: u64) -> State {
    let n = game.players as usize;
    let player = Player {
        money: game.start_money as i32,
        money_spent: 0,
        income_space: game.start_income_space,
        vp: 0,
        hand: [0; 32],
        discards: [0; 32],
        taken: [0; 6],
        links_left: game.links_per_player,
        built_industry: false,
    };
    let mut state = State {
        rng: Rng(seed),
        era: Era::Canal,
        round: 1,
        turn_order: [0; MAX_PLAYERS],
        turn: 0,
        actions_left: game.first_round_actions,
        decision: Decision::Action,
        action: None,
        players: [player; MAX_PLAYERS],
        board: [Tile::EMPTY; crate::game::MAX_SPACES],
        links: [NONE; crate::game::MAX_LINES],
        coal_market: game.coal_start,
        iron_market: game.iron_start,
        dcm_marker: 0,
        dcm_pile: [0; crate::game::MAX_DCM_TILES],
        dcm_pile_len: 0,
        dcm_discards: [0; 8],
        deck: [0; crate::game::MAX_DECK],
        deck_pos: 0,
        deck_len: 0,
        deck_tile: [0; 32],
        removed: [0; 32],
    };
    // L-2, L-3, L-56, C-3: shuffle; the bottom cards go under the deck tile; deal 8 each in seat order;
    // then (classic) cards from the top leave the game unseen.
    let mut deck = game.deck_list();
    state.rng.shuffle(&mut deck);
    let under = game.deck_tile_cards as usize;
    for &card in &deck[deck.len() - under..] {
        state.deck_tile[card as usize] += 1;
    }
    deck.truncate(deck.len() - under);
    set_deck(&mut state, &deck);
    for p in 0..n {
        draw(&mut state, p, game.hand_size as u32);
    }
    remove_unseen(&mut state, game.removed_canal);
    // L-4: the DCM pile.
    shuffle_dcm(game, &mut state);
    // L-6: a random first turn order; C-17: a random start player, then clockwise (seat order).
    let mut order: Vec<u8> = (0..n as u8).collect();
    match game.first_order {
        FirstOrder::Shuffled => state.rng.shuffle(&mut order),
        FirstOrder::RandomStartClockwise => {
            let start = state.rng.below(n as u64) as usize;
            order.rotate_left(start);
        }
    }
    state.turn_order[..n].copy_from_slice(&order);
    state
}

/// C-3, L-56: the top `n` cards of the draw pile leave the game unseen.
fn remove_unseen(state: &mut State, n: u8) {
    for _ in 0..n {
        if state.deck_pos == state.deck_len {
            break;
        }
        let card = state.deck[state.deck_pos as usize];
        state.deck_pos += 1;
        state.removed[card as usize] += 1;
    }
}

fn set_deck(state: &mut State, cards: &[u8]) {
    state.deck[..cards.len()].copy_from_slice(cards);
    state.deck_pos = 0;
    state.deck_len = cards.len() as u8;
}

fn shuffle_dcm(game: &Game, state: &mut State) {
    let mut tiles = game.dcm_tiles.clone();
    state.rng.shuffle(&mut tiles);
    state.dcm_pile[..tiles.len()].copy_from_slice(&tiles);
    state.dcm_pile_len = tiles.len() as u8;
    state.dcm_discards = [0; 8];
    state.dcm_marker = 0;
}

/// Draw up to `n` cards from the top of the draw pile into a hand (L-9).
fn draw(state: &mut State, player: usize, n: u32) {
    for _ in 0..n {
        if state.deck_pos == state.deck_len {
            break;
        }
        let card = state.deck[state.deck_pos as usize];
        state.deck_pos += 1;
        state.players[player].hand[card as usize] += 1;
    }
}

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
        } => start_build(game, state, p, space, industry, double),
        Action::Link { line } => {
            let second = state.decision == Decision::Link;
            let mut u = state.action.unwrap_or(Underway::new(ActionKind::Link));
            let cost = match (state.era, second) {
                (Era::Canal, _) => 3,
                (Era::Rail, false) => 5,
                (Era::Rail, true) => 10,
            };
            spend(state, p, cost);
            state.links[line as usize] = p as u8;
            state.players[p].links_left -= 1;
            u.target = line;
            u.count += 1;
            u.coal = if state.era == Era::Rail { 1 } else { 0 };
            state.action = Some(u);
            resolve(game, state);
        }
        Action::Develop { industry } => {
            let mut u = state.action.unwrap_or(Underway::new(ActionKind::Develop));
            state.players[p].taken[industry as usize] += 1;
            u.count += 1;
            u.iron = 1;
            state.action = Some(u);
            resolve(game, state);
        }
        Action::Sell { mill, port } => {
            if state.action.is_none() {
                state.action = Some(Underway::new(ActionKind::Sell));
            }
            if sell(game, state, p, mill, port) {
                resolve(game, state);
            } else {
                card_stage(game, state);
            }
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
        Action::Coal { space } => {
            take_cube(game, state, space);
            if let Some(u) = state.action.as_mut() {
                u.coal -= 1;
            }
            resolve(game, state);
        }
        Action::Iron { space } => {
            take_cube(game, state, space);
            if let Some(u) = state.action.as_mut() {
                u.iron -= 1;
            }
            resolve(game, state);
        }
        Action::Stop => card_stage(game, state),
        Action::Card { kind } => {
            discard(state, p, kind);
            let u = state.action.as_mut().expect("an action is under way");
            if u.double && u.first_card == NONE {
                u.first_card = kind;
                card_stage(game, state);
            } else {
                finish_action(game, state);
            }
        }
        Action::Remove { space } => {
            remove_for_shortfall(game, state, space);
            shortfall(game, state);
        }
    }
}

fn spend(state: &mut State, p: usize, amount: u32) {
    state.players[p].money -= amount as i32;
    state.players[p].money_spent += amount as i32;
}

/// Advance a player's income marker by `spaces`, stopping at the last space (L-43, L-48).
fn gain_income(game: &Game, state: &mut State, player: u8, spaces: u8) {
    let p = &mut state.players[player as usize];
    p.income_space =
        (p.income_space as u16 + spaces as u16).min(game.last_track_space() as u16) as u8;
}

/// Flip a tile; its owner's income advances by the tile's income (L-20, L-28, L-41).
fn flip(game: &Game, state: &mut State, space: u8) {
    let tile = &mut state.board[space as usize];
    tile.flipped = true;
    let (owner, industry, level) = (tile.owner, tile.industry, tile.level);
    let income = game.tile_spec(industry, level).map_or(0, |t| t.income);
    gain_income(game, state, owner, income);
}

/// Take one cube from a mine or works; it flips when emptied, whoever took it (L-20).
fn take_cube(game: &Game, state: &mut State, space: u8) {
    let tile = &mut state.board[space as usize];
    tile.cubes -= 1;
    if tile.cubes == 0 {
        flip(game, state, space);
    }
}

/// L-21 … L-28: place the tile, then take its coal and iron (`resolve`), then finish it.
fn start_build(game: &Game, state: &mut State, p: usize, space: u8, industry: u8, double: bool) {
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
            &state.players[p],
            loc,
            industry,
            overbuild,
        ))
    };
    let spec = *state
        .next_tile(game, p as u8, industry)
        .expect("tile on mat");
    // L-29/L-30: the overbuilt tile leaves the game with its cubes.
    state.board[space as usize] = Tile {
        owner: p as u8,
        industry,
        level: spec.level,
        flipped: false,
        cubes: 0,
    };
    state.players[p].taken[industry as usize] += 1;
    if game.first_build == FirstBuild::FirstOfGame {
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
    resolve(game, state);
}

/// Take the coal and iron still owed by the action under way, asking only on a real choice; then go on
/// to the action's follow-up or its card.
fn resolve(game: &Game, state: &mut State) {
    let p = state.current_player(game).expect("player") as usize;
    loop {
        let u = state.action.expect("an action is under way");
        if u.coal > 0 {
            let choices = coal_choices(game, state);
            match choices.count_ones() {
                0 => {
                    // L-17: no connected mine has coal; the market (checked reachable when chosen).
                    let price = market::buy_one(
                        &game.coal_prices,
                        &mut state.coal_market,
                        game.coal_empty_price,
                    );
                    spend(state, p, price);
                }
                1 => take_cube(game, state, choices.trailing_zeros() as u8),
                _ => {
                    state.decision = Decision::Coal;
                    return;
                }
            }
            state.action.as_mut().unwrap().coal -= 1;
            continue;
        }
        if u.iron > 0 {
            let works = iron_works_with_iron(game, state);
            match works.count_ones() {
                0 => {
                    let price = market::buy_one(
                        &game.iron_prices,
                        &mut state.iron_market,
                        game.iron_empty_price,
                    );
                    spend(state, p, price);
                }
                1 => take_cube(game, state, works.trailing_zeros() as u8),
                _ => {
                    state.decision = Decision::Iron;
                    return;
                }
            }
            state.action.as_mut().unwrap().iron -= 1;
            continue;
        }
        break;
    }
    let u = state.action.expect("an action is under way");
    match u.kind {
        ActionKind::Build => {
            finish_build(game, state, u.target);
            card_stage(game, state);
        }
        ActionKind::Link => {
            let ctx = Ctx::new(game, state, p as u8);
            let second = state.era == Era::Rail
                && u.count == 1
                && (0..game.lines.len() as u8)
                    .any(|l| rules::check_link(game, state, &ctx, l, true).is_ok());
            if second {
                state.decision = Decision::Link;
            } else {
                card_stage(game, state);
            }
        }
        ActionKind::Develop => {
            let ctx = Ctx::new(game, state, p as u8);
            let second = u.count == 1
                && (0..game.industries.len() as u8)
                    .any(|i| rules::check_develop(game, state, &ctx, i).is_ok());
            if second {
                state.decision = Decision::Develop;
            } else {
                card_stage(game, state);
            }
        }
        ActionKind::Sell => {
            let ctx = Ctx::new(game, state, p as u8);
            if rules::any_sale(game, state, &ctx) {
                state.decision = Decision::Sell;
            } else {
                card_stage(game, state);
            }
        }
        ActionKind::Loan | ActionKind::Pass => card_stage(game, state),
    }
}

/// L-27, L-28: a new coal mine or iron works gets its cubes and sells what fits to its market; a
/// shipyard flips at once.
fn finish_build(game: &Game, state: &mut State, space: u8) {
    let tile = state.board[space as usize];
    let spec = *game
        .tile_spec(tile.industry, tile.level)
        .expect("tile spec");
    let owner = tile.owner as usize;
    let loc = game.spaces[space as usize].location;
    if tile.industry == game.coal_mine || tile.industry == game.iron_works {
        state.board[space as usize].cubes = spec.cubes;
        let to_market = if tile.industry == game.coal_mine {
            let adj = adjacency(game, state);
            reachable(&adj, 1 << loc) & trade_locations(game, state, NONE) != 0
        } else {
            true
        };
        if to_market {
            let (prices, market) = if tile.industry == game.coal_mine {
                (&game.coal_prices, &mut state.coal_market)
            } else {
                (&game.iron_prices, &mut state.iron_market)
            };
            let (sold, money) = market::sell(prices, market, spec.cubes);
            state.players[owner].money += money as i32;
            state.board[space as usize].cubes -= sold;
            if state.board[space as usize].cubes == 0 {
                flip(game, state, space);
            }
        }
    } else if tile.industry == game.shipyard {
        flip(game, state, space);
    }
}

/// One sale (L-41, L-42). Returns false when the Distant Cotton Market reached X (the action ends).
fn sell(game: &Game, state: &mut State, p: usize, mill: u8, port: u8) -> bool {
    if port != NONE {
        flip(game, state, port);
    } else {
        if state.dcm_pile_len == 0 {
            // reshuffle the discards into a new pile.
            let mut tiles = Vec::new();
            for (value, &count) in state.dcm_discards.iter().enumerate() {
                tiles.extend(std::iter::repeat_n(value as u8, count as usize));
            }
            state.rng.shuffle(&mut tiles);
            state.dcm_pile[..tiles.len()].copy_from_slice(&tiles);
            state.dcm_pile_len = tiles.len() as u8;
            state.dcm_discards = [0; 8];
        }
        let tile = state.dcm_pile[0];
        let len = state.dcm_pile_len as usize;
        state.dcm_pile.copy_within(1..len, 0);
        if game.dcm_recycle {
            // C-11: the drawn tile goes to the bottom of the pile.
            state.dcm_pile[len - 1] = tile;
        } else {
            state.dcm_pile_len -= 1;
            state.dcm_discards[tile as usize] += 1;
        }
        state.dcm_marker = (state.dcm_marker + tile).min(game.dcm_x);
        if state.dcm_marker >= game.dcm_x {
            return false;
        }
        let income = game.dcm_income[state.dcm_marker as usize];
        gain_income(game, state, p as u8, income);
    }
    flip(game, state, mill);
    state.action.as_mut().unwrap().count += 1;
    true
}

fn discard(state: &mut State, p: usize, kind: u8) {
    state.players[p].hand[kind as usize] -= 1;
    state.players[p].discards[kind as usize] += 1;
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
        let kind = choices.trailing_zeros() as u8;
        discard(state, p, kind);
        let u = state.action.as_mut().expect("action");
        if u.double && u.first_card == NONE {
            u.first_card = kind;
            continue;
        }
        break;
    }
    finish_action(game, state);
}

fn finish_action(game: &Game, state: &mut State) {
    let u = state.action.take().expect("action");
    state.actions_left -= if u.double { 2 } else { 1 };
    let p = state.turn_order[state.turn as usize] as usize;
    if state.actions_left > 0 && state.players[p].hand_size() > 0 {
        state.decision = Decision::Action;
        return;
    }
    end_turn(game, state, p);
}

/// L-9: refill, then the next player (C-4: the classic rules refill at the end of the round instead).
fn end_turn(game: &Game, state: &mut State, p: usize) {
    if !game.classic_round {
        refill(game, state, p);
    }
    state.turn += 1;
    if state.turn < game.players {
        state.actions_left = actions_per_turn(game, state);
        state.decision = Decision::Action;
        begin_turn(game, state);
    } else {
        end_round(game, state);
    }
}

fn refill(game: &Game, state: &mut State, p: usize) {
    let need = (game.hand_size as u32).saturating_sub(state.players[p].hand_size());
    draw(state, p, need);
}

/// L-8: every action discards a card, so a player holding none takes no action and the turn ends at once.
/// (Never the case in a game dealt by the rules; it keeps hand-built positions playable.)
fn begin_turn(game: &Game, state: &mut State) {
    let p = state.turn_order[state.turn as usize] as usize;
    if state.players[p].hand_size() == 0 {
        end_turn(game, state, p);
    }
}

fn actions_per_turn(game: &Game, state: &State) -> u8 {
    if state.era == Era::Canal && state.round == 1 {
        game.first_round_actions
    } else {
        game.actions_per_turn
    }
}

fn is_last_round_of_game(game: &Game, state: &State) -> bool {
    let last_era = if game.flags.intro {
        Era::Canal
    } else {
        Era::Rail
    };
    state.era == last_era && state.round == game.rounds_per_era
}

/// The end of a round. Lancashire (L-11): turn order, income (not after the last round of the game),
/// shortfall, then the era's end or the next round. Classic (C-4): turn order, refill in the new order,
/// the era's end, then the next round's income and shortfall.
fn end_round(game: &Game, state: &mut State) {
    let n = game.players as usize;
    state.actions_left = 0;
    state.turn = game.players;
    // Least money spent first; the sort is stable, so ties keep their order.
    let mut order = [0u8; MAX_PLAYERS];
    order[..n].copy_from_slice(&state.turn_order[..n]);
    order[..n].sort_by_key(|&p| state.players[p as usize].money_spent);
    state.turn_order = order;
    for p in 0..n {
        state.players[p].money_spent = 0;
    }
    if game.classic_round {
        for &p in &order[..n] {
            refill(game, state, p as usize);
        }
        if state.round == game.rounds_per_era {
            end_era(game, state);
            if state.is_terminal() {
                return;
            }
        } else {
            state.round += 1;
        }
        collect_income(game, state);
    } else if !is_last_round_of_game(game, state) {
        collect_income(game, state);
    }
    shortfall(game, state);
}

/// Each player receives (or pays) their income level, in turn order (L-11.2, C-4).
fn collect_income(game: &Game, state: &mut State) {
    for i in 0..game.players as usize {
        let p = state.turn_order[i];
        let level = state.income_level(game, p);
        state.players[p as usize].money += level;
    }
}

/// L-11.3: players who could not pay remove tiles (asked when they have a choice), then lose VP.
fn shortfall(game: &Game, state: &mut State) {
    let n = game.players as usize;
    for i in 0..n {
        let p = state.turn_order[i];
        while state.players[p as usize].money < 0 {
            let tiles = own_tiles(game, state, p);
            match tiles.count_ones() {
                0 => {
                    let player = &mut state.players[p as usize];
                    player.vp = (player.vp + player.money).max(0);
                    player.money = 0;
                }
                1 => remove_for_shortfall(game, state, tiles.trailing_zeros() as u8),
                _ => {
                    state.decision = Decision::Remove;
                    return;
                }
            }
        }
    }
    if !game.classic_round && state.round == game.rounds_per_era {
        end_era(game, state);
        if state.is_terminal() {
            return;
        }
    } else if !game.classic_round {
        state.round += 1;
    }
    // The next round's first turn (classic: the round already began with income).
    state.turn = 0;
    state.actions_left = actions_per_turn(game, state);
    state.decision = Decision::Action;
    begin_turn(game, state);
}

/// A tile removed to pay a shortfall raises half its cost, rounded down (L-11.3).
fn remove_for_shortfall(game: &Game, state: &mut State, space: u8) {
    let tile = state.board[space as usize];
    let cost = game
        .tile_spec(tile.industry, tile.level)
        .map_or(0, |t| t.cost);
    state.board[space as usize] = Tile::EMPTY;
    state.players[tile.owner as usize].money += (cost / 2) as i32;
}

/// Link VP icons at a location: printed ones plus one per flipped tile of any owner (L-49).
pub fn link_icons(game: &Game, state: &State, location: u8) -> i32 {
    let loc = &game.locations[location as usize];
    let flipped = (loc.first_space..loc.first_space + loc.num_spaces)
        .filter(|&s| {
            let t = state.board[s as usize];
            !t.is_empty() && t.flipped
        })
        .count();
    loc.printed_link_icons as i32 + flipped as i32
}

/// L-49 … L-52: score links and flipped tiles; end the Canal Era (L-51) or the game (L-52).
fn end_era(game: &Game, state: &mut State) {
    let n = game.players as usize;
    for (i, line) in game.lines.iter().enumerate() {
        let owner = state.links[i];
        if owner != NONE {
            let vp = link_icons(game, state, line.a) + link_icons(game, state, line.b);
            state.players[owner as usize].vp += vp;
        }
    }
    for i in 0..game.lines.len() {
        let owner = state.links[i];
        if owner != NONE {
            // The link tiles go back to their owners (seed 000: canal tiles are taken back).
            state.players[owner as usize].links_left += 1;
            state.links[i] = NONE;
        }
    }
    for s in 0..game.spaces.len() {
        let t = state.board[s];
        if !t.is_empty() && t.flipped {
            state.players[t.owner as usize].vp +=
                game.tile_spec(t.industry, t.level).map_or(0, |x| x.vp) as i32;
        }
    }
    match state.era {
        Era::Canal if game.flags.intro => {
            // L-54: the introductory game ends after the Canal Era, with extra scoring.
            for p in 0..n {
                let level = state.income_level(game, p as u8);
                let pl = &mut state.players[p];
                pl.vp += (pl.money / 4).min(15);
                pl.vp = (pl.vp + level).max(0);
            }
            for s in 0..game.spaces.len() {
                let t = state.board[s];
                if !t.is_empty() && t.flipped && t.level >= 2 {
                    state.players[t.owner as usize].vp +=
                        game.tile_spec(t.industry, t.level).map_or(0, |x| x.vp) as i32;
                }
            }
            state.decision = Decision::Over;
        }
        Era::Canal => {
            // L-51, C-16: level-1 tiles leave the board; DCM reset; new deck; deal (C-3, L-56: then cards
            // leave the game unseen).
            for s in 0..game.spaces.len() {
                if !state.board[s].is_empty() && state.board[s].level == 1 {
                    state.board[s] = Tile::EMPTY;
                }
            }
            shuffle_dcm(game, state);
            let mut deck = game.deck_list();
            state.rng.shuffle(&mut deck);
            set_deck(state, &deck);
            state.deck_tile = [0; 32];
            state.removed = [0; 32];
            for p in 0..n {
                state.players[p].discards = [0; 32];
                state.players[p].hand = [0; 32];
            }
            for p in 0..n {
                draw(state, p, game.hand_size as u32);
            }
            remove_unseen(state, game.removed_rail);
            state.era = Era::Rail;
            state.round = 1;
        }
        Era::Rail => {
            // L-52: 1 VP per full £10.
            for p in 0..n {
                state.players[p].vp += state.players[p].money / 10;
            }
            state.decision = Decision::Over;
        }
    }
}

/// Final ranking (L-53, R-4): VP, then income level, then money; the players tied on all three share
/// the win. The track space within an income level is not a tie-break (R-4, seed 004).
pub fn winners(game: &Game, state: &State) -> Vec<u8> {
    if !state.is_terminal() {
        return Vec::new();
    }
    if game.tie_break_turn_order {
        // C-15: VP, income level, money, then earlier in the next turn order: always one winner.
        let n = game.players as usize;
        let key = |p: u8| {
            let pl = &state.players[p as usize];
            let position = state.turn_order[..n]
                .iter()
                .position(|&q| q == p)
                .unwrap_or(n);
            (
                pl.vp,
                state.income_level(game, p),
                pl.money,
                std::cmp::Reverse(position),
            )
        };
        return (0..game.players)
            .max_by_key(|&p| key(p))
            .into_iter()
            .collect();
    }
    let key = |p: u8| {
        let pl = &state.players[p as usize];
        (pl.vp, state.income_level(game, p), pl.money)
    };
    let best = (0..game.players).map(key).max().expect("players");
    (0..game.players).filter(|&p| key(p) == best).collect()
}

/// Each player's result, zero-sum (docs/api.md, "Returns"): with n players of whom k share the win, each
/// winner gets (n/k − 1)/(n − 1) and every other player −1/(n − 1), so the results sum to 0 (a sole
/// winner +1; at two players +1 / −1; a win shared by all 0 each). All 0 before the game is over.
pub fn returns(game: &Game, state: &State) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    let winners = winners(game, state);
    if winners.is_empty() {
        return out;
    }
    let n = game.players as f64;
    let k = winners.len() as f64;
    for r in out.iter_mut().take(game.players as usize) {
        *r = -1.0 / (n - 1.0);
    }
    for &w in &winners {
        out[w as usize] = (n / k - 1.0) / (n - 1.0);
    }
    out
}
