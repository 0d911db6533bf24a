"""`State`: one position of a game, its decisions, JSON, records and pickling (DESIGN.md "Python API")."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from brass._errors import ArgumentTypeError, IllegalActionError, InvalidStateError, NotationError, PlayerIndexError

from ._actions import as_index
from ._checks import check_dict, check_int, check_list, fail
from ._game import Game
from ._json import check_game, dumps, from_obj, game_obj, parse_text, to_obj
from ._legal import legal_actions, why_illegal
from ._position import Position, copy_position
from ._resolve import apply_decision
from ._resources import income_level
from ._rules import Rules
from ._scoring import winners
from ._turns import current_player

RECORD_FORMAT = "brass-record/1"


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
        from brass.svg import board

        return board(self)

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
        from brass.text import board

        return board(self)

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
