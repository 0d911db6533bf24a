//! The Python binding of brass-core: wrappers, error mapping, GIL release, numpy buffers. No rules here.
//!
//! Every entry point goes through [`guard`]: core errors become the `brass.BrassError` subclasses of
//! `brass._errors` (the same classes the pure-Python reference engine raises), and a Rust panic, which
//! would be a bug, becomes a `BrassError` instead of an interpreter-level `PanicException`.
mod agents;
mod args;
mod batch;
mod errors;
mod game;
mod learning;
mod picture;
mod state;
mod stream;

use pyo3::prelude::*;

use batch::{rollouts, RolloutResult, VecEnv};
use game::{_game_from_json, games, Game};
use state::{_state_from_pickle, replay, PlayerView, State};

#[pymodule]
fn _brass(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<PlayerView>()?;
    m.add_class::<RolloutResult>()?;
    m.add_class::<VecEnv>()?;
    m.add_function(wrap_pyfunction!(rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(_game_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(stream::_samples_of_game, m)?)?;
    m.add_function(wrap_pyfunction!(picture::_svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(picture::_svg_to_rgb, m)?)?;
    let agents_mod = PyModule::new(m.py(), "agents")?;
    agents_mod.add_class::<agents::Agent>()?;
    agents_mod.add_class::<agents::Random>()?;
    agents_mod.add_class::<agents::Greedy>()?;
    agents_mod.add_class::<agents::Mcts>()?;
    agents_mod.add_class::<agents::GameResult>()?;
    agents_mod.add_class::<stream::GameStream>()?;
    agents_mod.add_class::<learning::Net>()?;
    agents_mod.add_class::<learning::NetMcts>()?;
    agents_mod.add_function(wrap_pyfunction!(agents::play_games, &agents_mod)?)?;
    agents_mod.add_function(wrap_pyfunction!(agents::evaluate, &agents_mod)?)?;
    agents_mod.add_function(wrap_pyfunction!(agents::placings, &agents_mod)?)?;
    m.add_submodule(&agents_mod)?;
    let search_mod = PyModule::new(m.py(), "search")?;
    search_mod.add_class::<learning::SearchGames>()?;
    search_mod.add_class::<learning::SearchGame>()?;
    search_mod.add_function(wrap_pyfunction!(learning::analyse, &search_mod)?)?;
    m.add_submodule(&search_mod)?;
    Ok(())
}
