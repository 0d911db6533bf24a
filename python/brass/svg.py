"""SVG pictures of Brass positions, for Jupyter notebooks and tools.

    import brass, brass.svg
    state = brass.Game("lancashire", players=4).new_state(seed=7)
    text = brass.svg.board(state)          # an SVG document as a string
    brass.svg.save(state, "position.svg")  # the same, written to a file
    brass.svg.Board(state)                 # shown as a picture by Jupyter (`_repr_svg_`)

The picture is drawn from the public state JSON only (`state.to_json()`, format in `docs/state-format.md`)
and the game data file, so a state of either engine (`brass.State`, `brass.reference.State`) gives the same
picture, and a state JSON text or object can be drawn as well. Elements carry `class` and `data-*`
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
"""

from __future__ import annotations

import contextlib
import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import brass
import brass.text

DATA_DIR = Path(__file__).resolve().parent / "data"

# Okabe–Ito colours, distinguishable with the common colour-vision deficiencies; seat order.
PLAYER_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7")
PLAYER_COLOUR_NAMES = ("blue", "orange", "green", "pink")
# Text colour that reads well on each player colour.
_INK_ON_PLAYER = ("#ffffff", "#000000", "#ffffff", "#000000")

CUBE_COLOURS = {"coal": "#222222", "iron": "#c0642a"}
_CUBE_COLOUR = "#6a4a8a"  # cubes of any other resource
# Beer (an industry whose role `produces` beer, a merchant's barrel): a golden barrel with a brown rim, a shape
# and colour apart from the coal and iron cubes.
BARREL_COLOUR, _BARREL_RIM = "#f2c12e", "#7a5200"

# The title of each registered game, from the catalog (`brass.games()`).
GAME_TITLES: dict[str, str] = {name: entry["title"] for name, entry in brass.games().items()}

MAP_WIDTH = 940
PANEL_WIDTH = 440
WIDTH = MAP_WIDTH + PANEL_WIDTH
HEIGHT = 940

SPACE = 28  # side of a building space
GAP = 3  # gap between spaces and around them in a location box


# --- Input --------------------------------------------------------------------------------------------------


def _position(state: Any) -> tuple[dict, brass.State]:
    """The state JSON object and the player to decide, for a state of either engine, a JSON text or a parsed
    object. Everything goes through the native loader (`brass.State.from_json`), so input is validated
    (`InvalidStateError`, `ArgumentTypeError`) and the player to decide comes from the engine."""
    if isinstance(state, str):
        with contextlib.suppress(ValueError):  # the loader below says what is wrong with the text
            state = json.loads(state)
    if isinstance(state, dict) and "actions" in state:
        raise brass.InvalidStateError(
            "this is a game record (config, seed, actions), not a state: draw `brass.replay(record)`, the position "
            "it reaches, or use brass.viewer for every position"
        )
    if isinstance(state, brass.State):
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


@cache
def _load_data(name: str) -> dict:
    """The game data file `brass/data/<name>.json`."""
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


def _data_for(obj: dict) -> dict:
    """The data file a state was made with (`game.data` is `"<file>/<version>"`)."""
    return _load_data(obj["game"]["data"].split("/")[0])


def _title(obj: dict) -> str:
    """'Brass: Lancashire (Roxley 2018) — 4 players', with any options; the title from the catalog."""
    game = obj["game"]
    text = f"{GAME_TITLES.get(game['name'], game['name'])} — {game['players']} players"
    options = [key if value is True else f"{key}={value}" for key, value in sorted(game["options"].items())]
    if options:
        text += f" ({', '.join(options)})"
    return text


@cache
def _catalog() -> dict[str, dict]:
    """The catalog file (`brass/data/games.json`) by game name: its data file and rules family, which
    `brass.games()` does not list."""
    with open(DATA_DIR / "games.json", encoding="utf-8") as f:
        return {entry["name"]: entry for entry in json.load(f)["games"]}


def _family(obj: dict) -> str | None:
    """The rules family of the state's game (`"classic"` for the original Brass)."""
    entry = _catalog().get(obj["game"]["name"])
    return entry.get("family") if entry else None


@dataclass(frozen=True)
class Picture:
    """How the map of one data file is drawn, from its `picture` section."""

    #: Location id -> (x, y) centre of the location in the picture: its latitude and longitude projected,
    #: then nudged.
    positions: dict[str, tuple[int, int]]
    #: Industry -> the letter on its tiles and on the empty spaces that take it.
    letters: dict[str, str]

    def letter(self, industry: str) -> str:
        return self.letters.get(industry, industry[:1].upper())


def picture(name: str) -> Picture:
    """How the map of the registered game `name` (`brass.games()`) is drawn: the `picture` section of its data
    file. `brass.ConfigError` for a game that is not registered or whose data file has no `picture` section."""
    if name not in brass.games():
        raise brass.ConfigError(f"unknown game `{name}`: the games are {', '.join(sorted(brass.games()))}")
    entry = _catalog().get(name)
    if entry is None:
        raise brass.ConfigError(f"game `{name}` is registered but not in {DATA_DIR / 'games.json'}")
    return _picture(entry["data"])


