"""The dispatch point: the catalog's `family` -> the game module that plays it, and the `Rules` of a configuration.

The one module that knows every game module. It sits above them and above `_rules` (which the game modules
import for the `Rules` type), so neither reaches the other through it (docs/architecture.md, "Layers").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from . import _birmingham, _lancashire
from ._catalog import data_file, family
from ._data import load
from ._rules import GameRules, Rules

GAME_MODULES: dict[str, Callable[[Rules], GameRules]] = {
    "lancashire": _lancashire.Lancashire,  # Brass: Lancashire and its options (L-…)
    "classic": _lancashire.classic,  # classic Brass: Lancashire with the classic switches (C-…)
    "birmingham": _birmingham.Birmingham,  # Brass: Birmingham (B-…, docs/birmingham.md)
}


@cache
def _rules(name: str, players: int, options: tuple[tuple[str, bool], ...]) -> Rules:
    return Rules(load(data_file(name)), name, players, dict(options), GAME_MODULES[family(name)])


def rules(name: str, players: int, options: dict[str, bool]) -> Rules:
    """The `Rules` of a configuration whose name, player count and options are already checked."""
    return _rules(name, players, tuple(sorted(options.items())))
