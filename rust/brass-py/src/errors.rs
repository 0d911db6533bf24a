//! One mapping from core errors to the `brass.BrassError` family, and the boundary guards every entry
//! point goes through (polars style: errors mapped once, long calls release the GIL in one helper,
//! [`detached`]). The classes are those of `brass._errors`, the only Python module of the package the
//! binding imports for its own sake (the display hooks of `state.rs` aside).
use brass_core::Error;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

static BRASS_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CONFIG_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_ACTION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static INVALID_STATE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static NOTATION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ARGUMENT_TYPE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PLAYER_INDEX_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `brass.ArgumentTypeError` (also a TypeError): an argument of the wrong type.
pub(crate) fn type_error(py: Python<'_>, msg: String) -> PyErr {
    raise(py, &ARGUMENT_TYPE_ERROR, "ArgumentTypeError", msg)
}

/// Whether an error met while reading an argument must reach the caller as it is rather than become a message
/// about the argument: an exception that is not an `Exception` — a KeyboardInterrupt from a Ctrl-C that arrived
/// while Python code ran to read the argument (`pathlib.Path.__fspath__`, `json.dumps`, a Python `__index__`),
/// or a SystemExit.
pub(crate) fn passes_on(py: Python<'_>, e: &PyErr) -> bool {
    !e.is_instance_of::<pyo3::exceptions::PyException>(py)
}

/// The error of an argument that could not be read: `bad()`, the message naming the argument, unless the error
/// [`passes_on`].
pub(crate) fn unread(py: Python<'_>, e: PyErr, bad: impl FnOnce() -> PyErr) -> PyErr {
    if passes_on(py, &e) {
        e
    } else {
        bad()
    }
}

/// `brass.ConfigError`: a value out of range, or a configuration the engine refuses.
pub(crate) fn config_error(py: Python<'_>, msg: String) -> PyErr {
    to_py(py, Error::Config(msg))
}

/// `brass.PlayerIndexError` (also an IndexError): no such player.
pub(crate) fn player_index_error(py: Python<'_>, msg: String) -> PyErr {
    raise(py, &PLAYER_INDEX_ERROR, "PlayerIndexError", msg)
}

/// Raise one of brass's exception classes (looked up once, lazily: `brass._errors` is pure Python).
fn raise(py: Python<'_>, cell: &'static PyOnceLock<Py<PyType>>, name: &str, msg: String) -> PyErr {
    match cell.import(py, "brass._errors", name) {
        Ok(cls) => PyErr::from_type(cls.clone(), msg),
        Err(e) => e,
    }
}

/// The `brass.BrassError` subclass of a core error.
pub(crate) fn to_py(py: Python<'_>, err: Error) -> PyErr {
    match err {
        Error::Config(m) => raise(py, &CONFIG_ERROR, "ConfigError", m),
        Error::IllegalAction(m) => raise(py, &ILLEGAL_ACTION_ERROR, "IllegalActionError", m),
        Error::InvalidState(m) => raise(py, &INVALID_STATE_ERROR, "InvalidStateError", m),
        Error::Notation(m) => raise(py, &NOTATION_ERROR, "NotationError", m),
    }
}

/// Run core code at the boundary: map its errors, and turn a panic (a bug) into a BrassError.
pub(crate) fn guard<T>(py: Python<'_>, f: impl FnOnce() -> brass_core::Result<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(panic) => Err(internal_error(py, panic_message(&*panic))),
    }
}

/// A `BrassError` for a bug in the engine (a panic caught on a worker thread, say).
pub(crate) fn internal_error(py: Python<'_>, what: String) -> PyErr {
    raise(
        py,
        &BRASS_ERROR,
        "BrassError",
        format!("internal error in the brass engine (please report it): {what}"),
    )
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Run long core work with the GIL released (other Python threads keep running), mapping errors and
/// panics like [`guard`].
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> brass_core::Result<T> + Send,
) -> PyResult<T> {
    let result = py.detach(|| catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_message(&*p)));
    match result {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(what) => Err(internal_error(py, what)),
    }
}

/// How often the caller's thread asks Python for a signal while [`interruptible`] work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Run long core work that can be given up (a large search, a batch of games) with the GIL released, like
/// [`detached`], and answer a Ctrl-C while it runs. The work runs on a thread of its own; this thread, the
/// caller's (where Python runs its signal handlers), asks Python every [`SIGNAL_POLL`] whether a signal came.
/// If a handler raised (KeyboardInterrupt), `stop` is set, the work — which looks at it and gives up with
/// `None` — is awaited, and the handler's exception is raised. Work not stopped returns as soon as it is done.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> brass_core::Result<Option<T>> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    // The work is taken by whichever thread runs it: the new one, or this one if no thread can be had.
    let slot = Mutex::new(Some(work));
    let run = |stop: &AtomicBool| {
        let work = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        let work = work.expect("the work is run once");
        catch_unwind(AssertUnwindSafe(|| work(stop))).map_err(|p| panic_message(&*p))
    };
    let (outcome, raised) = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let (stop, run) = (&stop, &run);
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                // The receiver waits for this answer: it is never gone before it.
                let _ = tx.send(run(stop));
            });
            if spawned.is_err() {
                // A process at its limit of threads: the work runs here, and answers a Ctrl-C only when it ends.
                return (run(stop), None);
            }
            let mut raised: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(outcome) => return (outcome, raised),
                    Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            stop.store(true, Ordering::Relaxed);
                            raised = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        return (
                            Err("the worker thread ended without an answer".into()),
                            raised,
                        )
                    }
                }
            }
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    match outcome {
        Ok(Ok(Some(v))) => Ok(v),
        Ok(Ok(None)) => Err(internal_error(
            py,
            "the work stopped with no signal to stop it".into(),
        )),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(what) => Err(internal_error(py, what)),
    }
}
