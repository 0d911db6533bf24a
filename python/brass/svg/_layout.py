"""Where things are in a picture: each game's map from the `picture` section of its data file (latitude and
longitude projected, then nudged), the lines as straight pieces, the boxes of the locations, and the places of the
location names (beside their box, where they cross the fewest lines)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import brass
from brass import _catalog
from brass._catalog import DATA_DIR, data_file
from brass.svg._markup import GAP, HEIGHT, MAP_WIDTH, SPACE


def data_of(obj: dict) -> dict:
    """The data file a state object was made with (read through `data_file`, which tests replace)."""
    return data_file(_catalog.data_name(obj))


def family_of(obj: dict) -> str | None:
    """The rules family of the state's game (`"classic"` for the original Brass)."""
    return _catalog.family(obj["game"]["name"])


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
    entry = _catalog.catalog().get(name)
    if entry is None:
        raise brass.ConfigError(f"game `{name}` is registered but not in {DATA_DIR / 'games.json'}")
    return picture_of(entry["data"])


@cache
def picture_of(data_name: str) -> Picture:
    """The `Picture` of the data file `brass/data/<data_name>.json` (see `picture`)."""
    data = data_file(data_name)
    games = sorted(name for name, entry in _catalog.catalog().items() if entry["data"] == data_name) or [data_name]
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


def picture_for(obj: dict) -> Picture:
    """The `Picture` of the data file a state was made with."""
    return picture_of(_catalog.data_name(obj))


Point = tuple[float, float]


def line_name(line: dict) -> str:
    """A line's name, as the links of a state are keyed and the notation writes it: its first two ends joined by
    `-` (`bolton-manchester`; the line Kidderminster–Worcester that also reaches the south farm brewery is
    `kidderminster-worcester`)."""
    return "-".join(line["ends"][:2])


def line_segments(ends: list[str], positions: dict[str, tuple[int, int]]) -> list[tuple[Point, Point]]:
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


def location_box(n_spaces: int) -> tuple[int, int]:
    """Width and height of the box of a location with `n_spaces` spaces."""
    return n_spaces * SPACE + (n_spaces + 1) * GAP, SPACE + 2 * GAP


# A merchant location (a location of the data with a `merchant` section): its name on top, then a row of its
# merchant spaces (each a tile with the barrel beside it) and the bonus a merchant barrel gives.
MERCHANT_NAME_ROW = 17  # from the top of the box to the top of the row of tiles
MERCHANT_PAD = 5


def merchant_bonus(location: dict) -> str:
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


def merchant_box(location: dict) -> tuple[float, float]:
    """Width and height of the box of a merchant location."""
    n = len(location["merchant"]["slots"])
    row: float = 2 * MERCHANT_PAD + n * SPACE + (n - 1) * GAP
    bonus = merchant_bonus(location)
    if bonus:
        row += 6 + 5.6 * len(bonus)
    return max(10 + 7 * len(location["name"]), row), MERCHANT_NAME_ROW + SPACE + MERCHANT_PAD


# Estimated advance per character of the 11 px names (bold, regular) and the extent of a line of text around
# its baseline; used only to keep names clear of lines and boxes.
CHAR_WIDTH = {"bold": 6.4, "normal": 6.0}
ASCENT, DESCENT = 9.0, 3.0
# Half the widest stroke of a line or link (9 px), kept free around a name.
LINE_MARGIN = 4.5

Rect = tuple[float, float, float, float]  # left, top, right, bottom


def location_rect(location: dict, positions: dict[str, tuple[int, int]]) -> Rect:
    """The box of a location (its spaces), the dot of a town, or the pill of an external location."""
    x, y = positions[location["id"]]
    if location.get("merchant"):
        width, height = merchant_box(location)
        return x - width / 2, y - height / 2, x + width / 2, y + height / 2
    if location.get("trade_icon"):
        half = (10 + 7 * len(location["name"])) / 2
        return x - half, y - 13, x + half, y + 13
    if not location["spaces"]:
        return x - 7, y - 7, x + 7, y + 7
    width, height = location_box(len(location["spaces"]))
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether two rectangles overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crosses(p: tuple[float, float], q: tuple[float, float], rect: Rect) -> bool:
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


def label_candidates(rect: Rect) -> list[tuple[float, float, str]]:
    """Where a name may go around a location's rectangle, in order of preference: (x, baseline, text-anchor)
    below, above, right, left, then below and above shifted to either side."""
    left, top, right, bottom = rect
    x, y = (left + right) / 2, (top + bottom) / 2
    below, above = bottom + ASCENT + 2, top - DESCENT - 2
    places = [(x, below, "middle"), (x, above, "middle"), (right + 4, y + 4, "start"), (left - 4, y + 4, "end")]
    for row in (below, above):
        places += [(left, row, "start"), (right, row, "end"), (x + 4, row, "start"), (x - 4, row, "end")]
    return places


def text_rect(x: float, y: float, anchor: str, width: float) -> Rect:
    """The rectangle a line of text of `width` takes at (x, baseline) with its text-anchor."""
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, y - ASCENT, left + width, y + DESCENT


@cache
def label_places(data_name: str, virtual_link: tuple[str, str] | None) -> dict[str, tuple[float, float, str]]:
    """Location id -> (x, baseline, text-anchor) of its name: of the candidate places (`label_candidates`),
    the one crossing the fewest lines, never over another location's box, another name or the map's edge."""
    data = data_file(data_name)
    positions = picture_of(data_name).positions
    segments = [segment for line in data["lines"] for segment in line_segments(line["ends"], positions)]
    if virtual_link is not None:
        a, b = virtual_link
        segments.append((positions[a], positions[b]))
    boxes = {loc["id"]: location_rect(loc, positions) for loc in data["locations"]}
    placed: list[Rect] = []
    places = {}
    for location in data["locations"]:
        if location.get("trade_icon") or location.get("merchant"):
            continue  # the name is inside the pill or the merchant's box
        weight = "normal" if not location["spaces"] else "bold"
        width = CHAR_WIDTH[weight] * len(location["name"])
        best = None
        for rank, (x, y, anchor) in enumerate(label_candidates(boxes[location["id"]])):
            text = text_rect(x, y, anchor, width)
            margin = (text[0] - LINE_MARGIN, text[1] - LINE_MARGIN, text[2] + LINE_MARGIN, text[3] + LINE_MARGIN)
            cost = sum(crosses(a, b, margin) for a, b in segments)
            cost += 10 * sum(overlaps(text, box) for lid, box in boxes.items() if lid != location["id"])
            cost += 10 * sum(overlaps(text, other) for other in placed)
            if text[0] < 2 or text[2] > MAP_WIDTH - 2 or text[1] < 47 or text[3] > HEIGHT - 2:
                cost += 100
            if best is None or (cost, rank) < best[0]:
                best = ((cost, rank), (x, y, anchor), text)
        assert best is not None
        places[location["id"]] = best[1]
        placed.append(best[2])
    return places


def virtual_link_ends(obj: dict, data: dict) -> tuple[str, str] | None:
    """The ends of the virtual link (the data's `classic.virtual_link`) when the configuration has it: classic
    Brass (the `classic` family of the catalog) or the `virtual_link` option."""
    ends = data.get("classic", {}).get("virtual_link")
    if ends and (family_of(obj) == "classic" or obj["game"]["options"].get("virtual_link")):
        a, b = ends
        return a, b
    return None
