"""The map of a picture: the lines (canal, rail, links, links scored at the end of an era), the locations with
their spaces and tiles (industry letter and level, cubes or barrels, VP and income when flipped), merchant
locations with their tiles and barrels, towns and external locations."""

from __future__ import annotations

from typing import Any

import brass
from brass.svg._layout import (
    MERCHANT_NAME_ROW,
    MERCHANT_PAD,
    Picture,
    Point,
    data_of,
    family_of,
    label_places,
    line_name,
    line_segments,
    location_box,
    merchant_bonus,
    merchant_box,
    virtual_link_ends,
)
from brass.svg._markup import (
    CUBE_COLOURS,
    GAP,
    HALO,
    INK_ON_PLAYER,
    OTHER_CUBE_COLOUR,
    PLAYER_COLOURS,
    SPACE,
    barrel,
    element,
    group,
    signed,
    svg_text,
    tint,
    tooltip,
)


def segment_attrs(segment: tuple[Point, Point]) -> dict[str, float]:
    """The end points of a straight piece as the attributes of an SVG `line`."""
    (x1, y1), (x2, y2) = segment
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}


def line_description(line: dict) -> str:
    """'bolton-manchester', or for a line with more ends 'kidderminster-worcester (and farm_south)'."""
    name = line_name(line)
    more = line["ends"][2:]
    return f"{name} (and {', '.join(more)})" if more else name


def draw_lines(obj: dict, data: dict, pic: Picture) -> list[str]:
    """Every line of the map: a pale blue band if it can take a canal, a grey line if it can take a rail
    (dashed when rail only); lines the era cannot use are faded; a placed link is a thick line in its owner's
    colour. A line with a third end is drawn as a T (`line_segments`). The virtual link Liverpool–Birkenhead is
    dotted when the configuration has it."""
    out = []
    era = obj["era"]
    for line in data["lines"]:
        name = line_name(line)
        segments = [segment_attrs(segment) for segment in line_segments(line["ends"], pic.positions)]
        more = " ".join(line["ends"]) if len(line["ends"]) > 2 else None
        owner = obj["links"].get(name)
        if owner is not None:
            colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
            parts = [tooltip(f"{era} link {line_description(line)} of player {owner}")]
            parts += [
                element("line", **ends, stroke="#333333", stroke_width=9, stroke_linecap="round") for ends in segments
            ]
            parts += [
                element("line", **ends, stroke=colour, stroke_width=6, stroke_linecap="round") for ends in segments
            ]
            out.append(group(parts, class_="link", data_line=name, data_ends=more, data_owner=owner, data_era=era))
            continue
        parts = [tooltip(f"{line_description(line)}: " + " and ".join(k for k in ("canal", "rail") if line[k]))]
        if line["canal"]:
            parts += [
                element("line", **ends, stroke="#b9d7ef", stroke_width=6, stroke_linecap="round") for ends in segments
            ]
        if line["rail"]:
            dash = None if line["canal"] else "6 4"
            parts += [
                element("line", **ends, stroke="#8a8a8a", stroke_width=1.5, stroke_dasharray=dash) for ends in segments
            ]
        usable = line[era]
        out.append(
            group(
                parts,
                class_="line",
                data_line=name,
                data_ends=more,
                data_canal=line["canal"],
                data_rail=line["rail"],
                opacity=None if usable else 0.35,
            )
        )
    virtual = virtual_link_ends(obj, data)
    if virtual is not None:
        a, b = virtual
        (x1, y1), (x2, y2) = pic.positions[a], pic.positions[b]
        parts = [
            tooltip(f"virtual link {a}-{b} (industry cards only)"),
            element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#555555", stroke_width=2, stroke_dasharray="2 3"),
        ]
        out.append(group(parts, class_="virtual-link", data_line=f"{a}-{b}"))
    return out


def draw_scored_links(obj: dict, data: dict, pic: Picture, scored_links: dict[str, int]) -> list[str]:
    """Links removed when their era was scored (see the module docstring), dashed in their owner's colour."""
    out = []
    for line in data["lines"]:
        name = line_name(line)
        if name not in scored_links:
            continue
        owner = scored_links[name]
        segments = [segment_attrs(segment) for segment in line_segments(line["ends"], pic.positions)]
        colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        parts = [
            tooltip(f"link {line_description(line)} of player {owner}: scored, then removed at the end of the era")
        ]
        parts += [
            element("line", **ends, stroke="#333333", stroke_width=8, stroke_opacity=0.45, stroke_linecap="round")
            for ends in segments
        ]
        parts += [element("line", **ends, stroke=colour, stroke_width=5, stroke_dasharray="9 4") for ends in segments]
        more = " ".join(line["ends"]) if len(line["ends"]) > 2 else None
        out.append(group(parts, class_="scored-link", data_line=name, data_ends=more, data_owner=owner))
    return out


