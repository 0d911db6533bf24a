//! The data of the Python classes whose objects come back to the binding as arguments: `brass.Game`,
//! `brass.State`, `brass.agents.Agent` and `brass.agents.Net`.
//!
//! Their methods live in the file named after each (`game.rs`, `state.rs`, `agents.rs`, `net.rs`), which read
//! their arguments through `args.rs`; the types live here, below both, so that `args.rs` can take a `Game` or
//! a `State` without importing the files that import it (polars keeps its `PyDataFrame` apart from its
//! methods the same way).
use crate::errors::config_error;
use brass_core::agents::Agent as CoreAgent;
use brass_core::net::{game_key, Net as CoreNet};
use brass_core::{json, Game as CoreGame, State as CoreState};
use pyo3::prelude::*;
use std::sync::Arc;

/// A game configuration: `brass.Game("lancashire", players=4)`. Immutable and shareable.
#[pyclass(module = "brass", frozen, eq)]
pub(crate) struct Game {
    pub(crate) inner: Arc<CoreGame>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        json::game_json(&self.inner) == json::game_json(&other.inner)
    }
}

/// A game position. Mutable: `apply` changes it in place; `clone` copies it.
// The freelist keeps up to 64 freed objects (about 80 KB) for the next ones: a search that clones and drops
// states allocates none (clone from Python 118-125 ns instead of 143-181 ns, docs/performance.md).
#[pyclass(module = "brass", freelist = 64)]
pub(crate) struct State {
    pub(crate) game: Arc<CoreGame>,
    pub(crate) inner: CoreState,
    pub(crate) history: Vec<u16>,
    pub(crate) seed: Option<u64>,
    /// The position the record starts from (shared between clones: it never changes).
    pub(crate) start: Option<Arc<CoreState>>,
}

impl State {
    /// A state with no history that records itself as the start of its game record.
    pub(crate) fn from_core(game: Arc<CoreGame>, inner: CoreState) -> State {
        State {
            game,
            inner,
            history: Vec::new(),
            seed: None,
            start: Some(Arc::new(inner)),
        }
    }
}

/// Base class of the native agents: `choose(state, seed=0)` returns a legal action id.
#[pyclass(module = "brass.agents", subclass, frozen)]
pub(crate) struct Agent {
    pub(crate) inner: Arc<dyn CoreAgent>,
    /// The one game the agent can play (a trained network's), or None for any game.
    pub(crate) game: Option<Arc<CoreGame>>,
}

impl Agent {
    /// An error unless the agent can play `game`.
    pub(crate) fn check_game(&self, py: Python<'_>, game: &CoreGame) -> PyResult<()> {
        match &self.game {
            Some(trained) if game_key(trained) != game_key(game) => Err(config_error(
                py,
                format!(
                    "{} was trained for {}, not for {}",
                    self.inner.name(),
                    game_key(trained),
                    game_key(game)
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// A trained policy-value network, playing its raw policy: the legal action with the highest logit, no
/// search (`Net(path)`, `Net.pretrained("birmingham-2p")`). `evaluate(observations)` gives its outputs.
#[pyclass(module = "brass.agents", extends = Agent, frozen)]
pub(crate) struct Net {
    pub(crate) net: Arc<CoreNet>,
    pub(crate) game: Arc<CoreGame>,
    /// The bytes of its file, kept for pickling (a shipped network's file is at most 5 MB).
    pub(crate) file: Arc<[u8]>,
}
