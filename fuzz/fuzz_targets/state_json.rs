//! Arbitrary text as state JSON: never a panic; an accepted state round-trips, validates, and plays on.
#![no_main]
use brass_core::{apply, invariants, json, rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((game, mut state)) = json::from_json(text) else { return };
    let canonical = json::to_json(&game, &state);
    let (_, again) = json::from_json(&canonical).expect("a loaded state reloads");
    assert_eq!(json::to_json(&game, &again), canonical);
    invariants::validate(&game, &state).expect("a loaded state is valid");
    let mut ids = Vec::new();
    for _ in 0..64 {
        if state.is_terminal() {
            break;
        }
        ids.clear();
        rules::legal_actions(&game, &state, &mut ids);
        assert!(!ids.is_empty(), "a loaded state has a legal action");
        let id = ids[canonical.len() % ids.len()];
        apply::apply(&game, &mut state, id as i64).expect("legal actions apply");
        invariants::validate(&game, &state).expect("play keeps the state valid");
    }
});
