"""The package's words: a game configuration, a position, a result, counts. `board` is the compact text
picture of a position that `print(state)` and `str(state)` show, for either engine.

    >>> print(brass.Game("lancashire", players=2).new_state(seed=1))   # doctest: +SKIP
    lancashire, 2 players · canal era, round 1 of 10 · player 1 to decide: action (1 left)
    ...

The picture is built from the public read-only views of the state only (no JSON parsing), so it shows
exactly what a tool author can read: the players in turn order, the markets and decks, the tiles and links.
Every place that names a configuration (the command line, the arena's report, the benchmark, the pictures'
titles) words its options with `options_text`, and most name it whole with `describe_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["board", "count", "describe_game", "digits", "game_name", "one_line", "options_text", "result"]


def options_text(options: Mapping[str, Any]) -> str:
    """`intro, virtual_link`: the options that are set, sorted, each by its name (`name=value` for an option that
    takes a value); empty for none."""
    return ", ".join(name if value is True else f"{name}={value}" for name, value in sorted(options.items()) if value)


def game_name(name: str, options: Mapping[str, Any]) -> str:
    """`birmingham (intro)`, or `birmingham` without options: a game and its options."""
    chosen = options_text(options)
    return f"{name} ({chosen})" if chosen else name


def describe_game(game: Any, *, at: bool = False) -> str:
    """`lancashire, 4 players` or `lancashire (intro, virtual_link), 3 players`: a configuration (a `Game` of
    either engine) in words; with `at`, as a sentence names it: `lancashire at 4 players`."""
    return f"{game_name(game.name, game.options)}{' at' if at else ','} {game.players} players"


def count(n: int, what: str) -> str:
    """`1 cube`, `2 barrels`: a number of things."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def digits(text: str) -> bool:
    """Whether a text is an ASCII whole number (`str.isdigit` alone also takes "²", which `int` refuses)."""
    return text.isascii() and text.isdigit()


def one_line(error: BaseException) -> str:
    """An exception as one line, its kind first (`ValueError: bad move`): what a user's code that failed is
    reported as."""
    return " ".join(f"{type(error).__name__}: {error}".split())


def _header(state: Any) -> str:
    game = state.game
    where = f"{describe_game(game)} · {state.era} era, round {state.round} of {game.rounds_per_era}"
    if state.is_terminal:
        return f"{where} · game over: {result(state)}"
    left = f" ({count(state.actions_left, 'action')} left)"
    return f"{where} · player {state.current_player} to decide: {state.decision}{left}"


def result(state: Any) -> str:
    """Who won a finished game and, when the VP were tied, which tie-break decided (L-53: income level, then
    money, then a shared win; the original Brass, C-15: then the next turn order), e.g. `player 1 wins with
    133 VP` or `player 0 wins on the tie-break: 120 VP each, income level 12 against 10 (L-53)`."""
    winners = list(state.winners)
    if not winners:
        return "the game is not over"
    views = {p: state.player(p) for p in range(state.game.players)}
    names = " and ".join(f"player {p}" for p in winners)
    best = max(v.vp for v in views.values())
    tied = [p for p, v in views.items() if v.vp == best]
    if len(tied) == 1:
        return f"{names} wins with {best} VP"
    rule = "C-15" if state.game.name == "brass" else "L-53"
    levels = sorted({views[p].income_level for p in tied}, reverse=True)
    if (
        len(winners) == 1
        and len(levels) > 1
        and views[winners[0]].income_level == levels[0]
        and [p for p in tied if views[p].income_level == levels[0]] == winners
    ):
        return f"{names} wins on the tie-break: {best} VP each, income level {levels[0]} against {levels[1]} ({rule})"
    top = [p for p in tied if views[p].income_level == levels[0]]
    money = sorted({views[p].money for p in top}, reverse=True)
    same_level = f"{best} VP and income level {levels[0]} each"
    if len(winners) == 1 and len(money) > 1 and [p for p in top if views[p].money == money[0]] == winners:
        return f"{names} wins on the tie-break: {same_level}, £{money[0]} against £{money[1]} ({rule})"
    if len(winners) == 1:  # C-15: the player who would act earlier in the next turn order
        return f"{names} wins on the tie-break: {same_level}, £{money[0]} each; earlier in the next turn order ({rule})"
    return f"{names} share the win: {same_level}, £{money[0]} each ({rule})"


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
        cubes = f", {count(n, what)}" if n else ""
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
