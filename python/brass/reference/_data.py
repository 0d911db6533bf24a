"""Game data: the map, tiles, cards, markets and tracks, read from `brass/data/<data file>.json`.

Nothing in the rules modules hard-codes a fact that is in the data file; this module only indexes it (data order is
the order of every id block in docs/actions.md). It reads the sections every game has; a section only one game has
(Lancashire: `distant_cotton_market`, `classic`, the full deck `decks.full`) is read by that game's module from
`raw`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NotRequired, TypedDict

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Space:
    """One building space: global index, name `<location>/<n>`, its location and the icons it shows."""

    index: int
    name: str
    location: str
    number: int
    icons: tuple[str, ...]


@dataclass(frozen=True)
class Line:
    """One line and the locations it joins (`ends`, two or more: a link on it joins all of them); its name is its
    first two ends joined with "-"; `canal` / `rail` say which link kinds it takes."""

    index: int
    name: str
    ends: tuple[str, ...]
    canal: bool
    rail: bool


class TileRow(TypedDict):
    """One row of the tile table: an industry's tiles of one level."""

    level: int
    count: int
    cost: int
    coal: int
    iron: int
    vp: int
    income: int
    cubes: int
    eras: list[str]
    vp_classic: NotRequired[int]  # the classic Brass value where it differs
    # Birmingham (docs/birmingham.md): the link icons printed on the flipped tile (B-19), the beer a sale of it
    # needs (B-15), the barrels of a brewery built in the Rail Era (B-7), and `developable: false` on the
    # lightbulb potteries (B-14).
    link_icons: NotRequired[int]
    beer: NotRequired[int]
    cubes_rail: NotRequired[int]
    developable: NotRequired[bool]


