"""One configuration of the game (docs/classic.md "Configurations"): the game data plus the rule variant.

`Rules` is the indexed data (`GameData`: map, tiles, markets, tracks) together with every fact and switch that
depends on the configuration: the player count, the deck, the deck tile, the cards removed unseen, the rounds,
the DCM tiles, and the small named decision points where the classic rules (C-…) and the Lancashire options
(L-54 … L-57) differ from Roxley's Lancashire. Every rules module receives a `Rules` where it used to receive
the data, so a rule difference is one attribute read at the place the rule applies, never a second copy of a
function.

Configurations (docs/classic.md):

| call                                                  | rules                                        |
|-------------------------------------------------------|----------------------------------------------|
| `Game("lancashire", players=2..4)`                    | Roxley 2018                                   |
| `... classic_deck=True` (3-4 players)                 | L-56: the classic deck set-up                 |
| `... virtual_link=True`                               | L-55: the virtual link Liverpool-Birkenhead   |
| `... intro=True`                                      | L-54: the introductory game (Canal Era only)  |
| `... variant="community-2p"`                          | L-57: refused, the alternate map is unknown (R-13) |
| `Game("brass", players=3..4)`                         | the classic rules C-1 … C-17                  |
"""

from __future__ import annotations

from functools import cache

from ._catalog import data_file, family
from ._data import GameData, load


class Rules(GameData):
    """The data of one configuration and its rule switches. Built once per configuration (`rules()`)."""

    def __init__(self, data: GameData, name: str, players: int, options: dict) -> None:
        self.__dict__.update(data.__dict__)  # the indexed data (GameData attributes), shared, read-only
        self.game_name = name
        self.players = players
        self.options = dict(sorted(options.items()))

        # C-1 … C-17: classic Brass (the catalog's "classic" family).
        self.classic = family(name) == "classic"
        # L-54: the introductory game (Canal Era only, extra scoring).
        self.intro = bool(options.get("intro"))
        # L-56: the classic deck set-up in Lancashire.
        self.classic_deck = bool(options.get("classic_deck"))
        full_deck = self.classic or self.classic_deck

        # C-2, L-7, L-12: rounds per era. The classic deck's counts are those of classic Brass (L-12: the era
        # ends when the last cards are played; 57 Canal cards at 3 players are ten rounds).
        self.rounds = data.classic_rounds[players] if full_deck else data.rounds_per_era(players)
        # The deck (L-2; C-3 and L-56: all 66 cards).
        self._deck = dict(data.full_deck) if full_deck else data.deck(players)
        self._deck_list = [k for k in data.card_kinds for _ in range(self._deck.get(k, 0))]
        # L-3 / L-56: cards under the deck tile in the Canal Era (C-3: classic Brass has no deck tile).
        if self.classic:
            self.deck_tile_cards = 0
        elif self.classic_deck:
            self.deck_tile_cards = data.classic_deck_tile[players]
        else:
            self.deck_tile_cards = players
        # C-3 / L-56: cards removed unseen after the deal: Canal Era (classic Brass only), Rail Era (both).
        self.removed_canal = data.classic_removed["canal"][players] if self.classic else 0
        self.removed_rail = data.classic_removed["rail"][players] if full_deck else 0
        # L-4 / C-11: the DCM tiles (classic Brass: the full set at every player count).
        self._dcm = list(data.full_dcm_tiles) if self.classic else data.dcm_tiles(players)
        # C-11: a drawn DCM tile goes to the bottom of the pile instead of the discards.
        self.dcm_recycles = self.classic
        # C-4: income at the start of each round and the refill at the end of the round (classic Brass);
        # Lancashire refills after each turn (L-9) and pays income at the end of the round (L-11).
        self.income_at_round_start = self.classic
        # C-5: no loans in the Rail Era once the draw pile is empty (classic Brass) instead of L-46.
        self.loans_end_with_the_deck = self.classic
        # C-7 (always in classic Brass) / L-55 (option): the virtual link for the industry-card condition.
        self.virtual_link = data.virtual_link_ends if (self.classic or options.get("virtual_link")) else None
        # cotton mill level 1 scores 3 VP in classic Brass (`vp_classic`), 5 in Lancashire.
        self.classic_tile_vp = self.classic
        # C-15: classic tie-break (income level, money, next turn order) instead of L-53 / R-4.
        self.classic_tie_break = self.classic
        # C-6, R-14: an industry card builds anywhere for the player's first industry build of the *game* (a fact
        # kept per player, `built_industry`); Lancashire: while the player has nothing on the board (L-22, R-2).
        self.first_build_once_per_game = self.classic
        # C-14, R-15: a rail's coal is brought to the end the player chooses, from the closest source to that end;
        # Lancashire: from the closest source to either end (L-36).
        self.rail_coal_to_chosen_end = self.classic
        # C-17, R-16: the first round starts with a random player and goes clockwise; Lancashire: random order (L-6).
        self.first_order_clockwise = self.classic
        # L-54: the last era of the game.
        self.last_era = "canal" if self.intro else "rail"

    # --- per configuration (the GameData methods of the same names take the player count) ----------------
    def rounds_per_era(self, players: int | None = None) -> int:
        """C-2, L-7: rounds in each era of this configuration."""
        return self.rounds

    def deck(self, players: int | None = None) -> dict[str, int]:
        """L-2, C-3, L-56: the deck composition (card kind -> count)."""
        return dict(self._deck)

    def deck_list(self, players: int | None = None) -> list[str]:
        """The deck listed in card-kind order, each kind repeated by its count (state-format.md, setup 1)."""
        return list(self._deck_list)

    def dcm_tiles(self, players: int | None = None) -> list[int]:
        """L-4, C-11: the Distant Cotton Market tiles, listed ascending."""
        return list(self._dcm)

    def tile_vp(self, industry: str, level: int) -> int:
        """L-50 and R-11: a flipped tile's VP; classic Brass uses the tile's `vp_classic` where it has one
        (cotton mill level 1: 3 VP instead of 5)."""
        row = self.tiles[industry][level]
        if self.classic_tile_vp and "vp_classic" in row:
            return row["vp_classic"]
        return row["vp"]


@cache
def _rules(name: str, players: int, options: tuple) -> Rules:
    return Rules(load(data_file(name)), name, players, dict(options))


def rules(name: str, players: int, options: dict) -> Rules:
    """The `Rules` of a configuration whose name, player count and options are already checked."""
    return _rules(name, players, tuple(sorted(options.items())))
