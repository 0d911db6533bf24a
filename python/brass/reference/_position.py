"""The position: the plain dict every rules function reads and changes (docs/state-format.md, "The state object").

It holds ints, strs, bools, lists and dicts only. Spaces, lines and players are indices inside (`board` is
space index -> tile, `links` is line index -> owner); names appear only in the JSON (`_json.py`). Nothing derived is
stored in it: networks, connections and legal actions are recomputed from it every time.

The sections every game has are required keys below. A game module adds its own sections (marked `NotRequired`
here, with the module that owns them): the Lancashire family's `dcm` and `deck_tile` (`_lancashire.py`), the
classic Brass player key `built_industry` (C-6, R-14) and Birmingham's `merchants` (`_birmingham.py`).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

CardCounts = dict[str, int]
"""Card kind -> count, zero counts omitted (hands, discards, the deck tile, the removed cards)."""

Action = tuple[Any, ...]
"""What an action id means, its kind first (`_actions.py`): ("build", space, industry, double), ("link", line),
("develop", industry), ("sell", mill space, sale target), ("loan", amount), ("scout",), ("pass",), ("coal", space),
("iron", space), ("beer", space), ("merchant_beer", sale target), ("stop",), ("card", kind), ("remove", space)."""

SaleTarget = int | None
"""What a sale goes to, as the game module numbers it (Lancashire: a port space, or None for the Distant Cotton
Market)."""


class TilePos(TypedDict):
    """An industry tile on the board."""

    owner: int
    industry: str
    level: int
    flipped: bool
    cubes: int


class PlayerPos(TypedDict):
    """One player's counters, hand and mat."""

    money: int
    money_spent: int
    income_space: int
    vp: int
    hand: CardCounts
    discards: CardCounts
    mat: dict[str, int]  # industry -> tiles left on the mat
    links_left: int
    built_industry: NotRequired[bool]  # classic Brass only (C-6, R-14): has built an industry tile in this game


class ActionPos(TypedDict):
    """The action under way (docs/state-format.md, "`action`"); `target` is a space (build, and the tile being sold
    while a sale is under way) or a line (link). `beer`, `merchant` and `merchant_beer` are in every action; only a
    game whose sales and rails take beer writes them to JSON (Birmingham, docs/birmingham.md): the barrels still to
    take, the sale target of the sale under way, whether that sale took the target's own barrel."""

    kind: str
    double: bool
    target: int | None
    coal: int
    iron: int
    count: int
    cards: list[str] | None
    first_card: str | None
    beer: int
    merchant: SaleTarget
    merchant_beer: bool


class MerchantPos(TypedDict):
    """One merchant space in use (Birmingham, `_birmingham.py`): its merchant tile and whether its barrel is there."""

    tile: str
    beer: bool


class DcmPos(TypedDict):
    """The Distant Cotton Market (Lancashire family, `_lancashire.py`): the marker, the face-down pile (top
    first) and the discards (ascending)."""

    marker: int
    pile: list[int]
    discards: list[int]


class Position(TypedDict):
    """One position of a game."""

    rng: int
    era: str
    round: int
    turn_order: list[int]
    turn: int
    actions_left: int
    decision: str
    action: ActionPos | None
    players: list[PlayerPos]
    board: dict[int, TilePos]  # space index -> tile
    links: dict[int, int]  # line index -> owner
    coal_market: int
    iron_market: int
    deck: list[str]  # the draw pile, next card first
    removed: CardCounts  # cards removed from the game unseen (C-3, L-56)
    # The Lancashire family's sections (`_lancashire.py`).
    dcm: NotRequired[DcmPos]
    deck_tile: NotRequired[CardCounts]  # cards under the deck tile (L-3)
    # Birmingham's section (`_birmingham.py`): merchant space index -> its tile and barrel (B-3).
    merchants: NotRequired[dict[int, MerchantPos]]


def new_action(
    kind: str,
    *,
    double: bool = False,
    target: int | None = None,
    coal: int = 0,
    iron: int = 0,
    cards: list[str] | None = None,
) -> ActionPos:
    """The `action` object of docs/state-format.md for an action that starts now."""
    return {
        "kind": kind,
        "double": double,
        "target": target,
        "coal": coal,
        "iron": iron,
        "count": 0,
        "cards": cards,
        "first_card": None,
        "beer": 0,
        "merchant": None,
        "merchant_beer": False,
    }
