//! Reading a state from JSON (docs/state-format.md, "Validation"): one function per section, each checking
//! types, ranges and names; then every invariant (`invariants::check_state`).
use super::fields::{
    card_counts, game_from_value, game_json, int_in, invalid, parse_bounded, Reader, STATE_FORMAT,
};
use crate::error::Result;
use crate::game::{Era, FirstBuild, Game, Resource, MAX_PLAYERS};
use crate::rng::Rng;
use crate::state::{ActionKind, Decision, State, Tile, Underway};
use serde_json::Value;

/// The keys every state has; each game adds its own (`games::json_keys`).
const SHARED_KEYS: [&str; 17] = [
    "format",
    "game",
    "rng",
    "era",
    "round",
    "turn_order",
    "turn",
    "actions_left",
    "decision",
    "action",
    "players",
    "board",
    "links",
    "coal_market",
    "iron_market",
    "deck",
    "removed",
];

/// Parse and validate a state (docs/state-format.md, "Validation").
pub fn from_json(text: &str) -> Result<(Game, State)> {
    let v = parse_bounded(text)?;
    from_value(&v)
}

/// Validate a parsed state.
pub fn from_value(v: &Value) -> Result<(Game, State)> {
    let game_value = v
        .as_object()
        .ok_or_else(|| invalid("state: expected an object".into()))?
        .get("game")
        .ok_or_else(|| invalid("state: missing key `game`".into()))?;
    let game = game_from_value(game_value)?;
    let state = read_state(&game, v)?;
    Ok((game, state))
}

/// Validate a state of a configuration already at hand (its `game` object must be that configuration's).
pub fn from_json_in(game: &Game, text: &str) -> Result<State> {
    let v = parse_bounded(text)?;
    let given = v
        .get("game")
        .ok_or_else(|| invalid("state: missing key `game`".into()))?;
    if *given != game_json(game) {
        return Err(invalid("game: not this configuration".into()));
    }
    read_state(game, &v)
}

fn read_state(game: &Game, v: &Value) -> Result<State> {
    let game = game.clone();
    let mut keys: Vec<&str> = SHARED_KEYS.to_vec();
    keys.extend_from_slice(crate::games::json_keys(&game));
    let r = Reader::new("", v, &keys)?;
    let format = r.str("format")?;
    if format != STATE_FORMAT {
        return Err(invalid(format!(
            "format: `{format}` is not `{STATE_FORMAT}`"
        )));
    }
    let mut state = crate::apply::new_state(&game, 0);
    read_header(&game, &r, &mut state)?;
    read_players(&game, &r, &mut state)?;
    read_board(&game, &r, &mut state)?;
    read_links(&game, &r, &mut state)?;
    state.markets = [
        r.int(
            "coal_market",
            0,
            game.market(Resource::Coal).prices.len() as i64,
        )? as u8,
        r.int(
            "iron_market",
            0,
            game.market(Resource::Iron).prices.len() as i64,
        )? as u8,
    ];
    crate::games::read_json(&game, &r, &mut state)?;
    read_cards(&game, &r, &mut state)?;
    state.action = read_action(&game, r.value("action"))?;
    crate::invariants::check_state(&game, &state)?;
    Ok(state)
}

/// `rng`, `era`, `round`, `turn_order`, `turn`, `actions_left`, `decision`.
fn read_header(game: &Game, r: &Reader, state: &mut State) -> Result<()> {
    let n = game.players as usize;
    let rng_text = r.str("rng")?;
    let rng = rng_text
        .parse::<u64>()
        .ok()
        .filter(|v| v.to_string() == rng_text)
        .ok_or_else(|| {
            invalid(
                "rng: expected a u64 in canonical decimal (digits, no sign, no leading zero)"
                    .into(),
            )
        })?;
    state.rng = Rng(rng);
    state.era = match r.str("era")? {
        "canal" => Era::Canal,
        "rail" => Era::Rail,
        other => {
            return Err(invalid(format!(
                "era: `{other}` is not \"canal\" or \"rail\""
            )))
        }
    };
    state.round = r.int("round", 1, game.rounds_per_era as i64)? as u8;
    let order = r.list("turn_order")?;
    if order.len() != n {
        return Err(invalid(format!("turn_order: expected {n} players")));
    }
    let mut seen = 0u8;
    for (i, p) in order.iter().enumerate() {
        let p = int_in(&format!("turn_order[{i}]"), p, 0, n as i64 - 1)? as u8;
        if seen & (1 << p) != 0 {
            return Err(invalid(format!("turn_order: player {p} appears twice")));
        }
        seen |= 1 << p;
        state.turn_order[i] = p;
    }
    state.turn = r.int("turn", 0, n as i64)? as u8;
    state.actions_left = r.int("actions_left", 0, game.actions_per_turn as i64)? as u8;
    let decision_name = r.str("decision")?;
    state.decision = Decision::from_name(decision_name)
        .ok_or_else(|| invalid(format!("decision: unknown `{decision_name}`")))?;
    Ok(())
}

