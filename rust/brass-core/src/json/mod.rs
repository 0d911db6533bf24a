//! Canonical state JSON (docs/state-format.md): written with sorted keys and no white space (`write.rs`),
//! read field by field with every type and range checked (`read.rs`, one function per section), then
//! checked against every invariant (`invariants.rs`). Game records are in `record.rs`.
pub(crate) mod fields;
mod read;
mod record;
mod write;

pub use fields::{
    game_from_value, game_json, parse_bounded, MAX_JSON_BYTES, RECORD_FORMAT, STATE_FORMAT,
};

pub use read::{from_json, from_json_in, from_value};
pub use record::{
    parse_record, record_json, seeded_record_json, with_headers, Record, RecordMoves,
};
pub use write::{state_value, to_json};
