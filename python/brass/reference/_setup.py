"""The set-up of each era, in the RNG order of docs/state-format.md ("When the RNG is used") and docs/classic.md:
the new game (L-1 … L-6, C-3, C-17) and the Rail Era (L-51, C-3, C-16, L-56). The game module's own steps (the
Lancashire deck tile and Distant Cotton Market) are `set_aside` and `start_era` of `Rules.game`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from brass._rng import SplitMix64

from ._cards import deal, remove_unseen
from ._position import Position

if TYPE_CHECKING:
    from ._rules import Rules


def new_position(data: Rules, seed: int) -> Position:
    """L-1 … L-6 and C-3 / L-56: 1. shuffle the deck (Lancashire: the bottom cards go under the deck tile,
    `set_aside`); 2. deal 8 to each seat; the next cards from the top are removed unseen (classic Brass: 9 / 6);
    3. the game's own set-up (Lancashire: the DCM pile, `start_era`); 4. the first turn order
    (`first_turn_order`)."""
    players = data.players
    pos: Position = {
        "rng": seed,
        "era": "canal",
        "round": 1,
        "turn_order": [],
        "turn": 0,
        "actions_left": data.first_round_actions,
        "decision": "action",
        "action": None,
        "players": [
            {
                "money": data.money,
                "money_spent": 0,
                "income_space": data.start_space,
                "vp": 0,
                "hand": {},
                "discards": {},
                "mat": {i: data.stack_size(i) for i in data.industries},
                "links_left": data.links,
            }
            for _ in range(players)
        ],
        "board": {},
        "links": {},
        "coal_market": data.market_start["coal"],
        "iron_market": data.market_start["iron"],
        "deck": [],
        "removed": {},
    }
    rng = SplitMix64(seed)
    deck = data.deck_list()
    rng.shuffle(deck)
    deck = data.game.set_aside(pos, deck)
    deck = deal(data, pos, deck)
    pos["deck"] = remove_unseen(pos, deck, data.removed_canal)  # C-3
    data.game.start_era(pos, rng)
    pos["turn_order"] = first_turn_order(data, rng)
    pos["rng"] = rng.state
    if data.first_build_once_per_game:
        for p in pos["players"]:
            p["built_industry"] = False  # C-6, R-14
    return pos


def first_turn_order(data: Rules, rng: SplitMix64) -> list[int]:
    """L-6: the players in a random order (Roxley's character tiles). C-17 (R-16): classic Brass draws a start
    player at random, and play goes clockwise from them, i.e. in seat order."""
    seats = list(range(data.players))
    if data.first_order_clockwise:
        first = rng.below(data.players)
        return seats[first:] + seats[:first]
    rng.shuffle(seats)
    return seats


def start_rail_era(data: Rules, pos: Position) -> None:
    """L-51 in the RNG order of docs/state-format.md and docs/classic.md: remove level-1 tiles (cubes to the
    supply); the game's own set-up (Lancashire: a new DCM pile, marker to the top); the whole deck shuffled (every
    card: discards and the cards set aside or removed before); 8 cards to each seat; then the next `removed_rail`
    cards from the top are removed unseen (C-3, L-56). The turn order carries over. The round itself is started by
    the caller (Lancashire at once; classic Brass after the income of Rail round 1, C-4)."""
    pos["board"] = {s: t for s, t in pos["board"].items() if t["level"] != 1}
    pos["era"] = "rail"
    pos["round"] = 1
    rng = SplitMix64(pos["rng"])
    data.game.start_era(pos, rng)
    deck = data.deck_list()
    rng.shuffle(deck)
    deck = data.game.set_aside(pos, deck)
    deck = deal(data, pos, deck)
    pos["rng"] = rng.state
    pos["deck"] = remove_unseen(pos, deck, data.removed_rail)
