"""brass: a reference-grade rules engine for the Brass board games.

    >>> import brass
    >>> game = brass.Game("lancashire", players=4)
    >>> state = game.new_state(seed=7)
    >>> state.apply(state.legal_actions()[0])

`brass.Game` / `brass.State` are backed by the Rust core; `brass.reference` is an independent pure-Python
engine with the same surface, used to check the core. `brass.Position` sets up a position by hand
(python/brass/position.py).
"""

from brass._brass import Game, PlayerView, RolloutResult, State, VecEnv, __version__, games, replay, rollouts
from brass._errors import (
    ArgumentTypeError,
    BrassError,
    ConfigError,
    IllegalActionError,
    InvalidStateError,
    MissingExtraError,
    NotationError,
    PlayerIndexError,
)
from brass.position import Position

__all__ = [
    "ArgumentTypeError",
    "BrassError",
    "ConfigError",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "MissingExtraError",
    "NotationError",
    "PlayerIndexError",
    "PlayerView",
    "Position",
    "RolloutResult",
    "State",
    "VecEnv",
    "__version__",
    "games",
    "replay",
    "rollouts",
]