@cache
def _picture(data_name: str) -> Picture:
    """The `Picture` of the data file `brass/data/<data_name>.json` (see `picture`)."""
    data = _load_data(data_name)
    games = sorted(name for name, entry in _catalog().items() if entry["data"] == data_name) or [data_name]
    section = data.get("picture")
    if not isinstance(section, dict):
        raise brass.ConfigError(
            f"no picture of {', '.join(games)}: its data file {data_name}.json has no `picture` section "
            "(lat_lon, nudge, letters, projection: see lancashire.json)"
        )
    try:
        projection = section["projection"]
        lat_lon = section["lat_lon"]
        nudge = section.get("nudge", {})
        north, west = float(projection["north"]), float(projection["west"])
        scale, stretch = float(projection["scale"]), float(projection.get("stretch", 1.0))
        cos_latitude = math.cos(math.radians(float(projection["latitude"])))
        origin_x, origin_y = (float(v) for v in projection["origin"])
        positions = {}
        for location in data["locations"]:
            lid = location["id"]
            if lid not in lat_lon:
                raise brass.ConfigError(f"the picture section of {data_name}.json has no lat_lon for `{lid}`")
            lat, lon = (float(v) for v in lat_lon[lid])
            dx, dy = (float(v) for v in nudge.get(lid, (0.0, 0.0)))
            x = origin_x + (lon - west) * scale * stretch * cos_latitude
            y = origin_y + (north - lat) * scale
            positions[lid] = (round(x + dx), round(y + dy))
        letters = {str(industry): str(letter) for industry, letter in section.get("letters", {}).items()}
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, brass.BrassError):
            raise
        raise brass.ConfigError(f"the picture section of {data_name}.json is malformed: {e!r}") from e
    return Picture(positions=positions, letters=letters)


def _picture_for(obj: dict) -> Picture:
    """The `Picture` of the data file a state was made with."""
    return _picture(obj["game"]["data"].split("/")[0])


# --- SVG helpers --------------------------------------------------------------------------------------------


def _attrs(attrs: dict[str, Any]) -> str:
    """Attributes as SVG text. Python names map to SVG names: `_` becomes `-`, a trailing `_` is dropped
    (`class_`, `stroke_width`, `data_space`); `None` leaves the attribute out; booleans are `true` / `false`."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, float):
            value = f"{value:g}"
        name = key.rstrip("_").replace("_", "-")
        out.append(f' {name}="{escape(str(value), {chr(34): "&quot;"})}"')
    return "".join(out)


def _element(tag: str, children: str = "", /, **attrs: Any) -> str:
    """An element with already built children (markup, not text)."""
    if children:
        return f"<{tag}{_attrs(attrs)}>{children}</{tag}>"
    return f"<{tag}{_attrs(attrs)}/>"


def _text(x: float, y: float, text: str, **attrs: Any) -> str:
    """A `<text>` element; the text is escaped."""
    return f"<text{_attrs({'x': x, 'y': y, **attrs})}>{escape(text)}</text>"


def _group(children: list[str], **attrs: Any) -> str:
    """A `<g>` of the given elements."""
    return f"<g{_attrs(attrs)}>" + "".join(children) + "</g>"


def _tooltip(text: str) -> str:
    """A `<title>` child, shown as a tooltip by browsers."""
    return f"<title>{escape(text)}</title>"


def _tint(colour: str, amount: float) -> str:
    """The colour `#rrggbb` mixed with white; `amount` 0 is the colour, 1 is white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# --- The map ------------------------------------------------------------------------------------------------

Point = tuple[float, float]


def _line_name(line: dict) -> str:
    """A line's name, as the links of a state are keyed and the notation writes it: its first two ends joined by
    `-` (`bolton-manchester`; the line Kidderminster–Worcester that also reaches the south farm brewery is
    `kidderminster-worcester`)."""
    return "-".join(line["ends"][:2])


def _line_segments(ends: list[str], positions: dict[str, tuple[int, int]]) -> list[tuple[Point, Point]]:
    """The straight pieces a line is drawn with: from its first end to its second, and for each further end a
    branch from the nearest point of that main piece (a line with three ends is a T)."""
    (x1, y1), (x2, y2) = positions[ends[0]], positions[ends[1]]
    segments: list[tuple[Point, Point]] = [((x1, y1), (x2, y2))]
    for end in ends[2:]:
        x, y = positions[end]
        dx, dy = x2 - x1, y2 - y1
        t = ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
        t = min(1.0, max(0.0, t))
        segments.append(((round(x1 + t * dx, 1), round(y1 + t * dy, 1)), (x, y)))
    return segments


def _segment_attrs(segment: tuple[Point, Point]) -> dict[str, float]:
    (x1, y1), (x2, y2) = segment
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}


def _line_description(line: dict) -> str:
    """'bolton-manchester', or for a line with more ends 'kidderminster-worcester (and farm_south)'."""
    name = _line_name(line)
    more = line["ends"][2:]
    return f"{name} (and {', '.join(more)})" if more else name


