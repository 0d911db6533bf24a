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
    "install_hint",
]

#: The optional extras of `pyproject.toml` and the PyPI packages each installs (a test keeps the two the same):
#: a wheel user has no clone to install `.[extra]` from, so every hint names the packages too.
EXTRAS: dict[str, tuple[str, ...]] = {
    "test": ("pytest", "hypothesis", "mypy", "safetensors", "httpx"),
    "ray": ("ray",),
    "samples": ("pyarrow",),
    "zstd": ("zstandard",),
    "arena": ("openskill", "matplotlib"),
    "learn": ("jax[cpu]", "optax", "safetensors", "matplotlib", "openskill"),
    "serve": ("starlette", "uvicorn"),
    "env": ("pettingzoo", "gymnasium", "open_spiel"),
}


def install_hint(extra: str) -> str:
    """How to install an extra, for a wheel user and for a clone:
    `pip install zstandard (or, from a clone, pip install '.[zstd]')`."""
    packages = " ".join(f"'{p}'" if "[" in p else p for p in EXTRAS[extra])
    return f"pip install {packages} (or, from a clone, pip install '.[{extra}]')"


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
        super().__init__(f"{what} needs {module}, which is not installed: {install_hint(extra)}")
        self.module = module
        self.extra = extra
