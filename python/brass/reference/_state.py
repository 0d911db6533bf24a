"""The public pair: `Game`, an immutable configuration (docs/api.md; the games and options in docs/classic.md and
docs/birmingham.md), and `State`, one position of it with its decisions, JSON, records and pickling (docs/api.md).

They share a module because each makes the other (`Game.new_state`, `State.game`, `State.from_json`, `replay`):
split in two, the modules would import each other (docs/architecture.md, "Layers").
"""

from __future__ import annotations

import json
import secrets
from functools import cache
from typing import Any

import numpy as np

from brass._errors import (
    ArgumentTypeError,
    ConfigError,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    PlayerIndexError,
)

from . import _display
from ._actions import ActionSpace, as_index
from ._catalog import check_options, counts_text, names, player_counts
from ._checks import check_dict, check_int, check_list, fail
from ._games import rules
from ._json import check_game, dumps, from_obj, game_obj, parse_text, to_obj
from ._legal import legal_actions, why_illegal
from ._position import Position
from ._resolve import apply_decision
from ._resources import income_level
from ._rules import Rules
from ._scoring import winners
from ._setup import new_position
from ._turns import current_player

RECORD_FORMAT = "brass-record/1"


@cache
def action_space(data: Rules) -> ActionSpace:
    """The id space of a configuration, built once (docs/actions.md; docs/classic.md: the same 523 ids for every
    configuration of the Lancashire data file)."""
    return ActionSpace(data)


class Game:
    """`Game(name, players=N, **options)`: "lancashire" with 2-4 players and the options `intro`,
    `virtual_link`, `classic_deck` (L-54 … L-56); "brass" (classic, C-1 … C-17) with 3-4 players; "birmingham"
    (B-1 … B-31) with 2-4 players and the option `intro` (B-22)."""

    __slots__ = ("_name", "_players", "_options", "_data", "_acts")

    def __init__(self, name: str, players: int | None = None, **options: Any) -> None:
        if not isinstance(name, str):
            raise ArgumentTypeError(f"the game name must be a str, not {type(name).__name__}")
        if name not in names():
            raise ConfigError(f"unknown game {name!r}; this engine implements: {', '.join(names())}")
        counts = player_counts(name)
        if players is None:
            raise ArgumentTypeError(
                f"players is needed: {name} is played by {counts_text(counts)} players, "
                f'e.g. brass.Game("{name}", players={counts[-1]})'
            )
        players = as_index(players, ArgumentTypeError, "players must be an int")
        if players not in counts:
            raise ConfigError(f"{name} is played by {counts_text(counts)} players, not {players!r}")
        chosen = check_options(name, players, options)
        self._name = name
        self._players = players
        self._options: dict[str, bool] = chosen
        self._data = rules(name, players, chosen)
        self._acts = action_space(self._data)

    @property
    def name(self) -> str:
        return self._name

    @property
    def players(self) -> int:
        return self._players

    @property
    def options(self) -> dict[str, bool]:
        return dict(self._options)

    @property
    def num_actions(self) -> int:
        return len(self._acts)

    @property
    def spaces(self) -> list[str]:
        """Space names in data order (`manchester/1`, …)."""
        return [space.name for space in self._data.spaces]

    @property
    def lines(self) -> list[str]:
        """Line names in data order (`bolton-manchester`, …)."""
        return [line.name for line in self._data.lines]

    @property
    def industries(self) -> list[str]:
        return list(self._data.industries)

    @property
    def card_kinds(self) -> list[str]:
        return list(self._data.card_kinds)

    @property
    def rounds_per_era(self) -> int:
        """Rounds in each era (L-7; C-2 and L-56: 10 at 3 players)."""
        return self._data.rounds

    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions in one game (docs/actions.md; docs/birmingham.md): at most
        `decisions_per_card` per card played (Lancashire 7: the action, a coal and an iron choice per tile or
        link, a follow-up question, the card; Birmingham 8: and a beer choice), plus `decisions_per_sale` per
        sale of a player's tiles of the sold industries (Lancashire 1; Birmingham 4: the sale, its barrels, the
        bonus) and one per tile removed for a shortfall (at most a player's tiles), for every player."""
        data, rounds = self._data, self._data.rounds
        cards = data.first_round_actions + 2 * data.actions_per_turn * rounds - data.actions_per_turn
        tiles = sum(data.stack_size(industry) for industry in data.industries)
        sold = sum(data.stack_size(industry) for industry in data.sold)
        game = data.game
        return self._players * (game.decisions_per_card * cards + game.decisions_per_sale * sold + tiles)

    def action_name(self, action_id: int) -> str:
        """The notation of an id (docs/actions.md)."""
        action_id = as_index(action_id, ArgumentTypeError, "an action is an int id or a notation str")
        if not 0 <= action_id < len(self._acts):
            raise IllegalActionError(f"action id {action_id} is out of range: ids go from 0 to {len(self._acts) - 1}")
        return self._acts.names[action_id]

    def parse_action(self, text: str) -> int:
        """The id of a notation; NotationError for a text that is not one, ArgumentTypeError for a value that is not a
        str."""
        return self._acts.parse(text)

    def new_state(self, seed: int | None = None) -> State:
        """A new game from a seed in [0, 2^64) (docs/state-format.md "When the RNG is used"); without one, a
        fresh seed from the operating system, kept in `state.seed`."""
        if seed is None:
            seed = secrets.randbits(64)
        seed = as_index(seed, ArgumentTypeError, "seed must be an int with 0 <= seed < 2**64")
        if not 0 <= seed < 1 << 64:
            raise ConfigError(f"seed must be an int with 0 <= seed < 2**64, not {seed}")
        return State._make(self, new_position(self._data, seed), [], seed, None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._name, self._players, self._options) == (other._name, other._players, other._options)

    def __hash__(self) -> int:
        return hash((self._name, self._players, tuple(sorted(self._options.items()))))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in sorted(self._options.items()))
        return f"Game({self._name!r}, players={self._players}{opts})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_game, (self._name, self._players, dict(self._options)))


