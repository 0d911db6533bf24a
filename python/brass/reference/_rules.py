"""One configuration of a game (docs/classic.md "Configurations"), and the one place the shared code reaches the
game module.

`Rules` is the indexed data (`GameData`: map, tiles, markets, tracks) together with every fact and switch that
depends on the configuration: the player count, the options, the rounds, the deck, the cards removed unseen, and
the small named decision points where the games differ (`income_at_round_start`, ...). Every rules function
receives a `Rules` as `data`, so a rule difference is one attribute read at the place the rule applies, never a
second copy of a function.

What only one game has (Lancashire: ports as sale targets, the Distant Cotton Market, the deck tile, the virtual
link; Birmingham: the merchants, their barrels and bonuses, the wild cards and Scout) lives in that game's module,
behind `Rules.game`: an object that follows the `GameRules` protocol below, chosen once per configuration from the
catalog's `family` (`_games.GAME_MODULES`, which builds the `Rules`: this module sits below the game modules and
never imports them). The shared code calls it at a few named points and nowhere asks which game it is playing.

Configurations (docs/classic.md):

| call                                     | family       | rules                                               |
|------------------------------------------|--------------|-----------------------------------------------------|
| `Game("lancashire", players=2..4)`       | `lancashire` | Roxley 2018                                         |
| `... classic_deck=True` (3-4 players)    | `lancashire` | L-56: the classic deck set-up                       |
| `... virtual_link=True`                  | `lancashire` | L-55: the virtual link Liverpool-Birkenhead         |
| `... intro=True`                         | `lancashire` | L-54: the introductory game (Canal Era only)        |
| `... variant="community-2p"`             | —            | L-57: refused, the alternate map is unknown (R-13)  |
| `Game("brass", players=3..4)`            | `classic`    | the classic rules C-1 … C-17                        |
| `Game("birmingham", players=2..4)`       | `birmingham` | Brass: Birmingham, B-1 … B-31 (docs/birmingham.md)  |
| `... intro=True`                         | `birmingham` | B-22: the introductory game (Canal Era only)        |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from brass._rng import SplitMix64

from ._data import GameData
from ._position import CardCounts, Position, SaleTarget


class GameRules(Protocol):
    """What a game module provides for one configuration (`Rules.game`). Lancashire and classic Brass:
    `_lancashire.Lancashire`; a new game adds a module with a class like it and one entry in `GAME_MODULES`."""

    # --- the configuration: copied into `Rules` once, read by the shared code --------------------------------
    rounds: int  # rounds per era (L-7, C-2)
    deck: CardCounts  # the cards of the game (L-2, C-3)
    removed_canal: int  # cards removed unseen after the Canal Era's deal (C-3)
    removed_rail: int  # ... and after the Rail Era's deal (C-3, L-56)
    last_era: str  # the era that ends the game (L-54: "canal" for the introductory game)
    income_at_round_start: bool  # C-4: income at the start of each round, the refill at its end
    first_build_once_per_game: bool  # C-6, R-14: the industry card builds anywhere for the first build of the game
    rail_coal_to_chosen_end: bool  # C-14, R-15: a rail's coal goes to the end the player chooses
    first_order_clockwise: bool  # C-17, R-16: the first round from a random start player, clockwise
    tie_break_by_turn_order: bool  # C-15: the last tie-break is the next turn order (no shared win)
    scores_vp_classic: bool  # a tile scores its `vp_classic` value where the tile table has one
    double_build: bool  # L-21: the double-action build (its BUILD_DOUBLE id block); Birmingham has none (B-23)
    first_link_anywhere: bool  # B-12: with nothing on the board, a link may go on any line (else R-2: none)
    second_rail_beer: int  # B-13: the barrels a second rail of one action takes (0: none)
    scout_cards: int  # B-17: the cards the Scout action discards (0: the game has no Scout action, no SCOUT id)
    wild_cards: frozenset[str]  # B-17: card kinds that go back to their pile when played, never to the discards
    decisions: tuple[str, ...]  # the decisions a state of the game may be at (docs/actions.md, docs/birmingham.md)
    action_kinds: tuple[str, ...]  # the actions a state's `action.kind` may name
    action_keys: frozenset[str]  # the game's own keys of the `action` object (Birmingham: beer, merchant, ...)
    decisions_per_card: int  # `max_decisions`: decisions one card can bring (the action, its choices, the card)
    decisions_per_sale: int  # ... and one sale (its choices)

    # --- ids and notation --------------------------------------------------------------------------------------
    notation_examples: str  # the examples a NotationError lists

    def sale_targets(self) -> list[tuple[SaleTarget, str]]:
        """Every target a sale can go to, in id order, with its word in the notation (`sell <mill> <word>`)."""
        ...

    def beer_targets(self) -> list[tuple[SaleTarget, str]]:
        """The sale targets that may give a sale a barrel (the BEER ids after the breweries, `beer <word>`)."""
        ...

    # --- set-up (in the RNG order of docs/state-format.md) -----------------------------------------------------
    def set_aside(self, pos: Position, deck: list[str]) -> list[str]:
        """Right after the era's deck is shuffled (`pos["era"]` is the new era): cards the game keeps out of the
        draw pile; returns the rest."""
        ...

    def start_era(self, pos: Position, rng: SplitMix64) -> None:
        """The game's own set-up at the start of each era (at the start of the game after the deal, and before the
        Rail Era's deck is shuffled)."""
        ...

    # --- network, building ------------------------------------------------------------------------------------
    def trade_icon_tiles(self, pos: Position) -> set[str]:
        """Locations that have a market trade icon because of a tile on them (the printed icons are data)."""
        ...

    def industry_card_reaches(self, net: set[str], location: str) -> bool:
        """Whether an industry card also builds in `location`, which is not in the player's network `net`."""
        ...

    def location_cards(self, location: str) -> list[str]:
        """The card kinds that build in `location` like its location card, whatever the network (L-21, B-10)."""
        ...

    def industry_cards(self, industry: str) -> list[str]:
        """The card kinds that build `industry` in the player's network (L-21, B-10)."""
        ...

    def tile_link_icons(self, industry: str, level: int) -> int:
        """The link icons a flipped tile shows to the links of its location (L-49: 1; B-19: printed per tile)."""
        ...

    # --- selling ----------------------------------------------------------------------------------------------
    def open_sale_targets(self, pos: Position) -> list[SaleTarget]:
        """The targets a sale could go to now, in id order (each is then checked with `sale_problem`)."""
        ...

    def sale_problem(self, pos: Position, player: int, mill: int, target: SaleTarget) -> str | None:
        """Why the player's unflipped tile on `mill` cannot be sold to `target` now (None when it can)."""
        ...

    def sell(self, pos: Position, player: int, mill: int, target: SaleTarget) -> bool | None:
        """Resolve one legal sale, its beer already taken: True when it succeeded, False when it failed and ends the
        Sell action, None when it succeeded and asked a decision of its own (the sale then ends through `bonus`)."""
        ...

    def target_beer(self, pos: Position, target: SaleTarget) -> bool:
        """Whether the sale target has a barrel a sale to it may take (B-8: the barrel beside a merchant tile)."""
        ...

    def take_target_beer(self, pos: Position, target: SaleTarget) -> None:
        """A sale takes the target's barrel."""
        ...

    def check_sale(self, pos: Position, player: int, mill: int, target: SaleTarget) -> None:
        """Loading a state at a decision of a sale under way (`beer`, `bonus`): InvalidStateError unless the
        target fits the tile being sold."""
        ...

    def bonus_choices(self, pos: Position, player: int) -> list[str]:
        """Decision `bonus`: the industries whose lowest tile the seller may remove from the mat (B-26, R-17)."""
        ...

    def bonus(self, pos: Position, player: int, industry: str | None) -> None:
        """Decision `bonus` answered: remove the lowest tile of `industry`, or nothing (`stop`)."""
        ...

    # --- Scout (B-17) -------------------------------------------------------------------------------------------
    def scout_problem(self, pos: Position, player: int) -> str | None:
        """Why the player may not Scout now, besides holding fewer than `scout_cards` cards (None when they may)."""
        ...

    def scout_gain(self, pos: Position, player: int) -> None:
        """The cards Scout gives once its cards are discarded."""
        ...

    # --- loans, scoring ---------------------------------------------------------------------------------------
    def loan_period_problem(self, pos: Position) -> str | None:
        """Why no loan may be taken at this point of the game (None when loans are allowed)."""
        ...

    def final_scoring(self, pos: Position) -> None:
        """The scoring after the last era's link and tile scoring."""
        ...

    # --- the game's own sections of the state -----------------------------------------------------------------
    state_keys: frozenset[str]  # its top-level keys of the state JSON

    def write_sections(self, pos: Position) -> dict[str, Any]:
        """Its sections of the state JSON."""
        ...

    def read_sections(self, obj: dict[str, Any], pos: Position) -> None:
        """Check its sections of a state object (InvalidStateError naming the problem) and add them to `pos`."""
        ...

    def copy_sections(self, pos: Position, copy: Position) -> None:
        """Copy its sections of `pos` into `copy`."""
        ...

    def held_cards(self, pos: Position) -> list[tuple[str, CardCounts]]:
        """The cards its sections hold, named, for the card conservation check."""
        ...

    def check_held_cards(self, pos: Position) -> None:
        """After the card conservation check: how many cards its sections must hold now."""
        ...


