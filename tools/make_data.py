"""Regenerate python/brass/data/lancashire.json from the project's shared fact sheet.

The shared sheet (../shared/data/lancashire.json) carries every fact with its sources and
disagreements; the engine needs only the facts. This script copies them into the compact form both
engines read. It is a maintenance tool, not part of the build: the generated file is committed.

    python tools/make_data.py ../shared/data/lancashire.json > python/brass/data/lancashire.json
"""

from __future__ import annotations

import json
import sys

INDUSTRIES = ["cotton_mill", "coal_mine", "iron_works", "port", "shipyard"]
# What each industry does in the rules (docs/architecture.md): coal mines and iron works hold and give out
# cubes, cotton mills are sold, ports are sale targets and trade icons, shipyards flip when built.
ROLES = {"cotton_mill": {"sold": True}, "coal_mine": {"produces": "coal"}, "iron_works": {"produces": "iron"},
         "port": {"port": True}, "shipyard": {"flips_when_built": True}}
ERA = {"canal_only": ["canal"], "any": ["canal", "rail"], "rail_only": ["rail"], "never": []}

# Where the SVG pictures (python/brass/svg.py) draw the map: not facts of the game, so not in the shared sheet.
PICTURE = {
    "about": (
        "For the SVG pictures (brass.svg), not the rules: each location is drawn at its latitude and longitude "
        "(degrees; the external locations at the edge of the map in their direction) under an equirectangular "
        "projection (y = origin_y + (north - lat) * scale; x = origin_x + (lon - west) * scale * stretch * "
        "cos(latitude)), then moved by its nudge (pixels) so that crowded boxes and names do not overlap; "
        "letters name the industries on tiles and empty spaces."
    ),
    "projection": {"north": 54.30, "west": -3.30, "scale": 700.0, "stretch": 1.5, "latitude": 53.7,
                   "origin": [20.0, 70.0]},
    "lat_lon": {
        "barrow_in_furness": [54.11, -3.23],
        "birkenhead": [53.39, -3.02],
        "blackburn": [53.75, -2.48],
        "bolton": [53.58, -2.43],
        "burnley": [53.79, -2.24],
        "bury": [53.59, -2.30],
        "colne": [53.86, -2.17],
        "ellesmere_port": [53.28, -2.90],
        "fleetwood": [53.92, -3.01],
        "lancaster": [54.05, -2.80],
        "liverpool": [53.41, -2.98],
        "macclesfield": [53.26, -2.13],
        "manchester": [53.48, -2.24],
        "oldham": [53.54, -2.12],
        "preston": [53.76, -2.70],
        "rochdale": [53.62, -2.16],
        "stockport": [53.41, -2.16],
        "warrington_runcorn": [53.37, -2.65],  # between Warrington and Runcorn
        "wigan": [53.55, -2.63],
        "blackpool": [53.82, -3.05],
        "southport": [53.65, -3.01],
        "northwich": [53.26, -2.52],
        "scotland": [54.30, -2.75],
        "yorkshire": [53.70, -1.92],
        "the_midlands": [53.12, -2.30],
    },
    "nudge": {
        "birkenhead": [-45.0, 10.0],
        "liverpool": [5.0, -15.0],
        "bolton": [-25.0, 0.0],
        "bury": [0.0, -20.0],
        "rochdale": [10.0, -25.0],
        "oldham": [45.0, 0.0],
        "manchester": [0.0, 5.0],
        "stockport": [20.0, 20.0],
        "macclesfield": [20.0, 20.0],
        "burnley": [0.0, 10.0],
        "colne": [30.0, -10.0],
        "wigan": [-10.0, 0.0],
    },
    "letters": {"cotton_mill": "C", "coal_mine": "M", "iron_works": "I", "port": "P", "shipyard": "S"},
}


