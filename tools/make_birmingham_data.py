"""Regenerate python/brass/data/birmingham.json from the project's shared fact sheet for Brass: Birmingham.

The shared sheet carries every fact with its sources, disagreements and the values kept against other engines;
the engine needs only the facts. This script copies them into the compact form both engines read (the same
format as lancashire.json, with the sections only Birmingham has: merchants, merchant tiles, wild cards). It is
a maintenance tool, not part of the build: the generated file is committed.

    python tools/make_birmingham_data.py ../shared/data/birmingham.json > python/brass/data/birmingham.json
"""

from __future__ import annotations

import json
import sys

# Industry ids of the sheet -> the engine's names (the same words as Lancashire where the industry is the same).
INDUSTRY = {"cotton": "cotton_mill", "manufacturer": "manufacturer", "pottery": "pottery", "coal": "coal_mine",
            "iron": "iron_works", "brewery": "brewery"}
INDUSTRIES = list(INDUSTRY.values())
ROLES = {"cotton_mill": {"sold": True}, "manufacturer": {"sold": True}, "pottery": {"sold": True},
         "coal_mine": {"produces": "coal"}, "iron_works": {"produces": "iron"}, "brewery": {"produces": "beer"}}
# The card with both the cotton mill and the manufacturer icon (the only two-industry card, B-10).
DUAL_CARD = "cotton_mill_manufacturer"

# Where the SVG pictures (python/brass/svg.py) draw the map: not facts of the game, so not in the fact sheet.
# The towns are at their real latitude and longitude; the merchant locations are on their true bearing from
# the town they trade with but pulled in to the edge of the map (their real places, e.g. Oxford 51.75 -1.26 or
# Warrington 53.39 -2.60, would leave most of the picture empty); the farm breweries have no place of their
# own: the north one west of Cannock (its only line), the south one beside the middle of the
# Kidderminster-Worcester line that reaches it.
PICTURE = {
    "about": (
        "For the SVG pictures (brass.svg), not the rules: each location is drawn at its latitude and longitude "
        "(degrees; the merchant locations pulled in to the edge of the map in their direction, the farm "
        "breweries beside the lines that reach them) under an equirectangular projection (y = origin_y + "
        "(north - lat) * scale; x = origin_x + (lon - west) * scale * stretch * cos(latitude)), then moved by "
        "its nudge (pixels) so that crowded boxes and names do not overlap; letters name the industries on "
        "tiles, empty spaces and merchant tiles."
    ),
    "projection": {"north": 53.25, "west": -2.80, "scale": 700.0, "stretch": 1.2, "latitude": 52.65,
                   "origin": [70.0, 60.0]},
    "lat_lon": {
        "belper": [53.024, -1.482],
        "derby": [52.922, -1.476],
        "leek": [53.105, -2.023],
        "stoke": [53.003, -2.180],  # Stoke-on-Trent
        "stone": [52.904, -2.147],
        "uttoxeter": [52.898, -1.865],
        "stafford": [52.807, -2.117],
        "burton": [52.806, -1.642],  # Burton-on-Trent
        "cannock": [52.691, -2.027],
        "tamworth": [52.634, -1.695],
        "walsall": [52.586, -1.982],
        "wolverhampton": [52.587, -2.129],
        "coalbrookdale": [52.639, -2.493],
        "dudley": [52.512, -2.081],
        "kidderminster": [52.388, -2.250],
        "worcester": [52.192, -2.220],
        "birmingham": [52.480, -1.903],
        "coventry": [52.407, -1.512],
        "nuneaton": [52.523, -1.468],
        "redditch": [52.309, -1.945],
        "farm_north": [52.700, -2.250],
        "farm_south": [52.290, -2.400],
        "shrewsbury": [52.720, -2.700],  # real place 52.71 -2.75
        "gloucester": [52.050, -2.230],  # real place 51.86 -2.24
        "oxford": [52.080, -1.600],  # real place 51.75 -1.26
        "warrington": [53.170, -2.390],  # real place 53.39 -2.60
        "nottingham": [52.950, -1.250],  # real place 52.95 -1.15
    },
    "nudge": {"wolverhampton": [-12.0, 0.0], "walsall": [12.0, 0.0], "birmingham": [20.0, 10.0],
              "redditch": [-12.0, 0.0]},
    "letters": {"cotton_mill": "C", "manufacturer": "G", "pottery": "P", "coal_mine": "M", "iron_works": "I",
                "brewery": "B"},
}


def eras(row: dict) -> list[str]:
    return [e for e, ok in (("canal", row["buildable_canal_era"]), ("rail", row["buildable_rail_era"])) if ok]


def tiles(src: dict) -> dict:
    out = {}
    for key, rows in src["industry_tiles"]["tiles"].items():
        industry = INDUSTRY[key]
        out[industry] = []
        for t in rows:
            placed = t["resources_placed"]
            row = {
                "level": t["level"],
                "count": t["count_per_player"],
                "cost": t["cost"],
                "coal": t["coal"],
                "iron": t["iron"],
                "vp": t["vp"],
                "income": t["income_spaces"],
                "cubes": placed["canal_era"] if isinstance(placed, dict) else placed,
                "eras": eras(t),
                "link_icons": t["link_icons"],
            }
            if isinstance(placed, dict):  # B-7, K5: brewery barrels by the era of the build
                row["cubes_rail"] = placed["rail_era"]
            if t["beer_to_sell"] is not None:
                row["beer"] = t["beer_to_sell"]
            if not t["developable"]:  # B-14: lightbulb potteries
                row["developable"] = False
            out[industry].append(row)
    return out