/// `players`: money, money spent, income space, VP, hand, discards, mat, links left (and, in classic
/// Brass, `built_industry`).
fn read_players(game: &Game, r: &Reader, state: &mut State) -> Result<()> {
    let n = game.players as usize;
    let players = r.list("players")?;
    if players.len() != n {
        return Err(invalid(format!("players: expected {n} entries")));
    }
    // C-6, R-14: classic Brass states say whether each player has built an industry tile this game;
    // a state without the key (written before it existed) reads it from the board (`read_board`).
    let first_of_game = game.switches.first_build == FirstBuild::FirstOfGame;
    let optional: &[&str] = if first_of_game {
        &["built_industry"]
    } else {
        &[]
    };
    const KEYS: [&str; 8] = [
        "money",
        "money_spent",
        "income_space",
        "vp",
        "hand",
        "discards",
        "mat",
        "links_left",
    ];
    for (i, pv) in players.iter().enumerate() {
        let path = format!("players[{i}]");
        let pr = Reader::with_optional(&path, pv, &KEYS, optional)?;
        let p = &mut state.players[i];
        p.money = pr.int("money", -1000, 100_000)? as i32;
        p.money_spent = pr.int("money_spent", 0, 100_000)? as i32;
        p.income_space = pr.int("income_space", 0, game.last_track_space() as i64)? as u8;
        p.vp = pr.int("vp", 0, 100_000)? as i32;
        p.hand = card_counts(game, &pr.at("hand"), pr.value("hand"))?;
        p.discards = card_counts(game, &pr.at("discards"), pr.value("discards"))?;
        let keys: Vec<&str> = game.industries.iter().map(|s| s.as_str()).collect();
        let mat = Reader::new(&pr.at("mat"), pr.value("mat"), &keys)?;
        for (ind, name) in game.industries.iter().enumerate() {
            let stack = game.stacks[ind].len() as i64;
            let left = mat.int(name, 0, stack)?;
            p.taken[ind] = (stack - left) as u8;
        }
        p.links_left = pr.int("links_left", 0, game.links_per_player as i64)? as u8;
        if pr.has("built_industry") {
            p.built_industry = pr.bool("built_industry")?;
        }
        if p.money < 0 && state.decision != Decision::Remove {
            return Err(invalid(format!(
                "{path}.money: negative money is only possible while paying a shortfall"
            )));
        }
    }
    Ok(())
}

/// `board`: the tiles on occupied spaces. A classic player whose `built_industry` key is absent has built
/// an industry exactly when they have a tile on the board (the documented default for older states).
fn read_board(game: &Game, r: &Reader, state: &mut State) -> Result<()> {
    let n = game.players as usize;
    let players = r.list("players")?;
    let mut default_built = [false; MAX_PLAYERS];
    if game.switches.first_build == FirstBuild::FirstOfGame {
        for (i, pv) in players.iter().enumerate().take(n) {
            default_built[i] = pv.get("built_industry").is_none();
        }
    }
    let board = r
        .value("board")
        .as_object()
        .ok_or_else(|| invalid("board: expected an object".into()))?;
    for (name, tv) in board {
        let s = game
            .space_by_name(name)
            .ok_or_else(|| invalid(format!("board: unknown space `{name}`")))?;
        let path = format!("board.{name}");
        let tr = Reader::new(
            &path,
            tv,
            &["owner", "industry", "level", "flipped", "cubes"],
        )?;
        let owner = tr.int("owner", 0, n as i64 - 1)? as u8;
        let ind_name = tr.str("industry")?;
        let industry = game
            .industry_by_name(ind_name)
            .ok_or_else(|| invalid(format!("{path}.industry: unknown `{ind_name}`")))?;
        let level = tr.int("level", 0, 9)? as u8;
        let flipped = tr.bool("flipped")?;
        let cubes = tr.int("cubes", 0, 99)? as u8;
        state.set_tile(
            s,
            Tile {
                owner,
                industry,
                level,
                flipped,
                cubes,
            },
        );
        if default_built[owner as usize] {
            state.players[owner as usize].built_industry = true;
        }
    }
    Ok(())
}

