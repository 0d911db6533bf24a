//! Game records (docs/state-format.md, "Game records"): the configuration, a seed or a starting state,
//! and the decisions, written as action ids (`actions`) or as notation (`moves`).
use super::fields::{game_from_value, game_json, invalid, parse_bounded, RECORD_FORMAT};
use super::read::from_value;
use super::write::state_value;
use crate::error::Result;
use crate::game::Game;
use crate::state::State;
use serde_json::{json, Map, Value};

/// How a record lists its decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordMoves {
    /// `"actions": [ids]`.
    Ids,
    /// `"moves": ["notation", …]`, readable by a person.
    Notation,
}

/// A game record as JSON text.
pub fn record_json(
    game: &Game,
    seed: Option<u64>,
    start: Option<&State>,
    actions: &[u16],
    moves: RecordMoves,
) -> String {
    if let (Some(seed), None, RecordMoves::Ids) = (seed, start, moves) {
        return seeded_record_json(&game_json(game).to_string(), seed, actions);
    }
    let mut m = Map::new();
    m.insert("format".into(), json!(RECORD_FORMAT));
    m.insert("game".into(), game_json(game));
    if let Some(seed) = seed {
        m.insert("seed".into(), json!(seed));
    }
    if let Some(start) = start {
        m.insert("start".into(), state_value(game, start));
    }
    match moves {
        RecordMoves::Ids => {
            m.insert("actions".into(), json!(actions));
        }
        RecordMoves::Notation => {
            let names: Vec<String> = actions
                .iter()
                .map(|&id| game.action_name(id as i64).expect("an id of this game"))
                .collect();
            m.insert("moves".into(), json!(names));
        }
    }
    Value::Object(m).to_string()
}

/// The record of a game dealt from `seed` and played with `actions` (ids), as [`record_json`] writes it,
/// for callers that write many records of one configuration: `game` is `game_json(game)` as text. Written
/// directly rather than through a `Value` (self-play writes one per game; the keys in the same sorted order).
pub fn seeded_record_json(game: &str, seed: u64, actions: &[u16]) -> String {
    let actions = serde_json::to_string(actions).unwrap_or_default();
    format!(
        "{{\"actions\":{actions},\"format\":\"{RECORD_FORMAT}\",\"game\":{game},\"seed\":{seed}}}"
    )
}

/// A parsed game record: configuration, starting state, the seed if any, the action ids.
pub struct Record {
    pub game: Game,
    pub start: State,
    pub seed: Option<u64>,
    pub actions: Vec<i64>,
}

/// Read a record: exactly one of `seed` and `start`, exactly one of `actions` and `moves`.
pub fn parse_record(text: &str) -> Result<Record> {
    let v = parse_bounded(text)?;
    let obj = v
        .as_object()
        .ok_or_else(|| invalid("record: expected an object".into()))?;
    for k in obj.keys() {
        if ![
            "format", "game", "seed", "start", "actions", "moves", "headers",
        ]
        .contains(&k.as_str())
        {
            return Err(invalid(format!("record: unexpected key `{k}`")));
        }
    }
    if let Some(headers) = obj.get("headers") {
        check_headers(headers)?;
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
            if game_json(&g) != game_json(&game) {
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
    let actions = match (obj.get("actions"), obj.get("moves")) {
        (Some(a), None) => action_ids(a)?,
        (None, Some(m)) => move_ids(&game, m)?,
        _ => {
            return Err(invalid(
                "record: needs exactly one of `actions` (ids) and `moves` (notation)".into(),
            ))
        }
    };
    Ok(Record {
        game,
        start,
        seed,
        actions,
    })
}

/// Optional headers, like PGN's tags: an object of strings (who played, when, the event, the engine). They
/// describe the game and change nothing in it.
fn check_headers(v: &Value) -> Result<()> {
    let obj = v
        .as_object()
        .ok_or_else(|| invalid("record.headers: expected an object of strings".into()))?;
    for (k, value) in obj {
        if !value.is_string() {
            return Err(invalid(format!(
                "record.headers.{k}: expected a string, not {value}"
            )));
        }
    }
    Ok(())
}

/// The record JSON `text` with `headers` (an object of strings) added: a record keeps its keys sorted.
pub fn with_headers(text: &str, headers: &Map<String, Value>) -> Result<String> {
    let headers = Value::Object(headers.clone());
    check_headers(&headers)?;
    let mut v: Value = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    if let Some(obj) = v.as_object_mut() {
        if !headers.as_object().is_some_and(Map::is_empty) {
            obj.insert("headers".into(), headers);
        }
    }
    Ok(v.to_string())
}

fn action_ids(v: &Value) -> Result<Vec<i64>> {
    v.as_array()
        .ok_or_else(|| invalid("record.actions: expected a list of action ids".into()))?
        .iter()
        .enumerate()
        .map(|(i, a)| {
            a.as_i64()
                .ok_or_else(|| invalid(format!("record.actions[{i}]: expected an integer")))
        })
        .collect()
}

fn move_ids(game: &Game, v: &Value) -> Result<Vec<i64>> {
    v.as_array()
        .ok_or_else(|| invalid("record.moves: expected a list of notations".into()))?
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = m
                .as_str()
                .ok_or_else(|| invalid(format!("record.moves[{i}]: expected a notation string")))?;
            game.parse_action(text)
                .map(|id| id as i64)
                .map_err(|e| invalid(format!("record.moves[{i}]: {}", e.message())))
        })
        .collect()
}
