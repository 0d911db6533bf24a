"""Positions built by hand, for analysis, puzzles and tests.

    import brass

    pos = brass.Position("lancashire", players=3, era="rail", round=2)
    pos.tile("manchester/1", owner=0, industry="cotton_mill", level=2, flipped=True)
    pos.link("bolton-manchester", owner=1).hand(0, "bolton", "cotton_mill").money(1, 45)
    state = pos.state()                      # a validated brass.State

    bham = brass.Position("birmingham", players=3, era="rail")
    bham.merchant("oxford/1", "any", beer=True).hand(0, "birmingham", "wild_industry")
    bham.tile("burton/2", owner=0, industry="brewery", level=2)       # 2 barrels: built in the Rail Era

`Position` starts from a fresh game of the configuration (`Game.new_state(seed)`) and clears it to a neutral
mid-game position: the era and round asked for, an empty board, turn order 0, 1, 2, ..., player 0 to move,
every player with the game's starting money (£30; Birmingham £17), income space 10, 0 VP, a full mat and 14
link tiles, the markets as at the start of the game, the seed's Distant Cotton Market pile (Lancashire, classic
Brass) or merchant tiles with their barrels (Birmingham), an empty draw pile. Each edit then keeps the
bookkeeping of docs/state-format.md and docs/birmingham.md consistent, so a position is never a matter of
balancing card counts and mat arithmetic by hand:

- **cards** are conserved against the configuration's deck: the cards you place (hands, draw pile, deck
  tile, removed, discards) are taken from it, the deck tile and `removed` get the configuration's number of
  cards unless you give them (Birmingham: no deck tile, one face-down card per player in `removed` in the
  Canal Era and none in the Rail Era), and every other card lies in the discard piles; Birmingham's wild
  cards (`wild_location`, `wild_industry`) lie beside the deck and are only given to hands, one of each kind
  at most per player;
- **hands you do not set** are filled when the position is loaded with the cards the rest of the round needs
  from that player (one per action, L-8), taken from the discard piles: the player to move gets this turn's
  actions' worth, players still to move this round theirs, and in Lancashire the players who have moved two
  for the next round (none in the era's last round, nor in classic Brass, which refills at the end of the
  round);
- a **tile** on the board has left its owner's mat (the mat loses the lowest tiles up to it), a **link**
  uses one of its owner's 14 link tiles, and in classic Brass the owner of a tile has `built_industry`;
- Birmingham's **merchant tiles** stay the player count's: `merchant()` moves a tile to a space by exchange,
  `merchants()` sets them all at once and checks the set.

`state()` loads the result through `State.from_json`, so the engine's own validation decides whether the
position is one the rules allow: anything wrong surfaces as `brass.InvalidStateError` naming it (a tile on a
space that does not show its industry, a canal link in the Rail Era, a player to move without a card, ...).
`to_json()` gives the same text without loading it.

Errors in the arguments are raised at once, as `BrassError` subclasses:

- `ArgumentTypeError`: an argument of the wrong type (`money(0, 4.5)`, `tile(1, ...)`);
- `PlayerIndexError`: a player index outside the game;
- `ConfigError`: anything that does not fit the configuration's components: an unknown space, line,
  industry, card kind or era (the message suggests close names), a round the era does not have, a tile level
  the industry does not have, more cards of a kind than the deck holds, more tiles of a level than a mat
  holds, no link tile left, DCM tiles the configuration does not use, a part the game does not have (the
  Distant Cotton Market or deck tile in Birmingham, merchants elsewhere), `built_industry` outside classic
  Brass, a merchant space not in use or a merchant tile not of the player count, a barrel beside a blank
  merchant tile, a wild card outside a hand or two of a kind in one, an income track space or Distant Cotton
  Market marker off its track, more link tiles than a player has, and, when the position is loaded, no card
  left in the discard piles to fill a hand with.

Every edit returns the position, so edits chain; an edit that raises leaves the position unchanged.
"""

from __future__ import annotations

import copy
import difflib
import json
import operator
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from brass import _catalog
from brass._brass import Game
from brass._errors import ArgumentTypeError, ConfigError, PlayerIndexError
from brass.text import options_text

if TYPE_CHECKING:
    from brass._brass import State
    from brass.reference import Game as ReferenceGame
    from brass.reference import State as ReferenceState

__all__ = ["Position"]

ERAS = ("canal", "rail")
#: The top-level keys of a state object (docs/state-format.md), the only ones `Position.set` accepts.
STATE_KEYS = (
    "format",
    "game",
    "rng",
    "era",
    "round",
    "turn_order",
    "turn",
    "actions_left",
    "decision",
    "action",
    "players",
    "board",
    "links",
    "coal_market",
    "iron_market",
    "dcm",
    "merchants",
    "deck",
    "deck_tile",
    "removed",
)