def _draw_lines(obj: dict, data: dict, pic: Picture) -> list[str]:
    """Every line of the map: a pale blue band if it can take a canal, a grey line if it can take a rail
    (dashed when rail only); lines the era cannot use are faded; a placed link is a thick line in its owner's
    colour. A line with a third end is drawn as a T (`_line_segments`). The virtual link Liverpool–Birkenhead is
    dotted when the configuration has it."""
    out = []
    era = obj["era"]
    for line in data["lines"]:
        name = _line_name(line)
        segments = [_segment_attrs(segment) for segment in _line_segments(line["ends"], pic.positions)]
        more = " ".join(line["ends"]) if len(line["ends"]) > 2 else None
        owner = obj["links"].get(name)
        if owner is not None:
            colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
            parts = [_tooltip(f"{era} link {_line_description(line)} of player {owner}")]
            parts += [
                _element("line", **ends, stroke="#333333", stroke_width=9, stroke_linecap="round") for ends in segments
            ]
            parts += [
                _element("line", **ends, stroke=colour, stroke_width=6, stroke_linecap="round") for ends in segments
            ]
            out.append(_group(parts, class_="link", data_line=name, data_ends=more, data_owner=owner, data_era=era))
            continue
        parts = [_tooltip(f"{_line_description(line)}: " + " and ".join(k for k in ("canal", "rail") if line[k]))]
        if line["canal"]:
            parts += [
                _element("line", **ends, stroke="#b9d7ef", stroke_width=6, stroke_linecap="round") for ends in segments
            ]
        if line["rail"]:
            dash = None if line["canal"] else "6 4"
            parts += [
                _element("line", **ends, stroke="#8a8a8a", stroke_width=1.5, stroke_dasharray=dash) for ends in segments
            ]
        usable = line[era]
        out.append(
            _group(
                parts,
                class_="line",
                data_line=name,
                data_ends=more,
                data_canal=line["canal"],
                data_rail=line["rail"],
                opacity=None if usable else 0.35,
            )
        )
    virtual = _virtual_link(obj, data)
    if virtual is not None:
        a, b = virtual
        (x1, y1), (x2, y2) = pic.positions[a], pic.positions[b]
        parts = [
            _tooltip(f"virtual link {a}-{b} (industry cards only)"),
            _element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#555555", stroke_width=2, stroke_dasharray="2 3"),
        ]
        out.append(_group(parts, class_="virtual-link", data_line=f"{a}-{b}"))
    return out


def _draw_scored_links(obj: dict, data: dict, pic: Picture, scored_links: dict[str, int]) -> list[str]:
    """Links removed when their era was scored (see the module docstring), dashed in their owner's colour."""
    out = []
    for line in data["lines"]:
        name = _line_name(line)
        if name not in scored_links:
            continue
        owner = scored_links[name]
        segments = [_segment_attrs(segment) for segment in _line_segments(line["ends"], pic.positions)]
        colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        parts = [
            _tooltip(f"link {_line_description(line)} of player {owner}: scored, then removed at the end of the era")
        ]
        parts += [
            _element("line", **ends, stroke="#333333", stroke_width=8, stroke_opacity=0.45, stroke_linecap="round")
            for ends in segments
        ]
        parts += [_element("line", **ends, stroke=colour, stroke_width=5, stroke_dasharray="9 4") for ends in segments]
        more = " ".join(line["ends"]) if len(line["ends"]) > 2 else None
        out.append(_group(parts, class_="scored-link", data_line=name, data_ends=more, data_owner=owner))
    return out


def _check_scored_links(scored_links: Any, obj: dict, data: dict) -> dict[str, int]:
    """`scored_links` as a dict of line -> owner, checked against the map and the player count."""
    if not isinstance(scored_links, dict):
        raise brass.ArgumentTypeError(
            f"scored_links must be a dict of line -> owner, not {type(scored_links).__name__}"
        )
    lines = {_line_name(line) for line in data["lines"]}
    for name, owner in scored_links.items():
        if name not in lines:
            raise brass.InvalidStateError(f"scored_links: `{name}` is not a line of this map")
        if isinstance(owner, bool) or not isinstance(owner, int):
            raise brass.ArgumentTypeError(f"scored_links[{name!r}]: an owner index (int) is needed")
        if not 0 <= owner < obj["game"]["players"]:
            raise brass.InvalidStateError(f"scored_links[{name!r}]: no player {owner} in this game")
    return dict(scored_links)


def _location_box(n_spaces: int) -> tuple[int, int]:
    """Width and height of the box of a location with `n_spaces` spaces."""
    return n_spaces * SPACE + (n_spaces + 1) * GAP, SPACE + 2 * GAP


