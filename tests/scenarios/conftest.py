"""Hand-built positions for rule scenario tests, through the public API only.

`position(players)` is a `brass.Position` (python/brass/position.py: a fresh game's JSON cleared to a neutral
mid-game position, with edits — tiles, links, cards, money, ... — that keep the JSON consistent) with the
conventions these tests were written for (below); `.state()` loads it with `engine.State.from_json`. Tests
then use `legal_actions`, `apply` and `to_json`. `position(players, game="brass")` and
`position(players, intro=True, ...)` build positions of the other configurations of docs/classic.md.
"""

from __future__ import annotations

import json

import pytest

import brass


class Position(brass.Position):
    """`brass.Position` with the scenario tests' conventions: player 0 starts with two Manchester cards;
    when the position is loaded every hand but the one of the player to move is topped up to what the round
    needs, whether set or not (the mover's hand is exactly the scenario's); `set_cards` deals every card
    afresh (`brass.Position.cards`); `obj` is the state object under edit, which tests may change directly;
    `last_action_of_round` and `end_of_era` set up the end of a round or era."""

    def __init__(
        self,
        engine,
        players: int = 4,
        era: str = "canal",
        round: int = 2,
        seed: int = 1,
        game: str = "lancashire",
        **options,
    ) -> None:
        super().__init__(game, players, era=era, round=round, seed=seed, engine=engine, **options)
        self.set_cards({0: ["manchester", "manchester"]})

    @property
    def obj(self) -> dict:
        """The state object being edited (docs/state-format.md)."""
        return self._obj

    def set_cards(self, hands: dict, deck=None, deck_tile=None, removed=None) -> Position:
        """Give exact hands (the others empty, topped up when loaded); `deck` lists the draw pile (default
        empty); the deck tile and `removed` get the cards given or the configuration's number of left-over
        cards; all other cards go to the discard piles."""
        return self.cards(hands, deck=deck or (), deck_tile=deck_tile, removed=removed)

    def _fills(self, player: int, to_move: bool) -> bool:
        return not to_move

    def last_action_of_round(self, player: int | None = None) -> Position:
        """The last player in turn order is to take the last action of the round (one card in hand)."""
        order = self.obj["turn_order"]
        player = order[-1] if player is None else player
        self.obj.update(turn=order.index(player), actions_left=1, decision="action", action=None)
        return self

    def end_of_era(self, card: str = "manchester") -> Position:
        """The last action of the era's last round: every hand empty but the last player's single card."""
        self.obj["round"] = self.game.rounds_per_era
        last = self.obj["turn_order"][-1]
        self.set_cards({last: [card]}, deck=[])
        return self.last_action_of_round()


@pytest.fixture
def position(engine):
    """`position(players=4, era="canal", round=2, game="lancashire", **options)` -> a Position for the engine
    under test (any configuration of docs/classic.md)."""

    def make(
        players: int = 4, era: str = "canal", round: int = 2, seed: int = 1, game: str = "lancashire", **options
    ) -> Position:
        return Position(engine, players, era, round, seed, game, **options)

    return make


# --- small helpers for reading results ----------------------------------------------------------------


def names(state) -> list[str]:
    return [state.game.action_name(a) for a in state.legal_actions()]


def obj(state) -> dict:
    return json.loads(state.to_json())


def do(state, *actions: str):
    """Apply notations in order."""
    for a in actions:
        state.apply(a)
    return state


@pytest.fixture
def h():
    """Helpers: h.names(state), h.obj(state), h.do(state, *notations)."""

    class H:
        pass

    helper = H()
    helper.names, helper.obj, helper.do = names, obj, do
    return helper
