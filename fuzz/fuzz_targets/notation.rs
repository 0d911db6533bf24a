//! Arbitrary text as action notation: never a panic; whatever parses prints back to itself.
#![no_main]
use brass_core::Game;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn game() -> &'static Game {
    static GAME: OnceLock<Game> = OnceLock::new();
    GAME.get_or_init(|| Game::new("lancashire", 4, &BTreeMap::new()).expect("lancashire"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let g = game();
    if let Ok(id) = g.parse_action(text) {
        let name = g.action_name(id as i64).expect("a parsed id has a name");
        assert_eq!(g.parse_action(&name).expect("names parse"), id);
    }
});