def _draw_space(obj: dict, pic: Picture, location: dict, number: int, icons: list[str], x: float, y: float) -> str:
    """One building space with its top-left corner at (x, y): the industry letters when empty, else the tile."""
    name = f"{location['id']}/{number}"
    tile = obj["board"].get(name)
    if tile is None:
        letters = "/".join(pic.letter(i) for i in icons)
        parts = [
            _tooltip(f"{location['name']} {number}: empty, " + " or ".join(i.replace("_", " ") for i in icons)),
            _element("rect", x=x, y=y, width=SPACE, height=SPACE, rx=3, fill="#ffffff", stroke="#9a9a9a"),
            _text(x + SPACE / 2, y + SPACE / 2 + 3.5, letters, font_size=10, text_anchor="middle", fill="#777777"),
        ]
        return _group(parts, class_="space empty", data_space=name, data_icons=" ".join(icons))

    owner, industry = tile["owner"], tile["industry"]
    colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
    flipped = tile["flipped"]
    state_word = "flipped" if flipped else "not flipped"
    parts = [
        _tooltip(
            f"{location['name']} {number}: {industry.replace('_', ' ')} level {tile['level']} of player {owner}, "
            f"{state_word}, {tile['cubes']} cubes"
        )
    ]
    if flipped:  # a flipped tile is filled with its owner's colour
        parts.append(_element("rect", x=x, y=y, width=SPACE, height=SPACE, rx=3, fill=colour, stroke=colour))
        ink = _INK_ON_PLAYER[owner % len(_INK_ON_PLAYER)]
    else:  # an unflipped tile is outlined
        parts.append(
            _element(
                "rect",
                x=x + 1.5,
                y=y + 1.5,
                width=SPACE - 3,
                height=SPACE - 3,
                rx=3,
                fill=_tint(colour, 0.8),
                stroke=colour,
                stroke_width=3,
            )
        )
        ink = "#000000"
    label = f"{pic.letter(industry)}{tile['level']}"
    parts.append(
        _text(x + SPACE / 2, y + 11, label, font_size=10.5, font_weight="bold", text_anchor="middle", fill=ink)
    )
    produces = _data_for(obj).get("industry_roles", {}).get(industry, {}).get("produces")
    if produces == "beer":  # barrels under the label
        for i in range(tile["cubes"]):
            parts.append(_barrel(x + 3.5 + 6 * i, y + 12.5, 4.6, 5.5, full=True))
    else:
        cube = CUBE_COLOURS.get(produces, _CUBE_COLOUR) if produces else CUBE_COLOURS["coal"]
        for i in range(tile["cubes"]):  # small squares under the label
            parts.append(_element("rect", x=x + 3.5 + 3.4 * i, y=y + 13, width=2.8, height=4, fill=cube))
    vp, income = _tile_values(obj, industry, tile["level"])
    if vp is not None and income is not None:  # as printed on the tile: VP bottom left, income bottom right
        parts.append(
            _text(x + 4, y + SPACE - 3.5, str(vp), font_size=7.5, font_weight="bold", fill=ink, class_="tile-vp")
        )
        parts.append(
            _text(
                x + SPACE - 4,
                y + SPACE - 3.5,
                _signed(income),
                font_size=7.5,
                text_anchor="end",
                fill=ink,
                class_="tile-income",
            )
        )
    return _group(
        parts,
        class_="space tile",
        data_space=name,
        data_owner=owner,
        data_industry=industry,
        data_level=tile["level"],
        data_flipped=flipped,
        data_cubes=tile["cubes"],
        data_vp=vp,
        data_income=income,
    )


def _barrel(x: float, y: float, width: float, height: float, *, full: bool) -> str:
    """A barrel of beer with its top-left corner at (x, y): golden when there, a dashed outline when taken."""
    if full:
        return _element(
            "rect",
            x=x,
            y=y,
            width=width,
            height=height,
            rx=width / 3,
            fill=BARREL_COLOUR,
            stroke=_BARREL_RIM,
            stroke_width=0.7,
            class_="barrel",
        )
    return _element(
        "rect",
        x=x,
        y=y,
        width=width,
        height=height,
        rx=width / 3,
        fill="none",
        stroke=_BARREL_RIM,
        stroke_width=0.8,
        stroke_dasharray="2 1.5",
        class_="barrel taken",
    )


# --- Merchant locations ---------------------------------------------------------------------------------------

# A merchant location (a location of the data with a `merchant` section): its name on top, then a row of its
# merchant spaces (each a tile with the barrel beside it) and the bonus a merchant barrel gives.
_MERCHANT_NAME_ROW = 17  # from the top of the box to the top of the row of tiles
_MERCHANT_PAD = 5


def _merchant_bonus(location: dict) -> str:
    """The bonus of one merchant barrel as a short text: '+4 VP', '+£5', '+2 income', 'develop'."""
    bonus = location["merchant"].get("bonus")
    if not bonus:
        return ""
    kind, amount = bonus["type"], bonus["amount"]
    if kind == "vp":
        return f"+{amount} VP"
    if kind == "money":
        return f"+£{amount}"
    if kind == "income":
        return f"+{amount} income"
    if kind == "develop":
        return "develop" if amount == 1 else f"develop ×{amount}"
    return f"{kind} {amount}"


def _merchant_box(location: dict) -> tuple[float, float]:
    """Width and height of the box of a merchant location."""
    n = len(location["merchant"]["slots"])
    row: float = 2 * _MERCHANT_PAD + n * SPACE + (n - 1) * GAP
    bonus = _merchant_bonus(location)
    if bonus:
        row += 6 + 5.6 * len(bonus)
    return max(10 + 7 * len(location["name"]), row), _MERCHANT_NAME_ROW + SPACE + _MERCHANT_PAD


def _merchant_label(data: dict, pic: Picture, tile: str) -> str:
    """What a merchant tile shows: the letter of the one industry it accepts, its kind's name when it accepts
    several ('any'), nothing when blank."""
    accepts = data.get("merchant_tiles", {}).get("kinds", {}).get(tile)
    if accepts is None:
        return tile
    if len(accepts) == 1:
        return pic.letter(accepts[0])
    return tile if accepts else ""


