"""Hand-built positions for rule scenario tests, through the public API only.

`position(players)` starts from a fresh game's JSON (`Game.new_state().to_json()`), clears it to a neutral
mid-game position, and offers small edits (tiles, links, cards, money, …) that keep the JSON valid;
`.state()` loads it with `engine.State.from_json`. Tests then use `legal_actions`, `apply` and `to_json`.
`position(players, game="brass")` and `position(players, intro=True, …)` build positions of the other
configurations of docs/classic.md (their deck, deck tile, removed cards, rounds and DCM tiles).
"""

from __future__ import annotations

import json

import pytest

TILE_STACKS = {  # levels of each mat stack, lowest first (L-1; the data file's tile counts)
    "cotton_mill": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
    "coal_mine": [1, 2, 2, 3, 3, 4, 4],
    "iron_works": [1, 2, 3, 4],
    "port": [1, 1, 2, 2, 3, 3, 4, 4],
    "shipyard": [0, 0, 1, 1, 2, 2],
}
CUBES = {
    ("coal_mine", 1): 2,
    ("coal_mine", 2): 3,
    ("coal_mine", 3): 4,
    ("coal_mine", 4): 5,
    ("iron_works", 1): 4,
    ("iron_works", 2): 4,
    ("iron_works", 3): 5,
    ("iron_works", 4): 6,
}
ROUNDS = {2: 10, 3: 9, 4: 8}  # L-7
CLASSIC_ROUNDS = {3: 10, 4: 8}  # C-2 (classic Brass and the classic deck, L-56)
CLASSIC_DECK_TILE = {3: 9, 4: 6}  # L-56: cards under the deck tile in the Canal Era
REMOVED = {"canal": {3: 9, 4: 6}, "rail": {3: 6, 4: 2}}  # C-3, L-56: cards removed unseen
DCM_FULL = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]  # C-11: classic Brass uses all 12 tiles


def rounds_of(game: str, players: int, options: dict) -> int:
    """Rounds per era of a configuration (L-7, C-2, L-56)."""
    return CLASSIC_ROUNDS[players] if game == "brass" or options.get("classic_deck") else ROUNDS[players]


class Position:
    """A mutable state object (docs/state-format.md) with helpers for building scenarios."""

    def __init__(
        self,
        engine,
        players: int = 4,
        era: str = "canal",
        round: int = 2,
        seed: int = 1,
        game: str = "lancashire",
        **options,
    ) -> None:
        self.engine = engine
        self.players = players
        self.name = game
        self.options = options
        self.classic = game == "brass"
        self.rounds = rounds_of(game, players, options)
        self.game = engine.Game(game, players=players, **options)
        self.obj = json.loads(self.game.new_state(seed).to_json())
        self._explicit_actions = False
        self._pool = []
        for part in [p["hand"] for p in self.obj["players"]] + [self.obj["deck_tile"], self.obj["removed"]]:
            for kind, n in part.items():
                self._pool += [kind] * n
        self._pool += self.obj["deck"]
        self.obj.update(
            era=era,
            round=round,
            turn_order=list(range(players)),
            turn=0,
            actions_left=1 if (era == "canal" and round == 1) else 2,
            decision="action",
            action=None,
        )
        self.set_cards({p: ["manchester", "manchester"] if p == 0 else [] for p in range(players)})

    # --- cards ------------------------------------------------------------------------------------
    def deck_tile_size(self) -> int:
        """L-3: `players` cards under the deck tile in the Canal Era; L-56: 9 / 6; classic Brass: none (C-3)."""
        if self.obj["era"] != "canal" or self.classic:
            return 0
        return CLASSIC_DECK_TILE[self.players] if self.options.get("classic_deck") else self.players

    def removed_size(self) -> int:
        """C-3, L-56: the cards removed unseen in this era."""
        if self.obj["era"] == "canal":
            return REMOVED["canal"][self.players] if self.classic else 0
        return REMOVED["rail"][self.players] if (self.classic or self.options.get("classic_deck")) else 0

    def set_cards(self, hands: dict, deck=None, deck_tile=None, removed=None) -> Position:
        """Give exact hands; `deck` lists the draw pile (default empty); in the Canal Era the deck tile gets
        `deck_tile` or the configuration's number of left-over cards; `removed` (default: left-over cards) the
        cards removed unseen (C-3, L-56); all other cards go to the discard piles."""
        pool = sorted(self._pool)

        def take(kind):
            assert kind in pool, f"no {kind} card left in the {self.players}-player deck"
            pool.remove(kind)
            return kind

        for p in range(self.players):
            hand = [take(k) for k in hands.get(p, [])]
            self.obj["players"][p]["hand"] = counts(hand)
        self.obj["deck"] = [take(k) for k in (deck or [])]
        if deck_tile is not None:
            assert self.obj["era"] == "canal" or not deck_tile
            under = [take(k) for k in deck_tile]
        else:
            under = [pool.pop() for _ in range(self.deck_tile_size())]
        self.obj["deck_tile"] = counts(under)
        gone = [take(k) for k in removed] if removed is not None else [pool.pop() for _ in range(self.removed_size())]
        self.obj["removed"] = counts(gone)
        for p in range(self.players):
            self.obj["players"][p]["discards"] = counts(pool[p :: self.players])
        return self

    def hand(self, player: int, *cards: str) -> Position:
        """Set one player's hand, keeping the other hands and the deck."""
        hands = {p: expand(self.obj["players"][p]["hand"]) for p in range(self.players)}
        hands[player] = list(cards)
        return self.set_cards(hands, deck=self.obj["deck"])

    # --- board ------------------------------------------------------------------------------------
    def tile(
        self, space: str, owner: int, industry: str, level: int, flipped: bool = False, cubes: int | None = None
    ) -> Position:
        """Place a tile; the owner's mat loses tiles so that it is one that has left the mat."""
        if cubes is None:
            cubes = 0 if flipped else CUBES.get((industry, level), 0)
        if industry in ("coal_mine", "iron_works"):
            flipped = cubes == 0
        if industry == "shipyard":
            flipped = True
        self.obj["board"][space] = {
            "owner": owner,
            "industry": industry,
            "level": level,
            "flipped": flipped,
            "cubes": cubes,
        }
        same = sum(
            1
            for t in self.obj["board"].values()
            if t["owner"] == owner and t["industry"] == industry and t["level"] == level
        )
        stack = TILE_STACKS[industry]
        index = [i for i, lv in enumerate(stack) if lv == level][same - 1]
        mat = self.obj["players"][owner]["mat"]
        mat[industry] = min(mat[industry], len(stack) - index - 1)
        if "built_industry" in self.obj["players"][owner]:
            self.obj["players"][owner]["built_industry"] = True  # C-6: a tile on the board was built
        return self

    def mat(self, player: int, **left: int) -> Position:
        self.obj["players"][player]["mat"].update(left)
        return self

    def lowest(self, player: int, industry: str, level: int) -> Position:
        """Make `level` the lowest tile of `industry` on the player's mat."""
        stack = TILE_STACKS[industry]
        self.obj["players"][player]["mat"][industry] = len(stack) - stack.index(level)
        return self

    def link(self, line: str, owner: int) -> Position:
        self.obj["links"][line] = owner
        self.obj["players"][owner]["links_left"] -= 1
        return self

    def set(self, **fields) -> Position:
        self._explicit_actions |= "actions_left" in fields
        self.obj.update(fields)
        return self

    def player(self, i: int, **fields) -> Position:
        self.obj["players"][i].update(fields)
        return self

    def last_action_of_round(self, player: int = None) -> Position:
        """The last player in turn order is to take the last action of the round (one card in hand)."""
        order = self.obj["turn_order"]
        player = order[-1] if player is None else player
        self.obj.update(turn=order.index(player), actions_left=1, decision="action", action=None)
        return self

    def end_of_era(self, card: str = "manchester") -> Position:
        """The last action of the era's last round: every hand empty but the last player's single card."""
        self.obj["round"] = self.rounds
        last = self.obj["turn_order"][-1]
        self.set_cards({last: [card]}, deck=[])
        return self.last_action_of_round()

    def state(self):
        """Load the position. Unless set explicitly, `actions_left` is lowered to what the current player's
        hand can pay for (one card per action, L-8)."""
        obj = json.loads(json.dumps(self.obj))
        if obj["decision"] == "action" and not self._explicit_actions:
            player = obj["turn_order"][obj["turn"]]
            obj["actions_left"] = min(obj["actions_left"], sum(obj["players"][player]["hand"].values()))
        fill_hands(obj, self.players, self.rounds, self.classic)
        return self.engine.State.from_json(json.dumps(obj))