/// `links`: line → owner, lines written in data order.
fn read_links(game: &Game, r: &Reader, state: &mut State) -> Result<()> {
    let n = game.players as usize;
    let links = r
        .value("links")
        .as_object()
        .ok_or_else(|| invalid("links: expected an object".into()))?;
    for (name, ov) in links {
        let l = game
            .line_by_name(name)
            .ok_or_else(|| invalid(format!("links: unknown line `{name}`")))?;
        if game.lines[l as usize].name != *name {
            return Err(invalid(format!(
                "links: write the line as `{}`",
                game.lines[l as usize].name
            )));
        }
        let owner = int_in(&format!("links.{name}"), ov, 0, n as i64 - 1)? as u8;
        state.set_link(l, owner);
    }
    Ok(())
}

/// `deck` (the draw pile, next card first) and `removed`.
fn read_cards(game: &Game, r: &Reader, state: &mut State) -> Result<()> {
    let deck = r.list("deck")?;
    if deck.len() > crate::game::MAX_DECK {
        return Err(invalid("deck: too many cards".into()));
    }
    for (i, c) in deck.iter().enumerate() {
        let name = c
            .as_str()
            .ok_or_else(|| invalid(format!("deck[{i}]: expected a card name")))?;
        let k = game
            .card_by_name(name)
            .ok_or_else(|| invalid(format!("deck[{i}]: unknown card `{name}`")))?;
        state.deck[i] = k;
    }
    state.deck_pos = 0;
    state.deck_len = deck.len() as u8;
    state.removed = card_counts(game, "removed", r.value("removed"))?;
    Ok(())
}

/// `action`: the action under way, or null.
fn read_action(game: &Game, av: &Value) -> Result<Option<Underway>> {
    if av.is_null() {
        return Ok(None);
    }
    let mut keys = vec![
        "kind",
        "double",
        "target",
        "coal",
        "iron",
        "count",
        "cards",
        "first_card",
    ];
    keys.extend_from_slice(crate::games::action_keys(game));
    let ar = Reader::new("action", av, &keys)?;
    let kind_name = ar.str("kind")?;
    let kind = ActionKind::from_name(kind_name)
        .ok_or_else(|| invalid(format!("action.kind: unknown `{kind_name}`")))?;
    let mut u = Underway::new(kind);
    u.double = ar.bool("double")?;
    u.coal = ar.int("coal", 0, 9)? as u8;
    u.iron = ar.int("iron", 0, 9)? as u8;
    u.count = ar.int("count", 0, 99)? as u8;
    let tv = ar.value("target");
    if !tv.is_null() {
        let t = tv
            .as_str()
            .ok_or_else(|| invalid("action.target: expected a name or null".into()))?;
        u.target = match kind {
            ActionKind::Build | ActionKind::Sell => game.space_by_name(t),
            ActionKind::Link => game
                .line_by_name(t)
                .filter(|&l| game.lines[l as usize].name == t),
            _ => None,
        }
        .ok_or_else(|| {
            invalid(format!(
                "action.target: `{t}` is not a target of a {kind_name}"
            ))
        })?;
    }
    u.cards = read_action_cards(game, ar.value("cards"))?;
    crate::games::read_action(game, &ar, &mut u)?;
    let fv = ar.value("first_card");
    if !fv.is_null() {
        let name = fv
            .as_str()
            .ok_or_else(|| invalid("action.first_card: expected a card name or null".into()))?;
        u.first_card = game
            .card_by_name(name)
            .ok_or_else(|| invalid(format!("action.first_card: unknown card `{name}`")))?;
    }
    Ok(Some(u))
}

/// `action.cards`: distinct card kinds in card-kind order, or null.
fn read_action_cards(game: &Game, cv: &Value) -> Result<Option<u32>> {
    if cv.is_null() {
        return Ok(None);
    }
    let list = cv
        .as_array()
        .ok_or_else(|| invalid("action.cards: expected a list or null".into()))?;
    let mut mask = 0u32;
    let mut last: i32 = -1;
    for (i, c) in list.iter().enumerate() {
        let name = c
            .as_str()
            .ok_or_else(|| invalid(format!("action.cards[{i}]: expected a card name")))?;
        let k = game
            .card_by_name(name)
            .ok_or_else(|| invalid(format!("action.cards[{i}]: unknown card `{name}`")))?;
        if k as i32 <= last {
            return Err(invalid(
                "action.cards: distinct card kinds in card-kind order".into(),
            ));
        }
        last = k as i32;
        mask |= 1 << k;
    }
    Ok(Some(mask))
}