def _draw_merchant_space(
    obj: dict, data: dict, pic: Picture, location: dict, number: int, counts: list[int], x: float, y: float
) -> str:
    """One merchant space with its top-left corner at (x, y): the merchant tile on it (`state.merchants`) and
    whether its barrel is still there, or a dashed outline when the player count leaves it without a tile."""
    name = f"{location['id']}/{number}"
    merchant = obj.get("merchants", {}).get(name)
    if merchant is None:
        who = " or ".join(str(n) for n in counts)
        parts = [
            _tooltip(f"{location['name']} {number}: no merchant tile with {obj['game']['players']} players ({who})"),
            _element(
                "rect",
                x=x,
                y=y,
                width=SPACE,
                height=SPACE,
                rx=3,
                fill="none",
                stroke="#a89a78",
                stroke_dasharray="3 2",
            ),
            _text(
                x + SPACE / 2,
                y + SPACE / 2 + 3,
                "/".join(map(str, counts)),
                font_size=8.5,
                text_anchor="middle",
                fill="#a89a78",
            ),
        ]
        return _group(parts, class_="merchant-space unused", data_space=name, data_players=" ".join(map(str, counts)))
    tile, beer = merchant["tile"], merchant["beer"]
    accepts = data.get("merchant_tiles", {}).get("kinds", {}).get(tile, [])
    if accepts:
        what = "buys " + ", ".join(i.replace("_", " ") for i in accepts)
        what += "; its barrel " + ("is there" if beer else "is taken")
    else:
        what = "blank: buys nothing"
    parts = [
        _tooltip(f"{location['name']} {number}: merchant tile {tile}, {what}"),
        _element(
            "rect",
            x=x,
            y=y,
            width=SPACE,
            height=SPACE,
            rx=3,
            fill="#fffdf6" if accepts else "#ddd5c2",
            stroke="#8b7d5b",
        ),
    ]
    label = _merchant_label(data, pic, tile)
    if label:
        size = 10.5 if len(label) == 1 else 9
        parts.append(
            _text(
                x + SPACE / 2, y + 11.5, label, font_size=size, font_weight="bold", text_anchor="middle", fill="#4a4030"
            )
        )
    if accepts:  # a blank tile never has a barrel
        parts.append(_barrel(x + SPACE / 2 - 5, y + 15, 10, 9, full=beer))
    return _group(parts, class_="merchant-tile", data_space=name, data_tile=tile, data_beer=beer)


def _draw_merchant(obj: dict, data: dict, pic: Picture, location: dict) -> str:
    """A merchant location: its name, its merchant spaces and the bonus of a merchant barrel."""
    lid, name = location["id"], location["name"]
    x, y = pic.positions[lid]
    width, height = _merchant_box(location)
    left, top = x - width / 2, y - height / 2
    parts = [
        _element("rect", x=left, y=top, width=width, height=height, rx=8, fill="#eadfc4", stroke="#8b7d5b"),
        _text(x, top + 13, name, font_size=12, font_weight="bold", text_anchor="middle", fill="#4a4030"),
    ]
    sx = left + _MERCHANT_PAD
    for number, counts in enumerate(location["merchant"]["slots"], start=1):
        parts.append(_draw_merchant_space(obj, data, pic, location, number, counts, sx, top + _MERCHANT_NAME_ROW))
        sx += SPACE + GAP
    bonus = _merchant_bonus(location)
    if bonus:
        parts.append(
            _text(
                sx + 3,
                top + _MERCHANT_NAME_ROW + SPACE / 2 + 3.5,
                bonus,
                font_size=10,
                fill="#4a4030",
                class_="merchant-bonus",
            )
        )
        parts.insert(0, _tooltip(f"{name}: each merchant barrel taken here gives {bonus}"))
    return _group(parts, class_="location merchant", data_location=lid)


def _tile_values(obj: dict, industry: str, level: int) -> tuple[int | None, int | None]:
    """The VP a tile scores when flipped and the income spaces it gives (L-50; classic Brass uses a tile's
    `vp_classic` where it has one, R-11); (None, None) for a tile the data file does not list."""
    for row in _data_for(obj)["tiles"].get(industry, []):
        if row["level"] == level:
            vp = row["vp_classic"] if _family(obj) == "classic" and "vp_classic" in row else row["vp"]
            return vp, row["income"]
    return None, None


# --- Location labels ----------------------------------------------------------------------------------------

MAP_COLOUR = "#f6f3ea"
# Text halo in the map colour: a line passing close to a name is hidden under its letters.
_HALO = {"stroke": MAP_COLOUR, "stroke_width": 3, "stroke_linejoin": "round", "paint_order": "stroke"}
# Estimated advance per character of the 11 px names (bold, regular) and the extent of a line of text around
# its baseline; used only to keep names clear of lines and boxes.
_CHAR_WIDTH = {"bold": 6.4, "normal": 6.0}
_ASCENT, _DESCENT = 9.0, 3.0
# Half the widest stroke of a line or link (9 px), kept free around a name.
_LINE_MARGIN = 4.5

Rect = tuple[float, float, float, float]  # left, top, right, bottom


def _location_rect(location: dict, positions: dict[str, tuple[int, int]]) -> Rect:
    """The box of a location (its spaces), the dot of a town, or the pill of an external location."""
    x, y = positions[location["id"]]
    if location.get("merchant"):
        width, height = _merchant_box(location)
        return x - width / 2, y - height / 2, x + width / 2, y + height / 2
    if location.get("trade_icon"):
        half = (10 + 7 * len(location["name"])) / 2
        return x - half, y - 13, x + half, y + 13
    if not location["spaces"]:
        return x - 7, y - 7, x + 7, y + 7
    width, height = _location_box(len(location["spaces"]))
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(p: tuple[float, float], q: tuple[float, float], rect: Rect) -> bool:
    """Whether the segment p-q passes through the rectangle (Liang–Barsky clipping)."""
    (x1, y1), (x2, y2) = p, q
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for step, room in ((-dx, x1 - rect[0]), (dx, rect[2] - x1), (-dy, y1 - rect[1]), (dy, rect[3] - y1)):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _label_candidates(rect: Rect) -> list[tuple[float, float, str]]:
    """Where a name may go around a location's rectangle, in order of preference: (x, baseline, text-anchor)
    below, above, right, left, then below and above shifted to either side."""
    left, top, right, bottom = rect
    x, y = (left + right) / 2, (top + bottom) / 2
    below, above = bottom + _ASCENT + 2, top - _DESCENT - 2
    places = [(x, below, "middle"), (x, above, "middle"), (right + 4, y + 4, "start"), (left - 4, y + 4, "end")]
    for row in (below, above):
        places += [(left, row, "start"), (right, row, "end"), (x + 4, row, "start"), (x - 4, row, "end")]
    return places


