//! Canonical state JSON (docs/state-format.md): written with sorted keys and no white space, read with
//! full validation. Also game records.
use crate::error::{Error, Result};
use crate::game::{Era, FirstBuild, Game, MAX_PLAYERS, NONE};
use crate::rng::Rng;
use crate::rules;
use crate::state::{ActionKind, Decision, State, Tile, Underway};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

pub const STATE_FORMAT: &str = "brass-state/1";
pub const RECORD_FORMAT: &str = "brass-record/1";
/// Largest JSON text accepted (a state is a few KiB; a record of a long game some tens of KiB).
pub const MAX_JSON_BYTES: usize = 4 << 20;
/// Deepest nesting accepted.
const MAX_DEPTH: usize = 16;

/// The `game` object of states and records.
pub fn game_json(game: &Game) -> Value {
    json!({
        "name": game.name,
        "players": game.players,
        "options": Value::Object(game.options.clone().into_iter().collect()),
        "data": game.data_id,
    })
}

fn counts(game: &Game, counts: &[u8]) -> Value {
    let mut m = Map::new();
    for (k, &c) in counts[..game.card_kinds.len()].iter().enumerate() {
        if c > 0 {
            m.insert(game.card_names[k].clone(), json!(c));
        }
    }
    Value::Object(m)
}

/// The canonical JSON value of a state.
pub fn state_value(game: &Game, state: &State) -> Value {
    let n = game.players as usize;
    let players: Vec<Value> = state.players[..n]
        .iter()
        .map(|p| {
            let mut mat = Map::new();
            for (i, name) in game.industries.iter().enumerate() {
                mat.insert(
                    name.clone(),
                    json!(game.stacks[i].len() - p.taken[i] as usize),
                );
            }
            let mut player = json!({
                "money": p.money,
                "money_spent": p.money_spent,
                "income_space": p.income_space,
                "vp": p.vp,
                "hand": counts(game, &p.hand),
                "discards": counts(game, &p.discards),
                "mat": Value::Object(mat),
                "links_left": p.links_left,
            });
            if game.first_build == FirstBuild::FirstOfGame {
                player["built_industry"] = json!(p.built_industry);
            }
            player
        })
        .collect();
    let mut board = Map::new();
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if !t.is_empty() {
            board.insert(
                game.spaces[s].name.clone(),
                json!({"owner": t.owner, "industry": game.industries[t.industry as usize],
                       "level": t.level, "flipped": t.flipped, "cubes": t.cubes}),
            );
        }
    }
    let mut links = Map::new();
    for (i, &owner) in state.links[..game.lines.len()].iter().enumerate() {
        if owner != NONE {
            links.insert(game.lines[i].name.clone(), json!(owner));
        }
    }
    let mut dcm_discards = Vec::new();
    for (v, &c) in state.dcm_discards.iter().enumerate() {
        dcm_discards.extend(std::iter::repeat_n(v, c as usize));
    }
    let action = match state.action {
        None => Value::Null,
        Some(u) => {
            let target = if u.target == NONE {
                Value::Null
            } else if u.kind == ActionKind::Link {
                json!(game.lines[u.target as usize].name)
            } else {
                json!(game.spaces[u.target as usize].name)
            };
            let cards = match u.cards {
                None => Value::Null,
                Some(mask) => Value::Array(
                    (0..game.card_kinds.len())
                        .filter(|k| mask & (1 << k) != 0)
                        .map(|k| json!(game.card_names[k]))
                        .collect(),
                ),
            };
            let first_card = if u.first_card == NONE {
                Value::Null
            } else {
                json!(game.card_names[u.first_card as usize])
            };
            json!({"kind": u.kind.name(), "double": u.double, "target": target, "coal": u.coal,
                   "iron": u.iron, "count": u.count, "cards": cards, "first_card": first_card})
        }
    };
    json!({
        "format": STATE_FORMAT,
        "game": game_json(game),
        "rng": state.rng.0.to_string(),
        "era": state.era.name(),
        "round": state.round,
        "turn_order": &state.turn_order[..n],
        "turn": state.turn,
        "actions_left": state.actions_left,
        "decision": state.decision.name(),
        "action": action,
        "players": players,
        "board": Value::Object(board),
        "links": Value::Object(links),
        "coal_market": state.coal_market,
        "iron_market": state.iron_market,
        "dcm": {"marker": state.dcm_marker, "pile": state.dcm_pile(), "discards": dcm_discards},
        "deck": state.deck[state.deck_pos as usize..state.deck_len as usize]
            .iter().map(|&c| game.card_names[c as usize].clone()).collect::<Vec<_>>(),
        "deck_tile": counts(game, &state.deck_tile),
        "removed": counts(game, &state.removed),
    })
}

