//! Rules engine for the Brass board games: Brass: Lancashire (Roxley 2018) with its options, the original
//! Brass (Warfrog 2007) and Brass: Birmingham (Roxley 2018) (docs/architecture.md).
//!
//! Pure Rust, no Python: the PyO3 binding lives in the `brass-py` crate. A [`Game`] is an immutable
//! configuration; a [`State`] is a small `Copy` position; rules are functions of both.
// Index loops over players, spaces and card kinds read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

pub mod actions;
pub mod agents;
pub mod apply;
pub mod catalog;
pub mod context;
pub mod data;
pub mod error;
pub mod game;
pub mod games;
pub mod gumbel;
pub mod hidden;
pub mod income;
pub mod invariants;
pub mod json;
pub mod market;
pub mod net;
pub mod net_agents;
pub mod network;
pub mod observation;
pub mod puct;
pub mod rng;
pub mod rollout;
pub mod rules;
pub mod sample;
pub mod search_games;
pub mod selfplay;
pub mod state;
pub mod vecenv;

pub use actions::Action;
pub use error::{Error, Result};
pub use game::{Era, Game};
pub use rng::Rng;
pub use state::{Decision, State};