def _make_game(name: str, players: int, options: dict[str, bool]) -> Game:
    return Game(name, players=players, **options)


def copy_position(data: Rules, pos: Position) -> Position:
    """An independent copy of a position (plain dicts and lists, copied level by level); the game module copies
    its own sections."""
    action = pos["action"]
    if action is not None:
        action = action.copy()
        if action["cards"] is not None:
            action["cards"] = list(action["cards"])
    players = []
    for p in pos["players"]:
        player = p.copy()
        player["hand"] = dict(p["hand"])
        player["discards"] = dict(p["discards"])
        player["mat"] = dict(p["mat"])
        players.append(player)
    copy: Position = {
        "rng": pos["rng"],
        "era": pos["era"],
        "round": pos["round"],
        "turn_order": list(pos["turn_order"]),
        "turn": pos["turn"],
        "actions_left": pos["actions_left"],
        "decision": pos["decision"],
        "action": action,
        "players": players,
        "board": {s: t.copy() for s, t in pos["board"].items()},
        "links": dict(pos["links"]),
        "coal_market": pos["coal_market"],
        "iron_market": pos["iron_market"],
        "deck": list(pos["deck"]),
        "removed": dict(pos["removed"]),
    }
    data.game.copy_sections(pos, copy)
    return copy


class PlayerView:
    """A read-only snapshot of one player's public and private counters."""

    __slots__ = ("money", "money_spent", "income_level", "income_space", "vp", "hand", "discards", "mat", "links_left")

    def __init__(self, data: Rules, pos: Position, player: int) -> None:
        p = pos["players"][player]
        self.money = p["money"]
        self.money_spent = p["money_spent"]
        self.income_space = p["income_space"]
        self.income_level = income_level(data, pos, player)
        self.vp = p["vp"]
        self.hand = [k for k in data.card_kinds for _ in range(p["hand"].get(k, 0))]
        self.discards = [k for k in data.card_kinds for _ in range(p["discards"].get(k, 0))]
        self.mat = dict(p["mat"])
        self.links_left = p["links_left"]

    def __repr__(self) -> str:
        return f"PlayerView(money={self.money}, income_level={self.income_level}, vp={self.vp}, hand={self.hand})"


