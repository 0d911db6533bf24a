"""Brass: Birmingham (Roxley 2018): what only this game has (docs/birmingham.md, rules B-1 … B-31).

- the merchant tiles and their barrels: set-up (B-3), refill at the Canal Era's end (B-20), sales to merchants
  (B-15; the beer the sale needs, B-8, B-25) and the merchant bonuses (B-26; Gloucester's optional develop, R-17,
  decision `bonus`);
- the cards: the wild location and wild industry cards and the cotton mill / manufacturer card (B-10), Scout (B-17,
  B-31), the face-down card of each player at set-up (B-1);
- the link icons printed on each tile (B-19), loans in every round (B-16), no money VP (B-21) and the introductory
  game (B-22);
- its section of the state JSON, `merchants`, and its validation.

The rest of Birmingham is shared code reading switches this module sets (`_rules.GameRules`): no double build
(B-23), a first link anywhere (B-12), the second rail's beer (B-13), Scout's three cards, wild cards going back to
their piles; and data the shared code reads: breweries produce `beer` with 1 / 2 barrels by era (B-7, `cubes_rail`),
the beer printed on each sold tile (B-15), the lightbulb potteries (B-14, `developable`), the merchant locations'
market trade icons (B-9, B-11) and their 2 printed link icons (B-19, K2). The data file's sections only this game
has — `merchant_tiles`, the locations' `merchant` entries, `industry_cards`, `wild_cards`, `setup.face_down_cards`
— are read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from brass._rng import SplitMix64

from ._checks import check_bool, check_dict, check_str, fail
from ._network import are_connected
from ._position import CardCounts, MerchantPos, Position, SaleTarget
from ._resources import advance_income, beer_barrels, flip
from ._scoring import score_intro_game

if TYPE_CHECKING:
    from ._rules import Rules


@dataclass(frozen=True)
class MerchantSpace:
    """One merchant space (`shrewsbury/1`): a merchant tile goes there at the player counts of `players` (B-3); its
    location's bonus (B-26)."""

    index: int
    name: str
    location: str
    players: tuple[int, ...]
    bonus: str  # vp, money, income, develop
    amount: int