def _text_rect(x: float, y: float, anchor: str, width: float) -> Rect:
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, y - _ASCENT, left + width, y + _DESCENT


@cache
def _label_places(data_name: str, virtual_link: tuple[str, str] | None) -> dict[str, tuple[float, float, str]]:
    """Location id -> (x, baseline, text-anchor) of its name: of the candidate places (`_label_candidates`),
    the one crossing the fewest lines, never over another location's box, another name or the map's edge."""
    data = _load_data(data_name)
    positions = _picture(data_name).positions
    segments = [segment for line in data["lines"] for segment in _line_segments(line["ends"], positions)]
    if virtual_link is not None:
        a, b = virtual_link
        segments.append((positions[a], positions[b]))
    boxes = {loc["id"]: _location_rect(loc, positions) for loc in data["locations"]}
    placed: list[Rect] = []
    places = {}
    for location in data["locations"]:
        if location.get("trade_icon") or location.get("merchant"):
            continue  # the name is inside the pill or the merchant's box
        weight = "normal" if not location["spaces"] else "bold"
        width = _CHAR_WIDTH[weight] * len(location["name"])
        best = None
        for rank, (x, y, anchor) in enumerate(_label_candidates(boxes[location["id"]])):
            text = _text_rect(x, y, anchor, width)
            margin = (text[0] - _LINE_MARGIN, text[1] - _LINE_MARGIN, text[2] + _LINE_MARGIN, text[3] + _LINE_MARGIN)
            cost = sum(_crosses(a, b, margin) for a, b in segments)
            cost += 10 * sum(_overlaps(text, box) for lid, box in boxes.items() if lid != location["id"])
            cost += 10 * sum(_overlaps(text, other) for other in placed)
            if text[0] < 2 or text[2] > MAP_WIDTH - 2 or text[1] < 47 or text[3] > HEIGHT - 2:
                cost += 100
            if best is None or (cost, rank) < best[0]:
                best = ((cost, rank), (x, y, anchor), text)
        assert best is not None
        places[location["id"]] = best[1]
        placed.append(best[2])
    return places


def _virtual_link(obj: dict, data: dict) -> tuple[str, str] | None:
    """The ends of the virtual link (the data's `classic.virtual_link`) when the configuration has it: classic
    Brass (the `classic` family of the catalog) or the `virtual_link` option."""
    ends = data.get("classic", {}).get("virtual_link")
    if ends and (_family(obj) == "classic" or obj["game"]["options"].get("virtual_link")):
        a, b = ends
        return a, b
    return None


def _draw_location(obj: dict, pic: Picture, location: dict) -> str:
    """A location: a box of its spaces and its name below, a dot for a town without spaces, a labelled box for
    an external trading location, or a merchant location's box (`_draw_merchant`)."""
    lid, name = location["id"], location["name"]
    x, y = pic.positions[lid]
    spaces = location["spaces"]
    if location.get("merchant"):
        return _draw_merchant(obj, _data_for(obj), pic, location)
    if location.get("trade_icon"):
        width = 10 + 7 * len(name)
        left = x - width / 2
        parts = [
            _element("rect", x=left, y=y - 13, width=width, height=26, rx=13, fill="#eadfc4", stroke="#8b7d5b"),
            _text(x, y + 4.5, name, font_size=12, font_weight="bold", text_anchor="middle", fill="#4a4030"),
        ]
        return _group(parts, class_="location external", data_location=lid)
    data = _data_for(obj)
    lx, ly, anchor = _label_places(obj["game"]["data"].split("/")[0], _virtual_link(obj, data))[lid]
    if not spaces:
        parts = [
            _element("circle", cx=x, cy=y, r=7, fill="#ffffff", stroke="#555555", stroke_width=1.5),
            _text(lx, ly, name, font_size=11, text_anchor=anchor, fill="#333333", class_="name", **_HALO),
        ]
        return _group(parts, class_="location town", data_location=lid)
    width, height = _location_box(len(spaces))
    left, top = x - width / 2, y - height / 2
    parts = [
        _element("rect", x=left, y=top, width=width, height=height, rx=4, fill="#f2f2f2", stroke="#555555"),
        _text(
            lx, ly, name, font_size=11, font_weight="bold", text_anchor=anchor, fill="#222222", class_="name", **_HALO
        ),
    ]
    for number, icons in enumerate(spaces, start=1):
        sx = left + GAP + (number - 1) * (SPACE + GAP)
        parts.append(_draw_space(obj, pic, location, number, icons, sx, top + GAP))
    return _group(parts, class_="location", data_location=lid)


# --- The side panel -----------------------------------------------------------------------------------------


