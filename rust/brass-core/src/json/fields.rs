//! What every part of the JSON reader and writer shares, and the game modules' own sections use: the format
//! names and limits, the `game` object, bounded parsing, and `Reader`, which checks an object's keys and each
//! field's type and range. Below the game modules, so that their sections need nothing above them.
use crate::error::{Error, Result};
use crate::game::{Game, MAX_CARD_KINDS};
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

/// Card kind → count, zero counts omitted.
pub(crate) fn counts(game: &Game, counts: &[u8]) -> Value {
    let mut m = Map::new();
    for (k, &c) in counts[..game.card_kinds.len()].iter().enumerate() {
        if c > 0 {
            m.insert(game.card_names[k].clone(), json!(c));
        }
    }
    Value::Object(m)
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

pub(crate) fn invalid(msg: String) -> Error {
    Error::InvalidState(msg)
}

/// Reads typed fields out of a JSON object, naming the path of the first problem.
pub(crate) struct Reader<'a> {
    path: String,
    obj: &'a Map<String, Value>,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(path: &str, v: &'a Value, keys: &[&str]) -> Result<Reader<'a>> {
        Reader::with_optional(path, v, keys, &[])
    }
    /// A reader of an object that must hold `keys` and may hold `optional` keys, and nothing else.
    pub(crate) fn with_optional(
        path: &str,
        v: &'a Value,
        keys: &[&str],
        optional: &[&str],
    ) -> Result<Reader<'a>> {
        // The top level is named "state" in messages.
        let shown = if path.is_empty() { "state" } else { path };
        let obj = v
            .as_object()
            .ok_or_else(|| invalid(format!("{shown}: expected an object")))?;
        for k in obj.keys() {
            if !keys.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
                return Err(invalid(format!("{shown}: unexpected key `{k}`")));
            }
        }
        for k in keys {
            if !obj.contains_key(*k) {
                return Err(invalid(format!("{shown}: missing key `{k}`")));
            }
        }
        Ok(Reader {
            path: path.to_string(),
            obj,
        })
    }
    pub(crate) fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    pub(crate) fn value(&self, key: &str) -> &'a Value {
        &self.obj[key]
    }
    pub(crate) fn has(&self, key: &str) -> bool {
        self.obj.contains_key(key)
    }
    pub(crate) fn int(&self, key: &str, lo: i64, hi: i64) -> Result<i64> {
        int_in(&self.at(key), self.value(key), lo, hi)
    }
    pub(crate) fn bool(&self, key: &str) -> Result<bool> {
        self.value(key)
            .as_bool()
            .ok_or_else(|| invalid(format!("{}: expected true or false", self.at(key))))
    }
    pub(crate) fn str(&self, key: &str) -> Result<&'a str> {
        self.value(key)
            .as_str()
            .ok_or_else(|| invalid(format!("{}: expected a string", self.at(key))))
    }
    pub(crate) fn list(&self, key: &str) -> Result<&'a Vec<Value>> {
        self.value(key)
            .as_array()
            .ok_or_else(|| invalid(format!("{}: expected a list", self.at(key))))
    }
}

pub(crate) fn int_in(path: &str, v: &Value, lo: i64, hi: i64) -> Result<i64> {
    let i = v
        .as_i64()
        .ok_or_else(|| invalid(format!("{path}: expected an integer")))?;
    if i < lo || i > hi {
        return Err(invalid(format!("{path}: {i} is out of range {lo}..={hi}")));
    }
    Ok(i)
}

/// Card kind → count, each count 1 … 255 and the kinds this game's.
pub(crate) fn card_counts(game: &Game, path: &str, v: &Value) -> Result<[u8; MAX_CARD_KINDS]> {
    let obj = v
        .as_object()
        .ok_or_else(|| invalid(format!("{path}: expected an object of card → count")))?;
    let mut out = [0u8; MAX_CARD_KINDS];
    for (name, c) in obj {
        let k = game
            .card_by_name(name)
            .ok_or_else(|| invalid(format!("{path}: unknown card `{name}`")))?;
        out[k as usize] = int_in(&format!("{path}.{name}"), c, 1, 255)? as u8;
    }
    Ok(out)
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