def check_scored_links(scored_links: Any, obj: dict, data: dict) -> dict[str, int]:
    """`scored_links` as a dict of line -> owner, checked against the map and the player count."""
    if not isinstance(scored_links, dict):
        raise brass.ArgumentTypeError(
            f"scored_links must be a dict of line -> owner, not {type(scored_links).__name__}"
        )
    lines = {line_name(line) for line in data["lines"]}
    for name, owner in scored_links.items():
        if name not in lines:
            raise brass.InvalidStateError(f"scored_links: `{name}` is not a line of this map")
        if isinstance(owner, bool) or not isinstance(owner, int):
            raise brass.ArgumentTypeError(f"scored_links[{name!r}]: an owner index (int) is needed")
        if not 0 <= owner < obj["game"]["players"]:
            raise brass.InvalidStateError(f"scored_links[{name!r}]: no player {owner} in this game")
    return dict(scored_links)


def draw_space(obj: dict, pic: Picture, location: dict, number: int, icons: list[str], x: float, y: float) -> str:
    """One building space with its top-left corner at (x, y): the industry letters when empty, else the tile."""
    name = f"{location['id']}/{number}"
    tile = obj["board"].get(name)
    if tile is None:
        letters = "/".join(pic.letter(i) for i in icons)
        parts = [
            tooltip(f"{location['name']} {number}: empty, " + " or ".join(i.replace("_", " ") for i in icons)),
            element("rect", x=x, y=y, width=SPACE, height=SPACE, rx=3, fill="#ffffff", stroke="#9a9a9a"),
            svg_text(x + SPACE / 2, y + SPACE / 2 + 3.5, letters, font_size=10, text_anchor="middle", fill="#777777"),
        ]
        return group(parts, class_="space empty", data_space=name, data_icons=" ".join(icons))

    owner, industry = tile["owner"], tile["industry"]
    colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
    flipped = tile["flipped"]
    state_word = "flipped" if flipped else "not flipped"
    parts = [
        tooltip(
            f"{location['name']} {number}: {industry.replace('_', ' ')} level {tile['level']} of player {owner}, "
            f"{state_word}, {tile['cubes']} cubes"
        )
    ]
    if flipped:  # a flipped tile is filled with its owner's colour
        parts.append(element("rect", x=x, y=y, width=SPACE, height=SPACE, rx=3, fill=colour, stroke=colour))
        ink = INK_ON_PLAYER[owner % len(INK_ON_PLAYER)]
    else:  # an unflipped tile is outlined
        parts.append(
            element(
                "rect",
                x=x + 1.5,
                y=y + 1.5,
                width=SPACE - 3,
                height=SPACE - 3,
                rx=3,
                fill=tint(colour, 0.8),
                stroke=colour,
                stroke_width=3,
            )
        )
        ink = "#000000"
    label = f"{pic.letter(industry)}{tile['level']}"
    parts.append(
        svg_text(x + SPACE / 2, y + 11, label, font_size=10.5, font_weight="bold", text_anchor="middle", fill=ink)
    )
    produces = data_of(obj).get("industry_roles", {}).get(industry, {}).get("produces")
    if produces == "beer":  # barrels under the label
        for i in range(tile["cubes"]):
            parts.append(barrel(x + 3.5 + 6 * i, y + 12.5, 4.6, 5.5, full=True))
    else:
        cube = CUBE_COLOURS.get(produces, OTHER_CUBE_COLOUR) if produces else CUBE_COLOURS["coal"]
        for i in range(tile["cubes"]):  # small squares under the label
            parts.append(element("rect", x=x + 3.5 + 3.4 * i, y=y + 13, width=2.8, height=4, fill=cube))
    vp, income = tile_values(obj, industry, tile["level"])
    if vp is not None and income is not None:  # as printed on the tile: VP bottom left, income bottom right
        parts.append(
            svg_text(x + 4, y + SPACE - 3.5, str(vp), font_size=7.5, font_weight="bold", fill=ink, class_="tile-vp")
        )
        parts.append(
            svg_text(
                x + SPACE - 4,
                y + SPACE - 3.5,
                signed(income),
                font_size=7.5,
                text_anchor="end",
                fill=ink,
                class_="tile-income",
            )
        )
    return group(
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


def merchant_label(data: dict, pic: Picture, tile: str) -> str:
    """What a merchant tile shows: the letter of the one industry it accepts, its kind's name when it accepts
    several ('any'), nothing when blank."""
    accepts = data.get("merchant_tiles", {}).get("kinds", {}).get(tile)
    if accepts is None:
        return tile
    if len(accepts) == 1:
        return pic.letter(accepts[0])
    return tile if accepts else ""


def draw_merchant_space(
    obj: dict, data: dict, pic: Picture, location: dict, number: int, counts: list[int], x: float, y: float
) -> str:
    """One merchant space with its top-left corner at (x, y): the merchant tile on it (`state.merchants`) and
    whether its barrel is still there, or a dashed outline when the player count leaves it without a tile."""
    name = f"{location['id']}/{number}"
    merchant = obj.get("merchants", {}).get(name)
    if merchant is None:
        who = " or ".join(str(n) for n in counts)
        parts = [
            tooltip(f"{location['name']} {number}: no merchant tile with {obj['game']['players']} players ({who})"),
            element(
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
            svg_text(
                x + SPACE / 2,
                y + SPACE / 2 + 3,
                "/".join(map(str, counts)),
                font_size=8.5,
                text_anchor="middle",
                fill="#a89a78",
            ),
        ]
        return group(parts, class_="merchant-space unused", data_space=name, data_players=" ".join(map(str, counts)))
    tile, beer = merchant["tile"], merchant["beer"]
    accepts = data.get("merchant_tiles", {}).get("kinds", {}).get(tile, [])
    if accepts:
        what = "buys " + ", ".join(i.replace("_", " ") for i in accepts)
        what += "; its barrel " + ("is there" if beer else "is taken")
    else:
        what = "blank: buys nothing"
    parts = [
        tooltip(f"{location['name']} {number}: merchant tile {tile}, {what}"),
        element(
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
    label = merchant_label(data, pic, tile)
    if label:
        size = 10.5 if len(label) == 1 else 9
        parts.append(
            svg_text(
                x + SPACE / 2, y + 11.5, label, font_size=size, font_weight="bold", text_anchor="middle", fill="#4a4030"
            )
        )
    if accepts:  # a blank tile never has a barrel
        parts.append(barrel(x + SPACE / 2 - 5, y + 15, 10, 9, full=beer))
    return group(parts, class_="merchant-tile", data_space=name, data_tile=tile, data_beer=beer)


def draw_merchant(obj: dict, data: dict, pic: Picture, location: dict) -> str:
    """A merchant location: its name, its merchant spaces and the bonus of a merchant barrel."""
    lid, name = location["id"], location["name"]
    x, y = pic.positions[lid]
    width, height = merchant_box(location)
    left, top = x - width / 2, y - height / 2
    parts = [
        element("rect", x=left, y=top, width=width, height=height, rx=8, fill="#eadfc4", stroke="#8b7d5b"),
        svg_text(x, top + 13, name, font_size=12, font_weight="bold", text_anchor="middle", fill="#4a4030"),
    ]
    sx = left + MERCHANT_PAD
    for number, counts in enumerate(location["merchant"]["slots"], start=1):
        parts.append(draw_merchant_space(obj, data, pic, location, number, counts, sx, top + MERCHANT_NAME_ROW))
        sx += SPACE + GAP
    bonus = merchant_bonus(location)
    if bonus:
        parts.append(
            svg_text(
                sx + 3,
                top + MERCHANT_NAME_ROW + SPACE / 2 + 3.5,
                bonus,
                font_size=10,
                fill="#4a4030",
                class_="merchant-bonus",
            )
        )
        parts.insert(0, tooltip(f"{name}: each merchant barrel taken here gives {bonus}"))
    return group(parts, class_="location merchant", data_location=lid)


def tile_values(obj: dict, industry: str, level: int) -> tuple[int | None, int | None]:
    """The VP a tile scores when flipped and the income spaces it gives (L-50; classic Brass uses a tile's
    `vp_classic` where it has one, R-11); (None, None) for a tile the data file does not list."""
    for row in data_of(obj)["tiles"].get(industry, []):
        if row["level"] == level:
            vp = row["vp_classic"] if family_of(obj) == "classic" and "vp_classic" in row else row["vp"]
            return vp, row["income"]
    return None, None


def draw_location(obj: dict, pic: Picture, location: dict) -> str:
    """A location: a box of its spaces and its name below, a dot for a town without spaces, a labelled box for
    an external trading location, or a merchant location's box (`draw_merchant`)."""
    lid, name = location["id"], location["name"]
    x, y = pic.positions[lid]
    spaces = location["spaces"]
    if location.get("merchant"):
        return draw_merchant(obj, data_of(obj), pic, location)
    if location.get("trade_icon"):
        width = 10 + 7 * len(name)
        left = x - width / 2
        parts = [
            element("rect", x=left, y=y - 13, width=width, height=26, rx=13, fill="#eadfc4", stroke="#8b7d5b"),
            svg_text(x, y + 4.5, name, font_size=12, font_weight="bold", text_anchor="middle", fill="#4a4030"),
        ]
        return group(parts, class_="location external", data_location=lid)
    data = data_of(obj)
    lx, ly, anchor = label_places(obj["game"]["data"].split("/")[0], virtual_link_ends(obj, data))[lid]
    if not spaces:
        parts = [
            element("circle", cx=x, cy=y, r=7, fill="#ffffff", stroke="#555555", stroke_width=1.5),
            svg_text(lx, ly, name, font_size=11, text_anchor=anchor, fill="#333333", class_="name", **HALO),
        ]
        return group(parts, class_="location town", data_location=lid)
    width, height = location_box(len(spaces))
    left, top = x - width / 2, y - height / 2
    parts = [
        element("rect", x=left, y=top, width=width, height=height, rx=4, fill="#f2f2f2", stroke="#555555"),
        svg_text(
            lx, ly, name, font_size=11, font_weight="bold", text_anchor=anchor, fill="#222222", class_="name", **HALO
        ),
    ]
    for number, icons in enumerate(spaces, start=1):
        sx = left + GAP + (number - 1) * (SPACE + GAP)
        parts.append(draw_space(obj, pic, location, number, icons, sx, top + GAP))
    return group(parts, class_="location", data_location=lid)