def locations(src: dict) -> list[dict]:
    out = []
    for town in src["towns"]:
        out.append({"id": town["id"], "name": town["name"],
                    "spaces": [[INDUSTRY[i] for i in slot] for slot in town["slots"]],
                    "printed_link_icons": town["printed_link_icons"], "trade_icon": False})
    for farm in src["farm_breweries"]:
        name = "Farm brewery (north)" if farm["id"] == "farm_north" else "Farm brewery (south)"
        out.append({"id": farm["id"], "name": name, "spaces": [["brewery"]],
                    "printed_link_icons": farm["printed_link_icons"], "trade_icon": False, "farm": True})
    for m in src["merchants"]:
        bonus = {"type": m["bonus"]["type"], "amount": m["bonus"]["amount"]}
        out.append({"id": m["id"], "name": m["name"], "spaces": [],
                    "printed_link_icons": m["printed_link_icons"], "trade_icon": m["coal_market_connection_icon"],
                    "merchant": {"slots": m["space_player_counts"], "bonus": bonus}})
    return out


def cards(src: dict, towns: list[str]) -> tuple[list[str], dict]:
    c = src["cards"]
    single = {INDUSTRY[x["industries"][0]]: x for x in c["industry_cards"] if len(x["industries"]) == 1}
    dual = [x for x in c["industry_cards"] if len(x["industries"]) == 2]
    assert len(dual) == 1 and [INDUSTRY[i] for i in dual[0]["industries"]] == ["cotton_mill", "manufacturer"]
    industry_kinds = [i for i in INDUSTRIES if i in single] + [DUAL_CARD]
    kinds = towns + industry_kinds + ["wild_location", "wild_industry"]
    decks = {}
    for n in ("2", "3", "4"):
        deck = {}
        for card in c["location_cards"]:
            if card["counts"][n + "p"]:
                deck[card["location"]] = card["counts"][n + "p"]
        for industry, card in single.items():
            if card["counts"][n + "p"]:
                deck[industry] = card["counts"][n + "p"]
        if dual[0]["counts"][n + "p"]:
            deck[DUAL_CARD] = dual[0]["counts"][n + "p"]
        deck = {k: deck[k] for k in kinds if k in deck}
        assert sum(deck.values()) == c["totals"][n + "p"]["total"], n
        decks[n] = deck
    return kinds, decks


def merchant_tiles(src: dict) -> dict:
    mt = src["merchant_tiles"]
    face = {}
    for t in mt["tiles"]:
        accepts = [INDUSTRY[i] for i in t["accepts"]]
        face[t["id"]] = "blank" if not accepts else ("any" if len(accepts) == 3 else accepts[0])
    kinds = {"blank": [], "any": ["cotton_mill", "manufacturer", "pottery"], "cotton_mill": ["cotton_mill"],
             "manufacturer": ["manufacturer"], "pottery": ["pottery"]}
    by_count = {n[0]: sorted((face[t] for t in ids), key=list(kinds).index)
                for n, ids in mt["sets_by_player_count"].items()}
    return {"kinds": kinds, "by_player_count": by_count}


def main(path: str) -> None:
    src = json.load(open(path))
    consts = src["constants"]
    towns = [t["id"] for t in src["towns"]]
    kinds, decks = cards(src, towns)
    lines = [{"ends": [ln["a"], ln["b"], *ln["also_connects"]], "canal": ln["canal"], "rail": ln["rail"]}
             for ln in src["links"]]
    markets = src["markets"]
    out = {
        "format": "brass-data/1",
        "game": "birmingham",
        "version": "1",
        "about": (
            "Brass: Birmingham (Roxley 2018). Facts copied from the project's fact sheet for this game, where every "
            "number carries its sources and the values kept against other engines; regenerate with "
            "tools/make_birmingham_data.py."
        ),
        "industries": INDUSTRIES,
        "industry_roles": ROLES,
        "locations": locations(src),
        "lines": lines,
        "tiles": tiles(src),
        "card_kinds": kinds,
        "industry_cards": {DUAL_CARD: ["cotton_mill", "manufacturer"]},
        "wild_cards": {"wild_location": {"builds": "location", "count": consts["wild_location_cards"]},
                       "wild_industry": {"builds": "industry", "count": consts["wild_industry_cards"]}},
        "decks": decks,
        "coal_market": {"prices": markets["coal"]["prices"], "empty_price": markets["coal"]["price_when_empty"],
                        "start": markets["coal"]["start_cubes"]},
        "iron_market": {"prices": markets["iron"]["prices"], "empty_price": markets["iron"]["price_when_empty"],
                        "start": markets["iron"]["start_cubes"]},
        "link_costs": {"canal": consts["canal_link_cost"], "rail": consts["rail_link_cost"],
                       "second_rail": consts["double_rail_cost_total"] - consts["rail_link_cost"]},
        "loans": {"amounts": [consts["loan_amount"]], "lowest_income_level": consts["min_income_level"]},
        "merchant_tiles": merchant_tiles(src),
        "income_track": {"levels": src["progress_track"]["space_to_level"],
                         "start_space": src["progress_track"]["start_space"]},
        "setup": {
            "money": consts["starting_money"],
            "hand_size": consts["hand_size"],
            "links": consts["link_tiles_per_player"],
            "rounds_per_era": {k[0]: v for k, v in consts["rounds_per_era"].items()},
            "first_round_actions": consts["actions_first_round_canal_era"],
            "actions_per_turn": consts["actions_per_turn"],
            "face_down_cards": consts["extra_facedown_discard_at_setup"],
        },
        "picture": PICTURE,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
