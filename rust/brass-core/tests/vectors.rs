//! Golden vectors (tests/vectors/*.json, docs/verification.md): game records on which the Rust engine and the
//! Python reference agreed decision by decision, and one per divergence the differential tests found.
//! Each is replayed here: every action legal, the number of legal actions before each action as recorded,
//! and the final canonical state equal to the vector's. The same files are replayed by tests/test_vectors.py.
use brass_core::{apply, json, rules};
use serde_json::Value;
use std::fs;
use std::path::PathBuf;

fn vector_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors"))
}

fn vectors() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let entries = fs::read_dir(vector_dir()).expect("tests/vectors/ exists");
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        out.push((path.file_name().unwrap().to_string_lossy().into_owned(), v));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn replay(name: &str, v: &Value) {
    for key in [
        "description",
        "rule_ids",
        "record",
        "legal_counts",
        "final_state",
    ] {
        assert!(v.get(key).is_some(), "{name}: missing `{key}`");
    }
    let record = json::parse_record(&v["record"].to_string())
        .unwrap_or_else(|e| panic!("{name}: record does not parse: {e}"));
    let counts: Vec<u64> = v["legal_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(
        counts.len(),
        record.actions.len(),
        "{name}: one legal count per action"
    );
    let game = record.game;
    let mut state = record.start;
    let mut legal = Vec::new();
    for (i, (&id, &count)) in record.actions.iter().zip(&counts).enumerate() {
        legal.clear();
        rules::legal_actions(&game, &state, &mut legal);
        assert_eq!(
            legal.len() as u64,
            count,
            "{name}: number of legal actions before action {i}"
        );
        assert!(
            legal.iter().any(|&a| a as i64 == id),
            "{name}: action {i} ({id}) is not legal"
        );
        apply::apply(&game, &mut state, id)
            .unwrap_or_else(|e| panic!("{name}: action {i} ({id}): {e}"));
    }
    let text = json::to_json(&game, &state);
    let got: Value = serde_json::from_str(&text).unwrap();
    assert!(
        got == v["final_state"],
        "{name}: final state differs\n got: {text}\nwant: {}",
        v["final_state"]
    );
    // The canonical text is the vector's object written with sorted keys and no white space.
    assert_eq!(text, v["final_state"].to_string(), "{name}: canonical text");
}

#[test]
fn golden_vectors_replay() {
    let all = vectors();
    assert!(
        all.iter().filter(|(n, _)| n.starts_with("random_")).count() >= 6,
        "tests/vectors/ holds the random complete games (tests/vectors/make_vectors.py random)"
    );
    for (name, v) in &all {
        replay(name, v);
    }
}

#[test]
fn golden_vectors_cover_every_player_count_and_end() {
    let mut players = Vec::new();
    for (name, v) in vectors() {
        if name.starts_with("random_") && v["record"].get("seed").is_some() {
            players.push(v["record"]["game"]["players"].as_u64().unwrap());
            assert_eq!(
                v["final_state"]["decision"], "over",
                "{name}: a complete game"
            );
        }
    }
    for p in 2..=4 {
        assert!(
            players.contains(&p),
            "a complete random game at {p} players"
        );
    }
}
