"""What a person sees at a Brass table, for the page of `brass serve`: the places, industries and cards in words,
the players' public facts, each player's mat, the markets and the draw pile, and the hand of the seat the page
is shown to. Everything is read from the engine's views of the position (`state.player(p)`, `state.board`, ...)
and from the game's data file (the tiles printed on the mats, the names of the places); nothing here decides what
is legal."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import brass
from brass._catalog import catalog, data_file, family
from brass.svg import PLAYER_COLOUR_NAMES, PLAYER_COLOURS


class Names:
    """The words of one game: places, industries and cards as a person names them."""

    def __init__(self, name: str) -> None:
        self.game = name
        self.data = data_file(catalog()[name]["data"])
        self.classic = family(name) == "classic"
        self.locations = {loc["id"]: loc["name"] for loc in self.data["locations"]}
        self.letters: dict[str, str] = self.data.get("picture", {}).get("letters", {})
        self.industry_cards: dict[str, list[str]] = self.data.get("industry_cards", {})
        self.wild_cards: dict[str, Any] = self.data.get("wild_cards", {})
        self.tiles: dict[str, list[dict[str, Any]]] = {
            industry: sorted(rows, key=lambda row: row["level"]) for industry, rows in self.data["tiles"].items()
        }
        self.merchant_bonus = {
            loc["id"]: loc["merchant"].get("bonus") for loc in self.data["locations"] if loc.get("merchant")
        }

    def location(self, space_or_location: str) -> str:
        """`Belper` for `belper/2` or `belper`."""
        lid = space_or_location.split("/")[0]
        return self.locations.get(lid, lid.replace("_", " ").title())

    def line(self, line: str) -> str:
        """`Belper–Derby` for `belper-derby`."""
        return "–".join(self.location(end) for end in line.split("-"))

    def place(self, place: str) -> str:
        """A space (`belper/2`: `Belper`) or a line (`belper-derby`: `Belper–Derby`) of the board."""
        return self.location(place) if "/" in place or place in self.locations else self.line(place)

    def industry(self, industry: str) -> str:
        """`coal mine` for `coal_mine`."""
        return industry.replace("_", " ")

    def a(self, industry: str) -> str:
        """`a coal mine`, `an iron works`."""
        word = self.industry(industry)
        return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"

    def card(self, kind: str) -> str:
        """A card kind as its face reads: a town's name, an industry, both industries of a two-industry card,
        or `wild location` / `wild industry`."""
        if kind in self.locations:
            return self.locations[kind]
        if kind in self.industry_cards:
            return " / ".join(self.industry(i) for i in self.industry_cards[kind])
        return self.industry(kind)

    def card_kind(self, kind: str) -> str:
        """`location`, `industry` or `wild`: what kind of card it is (the page draws them apart)."""
        if kind in self.wild_cards:
            return "wild"
        return "location" if kind in self.locations else "industry"

    def tile(self, industry: str, level: int) -> dict[str, Any] | None:
        """The printed tile of an industry at a level (the data file's row), or None."""
        for row in self.tiles.get(industry, []):
            if row["level"] == level:
                return row
        return None

    def tile_vp(self, row: dict[str, Any]) -> int:
        """The VP a flipped tile scores: the original Brass scores some tiles otherwise (R-11)."""
        return int(row["vp_classic"] if self.classic and "vp_classic" in row else row["vp"])

    def card_view(self, kind: str) -> dict[str, str]:
        return {"card": kind, "name": self.card(kind), "kind": self.card_kind(kind)}


@cache
def names(game: str) -> Names:
    """The words of a game of the catalog (read once)."""
    return Names(game)


def tile_facts(words: Names, industry: str, row: dict[str, Any]) -> dict[str, Any]:
    """What a tile of the mat shows: its level, cost in money, coal and iron, the beer its sale needs, the VP it
    scores and the income it gives once flipped, the cubes or barrels it holds when built, the link icons it
    counts for (Birmingham), the eras it may be built in and whether it can be developed away."""
    produces = words.data.get("industry_roles", {}).get(industry, {}).get("produces")
    facts = {
        "level": row["level"],
        "cost": row["cost"],
        "coal": row.get("coal", 0),
        "iron": row.get("iron", 0),
        "beer": row.get("beer", 0),
        "vp": words.tile_vp(row),
        "income": row["income"],
        "produces": produces,
        "cubes": row.get("cubes", 0),
        "cubes_rail": row.get("cubes_rail", row.get("cubes", 0)),
        "eras": row.get("eras", []),
        "developable": row.get("developable", True),
    }
    if "link_icons" in row:
        facts["link_icons"] = row["link_icons"]
    return facts


def mat(state: brass.State, p: int) -> dict[str, Any]:
    """Player `p`'s mat: for each industry the tiles left by level (tiles leave a mat lowest level first, by
    building or developing) and the next tile's facts; and the links left."""
    words = names(state.game.name)
    view = state.player(p)
    industries = []
    for industry in state.game.industries:
        rows = words.tiles.get(industry, [])
        left = view.mat.get(industry, 0)
        gone = sum(row["count"] for row in rows) - left
        stack = []
        for row in rows:
            taken = min(gone, row["count"])
            gone -= taken
            if row["count"] > taken:
                stack.append({"level": row["level"], "left": row["count"] - taken})
        nxt = words.tile(industry, stack[0]["level"]) if stack else None
        industries.append(
            {
                "industry": industry,
                "name": words.industry(industry),
                "letter": words.letters.get(industry, industry[:1].upper()),
                "left": left,
                "stack": stack,
                "next": tile_facts(words, industry, nxt) if nxt else None,
            }
        )
    return {"player": p, "industries": industries, "links_left": view.links_left}


def players(state: brass.State, seats: list[str], tops: dict[int, str | None]) -> list[dict[str, Any]]:
    """Each player's public facts, in turn order: what everyone at the table sees (the money, the income and VP
    tracks, how many cards each holds, the top card of each discard pile, the tiles left on each mat, the links
    left, the money spent this round that sets the next turn order). `tops`: the top of each discard pile."""
    words = names(state.game.name)
    order = list(state.turn_order)
    out = []
    for p in order + [q for q in range(state.game.players) if q not in order]:
        view = state.player(p)
        top = tops.get(p)
        out.append(
            {
                "player": p,
                "seat": seats[p],
                "colour": PLAYER_COLOURS[p % len(PLAYER_COLOURS)],
                "colour_name": PLAYER_COLOUR_NAMES[p % len(PLAYER_COLOUR_NAMES)],
                "to_move": p == state.current_player,
                "order": order.index(p) + 1 if p in order else None,
                "money": view.money,
                "spent": view.money_spent,
                "income": view.income_level,
                "income_space": view.income_space,
                "vp": view.vp,
                "cards": len(view.hand),
                "discards": len(view.discards),
                "discard_top": words.card_view(top) if top and view.discards else None,
                "links_left": view.links_left,
                "tiles_left": dict(view.mat),
            }
        )
    return out


def hand(state: brass.State, p: int | None) -> list[dict[str, str]]:
    """The cards in player `p`'s hand as the engine holds them, in its order; [] for nobody."""
    if p is None:
        return []
    words = names(state.game.name)
    return [words.card_view(kind) for kind in state.player(p).hand]


def supply(state: brass.State) -> dict[str, Any]:
    """The markets and the cards: coal and iron markets (cubes on their priced spaces, the price when empty),
    the Distant Cotton Market (Lancashire and the original Brass), the draw pile and the deck tile."""
    words = names(state.game.name)
    out: dict[str, Any] = {}
    for resource in ("coal", "iron"):
        market = words.data[f"{resource}_market"]
        cubes = getattr(state, f"{resource}_market")
        prices = market["prices"]
        # The engine keeps a market's cubes on its most expensive spaces (market.rs): the count is its state.
        out[resource] = {
            "cubes": cubes,
            "spaces": [{"price": price, "cube": i >= len(prices) - cubes} for i, price in enumerate(prices)],
            "empty_price": market["empty_price"],
        }
    dcm = words.data.get("distant_cotton_market")
    if state.dcm_marker is not None and dcm is not None:
        out["distant"] = {
            "marker": state.dcm_marker,
            "income": dcm["income_by_space"],
            "tiles_left": state.dcm_tiles_left,
        }
    out["draw_pile"] = state.deck_size
    if state.dcm_marker is not None:
        out["deck_tile"] = state.deck_tile_size
    return out


def discarded(before: brass.PlayerView, after: brass.PlayerView) -> list[str]:
    """The cards a player gave up between two views of them: those that reached the discard pile, then those
    that left the hand for elsewhere (a wild card goes back to its pile). Cards drawn meanwhile are not
    counted; a drawn card of a kind just discarded hides nothing, as the discard pile still shows it."""
    to_pile = Counter(after.discards) - Counter(before.discards)
    gone = Counter(before.hand) - Counter(after.hand) - to_pile
    return list(to_pile.elements()) + list(gone.elements())
