"""brass.reference — an independent, pure-Python rules engine for Brass: Lancashire.

Written from the rules (docs/rules.md: L-… Lancashire, R-… rulings) and the project's contracts
(docs/actions.md, docs/state-format.md) to be compared decision by decision with the Rust engine.
Same public surface as `brass`: `Game`, `State`, `replay` and the exception family.
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

from ._game import Game, games
from ._state import PlayerView, State, replay

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
