"""The one catalog of the games (`brass/data/games.json`, the file the Rust core embeds): each game's name, title,
data file, rules family, player counts and options. `Game(name, players, **options)` is checked against it here."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from brass._errors import ConfigError

from ._data import DATA_DIR

# L-57, R-13: the only value of the Lancashire `variant` option, refused until its map is known.
COMMUNITY_2P = "community-2p"


@cache
def catalog() -> dict[str, Any]:
    """The parsed catalog file."""
    parsed: dict[str, Any] = json.loads((DATA_DIR / "games.json").read_text(encoding="utf-8"))
    return parsed


def entry(name: str) -> dict[str, Any]:
    """The catalog entry of a game (the name is one of `names()`)."""
    return next(g for g in catalog()["games"] if g["name"] == name)


def names() -> list[str]:
    return [g["name"] for g in catalog()["games"]]


def games() -> dict[str, dict[str, Any]]:
    """`brass.games()`: name -> {"title", "players", "options": name -> {"type", "players", "rule", "doc"}}."""
    out = {}
    for g in catalog()["games"]:
        options = {
            o["name"]: {"type": o["type"], "players": o["players"], "rule": o["rule"], "doc": o["doc"]}
            for o in g["options"]
        }
        out[g["name"]] = {"title": g["title"], "players": list(g["players"]), "options": options}
    return dict(sorted(out.items()))


def player_counts(name: str) -> list[int]:
    return list(entry(name)["players"])


def counts_text(counts: list[int]) -> str:
    """`2, 3 or 4`, `3 or 4`: the player counts as every brass error message words them."""
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def data_file(name: str) -> str:
    """The game's data file, `brass/data/<data_file>.json`."""
    file: str = entry(name)["data"]
    return file


def family(name: str) -> str:
    """The game's rules family: which game module plays it (`_games.GAME_MODULES`)."""
    rules_family: str = entry(name)["family"]
    return rules_family


def check_options(name: str, players: int, options: dict[str, Any]) -> dict[str, bool]:
    """Options must be known to the game's catalog entry and of the right type, and used with a player count the
    option allows; a `str` option is the Lancashire `variant`, which is refused (L-57, R-13). Returns the options
    that are set, i.e. those given as True (an option given as False is the configuration without it)."""
    game = entry(name)
    specs = {o["name"]: o for o in game["options"]}
    for key in sorted(options):
        if key not in specs:
            if not specs:
                raise ConfigError(f"{name} ({game['title']}) takes no options (got {key!r}); its rules are fixed")
            raise ConfigError(f"unknown option {key!r} for {name}; allowed options: {', '.join(specs)}")
    for key in sorted(options):
        value = options[key]
        if specs[key]["type"] == "str":
            if not isinstance(value, str):
                raise ConfigError(f"option {key!r} must be a str, not {type(value).__name__}")
            if value == COMMUNITY_2P:
                raise ConfigError(
                    "variant 'community-2p' (L-57) is not playable: it uses the alternate map on the other side "
                    "of the board, whose spaces are not verified and whose lines are not known (R-13)"
                )
            raise ConfigError(f"unknown variant {value!r} for {name}; the only variant is {COMMUNITY_2P!r} (L-57)")
        if not isinstance(value, bool):
            raise ConfigError(f"option {key!r} must be True or False, not {value!r}")
    chosen = {k: True for k in sorted(options) if options[k] is True}
    for key in chosen:
        if players not in specs[key]["players"]:
            allowed = " or ".join(str(n) for n in specs[key]["players"])
            raise ConfigError(f"{key} ({specs[key]['rule']}) is for {allowed} players, not {players}")
    return chosen