/// Canonical JSON text: sorted keys (serde_json's map is ordered), no white space.
pub fn to_json(game: &Game, state: &State) -> String {
    state_value(game, state).to_string()
}

/// Parse JSON text with the size and depth limits every entry point applies.
pub fn parse_bounded(text: &str) -> Result<Value> {
    if text.len() > MAX_JSON_BYTES {
        return Err(Error::InvalidState(format!(
            "JSON text too large: {} bytes (limit {MAX_JSON_BYTES})",
            text.len()
        )));
    }
    // serde_json refuses nesting deeper than 128 on its own; the engine's formats need far less.
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for b in text.bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Error::InvalidState(format!(
                        "JSON nested deeper than {MAX_DEPTH} levels"
                    )));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    serde_json::from_str(text).map_err(|e| Error::InvalidState(format!("not valid JSON: {e}")))
}

/// Reads typed fields out of a JSON object, naming the path of the first problem.
struct Reader<'a> {
    path: String,
    obj: &'a Map<String, Value>,
}

fn invalid(msg: String) -> Error {
    Error::InvalidState(msg)
}

impl<'a> Reader<'a> {
    fn new(path: &str, v: &'a Value, keys: &[&str]) -> Result<Reader<'a>> {
        Reader::with_optional(path, v, keys, &[])
    }
    /// A reader of an object that must hold `keys` and may hold `optional` keys, and nothing else.
    fn with_optional(
        path: &str,
        v: &'a Value,
        keys: &[&str],
        optional: &[&str],
    ) -> Result<Reader<'a>> {
        let obj = v
            .as_object()
            .ok_or_else(|| invalid(format!("{path}: expected an object")))?;
        for k in obj.keys() {
            if !keys.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
                return Err(invalid(format!("{path}: unexpected key `{k}`")));
            }
        }
        for k in keys {
            if !obj.contains_key(*k) {
                return Err(invalid(format!("{path}: missing key `{k}`")));
            }
        }
        Ok(Reader {
            path: path.to_string(),
            obj,
        })
    }
    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    fn value(&self, key: &str) -> &'a Value {
        &self.obj[key]
    }
    fn has(&self, key: &str) -> bool {
        self.obj.contains_key(key)
    }
    fn int(&self, key: &str, lo: i64, hi: i64) -> Result<i64> {
        int_in(&self.at(key), self.value(key), lo, hi)
    }
    fn bool(&self, key: &str) -> Result<bool> {
        self.value(key)
            .as_bool()
            .ok_or_else(|| invalid(format!("{}: expected true or false", self.at(key))))
    }
    fn str(&self, key: &str) -> Result<&'a str> {
        self.value(key)
            .as_str()
            .ok_or_else(|| invalid(format!("{}: expected a string", self.at(key))))
    }
}

fn int_in(path: &str, v: &Value, lo: i64, hi: i64) -> Result<i64> {
    let i = v
        .as_i64()
        .ok_or_else(|| invalid(format!("{path}: expected an integer")))?;
    if i < lo || i > hi {
        return Err(invalid(format!("{path}: {i} is out of range {lo}..={hi}")));
    }
    Ok(i)
}