class Rules(GameData):
    """The data of one configuration and its rule switches. Built once per configuration (`_games.rules()`), with
    `game_module`, the game module's class for the catalog family, which makes `self.game`."""

    def __init__(
        self,
        data: GameData,
        name: str,
        players: int,
        options: dict[str, bool],
        game_module: Callable[[Rules], GameRules],
    ) -> None:
        self.__dict__.update(data.__dict__)  # the indexed data (GameData attributes), shared, read-only
        self.game_name = name
        self.players = players
        self.options = dict(sorted(options.items()))
        self.game: GameRules = game_module(self)

        # The configuration as the game module sets it (the switches are read at the place their rule applies).
        game = self.game
        self.rounds = game.rounds
        self._deck = dict(game.deck)
        self._deck_list = [k for k in data.card_kinds for _ in range(self._deck.get(k, 0))]
        self.removed_canal = game.removed_canal
        self.removed_rail = game.removed_rail
        self.last_era = game.last_era
        self.income_at_round_start = game.income_at_round_start
        self.first_build_once_per_game = game.first_build_once_per_game
        self.rail_coal_to_chosen_end = game.rail_coal_to_chosen_end
        self.first_order_clockwise = game.first_order_clockwise
        self.tie_break_by_turn_order = game.tie_break_by_turn_order
        self.scores_vp_classic = game.scores_vp_classic
        self.double_build = game.double_build
        self.first_link_anywhere = game.first_link_anywhere
        self.second_rail_beer = game.second_rail_beer
        self.scout_cards = game.scout_cards
        self.wild_cards = game.wild_cards

    def deck(self) -> dict[str, int]:
        """L-2, C-3, L-56: the deck composition (card kind -> count)."""
        return dict(self._deck)

    def deck_list(self) -> list[str]:
        """The deck listed in card-kind order, each kind repeated by its count (state-format.md, setup 1)."""
        return list(self._deck_list)

    def tile_vp(self, industry: str, level: int) -> int:
        """L-50 and R-11: a flipped tile's VP; classic Brass uses the tile's `vp_classic` where it has one (cotton
        mill level 1: 3 VP instead of 5)."""
        row = self.tiles[industry][level]
        if self.scores_vp_classic and "vp_classic" in row:
            return row["vp_classic"]
        return row["vp"]
