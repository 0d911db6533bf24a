"""Game data: the map, tiles, cards, markets and tracks, read from `brass/data/<game>.json`.

Nothing in the rules modules hard-codes a fact that is in the data file; this module only indexes it
(data order is the order of every id block in docs/actions.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

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
    """One line and the locations it joins (`ends`, two or more: a link joins all of them); its name is its first
    two ends joined with "-"; `canal` / `rail` say which link kinds it takes."""

    index: int
    name: str
    ends: tuple[str, ...]
    canal: bool
    rail: bool


class GameData:
    """Indexed view of one data file."""

    def __init__(self, raw: dict) -> None:
        self.raw = raw
        self.name: str = raw["game"]
        self.version: str = raw["version"]
        self.tag = f"{self.name}/{self.version}"
        self.industries: list[str] = list(raw["industries"])
        # What each industry does in the rules (`industry_roles`): the resource it produces (coal, iron), whether it is
        # sold (L-40), whether it is a port (Lancashire: a sale target and a market trade icon), whether it flips as
        # soon as it is built (L-28).
        roles = raw["industry_roles"]
        self.produces: dict[str, str] = {i: roles[i]["produces"] for i in self.industries if "produces" in roles[i]}
        self.sold: list[str] = [i for i in self.industries if roles[i].get("sold")]
        self.port_industries: list[str] = [i for i in self.industries if roles[i].get("port")]
        self.flips_when_built: list[str] = [i for i in self.industries if roles[i].get("flips_when_built")]

        self.locations: list[str] = [loc["id"] for loc in raw["locations"]]
        self.location_name = {loc["id"]: loc["name"] for loc in raw["locations"]}
        self.printed_link_icons = {loc["id"]: loc["printed_link_icons"] for loc in raw["locations"]}
        self.printed_trade_icon = {loc["id"]: bool(loc["trade_icon"]) for loc in raw["locations"]}
        self.spaces: list[Space] = []
        self.location_spaces: dict[str, list[int]] = {}
        for loc in raw["locations"]:
            ids = []
            for n, icons in enumerate(loc["spaces"], start=1):
                space = Space(len(self.spaces), f"{loc['id']}/{n}", loc["id"], n, tuple(icons))
                self.spaces.append(space)
                ids.append(space.index)
            self.location_spaces[loc["id"]] = ids
        self.space_by_name = {s.name: s.index for s in self.spaces}

        self.lines: list[Line] = []
        for i, line in enumerate(raw["lines"]):
            ends = tuple(line["ends"])
            self.lines.append(Line(i, f"{ends[0]}-{ends[1]}", ends, bool(line["canal"]), bool(line["rail"])))
        self.line_by_name = {line.name: line.index for line in self.lines}

        # Tiles: per industry, level -> tile row; the mat stack lists one level per tile, lowest first.
        self.tiles: dict[str, dict[int, dict]] = {}
        self.stack: dict[str, list[int]] = {}
        for industry in self.industries:
            rows = sorted(raw["tiles"][industry], key=lambda r: r["level"])
            self.tiles[industry] = {r["level"]: r for r in rows}
            self.stack[industry] = [r["level"] for r in rows for _ in range(r["count"])]

        self.card_kinds: list[str] = list(raw["card_kinds"])
        self.card_order = {k: i for i, k in enumerate(self.card_kinds)}

        cm, im = raw["coal_market"], raw["iron_market"]
        self.market_prices = {"coal": list(cm["prices"]), "iron": list(im["prices"])}
        self.market_empty_price = {"coal": cm["empty_price"], "iron": im["empty_price"]}
        self.market_start = {"coal": cm["start"], "iron": im["start"]}

        # L-35, L-36: a canal, a rail, and the second rail of the same action.
        self.link_costs: dict[str, int] = dict(raw["link_costs"])
        # L-45: the loan amounts and the lowest income level a loan may reach.
        self.loan_amounts: list[int] = list(raw["loans"]["amounts"])
        self.lowest_income_level: int = raw["loans"]["lowest_income_level"]

        dcm = raw["distant_cotton_market"]
        self.dcm_income: list[int] = list(dcm["income_by_space"])
        self.dcm_x: int = dcm["x_space"]

        self.levels: list[int] = list(raw["income_track"]["levels"])
        self.start_space: int = raw["income_track"]["start_space"]

        setup = raw["setup"]
        self.money: int = setup["money"]
        self.hand_size: int = setup["hand_size"]
        self.links: int = setup["links"]
        self.first_round_actions: int = setup["first_round_actions"]
        self.actions_per_turn: int = setup["actions_per_turn"]
        self._rounds = {int(k): v for k, v in setup["rounds_per_era"].items()}
        self._decks = {int(k): v for k, v in raw["decks"].items() if k != "full"}
        self._dcm_tiles = {int(k): v for k, v in dcm["tiles"].items() if k != "full"}
        # The classic game and the classic options (docs/classic.md): the full deck and DCM set, the classic
        # section's rounds, deck-tile and removed-card counts, and the virtual link's two ends.
        self.full_deck: dict[str, int] = dict(raw["decks"]["full"])
        self.full_dcm_tiles: list[int] = sorted(dcm["tiles"]["full"])
        classic = raw["classic"]
        self.classic_money: int = classic["money"]
        self.classic_rounds = {int(k): v for k, v in classic["rounds_per_era"].items()}
        self.classic_removed = {
            era: {int(k): v for k, v in counts.items()} for era, counts in classic["removed_unseen"].items()
        }
        self.classic_deck_tile = {int(k): v for k, v in classic["deck_tile"].items()}
        self.virtual_link_ends: tuple[str, str] = tuple(classic["virtual_link"])

    # --- per player count -------------------------------------------------------------------------
    def player_counts(self) -> list[int]:
        return sorted(set(self._rounds) & set(self._decks) & set(self._dcm_tiles))

    def rounds_per_era(self, players: int) -> int:
        """L-7: rounds in each era for the player count."""
        return self._rounds[players]

    def deck(self, players: int) -> dict[str, int]:
        """L-2: the deck composition (card kind -> count) for the player count."""
        return {k: self._decks[players].get(k, 0) for k in self.card_kinds if self._decks[players].get(k, 0)}

    def deck_list(self, players: int) -> list[str]:
        """The deck listed in card-kind order, each kind repeated by its count (state-format.md, setup 1)."""
        deck = self.deck(players)
        return [k for k in self.card_kinds for _ in range(deck.get(k, 0))]

    def dcm_tiles(self, players: int) -> list[int]:
        """L-4: the Distant Cotton Market tiles for the player count, listed ascending."""
        return sorted(self._dcm_tiles[players])

    # --- tiles ----------------------------------------------------------------------------------------
    def tile(self, industry: str, level: int) -> dict:
        return self.tiles[industry][level]

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
