"""The field checks of the state loader (docs/state-format.md "Validation"): each raises InvalidStateError naming
the field and the problem, or returns the value. Used by `_json.py` for the shared sections and by a game module for
its own sections."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, NoReturn

from brass._errors import InvalidStateError


def fail(message: str) -> NoReturn:
    raise InvalidStateError(message)


def check_int(value: object, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        fail(f"{path} must be an integer, not {json.dumps(value)[:40]}")
    if lo is not None and value < lo:
        fail(f"{path} is {value}, below the minimum {lo}")
    if hi is not None and value > hi:
        fail(f"{path} is {value}, above the maximum {hi}")
    return value


def check_bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        fail(f"{path} must be true or false")
    return value


def check_str(value: object, path: str, allowed: Collection[str] | None = None) -> str:
    if not isinstance(value, str):
        fail(f"{path} must be a string")
    if allowed is not None and value not in allowed:
        shown = ", ".join(list(allowed)[:8]) + (", …" if len(allowed) > 8 else "")
        fail(f"{path} is {value!r}, expected one of: {shown}")
    return value


def check_dict(
    value: object, path: str, keys: set[str] | None = None, optional: set[str] | frozenset[str] = frozenset()
) -> dict[str, Any]:
    """An object with exactly the `keys` (and any of the `optional` ones)."""
    if not isinstance(value, dict):
        fail(f"{path} must be an object")
    if keys is not None:
        missing = sorted(keys - set(value))
        if missing:
            fail(f"{path} lacks the key {missing[0]!r}")
        extra = sorted(set(value) - keys - optional)
        if extra:
            fail(f"{path} has an unknown key {extra[0]!r}")
    return value


def check_list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        fail(f"{path} must be a list")
    return value


def check_counts(value: object, path: str, kinds: list[str]) -> dict[str, int]:
    """A card-kind -> count object, zero counts omitted."""
    counts = check_dict(value, path)
    for kind, count in counts.items():
        check_str(kind, f"{path} key", kinds)
        check_int(count, f"{path}.{kind}", 1)
    return {k: counts[k] for k in kinds if k in counts}