class GameData:
    """Indexed view of one data file."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.name: str = raw["game"]
        self.version: str = raw["version"]
        self.tag = f"{self.name}/{self.version}"
        self.industries: list[str] = list(raw["industries"])
        # What each industry does in the rules (`industry_roles`): the resource it produces (coal, iron), whether it
        # is sold (L-40), whether it is a port (Lancashire: a sale target and a market trade icon), whether it flips
        # as soon as it is built (L-28).
        roles = raw["industry_roles"]
        self.produces: dict[str, str] = {i: roles[i]["produces"] for i in self.industries if "produces" in roles[i]}
        self.sold: list[str] = [i for i in self.industries if roles[i].get("sold")]
        self.port_industries: list[str] = [i for i in self.industries if roles[i].get("port")]
        self.flips_when_built: list[str] = [i for i in self.industries if roles[i].get("flips_when_built")]

        self.locations: list[str] = [loc["id"] for loc in raw["locations"]]
        self.location_name: dict[str, str] = {loc["id"]: loc["name"] for loc in raw["locations"]}
        self.printed_link_icons: dict[str, int] = {loc["id"]: loc["printed_link_icons"] for loc in raw["locations"]}
        self.printed_trade_icon: dict[str, bool] = {loc["id"]: bool(loc["trade_icon"]) for loc in raw["locations"]}
        self.spaces: list[Space] = []
        self.location_spaces: dict[str, list[int]] = {}
        for loc in raw["locations"]:
            ids = []
            for n, icons in enumerate(loc["spaces"], start=1):
                space = Space(len(self.spaces), f"{loc['id']}/{n}", loc["id"], n, tuple(icons))
                self.spaces.append(space)
                ids.append(space.index)
            self.location_spaces[loc["id"]] = ids
        self.space_by_name: dict[str, int] = {s.name: s.index for s in self.spaces}

        self.lines: list[Line] = []
        for i, line in enumerate(raw["lines"]):
            ends = tuple(line["ends"])
            self.lines.append(Line(i, f"{ends[0]}-{ends[1]}", ends, bool(line["canal"]), bool(line["rail"])))
        self.line_by_name: dict[str, int] = {line.name: line.index for line in self.lines}

        # Tiles: per industry, level -> tile row; the mat stack lists one level per tile, lowest first.
        self.tiles: dict[str, dict[int, TileRow]] = {}
        self.stack: dict[str, list[int]] = {}
        for industry in self.industries:
            rows = sorted(raw["tiles"][industry], key=lambda r: r["level"])
            self.tiles[industry] = {r["level"]: r for r in rows}
            self.stack[industry] = [r["level"] for r in rows for _ in range(r["count"])]

        self.card_kinds: list[str] = list(raw["card_kinds"])
        self.card_order: dict[str, int] = {k: i for i, k in enumerate(self.card_kinds)}

        cm, im = raw["coal_market"], raw["iron_market"]
        self.market_prices: dict[str, list[int]] = {"coal": list(cm["prices"]), "iron": list(im["prices"])}
        self.market_empty_price: dict[str, int] = {"coal": cm["empty_price"], "iron": im["empty_price"]}
        self.market_start: dict[str, int] = {"coal": cm["start"], "iron": im["start"]}

        # L-35, L-36: the price of a canal, of a rail, and of the second rail of the same action.
        self.link_costs: dict[str, int] = dict(raw["link_costs"])
        # L-45: the loan amounts and the lowest income level a loan may reach.
        self.loan_amounts: list[int] = list(raw["loans"]["amounts"])
        self.lowest_income_level: int = raw["loans"]["lowest_income_level"]

        self.levels: list[int] = list(raw["income_track"]["levels"])
        self.start_space: int = raw["income_track"]["start_space"]

        setup = raw["setup"]
        self.money: int = setup["money"]
        self.hand_size: int = setup["hand_size"]
        self.links: int = setup["links"]
        self.first_round_actions: int = setup["first_round_actions"]
        self.actions_per_turn: int = setup["actions_per_turn"]
        # L-7 and L-2: rounds per era and the deck, by player count.
        self.rounds_by_players: dict[int, int] = {int(k): v for k, v in setup["rounds_per_era"].items()}
        self.decks_by_players: dict[int, dict[str, int]] = {int(k): v for k, v in raw["decks"].items() if k.isdigit()}

    # --- per player count -------------------------------------------------------------------------
    def deck_for(self, players: int) -> dict[str, int]:
        """L-2: the deck composition (card kind -> count, in card-kind order) for the player count."""
        deck = self.decks_by_players[players]
        return {k: deck[k] for k in self.card_kinds if deck.get(k, 0)}

    # --- tiles ----------------------------------------------------------------------------------------
    def tile(self, industry: str, level: int) -> TileRow:
        return self.tiles[industry][level]

    def new_tile_cubes(self, industry: str, level: int, era: str) -> int:
        """L-27, B-7: the cubes a tile receives when it is built: its printed number, or its Rail Era number when it
        has one and is built in the Rail Era (a Birmingham brewery: 1 barrel in the Canal Era, 2 in the Rail Era)."""
        row = self.tiles[industry][level]
        if era == "rail" and "cubes_rail" in row:
            return row["cubes_rail"]
        return row["cubes"]

    def most_cubes(self, industry: str, level: int) -> int:
        """The most cubes a tile of this level can hold (either era's number)."""
        row = self.tiles[industry][level]
        return max(row["cubes"], row.get("cubes_rail", 0))

    def stack_size(self, industry: str) -> int:
        return len(self.stack[industry])

    def lowest_level(self, industry: str, remaining: int) -> int | None:
        """The level of the top (lowest-level) tile on a mat stack with `remaining` tiles left."""
        if remaining <= 0:
            return None
        stack = self.stack[industry]
        return stack[len(stack) - remaining]

    def highest_space_of_level(self, level: int) -> int:
        """L-45: the highest track space showing income level `level`."""
        return max(i for i, lv in enumerate(self.levels) if lv == level)


@cache
def load(name: str) -> GameData:
    """Read and index `brass/data/<name>.json` once."""
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as f:
        return GameData(json.load(f))
