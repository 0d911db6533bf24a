//! The one catalog of the games this engine plays (`python/brass/data/games.json`, embedded): each game's
//! name, title, data file, rules family, player counts and options. `Game::new` reads it, and so do
//! `brass.games()`, the reference engine, the CLI, the environment adapters and the pictures.
use serde::Deserialize;
use std::sync::OnceLock;

/// The catalog file, shared with the Python package.
pub const GAMES_JSON: &str = include_str!("../../../python/brass/data/games.json");

/// The catalog.
#[derive(Debug, Deserialize)]
pub struct Catalog {
    pub format: String,
    pub games: Vec<GameEntry>,
}

/// One registered game.
#[derive(Debug, Deserialize)]
pub struct GameEntry {
    pub name: String,
    pub title: String,
    /// The data file (`python/brass/data/<data>.json`).
    pub data: String,
    /// The rules family: which per-game rules module plays it (`games/mod.rs`).
    pub family: String,
    pub players: Vec<u8>,
    pub options: Vec<OptionSpec>,
}

/// One option of a game (`Game(name, players, **options)`).
#[derive(Debug, Deserialize)]
pub struct OptionSpec {
    pub name: String,
    /// "bool" or "str".
    #[serde(rename = "type")]
    pub kind: String,
    /// The player counts it may be used with.
    pub players: Vec<u8>,
    pub rule: String,
    pub doc: String,
}

/// The catalog, parsed once. The embedded file is tested to parse, so a failure is a build defect.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| serde_json::from_str(GAMES_JSON).expect("embedded games.json parses"))
}

/// The entry of a game, by name.
pub fn entry(name: &str) -> Option<&'static GameEntry> {
    catalog().games.iter().find(|g| g.name == name)
}

/// The catalog as `brass.games()` returns it: name → {"title", "players", "options": name → {"type",
/// "players", "rule", "doc"}}.
pub fn games_value() -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for g in &catalog().games {
        let options: serde_json::Map<String, serde_json::Value> = g
            .options
            .iter()
            .map(|o| {
                (
                    o.name.clone(),
                    serde_json::json!({"type": o.kind, "players": o.players, "rule": o.rule, "doc": o.doc}),
                )
            })
            .collect();
        out.insert(
            g.name.clone(),
            serde_json::json!({"title": g.title, "players": g.players, "options": options}),
        );
    }
    serde_json::Value::Object(out)
}

/// "2, 3 or 4": a list of numbers in words.
pub fn spoken_list(items: &[u8]) -> String {
    let words: Vec<String> = items.iter().map(|n| n.to_string()).collect();
    spoken_words(&words)
}

/// "a, b or c": words in a sentence.
pub fn spoken_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_parses_and_every_data_file_is_embedded() {
        let c = catalog();
        assert_eq!(c.format, "brass-games/1");
        for g in &c.games {
            assert!(crate::data::embedded(&g.data).is_some(), "{}", g.name);
            assert!(!g.players.is_empty());
            for o in &g.options {
                assert!(matches!(o.kind.as_str(), "bool" | "str"), "{}", o.name);
                assert!(o.players.iter().all(|p| g.players.contains(p)));
            }
        }
        assert_eq!(spoken_list(&[2, 3, 4]), "2, 3 or 4");
        assert_eq!(spoken_list(&[3, 4]), "3 or 4");
    }
}