def _engine_of(game: Game | ReferenceGame) -> ModuleType:
    """The engine a `Game` belongs to: the public module of its class (`brass` for the native `Game`, whose class
    says so; `brass.reference` for the reference's, defined in `brass.reference._state`). The module is loaded, as
    the class exists, so it is looked up, not imported: `brass` imports this module, never the other way round."""
    parts = type(game).__module__.split(".")
    public = ".".join(parts[: next((i for i, p in enumerate(parts) if p.startswith("_")), len(parts))])
    return sys.modules[public]


def _int(value: object, what: str) -> int:
    """An int, or anything with `__index__` (numpy integers); never a bool or a float."""
    if isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be an int, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentTypeError(f"{what} must be an int, not {type(value).__name__}") from None


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what} must be a str, not {type(value).__name__}")
    return value


def _counts(cards: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return out


def _suggest(value: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(value, list(known), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


class Position:
    """A position being set up by hand; `state()` turns it into a validated `State`.

    `Position(game, players, *, era="canal", round=2, seed=1, engine=None, **options)`:

    - `game`: a game name of `brass.games()` (`"lancashire"`, `"brass"`, `"birmingham"`) with `players` and the
      options of `brass.Game` (`intro`, `virtual_link`, `classic_deck`), or a `Game` of either engine (then no
      players nor options);
    - `era`, `round`: where in the game the position is (round 1 of the Canal Era has one action per turn);
    - `seed`: fixes what is still hidden: the RNG state (future shuffles) and the order of the Distant Cotton
      Market pile, and the merchant tiles of the set-up (Birmingham, until set with `merchant` / `merchants`);
    - `engine`: the module whose `Game` deals the starting position and whose `State` loads it by default:
      `brass` (the default; `brass.reference.Game` given as `game` picks `brass.reference`).
    """

    def __init__(
        self,
        game: str | Game | ReferenceGame,
        players: int | None = None,
        *,
        era: str = "canal",
        round: int = 2,
        seed: int = 1,
        engine: ModuleType | None = None,
        **options: bool,
    ) -> None:
        self._game: Game | ReferenceGame
        if isinstance(game, str):
            if players is None:
                raise ArgumentTypeError(f"players must be an int: Position({game!r}, players=4)")
            self._game = (Game if engine is None else engine.Game)(game, players=players, **options)
            engine = engine or _engine_of(self._game)
        elif hasattr(game, "new_state") and hasattr(game, "players"):
            if options or (players is not None and players != game.players):
                raise ConfigError("give either a Game, or a game name with players and options, not both")
            engine = engine or _engine_of(game)
            self._game = game
        else:
            raise ArgumentTypeError(f"game must be a game name (str) or a Game, not {type(game).__name__}")
        self._engine: ModuleType = engine
        game_obj = self._game
        self._players: int = game_obj.players
        fresh = json.loads(game_obj.new_state(seed).to_json())
        self._name: str = fresh["game"]["name"]
        self._classic: bool = self._name == "brass"
        self._options: dict[str, Any] = dict(fresh["game"]["options"])
        data = _catalog.data_file(_catalog.data_name(fresh))
        self._setup: dict[str, Any] = data["setup"]
        self._classic_data: dict[str, Any] = data.get("classic", {})
        self._rounds: int = game_obj.rounds_per_era
        self._stacks: dict[str, list[int]] = {}
        self._cubes: dict[tuple[str, int], int] = {}
        self._cubes_rail: dict[tuple[str, int], int] = {}  # a new tile's cubes in the Rail Era (B-7: breweries 2)
        for industry in data["industries"]:
            rows = sorted(data["tiles"][industry], key=lambda r: r["level"])
            self._stacks[industry] = [r["level"] for r in rows for _ in range(r["count"])]
            for r in rows:
                self._cubes[industry, r["level"]] = r["cubes"]
                self._cubes_rail[industry, r["level"]] = r.get("cubes_rail", r["cubes"])
        self._cube_industries = {i for (i, _), n in self._cubes.items() if n > 0}
        self._market_spaces: dict[str, int] = {r: len(data[f"{r}_market"]["prices"]) for r in ("coal", "iron")}
        self._income_spaces: int = len(data["income_track"]["levels"])
        self._links: int = int(self._setup["links"])
        self._dcm_x: int | None = data["distant_cotton_market"]["x_space"] if "distant_cotton_market" in data else None
        roles = data.get("industry_roles", {})
        self._flipped_when_built = {i for i, r in roles.items() if r.get("flips_when_built")} or {"shipyard"}
        self._spaces: list[str] = list(game_obj.spaces)
        self._lines: list[str] = list(game_obj.lines)
        self._card_kinds: list[str] = list(game_obj.card_kinds)
        # What the game's state and data hold: wild cards (beside the deck, held in hands only), face-down cards
        # dealt at set-up (`removed` in the Canal Era), a deck tile, merchant tiles.
        self._wild: list[str] = [k for k in data.get("wild_cards", {}) if k in self._card_kinds]
        self._face_down: int = int(self._setup.get("face_down_cards", 0))
        self._has_deck_tile: bool = "deck_tile" in fresh
        self._state_keys: list[str] = [k for k in STATE_KEYS if k in fresh] + [k for k in fresh if k not in STATE_KEYS]
        merchant_tiles = data.get("merchant_tiles", {})
        self._merchant_kinds: list[str] = list(merchant_tiles.get("kinds", {}))
        self._merchant_set: list[str] = sorted(merchant_tiles.get("by_player_count", {}).get(str(self._players), []))
        self._merchant_spaces: list[str] = [
            f"{loc['id']}/{n}"
            for loc in data["locations"]
            if "merchant" in loc
            for n in range(1, len(loc["merchant"]["slots"]) + 1)
        ]
        self._merchants_in_use: list[str] = [s for s in self._merchant_spaces if s in fresh.get("merchants", {})]

        era = _str(era, "era")
        if era not in ERAS:
            raise ConfigError(f"unknown era {era!r}: eras are 'canal' and 'rail'")
        if era == "rail" and self._options.get("intro"):
            raise ConfigError(f"the introductory game (intro=True) has no Rail Era ({self._intro_rule()})")
        round = _int(round, "round")
        if not 1 <= round <= self._rounds:
            raise ConfigError(f"round {round} does not exist in {self._describe()}: rounds go from 1 to {self._rounds}")

        pool: list[str] = list(fresh["deck"])
        for part in [p["hand"] for p in fresh["players"]] + [fresh.get("deck_tile", {}), fresh["removed"]]:
            for kind, n in part.items():
                pool += [kind] * n
        self._pool: list[str] = sorted(k for k in pool if k not in self._wild)
        self._deck_counts = _counts(self._pool)
        dcm = fresh.get("dcm", {"pile": [], "discards": []})
        self._dcm_tiles: list[int] = sorted(dcm["pile"] + dcm["discards"])

        self._obj: dict[str, Any] = fresh
        fresh.update(
            era=era,
            round=round,
            turn_order=list(range(self._players)),
            turn=0,
            decision="action",
            action=None,
        )
        fresh["actions_left"] = self._round_actions()
        self._explicit_actions = False
        self._mover: int | None = None
        # The card settings: explicit hands (player -> cards), the draw pile, and the deck tile, removed cards
        # and discards when given (None: the configuration's default, dealt from what is left).
        self._cards: dict[str, Any] = {
            "hands": {},
            "deck": [],
            "deck_tile": None,
            "removed": None,
            "discards": None,
        }
        self._deal(self._cards)

    # --- facts ------------------------------------------------------------------------------------------
    @property
    def game(self) -> Game | ReferenceGame:
        """The configuration (a `Game` of the engine that dealt the starting position)."""
        return self._game

    @property
    def engine(self) -> ModuleType:
        """The engine module whose `State` loads the position by default (`brass` or `brass.reference`)."""
        return self._engine

    def __repr__(self) -> str:
        options = "".join(f", {k}=True" for k in sorted(self._options))
        return (
            f"Position({self._obj['game']['name']!r}, players={self._players}, era={self._obj['era']!r}, "
            f"round={self._obj['round']}{options})"
        )

    # --- the board --------------------------------------------------------------------------------------
    def tile(
        self,
        space: str,
        owner: int,
        industry: str,
        level: int,
        *,
        flipped: bool | None = None,
        cubes: int | None = None,
    ) -> Position:
        """Put a tile on a space (replacing any tile there). The owner's mat loses the tiles up to this one
        (the lowest tiles of the stack), so it is a tile that has left the mat; in classic Brass the owner
        has built an industry (`built_industry`).

        Coal mines, iron works and Birmingham's breweries hold `cubes` (coal, iron, beer barrels) and are flipped
        exactly when empty. The default is a new tile's: the printed cubes, for a brewery 1 barrel in the Canal
        Era and 2 in the Rail Era (B-7), or 0 when `flipped=True`. Shipyards are always flipped; `flipped` says
        whether a tile that is sold (cotton mill, port; manufacturer, pottery) has been sold (and scored its
        income). Left out, `flipped` follows from the rest (a coal mine with no cube, a shipyard); given, it is
        written as given, and one the rules do not allow (a coal mine flipped with cubes left) is refused by
        the engine when the position loads (`InvalidStateError`), like every rules question."""
        space = self._known(space, self._spaces, "space")
        owner = self._player(owner)
        industry = self._known(industry, list(self._stacks), "industry")
        level = _int(level, "level")
        stack = self._stacks[industry]
        if level not in stack:
            levels = sorted(set(stack))
            raise ConfigError(f"{industry} has no level {level} tile: levels go from {levels[0]} to {levels[-1]}")
        if flipped is not None and not isinstance(flipped, bool):
            raise ArgumentTypeError(f"flipped must be a bool, not {type(flipped).__name__}")
        if cubes is None:
            new = self._cubes_rail if self._obj["era"] == "rail" else self._cubes
            cubes = 0 if flipped else new[industry, level]
        cubes = _int(cubes, "cubes")
        most = max(self._cubes[industry, level], self._cubes_rail[industry, level])
        if not 0 <= cubes <= most:
            holds = f"from 0 to {most} cubes" if most else "no cubes"
            raise ConfigError(f"a level {level} {industry} tile holds {holds}, not {cubes}")
        # A `flipped` given is written as given: one that contradicts the rules (a coal mine flipped with cubes
        # left, L-20; a shipyard unflipped, L-28) is the engine's validation to refuse when the position loads.
        if flipped is None:
            flipped = (industry in self._cube_industries and cubes == 0) or industry in self._flipped_when_built
        board = self._obj["board"]
        same = 1 + sum(
            1
            for where, t in board.items()
            if where != space and t["owner"] == owner and t["industry"] == industry and t["level"] == level
        )
        positions = [i for i, lv in enumerate(stack) if lv == level]
        if same > len(positions):
            raise ConfigError(
                f"player {owner} has only {len(positions)} {industry} tile(s) of level {level}, "
                f"and {same - 1} are on the board already"
            )
        board[space] = {"owner": owner, "industry": industry, "level": level, "flipped": flipped, "cubes": cubes}
        player = self._obj["players"][owner]
        player["mat"][industry] = min(player["mat"][industry], len(stack) - positions[same - 1] - 1)
        if "built_industry" in player:
            player["built_industry"] = True  # C-6: a tile on the board was built
        return self

    def link(self, line: str, owner: int) -> Position:
        """Put a link of `owner` on a line (`"bolton-manchester"`; either order of the ends), using one of
        the owner's link tiles (a link already there goes back to its owner)."""
        line = self._line(line)
        owner = self._player(owner)
        links = self._obj["links"]
        players = self._obj["players"]
        before = links.get(line)
        left = players[owner]["links_left"] + (1 if before == owner else 0)
        if left <= 0:
            raise ConfigError(f"player {owner} has no link tile left")
        if before is not None:
            players[before]["links_left"] += 1
        links[line] = owner
        players[owner]["links_left"] -= 1
        return self

    def mat(self, player: int, **left: int) -> Position:
        """Set how many tiles of each industry are left on a player's mat (`mat(0, iron_works=0)`); the
        lowest tiles of the stack are the ones gone."""
        p = self._player(player)
        new = {}
        for industry, n in left.items():
            self._known(industry, list(self._stacks), "industry")
            n = _int(n, industry)
            if not 0 <= n <= len(self._stacks[industry]):
                raise ConfigError(f"a mat holds from 0 to {len(self._stacks[industry])} {industry} tiles, not {n}")
            new[industry] = n
        self._obj["players"][p]["mat"].update(new)
        return self

    def lowest(self, player: int, industry: str, level: int) -> Position:
        """Make the first tile of `level` the lowest tile of `industry` left on the player's mat."""
        p = self._player(player)
        industry = self._known(industry, list(self._stacks), "industry")
        level = _int(level, "level")
        stack = self._stacks[industry]
        if level not in stack:
            raise ConfigError(f"{industry} has no level {level} tile")
        self._obj["players"][p]["mat"][industry] = len(stack) - stack.index(level)
        return self

    # --- players ----------------------------------------------------------------------------------------
    def player(
        self,
        player: int,
        *,
        money: int | None = None,
        vp: int | None = None,
        income_space: int | None = None,
        money_spent: int | None = None,
        links_left: int | None = None,
        built_industry: bool | None = None,
    ) -> Position:
        """Set a player's money (£), VP, income track space (0-99; the level is the data's
        `income_track.levels[space]`, space 10 is level 0), money spent this round, link tiles left, and in
        classic Brass whether they have built an industry tile (C-6). Fields not given are unchanged."""
        p = self._player(player)
        fields: dict[str, Any] = {}
        for name, value in (
            ("money", money),
            ("vp", vp),
            ("income_space", income_space),
            ("money_spent", money_spent),
            ("links_left", links_left),
        ):
            if value is not None:
                fields[name] = _int(value, name)
        if "income_space" in fields and not 0 <= fields["income_space"] < self._income_spaces:
            raise ConfigError(
                f"income_space {fields['income_space']} is off the income track: its spaces go from 0 to "
                f"{self._income_spaces - 1}"
            )
        if "links_left" in fields:
            placed = sum(1 for owner in self._obj["links"].values() if owner == p)
            if not 0 <= fields["links_left"] <= self._links - placed:
                raise ConfigError(
                    f"links_left {fields['links_left']}: player {p} has {self._links} link tiles, {placed} on the board"
                )
        if built_industry is not None:
            if not isinstance(built_industry, bool):
                raise ArgumentTypeError(f"built_industry must be a bool, not {type(built_industry).__name__}")
            if "built_industry" not in self._obj["players"][p]:
                raise ConfigError("built_industry exists only in classic Brass states (Game('brass', ...))")
            fields["built_industry"] = built_industry
        self._obj["players"][p].update(fields)
        return self

    def money(self, player: int, amount: int) -> Position:
        """Set a player's money (£)."""
        return self.player(player, money=amount)

    def to_move(self, player: int, actions_left: int | None = None) -> Position:
        """Make `player` the one to take an action now (players before them in turn order have had their turn
        this round). `actions_left` defaults to this round's actions per turn (1 in Canal round 1, else 2),
        lowered when the position is loaded to the number of cards the player holds."""
        p = self._player(player)
        explicit = actions_left is not None
        actions = self._round_actions() if actions_left is None else _int(actions_left, "actions_left")
        order = self._obj["turn_order"]
        self._obj.update(turn=order.index(p), decision="action", action=None, actions_left=actions)
        self._explicit_actions = explicit
        self._mover = p
        return self

    def turn_order(self, *order: int) -> Position:
        """Set this round's turn order (`turn_order(2, 0, 1)`); the player to move stays the one chosen with
        `to_move`, or else is the first in the new order."""
        players = [self._player(p) for p in order]
        if sorted(players) != list(range(self._players)):
            raise ConfigError(f"a turn order lists every player once: {list(range(self._players))} in some order")
        self._obj["turn_order"] = players
        self._obj["turn"] = 0 if self._mover is None else players.index(self._mover)
        return self

    # --- cards ------------------------------------------------------------------------------------------
    def hand(self, player: int, *cards: str) -> Position:
        """Set one player's hand exactly (`hand(0, "bolton", "cotton_mill")`; `hand(1)` empties it); the
        other card settings are kept. In Birmingham a hand may also hold one `wild_location` and one
        `wild_industry` card, which come from the piles beside the deck, not from the deck."""
        p = self._player(player)
        hands = dict(self._cards["hands"])
        hands[p] = [self._card(c) for c in cards]
        return self._recard(hands=hands)

    def deck(self, *cards: str) -> Position:
        """Set the draw pile, next card first (default: empty)."""
        return self._recard(deck=[self._card(c) for c in cards])

    def cards(
        self,
        hands: Mapping[int, Sequence[str]] | None = None,
        *,
        deck: Sequence[str] = (),
        deck_tile: Sequence[str] | None = None,
        removed: Sequence[str] | None = None,
        discards: Mapping[int, Sequence[str]] | None = None,
    ) -> Position:
        """Deal every card afresh: the `hands` given (players not named get what their round needs when the
        position is loaded), the draw pile `deck` (next card first), the cards under the deck tile (default:
        the configuration's number for the era; a game without a deck tile takes none), the cards removed
        unseen (classic Brass and `classic_deck`; Birmingham's face-down cards, one per player in the Canal
        Era; default: the configuration's number), the `discards` given; every other card goes to the discard
        piles. Wild cards are only ever in hands."""
        if deck_tile is not None and not self._has_deck_tile:
            if deck_tile:
                raise ConfigError(
                    f"{self._describe()} has no deck tile: its cards are the draw pile, the hands, "
                    "the discards and the removed cards"
                )
            deck_tile = None
        return self._recard(
            hands={self._player(p): [self._card(c) for c in cs] for p, cs in (hands or {}).items()},
            deck=[self._card(c) for c in deck],
            deck_tile=None if deck_tile is None else [self._card(c) for c in deck_tile],
            removed=None if removed is None else [self._card(c) for c in removed],
            discards=None
            if discards is None
            else {self._player(p): [self._card(c) for c in cs] for p, cs in discards.items()},
        )

    # --- markets ----------------------------------------------------------------------------------------
    def markets(self, coal: int | None = None, iron: int | None = None) -> Position:
        """Set the cubes in the coal and iron markets, from 0 to the market's spaces (Lancashire and classic
        Brass 8 and 8, Birmingham coal 14 and iron 10; more is a `ConfigError`). They sit on the most expensive
        spaces."""
        fields = {}
        for resource, value in (("coal", coal), ("iron", iron)):
            if value is not None:
                cubes, spaces = _int(value, resource), self._market_spaces[resource]
                if not 0 <= cubes <= spaces:
                    raise ConfigError(
                        f"the {resource} market of {self._describe()} holds from 0 to {spaces} cubes, not {cubes}"
                    )
                fields[f"{resource}_market"] = cubes
        self._obj.update(fields)
        return self

    def dcm(self, marker: int | None = None, pile: Sequence[int] | None = None) -> Position:
        """Set the Distant Cotton Market marker (0 top ... 8 X) and the face-down pile (top first; each tile
        written as the spaces it moves the marker); the configuration's other tiles become the discards.
        (Classic Brass keeps all 12 tiles in the pile, C-11.) A game without a Distant Cotton Market
        (Birmingham) raises `ConfigError`."""
        if "dcm" not in self._obj:
            raise ConfigError(f"{self._describe()} has no Distant Cotton Market")
        dcm = dict(self._obj["dcm"])
        if marker is not None:
            dcm["marker"] = _int(marker, "marker")
            if not 0 <= dcm["marker"] <= (self._dcm_x or 0):
                raise ConfigError(
                    f"the Distant Cotton Market marker {dcm['marker']} is off its track: 0 (top) to {self._dcm_x} (X)"
                )
        if pile is not None:
            tiles = [_int(t, "DCM tile") for t in pile]
            rest = list(self._dcm_tiles)
            for t in tiles:
                if t not in rest:
                    raise ConfigError(
                        f"the Distant Cotton Market tiles of {self._describe()} are {self._dcm_tiles}: "
                        f"the pile {tiles} is not part of them"
                    )
                rest.remove(t)
            dcm.update(pile=tiles, discards=sorted(rest))
        self._obj["dcm"] = dcm
        return self

    # --- merchants (Birmingham) -------------------------------------------------------------------------
    def merchant(self, space: str, tile: str | None = None, *, beer: bool | None = None) -> Position:
        """Put the merchant tile `tile` (`"blank"`, `"any"`, `"cotton_mill"`, `"manufacturer"`, `"pottery"`) on a
        merchant space in use (`"oxford/1"`), and/or set the beer barrel beside it:
        `merchant("oxford/1", "any", beer=True)`, `merchant("warrington/2", beer=False)` (its barrel taken).

        The merchant tiles stay the player count's (B-3): the tile comes from the space that holds it now (the
        first in data order when two do), which gets this space's tile in exchange, each tile with its barrel.
        `beer` (default: the barrel the tile had) then sets this space's barrel; a blank tile has none."""
        space = self._merchant_space(space)
        if beer is not None and not isinstance(beer, bool):
            raise ArgumentTypeError(f"beer must be a bool, not {type(beer).__name__}")
        merchants = copy.deepcopy(self._obj["merchants"])
        if tile is not None:
            tile = self._merchant_tile(tile)
            if merchants[space]["tile"] != tile:
                other = next(s for s in self._merchants_in_use if merchants[s]["tile"] == tile)
                merchants[space], merchants[other] = merchants[other], merchants[space]
        if beer is not None:
            if beer and merchants[space]["tile"] == "blank":
                raise ConfigError(f"no barrel beside a blank merchant tile ({space}): only tiles that buy have one")
            merchants[space]["beer"] = beer
        self._obj["merchants"] = merchants
        return self

    def merchants(self, tiles: Mapping[str, str | Mapping[str, Any]]) -> Position:
        """Set every merchant space in use at once: space -> tile (its barrel there unless blank, as at set-up
        and after the Canal Era's refill, B-20), or space -> `{"tile": ..., "beer": ...}` as in the state
        (`pos.merchants(state.merchants)` copies another position's). The tiles must be exactly the player
        count's (2 players: blank ×2, any, cotton_mill, manufacturer)."""
        if not isinstance(tiles, Mapping):
            raise ArgumentTypeError(f"merchants takes a mapping of merchant space to tile, not {type(tiles).__name__}")
        if not self._merchants_in_use:
            raise ConfigError(f"{self._describe()} has no merchant tiles")
        merchants: dict[str, dict[str, Any]] = {}
        for space, value in tiles.items():
            space = self._merchant_space(space)
            if isinstance(value, Mapping):
                unknown = sorted(set(value) - {"tile", "beer"})
                if unknown or "tile" not in value:
                    raise ConfigError(f"merchant {space}: give a tile, or {{'tile': ..., 'beer': ...}}, not {value!r}")
                kind = self._merchant_tile(value["tile"])
                beer = value.get("beer", kind != "blank")
                if not isinstance(beer, bool):
                    raise ArgumentTypeError(f"beer must be a bool, not {type(beer).__name__}")
            else:
                kind = self._merchant_tile(value)
                beer = kind != "blank"
            if beer and kind == "blank":
                raise ConfigError(f"no barrel beside a blank merchant tile ({space}): only tiles that buy have one")
            merchants[space] = {"tile": kind, "beer": beer}
        missing = [s for s in self._merchants_in_use if s not in merchants]
        if missing:
            raise ConfigError(
                f"merchants() sets every merchant space in use at {self._players} players "
                f"({', '.join(self._merchants_in_use)}): missing {', '.join(missing)}"
            )
        given, wanted = Counter(m["tile"] for m in merchants.values()), Counter(self._merchant_set)
        if given != wanted:
            wrong = [
                f"{what} {', '.join(sorted((c).elements()))}"
                for what, c in (("too many", given - wanted), ("missing", wanted - given))
                if c
            ]
            raise ConfigError(
                f"the merchant tiles of {self._describe()} are {', '.join(self._merchant_set)}: {'; '.join(wrong)}"
            )
        self._obj["merchants"] = {s: merchants[s] for s in self._merchants_in_use}
        return self

    # --- anything else ----------------------------------------------------------------------------------
    def set(self, **fields: Any) -> Position:
        """Set top-level fields of the state object (docs/state-format.md) exactly as given, with no
        bookkeeping: `set(rng="12345")`, `set(decision="over", turn=4, actions_left=0)`. The card fields
        (`deck`, `deck_tile`, `removed`, hands) are better set with the card methods, which redeal them."""
        for key in fields:
            if key in STATE_KEYS and key not in self._state_keys:
                raise ConfigError(f"the states of {self._describe()} have no field {key!r}")
            if key not in self._state_keys:
                raise ConfigError(f"unknown state field {key!r}{_suggest(key, self._state_keys)}")
        if "actions_left" in fields:
            self._explicit_actions = True
        self._obj.update(copy.deepcopy(fields))
        return self

    def copy(self) -> Position:
        """An independent copy (to build variations of one position)."""
        new = copy.copy(self)
        new._obj = copy.deepcopy(self._obj)
        new._cards = copy.deepcopy(self._cards)
        return new

    # --- results ----------------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The position as canonical state JSON (docs/state-format.md), hands filled and `actions_left`
        settled as described above: the exact text `state()` loads. Not validated."""
        return json.dumps(self._final(), sort_keys=True, separators=(",", ":"))

    def state(self, engine: ModuleType | None = None) -> State | ReferenceState:
        """Load the position with `engine.State.from_json` (default: this position's engine): a validated
        state, or `InvalidStateError` naming what the rules do not allow."""
        module = self._engine if engine is None else engine
        state: State | ReferenceState = module.State.from_json(self.to_json())
        return state

    # --- internals --------------------------------------------------------------------------------------
    def _describe(self) -> str:
        options = options_text(self._options)
        return f"{self._name} ({self._players} players{', ' + options if options else ''})"

    def _intro_rule(self) -> str:
        """The rule id of the introductory game (the catalog's `intro` option)."""
        return _catalog.option_rule(self._name, "intro", "L-54")

    def _round_actions(self) -> int:
        if self._obj["era"] == "canal" and self._obj["round"] == 1:
            return int(self._setup["first_round_actions"])
        return int(self._setup["actions_per_turn"])

    def _player(self, player: object) -> int:
        p = _int(player, "player")
        if not 0 <= p < self._players:
            raise PlayerIndexError(f"player {p} does not exist: players go from 0 to {self._players - 1}")
        return p

    def _known(self, value: object, known: Sequence[str], what: str) -> str:
        name = _str(value, what)
        if name not in known:
            raise ConfigError(f"unknown {what} {name!r} in {self._describe()}{_suggest(name, known)}")
        return name

    def _card(self, card: object) -> str:
        return self._known(card, self._card_kinds, "card kind")

    def _merchant_space(self, space: object) -> str:
        if not self._merchants_in_use:
            raise ConfigError(f"{self._describe()} has no merchant tiles")
        name = self._known(space, self._merchant_spaces, "merchant space")
        if name not in self._merchants_in_use:
            raise ConfigError(
                f"merchant space {name!r} is not in use at {self._players} players: the spaces in use are "
                f"{', '.join(self._merchants_in_use)}"
            )
        return name

    def _merchant_tile(self, tile: object) -> str:
        kind = self._known(tile, self._merchant_kinds, "merchant tile")
        if kind not in self._merchant_set:
            raise ConfigError(
                f"there is no {kind!r} merchant tile at {self._players} players: the tiles are "
                f"{', '.join(self._merchant_set)}"
            )
        return kind

    def _line(self, line: object) -> str:
        name = _str(line, "line")
        if name in self._lines:
            return name
        a, sep, b = name.partition("-")
        if sep and f"{b}-{a}" in self._lines:
            return f"{b}-{a}"
        return self._known(name, self._lines, "line")

    def _deck_tile_size(self) -> int:
        """L-3: `players` cards under the deck tile in the Canal Era; L-56: 9 / 6; classic Brass and a game
        without a deck tile (Birmingham): none."""
        if self._obj["era"] != "canal" or self._classic or not self._has_deck_tile:
            return 0
        if self._options.get("classic_deck"):
            return int(self._classic_data["deck_tile"][str(self._players)])
        return self._players

    def _removed_size(self) -> int:
        """C-3, L-56: the cards removed unseen in this era; B-1: the face-down cards of the set-up, one per
        player, in the Canal Era (shuffled into the new deck at its end, B-20)."""
        era = self._obj["era"]
        if self._face_down:
            return self._face_down * self._players if era == "canal" else 0
        if self._classic or (era == "rail" and self._options.get("classic_deck")):
            return int(self._classic_data["removed_unseen"][era][str(self._players)])
        return 0

    def _recard(self, **changes: Any) -> Position:
        settings = {**self._cards, **changes}
        self._deal(settings)  # raises before changing anything
        self._cards = settings
        return self

    def _deal(self, settings: dict[str, Any]) -> None:
        """Place the cards of `settings` and deal the rest: deck tile and removed cards by the configuration
        (from the end of the sorted pool), everything else to the discard piles in turn."""
        pool = list(self._pool)

        def take(kind: str, where: str) -> str:
            if kind in self._wild:
                raise ConfigError(
                    f"a {kind} card cannot be in {where}: wild cards lie beside the deck and are only ever held "
                    "in hands, at most one of each kind per player"
                )
            if kind not in pool:
                have = self._deck_counts.get(kind, 0)
                if not have:
                    raise ConfigError(f"no {kind} card left for {where}: the deck of {self._describe()} has none")
                raise ConfigError(
                    f"no {kind} card left for {where}: the deck of {self._describe()} has {have}, "
                    "all placed already (hands, draw pile, deck tile, removed, discards)"
                )
            pool.remove(kind)
            return kind

        n = self._players
        hands: dict[int, list[str]] = {}
        for p in range(n):
            hands[p] = []
            for k in settings["hands"].get(p, []):
                if k in self._wild and k in hands[p]:
                    raise ConfigError(f"player {p} may hold only one {k} card (one wild card of each kind)")
                hands[p].append(k if k in self._wild else take(k, f"player {p}'s hand"))
        deck = [take(k, "the draw pile") for k in settings["deck"]]
        under = None if settings["deck_tile"] is None else [take(k, "the deck tile") for k in settings["deck_tile"]]
        gone = None if settings["removed"] is None else [take(k, "the removed cards") for k in settings["removed"]]
        discards: dict[int, list[str]] = {p: [] for p in range(n)}
        for p, cards in (settings["discards"] or {}).items():
            discards[p] = [take(k, f"player {p}'s discards") for k in cards]
        if under is None:
            under = [pool.pop() for _ in range(min(self._deck_tile_size(), len(pool)))]
        if gone is None:
            gone = [pool.pop() for _ in range(min(self._removed_size(), len(pool)))]
        for p in range(n):
            discards[p] += pool[p::n]
        for p in range(n):
            self._obj["players"][p]["hand"] = _counts(hands[p])
            self._obj["players"][p]["discards"] = _counts(discards[p])
        self._obj["deck"] = deck
        if self._has_deck_tile:
            self._obj["deck_tile"] = _counts(under)
        self._obj["removed"] = _counts(gone)

    def _fills(self, player: int, to_move: bool) -> bool:
        """Whether `player`'s hand is filled when the position is loaded: when it was not set."""
        return player not in self._cards["hands"]

    def _final(self) -> dict[str, Any]:
        """The state object to load: hands filled, `actions_left` settled."""
        obj = copy.deepcopy(self._obj)
        if obj["decision"] == "over":
            return obj
        players = obj["players"]
        this_round = self._round_actions()
        done_needs = 0 if (obj["round"] == self._rounds or self._classic) else int(self._setup["actions_per_turn"])
        turn = obj["turn"]
        for position, p in enumerate(obj["turn_order"]):
            if not self._fills(p, position == turn):
                continue
            if position == turn:
                needed = obj["actions_left"]
            elif position < turn:
                needed = done_needs  # Lancashire: refilled after their turn, for the next round (L-9)
            else:
                needed = this_round
            hand = players[p]["hand"]
            while sum(hand.values()) < needed:
                donor = next((q for q in range(self._players) if players[q]["discards"]), None)
                if donor is None:
                    raise ConfigError(
                        f"no card left to give player {p} the {needed} card(s) the round needs: every card is "
                        "in a hand, the draw pile, under the deck tile or removed (set the hand with hand())"
                    )
                pile = players[donor]["discards"]
                kind = sorted(pile)[0]
                pile[kind] -= 1
                if not pile[kind]:
                    del pile[kind]
                hand[kind] = hand.get(kind, 0) + 1
        if obj["decision"] == "action" and not self._explicit_actions and turn < self._players:
            mover = obj["turn_order"][turn]
            obj["actions_left"] = min(obj["actions_left"], sum(players[mover]["hand"].values()))
        return obj