class State:
    """A position. Build one with `Game.new_state(seed)` or `State.from_json(text)`."""

    __slots__ = ("_game", "_pos", "_history", "_seed", "_start")
    _game: Game
    _pos: Position
    _history: list[int]
    _seed: int | None
    _start: dict[str, Any] | None

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("use Game.new_state(seed) or State.from_json(text) to make a State")

    @classmethod
    def _make(
        cls, game: Game, pos: Position, history: list[int], seed: int | None, start: dict[str, Any] | None
    ) -> State:
        self = object.__new__(cls)
        self._game = game
        self._pos = pos
        self._history = history
        self._seed = seed
        self._start = start
        return self

    # --- read-only properties ----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self._game

    @property
    def current_player(self) -> int | None:
        return current_player(self._game._data, self._pos)

    @property
    def round(self) -> int:
        return self._pos["round"]

    @property
    def era(self) -> str:
        return self._pos["era"]

    @property
    def decision(self) -> str:
        return self._pos["decision"]

    @property
    def turn_order(self) -> list[int]:
        return list(self._pos["turn_order"])

    @property
    def actions_left(self) -> int:
        return self._pos["actions_left"]

    @property
    def deck_size(self) -> int:
        return len(self._pos["deck"])

    @property
    def board(self) -> dict[str, dict[str, Any]]:
        """Tiles on the board: space name -> {owner, industry, level, flipped, cubes}, in space order."""
        data = self._game._data
        return {data.spaces[s].name: dict(self._pos["board"][s]) for s in sorted(self._pos["board"])}

    @property
    def links(self) -> dict[str, int]:
        """Links on the board: line name -> owner, in line order."""
        data = self._game._data
        return {data.lines[i].name: self._pos["links"][i] for i in sorted(self._pos["links"])}

    @property
    def coal_market(self) -> int:
        return self._pos["coal_market"]

    @property
    def iron_market(self) -> int:
        return self._pos["iron_market"]

    # The Distant Cotton Market and the deck tile: the Lancashire family's sections (`_lancashire.py`); a game
    # without them (Birmingham) has no DCM (None) and an empty deck tile (0), as the native engine says.
    @property
    def dcm_marker(self) -> int | None:
        dcm = self._pos.get("dcm")
        return None if dcm is None else dcm["marker"]

    @property
    def dcm_tiles_left(self) -> int | None:
        dcm = self._pos.get("dcm")
        return None if dcm is None else len(dcm["pile"])

    @property
    def deck_tile_size(self) -> int:
        return sum(self._pos.get("deck_tile", {}).values())

    @property
    def merchants(self) -> dict[str, dict[str, Any]]:
        """Brass: Birmingham's merchant tiles (space -> {"tile", "beer"}, the spaces in use, in data order); {} in a
        game without merchants."""
        merchants = self._pos.get("merchants", {})
        names = dict(self._game._data.game.sale_targets())
        return {names[m]: {"tile": merchants[m]["tile"], "beer": merchants[m]["beer"]} for m in sorted(merchants)}

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (`brass.svg.board`), shown by Jupyter."""
        return _display.svg(self)

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._pos["decision"] == "over"

    def player(self, i: int) -> PlayerView:
        i = as_index(i, ArgumentTypeError, "a player index is an int")
        if not 0 <= i < self._game.players:
            raise PlayerIndexError(f"player {i} does not exist: players go from 0 to {self._game.players - 1}")
        return PlayerView(self._game._data, self._pos, i)

    @property
    def scores(self) -> list[int]:
        """Each player's VP so far (final VP once the game is over)."""
        return [p["vp"] for p in self._pos["players"]]

    @property
    def winners(self) -> list[int]:
        """L-53, R-4: the winners after tie-breaks; [] before the end."""
        return winners(self._game._data, self._pos)

    @property
    def returns(self) -> list[float]:
        """docs/api.md "Returns": zero-sum results. With n players and k winners, a winner gets (n/k - 1)/(n - 1),
        anyone else -1/(n - 1); all 0.0 before the end."""
        won = self.winners
        n = self._game.players
        if not won:
            return [0.0] * n
        return [(n / len(won) - 1) / (n - 1) if p in won else -1 / (n - 1) for p in range(n)]

    # --- decisions ---------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        return legal_actions(self._game._data, self._game._acts, self._pos)

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self._game.num_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def _action_id(self, action: object) -> int:
        acts = self._game._acts
        if isinstance(action, str):
            return acts.parse(action)
        action = as_index(action, ArgumentTypeError, "an action is an int id or a notation str")
        if not 0 <= action < len(acts):
            raise IllegalActionError(f"action id {action} is out of range: ids go from 0 to {len(acts) - 1}")
        return action

    def apply(self, action: object) -> None:
        """Take one decision (an id or its notation). On any error the state is unchanged."""
        aid = self._action_id(action)
        data, acts = self._game._data, self._game._acts
        if aid not in legal_actions(data, acts, self._pos):
            raise IllegalActionError(why_illegal(data, acts, self._pos, aid))
        pos = copy_position(data, self._pos)
        apply_decision(data, acts, pos, aid)
        self._pos = pos
        self._history.append(aid)

    def child(self, action: object) -> State:
        """A new state: this one with `action` applied; this one is unchanged. Raises like `apply`."""
        child = self.clone()
        child.apply(action)
        return child

    def undo(self) -> int:
        """Take back the last decision and return its id: the game is played again from its start (the deal
        seed or the saved position) without it. IllegalActionError, and no change, at the start."""
        if not self._history:
            raise IllegalActionError("nothing to undo: the state is at the start of its record")
        earlier = self._history[:-1]
        again = self._game.new_state(self._seed) if self._start is None else State._from_obj(self._start)
        for aid in earlier:
            again.apply(aid)
        last = self._history[-1]
        self._pos = again._pos
        self._history = earlier
        return last

    @property
    def seed(self) -> int | None:
        """The deal seed (drawn from the operating system when `new_state` was given none); None for a game set
        up from a saved position."""
        return self._seed

    @property
    def history(self) -> list[int]:
        """The action ids applied since the state was made (new_state, from_json or replay)."""
        return list(self._history)

    # --- copies ------------------------------------------------------------------------------------
    def clone(self) -> State:
        return State._make(
            self._game, copy_position(self._game._data, self._pos), list(self._history), self._seed, self._start
        )

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: object) -> State:
        return self.clone()

    # --- JSON, records, pickling -------------------------------------------------------------------
    def _obj(self) -> dict[str, Any]:
        g = self._game
        return to_obj(g._data, g.players, g._options, self._pos)

    def to_json(self) -> str:
        return dumps(self._obj())

    def validate(self) -> None:
        """Check every invariant of the position (docs/state-format.md, "Validation"); raises InvalidStateError
        naming the first one broken. The loader holds the checks, so the position is read back through it."""
        State._from_obj(json.loads(self.to_json()))

    @staticmethod
    def from_json(text: object) -> State:
        """Validate and load a state (docs/state-format.md); its history is empty."""
        obj = parse_text(text)
        return State._from_obj(obj)

    @staticmethod
    def _from_obj(obj: object) -> State:
        obj = check_dict(obj, "state")
        if "game" not in obj:
            fail("state lacks the key 'game'")
        name, players, options = check_game(obj["game"])
        game = Game(name, players=players, **options)
        pos = from_obj(game._data, players, obj)
        state = State._make(game, pos, [], None, None)
        state._start = json.loads(state.to_json())
        return state

    def record(self, notation: bool = False, headers: dict[str, str] | None = None) -> str:
        """The game record (docs/state-format.md "Game records"): the configuration, the seed or the starting
        state, and the decisions as ids (`actions`) or, with `notation=True`, as notation (`moves`); `headers`
        (strings, like PGN's tags) describe the game."""
        if not isinstance(notation, bool):
            raise ArgumentTypeError(f"notation must be True or False, not {type(notation).__name__}")
        if headers is not None:
            if not isinstance(headers, dict):
                raise ArgumentTypeError(f"headers must be a dict of str, not {type(headers).__name__}")
            for key, value in headers.items():
                if not isinstance(key, str) or not isinstance(value, str):
                    raise ArgumentTypeError(f"headers must be a dict of str: {key!r} -> {type(value).__name__}")
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": game_obj(self._game._data, self._game.players, self._game._options),
        }
        if notation:
            rec["moves"] = [self._game.action_name(a) for a in self._history]
        else:
            rec["actions"] = list(self._history)
        if self._start is not None:
            rec["start"] = self._start
        else:
            rec["seed"] = self._seed
        if headers:
            rec["headers"] = dict(headers)
        return dumps(rec)

    def __getstate__(self) -> dict[str, Any]:
        return {
            "state": self.to_json(),
            "history": list(self._history),
            "seed": self._seed,
            "start": None if self._start is None else dumps(self._start),
        }

    def __setstate__(self, st: dict[str, Any]) -> None:
        try:
            loaded = State.from_json(st["state"])
            history = [check_int(a, "history entry", 0) for a in st["history"]]
            seed = st["seed"]
            start = None if st["start"] is None else json.loads(st["start"])
        except (KeyError, TypeError) as e:
            raise InvalidStateError(f"not a pickled brass.reference State: {e}") from None
        self._game = loaded._game
        self._pos = loaded._pos
        self._history = history
        self._seed = seed
        self._start = start

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._game == other._game and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __str__(self) -> str:
        """A compact text picture of the position (`brass.text.board`)."""
        return _display.text(self)

    def __repr__(self) -> str:
        if self.is_terminal:
            return f"<State {self._game.name} {self._game.players}p over, scores {self.scores}>"
        return (
            f"<State {self._game.name} {self._game.players}p {self.era} round {self.round}, "
            f"player {self.current_player} to decide {self.decision}>"
        )


