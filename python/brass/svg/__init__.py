"""SVG pictures of Brass positions, for Jupyter notebooks and tools.

    import brass, brass.svg
    state = brass.Game("lancashire", players=4).new_state(seed=7)
    text = brass.svg.board(state)          # an SVG document as a string
    brass.svg.save(state, "position.svg")  # the same, written to a file
    brass.svg.Board(state)                 # shown as a picture by Jupyter (`_repr_svg_`)

The picture is drawn from the public state JSON only (`state.to_json()`, format in `docs/state-format.md`)
and the game data file, so a state of either engine (`brass.State`, `brass.reference.State`) gives the same
picture, each drawn from its own engine, and a state JSON text or object can be drawn as well (loaded, and so
checked, by the native engine). Elements carry `class` and `data-*`
attributes (`data-location`, `data-space="manchester/1"`, `data-line="bolton-manchester"`, `data-player`)
so that tools and tests can find them.

Everything particular to a game comes from the catalog and the data, none of it from tables in this module:
the title from `brass.games()`, the map (locations, spaces, lines, tiles) from the game's data file
(`brass/data/<file>.json`), and where each location is drawn (latitude and longitude, the projection, the
nudges that keep crowded towns apart) and the industry letters from that file's `picture` section
(`picture(name)`). Any registered game whose data file has a `picture` section can be drawn; for one without
it, `board` raises `brass.ConfigError`.

Each tile shows its industry letter and level, the coal / iron cubes on it (barrels of beer on a tile whose
industry produces beer), and at the bottom the VP it scores once flipped (left) and the income spaces flipping
it gives (right), as printed on the tile. Location names are placed beside their box where they cross the
fewest lines (below, above, right or left), on a halo of the map colour.

What a game has beyond Lancashire is drawn from its data and the state, not from its name. A location with a
`merchant` section (Brass: Birmingham) is a box with its name, one square per merchant space and the bonus a
merchant barrel gives: the tile on the space (`merchants` of the state JSON: the letter of the industry it
buys, `any`, grey when blank) with its barrel (golden, dashed once taken), or a dashed square with the player
counts that use it when the game's player count leaves it without a tile (`class="merchant-tile"` /
`"merchant-space unused"`, `data-space="oxford/1"`, `data-tile`, `data-beer`). A line with a third end
(`kidderminster-worcester`, which also reaches the south farm brewery) is drawn as a T: the line between its
first two ends and a branch to the third (`data-ends` lists all three); its links and the state's `links`
name it by its first two ends. The panel's markets have the data's spaces and prices; the Distant Cotton Market
is drawn only in a game that has one.

Links leave the board when an era is scored, so the position after the last move of an era (and the final
position of a game) has no links left. `board(state, scored_links={...})` draws such removed links on top of
the map as an overlay (hatched in the owner's colour, `class="scored-link"`); the replay viewer
(`brass.viewer`) passes the links of the position just before the scoring move, so the picture of a finished
game shows the network that scored.

The package: `_markup` (colours, sizes, SVG elements), `_layout` (the map's projection, the boxes, where names
go), `_map` (lines, locations, tiles, merchants), `_panel` (the side panel and the key); this module reads the
input and puts the picture together.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import brass
from brass._catalog import DATA_DIR
from brass.svg._layout import Picture, Point, Rect, data_of, picture, picture_for
from brass.svg._map import check_scored_links, draw_lines, draw_location, draw_scored_links
from brass.svg._markup import (
    BARREL_COLOUR,
    CUBE_COLOURS,
    GAP,
    HEIGHT,
    MAP_COLOUR,
    MAP_WIDTH,
    PANEL_WIDTH,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    SPACE,
    WIDTH,
    attributes,
    element,
    group,
    svg_text,
    tooltip,
)
from brass.svg._panel import draw_panel
from brass.text import options_text, result

# The title of each registered game, from the catalog (`brass.games()`).
GAME_TITLES: dict[str, str] = {name: entry["title"] for name, entry in brass.games().items()}


def _position(state: Any) -> tuple[dict, Any]:
    """The state JSON object and the state it is of: a state of either engine as it is (the player to decide, the
    rounds and the result come from its own engine); a JSON text, a parsed object or anything else with a
    `to_json` through the native loader (`brass.State.from_json`), so input is validated (`InvalidStateError`,
    `ArgumentTypeError`). A reference state can exist only once `brass.reference` is loaded: it is looked up
    there, not imported (drawing a native state does not load the reference engine)."""
    reference = sys.modules.get("brass.reference")

    if isinstance(state, str):
        with contextlib.suppress(ValueError):  # the loader below says what is wrong with the text
            state = json.loads(state)
    if isinstance(state, dict) and "actions" in state:
        raise brass.InvalidStateError(
            "this is a game record (config, seed, actions), not a state: draw `brass.replay(record)`, the position "
            "it reaches, or use brass.viewer for every position"
        )
    if isinstance(state, brass.State) or (reference is not None and isinstance(state, reference.State)):
        native = state
    elif isinstance(state, str):
        native = brass.State.from_json(state)
    elif isinstance(state, dict):
        native = brass.State.from_json(json.dumps(state))
    elif callable(getattr(state, "to_json", None)):
        native = brass.State.from_json(state.to_json())
    else:
        raise brass.ArgumentTypeError(
            f"a state, a state JSON text or its parsed object is needed, not {type(state).__name__}"
        )
    return json.loads(native.to_json()), native


def _title(obj: dict) -> str:
    """'Brass: Lancashire (Roxley 2018) — 4 players', with any options; the title from the catalog."""
    game = obj["game"]
    text = f"{GAME_TITLES.get(game['name'], game['name'])} — {game['players']} players"
    options = options_text(game["options"])
    return f"{text} ({options})" if options else text


def board(state: Any, *, scored_links: dict[str, int] | None = None) -> str:
    """An SVG picture of a position: the map with its lines, links, tiles and merchant tiles, and a side panel
    with the era, round, player to decide, the players' money, income level, VP, links and hand sizes, the
    markets, the Distant Cotton Market (in a game that has one) and the deck.

    `state` is a `brass.State`, a `brass.reference.State`, a state JSON text or its parsed object.
    `scored_links` (line -> owner), if given, are links that were scored and removed at the end of an era,
    drawn dashed over the map (`class="scored-link"`): pass the links of the position before the era's last
    move to show the network that scored."""
    obj, native = _position(state)
    data = data_of(obj)
    pic = picture_for(obj)
    title = _title(obj)
    body = [
        tooltip(title),
        element("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#ffffff"),
        element("rect", x=0, y=45, width=MAP_WIDTH, height=HEIGHT - 45, fill=MAP_COLOUR),
        svg_text(15, 30, title, font_size=20, font_weight="bold", class_="title", data_game=obj["game"]["name"]),
        group(draw_lines(obj, data, pic), class_="lines"),
    ]
    if scored_links is not None:
        scored = check_scored_links(scored_links, obj, data)
        body.append(group(draw_scored_links(obj, data, pic, scored), class_="scored-links"))
    body += [
        group([draw_location(obj, pic, location) for location in data["locations"]], class_="locations"),
        group(
            draw_panel(
                obj,
                data,
                pic,
                native.current_player,
                native.game.rounds_per_era,
                scored_links is not None,
                result(native) if native.is_terminal else "",
            ),
            class_="panel",
        ),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{attributes({"width": WIDTH, "height": HEIGHT})}'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Helvetica, Arial, sans-serif" class="brass-board">\n'
        + "\n".join(body)
        + "\n</svg>\n"
    )


def save(state: Any, path: str | Path, *, width: int | None = None) -> None:
    """Write the picture of `state` (see `board`) to a file: `*.svg` as SVG text, `*.png` as a PNG image
    drawn by resvg (`width` pixels wide, default the picture's own 1380). Another name is refused
    (`ConfigError`), rather than given SVG text under a raster name."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        Path(path).write_text(board(state), encoding="utf-8")
    elif suffix == ".png":
        Path(path).write_bytes(png(state, width=width))
    else:
        raise brass.ConfigError(f"{path}: brass.svg.save writes *.svg (SVG) or *.png (PNG) files")


def png(state: Any, *, width: int | None = None) -> bytes:
    """The picture of `state` as PNG bytes, `width` pixels wide (16 to 8192; default the picture's own),
    drawn natively by resvg with the system's fonts."""
    return bytes(brass._brass._svg_to_png(board(state), _width(width)))


def rgb(state: Any, *, width: int = 700) -> Any:
    """The picture of `state` as a numpy array of pixels, `(height, width, 3)` uint8: what Gymnasium's
    `rgb_array` render mode returns."""
    flat, height, columns = brass._brass._svg_to_rgb(board(state), _width(width))
    return flat.reshape(height, columns, 3)


def _width(width: int | None) -> int | None:
    if width is not None and (isinstance(width, bool) or not isinstance(width, int)):
        raise brass.ArgumentTypeError(f"width must be an int, not {type(width).__name__}")
    if width is not None and not 16 <= width <= 8192:
        raise brass.ConfigError(f"width must be between 16 and 8192 pixels, not {width}")
    return width


class Board:
    """A position shown as a picture in Jupyter: `brass.svg.Board(state)` as the last expression of a cell.

    The picture is drawn when displayed, from the state as it is then."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def _repr_svg_(self) -> str:
        return board(self.state)

    def __str__(self) -> str:
        return board(self.state)


__all__ = [
    "BARREL_COLOUR",
    "CUBE_COLOURS",
    "DATA_DIR",
    "GAME_TITLES",
    "GAP",
    "HEIGHT",
    "MAP_COLOUR",
    "MAP_WIDTH",
    "PANEL_WIDTH",
    "PLAYER_COLOURS",
    "PLAYER_COLOUR_NAMES",
    "SPACE",
    "WIDTH",
    "Board",
    "Picture",
    "Point",
    "Rect",
    "board",
    "picture",
    "png",
    "rgb",
    "save",
]