/// Build the configuration named by a state's or record's `game` object.
pub fn game_from_value(v: &Value) -> Result<Game> {
    let r = Reader::new("game", v, &["name", "players", "options", "data"])?;
    let name = r.str("name")?;
    let players = r.int("players", 0, 100)?;
    let options: BTreeMap<String, Value> = r
        .value("options")
        .as_object()
        .ok_or_else(|| invalid("game.options: expected an object".into()))?
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let game = Game::new(name, players, &options)
        .map_err(|e| invalid(format!("game: {}", e.message())))?;
    if game.options != options {
        return Err(invalid(
            "game.options: list only the options set to true (docs/classic.md)".into(),
        ));
    }
    let data = r.str("data")?;
    if data != game.data_id {
        return Err(invalid(format!(
            "game.data: `{data}` does not match this engine's data `{}`",
            game.data_id
        )));
    }
    Ok(game)
}

fn card_counts(game: &Game, path: &str, v: &Value) -> Result<[u8; 32]> {
    let obj = v
        .as_object()
        .ok_or_else(|| invalid(format!("{path}: expected an object of card → count")))?;
    let mut out = [0u8; 32];
    for (name, c) in obj {
        let k = game
            .card_by_name(name)
            .ok_or_else(|| invalid(format!("{path}: unknown card `{name}`")))?;
        out[k as usize] = int_in(&format!("{path}.{name}"), c, 1, 255)? as u8;
    }
    Ok(out)
}

/// Parse and validate a state (docs/state-format.md, "Validation").
pub fn from_json(text: &str) -> Result<(Game, State)> {
    let v = parse_bounded(text)?;
    from_value(&v)
}

