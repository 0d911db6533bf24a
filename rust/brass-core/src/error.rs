//! The one error type of the core. The Python binding maps each variant once to a `brass.BrassError` subclass.
use std::fmt;

/// Everything that can go wrong because of input from outside the engine.
///
/// The message says what was wrong and, where it helps, what would be right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Unknown game or option, unsupported player count, bad seed.
    Config(String),
    /// An action id that is not legal in the current state (the state is unchanged).
    IllegalAction(String),
    /// Malformed or inconsistent state JSON or game record.
    InvalidState(String),
    /// Text that is not the notation of any action.
    Notation(String),
}

impl Error {
    /// The message without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Config(m)
            | Error::IllegalAction(m)
            | Error::InvalidState(m)
            | Error::Notation(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// Result with the core's error.
pub type Result<T> = std::result::Result<T, Error>;

/// Why an action is not legal; shown to users after the action's notation.
pub type Why = &'static str;
