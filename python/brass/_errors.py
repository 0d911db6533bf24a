"""The exception family shared by both engines (the Rust-backed API and `brass.reference`).

Every error a user can cause is a `BrassError`, which is a `ValueError`, so `except ValueError` keeps working.
The Rust extension raises these very classes, so the two engines are interchangeable in `except` clauses.
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "BrassError",
    "ConfigError",
    "IllegalActionError",
    "InvalidStateError",
    "MissingExtraError",
    "NotationError",
    "PlayerIndexError",
]


class BrassError(ValueError):
    """Base class of every error raised for bad input to a brass engine."""


class ConfigError(BrassError):
    """An unknown game name or option, an unsupported player count, or a bad seed."""


class IllegalActionError(BrassError):
    """An action id that is not legal in this state; the state is left unchanged."""


class InvalidStateError(BrassError):
    """A state (JSON, pickle, game record) that is malformed or breaks the rules' invariants."""


class NotationError(BrassError):
    """Text that is not the notation of any action in this configuration."""


class ArgumentTypeError(BrassError, TypeError):
    """An argument of the wrong type (an int expected, got a float, ...). Also a `TypeError`."""


class PlayerIndexError(BrassError, IndexError):
    """A player index outside `range(players)`. Also an `IndexError`."""


class MissingExtraError(BrassError, ImportError):
    """A feature needs a library of an optional extra that is not installed. Also an `ImportError`."""

    def __init__(self, what: str, module: str, extra: str) -> None:
        super().__init__(
            f"{what} needs {module}, which is not installed: pip install '.[{extra}]' (in the brass clone)"
        )
        self.module = module
        self.extra = extra
