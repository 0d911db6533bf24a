"""Networks, connections and distances (L-13, L-14, L-15, L-38), always recomputed by breadth-first search.

Links are `pos["links"]` (line index -> owner); links of every owner carry connection (L-38). A link joins all the
ends of its line (two in Lancashire; a line may have more), each at distance 1 from the others. `extra_lines` lets a
question be asked "with this link placed".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._position import Position

if TYPE_CHECKING:
    from ._rules import Rules


def neighbours(data: Rules, pos: Position, extra_lines: Iterable[int] = ()) -> dict[str, list[str]]:
    """L-14, L-38: the graph of locations joined by placed links of any owner (plus `extra_lines`)."""
    graph: dict[str, list[str]] = {loc: [] for loc in data.locations}
    for line_index in list(pos["links"]) + list(extra_lines):
        ends = data.lines[line_index].ends
        for i, a in enumerate(ends):
            for b in ends[i + 1 :]:  # every pair of the line's ends
                graph[a].append(b)
                graph[b].append(a)
    return graph


def distances(data: Rules, pos: Position, starts: Iterable[str], extra_lines: Iterable[int] = ()) -> dict[str, int]:
    """L-14: fewest links from any of `starts` to every connected location (0 for the starts themselves)."""
    graph = neighbours(data, pos, extra_lines)
    dist = {loc: 0 for loc in starts}
    queue = deque(dist)
    while queue:
        loc = queue.popleft()
        for nxt in graph[loc]:
            if nxt not in dist:
                dist[nxt] = dist[loc] + 1
                queue.append(nxt)
    return dist


def connected_locations(data: Rules, pos: Position, starts: Iterable[str], extra_lines: Iterable[int] = ()) -> set[str]:
    """L-14: the locations connected to any of `starts` (each start is connected to itself)."""
    return set(distances(data, pos, starts, extra_lines))


def are_connected(data: Rules, pos: Position, a: str, b: str) -> bool:
    """L-14: is there a path of links (any owner) from `a` to `b`?"""
    return b in connected_locations(data, pos, [a])


def network(data: Rules, pos: Position, player: int) -> set[str]:
    """L-13: locations holding one of the player's industry tiles or at an end of one of their links."""
    locs = {data.spaces[s].location for s, tile in pos["board"].items() if tile["owner"] == player}
    for line_index, owner in pos["links"].items():
        if owner == player:
            locs.update(data.lines[line_index].ends)
    return locs


def has_anything_on_board(pos: Position, player: int) -> bool:
    """L-22, L-34: does the player have an industry tile or a link tile on the board?"""
    return any(t["owner"] == player for t in pos["board"].values()) or any(
        owner == player for owner in pos["links"].values()
    )


def trade_icon_locations(data: Rules, pos: Position) -> set[str]:
    """L-15: every location with a printed market trade icon, and those the game gives one for a tile on them
    (Lancashire: a port tile, flipped or not, of any owner)."""
    locs = {loc for loc in data.locations if data.printed_trade_icon[loc]}
    locs.update(data.game.trade_icon_tiles(pos))
    return locs


def connected_to_trade_icon(data: Rules, pos: Position, starts: Iterable[str], extra_lines: Iterable[int] = ()) -> bool:
    """L-15: is any of `starts` connected to a location that has a market trade icon?"""
    return not connected_locations(data, pos, starts, extra_lines).isdisjoint(trade_icon_locations(data, pos))