class Birmingham:
    """The rules of one configuration of Brass: Birmingham (2-4 players; `intro=True`: B-22)."""

    notation_examples = (
        "'build cotton_mill birmingham/1', 'link kidderminster-worcester', 'develop pottery', "
        "'sell birmingham/1 oxford/2', 'loan 30', 'scout', 'pass', 'coal dudley/1', 'iron coalbrookdale/2', "
        "'beer burton/2', 'beer oxford/1', 'stop', 'card wild_industry', 'remove dudley/1'"
    )
    state_keys: frozenset[str] = frozenset({"merchants"})
    decisions: tuple[str, ...] = (
        *("action", "coal", "iron", "link", "develop", "sell", "card", "remove", "over"),
        *("beer", "bonus"),
    )
    action_kinds: tuple[str, ...] = ("build", "link", "develop", "sell", "loan", "pass", "scout")
    action_keys: frozenset[str] = frozenset({"beer", "merchant", "merchant_beer"})
    # B-23: no double build; B-12: the first link goes on any line; B-13: a second rail takes one barrel; B-17: Scout
    # discards 3 cards.
    double_build = False
    first_link_anywhere = True
    second_rail_beer = 1
    scout_cards = 3
    # The Lancashire and classic switches: Birmingham plays as Lancashire here (docs/birmingham.md, "Shared
    # unchanged": L-6, L-9, L-11, L-36, L-53).
    income_at_round_start = False
    first_build_once_per_game = False
    rail_coal_to_chosen_end = False
    first_order_clockwise = False
    tie_break_by_turn_order = False
    scores_vp_classic = False
    # docs/birmingham.md `max_decisions`: 8 decisions per card (the action, coal, iron and beer choices, a follow-up,
    # the card).
    decisions_per_card = 8

    def __init__(self, data: Rules) -> None:
        self.data = data
        players, raw = data.players, data.raw
        # B-22: the introductory game (the Canal Era only, extra scoring).
        self.intro = bool(data.options.get("intro"))

        # --- the configuration the shared code reads (GameRules) -------------------------------------------
        self.rounds: int = data.rounds_by_players[players]  # B-5
        self.deck: CardCounts = data.deck_for(players)  # B-2: 40 / 54 / 64 cards, no wild card
        # B-1: each player's face-down card (`removed`, unseen) in the Canal Era; B-20: none in the Rail Era.
        self.removed_canal: int = raw["setup"]["face_down_cards"] * players
        self.removed_rail = 0
        self.last_era = "canal" if self.intro else "rail"
        # B-17: the wild cards, by what they build (`location` / `industry`), beside the deck, not in it.
        wild = raw["wild_cards"]
        self.wild_cards: frozenset[str] = frozenset(wild)
        self.wild_location = [k for k in data.card_kinds if k in wild and wild[k]["builds"] == "location"]
        self.wild_industry = [k for k in data.card_kinds if k in wild and wild[k]["builds"] == "industry"]
        # B-10: the industry cards that build an industry: its own card, or a card of several industries
        # (`cotton_mill_manufacturer`, data `industry_cards`).
        shows = raw["industry_cards"]
        self.industry_card_kinds: dict[str, list[str]] = {
            i: [k for k in data.card_kinds if k == i or i in shows.get(k, [])] for i in data.industries
        }
        # `max_decisions`: a sale takes up to 1 + (the most beer a sold tile needs) + 1 decisions.
        most_beer = max(row.get("beer", 0) for i in data.sold for row in data.tiles[i].values())
        self.decisions_per_sale = 1 + most_beer + 1

        # --- the merchants (B-3, B-26) --------------------------------------------------------------------
        self.merchants: list[MerchantSpace] = []
        for loc in raw["locations"]:
            if "merchant" not in loc:
                continue
            merchant = loc["merchant"]
            for n, counts in enumerate(merchant["slots"], start=1):
                self.merchants.append(
                    MerchantSpace(
                        len(self.merchants),
                        f"{loc['id']}/{n}",
                        loc["id"],
                        tuple(counts),
                        merchant["bonus"]["type"],
                        merchant["bonus"]["amount"],
                    )
                )
        self.merchant_by_name = {m.name: m.index for m in self.merchants}
        # Merchant tile kind -> the industries it buys (`blank`: none, `any`: all three).
        self.tile_buys: dict[str, list[str]] = dict(raw["merchant_tiles"]["kinds"])
        self.merchant_tiles: list[str] = list(raw["merchant_tiles"]["by_player_count"][str(players)])
        # B-3, B-24: the merchant spaces in use at this player count (2 players: none at Warrington and Nottingham).
        self.in_use = [m.index for m in self.merchants if players in m.players]

    # --- ids: merchant spaces as sale targets and beer sources ------------------------------------------------

    def sale_targets(self) -> list[tuple[SaleTarget, str]]:
        """docs/birmingham.md, SELL: every merchant space (in data order), at every player count."""
        return [(m.index, m.name) for m in self.merchants]

    def beer_targets(self) -> list[tuple[SaleTarget, str]]:
        """docs/birmingham.md, BEER: the merchant spaces follow the breweries."""
        return [(m.index, m.name) for m in self.merchants]

    # --- set-up: the merchant tiles and their barrels ---------------------------------------------------------

    def set_aside(self, pos: Position, deck: list[str]) -> list[str]:
        """B-23: no deck tile; every card is drawn."""
        return deck

    def start_era(self, pos: Position, rng: SplitMix64) -> None:
        """B-3 (the new game, after the deal and the face-down cards): the player count's merchant tiles, listed in
        the data's order, are shuffled; the first goes on the first merchant space in use, and so on; every tile
        that buys something gets a barrel. B-20 (the Rail Era): every such tile gets its barrel back (no RNG)."""
        if pos["era"] == "canal":
            tiles = list(self.merchant_tiles)
            rng.shuffle(tiles)
            placed = zip(self.in_use, tiles, strict=True)
            pos["merchants"] = {m: {"tile": tile, "beer": bool(self.tile_buys[tile])} for m, tile in placed}
        else:
            for merchant in pos["merchants"].values():
                merchant["beer"] = bool(self.tile_buys[merchant["tile"]])

    # --- network and building: no tile gives a trade icon; the cards ----------------------------------------

    def trade_icon_tiles(self, pos: Position) -> set[str]:
        """B-9: the market trade icons are printed at the merchant locations (data); no tile adds one."""
        return set()

    def industry_card_reaches(self, net: set[str], location: str) -> bool:
        """B-10: an industry card builds in the network only (B-12, the first build, is shared)."""
        return False

    def location_cards(self, location: str) -> list[str]:
        """B-10: a town's location card, and the wild location card, build in that town; the farm breweries have no
        location card and the wild location card cannot build there (*Cervecerías Artesanales*)."""
        if location not in self.data.card_order:
            return []
        return [location, *self.wild_location]

    def industry_cards(self, industry: str) -> list[str]:
        """B-10: the card showing the industry (`cotton_mill_manufacturer` for either) and the wild industry card."""
        return [*self.industry_card_kinds[industry], *self.wild_industry]

    def tile_link_icons(self, industry: str, level: int) -> int:
        """B-19: the link icons printed on the flipped tile (K1, K3: data `link_icons`)."""
        return self.data.tile(industry, level).get("link_icons", 0)

    # --- selling to merchants (B-15, B-25, B-26) ------------------------------------------------------------

    def open_sale_targets(self, pos: Position) -> list[SaleTarget]:
        """The merchant spaces in use whose tile buys something, in data order."""
        return [m for m in sorted(pos["merchants"]) if self.tile_buys[pos["merchants"][m]["tile"]]]

    def sale_problem(self, pos: Position, player: int, mill: int, target: SaleTarget) -> str | None:
        """B-15, B-8, B-25: the merchant space holds a tile buying the tile's industry; the tile's location is
        connected to the merchant's location; the beer printed on the tile can be had: barrels on the player's own
        unflipped breweries, on other players' unflipped breweries connected to the tile's location, and the barrel
        beside that merchant tile (at most one)."""
        data = self.data
        assert target is not None
        space = self.merchants[target]
        merchant = pos["merchants"].get(target)
        if merchant is None:
            return f"no merchant tile is on {space.name} at {data.players} players (B-3)"
        tile = pos["board"][mill]
        if tile["industry"] not in self.tile_buys[merchant["tile"]]:
            return f"the {merchant['tile']} merchant tile on {space.name} does not buy a {tile['industry']} (B-15)"
        location = data.spaces[mill].location
        if not are_connected(data, pos, location, space.location):
            return f"{location} is not connected to {space.location} (B-15)"
        needed = data.tile(tile["industry"], tile["level"]).get("beer", 0)
        if needed:
            barrels = beer_barrels(data, pos, player, [location]) + (1 if merchant["beer"] else 0)
            if barrels < needed:
                return f"the sale needs {needed} beer and {barrels} can be had (B-8, B-25)"
        return None

    def sell(self, pos: Position, player: int, mill: int, target: SaleTarget) -> bool | None:
        """B-15, B-26 (the tile's beer already taken): the tile flips (its income); then, if the merchant's barrel
        was taken, the merchant's bonus at once: VP, money, income spaces; Gloucester's develop is decision `bonus`
        (R-17: optional; nothing when no industry qualifies). None while that decision is asked."""
        flip(self.data, pos, mill)
        action = pos["action"]
        assert action is not None and target is not None
        if not action["merchant_beer"]:
            return True
        space = self.merchants[target]
        me = pos["players"][player]
        if space.bonus == "vp":  # Shrewsbury, Nottingham
            me["vp"] += space.amount
        elif space.bonus == "money":  # Warrington
            me["money"] += space.amount
        elif space.bonus == "income":  # Oxford: spaces, never past the track's end (B-29)
            advance_income(self.data, pos, player, space.amount)
        elif space.bonus == "develop":  # Gloucester
            if self.bonus_choices(pos, player):
                pos["decision"] = "bonus"
                return None
        else:
            raise AssertionError(space.bonus)
        return True

    def target_beer(self, pos: Position, target: SaleTarget) -> bool:
        """B-8: the barrel beside the merchant tile sold to, while it is there."""
        merchant = pos["merchants"].get(target) if target is not None else None
        return merchant is not None and merchant["beer"]

    def take_target_beer(self, pos: Position, target: SaleTarget) -> None:
        assert target is not None
        pos["merchants"][target]["beer"] = False

    def bonus_choices(self, pos: Position, player: int) -> list[str]:
        """B-26, R-17: the industries whose lowest tile may leave the mat for free (no iron): any tile left but a
        lightbulb pottery (B-14, data `developable: false`)."""
        data = self.data
        mat = pos["players"][player]["mat"]
        out = []
        for industry in data.industries:
            level = data.lowest_level(industry, mat[industry])
            if level is not None and data.tile(industry, level).get("developable", True):
                out.append(industry)
        return out

    def bonus(self, pos: Position, player: int, industry: str | None) -> None:
        """B-26: the lowest tile of the chosen industry leaves the mat (R-17: `stop` declines)."""
        if industry is not None:
            pos["players"][player]["mat"][industry] -= 1

    def check_sale(self, pos: Position, player: int, mill: int, target: SaleTarget) -> None:
        """A sale under way (decision `beer` or `bonus`): the merchant space is in use and its tile buys the tile's
        industry; once the sale has taken the merchant's barrel it is gone; `bonus` only after a sale to the
        develop merchant (Gloucester)."""
        assert target is not None
        merchant = pos["merchants"].get(target)
        industry = pos["board"][mill]["industry"]
        if merchant is None or industry not in self.tile_buys[merchant["tile"]]:
            fail("action.merchant must hold a merchant tile buying the tile being sold (B-15)")
        action = pos["action"]
        assert action is not None
        if action["merchant_beer"] and merchant["beer"]:
            fail("the sale took the merchant's barrel, so it is no longer beside the merchant tile")
        if pos["decision"] == "bonus" and self.merchants[target].bonus != "develop":
            fail("decision `bonus` follows a sale to the merchant whose bonus is a develop (Gloucester, B-26)")

    # --- Scout (B-17, B-31) -----------------------------------------------------------------------------------

    def scout_problem(self, pos: Position, player: int) -> str | None:
        """B-17: not while holding a wild card."""
        hand = pos["players"][player]["hand"]
        if any(hand.get(k) for k in self.wild_cards):
            return "you may not Scout while holding a wild card (B-17)"
        return None

    def scout_gain(self, pos: Position, player: int) -> None:
        """B-17: one wild location and one wild industry card. B-31: their piles are never empty then (nobody holds
        two of a kind, so at most 3 of the 4 of a kind are in other hands)."""
        hand = pos["players"][player]["hand"]
        for kind in (*self.wild_location, *self.wild_industry):
            hand[kind] = hand.get(kind, 0) + 1

    # --- loans and the final scoring ------------------------------------------------------------------------

    def loan_period_problem(self, pos: Position) -> str | None:
        """B-16, B-23: loans are allowed in every round."""
        return None

    def final_scoring(self, pos: Position) -> None:
        """B-21: no VP for money. B-22: after the introductory game's Canal Era, each player gains, in this order, 1
        VP per full £4 (at most 15); VP equal to the income level (never below 0 VP, R-8); the VP of each of their
        flipped tiles of level 2 or more a second time (R-18)."""
        if self.intro:
            score_intro_game(self.data, pos)

    # --- the state section `merchants` ------------------------------------------------------------------------

    def write_sections(self, pos: Position) -> dict[str, Any]:
        """docs/birmingham.md: `merchants`, merchant space -> {tile, beer}, the spaces in use only."""
        merchants = pos["merchants"]
        return {
            "merchants": {
                self.merchants[m].name: {"tile": merchants[m]["tile"], "beer": merchants[m]["beer"]}
                for m in sorted(merchants)
            }
        }

    def read_sections(self, obj: dict[str, Any], pos: Position) -> None:
        """`merchants`: exactly the merchant spaces in use at this player count (B-3), holding exactly the player
        count's merchant tiles; a barrel only beside a tile that buys something."""
        section = check_dict(obj["merchants"], "merchants", {self.merchants[m].name for m in self.in_use})
        merchants: dict[int, MerchantPos] = {}
        for m in self.in_use:
            name = self.merchants[m].name
            entry = check_dict(section[name], f"merchants.{name}", {"tile", "beer"})
            tile = check_str(entry["tile"], f"merchants.{name}.tile", self.tile_buys)
            beer = check_bool(entry["beer"], f"merchants.{name}.beer")
            if beer and not self.tile_buys[tile]:
                fail(f"merchants.{name}: a blank merchant tile has no barrel (B-3)")
            merchants[m] = {"tile": tile, "beer": beer}
        if sorted(m["tile"] for m in merchants.values()) != sorted(self.merchant_tiles):
            players = self.data.players
            fail(f"merchants must hold the {players}-player merchant tiles {sorted(self.merchant_tiles)} (B-3)")
        pos["merchants"] = merchants

    def copy_sections(self, pos: Position, copy: Position) -> None:
        copy["merchants"] = {m: {"tile": v["tile"], "beer": v["beer"]} for m, v in pos["merchants"].items()}

    def held_cards(self, pos: Position) -> list[tuple[str, CardCounts]]:
        """No cards outside the hands, discards, draw pile and `removed` (no deck tile, B-23)."""
        return []

    def check_held_cards(self, pos: Position) -> None:
        """B-31: nobody holds two wild cards of a kind (so a pile is never empty when Scout is legal)."""
        for p, me in enumerate(pos["players"]):
            for kind in sorted(self.wild_cards):
                if me["hand"].get(kind, 0) > 1:
                    fail(f"players[{p}].hand holds {me['hand'][kind]} {kind} cards; at most 1 (B-31)")
