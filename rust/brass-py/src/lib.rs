//! The Python binding of brass-core: wrappers, error mapping, GIL release, numpy buffers. No rules here.
//!
//! Every entry point reads its arguments through `args.rs` and runs core code through `errors.rs`
//! (`guard`, or `detached` for long work, which releases the GIL): core errors become the `brass.BrassError`
//! subclasses of `brass._errors` (the same classes the pure-Python reference engine raises), and a Rust
//! panic, which would be a bug, becomes a `BrassError` instead of an interpreter-level `PanicException`.
//! The files run in one direction (docs/architecture.md, "Layers"; `tests/test_layers.py`).
mod agents;
mod args;
mod batch;
mod errors;
mod game;
mod net;
mod picture;
mod search;
mod state;
mod stream;
mod wrappers;

use pyo3::prelude::*;

/// `brass._brass`, with its submodules `agents` and `search` (also importable as `brass._brass.agents` and
/// `brass._brass.search`, so that their stubs are checked like the rest).
#[pymodule]
fn _brass(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // rust-numpy imports NumPy's C API on the first array it makes, running Python code: after a long call
    // that released the GIL, a Ctrl-C pending by then made that import fail and the failure a panic
    // (`PanicException`) instead of a `KeyboardInterrupt`. Imported here, at the module's import, it is done.
    numpy::PyArray1::<u8>::zeros(py, 0, false);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<wrappers::Game>()?;
    m.add_class::<wrappers::State>()?;
    m.add_class::<state::PlayerView>()?;
    m.add_class::<batch::RolloutResult>()?;
    m.add_class::<batch::VecEnv>()?;
    m.add_function(wrap_pyfunction!(batch::rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(game::games, m)?)?;
    m.add_function(wrap_pyfunction!(state::replay, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(state::_state_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(stream::_samples_of_game, m)?)?;
    m.add_function(wrap_pyfunction!(picture::_svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(picture::_svg_to_rgb, m)?)?;

    let agents_mod = submodule(m, "agents")?;
    agents_mod.add_class::<wrappers::Agent>()?;
    agents_mod.add_class::<agents::Random>()?;
    agents_mod.add_class::<agents::Greedy>()?;
    agents_mod.add_class::<agents::Mcts>()?;
    agents_mod.add_class::<agents::GameResult>()?;
    agents_mod.add_class::<stream::GameStream>()?;
    agents_mod.add_class::<wrappers::Net>()?;
    agents_mod.add_class::<net::NetMcts>()?;
    agents_mod.add_function(wrap_pyfunction!(agents::play_games, &agents_mod)?)?;
    agents_mod.add_function(wrap_pyfunction!(agents::evaluate, &agents_mod)?)?;
    agents_mod.add_function(wrap_pyfunction!(agents::placings, &agents_mod)?)?;
    agents_mod.add("PRETRAINED", net::pretrained_dict(py)?)?;

    let search_mod = submodule(m, "search")?;
    search_mod.add_class::<search::SearchGames>()?;
    search_mod.add_class::<search::SearchGame>()?;
    search_mod.add_function(wrap_pyfunction!(search::analyse, &search_mod)?)?;
    Ok(())
}

/// A new submodule `name` of `m`: its attribute, and in `sys.modules` under its full name, which is also its
/// `__name__` (and its functions' `__module__`). PyO3's submodules are attributes only, which
/// `import brass._brass.agents`, pickle and stubtest would not find.
fn submodule<'py>(m: &Bound<'py, PyModule>, name: &str) -> PyResult<Bound<'py, PyModule>> {
    let py = m.py();
    let full = format!("{}.{name}", m.name()?);
    let sub = PyModule::new(py, &full)?;
    m.add(name, &sub)?;
    py.import("sys")?.getattr("modules")?.set_item(full, &sub)?;
    Ok(sub)
}
