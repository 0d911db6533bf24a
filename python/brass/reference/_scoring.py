"""Scoring and the winners (L-49, L-50, L-53, R-4, R-11, C-15). The game's own final scoring (Lancashire: money
VP, L-52; the introductory game, L-54) is `final_scoring` of `Rules.game`, called by `_turns.end_era`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._position import Position
from ._resources import income_level

if TYPE_CHECKING:
    from ._rules import Rules

# L-54, B-22: the introductory game's extra scoring: 1 VP per full £4, at most 15; flipped tiles of level 2 or more
# score a second time.
INTRO_MONEY_PER_VP = 4
INTRO_MONEY_VP_MAX = 15
INTRO_DOUBLE_FROM_LEVEL = 2


def link_icons(data: Rules, pos: Position, location: str) -> int:
    """L-49, B-19: link icons of a location: the printed ones (B-19: 2 at each merchant location, data) plus those of
    its flipped industry tiles, any owner (the game's `tile_link_icons`: 1 per tile in Lancashire, the icons printed
    on each tile in Birmingham; K3: an unflipped tile shows none)."""
    icons = data.printed_link_icons[location]
    for s in data.location_spaces[location]:
        tile = pos["board"].get(s)
        if tile is not None and tile["flipped"]:
            icons += data.game.tile_link_icons(tile["industry"], tile["level"])
    return icons


def score_links(data: Rules, pos: Position) -> None:
    """L-49: each link scores its owner 1 VP per link icon at the ends of its line; all links are removed and the
    link tiles go back to their owners (lead's ruling, Romanian seed)."""
    for line_index, owner in sorted(pos["links"].items()):
        pos["players"][owner]["vp"] += sum(link_icons(data, pos, end) for end in data.lines[line_index].ends)
    for owner in pos["links"].values():
        pos["players"][owner]["links_left"] += 1
    pos["links"] = {}


def score_tiles(data: Rules, pos: Position) -> None:
    """L-50: each flipped industry tile scores its VP to its owner (R-11: classic values in classic Brass);
    unflipped tiles score nothing."""
    for tile in pos["board"].values():
        if tile["flipped"]:
            pos["players"][tile["owner"]]["vp"] += data.tile_vp(tile["industry"], tile["level"])


def score_intro_game(data: Rules, pos: Position) -> None:
    """L-54, B-22: after the introductory game's Canal Era scoring, each player gains, in this order, 1 VP per full £4
    (at most 15); VP equal to the income level (a negative level subtracts; never below 0 VP, R-8); the VP of each of
    their flipped tiles of level 2 or more a second time (R-18 in Birmingham)."""
    for player, me in enumerate(pos["players"]):
        me["vp"] += min(INTRO_MONEY_VP_MAX, me["money"] // INTRO_MONEY_PER_VP)
        me["vp"] = max(0, me["vp"] + income_level(data, pos, player))
        for tile in pos["board"].values():
            if tile["owner"] == player and tile["flipped"] and tile["level"] >= INTRO_DOUBLE_FROM_LEVEL:
                me["vp"] += data.tile_vp(tile["industry"], tile["level"])


def ranking_key(data: Rules, pos: Position, player: int) -> tuple[int, ...]:
    """L-53, R-4: VP, then income level, then money; players equal on all three share the win. Two markers on
    different spaces of the same income level are equal: the space is not a tie-break (seed 004).
    C-15 (classic Brass): VP, then income level, then money, then the earlier place in the next turn order (the
    final state's `turn_order`), so there is always one winner."""
    p = pos["players"][player]
    key = (p["vp"], income_level(data, pos, player), p["money"])
    if data.tie_break_by_turn_order:
        return key + (-pos["turn_order"].index(player),)
    return key


def winners(data: Rules, pos: Position) -> list[int]:
    """L-53, C-15: the players with the best ranking key; several when still tied (shared win, Lancashire only);
    [] before the end."""
    if pos["decision"] != "over":
        return []
    keys = [ranking_key(data, pos, p) for p in range(len(pos["players"]))]
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]