pub fn from_value(v: &Value) -> Result<(Game, State)> {
    let r = Reader::new(
        "",
        v,
        &[
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
            "dcm",
            "deck",
            "deck_tile",
            "removed",
        ],
    )?;
    let format = r.str("format")?;
    if format != STATE_FORMAT {
        return Err(invalid(format!(
            "format: `{format}` is not `{STATE_FORMAT}`"
        )));
    }
    let game = game_from_value(r.value("game"))?;
    let n = game.players as usize;
    let mut state = crate::apply::new_state(&game, 0);
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
    let order = r
        .value("turn_order")
        .as_array()
        .ok_or_else(|| invalid("turn_order: expected a list".into()))?;
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

    // Players.
    let players = r
        .value("players")
        .as_array()
        .ok_or_else(|| invalid("players: expected a list".into()))?;
    if players.len() != n {
        return Err(invalid(format!("players: expected {n} entries")));
    }
    // C-6, R-14: classic Brass states say whether each player has built an industry tile this game;
    // a state without the key (written before it existed) reads it from the board.
    let first_of_game = game.first_build == FirstBuild::FirstOfGame;
    let optional: &[&str] = if first_of_game {
        &["built_industry"]
    } else {
        &[]
    };
    let mut built_from_board = [false; MAX_PLAYERS];
    for (i, pv) in players.iter().enumerate() {
        let path = format!("players[{i}]");
        let pr = Reader::with_optional(
            &path,
            pv,
            &[
                "money",
                "money_spent",
                "income_space",
                "vp",
                "hand",
                "discards",
                "mat",
                "links_left",
            ],
            optional,
        )?;
        let p = &mut state.players[i];
        p.money = pr.int("money", -1000, 100_000)? as i32;
        p.money_spent = pr.int("money_spent", 0, 100_000)? as i32;
        p.income_space = pr.int("income_space", 0, game.last_track_space() as i64)? as u8;
        p.vp = pr.int("vp", 0, 100_000)? as i32;
        p.hand = card_counts(&game, &pr.at("hand"), pr.value("hand"))?;
        p.discards = card_counts(&game, &pr.at("discards"), pr.value("discards"))?;
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
        } else {
            built_from_board[i] = first_of_game;
        }
        if p.money < 0 && state.decision != Decision::Remove {
            return Err(invalid(format!(
                "{path}.money: negative money is only possible while paying a shortfall"
            )));
        }
    }

    // Board.
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
        state.board[s as usize] = Tile {
            owner,
            industry,
            level,
            flipped,
            cubes,
        };
        if built_from_board[owner as usize] {
            state.players[owner as usize].built_industry = true;
        }
    }
    // Links.
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
        state.links[l as usize] = owner;
    }
    state.coal_market = r.int("coal_market", 0, game.coal_prices.len() as i64)? as u8;
    state.iron_market = r.int("iron_market", 0, game.iron_prices.len() as i64)? as u8;

    // DCM.
    let dr = Reader::new("dcm", r.value("dcm"), &["marker", "pile", "discards"])?;
    state.dcm_marker = dr.int("marker", 0, game.dcm_x as i64)? as u8;
    let pile = dr
        .value("pile")
        .as_array()
        .ok_or_else(|| invalid("dcm.pile: expected a list".into()))?;
    let discards = dr
        .value("discards")
        .as_array()
        .ok_or_else(|| invalid("dcm.discards: expected a list".into()))?;
    if pile.len() > crate::game::MAX_DCM_TILES {
        return Err(invalid("dcm.pile: too many tiles".into()));
    }
    for (i, t) in pile.iter().enumerate() {
        let t = int_in(&format!("dcm.pile[{i}]"), t, 0, 7)? as u8;
        state.dcm_pile[i] = t;
    }
    state.dcm_pile_len = pile.len() as u8;
    state.dcm_discards = [0; 8];
    let mut last = 0;
    for (i, t) in discards.iter().enumerate() {
        let t = int_in(&format!("dcm.discards[{i}]"), t, 0, 7)? as u8;
        if t < last {
            return Err(invalid("dcm.discards: must be sorted ascending".into()));
        }
        last = t;
        state.dcm_discards[t as usize] += 1;
    }

    // Deck and card conservation.
    let deck = r
        .value("deck")
        .as_array()
        .ok_or_else(|| invalid("deck: expected a list".into()))?;
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
    state.deck_tile = card_counts(&game, "deck_tile", r.value("deck_tile"))?;
    state.removed = card_counts(&game, "removed", r.value("removed"))?;
    // The action under way.
    let av = r.value("action");
    state.action = if av.is_null() {
        None
    } else {
        let ar = Reader::new(
            "action",
            av,
            &[
                "kind",
                "double",
                "target",
                "coal",
                "iron",
                "count",
                "cards",
                "first_card",
            ],
        )?;
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
                ActionKind::Build => game.space_by_name(t),
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
        let cv = ar.value("cards");
        if !cv.is_null() {
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
            u.cards = Some(mask);
        }
        let fv = ar.value("first_card");
        if !fv.is_null() {
            let name = fv
                .as_str()
                .ok_or_else(|| invalid("action.first_card: expected a card name or null".into()))?;
            u.first_card = game
                .card_by_name(name)
                .ok_or_else(|| invalid(format!("action.first_card: unknown card `{name}`")))?;
        }
        Some(u)
    };
    check_state(&game, &state)?;
    Ok((game, state))
}