def fill_hands(obj: dict, players: int, rounds: int, classic: bool = False) -> None:
    """Give the other players the cards the rest of the round needs (one per action, L-8), taken from the
    discard piles, as in a real game: a player holding no card would take no action (L-8), which would
    change the turn flow the scenarios expect. (Players who already played this round hold 2 cards for the
    next round in Lancashire, where they refilled, L-9; none in classic Brass, which refills at the end of the
    round, C-4.)"""
    if obj["decision"] == "over":
        return
    this_round = 1 if (obj["era"] == "canal" and obj["round"] == 1) else 2
    last_round = obj["round"] == rounds
    for position, p in enumerate(obj["turn_order"]):
        if position == obj["turn"]:
            continue  # the player under test: their hand is the scenario's
        if position < obj["turn"]:
            needed = 0 if (last_round or classic) else 2
        else:
            needed = this_round
        hand = obj["players"][p]["hand"]
        while sum(hand.values()) < needed:
            donor = next(q for q in range(players) if obj["players"][q]["discards"])
            pile = obj["players"][donor]["discards"]
            kind = sorted(pile)[0]
            pile[kind] -= 1
            if not pile[kind]:
                del pile[kind]
            hand[kind] = hand.get(kind, 0) + 1


def counts(cards) -> dict:
    out = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def expand(counted: dict) -> list:
    return [k for k, n in counted.items() for _ in range(n)]


@pytest.fixture
def position(engine):
    """`position(players=4, era="canal", round=2, game="lancashire", **options)` -> a Position for the engine
    under test (any configuration of docs/classic.md)."""

    def make(
        players: int = 4, era: str = "canal", round: int = 2, seed: int = 1, game: str = "lancashire", **options
    ) -> Position:
        return Position(engine, players, era, round, seed, game, **options)

    return make


# --- small helpers for reading results ----------------------------------------------------------------


def names(state) -> list[str]:
    return [state.game.action_name(a) for a in state.legal_actions()]


def obj(state) -> dict:
    return json.loads(state.to_json())


def do(state, *actions: str):
    """Apply notations in order."""
    for a in actions:
        state.apply(a)
    return state


@pytest.fixture
def h():
    """Helpers: h.names(state), h.obj(state), h.do(state, *notations)."""

    class H:
        pass

    helper = H()
    helper.names, helper.obj, helper.do = names, obj, do
    return helper