def _cells(x: float, y: float, labels: list[str], filled: list[bool], fill: str, cls: str, **attrs: Any) -> str:
    """A row of small cells (a market track): filled cells coloured, each labelled below."""
    parts = []
    for i, (label, full) in enumerate(zip(labels, filled, strict=True)):
        cx = x + i * 22
        parts.append(
            _element("rect", x=cx, y=y, width=18, height=18, rx=2, fill=fill if full else "#ffffff", stroke="#777777")
        )
        parts.append(_text(cx + 9, y + 30, label, font_size=10, text_anchor="middle", fill="#555555"))
    return _group(parts, class_=cls, **attrs)


def _draw_panel(
    obj: dict, data: dict, pic: Picture, now: int | None, rounds: int, scored: bool = False, result: str = ""
) -> list[str]:
    """Era, round (of `rounds`), whose turn (`now`), the decision and the action under way (with the coal, iron
    and beer it still takes and the merchant it sells to), the players, the markets, the DCM and the deck; at the
    end, the `result` (who won, by which tie-break)."""
    x = MAP_WIDTH + 15
    out = [_element("rect", x=MAP_WIDTH, y=45, width=PANEL_WIDTH, height=HEIGHT - 45, fill="#ffffff")]
    players = obj["players"]

    y = 75
    era = f"{obj['era'].capitalize()} Era, round {obj['round']} of {rounds}"
    out.append(_text(x, y, era, font_size=15, font_weight="bold", class_="era", data_era=obj["era"]))
    y += 22
    if now is None:
        whose = "no player to move"
        if obj["decision"] == "over":
            whose = "game over"
    else:
        whose = f"player {now} ({PLAYER_COLOUR_NAMES[now % 4]}) to decide: {obj['decision']}"
        if obj["decision"] != "remove":
            whose += f", {obj['actions_left']} action{'s' if obj['actions_left'] != 1 else ''} left"
    out.append(_text(x, y, whose, font_size=12, class_="turn", data_player=now, data_decision=obj["decision"]))
    if result:  # on a line of its own: a tie-break's wording is longer than the panel is wide
        for line in result.split(": ", 1):
            y += 16
            out.append(_text(x, y, line, font_size=12, font_weight="bold", class_="result"))
    action = obj.get("action")
    if action:
        y += 18
        text = "under way: " + ("double build" if action.get("double") else action["kind"])
        if action.get("target"):
            text += f" {action['target']}"
        need = [f"{action[k]} {k}" for k in ("coal", "iron", "beer") if action.get(k)]
        if need:
            text += f" ({', '.join(need)} to take)"
        if action.get("merchant"):
            text += f" to {action['merchant']}"
        out.append(_text(x, y, text, font_size=12, class_="action", data_kind=action["kind"]))

    # Players, in seat order.
    y += 34
    columns = [("player", 0), ("order", 92), ("£", 142), ("income", 182), ("VP", 238), ("links", 280), ("cards", 330)]
    header = [_text(x + dx, y, title, font_size=11, fill="#555555") for title, dx in columns]
    out.append(_group(header, class_="players-header"))
    levels = data["income_track"]["levels"]
    for p, player in enumerate(players):
        y += 22
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        order = obj["turn_order"].index(p) + 1 if p in obj["turn_order"] else ""
        space = player["income_space"]
        level = levels[space] if 0 <= space < len(levels) else space
        weight = "bold" if p == now else None
        values = [
            f"{'▶ ' if p == now else ''}player {p}",
            str(order),
            str(player["money"]),
            f"{_signed(level)} ({space})",
            str(player["vp"]),
            str(player["links_left"]),
            str(sum(player["hand"].values())),
        ]
        row = [_element("rect", x=x - 12, y=y - 10, width=9, height=11, fill=colour)]
        row += [
            _text(x + dx, y, v, font_size=12, font_weight=weight) for v, (_, dx) in zip(values, columns, strict=True)
        ]
        out.append(
            _group(
                row,
                class_="player current" if p == now else "player",
                data_player=p,
                data_colour=colour,
                data_money=player["money"],
                data_income_level=level,
                data_vp=player["vp"],
            )
        )
    y += 16
    out.append(_text(x, y, "income: level (space on the track)", font_size=10, fill="#777777"))

    # Coal and iron markets: the k cubes sit on the k most expensive spaces.
    for resource in ("coal", "iron"):
        market = data[f"{resource}_market"]
        prices = market["prices"]
        cubes = obj[f"{resource}_market"]
        y += 30
        text = f"{resource.capitalize()} market: {cubes} cubes (empty: £{market['empty_price']})"
        out.append(_text(x, y, text, font_size=12))
        filled = [i >= len(prices) - cubes for i in range(len(prices))]
        labels = [f"£{price}" for price in prices]
        out.append(_cells(x, y + 7, labels, filled, CUBE_COLOURS[resource], f"market {resource}", data_cubes=cubes))
        y += 32

    # Distant Cotton Market (in a game that has one): spaces 0 .. x_space; the marker's space is highlighted.
    dcm = obj.get("dcm")
    dcm_data = data.get("distant_cotton_market")
    if dcm is not None and dcm_data is not None:
        y += 30
        text = f"Distant Cotton Market: {len(dcm['pile'])} tiles face down"
        if dcm["discards"]:
            text += f", drawn {', '.join(map(str, dcm['discards']))}"
        out.append(_text(x, y, text, font_size=12))
        labels = [_signed(n) for n in dcm_data["income_by_space"]] + ["X"]
        filled = [i == dcm["marker"] for i in range(len(labels))]
        out.append(_cells(x, y + 7, labels, filled, "#555555", "dcm", data_marker=dcm["marker"]))
        y += 32

    # Cards.
    y += 30
    text = f"Draw pile: {len(obj['deck'])} cards"
    under = sum(obj.get("deck_tile", {}).values())
    if under:
        text += f"; under the deck tile: {under}"
    removed = sum(obj.get("removed", {}).values())
    if removed:
        text += f"; removed unseen: {removed}"
    out.append(_text(x, y, text, font_size=12, class_="deck", data_deck=len(obj["deck"])))

    out.extend(_draw_legend(x, y + 30, data, pic, scored))
    return out


