"""How the pictures are written: the colours and sizes they share, and the SVG elements they are made of."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

# Okabe–Ito colours, distinguishable with the common colour-vision deficiencies; seat order.
PLAYER_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7")
PLAYER_COLOUR_NAMES = ("blue", "orange", "green", "pink")
# Text colour that reads well on each player colour.
INK_ON_PLAYER = ("#ffffff", "#000000", "#ffffff", "#000000")

CUBE_COLOURS = {"coal": "#222222", "iron": "#c0642a"}
OTHER_CUBE_COLOUR = "#6a4a8a"  # cubes of any other resource
# Beer (an industry whose role `produces` beer, a merchant's barrel): a golden barrel with a brown rim, a shape
# and colour apart from the coal and iron cubes.
BARREL_COLOUR, BARREL_RIM = "#f2c12e", "#7a5200"

MAP_WIDTH = 940
PANEL_WIDTH = 440
WIDTH = MAP_WIDTH + PANEL_WIDTH
HEIGHT = 940

SPACE = 28  # side of a building space
GAP = 3  # gap between spaces and around them in a location box

MAP_COLOUR = "#f6f3ea"
# Text halo in the map colour: a line passing close to a name is hidden under its letters.
HALO = {"stroke": MAP_COLOUR, "stroke_width": 3, "stroke_linejoin": "round", "paint_order": "stroke"}


def attributes(attrs: dict[str, Any]) -> str:
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


def element(tag: str, children: str = "", /, **attrs: Any) -> str:
    """An element with already built children (markup, not text)."""
    if children:
        return f"<{tag}{attributes(attrs)}>{children}</{tag}>"
    return f"<{tag}{attributes(attrs)}/>"


def svg_text(x: float, y: float, text: str, **attrs: Any) -> str:
    """A `<text>` element; the text is escaped."""
    return f"<text{attributes({'x': x, 'y': y, **attrs})}>{escape(text)}</text>"


def group(children: list[str], **attrs: Any) -> str:
    """A `<g>` of the given elements."""
    return f"<g{attributes(attrs)}>" + "".join(children) + "</g>"


def tooltip(text: str) -> str:
    """A `<title>` child, shown as a tooltip by browsers."""
    return f"<title>{escape(text)}</title>"


def tint(colour: str, amount: float) -> str:
    """The colour `#rrggbb` mixed with white; `amount` 0 is the colour, 1 is white."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def signed(n: int) -> str:
    """`+2`, `0`, `-3`: a number with its sign."""
    return f"+{n}" if n > 0 else str(n)


def barrel(x: float, y: float, width: float, height: float, *, full: bool) -> str:
    """A barrel of beer with its top-left corner at (x, y): golden when there, a dashed outline when taken."""
    if full:
        return element(
            "rect",
            x=x,
            y=y,
            width=width,
            height=height,
            rx=width / 3,
            fill=BARREL_COLOUR,
            stroke=BARREL_RIM,
            stroke_width=0.7,
            class_="barrel",
        )
    return element(
        "rect",
        x=x,
        y=y,
        width=width,
        height=height,
        rx=width / 3,
        fill="none",
        stroke=BARREL_RIM,
        stroke_width=0.8,
        stroke_dasharray="2 1.5",
        class_="barrel taken",
    )