def main(path: str) -> None:
    src = json.load(open(path))
    loc = src["locations"]
    locations = []
    for town in loc["towns"]:
        locations.append(
            {
                "id": town["id"],
                "name": town["name"],
                "spaces": town["slots"],
                "printed_link_icons": town["printed_link_vp_icons"],
                "trade_icon": town["market_trade_icon"],
            }
        )
    for place in loc["non_industry_locations"]:
        locations.append(
            {
                "id": place["id"],
                "name": place["name"],
                "spaces": [],
                "printed_link_icons": place["printed_link_vp_icons"],
                "trade_icon": place["market_trade_icon"],
            }
        )
    lines = [{"ends": [l["a"], l["b"]], "canal": l["canal"], "rail": l["rail"]} for l in src["links"]["list"]]

    tiles = {}
    for industry in INDUSTRIES:
        rows = []
        for t in src["industry_tiles"]["tiles"][industry]:
            vp = t["vp"]
            row = {
                "level": t["level"],
                "count": t["count_per_player"],
                "cost": t["cost"] or 0,
                "coal": t["coal"] or 0,
                "iron": t["iron"] or 0,
                "vp": vp["roxley"] if isinstance(vp, dict) else (vp or 0),
                "income": t["income_spaces"] or 0,
                "cubes": t["cubes"] or 0,
                "eras": ERA[t["era"]],
            }
            if isinstance(vp, dict):
                row["vp_classic"] = vp["classic"]
            rows.append(row)
        tiles[industry] = rows

    cards = src["cards"]
    by_count = cards["by_player_count_roxley"]
    card_kinds = [t["id"] for t in loc["towns"]] + INDUSTRIES

    def ordered(comp: dict) -> dict:
        assert set(comp) <= set(card_kinds), set(comp) - set(card_kinds)
        return {k: comp[k] for k in card_kinds if comp.get(k)}

    full = dict(cards["full_66_card_composition"]["location"])
    full.update(cards["full_66_card_composition"]["industry"])
    decks = {n: ordered(by_count[n]["composition"]) for n in ("2", "3", "4")}
    for n, d in decks.items():
        assert sum(d.values()) == by_count[n]["deck"], n
    assert sum(full.values()) == 66

    dcm = src["distant_cotton_market"]
    track = [row["income_spaces"] for row in dcm["track"] if not row.get("X")]
    dcm_tiles = {}
    for n in ("2", "3", "4"):
        moves = []
        for value, count in sorted(dcm["tiles"]["by_player_count"][n].items(), key=lambda kv: -int(kv[0])):
            moves += [-int(value)] * count
        dcm_tiles[n] = moves
    full_tiles = []
    for value, count in sorted(dcm["tiles"]["values_full_set"].items(), key=lambda kv: -int(kv[0])):
        full_tiles += [-int(value)] * count

    track_levels = src["progress_track"]["space_to_income_level"]
    flow = src["setup_and_flow"]
    out = {
        "format": "brass-data/1",
        "game": "lancashire",
        "version": "1",
        "about": (
            "Brass: Lancashire (Roxley 2018, full map) and classic Brass (Warfrog 2007). Facts copied from "
            "the project's shared fact sheet, where every number carries its sources (lancashire-sources.md); "
            "regenerate with tools/make_data.py."
        ),
        "industries": INDUSTRIES,
        "industry_roles": ROLES,
        "locations": locations,
        "lines": lines,
        "tiles": tiles,
        "card_kinds": card_kinds,
        "decks": {"full": ordered(full), **decks},
        "coal_market": {"prices": src["markets"]["coal"]["spaces_price_gbp"], "empty_price": 5, "start": 8},
        "iron_market": {"prices": src["markets"]["iron"]["spaces_price_gbp"], "empty_price": 5, "start": 8},
        "link_costs": {"canal": 3, "rail": 5, "second_rail": 10},  # L-35, L-36: two rails £15
        "loans": {"amounts": [10, 20, 30], "lowest_income_level": -10},  # L-45
        "distant_cotton_market": {
            "income_by_space": track,
            "x_space": len(track),
            "tiles": {"full": full_tiles, **dcm_tiles},
        },
        "income_track": {"levels": track_levels, "start_space": src["progress_track"]["start_space"]},
        "setup": {
            "money": flow["start_money"]["roxley"],
            "hand_size": flow["hand_size"],
            "links": flow["link_tiles_per_player"],
            "rounds_per_era": flow["rounds_per_era"]["roxley"],
            "first_round_actions": flow["first_canal_round_actions"],
            "actions_per_turn": flow["actions_per_turn"],
        },
        "classic": {
            "money": flow["start_money"]["classic"],
            "rounds_per_era": {k: v for k, v in flow["rounds_per_era"]["classic"].items() if k in ("3", "4")},
            "removed_unseen": {era: cards["classic_removal"][era] for era in ("canal", "rail")},
            "deck_tile": {"3": 9, "4": 6},
            "virtual_link": src["links"]["virtual_link_classic_only"]["between"],
        },
        "picture": PICTURE,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
