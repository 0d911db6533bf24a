"""The reference engine's one way out to the rest of `brass`: the pictures a `State` shows of itself.

As python-chess's `Board` draws itself through its satellite `chess.svg`, a `State` is drawn by the package's
satellites: `_repr_svg_` (Jupyter) by `brass.svg.board`, `str()` by `brass.text.board`. Both work from the
state's public surface, so a reference state is drawn from the reference engine alone. They are imported when a
picture is first asked for, here and nowhere else in the engine, which otherwise imports nothing of `brass` but
the error family (`brass._errors`) and the RNG (`brass._rng`); tests/test_layers.py allows this seam by name.
"""

from __future__ import annotations

from typing import Any


def svg(state: Any) -> str:
    """The position as an SVG picture (`brass.svg.board`)."""
    from brass.svg import board

    return board(state)


def text(state: Any) -> str:
    """The position as a compact text picture (`brass.text.board`)."""
    from brass.text import board

    return board(state)
