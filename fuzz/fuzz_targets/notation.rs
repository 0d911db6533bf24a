//! Arbitrary text as action notation: never a panic; whatever parses prints back to itself.
#![no_main]
use brass_core::Game;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One game of each action-id layout: Lancashire (ports, the double build) and Birmingham (merchants, beer,
/// Scout).
fn games() -> &'static [Game; 2] {
    static GAMES: OnceLock<[Game; 2]> = OnceLock::new();
    GAMES.get_or_init(|| {
        let none = BTreeMap::new();
        [
            Game::new("lancashire", 4, &none).expect("lancashire"),
            Game::new("birmingham", 4, &none).expect("birmingham"),
        ]
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for g in games() {
        if let Ok(id) = g.parse_action(text) {
            let name = g.action_name(id as i64).expect("a parsed id has a name");
            assert_eq!(g.parse_action(&name).expect("names parse"), id);
        }
    }
});
