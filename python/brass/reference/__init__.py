"""brass.reference — an independent, pure-Python rules engine for the Brass games of the catalog (Brass: Lancashire,
classic Brass and Brass: Birmingham).

Written from the rules (docs/rules.md: L-… Lancashire, C-… classic Brass, R-… rulings; docs/birmingham.md: B-…) and
the project's contracts (docs/actions.md, docs/state-format.md, docs/classic.md, docs/birmingham.md) to be compared
decision by decision with the Rust engine.
Same public surface as `brass`: `Game`, `State`, `replay` and the exception family. The layout (shared mechanics by
concept, one module per game) is in docs/reference-notes.md.
"""

from brass._errors import (
    ArgumentTypeError,
    BrassError,
    ConfigError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    PlayerIndexError,
)

from ._catalog import games
from ._state import Game, PlayerView, State, replay

__all__ = [
    "ArgumentTypeError",
    "BrassError",
    "ConfigError",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "PlayerIndexError",
    "PlayerView",
    "State",
    "games",
    "replay",
]
