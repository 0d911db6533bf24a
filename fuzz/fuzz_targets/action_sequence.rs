//! Sequences of decisions driven by the input: mostly legal actions chosen by index (so games go deep),
//! sometimes arbitrary ids. Illegal ids are refused without change; legal ones keep every invariant.
#![no_main]
use brass_core::{apply, invariants, rules, Game};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

/// Every game and option the engine plays: (game, players, options set to true).
const CONFIGS: &[(&str, i64, &[&str])] = &[
    ("lancashire", 2, &[]),
    ("lancashire", 3, &[]),
    ("lancashire", 4, &[]),
    ("brass", 3, &[]),
    ("brass", 4, &[]),
    ("lancashire", 2, &["intro"]),
    ("lancashire", 3, &["classic_deck"]),
    ("lancashire", 4, &["classic_deck", "virtual_link"]),
    ("lancashire", 3, &["intro", "virtual_link"]),
    ("lancashire", 4, &["virtual_link"]),
    ("birmingham", 2, &[]),
    ("birmingham", 3, &[]),
    ("birmingham", 4, &[]),
    ("birmingham", 3, &["intro"]),
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    // The first byte picks a configuration (docs/classic.md); 0, 1, 2 are Lancashire at 2, 3, 4 players.
    let (name, players, options) = CONFIGS[data[0] as usize % CONFIGS.len()];
    let options: BTreeMap<String, serde_json::Value> =
        options.iter().map(|&o| (o.to_string(), serde_json::Value::Bool(true))).collect();
    let seed = u64::from_le_bytes(data[1..9].try_into().expect("8 bytes"));
    let game = Game::new(name, players, &options).expect("a configuration of the catalog");
    let mut state = apply::new_state(&game, seed);
    let mut ids = Vec::new();
    let mut bytes = data[9..].iter().copied();
    while let Some(b) = bytes.next() {
        if state.is_terminal() {
            break;
        }
        let id = if b < 240 {
            ids.clear();
            rules::legal_actions(&game, &state, &mut ids);
            ids[b as usize % ids.len()] as i64
        } else {
            // An arbitrary id, possibly out of range.
            let lo = bytes.next().unwrap_or(0) as i64;
            (((b as i64 - 240) << 8) | lo) - 8
        };
        let before = state;
        match apply::apply(&game, &mut state, id) {
            Ok(()) => invariants::validate(&game, &state).expect("legal actions keep the state valid"),
            Err(_) => assert_eq!(state, before, "a refused action changes nothing"),
        }
    }
});
