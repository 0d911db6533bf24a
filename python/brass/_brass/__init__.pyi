"""Types of the Rust extension module (rust/brass-py), with its submodules `agents` and `search` (this folder's
`agents.pyi` and `search.pyi`); `tests/test_stub.py` checks all three with stubtest."""

from typing import Any, Literal, final

import numpy as np
import numpy.typing as npt

from . import agents as agents
from . import search as search

__all__ = [
    "__version__",
    "Game",
    "State",
    "PlayerView",
    "RolloutResult",
    "VecEnv",
    "rollouts",
    "games",
    "replay",
    "_game_from_json",
    "_state_from_pickle",
    "_samples_of_game",
    "_svg_to_png",
    "_svg_to_rgb",
    "agents",
    "search",
]

__version__: str

@final
class Game:
    """An immutable game configuration: `Game("lancashire", players=4)`, `Game("brass", players=3)`.

    Options (docs/classic.md), all `bool`, Lancashire only: `intro` (L-54), `virtual_link` (L-55),
    `classic_deck` (L-56, 3-4 players); `variant="community-2p"` (L-57) raises ConfigError. Unknown names,
    non-bool values and player counts the game lacks raise ConfigError."""

    def __new__(cls, name: str, players: int | None = None, **options: Any) -> Game:
        """`options`: intro, virtual_link, classic_deck (bool; Lancashire) — see above. `players` is needed:
        without it, an ArgumentTypeError names the game's player counts."""
    @property
    def name(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def num_actions(self) -> int:
        """Size of the fixed action-id space; ids are `range(num_actions)`."""
    @property
    def spaces(self) -> list[str]: ...
    @property
    def lines(self) -> list[str]: ...
    @property
    def industries(self) -> list[str]: ...
    @property
    def card_kinds(self) -> list[str]: ...
    @property
    def rounds_per_era(self) -> int:
        """Rounds in each era (L-7; C-2 and L-56: 10 at 3 players)."""
    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions in one game (docs/actions.md)."""
    @property
    def observation_size(self) -> int: ...
    @property
    def observation_layout(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, length, meaning) of each block of the observation (docs/observation.md)."""
    def action_name(self, action: int) -> str:
        """The notation of an action id (IllegalActionError if out of range, ArgumentTypeError if not an int)."""
    def parse_action(self, text: str) -> int:
        """The id of a notation (NotationError if the text names no action, ArgumentTypeError if not a str)."""
    def new_state(self, seed: int | None = None) -> State:
        """A new game; `seed` is an int in [0, 2**64) and fixes all hidden information. Without one a fresh
        seed is drawn from the operating system; `state.seed` and the record keep it."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class PlayerView:
    """A snapshot of one player's holdings."""

    @property
    def money(self) -> int: ...
    @property
    def money_spent(self) -> int: ...
    @property
    def income_level(self) -> int: ...
    @property
    def income_space(self) -> int: ...
    @property
    def vp(self) -> int: ...
    @property
    def hand(self) -> list[str]: ...
    @property
    def discards(self) -> list[str]: ...
    @property
    def mat(self) -> dict[str, int]: ...
    @property
    def links_left(self) -> int: ...

@final
class State:
    """A game position; `apply` changes it in place and leaves it unchanged on error."""

    @property
    def game(self) -> Game: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def round(self) -> int: ...
    @property
    def era(self) -> str: ...
    @property
    def decision(self) -> str: ...
    @property
    def turn_order(self) -> list[int]: ...
    @property
    def actions_left(self) -> int: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def board(self) -> dict[str, dict[str, Any]]:
        """Tiles on the board: space -> {"owner", "industry", "level", "flipped", "cubes"}, in space order."""
    @property
    def links(self) -> dict[str, int]:
        """Links on the board: line -> owner, in line order."""
    @property
    def merchants(self) -> dict[str, dict[str, str | bool]]:
        """Brass: Birmingham's merchant tiles: merchant space -> {"tile", "beer"} (spaces in use); {} otherwise."""
    @property
    def coal_market(self) -> int: ...
    @property
    def iron_market(self) -> int: ...
    @property
    def dcm_marker(self) -> int | None:
        """Distant Cotton Market marker, 0 (top) ... 8 (X); None in a game without it."""
    @property
    def dcm_tiles_left(self) -> int | None: ...
    @property
    def deck_tile_size(self) -> int: ...
    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
    @property
    def scores(self) -> list[int]:
        """Each player's VP so far (final VP once the game is over)."""
    @property
    def winners(self) -> list[int]:
        """The winners after tie-breaks; empty until the game is over."""
    @property
    def returns(self) -> list[float]:
        """Each player's zero-sum result (docs/api.md); all 0.0 before the end."""
    @property
    def history(self) -> list[int]:
        """The action ids applied since the state was made (new_state, from_json or replay)."""
    @property
    def seed(self) -> int | None:
        """The deal seed (the one drawn when `new_state` got none); None for a game from a saved position."""
    def undo(self) -> int:
        """Take back the last decision and return its id (IllegalActionError at the start of the record)."""
    def _repr_svg_(self) -> str:
        """The position as an SVG picture (`brass.svg.board`)."""
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply(self, action: int | str) -> None: ...
    def child(self, action: int | str) -> State:
        """A new state with `action` applied; this one is unchanged."""
    def clone(self) -> State: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str | bytes | dict[str, Any]) -> State: ...
    def record(self, notation: bool | None = None, headers: dict[str, str] | None = None) -> str:
        """The game record as JSON: decisions as ids (`actions`), or as notation (`moves`) with notation=True;
        `headers` (strings, like PGN's tags) describe the game."""
    def player(self, index: int) -> PlayerView: ...
    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """What `player` may know, as float32 (docs/observation.md)."""
    def resample_hidden(self, player: int, seed: int) -> State:
        """A state consistent with what `player` knows; everything hidden from them redrawn from `seed`."""
    def validate(self) -> None:
        """Check every invariant; raises InvalidStateError naming the first one broken."""
    def __eq__(self, other: object, /) -> bool: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

