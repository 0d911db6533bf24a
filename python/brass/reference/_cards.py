"""Cards and the deck (L-2, L-3, L-8, L-9, L-21, C-3, C-4, B-17): counting, dealing, removing unseen, refilling,
discarding, and which cards may pay for the action under way.

Hands, discards and the removed cards are card kind -> count (zero counts omitted); the draw pile is a list, next
card first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._position import CardCounts, Position

if TYPE_CHECKING:
    from ._rules import Rules


def count_cards(cards: list[str]) -> CardCounts:
    """Card kind -> count of a list of cards (in the order each kind first appears)."""
    counts: CardCounts = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def deal(data: Rules, pos: Position, deck: list[str]) -> list[str]:
    """L-3, C-3: each player in seat order takes 8 cards from the top of `deck` (discards emptied); returns the
    rest."""
    for p in pos["players"]:
        p["hand"] = count_cards(deck[: data.hand_size])
        p["discards"] = {}
        deck = deck[data.hand_size :]
    return deck


def remove_unseen(pos: Position, deck: list[str], count: int) -> list[str]:
    """C-3, L-56: the next `count` cards from the top of `deck` leave the game unseen (`removed`); returns the
    rest."""
    pos["removed"] = count_cards(deck[:count])
    return deck[count:]


def refill(data: Rules, pos: Position, player: int) -> None:
    """L-9, C-4: draw from the top of the draw pile until the hand holds 8 cards or the pile is empty."""
    me = pos["players"][player]
    while pos["deck"] and sum(me["hand"].values()) < data.hand_size:
        card = pos["deck"].pop(0)
        me["hand"][card] = me["hand"].get(card, 0) + 1


def move_to_discards(data: Rules, pos: Position, player: int, kind: str) -> None:
    """L-8: one card of `kind` goes from the player's hand to their discards; B-17: a wild card goes back to its
    pile instead (the piles are not in the position: a pile holds the wild cards of its kind no hand holds)."""
    me = pos["players"][player]
    me["hand"][kind] -= 1
    if me["hand"][kind] == 0:
        del me["hand"][kind]
    if kind not in data.wild_cards:
        me["discards"][kind] = me["discards"].get(kind, 0) + 1


def card_choices(data: Rules, pos: Position, player: int) -> list[str]:
    """L-21 and docs/actions.md "Cards": single build — the kinds that could pay when it was chosen; double
    build — an unordered pair, lower kind first; Scout (B-17, docs/birmingham.md) — an unordered set of
    `scout_cards` cards asked one at a time, each of a kind not lower than the one before, with enough cards of
    that kind or later ones left for the rest; any other action — any kind in hand."""
    hand = pos["players"][player]["hand"]
    kinds = [k for k in data.card_kinds if hand.get(k)]
    action = pos["action"]
    assert action is not None
    if action["kind"] == "build" and not action["double"]:
        assert action["cards"] is not None
        return [k for k in action["cards"] if hand.get(k)]
    if action["kind"] == "build" and action["double"]:
        if action["first_card"] is None:
            return [k for i, k in enumerate(kinds) if hand[k] >= 2 or i + 1 < len(kinds)]
        first = data.card_order[action["first_card"]]
        return [k for k in kinds if data.card_order[k] >= first]
    if action["kind"] == "scout":
        need = data.scout_cards - action["count"]  # this card and the ones after it
        lowest = 0 if action["first_card"] is None else data.card_order[action["first_card"]]
        return [
            k for i, k in enumerate(kinds) if data.card_order[k] >= lowest and sum(hand[j] for j in kinds[i:]) >= need
        ]
    return kinds
