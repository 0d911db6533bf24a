"""The package's data files, read in one place: the catalog (`data/games.json`) and the game data files
(`data/<name>.json`), each parsed once.

`brass.games()` gives what a user chooses from (titles, player counts, options); this module gives what the
pictures, the text views and `brass.Position` read besides: a game's data file and rules family, and the data
itself (the map, the tiles, the markets, the `picture` section). The reference engine reads the same files
through its own modules (`brass.reference`: `_catalog.py`, `_data.py`), so that it stands on its own.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


@cache
def catalog() -> dict[str, dict[str, Any]]:
    """The catalog file by game name: each entry's `title`, `data` (the data file), `family` (the rules module
    that plays it), `players` and `options` (name, type, players, rule, doc)."""
    with open(DATA_DIR / "games.json", encoding="utf-8") as f:
        return {entry["name"]: entry for entry in json.load(f)["games"]}


@cache
def data_file(name: str) -> dict[str, Any]:
    """The game data file `brass/data/<name>.json`, parsed (callers must not change it)."""
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def data_name(obj: dict[str, Any]) -> str:
    """The name of the data file a state object was made with (its `game.data` is `"<file>/<version>"`)."""
    name: str = obj["game"]["data"].split("/")[0]
    return name


def family(name: str) -> str | None:
    """The rules family of a game of the catalog (`"classic"` for the original Brass); None for a name the
    catalog does not have."""
    entry = catalog().get(name)
    return entry.get("family") if entry else None


def option_rule(name: str, option: str, default: str) -> str:
    """The rule id the catalog gives for a game's option (`intro`: `L-54` in Lancashire), or `default`."""
    options = {o["name"]: o for o in catalog().get(name, {}).get("options", [])}
    return str(options.get(option, {}).get("rule", default))
