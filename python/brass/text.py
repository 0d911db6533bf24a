"""A compact text picture of a position: what `print(state)` and `str(state)` show, for either engine.

    >>> print(brass.Game("lancashire", players=2).new_state(seed=1))   # doctest: +SKIP
    lancashire, 2 players · canal era, round 1 of 10 · player 1 to decide: action (1 left)
    ...

The picture is built from the public read-only views of the state only (no JSON parsing), so it shows
exactly what a tool author can read: the players in turn order, the markets and decks, the tiles and links.
"""

from __future__ import annotations

from typing import Any

__all__ = ["board"]


def _header(state: Any) -> str:
    game = state.game
    chosen = [name if value is True else f"{name}={value}" for name, value in sorted(game.options.items()) if value]
    name = f"{game.name} ({', '.join(chosen)})" if chosen else game.name  # `birmingham (intro)`
    where = f"{name}, {game.players} players · {state.era} era, round {state.round} of {game.rounds_per_era}"
    if state.is_terminal:
        winners = state.winners
        names = " and ".join(f"player {p}" for p in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"{where} · game over: {names} {verb}"
    left = f" ({state.actions_left} action{'s' if state.actions_left != 1 else ''} left)"
    return f"{where} · player {state.current_player} to decide: {state.decision}{left}"


def _players(state: Any) -> list[str]:
    rows = ["player   money  income   VP  links  hand"]
    for p in state.turn_order:
        view = state.player(p)
        mark = "*" if p == state.current_player else " "
        rows.append(
            f"  {p} {mark}    £{view.money:<5}{view.income_level:>+5}{view.vp:>6}{view.links_left:>6}"
            f"{len(view.hand):>6}"
        )
    return rows


def _supply(state: Any) -> list[str]:
    parts = [f"coal market {state.coal_market}", f"iron market {state.iron_market}"]
    if state.dcm_marker is not None:
        parts.append(f"distant market at {state.dcm_marker}, {state.dcm_tiles_left} tiles")
    parts.append(f"draw pile {state.deck_size}")
    if state.dcm_marker is not None:  # the Lancashire family's deck tile
        parts.append(f"deck tile {state.deck_tile_size}")
    rows = [" · ".join(parts)]
    merchants = getattr(state, "merchants", {})
    if merchants:
        shown = [f"{space} {m['tile']}{' +beer' if m['beer'] else ''}" for space, m in merchants.items()]
        rows.append("merchants: " + ", ".join(shown))
    return rows


def _tiles(state: Any) -> list[str]:
    board = state.board
    if not board:
        return ["tiles: none"]
    width = max(len(space) for space in board)
    rows = ["tiles"]
    for space, tile in board.items():
        status = "flipped" if tile["flipped"] else "unflipped"
        n = tile["cubes"]  # coal or iron cubes; beer barrels on a brewery
        what = "barrel" if tile["industry"] == "brewery" else "cube"
        cubes = f", {n} {what}{'' if n == 1 else 's'}" if n else ""
        rows.append(f"  {space:<{width}}  {tile['industry']} {tile['level']}, player {tile['owner']}, {status}{cubes}")
    return rows


def _links(state: Any) -> list[str]:
    links = state.links
    if not links:
        return ["links: none"]
    by_owner: dict[int, list[str]] = {}
    for line, owner in links.items():
        by_owner.setdefault(owner, []).append(line)
    return ["links"] + [f"  player {owner}: {', '.join(lines)}" for owner, lines in sorted(by_owner.items())]


def board(state: Any) -> str:
    """The position as a few lines of text: a header (game, era, round, who decides what), the players in
    turn order (`*` marks the one to decide), the markets and decks (Birmingham: the merchants), every tile (with
    its coal or iron cubes, or its beer barrels) and every link."""
    return "\n".join([_header(state), *_players(state), *_supply(state), *_tiles(state), *_links(state)])
