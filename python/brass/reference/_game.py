"""`Game`: an immutable configuration (DESIGN.md "Games, rulesets, options"; docs/classic.md)."""

from __future__ import annotations

import secrets
from functools import cache
from typing import TYPE_CHECKING, Any

from brass._errors import ArgumentTypeError, ConfigError, IllegalActionError

from ._actions import ActionSpace, as_index
from ._catalog import check_options, counts_text, names, player_counts
from ._catalog import games as catalog_games
from ._rules import Rules, rules
from ._setup import new_position

if TYPE_CHECKING:
    from ._state import State


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
        from ._state import State

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


def games() -> dict[str, dict[str, Any]]:
    """The games this engine plays, from the one catalog: name -> {"title", "players", "options"}."""
    return catalog_games()
