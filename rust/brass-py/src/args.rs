//! Reading arguments from Python: every wrong type or out-of-range value becomes a `BrassError` subclass
//! naming the argument (`ArgumentTypeError` for types), never a bare TypeError from argument extraction.
use crate::errors::{to_py, type_error};
use crate::game::{as_index, type_name, Game};
use crate::state::State;
use brass_core::{Error, Game as CoreGame, State as CoreState};
use pyo3::prelude::*;
use std::sync::Arc;

/// An integer argument in `lo..=hi`; out of range is an error of `kind` (usually Config).
pub(crate) fn int_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i64,
    hi: i64,
    kind: fn(String) -> Error,
) -> PyResult<i64> {
    let v = as_index(obj)
        .ok_or_else(|| type_error(py, format!("{what} must be an int, not {}", type_name(obj))))?;
    if v < lo || v > hi {
        return Err(to_py(
            py,
            kind(format!("{what} must be between {lo} and {hi}, not {obj}")),
        ));
    }
    Ok(v)
}

/// A finite float argument (ints accepted).
pub(crate) fn float_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(type_error(py, format!("{what} must be a number, not bool")));
    }
    let v: f64 = obj.extract().map_err(|_| {
        type_error(
            py,
            format!("{what} must be a number, not {}", type_name(obj)),
        )
    })?;
    if !v.is_finite() {
        return Err(to_py(
            py,
            Error::Config(format!("{what} must be finite, not {v}")),
        ));
    }
    Ok(v)
}

/// A bool argument.
pub(crate) fn bool_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| {
        type_error(
            py,
            format!("{what} must be True or False, not {}", type_name(obj)),
        )
    })
}

/// A `sampler` argument: `None` (the default, `"list"`), `"list"` or `"draw"` (`brass_core::sample::Sampler`).
pub(crate) fn sampler_arg(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<brass_core::sample::Sampler> {
    use brass_core::sample::Sampler;
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Sampler::List);
    };
    let Ok(name) = obj.extract::<String>() else {
        return Err(type_error(
            py,
            format!("sampler must be 'list' or 'draw', not {}", type_name(obj)),
        ));
    };
    Sampler::from_name(&name).ok_or_else(|| {
        to_py(
            py,
            Error::Config(format!(
                "sampler is 'list' (the legal actions listed, one picked) or 'draw' (candidates drawn \
                 until one is legal), not {name:?}"
            )),
        )
    })
}

/// A `brass.Game` argument.
pub(crate) fn game_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Arc<CoreGame>> {
    obj.cast::<Game>()
        .map(|g| g.get().inner.clone())
        .map_err(|_| {
            type_error(
                py,
                format!("{what} must be a brass.Game, not {}", type_name(obj)),
            )
        })
}

/// A snapshot of a `brass.State` argument (the borrow ends before any long work).
pub(crate) fn state_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Arc<CoreGame>, CoreState)> {
    let s = obj.cast::<State>().map_err(|_| {
        type_error(
            py,
            format!("{what} must be a brass.State, not {}", type_name(obj)),
        )
    })?;
    let s = s.try_borrow().map_err(|_| {
        to_py(
            py,
            Error::InvalidState(format!("{what} is being changed by another thread")),
        )
    })?;
    Ok((s.game.clone(), s.inner))
}