def _draw_legend(x: float, y: float, data: dict, pic: Picture, scored: bool = False) -> list[str]:
    """What the letters, fills and line styles mean; barrels and merchant tiles in a game that has them."""
    out = [_text(x, y, "Key", font_size=12, font_weight="bold")]
    y += 18
    industries = ", ".join(f"{pic.letter(name)} {name.replace('_', ' ')}" for name in data["industries"])
    out.append(_text(x, y, industries, font_size=10.5))
    y += 16
    out.append(_text(x, y, "tile: industry letter and level; filled = flipped, outlined = not", font_size=10.5))
    y += 14
    out.append(_text(x, y, "flipped; small squares = coal / iron cubes on the tile; bottom:", font_size=10.5))
    y += 14
    out.append(_text(x, y, "VP when flipped (left), income spaces when flipped (right)", font_size=10.5))
    roles = data.get("industry_roles", {})
    if any(role.get("produces") == "beer" for role in roles.values()):
        y += 16
        out.append(_barrel(x, y - 8, 6, 7.5, full=True))
        out.append(_barrel(x + 8, y - 8, 6, 7.5, full=False))
        text = "beer barrels: on a brewery tile, beside a merchant tile (dashed: taken)"
        out.append(_text(x + 18, y, text, font_size=10.5))
    if any(location.get("merchant") for location in data["locations"]):
        kinds = data.get("merchant_tiles", {}).get("kinds", {})
        several = [f"{kind} = {'/'.join(pic.letter(i) for i in accepts)}" for kind, accepts in kinds.items()]
        several = [text for text, accepts in zip(several, kinds.values(), strict=True) if len(accepts) > 1]
        lines = [
            "merchant tile: the industry it buys (" + ", ".join([*several, "grey = blank"]) + "), its",
            "barrel, the bonus a merchant barrel gives; a dashed space has no tile",
            "at this player count (the counts that use it)",
        ]
        for line in lines:
            y += 14
            out.append(_text(x, y, line, font_size=10.5))
    samples: list[tuple[str, list[tuple[str, float, str | None]]]] = [
        ("canal and rail", [("#b9d7ef", 6, None), ("#8a8a8a", 1.5, None)]),
        ("canal only", [("#b9d7ef", 6, None)]),
        ("rail only", [("#8a8a8a", 1.5, "6 4")]),
        ("link (owner's colour)", [("#333333", 9, None), (PLAYER_COLOURS[0], 6, None)]),
    ]
    if scored:
        samples.append(
            ("link scored and removed at the end of the era", [("#a8a8a8", 8, None), (PLAYER_COLOURS[0], 5, "9 4")])
        )
    for label, strokes in samples:
        y += 18
        for stroke, width, dash in strokes:
            ends = {"x1": x, "y1": y - 4, "x2": x + 40, "y2": y - 4}
            out.append(_element("line", **ends, stroke=stroke, stroke_width=width, stroke_dasharray=dash))
        out.append(_text(x + 50, y, label, font_size=10.5))
    y += 16
    out.append(_text(x, y, "lines the era cannot use are faded", font_size=10.5, fill="#777777"))
    return [_group(out, class_="legend")]


# --- The picture --------------------------------------------------------------------------------------------


def board(state: Any, *, scored_links: dict[str, int] | None = None) -> str:
    """An SVG picture of a position: the map with its lines, links, tiles and merchant tiles, and a side panel
    with the era, round, player to decide, the players' money, income level, VP, links and hand sizes, the
    markets, the Distant Cotton Market (in a game that has one) and the deck.

    `state` is a `brass.State`, a `brass.reference.State`, a state JSON text or its parsed object.
    `scored_links` (line -> owner), if given, are links that were scored and removed at the end of an era,
    drawn dashed over the map (`class="scored-link"`): pass the links of the position before the era's last
    move to show the network that scored."""
    obj, native = _position(state)
    data = _data_for(obj)
    pic = _picture_for(obj)
    title = _title(obj)
    body = [
        _tooltip(title),
        _element("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#ffffff"),
        _element("rect", x=0, y=45, width=MAP_WIDTH, height=HEIGHT - 45, fill=MAP_COLOUR),
        _text(15, 30, title, font_size=20, font_weight="bold", class_="title", data_game=obj["game"]["name"]),
        _group(_draw_lines(obj, data, pic), class_="lines"),
    ]
    if scored_links is not None:
        scored = _check_scored_links(scored_links, obj, data)
        body.append(_group(_draw_scored_links(obj, data, pic, scored), class_="scored-links"))
    body += [
        _group([_draw_location(obj, pic, location) for location in data["locations"]], class_="locations"),
        _group(
            _draw_panel(
                obj,
                data,
                pic,
                native.current_player,
                native.game.rounds_per_era,
                scored_links is not None,
                brass.text.result(native) if native.is_terminal else "",
            ),
            class_="panel",
        ),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{_attrs({"width": WIDTH, "height": HEIGHT})}'
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