/// Every rule invariant of an in-memory state: the checks `from_json` makes after reading the fields, and
/// `invariants::validate` makes on any state.
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
    // Tiles: on a space showing their industry, a buildable level, cubes within the printed number, and
    // no more per player, industry and level than have left that player's mat.
    let mut built = [[[0u8; 10]; crate::game::MAX_INDUSTRIES]; MAX_PLAYERS];
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        let path = format!("board.{}", game.spaces[s].name);
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
        if state.era == Era::Rail && t.level == 1 {
            return Err(invalid(format!(
                "{path}: level-1 tiles leave the board at the end of the Canal Era (L-51)"
            )));
        }
        if t.cubes > spec.cubes {
            return Err(invalid(format!(
                "{path}.cubes: more than the tile's {}",
                spec.cubes
            )));
        }
        built[t.owner as usize][t.industry as usize][t.level as usize] += 1;
        if game.first_build == FirstBuild::FirstOfGame
            && !state.players[t.owner as usize].built_industry
        {
            return Err(invalid(format!(
                "players[{}].built_industry: false, but the player has a tile on {} (C-6)",
                t.owner, game.spaces[s].name
            )));
        }
    }
    if game.first_build != FirstBuild::FirstOfGame
        && state.players[..n].iter().any(|p| p.built_industry)
    {
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
    // Links: of the era's kind; with the tiles left, each player's 14.
    let mut links_on_board = [0u32; MAX_PLAYERS];
    for (l, &owner) in state.links[..game.lines.len()].iter().enumerate() {
        if owner == NONE {
            continue;
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
    if game.dcm_recycle && state.dcm_discards.iter().any(|&c| c > 0) {
        return Err(invalid(
            "dcm.discards: the classic rules put drawn tiles back under the pile (C-11)".into(),
        ));
    }
    if game.flags.intro && state.era == Era::Rail {
        return Err(invalid(
            "era: the introductory game has no Rail Era (L-54)".into(),
        ));
    }
    // The DCM tiles: pile and discards hold exactly this game's tiles.
    let mut all: Vec<u8> = state.dcm_pile().to_vec();
    for (v, &c) in state.dcm_discards.iter().enumerate() {
        all.extend(std::iter::repeat_n(v as u8, c as usize));
    }
    all.sort_unstable();
    if all != game.dcm_tiles {
        return Err(invalid(format!(
            "dcm: pile and discards hold {all:?}, but the DCM tiles of this game are {:?}",
            game.dcm_tiles
        )));
    }
    // Cards: hands, discards, draw pile and deck tile hold exactly the deck (L-2, L-3, L-51).
    let under: u32 = state.deck_tile.iter().map(|&c| c as u32).sum();
    let (want_under, want_removed) = match state.era {
        Era::Canal => (game.deck_tile_cards as u32, game.removed_canal as u32),
        Era::Rail => (0, game.removed_rail as u32),
    };
    if under != want_under {
        return Err(invalid(format!(
            "deck_tile: must hold {want_under} cards in the {} Era (L-3, L-51, L-56), not {under}",
            if state.era == Era::Canal {
                "Canal"
            } else {
                "Rail"
            }
        )));
    }
    let removed: u32 = state.removed.iter().map(|&c| c as u32).sum();
    if removed != want_removed {
        return Err(invalid(format!(
            "removed: {want_removed} cards are out of the game in this era (C-3, L-56), not {removed}"
        )));
    }
    let mut cards = [0u32; 32];
    for &c in &state.deck[state.deck_pos as usize..state.deck_len as usize] {
        cards[c as usize] += 1;
    }
    for k in 0..game.card_kinds.len() {
        cards[k] += state.deck_tile[k] as u32 + state.removed[k] as u32;
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
    if let Some(crate::state::Underway { cards: Some(0), .. }) = state.action {
        return Err(invalid(
            "action.cards: a single build lists one or more card kinds".into(),
        ));
    }
    check_consistency(game, state)
}

/// Cross-field checks: the decision fits the turn, the action under way and the players' holdings, tiles
/// and links are consistent with the mats, and every pending question is a real choice (docs/state-format.md,
/// "Validation"; the reference engine checks the same).
fn check_consistency(game: &Game, state: &State) -> Result<()> {
    let n = game.players;
    let d = state.decision;
    let bad = |m: &str| Err(invalid(m.to_string()));

    // Tiles: flips and cubes, and the Canal Era's one tile per player and location (L-20, L-25, L-28).
    let building = state
        .action
        .filter(|u| u.kind == ActionKind::Build && matches!(d, Decision::Coal | Decision::Iron));
    for s in 0..game.spaces.len() {
        let t = state.board[s];
        if t.is_empty() {
            continue;
        }
        let name = &game.spaces[s].name;
        let resource = t.industry == game.coal_mine || t.industry == game.iron_works;
        if building.is_some_and(|u| u.target as usize == s) {
            if t.flipped || t.cubes != 0 {
                return Err(invalid(format!("board.{name}: a tile being built is unflipped and empty until its coal and iron are taken")));
            }
        } else if resource && t.flipped != (t.cubes == 0) {
            return Err(invalid(format!(
                "board.{name}: a coal mine or iron works is flipped exactly when empty (L-20)"
            )));
        } else if !resource && t.cubes != 0 {
            return Err(invalid(format!(
                "board.{name}: only coal mines and iron works hold cubes"
            )));
        } else if t.industry == game.shipyard && !t.flipped {
            return Err(invalid(format!(
                "board.{name}: a shipyard is flipped as soon as it is built (L-28)"
            )));
        }
    }
    if state.era == Era::Canal {
        for loc in &game.locations {
            for p in 0..n {
                let own = (loc.first_space..loc.first_space + loc.num_spaces)
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
    for (i, pl) in state.players[..n as usize].iter().enumerate() {
        if pl.money < 0 && d != Decision::Remove {
            return Err(invalid(format!(
                "players[{i}].money: negative money is only possible while paying a shortfall"
            )));
        }
    }

    // The action under way.
    if let Some(u) = state.action {
        if matches!(d, Decision::Action | Decision::Remove | Decision::Over) {
            return bad("action: must be null at this decision");
        }
        let (lo, hi) = match u.kind {
            ActionKind::Build | ActionKind::Loan | ActionKind::Pass => (0, 0),
            ActionKind::Link | ActionKind::Develop => (1, 2),
            ActionKind::Sell => (0, u8::MAX),
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
        if u.iron > 0 && !matches!(u.kind, ActionKind::Build | ActionKind::Develop) {
            return bad("action.iron: only a build or a develop takes iron");
        }
        if matches!(u.kind, ActionKind::Build | ActionKind::Link) && u.target == NONE {
            return bad("action.target: a build or a link names its space or line");
        }
        if u.kind == ActionKind::Build && (u.double == u.cards.is_some()) {
            return bad(
                "action.cards: a single build lists its cards; every other action has null",
            );
        }
        if u.first_card != NONE && !(u.double && d == Decision::Card) {
            return bad("action.first_card: set only while a double build's second card is asked");
        }
    } else if !matches!(d, Decision::Action | Decision::Remove | Decision::Over) {
        return bad("action: this decision needs the action under way");
    }

    // The decision.
    match d {
        Decision::Remove | Decision::Over => {
            if state.turn != n || state.actions_left != 0 {
                return bad(
                    "decision: `remove` and `over` need turn = players and actions_left = 0",
                );
            }
            if d == Decision::Over {
                let last_era = if game.flags.intro {
                    Era::Canal
                } else {
                    Era::Rail
                };
                if !(state.era == last_era && state.round == game.rounds_per_era) {
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
        _ => {}
    }
    if state.turn >= n {
        return bad("turn: must be below the number of players at a player's decision");
    }
    let per_turn = if state.era == Era::Canal && state.round == 1 {
        game.first_round_actions
    } else {
        game.actions_per_turn
    };
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
    if rules::card_choices(state, p) == 0 {
        return bad(
            "action: no card in the current player's hand can pay for the action under way",
        );
    }
    if u.double && state.actions_left != 2 {
        return bad("action.double: a double build uses both actions, so actions_left must be 2");
    }
    if u.kind == ActionKind::Build && state.board[u.target as usize].owner != p {
        return bad("action.target: the space built on must hold the current player's tile");
    }
    if u.kind == ActionKind::Link && state.links[u.target as usize] != p {
        return bad("action.target: the line must hold the link the current player just placed");
    }
    let mut ids = Vec::new();
    rules::legal_actions(game, state, &mut ids);
    let ok = match d {
        Decision::Coal => {
            matches!(u.kind, ActionKind::Build | ActionKind::Link) && u.coal > 0 && ids.len() >= 2
        }
        Decision::Iron => {
            matches!(u.kind, ActionKind::Build | ActionKind::Develop)
                && u.coal == 0
                && u.iron > 0
                && ids.len() >= 2
        }
        Decision::Link => {
            u.kind == ActionKind::Link
                && state.era == Era::Rail
                && u.count == 1
                && u.coal == 0
                && ids.len() >= 2
        }
        Decision::Develop => {
            u.kind == ActionKind::Develop && u.count == 1 && u.iron == 0 && ids.len() >= 2
        }
        Decision::Sell => u.kind == ActionKind::Sell && u.count >= 1 && ids.len() >= 2,
        Decision::Card => u.coal == 0 && u.iron == 0 && ids.len() >= 2,
        _ => true,
    };
    if !ok {
        return Err(invalid(format!(
            "decision: `{}` does not fit the action under way or is not a real choice (the engine asks only when there are two or more options)",
            d.name()
        )));
    }
    Ok(())
}

/// A game record (docs/state-format.md, "Game records").
pub fn record_json(
    game: &Game,
    seed: Option<u64>,
    start: Option<&State>,
    actions: &[u16],
) -> String {
    let mut m = Map::new();
    m.insert("format".into(), json!(RECORD_FORMAT));
    m.insert("game".into(), game_json(game));
    if let Some(seed) = seed {
        m.insert("seed".into(), json!(seed));
    }
    if let Some(start) = start {
        m.insert("start".into(), state_value(game, start));
    }
    m.insert("actions".into(), json!(actions));
    Value::Object(m).to_string()
}

/// A parsed game record: configuration, starting state, the seed if any, the action ids.
pub struct Record {
    pub game: Game,
    pub start: State,
    pub seed: Option<u64>,
    pub actions: Vec<i64>,
}

pub fn parse_record(text: &str) -> Result<Record> {
    let v = parse_bounded(text)?;
    let obj = v
        .as_object()
        .ok_or_else(|| invalid("record: expected an object".into()))?;
    for k in obj.keys() {
        if !["format", "game", "seed", "start", "actions"].contains(&k.as_str()) {
            return Err(invalid(format!("record: unexpected key `{k}`")));
        }
    }
    if obj.get("format").and_then(Value::as_str) != Some(RECORD_FORMAT) {
        return Err(invalid(format!(
            "record.format: expected `{RECORD_FORMAT}`"
        )));
    }
    let game = game_from_value(
        obj.get("game")
            .ok_or_else(|| invalid("record: missing `game`".into()))?,
    )?;
    let (start, seed) = match (obj.get("seed"), obj.get("start")) {
        (Some(s), None) => {
            let seed = s
                .as_u64()
                .ok_or_else(|| invalid("record.seed: expected an integer in [0, 2**64)".into()))?;
            (crate::apply::new_state(&game, seed), Some(seed))
        }
        (None, Some(st)) => {
            let (g, state) = from_value(st)?;
            if crate::json::game_json(&g) != crate::json::game_json(&game) {
                return Err(invalid(
                    "record.start: its game differs from record.game".into(),
                ));
            }
            (state, None)
        }
        _ => {
            return Err(invalid(
                "record: needs exactly one of `seed` and `start`".into(),
            ))
        }
    };
    let actions = obj
        .get("actions")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("record.actions: expected a list of action ids".into()))?
        .iter()
        .enumerate()
        .map(|(i, a)| {
            a.as_i64()
                .ok_or_else(|| invalid(format!("record.actions[{i}]: expected an integer")))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Record {
        game,
        start,
        seed,
        actions,
    })
}
