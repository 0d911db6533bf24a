"""Coal, iron, beer, the two markets, flipping and the income track (L-5, L-16 … L-20, L-27, L-43, L-48; B-8,
B-25).

Which industry produces which resource is data (`industry_roles`, `GameData.produces`). Markets hold `k` cubes on
their `k` most expensive spaces (docs/state-format.md): with prices ascending, the cheapest cube sits on space
`len - k`, the most expensive empty space is `len - k - 1`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from ._network import connected_locations, distances
from ._position import Position

if TYPE_CHECKING:
    from ._rules import Rules

# The position's key of each market.
MARKET_KEY: dict[str, Literal["coal_market", "iron_market"]] = {"coal": "coal_market", "iron": "iron_market"}


# --- markets ---------------------------------------------------------------------------------------


def market_cubes(pos: Position, resource: str) -> int:
    """Cubes in the coal or iron market."""
    return pos[MARKET_KEY[resource]]


def market_price(data: Rules, pos: Position, resource: str) -> int:
    """L-17, L-18: price of the cheapest cube in the market, or the empty-market price (£5)."""
    prices = data.market_prices[resource]
    cubes = market_cubes(pos, resource)
    return prices[len(prices) - cubes] if cubes > 0 else data.market_empty_price[resource]


def market_cost(data: Rules, pos: Position, resource: str, n: int) -> int:
    """L-17, L-18, L-19: what buying `n` cubes costs now, cheapest first, £5 each once the market is empty."""
    prices = data.market_prices[resource]
    cubes = market_cubes(pos, resource)
    total = 0
    for _ in range(n):
        if cubes > 0:
            total += prices[len(prices) - cubes]
            cubes -= 1
        else:
            total += data.market_empty_price[resource]
    return total


def buy_from_market(data: Rules, pos: Position, player: int, resource: str) -> None:
    """L-17, L-18, L-19: buy one cube (cheapest first; from the supply at £5 when empty); it is money spent."""
    price = market_price(data, pos, resource)
    key = MARKET_KEY[resource]
    if pos[key] > 0:
        pos[key] -= 1
    spend(pos, player, price)


def sell_cubes_to_market(data: Rules, pos: Position, space: int, resource: str) -> None:
    """L-27: move cubes from a just-built tile to the empty market spaces, most expensive first; the owner
    receives each space's price (not money spent). The tile flips if emptied (L-28)."""
    tile = pos["board"][space]
    prices = data.market_prices[resource]
    key = MARKET_KEY[resource]
    while tile["cubes"] > 0 and pos[key] < len(prices):
        price = prices[len(prices) - pos[key] - 1]
        pos[key] += 1
        tile["cubes"] -= 1
        pos["players"][tile["owner"]]["money"] += price
    if tile["cubes"] == 0:
        flip(data, pos, space)


def spend(pos: Position, player: int, amount: int) -> None:
    """L-10, L-19: pay money to the bank; it counts as money spent this round."""
    pos["players"][player]["money"] -= amount
    pos["players"][player]["money_spent"] += amount


# --- sources on the board --------------------------------------------------------------------------


def tiles_with_cubes(data: Rules, pos: Position, resource: str, exclude: int | None = None) -> list[int]:
    """Spaces of unflipped tiles producing `resource` (coal mines, iron works) that still hold cubes, in space order."""
    return sorted(
        s
        for s, t in pos["board"].items()
        if data.produces.get(t["industry"]) == resource and t["cubes"] > 0 and s != exclude
    )


def closest_coal_mines(
    data: Rules,
    pos: Position,
    consumers: Iterable[str],
    extra_lines: Iterable[int] = (),
    exclude: int | None = None,
) -> list[int]:
    """L-16: the connected coal mines with coal that are closest to any consumer location (ties all listed)."""
    mines = tiles_with_cubes(data, pos, "coal", exclude)
    if not mines:
        return []
    dist = distances(data, pos, consumers, extra_lines)
    reachable = [(dist[data.spaces[s].location], s) for s in mines if data.spaces[s].location in dist]
    if not reachable:
        return []
    best = min(d for d, _ in reachable)
    return [s for d, s in reachable if d == best]


def connected_coal_cubes(
    data: Rules,
    pos: Position,
    consumers: Iterable[str],
    extra_lines: Iterable[int] = (),
    exclude: int | None = None,
) -> int:
    """L-16: coal cubes on unflipped coal mines connected to any consumer location."""
    mines = tiles_with_cubes(data, pos, "coal", exclude)
    if not mines:
        return 0
    dist = distances(data, pos, consumers, extra_lines)
    return sum(pos["board"][s]["cubes"] for s in mines if data.spaces[s].location in dist)


def iron_cubes_on_board(data: Rules, pos: Position, exclude: int | None = None) -> int:
    """L-18: iron cubes on unflipped iron works anywhere (no connection needed)."""
    return sum(pos["board"][s]["cubes"] for s in tiles_with_cubes(data, pos, "iron", exclude))


def beer_sources(
    data: Rules, pos: Position, player: int, consumers: Iterable[str], extra_lines: Iterable[int] = ()
) -> list[int]:
    """B-8, B-25: the breweries (data: the industry producing `beer`) a barrel may come from, in space order: the
    player's own unflipped breweries with beer wherever they are, and other players' connected to one of
    `consumers` (the location of the tile being sold, the ends of a rail)."""
    breweries = tiles_with_cubes(data, pos, "beer")
    if not breweries:
        return []
    connected = connected_locations(data, pos, consumers, extra_lines)
    return [s for s in breweries if pos["board"][s]["owner"] == player or data.spaces[s].location in connected]


def beer_barrels(
    data: Rules, pos: Position, player: int, consumers: Iterable[str], extra_lines: Iterable[int] = ()
) -> int:
    """B-8: the barrels the player could take from breweries for beer used at `consumers`."""
    return sum(pos["board"][s]["cubes"] for s in beer_sources(data, pos, player, consumers, extra_lines))


def take_cube(data: Rules, pos: Position, space: int) -> None:
    """L-16, L-18, L-20, B-28: take one cube (or barrel) from a tile (free); the tile flips when its last one
    leaves."""
    tile = pos["board"][space]
    tile["cubes"] -= 1
    if tile["cubes"] == 0:
        flip(data, pos, space)


# --- flipping and income ---------------------------------------------------------------------------


def flip(data: Rules, pos: Position, space: int) -> None:
    """L-20, L-28, L-41: flip a tile; its owner advances their income marker by the tile's income (spaces)."""
    tile = pos["board"][space]
    if tile["flipped"]:
        return
    tile["flipped"] = True
    advance_income(data, pos, tile["owner"], data.tile(tile["industry"], tile["level"])["income"])


def advance_income(data: Rules, pos: Position, player: int, spaces: int) -> None:
    """L-43, L-48: move the income marker forward by track spaces; it stops on the last space."""
    p = pos["players"][player]
    p["income_space"] = min(len(data.levels) - 1, p["income_space"] + spaces)


def income_level(data: Rules, pos: Position, player: int) -> int:
    """L-48: the income level shown by the player's track space."""
    return data.levels[pos["players"][player]["income_space"]]
