"""Brass: Lancashire (Roxley 2018) and classic Brass (Warfrog 2007): what only this family of games has.

- ports as sale targets (L-41) and as market trade icons (L-15);
- the Distant Cotton Market: its set-up (L-4, L-51), the distant sale (L-42), the reshuffle of the discards
  (L-44, R-3) and, in classic Brass, the recycling of drawn tiles (C-11);
- the deck tile: the cards under it in the Canal Era (L-3, L-56; none in classic Brass, C-3);
- the virtual link Liverpool-Birkenhead for the industry card (C-7, L-55, R-9);
- when loans close (L-46; C-5 in classic Brass) and the final scoring (L-52; L-54 for the introductory game);
- its sections of the state JSON, `dcm` and `deck_tile`, and their validation.

Classic Brass is this module with the classic switches (`classic=True`, the catalog's `classic` family). The
shared code reaches it only through the `GameRules` methods (`_rules.py`); the data it reads that other games do not
have are the data file's `distant_cotton_market` and `classic` sections and its full deck (`decks.full`).
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any

from brass._rng import SplitMix64

from ._cards import count_cards
from ._checks import check_counts, check_dict, check_int, check_list, fail
from ._network import are_connected, connected_to_trade_icon
from ._position import CardCounts, Position, SaleTarget
from ._resources import advance_income, flip
from ._scoring import score_intro_game

if TYPE_CHECKING:
    from ._rules import Rules

# L-46: no loans in the last 4 rounds of the Rail Era (a fact of the rules text the data file does not carry).
LOAN_BAN_ROUNDS = 4
# L-52: 1 VP per full £10 at the end of the Rail Era.
MONEY_PER_VP = 10


class Lancashire:
    """The rules of one configuration of Brass: Lancashire (`classic=False`, with its options L-54 … L-56) or of
    classic Brass (`classic=True`, C-1 … C-17)."""

    notation_examples = (
        "'build cotton_mill manchester/1', 'build port lancaster/1 double', 'link bolton-manchester', "
        "'develop port', 'sell bolton/1 liverpool/1', 'sell bolton/1 distant', 'loan 30', 'pass', 'coal wigan/1', "
        "'iron bolton/3', 'stop', 'card bolton', 'remove wigan/2'"
    )
    state_keys: frozenset[str] = frozenset({"dcm", "deck_tile"})
    decisions: tuple[str, ...] = ("action", "coal", "iron", "link", "develop", "sell", "card", "remove", "over")
    action_kinds: tuple[str, ...] = ("build", "link", "develop", "sell", "loan", "pass")
    action_keys: frozenset[str] = frozenset()
    # L-21: the double-action build; R-2: no link without a tile on the board; L-36: a second rail takes no beer;
    # no Scout and no wild cards.
    double_build = True
    first_link_anywhere = False
    second_rail_beer = 0
    scout_cards = 0
    wild_cards: frozenset[str] = frozenset()
    # docs/actions.md `max_decisions`: at most 7 decisions per card played and 1 per sale.
    decisions_per_card = 7
    decisions_per_sale = 1

    def __init__(self, data: Rules, classic: bool = False) -> None:
        self.data = data
        players, options, raw = data.players, data.options, data.raw
        classic_section = raw["classic"]
        # C-1 … C-17: classic Brass (the catalog's "classic" family).
        self.classic = classic
        # L-54: the introductory game (Canal Era only, extra scoring).
        self.intro = bool(options.get("intro"))
        # L-56: the classic deck set-up in Lancashire.
        classic_deck = bool(options.get("classic_deck"))
        full_deck = classic or classic_deck

        # --- the configuration the shared code reads (GameRules) -------------------------------------------
        # C-2, L-7, L-12: rounds per era. The classic deck's counts are those of classic Brass (L-12: the era ends
        # when the last cards are played; 57 Canal cards at 3 players are ten rounds).
        self.rounds: int = (
            classic_section["rounds_per_era"][str(players)] if full_deck else data.rounds_by_players[players]
        )
        # The deck (L-2; C-3 and L-56: all 66 cards).
        self.deck: CardCounts = dict(raw["decks"]["full"]) if full_deck else data.deck_for(players)
        # C-3 / L-56: cards removed unseen after the deal: Canal Era (classic Brass only), Rail Era (both).
        removed = classic_section["removed_unseen"]
        self.removed_canal: int = removed["canal"][str(players)] if classic else 0
        self.removed_rail: int = removed["rail"][str(players)] if full_deck else 0
        # L-54: the last era of the game.
        self.last_era = "canal" if self.intro else "rail"
        # C-4: income at the start of each round and the refill at the end of the round (classic Brass);
        # Lancashire refills after each turn (L-9) and pays income at the end of the round (L-11).
        self.income_at_round_start = classic
        # C-6, R-14: an industry card builds anywhere for the player's first industry build of the *game* (a fact
        # kept per player, `built_industry`); Lancashire: while the player has nothing on the board (L-22, R-2).
        self.first_build_once_per_game = classic
        # C-14, R-15: a rail's coal is brought to the end the player chooses, from the closest source to that end;
        # Lancashire: from the closest source to either end (L-36).
        self.rail_coal_to_chosen_end = classic
        # C-17, R-16: the first round starts with a random player and goes clockwise; Lancashire: random order (L-6).
        self.first_order_clockwise = classic
        # C-15: classic tie-break (income level, money, next turn order) instead of L-53 / R-4.
        self.tie_break_by_turn_order = classic
        # cotton mill level 1 scores 3 VP in classic Brass (`vp_classic`), 5 in Lancashire.
        self.scores_vp_classic = classic

        # --- this family's own --------------------------------------------------------------------------------
        # L-3 / L-56: cards under the deck tile in the Canal Era (C-3: classic Brass has no deck tile).
        if classic:
            self.deck_tile_cards = 0
        elif classic_deck:
            self.deck_tile_cards = classic_section["deck_tile"][str(players)]
        else:
            self.deck_tile_cards = players
        # The Distant Cotton Market (L-4, L-42): the income beside each space, the X space, and the tiles (C-11:
        # classic Brass plays the full set at every player count), listed ascending.
        dcm = raw["distant_cotton_market"]
        self.dcm_income: list[int] = list(dcm["income_by_space"])
        self.dcm_x: int = dcm["x_space"]
        self.dcm_tiles: list[int] = sorted(dcm["tiles"]["full" if classic else str(players)])
        # C-11: a drawn DCM tile goes to the bottom of the pile instead of the discards.
        self.dcm_recycles = classic
        # C-5: no loans in the Rail Era once the draw pile is empty (classic Brass) instead of L-46.
        self.loans_end_with_the_deck = classic
        # C-7 (always in classic Brass) / L-55 (option): the virtual link's two ends, or None.
        self.virtual_link: tuple[str, ...] | None = (
            tuple(classic_section["virtual_link"]) if (classic or options.get("virtual_link")) else None
        )

    # --- ids: ports and the Distant Cotton Market as sale targets -----------------------------------------------

    def sale_targets(self) -> list[tuple[SaleTarget, str]]:
        """docs/actions.md, SELL: every space that shows a port (in space order), then the Distant Cotton Market."""
        data = self.data
        ports = [s for s in data.spaces if any(i in data.port_industries for i in s.icons)]
        return [(s.index, s.name) for s in ports] + [(None, "distant")]

    # --- set-up: the deck tile and the Distant Cotton Market ---------------------------------------------------

    def set_aside(self, pos: Position, deck: list[str]) -> list[str]:
        """L-3, L-56: in the Canal Era the bottom cards of the shuffled deck go under the deck tile (`players`
        cards; 9 / 6 with the classic deck; none in classic Brass, C-3). L-51: in the Rail Era it holds none."""
        under = self.deck_tile_cards if pos["era"] == "canal" else 0
        pos["deck_tile"] = count_cards(deck[len(deck) - under :])
        return deck[: len(deck) - under]

    def start_era(self, pos: Position, rng: SplitMix64) -> None:
        """L-4, L-51: the DCM tiles of the configuration, listed ascending, are shuffled into a new pile; no
        discards; the marker on the top space."""
        pile = list(self.dcm_tiles)
        rng.shuffle(pile)
        pos["dcm"] = {"marker": 0, "pile": pile, "discards": []}

    # --- network and building: port tiles as trade icons, the virtual link --------------------------------------

    def trade_icon_tiles(self, pos: Position) -> set[str]:
        """L-15: a port tile, flipped or not, of any owner, is a market trade icon (C-9: a "built port")."""
        data = self.data
        return {data.spaces[s].location for s, t in pos["board"].items() if t["industry"] in data.port_industries}

    def industry_card_reaches(self, net: set[str], location: str) -> bool:
        """C-7 (classic Brass) and L-55 (option): with the virtual link, Birkenhead counts as in the network when
        Liverpool is, and vice versa (R-9: both directions). Only the industry-card condition sees it: it is not a
        link (no coal, no sale, no link placement, no scoring) and not presence for the first-build exception."""
        ends = self.virtual_link
        if ends is not None and location in ends:
            other = ends[1] if location == ends[0] else ends[0]
            return other in net
        return False

    def location_cards(self, location: str) -> list[str]:
        """L-21: a location card builds in its town."""
        return [location]

    def industry_cards(self, industry: str) -> list[str]:
        """L-21: an industry card builds its industry in the network."""
        return [industry]

    def tile_link_icons(self, industry: str, level: int) -> int:
        """L-49: one link icon per flipped industry tile."""
        return 1

    # --- selling: ports and the Distant Cotton Market -------------------------------------------------------

    def open_sale_targets(self, pos: Position) -> list[SaleTarget]:
        """The unflipped port tiles (any owner), in space order, then the Distant Cotton Market."""
        data = self.data
        ports = sorted(s for s, t in pos["board"].items() if t["industry"] in data.port_industries and not t["flipped"])
        return [*ports, None]

    def sale_problem(self, pos: Position, player: int, mill: int, target: SaleTarget) -> str | None:
        """L-41: an unflipped port tile (any owner) connected to the mill; L-42: the Distant Cotton Market, while
        its marker is not on X, a DCM tile exists and the mill is connected to a market trade icon."""
        data = self.data
        mill_loc = data.spaces[mill].location
        if target is None:
            dcm = pos["dcm"]
            if dcm["marker"] >= self.dcm_x:
                return "the Distant Cotton Market marker is on X for the rest of the era (L-42)"
            if not dcm["pile"] and not dcm["discards"]:
                return "there is no Distant Cotton Market tile"
            if not connected_to_trade_icon(data, pos, [mill_loc]):
                return f"{mill_loc} is not connected to a market trade icon (L-42, L-15)"
            return None
        port = pos["board"].get(target)
        port_name = data.spaces[target].name
        if port is None or port["industry"] not in data.port_industries:
            return f"{port_name} does not hold a port"
        if port["flipped"]:
            return f"the port on {port_name} is already used"
        if not are_connected(data, pos, mill_loc, data.spaces[target].location):
            return f"{mill_loc} is not connected to {data.spaces[target].location} (L-41)"
        return None

    def sell(self, pos: Position, player: int, mill: int, target: SaleTarget) -> bool:
        """L-41: a port sale flips the port first (its owner's income), then the mill. L-42: a distant sale."""
        if target is not None:
            flip(self.data, pos, target)
            flip(self.data, pos, mill)
            return True
        return self.sell_distant(pos, player, mill)

    def sell_distant(self, pos: Position, player: int, mill: int) -> bool:
        """L-42, L-44 (R-3): draw the top DCM tile (reshuffling the discards into a new pile when the pile is empty),
        move the marker down; on X the sale fails; else gain the income beside the new space, then flip the mill.
        Where the drawn tile goes is `dcm_tile_drawn`."""
        dcm = pos["dcm"]
        if not dcm["pile"]:
            pile = sorted(dcm["discards"])
            rng = SplitMix64(pos["rng"])
            rng.shuffle(pile)
            pos["rng"] = rng.state
            dcm["pile"] = pile
            dcm["discards"] = []
        value = dcm["pile"].pop(0)
        self.dcm_tile_drawn(pos, value)
        dcm["marker"] = min(self.dcm_x, dcm["marker"] + value)
        if dcm["marker"] >= self.dcm_x:
            return False
        advance_income(self.data, pos, player, self.dcm_income[dcm["marker"]])
        flip(self.data, pos, mill)
        return True

    def target_beer(self, pos: Position, target: SaleTarget) -> bool:
        """Lancashire's sales take no beer."""
        return False

    def take_target_beer(self, pos: Position, target: SaleTarget) -> None:
        raise AssertionError("Lancashire's sales take no beer")

    def beer_targets(self) -> list[tuple[SaleTarget, str]]:
        return []

    def check_sale(self, pos: Position, player: int, mill: int, target: SaleTarget) -> None:
        raise AssertionError("a Lancashire sale asks no decision of its own")

    def bonus_choices(self, pos: Position, player: int) -> list[str]:
        return []

    def bonus(self, pos: Position, player: int, industry: str | None) -> None:
        raise AssertionError("Lancashire has no merchant bonus")

    def scout_problem(self, pos: Position, player: int) -> str | None:
        return "Lancashire has no Scout action"

    def scout_gain(self, pos: Position, player: int) -> None:
        raise AssertionError("Lancashire has no Scout action")

    def dcm_tile_drawn(self, pos: Position, value: int) -> None:
        """L-42: a drawn DCM tile is discarded (Lancashire); C-11: it goes to the bottom of the pile (classic Brass,
        so the discards stay empty and the pile always holds all 12 tiles)."""
        dcm = pos["dcm"]
        if self.dcm_recycles:
            dcm["pile"].append(value)
        else:
            insort(dcm["discards"], value)

    # --- loans and the final scoring ------------------------------------------------------------------------

    def loan_period_problem(self, pos: Position) -> str | None:
        """L-46: no loans in the last 4 rounds of the Rail Era (Lancashire). C-5: no loans in the Rail Era once the
        draw pile is empty (classic Brass)."""
        if pos["era"] != "rail":
            return None
        if self.loans_end_with_the_deck:
            if not pos["deck"]:
                return "no loans in the Rail Era once the draw pile is empty (C-5)"
            return None
        if pos["round"] > self.rounds - LOAN_BAN_ROUNDS:
            return f"no loans in the last {LOAN_BAN_ROUNDS} rounds of the Rail Era (L-46)"
        return None

    def final_scoring(self, pos: Position) -> None:
        """L-52: after the Rail Era, 1 VP per full £10. L-54: after the introductory game's Canal Era, its extra
        scoring (`_scoring.score_intro_game`)."""
        if pos["era"] == "rail":
            for p in pos["players"]:
                p["vp"] += p["money"] // MONEY_PER_VP
        if self.intro:
            score_intro_game(self.data, pos)

    # --- the state sections `dcm` and `deck_tile` -------------------------------------------------------------

    def write_sections(self, pos: Position) -> dict[str, Any]:
        """docs/state-format.md: `dcm` (marker, pile top first, discards ascending) and `deck_tile`."""
        dcm = pos["dcm"]
        return {
            "dcm": {"marker": dcm["marker"], "pile": list(dcm["pile"]), "discards": list(dcm["discards"])},
            "deck_tile": dict(pos["deck_tile"]),
        }

    def read_sections(self, obj: dict[str, Any], pos: Position) -> None:
        """`dcm`: the marker 0 … X, tiles as integers, discards sorted, pile + discards = the configuration's tiles
        (classic Brass: no discards, C-11); `deck_tile`: card counts. Their counts against the era are checked with
        the cards (`check_held_cards`)."""
        data = self.data
        dcm = check_dict(obj["dcm"], "dcm", {"marker", "pile", "discards"})
        marker = check_int(dcm["marker"], "dcm.marker", 0, self.dcm_x)
        pile = [check_int(v, f"dcm.pile[{i}]", 0) for i, v in enumerate(check_list(dcm["pile"], "dcm.pile"))]
        discards = [
            check_int(v, f"dcm.discards[{i}]", 0) for i, v in enumerate(check_list(dcm["discards"], "dcm.discards"))
        ]
        if discards != sorted(discards):
            fail("dcm.discards must be sorted ascending")
        if sorted(pile + discards) != self.dcm_tiles:
            fail(f"dcm.pile and dcm.discards must hold exactly the DCM tiles {self.dcm_tiles}")
        if self.dcm_recycles and discards:
            fail("dcm.discards stays empty in classic Brass: drawn tiles go to the bottom of the pile (C-11)")
        pos["dcm"] = {"marker": marker, "pile": pile, "discards": discards}
        pos["deck_tile"] = check_counts(obj["deck_tile"], "deck_tile", data.card_kinds)

    def copy_sections(self, pos: Position, copy: Position) -> None:
        dcm = pos["dcm"]
        copy["dcm"] = {"marker": dcm["marker"], "pile": list(dcm["pile"]), "discards": list(dcm["discards"])}
        copy["deck_tile"] = dict(pos["deck_tile"])

    def held_cards(self, pos: Position) -> list[tuple[str, CardCounts]]:
        """The cards under the deck tile count in the card conservation check."""
        return [("deck tile", pos["deck_tile"])]

    def check_held_cards(self, pos: Position) -> None:
        """L-3, L-51, L-56: the deck tile holds its cards in the Canal Era only (`players` cards; 9 / 6 with the
        classic deck; none in classic Brass) and none in the Rail Era."""
        under = sum(pos["deck_tile"].values())
        expected = self.deck_tile_cards if pos["era"] == "canal" else 0
        if under != expected:
            fail(
                f"deck_tile must hold {expected} cards in the {pos['era'].capitalize()} Era (L-3, L-51, L-56), "
                f"not {under}"
            )


def classic(data: Rules) -> Lancashire:
    """Classic Brass (the catalog's `classic` family): the Lancashire rules with the classic switches."""
    return Lancashire(data, classic=True)