@final
class RolloutResult:
    @property
    def scores(self) -> npt.NDArray[np.int32]: ...
    @property
    def winners(self) -> npt.NDArray[np.bool_]: ...
    @property
    def decisions(self) -> npt.NDArray[np.int32]: ...
    @property
    def seconds(self) -> float: ...
    @property
    def threads(self) -> int: ...
    @property
    def games_per_second(self) -> float: ...

def rollouts(
    game_or_state: Game | State,
    games: int,
    seed: int | None = None,
    threads: int | None = None,
    sampler: Literal["list", "draw"] | None = None,
) -> RolloutResult:
    """Uniformly random playouts in Rust, in parallel with the GIL released; deterministic for a seed.
    `sampler`: "list" (default: the legal actions listed, one picked) or "draw" (candidates drawn until one is
    legal: also uniform over the legal actions, other games for the same seed; faster in Lancashire and classic
    Brass, slower in Birmingham)."""

@final
class VecEnv:
    """n games stepped together over preallocated numpy buffers (GIL released, parallel)."""

    def __new__(cls, game: Game, n: int, seed: int | None = None) -> VecEnv: ...
    def __len__(self) -> int: ...
    def reset(self) -> npt.NDArray[np.float32]: ...
    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
    def observations(self) -> npt.NDArray[np.float32]: ...
    def legal_action_masks(self) -> npt.NDArray[np.bool_]: ...
    @property
    def current_players(self) -> npt.NDArray[np.int32]: ...
    def sample_legal_actions(self, seed: int) -> npt.NDArray[np.int64]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def dones(self) -> npt.NDArray[np.bool_]: ...
    @property
    def scores(self) -> npt.NDArray[np.int32]: ...
    def state(self, i: int) -> State: ...

def games() -> dict[str, dict[str, Any]]:
    """The one catalog of the games: name -> {"title", "players", "options": name -> {"type", "players", "rule",
    "doc"}}."""

def replay(text: str | bytes | dict[str, Any]) -> State:
    """Replay a game record (JSON), checking every action; returns the final state."""

def _game_from_json(text: str) -> Game:
    """The configuration of a state JSON text (unpickling support)."""

def _state_from_pickle(text: str, history: list[int], seed: int | None, start: str | None) -> State:
    """Rebuild a pickled state (`State.__reduce__`)."""

def _svg_to_png(svg: str, width: int | None = None) -> bytes:
    """PNG bytes of an SVG picture drawn by resvg, `width` pixels wide (`brass.svg.png`)."""

def _svg_to_rgb(svg: str, width: int | None = None) -> tuple[npt.NDArray[np.uint8], int, int]:
    """The RGB pixels of an SVG picture, flat, with its height and width (`brass.svg.rgb`)."""

def _samples_of_game(game: Game, seed: int, actions: list[int], sample_rate: float) -> dict[str, Any]:
    """The training samples of a recorded game (`brass.selfplay.samples_of_record`)."""