def parse_move(game: Game, move: object, i: int) -> int:
    """One entry of a record's `moves`: the notation of an action of this game."""
    if not isinstance(move, str):
        fail(f"record.moves[{i}] must be a notation string")
    try:
        return game.parse_action(move)
    except NotationError as e:
        fail(f"record.moves[{i}]: {e}")


def replay(text: object) -> State:
    """Replay a game record (docs/state-format.md "Game records"; JSON text, bytes or a dict): IllegalActionError
    for an illegal id, InvalidStateError for a malformed record."""
    obj = parse_text(text, "a game record")
    obj = check_dict(obj, "record")
    keys = set(obj)
    if "seed" in keys and "start" in keys:
        fail("a record has either `seed` or `start`, not both")
    start_key = "seed" if "seed" in keys else "start"
    if "actions" in keys and "moves" in keys:
        fail("a record has either `actions` (ids) or `moves` (notation), not both")
    moves_key = "moves" if "moves" in keys else "actions"
    check_dict(obj, "record", {"format", "game", moves_key, start_key}, optional={"headers"})
    if "headers" in obj:
        for key, value in check_dict(obj["headers"], "record.headers").items():
            if not isinstance(value, str):
                fail(f"record.headers.{key}: expected a string, not {dumps(value)}")
    if obj["format"] != RECORD_FORMAT:
        fail(f"record format must be {RECORD_FORMAT!r}")
    name, players, options = check_game(obj["game"], "record.game")
    game = Game(name, players=players, **options)
    entries = check_list(obj[moves_key], moves_key)
    if moves_key == "actions":
        actions = [check_int(a, f"actions[{i}]") for i, a in enumerate(entries)]
    else:
        actions = [parse_move(game, m, i) for i, m in enumerate(entries)]
    if start_key == "seed":
        seed = check_int(obj["seed"], "seed", 0, (1 << 64) - 1)
        state = game.new_state(seed)
    else:
        state = State._from_obj(obj["start"])
        if state.game != game:
            fail("record.start is a state of another game than record.game")
    for a in actions:
        state.apply(a)
    return state
