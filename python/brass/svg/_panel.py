"""The side panel of a picture: the era and round, who decides what and the action under way, the players, the
markets, the Distant Cotton Market, the deck, and the key to the map."""

from __future__ import annotations

from typing import Any

from brass.svg._layout import Picture
from brass.svg._markup import (
    CUBE_COLOURS,
    HEIGHT,
    MAP_WIDTH,
    PANEL_WIDTH,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    barrel,
    element,
    group,
    signed,
    svg_text,
)


def cells(x: float, y: float, labels: list[str], filled: list[bool], fill: str, cls: str, **attrs: Any) -> str:
    """A row of small cells (a market track): filled cells coloured, each labelled below."""
    parts = []
    for i, (label, full) in enumerate(zip(labels, filled, strict=True)):
        cx = x + i * 22
        parts.append(
            element("rect", x=cx, y=y, width=18, height=18, rx=2, fill=fill if full else "#ffffff", stroke="#777777")
        )
        parts.append(svg_text(cx + 9, y + 30, label, font_size=10, text_anchor="middle", fill="#555555"))
    return group(parts, class_=cls, **attrs)


def draw_panel(
    obj: dict, data: dict, pic: Picture, now: int | None, rounds: int, scored: bool = False, result: str = ""
) -> list[str]:
    """Era, round (of `rounds`), whose turn (`now`), the decision and the action under way (with the coal, iron
    and beer it still takes and the merchant it sells to), the players, the markets, the DCM and the deck; at the
    end, the `result` (who won, by which tie-break)."""
    x = MAP_WIDTH + 15
    out = [element("rect", x=MAP_WIDTH, y=45, width=PANEL_WIDTH, height=HEIGHT - 45, fill="#ffffff")]
    players = obj["players"]

    y = 75
    era = f"{obj['era'].capitalize()} Era, round {obj['round']} of {rounds}"
    out.append(svg_text(x, y, era, font_size=15, font_weight="bold", class_="era", data_era=obj["era"]))
    y += 22
    if now is None:
        whose = "no player to move"
        if obj["decision"] == "over":
            whose = "game over"
    else:
        whose = f"player {now} ({PLAYER_COLOUR_NAMES[now % 4]}) to decide: {obj['decision']}"
        if obj["decision"] != "remove":
            whose += f", {obj['actions_left']} action{'s' if obj['actions_left'] != 1 else ''} left"
    out.append(svg_text(x, y, whose, font_size=12, class_="turn", data_player=now, data_decision=obj["decision"]))
    if result:  # on a line of its own: a tie-break's wording is longer than the panel is wide
        for line in result.split(": ", 1):
            y += 16
            out.append(svg_text(x, y, line, font_size=12, font_weight="bold", class_="result"))
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
        out.append(svg_text(x, y, text, font_size=12, class_="action", data_kind=action["kind"]))

    # Players, in seat order.
    y += 34
    columns = [("player", 0), ("order", 92), ("£", 142), ("income", 182), ("VP", 238), ("links", 280), ("cards", 330)]
    header = [svg_text(x + dx, y, title, font_size=11, fill="#555555") for title, dx in columns]
    out.append(group(header, class_="players-header"))
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
            f"{signed(level)} ({space})",
            str(player["vp"]),
            str(player["links_left"]),
            str(sum(player["hand"].values())),
        ]
        row = [element("rect", x=x - 12, y=y - 10, width=9, height=11, fill=colour)]
        row += [
            svg_text(x + dx, y, v, font_size=12, font_weight=weight) for v, (_, dx) in zip(values, columns, strict=True)
        ]
        out.append(
            group(
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
    out.append(svg_text(x, y, "income: level (space on the track)", font_size=10, fill="#777777"))

    # Coal and iron markets: the k cubes sit on the k most expensive spaces.
    for resource in ("coal", "iron"):
        market = data[f"{resource}_market"]
        prices = market["prices"]
        cubes = obj[f"{resource}_market"]
        y += 30
        text = f"{resource.capitalize()} market: {cubes} cubes (empty: £{market['empty_price']})"
        out.append(svg_text(x, y, text, font_size=12))
        filled = [i >= len(prices) - cubes for i in range(len(prices))]
        labels = [f"£{price}" for price in prices]
        out.append(cells(x, y + 7, labels, filled, CUBE_COLOURS[resource], f"market {resource}", data_cubes=cubes))
        y += 32

    # Distant Cotton Market (in a game that has one): spaces 0 .. x_space; the marker's space is highlighted.
    dcm = obj.get("dcm")
    dcm_data = data.get("distant_cotton_market")
    if dcm is not None and dcm_data is not None:
        y += 30
        text = f"Distant Cotton Market: {len(dcm['pile'])} tiles face down"
        if dcm["discards"]:
            text += f", drawn {', '.join(map(str, dcm['discards']))}"
        out.append(svg_text(x, y, text, font_size=12))
        labels = [signed(n) for n in dcm_data["income_by_space"]] + ["X"]
        filled = [i == dcm["marker"] for i in range(len(labels))]
        out.append(cells(x, y + 7, labels, filled, "#555555", "dcm", data_marker=dcm["marker"]))
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
    out.append(svg_text(x, y, text, font_size=12, class_="deck", data_deck=len(obj["deck"])))

    out.extend(draw_legend(x, y + 30, data, pic, scored))
    return out


def draw_legend(x: float, y: float, data: dict, pic: Picture, scored: bool = False) -> list[str]:
    """What the letters, fills and line styles mean; barrels and merchant tiles in a game that has them."""
    out = [svg_text(x, y, "Key", font_size=12, font_weight="bold")]
    y += 18
    industries = ", ".join(f"{pic.letter(name)} {name.replace('_', ' ')}" for name in data["industries"])
    out.append(svg_text(x, y, industries, font_size=10.5))
    y += 16
    out.append(svg_text(x, y, "tile: industry letter and level; filled = flipped, outlined = not", font_size=10.5))
    y += 14
    out.append(svg_text(x, y, "flipped; small squares = coal / iron cubes on the tile; bottom:", font_size=10.5))
    y += 14
    out.append(svg_text(x, y, "VP when flipped (left), income spaces when flipped (right)", font_size=10.5))
    roles = data.get("industry_roles", {})
    if any(role.get("produces") == "beer" for role in roles.values()):
        y += 16
        out.append(barrel(x, y - 8, 6, 7.5, full=True))
        out.append(barrel(x + 8, y - 8, 6, 7.5, full=False))
        text = "beer barrels: on a brewery tile, beside a merchant tile (dashed: taken)"
        out.append(svg_text(x + 18, y, text, font_size=10.5))
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
            out.append(svg_text(x, y, line, font_size=10.5))
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
            out.append(element("line", **ends, stroke=stroke, stroke_width=width, stroke_dasharray=dash))
        out.append(svg_text(x + 50, y, label, font_size=10.5))
    y += 16
    out.append(svg_text(x, y, "lines the era cannot use are faded", font_size=10.5, fill="#777777"))
    return [group(out, class_="legend")]
