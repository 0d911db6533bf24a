//! Arbitrary text as a game record (`json::parse_record`): never a panic; an accepted record whose actions are
//! all legal replays to a valid state, and re-written (action ids and notation alike) reads back to the same
//! record and replays to the same state.
#![no_main]
use brass_core::json::{self, RecordMoves};
use brass_core::{apply, invariants, Game, State};
use libfuzzer_sys::fuzz_target;

/// The state after `actions` from `start`, or None at the first refused action (which changes nothing).
fn replay(game: &Game, start: &State, actions: &[i64]) -> Option<State> {
    let mut state = *start;
    for &id in actions {
        let before = state;
        if apply::apply(game, &mut state, id).is_err() {
            assert_eq!(state, before, "a refused action changes nothing");
            return None;
        }
    }
    Some(state)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(record) = json::parse_record(text) else { return };
    let game = &record.game;
    invariants::validate(game, &record.start).expect("a record starts from a valid state");
    let Some(end) = replay(game, &record.start, &record.actions) else { return };
    invariants::validate(game, &end).expect("a replayed record is valid");
    let ids: Vec<u16> = record
        .actions
        .iter()
        .map(|&a| u16::try_from(a).expect("an applied id is a u16"))
        .collect();
    let start = record.seed.is_none().then_some(&record.start);
    for moves in [RecordMoves::Ids, RecordMoves::Notation] {
        let written = json::record_json(game, record.seed, start, &ids, moves);
        let again = json::parse_record(&written).expect("a written record reads back");
        assert_eq!(json::game_json(&again.game), json::game_json(game));
        assert_eq!(again.seed, record.seed);
        assert_eq!(again.actions, record.actions);
        assert_eq!(again.start, record.start, "the same starting state");
        let end_again = replay(&again.game, &again.start, &again.actions).expect("it replays");
        assert_eq!(end_again, end, "it replays to the same state");
        assert_eq!(json::to_json(game, &end_again), json::to_json(game, &end));
    }
});
