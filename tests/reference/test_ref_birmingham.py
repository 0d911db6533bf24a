"""Brass: Birmingham rule tests (docs/birmingham.md: B-1 … B-31 and the values K1 … K10), one or more per rule, each
named with its id.

Positions are built by hand as state objects (`Board` below edits a new game's state JSON and keeps it valid: cards
are moved between the draw pile and the hands, a tile on the board takes its tiles off the owner's mat) and loaded
with `State.from_json`; the tests then use only the public API (`Game`, `new_state`, `from_json`, `apply`,
`legal_actions`, `to_json`, `action_name`), so they run on both engines through the `engine` fixture
(tests/conftest.py): the reference, and the native engine it is compared with. A few facts of the data file are read
from `python/brass/data/birmingham.json` directly.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from brass import reference

DATA = json.loads((Path(reference.__file__).parents[1] / "data" / "birmingham.json").read_text())
WILD = ("wild_location", "wild_industry")
MERCHANT_SPACES = [
    f"{loc['id']}/{n}"
    for loc in DATA["locations"]
    if "merchant" in loc
    for n, counts in enumerate(loc["merchant"]["slots"], start=1)
]
IN_USE = {
    p: [
        f"{loc['id']}/{n}"
        for loc in DATA["locations"]
        if "merchant" in loc
        for n, counts in enumerate(loc["merchant"]["slots"], start=1)
        if p in counts
    ]
    for p in (2, 3, 4)
}
STACK = {i: [r["level"] for r in rows for _ in range(r["count"])] for i, rows in DATA["tiles"].items()}
ROW = {(i, r["level"]): r for i, rows in DATA["tiles"].items() for r in rows}


def levels(space: int) -> int:
    return DATA["income_track"]["levels"][space]


class Board:
    """A hand-built Birmingham position: a new game's state object (seed 1) turned into round 2 of the era, player
    `turn_order[0]` to act with 2 actions, nothing on the board; the helpers edit it and keep it valid."""

    def __init__(self, players: int = 2, era: str = "canal", intro: bool = False, seed: int = 1) -> None:
        game = reference.Game("birmingham", players=players, **({"intro": True} if intro else {}))
        self.obj = json.loads(game.new_state(seed).to_json())
        self.players = players
        obj = self.obj
        obj["round"] = 2
        obj["actions_left"] = 2
        obj["turn_order"] = list(range(players))
        if era == "rail":
            obj["era"] = "rail"
            for kind, n in obj["removed"].items():
                obj["deck"] += [kind] * n
            obj["removed"] = {}

    # --- cards ------------------------------------------------------------------------------------------------
    def _take(self, kind: str) -> None:
        """Take one card of `kind` out of the draw pile, the removed cards or another hand (which gets a card of
        another kind from the pile instead)."""
        obj = self.obj
        if kind in obj["deck"]:
            obj["deck"].remove(kind)
            return
        if obj["removed"].get(kind):
            _dec(obj["removed"], kind)
            other = next(c for c in obj["deck"] if c != kind)
            obj["deck"].remove(other)
            obj["removed"][other] = obj["removed"].get(other, 0) + 1
            return
        for p in obj["players"]:
            for part in ("hand", "discards"):
                if p[part].get(kind):
                    _dec(p[part], kind)
                    other = next(c for c in obj["deck"] if c != kind)
                    obj["deck"].remove(other)
                    p[part][other] = p[part].get(other, 0) + 1
                    return
        raise AssertionError(f"no {kind} card in this deck")

    def hand(self, player: int, **cards: int) -> Board:
        """Set a player's hand exactly (wild cards included); the old hand goes back to the draw pile."""
        me = self.obj["players"][player]
        for kind, n in me["hand"].items():
            if kind not in WILD:
                self.obj["deck"] += [kind] * n
        me["hand"] = {}
        for kind, n in cards.items():
            if kind not in WILD:
                for _ in range(n):
                    self._take(kind)
        me["hand"] = {k: n for k, n in sorted(cards.items()) if n}
        return self

    def empty_deck(self) -> Board:
        """Move the whole draw pile into the discards of player 0 (the last rounds of an era)."""
        me = self.obj["players"][0]
        for kind in self.obj["deck"]:
            me["discards"][kind] = me["discards"].get(kind, 0) + 1
        self.obj["deck"] = []
        return self

    # --- the board ----------------------------------------------------------------------------------------------
    def tile(
        self,
        space: str,
        owner: int,
        industry: str,
        level: int = 1,
        flipped: bool | None = None,
        cubes: int | None = None,
    ) -> Board:
        """A tile on the board; the owner's mat loses every tile of that industry up to its level."""
        if cubes is None:
            cubes = ROW[(industry, level)]["cubes"] if industry in ("coal_mine", "iron_works", "brewery") else 0
        if flipped is None:
            flipped = industry in ("coal_mine", "iron_works", "brewery") and cubes == 0
        self.obj["board"][space] = {
            "owner": owner,
            "industry": industry,
            "level": level,
            "flipped": flipped,
            "cubes": cubes,
        }
        mat = self.obj["players"][owner]["mat"]
        mat[industry] = min(mat[industry], len(STACK[industry]) - sum(1 for lv in STACK[industry] if lv <= level))
        return self

    def mat(self, player: int, industry: str, lowest_level: int) -> Board:
        """The player's lowest tile of `industry` is the first of `lowest_level`."""
        stack = STACK[industry]
        self.obj["players"][player]["mat"][industry] = len(stack) - stack.index(lowest_level)
        return self

    def link(self, line: str, owner: int) -> Board:
        self.obj["links"][line] = owner
        self.obj["players"][owner]["links_left"] -= 1
        return self

    def set(self, player: int, **values: int) -> Board:
        self.obj["players"][player].update(values)
        return self

    def merchants(self, **tiles: str) -> Board:
        """Put these merchant tiles (`oxford_2="pottery"`) on these spaces, the player count's other tiles on the other
        spaces in use; a barrel beside every tile that buys something."""
        spaces = IN_USE[self.players]
        wanted = {k.replace("_", "/"): v for k, v in tiles.items()}
        rest = list(DATA["merchant_tiles"]["by_player_count"][str(self.players)])
        for tile in wanted.values():
            rest.remove(tile)
        self.obj["merchants"] = {}
        for space in spaces:
            tile = wanted[space] if space in wanted else rest.pop(0)
            self.obj["merchants"][space] = {"tile": tile, "beer": tile != "blank"}
        return self

    def barrel(self, space: str, beer: bool) -> Board:
        self.obj["merchants"][space]["beer"] = beer
        return self

    def text(self) -> str:
        return json.dumps(self.obj)

    def load(self, engine):
        return engine.State.from_json(self.text())


def _dec(counts: dict, kind: str) -> None:
    counts[kind] -= 1
    if not counts[kind]:
        del counts[kind]


def names(state) -> list[str]:
    return [state.game.action_name(a) for a in state.legal_actions()]


def obj(state) -> dict:
    return json.loads(state.to_json())


def play(state, *moves: str):
    for move in moves:
        state.apply(move)
    return state


def finish(state):
    """Answer the card decisions of the action under way with the first card offered."""
    while state.decision == "card":
        state.apply(state.legal_actions()[0])
    return state


def new_game(engine, players: int, seed: int = 0, **options):
    return engine.Game("birmingham", players=players, **options).new_state(seed)


# --- set-up (B-1 … B-5) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_B1_each_player_starts_with_17_pounds_income_10_and_a_face_down_card(engine, players):
    state = new_game(engine, players, seed=7)
    o = obj(state)
    for p in o["players"]:
        assert (p["money"], p["vp"], p["income_space"], p["links_left"]) == (17, 0, 10, 14)
        assert p["mat"] == {
            "cotton_mill": 11,
            "manufacturer": 11,
            "pottery": 5,
            "coal_mine": 7,
            "iron_works": 4,
            "brewery": 7,
        }
        assert sum(p["hand"].values()) == 8 and p["discards"] == {}
    assert sum(o["removed"].values()) == players  # one face-down card each, seen by nobody
    assert levels(10) == 0


@pytest.mark.parametrize(("players", "size", "mixed"), [(2, 40, 0), (3, 54, 6), (4, 64, 8)])
def test_B2_K7_deck_sizes_and_the_cotton_mill_manufacturer_card(engine, players, size, mixed):
    o = obj(new_game(engine, players, seed=3))
    held: dict[str, int] = {}
    for part in [p["hand"] for p in o["players"]] + [o["removed"]]:
        for k, n in part.items():
            held[k] = held.get(k, 0) + n
    for k in o["deck"]:
        held[k] = held.get(k, 0) + 1
    assert sum(held.values()) == size
    assert held.get("cotton_mill_manufacturer", 0) == mixed
    assert not any(held.get(w) for w in WILD)  # the wild cards are beside the deck, not in it


def test_K9_uttoxeter_has_one_card_at_3_players_and_two_at_4(engine):
    for players, count in ((2, 0), (3, 1), (4, 2)):
        o = obj(new_game(engine, players, seed=11))
        held = sum(p["hand"].get("uttoxeter", 0) for p in o["players"]) + o["removed"].get("uttoxeter", 0)
        assert held + o["deck"].count("uttoxeter") == count


@pytest.mark.parametrize("players", [2, 3, 4])
def test_B3_merchant_tiles_of_the_player_count_with_a_barrel_beside_each_non_blank_one(engine, players):
    seen = set()
    for seed in range(12):
        merchants = obj(new_game(engine, players, seed))["merchants"]
        assert sorted(merchants) == sorted(IN_USE[players])  # 2p: no Warrington, no Nottingham; 3p: no Nottingham
        tiles = sorted(m["tile"] for m in merchants.values())
        assert tiles == sorted(DATA["merchant_tiles"]["by_player_count"][str(players)])
        assert all(m["beer"] == (m["tile"] != "blank") for m in merchants.values())
        seen.add(tuple(m["tile"] for m in merchants.values()))
    assert len(seen) > 1  # shuffled by the seed


def test_B3_merchant_tiles_are_shuffled_after_the_deal(engine):
    """docs/birmingham.md set-up order: deck, hands, face-down cards, merchants, turn order (one seeded RNG)."""
    a, b = new_game(engine, 4, seed=5), new_game(reference, 4, seed=5)
    assert a.to_json() == b.to_json()


def test_B4_markets_start_with_13_coal_and_8_iron(engine):
    o = obj(new_game(engine, 3))
    assert (o["coal_market"], o["iron_market"]) == (13, 8)


def test_B4_an_empty_coal_market_sells_at_8_and_an_empty_iron_market_at_6(engine):
    # Rail Era; player 0 links Birmingham–Oxford: Oxford is a merchant location, no mine anywhere: £5 + £8.
    board = Board(2, era="rail").hand(0, birmingham=2).tile("birmingham/2", 0, "manufacturer", 2, flipped=True)
    board.obj["coal_market"] = 0
    board.obj["iron_market"] = 0
    state = play(board.load(engine), "link birmingham-oxford")
    me = obj(state)["players"][0]
    assert me["money"] == 17 - 13 and me["money_spent"] == 13
    state = play(board.load(engine), "develop cotton_mill")  # one iron, no works: £6
    assert obj(state)["players"][0]["money"] == 17 - 6


def test_B5_rounds_per_era_and_one_action_in_the_first_canal_round(engine):
    for players, rounds in ((2, 10), (3, 9), (4, 8)):
        game = engine.Game("birmingham", players=players)
        assert game.rounds_per_era == rounds
        state = game.new_state(1)
        assert state.actions_left == 1
        for _ in range(players):
            finish(state.apply("pass") or state)
        assert state.round == 2 and state.actions_left == 2


# --- industries and beer (B-6 … B-9) ---------------------------------------------------------------------------


def test_B6_B28_a_brewery_flips_when_its_last_barrel_leaves_in_another_players_sale(engine):
    # Player 0 sells a cotton mill at Worcester to Gloucester's cotton merchant; the only beer is player 1's
    # brewery at Worcester's farm brewery (connected through Kidderminster–Worcester); its last barrel flips it.
    board = (
        Board(2)
        .hand(0, birmingham=1)
        .merchants(gloucester_1="cotton_mill", gloucester_2="blank")
        .barrel("gloucester/1", False)
        .tile("worcester/1", 0, "cotton_mill", 1)
        .tile("farm_south/1", 1, "brewery", 1)
        .link("gloucester-worcester", 0)
        .link("kidderminster-worcester", 1)
    )
    state = play(board.load(engine), "sell worcester/1 gloucester/1")
    o = obj(state)
    assert o["board"]["farm_south/1"] == {"owner": 1, "industry": "brewery", "level": 1, "flipped": True, "cubes": 0}
    assert o["players"][1]["income_space"] == 10 + ROW[("brewery", 1)]["income"]  # the owner's income, at once
    assert o["board"]["worcester/1"]["flipped"]
    assert o["players"][0]["income_space"] == 10 + ROW[("cotton_mill", 1)]["income"]


@pytest.mark.parametrize(("era", "barrels"), [("canal", 1), ("rail", 2)])
def test_B7_K5_a_new_brewery_holds_1_barrel_in_the_canal_era_and_2_in_the_rail_era(engine, era, barrels):
    board = Board(2, era=era).hand(0, burton=1).set(0, money=30)
    if era == "rail":
        board.mat(0, "brewery", 2)
    state = play(board.load(engine), "build brewery burton/2")
    tile = obj(state)["board"]["burton/2"]
    assert (tile["industry"], tile["cubes"], tile["flipped"]) == ("brewery", barrels, False)
    assert tile["level"] == (1 if era == "canal" else 2)


def sale_position(players: int = 2) -> Board:
    """Player 0's cotton mill I at Worcester, linked to Gloucester (whose first space holds the cotton mill merchant
    with its barrel)."""
    return (
        Board(players)
        .hand(0, birmingham=1)
        .merchants(gloucester_1="cotton_mill", gloucester_2="blank")
        .tile("worcester/1", 0, "cotton_mill", 1)
        .link("gloucester-worcester", 0)
    )


def test_B8_an_own_brewery_gives_beer_without_a_connection(engine):
    board = sale_position().barrel("gloucester/1", False).tile("stafford/1", 0, "brewery", 1)
    state = board.load(engine)
    assert "sell worcester/1 gloucester/1" in names(state)
    play(state, "sell worcester/1 gloucester/1")
    assert obj(state)["board"]["stafford/1"]["cubes"] == 0


def test_B8_an_opponents_brewery_gives_beer_only_when_connected(engine):
    board = sale_position().barrel("gloucester/1", False).tile("stafford/1", 1, "brewery", 1)
    assert "sell worcester/1 gloucester/1" not in names(board.load(engine))
    board.link("birmingham-worcester", 1).link("birmingham-walsall", 1).link("cannock-walsall", 1)
    board.link("cannock-stafford", 1)
    assert "sell worcester/1 gloucester/1" in names(board.load(engine))


def test_B8_a_merchants_barrel_only_in_a_sale_to_that_merchant(engine):
    # Oxford's barrel (any) is there, Gloucester's is not: the mill cannot be sold to Gloucester with Oxford's beer.
    board = sale_position().barrel("gloucester/1", False).merchants(gloucester_1="cotton_mill", oxford_1="any")
    board.barrel("gloucester/1", False).link("gloucester-redditch", 1).link("oxford-redditch", 1)
    state = board.load(engine)
    legal = names(state)
    assert "sell worcester/1 gloucester/1" not in legal
    assert "sell worcester/1 oxford/1" in legal


def test_B9_coal_from_the_market_needs_a_connection_to_a_merchant_location(engine):
    # Manufacturer I needs a coal; no mine on the board.
    board = Board(2).hand(0, birmingham=1)
    assert "build manufacturer birmingham/2" not in names(board.load(engine))
    board.link("birmingham-oxford", 1)  # anyone's link to a merchant location
    assert "build manufacturer birmingham/2" in names(board.load(engine))


def test_B9_iron_from_the_market_needs_no_connection(engine):
    board = Board(2, era="rail").hand(0, birmingham=1).mat(0, "manufacturer", 2)
    state = board.load(engine)
    assert "build manufacturer birmingham/2" in names(state)  # Manufacturer II: one iron, £1 from the market
    play(state, "build manufacturer birmingham/2")
    assert obj(state)["iron_market"] == 7 and obj(state)["players"][0]["money"] == 17 - 10 - 2  # cheapest iron £2


# --- Build (B-10, B-11, B-12) -------------------------------------------------------------------------------------


def test_B10_a_location_card_builds_in_its_town_outside_the_network(engine):
    board = Board(2).hand(0, coventry=1).tile("dudley/1", 0, "coal_mine", 1)
    assert "build coal_mine coventry/2" in names(board.load(engine))
    board.hand(0, dudley=1)  # Coventry is not in the network: no card pays there now
    assert not [n for n in names(board.load(engine)) if "coventry" in n]


def test_B10_the_wild_location_card_builds_in_any_town_but_never_on_a_farm_brewery(engine):
    board = Board(2).hand(0, wild_location=1).tile("dudley/1", 0, "coal_mine", 1).link("kidderminster-worcester", 0)
    legal = names(board.load(engine))
    assert "build coal_mine coventry/2" in legal and "build brewery burton/2" in legal
    assert "build brewery farm_south/1" not in legal  # in the network, but the wild location card cannot build there
    state = play(board.load(engine), "build coal_mine coventry/2")
    me = obj(state)["players"][0]  # the turn ended (no card left) and the hand was refilled from the draw pile
    assert "wild_location" not in me["hand"] and me["discards"] == {}  # B-17: the wild card goes back to its pile


@pytest.mark.parametrize("card", ["brewery", "wild_industry"])
def test_B10_a_farm_brewery_is_built_with_a_brewery_card_or_the_wild_industry_card_in_the_network(engine, card):
    board = Board(2).hand(0, **{card: 1}).tile("dudley/1", 0, "coal_mine", 1).link("kidderminster-worcester", 0)
    legal = names(board.load(engine))
    assert "build brewery farm_south/1" in legal
    assert "build brewery farm_north/1" not in legal  # not in the network
    board.hand(0, worcester=1, kidderminster=1)  # the location cards of the line's towns do not reach the farm
    assert "build brewery farm_south/1" not in names(board.load(engine))


def test_B10_the_cotton_mill_manufacturer_card_builds_either_industry_in_the_network(engine):
    board = Board(3).hand(0, cotton_mill_manufacturer=1).tile("dudley/1", 0, "coal_mine", 1, cubes=0)
    board.link("birmingham-oxford", 0)  # Birmingham in the network; Manufacturer I's coal from the market
    legal = names(board.load(engine))
    assert {"build cotton_mill birmingham/1", "build manufacturer birmingham/2"} <= set(legal)
    assert not [n for n in legal if n.startswith("build pottery")]


def test_B10_the_wild_industry_card_builds_any_industry_in_the_network(engine):
    board = Board(2).hand(0, wild_industry=1).tile("coventry/2", 0, "coal_mine", 1).set(0, money=40)
    legal = {n for n in names(board.load(engine)) if n.startswith("build")}
    # Canal Era: the player already has a tile in Coventry, the only town of the network; only overbuilding it.
    assert legal == {"build coal_mine coventry/2"}
    board = Board(2, era="rail").hand(0, wild_industry=1).tile("coventry/2", 0, "coal_mine", 2).set(0, money=40)
    board.mat(0, "pottery", 1).mat(0, "manufacturer", 2)
    legal = {n for n in names(board.load(engine)) if n.startswith("build")}
    assert {"build pottery coventry/1", "build manufacturer coventry/3"} <= legal
    assert not [n for n in legal if "coventry" not in n]


def test_B10_K6_lowest_tile_by_era_pottery_I_builds_in_both(engine):
    canal = Board(2).hand(0, stafford=1).mat(0, "pottery", 5).set(0, money=60)
    assert "build pottery stafford/2" not in names(canal.load(engine))  # Pottery V: Rail Era only
    rail = Board(2, era="rail").hand(0, stafford=1).set(0, money=60)
    rail.mat(0, "cotton_mill", 1).mat(0, "brewery", 1)
    legal = names(rail.load(engine))
    assert "build brewery stafford/1" not in legal  # Brewery I: Canal Era only
    assert "build pottery stafford/2" in legal  # Pottery I (lightbulb): both eras
    state = play(rail.load(engine), "build pottery stafford/2")
    assert obj(state)["board"]["stafford/2"]["level"] == 1


def test_B10_one_own_tile_per_location_in_the_canal_era(engine):
    board = Board(2).hand(0, birmingham=1).tile("birmingham/3", 0, "iron_works", 1).link("birmingham-oxford", 1)
    assert [n for n in names(board.load(engine)) if n.startswith("build")] == ["build iron_works birmingham/3"]
    board.tile("birmingham/3", 1, "iron_works", 1)  # another player's tile there does not count
    assert "build cotton_mill birmingham/1" in names(board.load(engine))


def test_B10_L24_one_space_per_icon_set_when_no_single_icon_space_is_free(engine):
    board = Board(4).hand(0, uttoxeter=1, tamworth=1)
    legal = names(board.load(engine))
    assert {"build brewery uttoxeter/1", "build brewery uttoxeter/2"} <= set(legal)  # different icon sets
    assert "build cotton_mill tamworth/1" in legal and "build cotton_mill tamworth/2" not in legal  # the same set


@pytest.mark.parametrize(("connected", "cubes_left", "money"), [(True, 1, 17 - 5 + 1), (False, 2, 17 - 5)])
def test_B11_a_new_coal_mine_connected_to_a_merchant_location_sells_to_the_coal_market(
    engine, connected, cubes_left, money
):
    board = Board(2).hand(0, redditch=1)
    if connected:
        board.link("oxford-redditch", 1)
    state = play(board.load(engine), "build coal_mine redditch/1")
    o = obj(state)
    assert o["board"]["redditch/1"]["cubes"] == cubes_left  # Coal Mine I: 2 cubes; one £1 space was empty
    assert o["coal_market"] == 13 + 2 - cubes_left and o["players"][0]["money"] == money


def test_B11_a_new_iron_works_always_sells_to_the_iron_market(engine):
    board = Board(2).hand(0, redditch=1).tile("redditch/1", 1, "coal_mine", 1)
    state = play(board.load(engine), "build iron_works redditch/2")
    o = obj(state)
    assert o["board"]["redditch/2"]["cubes"] == 2 and o["iron_market"] == 10  # both £1 spaces filled
    assert o["board"]["redditch/1"]["cubes"] == 1  # its coal from the mine in the same town
    assert o["players"][0]["money"] == 17 - 5 + 2


def test_B12_with_nothing_on_the_board_an_industry_card_builds_anywhere(engine):
    board = Board(2).hand(0, coal_mine=1)
    legal = names(board.load(engine))
    assert {"build coal_mine dudley/1", "build coal_mine coventry/2", "build coal_mine cannock/2"} <= set(legal)
    board.tile("stone/2", 0, "coal_mine", 1)  # now only in the network (Stone: one own tile already)
    assert [n for n in names(board.load(engine)) if n.startswith("build")] == ["build coal_mine stone/2"]


def test_B12_with_nothing_on_the_board_any_card_places_a_link_on_any_line(engine):
    board = Board(2).hand(0, pottery=1)
    legal = names(board.load(engine))
    assert {"link stoke-warrington", "link belper-derby", "link cannock-farm_north"} <= set(legal)
    assert "link belper-leek" not in legal  # a rail line in the Canal Era
    board.tile("dudley/1", 0, "coal_mine", 1)
    legal = names(board.load(engine))
    assert "link stoke-warrington" not in legal and "link dudley-kidderminster" in legal


def test_B12_B30_a_first_rail_anywhere_still_needs_its_coal(engine):
    board = Board(2, era="rail").hand(0, pottery=1).set(0, money=40)
    legal = names(board.load(engine))
    assert "link derby-nottingham" in legal  # Nottingham: coal from the market (no tile there at 2 players)
    assert "link belper-leek" not in legal  # no mine, no merchant location: no coal
    assert "build coal_mine dudley/1" not in legal  # no coal mine card; the pottery card builds potteries
    assert "build pottery stafford/2" in legal  # B-30: nothing on the board in the Rail Era, the first build


# --- Network (B-13) -----------------------------------------------------------------------------------------------


def rail_position() -> Board:
    """Rail Era: player 0's Manufacturer II at Birmingham, £40; coal comes from the market through Oxford."""
    return (
        Board(2, era="rail")
        .hand(0, birmingham=2)
        .set(0, money=40)
        .tile("birmingham/2", 0, "manufacturer", 2, flipped=True)
        .merchants(oxford_1="any")
    )


def test_B13_a_second_rail_needs_a_barrel_from_a_brewery_not_from_a_merchant(engine):
    state = play(rail_position().load(engine), "link birmingham-oxford")
    assert (state.decision, state.actions_left) == ("action", 1)  # no second rail: Oxford's barrel does not count
    board = rail_position().tile("stafford/1", 0, "brewery", 2, cubes=1)  # own brewery, unconnected
    state = play(board.load(engine), "link birmingham-oxford")
    assert state.decision == "link" and "link oxford-redditch" in names(state)
    play(state, "link oxford-redditch")
    o = obj(state)
    assert o["board"]["stafford/1"]["flipped"] and o["board"]["stafford/1"]["cubes"] == 0
    assert o["players"][0]["money"] == 40 - 5 - 1 - 10 - 2  # £5 and £10 with the two cheapest coal, £1 and £2
    assert o["merchants"]["oxford/1"]["beer"]


def test_B13_B25_an_opponents_brewery_must_connect_to_the_second_rail_once_placed(engine):
    board = rail_position().tile("walsall/2", 1, "brewery", 2, cubes=2)
    state = play(board.load(engine), "link birmingham-oxford")
    assert state.decision == "link"
    assert [n for n in names(state) if n != "stop"] == ["link birmingham-walsall"]  # only it reaches Walsall
    play(state, "link birmingham-walsall")
    assert obj(state)["board"]["walsall/2"]["cubes"] == 1


def test_B13_the_second_rails_barrel_is_asked_when_two_breweries_may_give_it(engine):
    board = rail_position().tile("stafford/1", 0, "brewery", 2, cubes=1).tile("burton/2", 0, "brewery", 2, cubes=2)
    state = play(board.load(engine), "link birmingham-oxford", "link oxford-redditch")
    assert state.decision == "beer"
    assert names(state) == ["beer stafford/1", "beer burton/2"]
    o = obj(state)
    assert (o["action"]["kind"], o["action"]["beer"], o["action"]["count"]) == ("link", 1, 2)
    play(state, "beer burton/2")
    assert obj(state)["board"]["burton/2"]["cubes"] == 1 and (state.decision, state.actions_left) == ("action", 1)


def test_B13_a_second_rails_barrel_is_noted_when_it_is_placed_and_taken_after_its_coal(engine):
    # The second rail Dudley–Wolverhampton has two equally close mines (one at each end): decision `coal`, with the
    # barrel still to take (docs/reference-notes.md item 43).
    board = (
        rail_position()
        .tile("dudley/1", 1, "coal_mine", 2, cubes=3)
        .tile("wolverhampton/2", 1, "coal_mine", 2, cubes=3)
        .tile("stafford/1", 0, "brewery", 2, cubes=1)
    )
    state = play(board.load(engine), "link birmingham-dudley", "link dudley-wolverhampton")
    assert state.decision == "coal" and names(state) == ["coal wolverhampton/2", "coal dudley/1"]
    o = obj(state)["action"]
    assert (o["kind"], o["count"], o["coal"], o["beer"]) == ("link", 2, 1, 1)
    play(state, "coal wolverhampton/2")
    o = obj(state)
    assert o["board"]["stafford/1"]["flipped"] and o["board"]["wolverhampton/2"]["cubes"] == 2


# --- Develop (B-14) and the Gloucester bonus (B-26) ----------------------------------------------------------------


@pytest.mark.parametrize(("lowest", "legal"), [(1, False), (2, True), (3, False), (4, True), (5, True)])
def test_B14_the_lightbulb_potteries_can_never_be_developed(engine, lowest, legal):
    board = Board(2).hand(0, dudley=1).mat(0, "pottery", lowest)
    assert ("develop pottery" in names(board.load(engine))) == legal


def test_B14_develop_one_or_two_tiles_an_iron_each(engine):
    state = play(Board(2).hand(0, dudley=1).load(engine), "develop manufacturer")
    assert state.decision == "develop" and "develop pottery" not in names(state)  # Pottery I: lightbulb
    play(state, "develop manufacturer")
    o = obj(state)
    assert o["players"][0]["mat"]["manufacturer"] == 9 and o["iron_market"] == 6
    assert o["players"][0]["money"] == 17 - 2 - 2


# --- Sell (B-15, B-25, B-26) ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "buys"),
    [("blank", False), ("cotton_mill", True), ("manufacturer", False), ("pottery", False), ("any", True)],
)
def test_B15_a_merchant_buys_only_the_industries_of_its_tile(engine, tile, buys):
    board = (
        Board(4)
        .hand(0, dudley=1)
        .merchants(gloucester_1=tile)
        .tile("worcester/1", 0, "cotton_mill", 1)
        .link("gloucester-worcester", 0)
        .tile("stafford/1", 0, "brewery", 1)
    )
    assert ("sell worcester/1 gloucester/1" in names(board.load(engine))) == buys


def test_B15_the_tile_must_be_connected_to_the_merchant(engine):
    board = sale_position().tile("stafford/1", 0, "brewery", 1)
    del board.obj["links"]["gloucester-worcester"]
    board.obj["players"][0]["links_left"] += 1
    assert not [n for n in names(board.load(engine)) if n.startswith("sell")]


def test_B15_a_sale_flips_the_tile_advances_income_and_another_sale_may_follow(engine):
    board = (
        sale_position()
        .merchants(gloucester_1="cotton_mill", gloucester_2="any")
        .tile("stafford/1", 0, "brewery", 1)
        .tile("burton/2", 0, "brewery", 1)
        .tile("kidderminster/2", 1, "cotton_mill", 1)
    )
    board.obj["board"]["worcester/2"] = {**board.obj["board"]["worcester/1"]}
    board.obj["board"]["worcester/1"]["owner"] = 1  # (Canal: one own tile per location)
    board.tile("redditch/1", 0, "manufacturer", 1).link("gloucester-redditch", 0)
    board.merchants(gloucester_1="cotton_mill", gloucester_2="any").barrel("gloucester/1", False)
    board.barrel("gloucester/2", False)
    state = board.load(engine)
    legal = names(state)
    assert {"sell worcester/2 gloucester/1", "sell worcester/2 gloucester/2", "sell redditch/1 gloucester/2"} <= set(
        legal
    )
    assert "sell redditch/1 gloucester/1" not in legal  # the cotton merchant does not buy manufacturers
    play(state, "sell worcester/2 gloucester/1")
    assert state.decision == "beer"  # two own breweries
    play(state, "beer stafford/1")
    o = obj(state)
    brewery_income = ROW[("brewery", 1)]["income"]  # the brewery's last barrel flipped it (B-28)
    assert o["board"]["worcester/2"]["flipped"] and o["players"][0]["income_space"] == 15 + brewery_income
    assert state.decision == "sell" and names(state) == ["sell redditch/1 gloucester/2", "stop"]
    assert (o["action"]["count"], o["action"]["target"], o["action"]["merchant"]) == (1, None, None)
    play(state, "sell redditch/1 gloucester/2")
    o = obj(state)
    assert o["board"]["redditch/1"]["flipped"] and o["board"]["burton/2"]["flipped"]
    assert o["players"][0]["income_space"] == 15 + 2 * brewery_income + ROW[("manufacturer", 1)]["income"]


def test_B15_a_tile_that_needs_no_beer_sells_without_beer_and_takes_no_merchant_barrel(engine):
    # Manufacturer III needs no beer (K-table: beer 0); Oxford's manufacturer merchant keeps its barrel, no bonus.
    board = Board(2).hand(0, birmingham=1).merchants(oxford_2="manufacturer").tile("birmingham/2", 0, "manufacturer", 3)
    board.link("birmingham-oxford", 0)
    state = play(board.load(engine), "sell birmingham/2 oxford/2")
    o = obj(state)
    assert o["board"]["birmingham/2"]["flipped"] and o["merchants"]["oxford/2"]["beer"]
    assert o["players"][0]["income_space"] == 10 + ROW[("manufacturer", 3)]["income"]


def test_B25_each_barrel_separately_from_any_source_the_merchant_barrel_at_most_once(engine):
    # Manufacturer V needs 2 beer; Oxford's barrel counts once: with no brewery the sale is illegal.
    board = Board(2).hand(0, birmingham=1).merchants(oxford_2="manufacturer").tile("birmingham/2", 0, "manufacturer", 5)
    board.link("birmingham-oxford", 0)
    assert "sell birmingham/2 oxford/2" not in names(board.load(engine))
    board.tile("stafford/1", 0, "brewery", 1)
    state = play(board.load(engine), "sell birmingham/2 oxford/2")
    assert state.decision == "beer" and names(state) == ["beer stafford/1", "beer oxford/2"]
    o = obj(state)["action"]
    assert (o["kind"], o["beer"], o["target"], o["merchant"], o["merchant_beer"]) == (
        "sell",
        2,
        "birmingham/2",
        "oxford/2",
        False,
    )
    play(state, "beer oxford/2")  # the merchant's barrel first; the brewery's follows by itself
    o = obj(state)
    assert not o["merchants"]["oxford/2"]["beer"] and o["board"]["stafford/1"]["cubes"] == 0
    # the brewery flips (its income), the tile flips (its income), then Oxford's bonus: +2 income spaces
    assert (
        o["players"][0]["income_space"] == 10 + ROW[("brewery", 1)]["income"] + ROW[("manufacturer", 5)]["income"] + 2
    )


def test_B25_an_opponents_brewery_must_be_connected_to_the_tile_sold(engine):
    board = sale_position().barrel("gloucester/1", False).tile("coalbrookdale/1", 1, "brewery", 1)
    assert "sell worcester/1 gloucester/1" not in names(board.load(engine))
    board.link("coalbrookdale-kidderminster", 1).link("kidderminster-worcester", 1)
    state = play(board.load(engine), "sell worcester/1 gloucester/1")
    assert obj(state)["board"]["coalbrookdale/1"]["flipped"]


SALE_TO = {
    # merchant space: (players, the mill's space, the links to the merchant, the bonus)
    "shrewsbury/1": (2, "kidderminster/2", ["coalbrookdale-kidderminster", "coalbrookdale-shrewsbury"], "vp 4"),
    "gloucester/1": (2, "worcester/1", ["gloucester-worcester"], "develop"),
    "oxford/1": (2, "birmingham/1", ["birmingham-oxford"], "income 2"),
    "warrington/1": (3, "stoke/1", ["stoke-warrington"], "money 5"),
    "nottingham/1": (4, "derby/1", ["derby-nottingham"], "vp 3"),
}


@pytest.mark.parametrize("merchant", sorted(SALE_TO))
def test_B26_the_merchant_bonus_of_each_merchant_location(engine, merchant):
    players, mill, links, bonus = SALE_TO[merchant]
    board = Board(players).hand(0, dudley=1).merchants(**{merchant.replace("/", "_"): "cotton_mill"})
    board.tile(mill, 0, "cotton_mill", 1)
    for line in links:
        board.link(line, 0)
    state = play(board.load(engine), f"sell {mill} {merchant}")
    o = obj(state)
    me = o["players"][0]
    assert not o["merchants"][merchant]["beer"] and o["board"][mill]["flipped"]
    income = 10 + ROW[("cotton_mill", 1)]["income"]
    if bonus == "develop":
        assert state.decision == "bonus"
        assert o["action"]["merchant_beer"] and o["action"]["count"] == 1
        return
    kind, amount = bonus.split()
    assert me["vp"] == (int(amount) if kind == "vp" else 0)
    assert me["money"] == 17 + (int(amount) if kind == "money" else 0)
    assert me["income_space"] == income + (int(amount) if kind == "income" else 0)


def test_B26_no_bonus_when_the_beer_comes_from_a_brewery(engine):
    board = sale_position().merchants(gloucester_1="cotton_mill", oxford_1="any").tile("stafford/1", 0, "brewery", 1)
    board.link("birmingham-worcester", 0).link("birmingham-oxford", 0).tile("birmingham/1", 0, "cotton_mill", 1)
    del board.obj["board"]["worcester/1"]
    state = play(board.load(engine), "sell birmingham/1 oxford/1", "beer stafford/1")
    o = obj(state)
    assert o["merchants"]["oxford/1"]["beer"]
    assert o["players"][0]["income_space"] == 10 + 5 + ROW[("brewery", 1)]["income"]  # no +2 spaces


def test_B26_R17_gloucesters_develop_is_optional_and_never_a_lightbulb_pottery(engine):
    players, mill, links, _ = SALE_TO["gloucester/1"]
    board = Board(players).hand(0, dudley=1).merchants(gloucester_1="cotton_mill").tile(mill, 0, "cotton_mill", 1)
    board.link(links[0], 0)
    state = play(board.load(engine), f"sell {mill} gloucester/1")
    assert state.decision == "bonus"
    assert names(state) == [
        "develop cotton_mill",
        "develop manufacturer",
        "develop coal_mine",
        "develop iron_works",
        "develop brewery",
        "stop",
    ]  # Pottery I (lightbulb) cannot leave the mat
    before = obj(state)
    after = obj(play(state, "develop coal_mine"))
    assert after["players"][0]["mat"]["coal_mine"] == before["players"][0]["mat"]["coal_mine"] - 1
    assert after["players"][0]["money"] == before["players"][0]["money"]  # free: no iron
    assert after["iron_market"] == before["iron_market"] and state.decision == "action"  # the sale and the action end
    declined = obj(play(board.load(engine), f"sell {mill} gloucester/1", "stop"))
    assert (
        declined["players"][0]["mat"] == before["players"][0]["mat"]
        and not declined["merchants"]["gloucester/1"]["beer"]
    )


def test_B26_no_bonus_decision_when_no_industry_qualifies(engine):
    players, mill, links, _ = SALE_TO["gloucester/1"]
    board = Board(players).hand(0, dudley=1).merchants(gloucester_1="cotton_mill").tile(mill, 0, "cotton_mill", 1)
    board.link(links[0], 0)
    for industry in ("cotton_mill", "manufacturer", "coal_mine", "iron_works", "brewery"):
        board.obj["players"][0]["mat"][industry] = 0
    board.mat(0, "pottery", 3)  # Pottery III: lightbulb
    state = play(board.load(engine), f"sell {mill} gloucester/1")
    assert state.decision != "bonus" and obj(state)["players"][0]["mat"]["pottery"] == 3


# --- Loan, Scout, Pass (B-16, B-17, B-18, B-23) ------------------------------------------------------------------


def last_turn(board: Board, era: str = "canal") -> Board:
    """The last turn of the era's last round: player 1 holds one card, player 0 none, the draw pile is empty."""
    rounds = {2: 10, 3: 9, 4: 8}[board.players]
    board.obj.update({"round": rounds, "turn": board.players - 1, "actions_left": 1})
    for p in range(board.players - 1):
        board.hand(p)
    board.hand(board.players - 1, dudley=1)
    return board.empty_deck()


def test_B16_a_loan_is_30_pounds_and_3_income_levels_back_in_every_round(engine):
    board = last_turn(Board(2, era="rail"))  # the last Rail round: loans are still allowed (no L-46)
    state = board.load(engine)
    assert "loan 30" in names(state) and not [n for n in names(state) if n in ("loan 10", "loan 20")]
    me = obj(play(state, "loan 30"))["players"][1]
    assert me["money"] == 17 + 30 and me["money_spent"] == 0
    assert me["income_space"] == 7 and levels(7) == -3  # the highest space of level -3


def test_L11_a_shortfall_removes_tiles_of_the_players_choice_even_one_worth_nothing(engine):
    """L-11 in Birmingham (docs/birmingham.md, "Where the rules leave a choice"): a player who cannot pay a negative
    income removes tiles of their choice, each worth half its cost, until the debt is covered, then loses 1 VP per
    £1 still owed. Pottery II costs £0: it raises nothing, but it is a tile and may (or, when it is the last one,
    must) be removed. Player 0 owes £5 with £2 at the end of the Canal Era."""
    board = last_turn(Board(2)).set(0, income_space=5, money=2, vp=10)  # income level -5
    board.tile("stafford/2", 0, "pottery", 2, flipped=True).tile("belper/1", 0, "cotton_mill", 1)
    state = play(board.load(engine), "pass")
    assert (state.decision, state.current_player) == ("remove", 0)
    assert names(state) == ["remove belper/1", "remove stafford/2"]
    mill_first = obj(state.child("remove belper/1"))  # £6 covers the £3 still owed: the pottery stays and scores
    assert (mill_first["players"][0]["money"], mill_first["players"][0]["vp"]) == (2 + 6 - 5, 10 + 1)
    assert list(mill_first["board"]) == ["stafford/2"]
    pottery_first = obj(state.child("remove stafford/2"))  # £0: the mill must go too
    assert (pottery_first["players"][0]["money"], pottery_first["players"][0]["vp"]) == (2 + 6 - 5, 10)
    assert pottery_first["board"] == {}
    only = last_turn(Board(2)).set(0, income_space=5, money=2, vp=10).tile("stafford/2", 0, "pottery", 2, flipped=True)
    after = obj(play(only.load(engine), "pass"))  # the last tile, worth £0, goes; £3 still owed: 3 VP
    assert (after["players"][0]["money"], after["players"][0]["vp"], after["board"]) == (0, 10 - 3, {})


@pytest.mark.parametrize(("space", "legal"), [(3, True), (2, False)])
def test_B16_a_loan_may_not_take_the_income_level_below_minus_10(engine, space, legal):
    board = Board(2).hand(0, dudley=1).set(0, income_space=space)
    assert ("loan 30" in names(board.load(engine))) == legal
    if legal:
        assert obj(play(board.load(engine), "loan 30"))["players"][0]["income_space"] == 0


def test_B17_scout_discards_three_cards_and_gives_one_wild_card_of_each_kind(engine):
    board = Board(2).hand(0, dudley=1, birmingham=1, coventry=1, brewery=1)
    state = board.load(engine)
    assert "scout" in names(state)
    play(state, "scout")
    assert state.decision == "card" and names(state) == ["card dudley", "card birmingham"]
    o = obj(state)["action"]
    assert (o["kind"], o["count"], o["first_card"]) == ("scout", 0, None)
    play(state, "card dudley")
    assert names(state) == ["card birmingham", "card coventry"]  # not lower than dudley, two cards still to come
    o = obj(state)["action"]
    assert (o["count"], o["first_card"]) == (1, "dudley")
    play(state, "card coventry")  # the third card (brewery) follows by itself
    me = obj(state)["players"][0]
    assert me["hand"] == {"birmingham": 1, "wild_industry": 1, "wild_location": 1}
    assert me["discards"] == {"brewery": 1, "coventry": 1, "dudley": 1}
    assert (state.decision, state.actions_left) == ("action", 1)


@pytest.mark.parametrize(
    "hand", [{"dudley": 1, "wild_location": 1, "brewery": 2}, {"dudley": 1, "wild_industry": 1, "brewery": 2}]
)
def test_B17_B31_no_scout_while_holding_a_wild_card(engine, hand):
    assert "scout" not in names(Board(2).hand(0, **hand).load(engine))


def test_B17_scout_needs_three_cards(engine):
    assert "scout" not in names(Board(2).hand(0, dudley=1, brewery=1).load(engine))
    assert "scout" in names(Board(2).hand(0, dudley=1, brewery=2).load(engine))


def test_B17_a_wild_card_played_goes_back_to_its_pile(engine):
    board = Board(2).hand(0, wild_industry=1, dudley=1).tile("dudley/1", 0, "coal_mine", 1, cubes=0)
    state = play(board.load(engine), "pass", "card wild_industry")
    me = obj(state)["players"][0]
    assert me["hand"] == {"dudley": 1} and me["discards"] == {}
    assert "scout" not in names(state)  # one card left
    state = play(Board(2).hand(0, wild_industry=1, dudley=2, brewery=1).load(engine), "pass", "card wild_industry")
    assert "scout" in names(state)  # no wild card in hand any more


def test_B18_pass_discards_any_card(engine):
    state = play(Board(2).hand(0, dudley=1, brewery=1).load(engine), "pass")
    assert state.decision == "card" and names(state) == ["card dudley", "card brewery"]


def test_B23_no_double_build_and_no_distant_market(engine):
    game = engine.Game("birmingham", players=4)
    assert game.num_actions == 569
    all_names = [game.action_name(i) for i in range(game.num_actions)]
    assert not [n for n in all_names if n.endswith("double") or n.endswith("distant")]
    for text in ("build cotton_mill birmingham/1 double", "sell birmingham/1 distant", "loan 10"):
        with pytest.raises(engine.NotationError):
            game.parse_action(text)
    state = game.new_state(3)
    assert (state.dcm_marker, state.dcm_tiles_left, state.deck_tile_size) == (None, None, 0)
    assert "deck_tile" not in obj(state) and "dcm" not in obj(state)


# --- Era ends and scoring (B-19 … B-22, B-30) ----------------------------------------------------------------------


def canal_end_position() -> Board:
    board = (
        last_turn(Board(2))
        .tile("birmingham/2", 1, "manufacturer", 2, flipped=True)  # 1 link icon, 5 VP
        .tile("birmingham/4", 0, "manufacturer", 2, flipped=False)  # K3: no icon, no VP
        .tile("farm_south/1", 0, "brewery", 1, cubes=0)  # 2 link icons, 4 VP, level 1
        .tile("stafford/2", 1, "pottery", 1, flipped=True)  # 1 link icon, 10 VP, level 1 (K6)
        .link("birmingham-oxford", 0)  # 1 + 2 (K2)
        .link("kidderminster-worcester", 1)  # 0 + 0 + 2 (the south farm brewery)
        .link("stoke-warrington", 0)  # 0 + 2: Warrington has no tile at 2 players (B-24, K2)
        .merchants(oxford_1="any")
        .barrel("oxford/1", False)
        .set(0, money_spent=5)
        .set(1, income_space=15)
    )
    return board


def test_B19_K2_K3_links_score_the_icons_of_flipped_tiles_and_2_at_each_merchant_location(engine):
    state = play(canal_end_position().load(engine), "pass")
    o = obj(state)
    assert [p["vp"] for p in o["players"]] == [3 + 2 + 4, 2 + 5 + 10]
    assert o["links"] == {} and [p["links_left"] for p in o["players"]] == [14, 14]


def test_B20_K6_the_canal_era_end_removes_level_1_tiles_refills_merchant_barrels_and_deals_8(engine):
    state = play(canal_end_position().load(engine), "pass")
    o = obj(state)
    assert (o["era"], o["round"], o["decision"]) == ("rail", 1, "action")
    assert sorted(o["board"]) == ["birmingham/2", "birmingham/4"]  # Brewery I and Pottery I gone
    assert all(m["beer"] == (m["tile"] != "blank") for m in o["merchants"].values())
    assert o["merchants"]["oxford/1"]["beer"]
    assert [sum(p["hand"].values()) for p in o["players"]] == [8, 8]
    assert all(p["discards"] == {} for p in o["players"]) and o["removed"] == {}
    assert len(o["deck"]) == 40 - 16
    assert [p["money"] for p in o["players"]] == [17, 17 + levels(15)]  # the Canal Era's last income


def test_B30_the_turn_order_carries_over_into_the_rail_era(engine):
    state = play(canal_end_position().load(engine), "pass")
    assert obj(state)["turn_order"] == [1, 0]  # player 0 spent £5 in the last Canal round, player 1 nothing


def test_B30_a_player_whose_tiles_all_left_the_board_builds_anywhere_in_the_rail_era(engine):
    board = Board(2, era="rail").hand(0, coal_mine=1).set(0, money=40).mat(0, "coal_mine", 2)
    board.mat(0, "pottery", 2)  # Pottery I was built in the Canal Era and removed at its end
    legal = names(board.load(engine))
    assert {"build coal_mine dudley/1", "build coal_mine cannock/2"} <= set(legal)  # first build anywhere (B-12)
    board.tile("birmingham/2", 0, "manufacturer", 2, flipped=True)
    assert not [n for n in names(board.load(engine)) if n.startswith("build coal_mine dudley")]


def final_turn(values: list[tuple[int, int, int]]) -> Board:
    """The last turn of the game (2 players) with each player's (VP, money, income space)."""
    board = last_turn(Board(len(values), era="rail"))
    for p, (vp, money, space) in enumerate(values):
        board.set(p, vp=vp, money=money, income_space=space)
    return board


@pytest.mark.parametrize(
    ("players_values", "winners"),
    [
        ([(20, 100, 10), (20, 50, 12)], [1]),  # income level 1 beats 0
        ([(20, 100, 11), (20, 50, 12)], [0]),  # the same level (spaces 11, 12): money
        ([(20, 50, 11), (20, 50, 12)], [0, 1]),  # still tied: shared
        ([(20, 100, 10), (21, 0, 10)], [1]),  # VP first, money never becomes VP
    ],
)
def test_B21_no_money_vp_and_the_tie_breaks(engine, players_values, winners):
    state = play(final_turn(players_values).load(engine), "pass")
    assert state.is_terminal and state.winners == winners
    assert state.scores == [vp for vp, _, _ in players_values]
    assert [p["money"] for p in obj(state)["players"]] == [m for _, m, _ in players_values]  # no income at the end


def test_B22_the_introductory_game_ends_with_the_canal_era_and_its_extra_scoring(engine):
    board = last_turn(Board(2, intro=True))
    board.tile("birmingham/2", 0, "manufacturer", 2, flipped=True).tile("farm_south/1", 0, "brewery", 1, cubes=0)
    board.tile("walsall/1", 1, "manufacturer", 2, flipped=False)
    board.set(0, money=70, income_space=20).set(1, money=9, income_space=3)
    state = play(board.load(engine), "pass")
    o = obj(state)
    assert state.is_terminal and o["era"] == "canal"
    # player 0: tiles 5 + 4, money min(15, 70 // 4), income level 5, Manufacturer II again (not Brewery I)
    # player 1: money 9 // 4 = 2, income level -7: not below 0 VP; an unflipped tile scores nothing
    assert state.scores == [5 + 4 + 15 + levels(20) + 5, 0]
    assert [p["money"] for p in o["players"]] == [70, 9]  # no income after the last round
    assert o["board"]["farm_south/1"]["level"] == 1  # no Rail set-up: the level-1 tiles stay on the board


# --- Overbuilding (B-27), flips and the track (B-28, B-29) ------------------------------------------------------


def test_B27_R20_an_own_tile_may_be_overbuilt_at_any_time_even_with_a_free_space(engine):
    board = Board(2, era="rail").hand(0, worcester=1).set(0, money=60).link("gloucester-worcester", 1)
    board.tile("worcester/1", 0, "cotton_mill", 2, flipped=True)
    legal = names(board.load(engine))
    assert {"build cotton_mill worcester/1", "build cotton_mill worcester/2"} <= set(legal)
    o = obj(play(board.load(engine), "build cotton_mill worcester/1"))
    assert o["board"]["worcester/1"] == {
        "owner": 0,
        "industry": "cotton_mill",
        "level": 3,
        "flipped": False,
        "cubes": 0,
    }


def test_B27_an_own_brewerys_barrels_go_to_the_supply_when_it_is_overbuilt(engine):
    board = Board(2, era="rail").hand(0, burton=1).set(0, money=40).tile("burton/2", 0, "brewery", 2, cubes=2)
    o = obj(play(board.load(engine), "build brewery burton/2"))
    assert (o["board"]["burton/2"]["level"], o["board"]["burton/2"]["cubes"]) == (3, 2)


@pytest.mark.parametrize(("coal_market", "legal"), [(1, False), (0, True)])
def test_B27_an_opponents_coal_mine_only_when_no_coal_is_left_on_the_board_or_in_the_market(engine, coal_market, legal):
    board = Board(2).hand(0, dudley=1).tile("dudley/1", 1, "coal_mine", 1, cubes=0).mat(0, "coal_mine", 2)
    board.obj["coal_market"] = coal_market
    assert ("build coal_mine dudley/1" in names(board.load(engine))) == legal
    if legal:
        board.tile("cannock/2", 1, "coal_mine", 2, cubes=1)  # coal on the board
        assert "build coal_mine dudley/1" not in names(board.load(engine))


def test_B27_never_an_opponents_brewery(engine):
    board = Board(2, era="rail").hand(0, burton=1).set(0, money=40).tile("burton/2", 1, "brewery", 2, cubes=0)
    board.mat(0, "brewery", 3)
    assert "build brewery burton/2" not in names(board.load(engine))


@pytest.mark.parametrize("start", [97, 98, 99])
def test_B29_K10_income_advances_stop_at_space_99(engine, start):
    board = sale_position().set(0, income_space=start)
    o = obj(play(board.load(engine), "sell worcester/1 gloucester/1", "stop"))
    assert o["players"][0]["income_space"] == 99 and levels(99) == 30


# --- The invariant of the wild piles (B-31) ---------------------------------------------------------------------


@pytest.mark.parametrize("where", ["two in a hand", "discards", "deck"])
def test_B31_wild_cards_only_in_hands_at_most_one_of_a_kind(engine, where):
    board = Board(2).hand(0, dudley=1)
    if where == "two in a hand":
        board.hand(1, dudley=1, wild_location=2)
    elif where == "discards":
        board.obj["players"][1]["discards"] = {"wild_industry": 1}
    else:
        board.obj["deck"].append("wild_industry")
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(board.text())


# --- The values kept (K1, K4, K8) --------------------------------------------------------------------------------


def test_K1_manufacturer_iv_costs_8_and_an_iron_and_advances_income_6(engine):
    board = Board(2).hand(0, birmingham=2).mat(0, "manufacturer", 4).merchants(oxford_2="manufacturer")
    board.link("birmingham-oxford", 0)
    state = play(board.load(engine), "build manufacturer birmingham/2")
    o = obj(state)
    assert o["players"][0]["money"] == 17 - 8 - 2 and o["board"]["birmingham/2"]["level"] == 4
    play(state, "sell birmingham/2 oxford/2")  # its barrel: Oxford's (+2 income spaces)
    assert obj(state)["players"][0]["income_space"] == 10 + 6 + 2
    assert (ROW[("manufacturer", 4)]["vp"], ROW[("manufacturer", 4)]["link_icons"]) == (3, 1)


def test_K4_manufacturer_ii_advances_income_1(engine):
    board = Board(2).hand(0, birmingham=1).merchants(oxford_2="manufacturer").barrel("oxford/2", False)
    board.tile("birmingham/2", 0, "manufacturer", 2).link("birmingham-oxford", 0).tile("stafford/1", 0, "brewery", 1)
    o = obj(play(board.load(engine), "sell birmingham/2 oxford/2"))
    assert o["players"][0]["income_space"] == 10 + 1 + ROW[("brewery", 1)]["income"]


def test_K8_the_mat_holds_45_tiles_with_two_manufacturer_viii(engine):
    mat = obj(new_game(engine, 2))["players"][0]["mat"]
    assert sum(mat.values()) == 45 and mat["manufacturer"] == 11
    assert STACK["manufacturer"].count(8) == 2


# --- Warrington and Nottingham without tiles (B-24) --------------------------------------------------------------


def test_B24_warrington_without_a_tile_keeps_its_coal_market_access_and_buys_nothing(engine):
    # (No Stoke or Leek card at 2 players: the wild location card builds there, B-10.)
    board = Board(2).hand(0, wild_location=1).link("stoke-warrington", 1)
    assert "build manufacturer stoke/3" in names(board.load(engine))  # Manufacturer I's coal from the market (B-9)
    state = play(
        Board(2).hand(0, wild_location=1).link("leek-stoke", 1).link("stoke-warrington", 1).load(engine),
        "build coal_mine leek/2",
    )
    assert obj(state)["coal_market"] == 14  # B-11: connected to Warrington, it sells to the market
    board = Board(2).hand(0, dudley=1).tile("stoke/1", 0, "cotton_mill", 1).link("stoke-warrington", 0)
    board.tile("stafford/1", 0, "brewery", 1)
    assert not [n for n in names(board.load(engine)) if n.startswith("sell")]  # no merchant tile there
    assert "warrington/1" not in obj(board.load(engine))["merchants"]


# --- The state of a Birmingham game (docs/birmingham.md "The state", "Validation") --------------------------------


def test_B15_the_action_object_of_a_birmingham_state_has_beer_merchant_and_merchant_beer(engine):
    state = play(Board(2).hand(0, dudley=1, brewery=1).load(engine), "pass")
    assert obj(state)["action"] == {
        "kind": "pass",
        "double": False,
        "target": None,
        "coal": 0,
        "iron": 0,
        "count": 0,
        "cards": None,
        "first_card": None,
        "beer": 0,
        "merchant": None,
        "merchant_beer": False,
    }
    lancashire = engine.Game("lancashire", players=2).new_state(1)
    lancashire.apply(lancashire.legal_actions()[-1])
    if lancashire.decision != "action":
        assert not {"beer", "merchant", "merchant_beer"} & set(obj(lancashire)["action"])


@pytest.mark.parametrize(("cubes", "valid"), [(1, True), (2, True), (3, False)])
def test_B7_a_breweries_barrels_within_its_tiles_most(engine, cubes, valid):
    board = Board(2, era="rail").hand(0, dudley=1).tile("burton/2", 1, "brewery", 2, cubes=cubes)
    if valid:
        assert obj(board.load(engine))["board"]["burton/2"]["cubes"] == cubes
    else:
        with pytest.raises(engine.InvalidStateError):
            board.load(engine)


@pytest.mark.parametrize(
    ("era", "industry", "level", "cubes", "valid"),
    [
        ("canal", "brewery", 4, 1, False),  # Brewery IV is rail-only
        ("rail", "brewery", 4, 2, True),
        ("canal", "pottery", 5, 0, False),  # Pottery V is rail-only
        ("rail", "pottery", 5, 0, True),
        ("canal", "brewery", 1, 2, False),  # built in the Canal Era: 1 barrel
        ("canal", "brewery", 2, 2, False),
        ("canal", "brewery", 2, 1, True),
        ("rail", "brewery", 2, 2, True),
    ],
)
def test_L23_B10_B7_a_canal_era_board_holds_no_rail_only_tile_and_breweries_with_one_barrel(
    engine, era, industry, level, cubes, valid
):
    """Every tile on the board in the Canal Era was built in it: no rail-only tile (L-23, B-10), and a brewery
    built then got the Canal Era's 1 barrel (B-7)."""
    space = {"brewery": "burton/2", "pottery": "stafford/2"}[industry]
    board = Board(2, era=era).hand(0, dudley=1).tile(space, 1, industry, level, cubes=cubes)
    if valid:
        assert obj(board.load(engine))["board"][space]["cubes"] == cubes
    else:
        with pytest.raises(engine.InvalidStateError, match="Rail Era|maximum 1|in the Canal Era"):
            board.load(engine)


@pytest.mark.parametrize(("industry", "valid"), [("pottery", True), ("cotton_mill", False), ("brewery", False)])
def test_K6_a_level_1_tile_in_the_rail_era_only_if_it_may_be_built_then(engine, industry, valid):
    space = {"pottery": "stafford/2", "cotton_mill": "worcester/1", "brewery": "burton/2"}[industry]
    board = Board(2, era="rail").hand(0, dudley=1).tile(space, 1, industry, 1, flipped=industry == "brewery")
    if valid:
        board.load(engine)
    else:
        with pytest.raises(engine.InvalidStateError):
            board.load(engine)


@pytest.mark.parametrize("edit", ["space not in use", "tile missing", "barrel beside a blank", "tile swapped"])
def test_B3_the_merchants_of_a_state_are_those_of_the_player_count(engine, edit):
    board = Board(2).hand(0, dudley=1).merchants(shrewsbury_1="blank", gloucester_1="blank")
    merchants = board.obj["merchants"]
    if edit == "space not in use":
        merchants["warrington/1"] = {"tile": "pottery", "beer": True}
    elif edit == "tile missing":
        del merchants["oxford/1"]
    elif edit == "barrel beside a blank":
        merchants["shrewsbury/1"]["beer"] = True
    else:
        merchants["oxford/1"]["tile"] = "pottery"  # not a 2-player tile
    with pytest.raises(engine.InvalidStateError):
        board.load(engine)


@pytest.mark.parametrize(("era", "removed", "valid"), [("canal", 2, True), ("canal", 1, False), ("rail", 1, False)])
def test_B1_B20_the_face_down_cards_are_removed_in_the_canal_era_only(engine, era, removed, valid):
    board = Board(2, era=era).hand(0, dudley=1)
    while sum(board.obj["removed"].values()) > removed:
        kind = next(iter(board.obj["removed"]))
        _dec(board.obj["removed"], kind)
        board.obj["deck"].append(kind)
    while sum(board.obj["removed"].values()) < removed:
        kind = board.obj["deck"].pop()
        board.obj["removed"][kind] = board.obj["removed"].get(kind, 0) + 1
    if valid:
        board.load(engine)
    else:
        with pytest.raises(engine.InvalidStateError):
            board.load(engine)


def test_B25_a_beer_decision_needs_two_sources_and_a_bonus_decision_an_industry(engine):
    board = Board(2).hand(0, birmingham=1).merchants(oxford_2="manufacturer").tile("birmingham/2", 0, "manufacturer", 5)
    board.link("birmingham-oxford", 0).tile("stafford/1", 0, "brewery", 1)
    state = play(board.load(engine), "sell birmingham/2 oxford/2")
    o = obj(state)
    assert o["decision"] == "beer"
    engine.State.from_json(json.dumps(o))  # as written
    one_source = copy.deepcopy(o)
    one_source["board"]["stafford/1"].update(cubes=0, flipped=True)
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(one_source))
    board = sale_position(2)
    board.obj["players"][0]["mat"] = {i: 0 for i in board.obj["players"][0]["mat"]}
    board.obj["players"][0]["mat"]["cotton_mill"] = 0
    board.mat(0, "pottery", 1).tile("worcester/1", 0, "cotton_mill", 1)
    state = play(board.load(engine), "sell worcester/1 gloucester/1")
    o = obj(state)
    assert o["decision"] != "bonus"  # nothing qualifies: no decision
    assert o["players"][0]["mat"]["pottery"] == 5


def beer_decision_of_a_sale() -> Board:
    """Manufacturer V (2 barrels) sold to Oxford's manufacturer merchant: its barrel or an own brewery's first."""
    board = Board(2).hand(0, birmingham=1).merchants(oxford_2="manufacturer").tile("birmingham/2", 0, "manufacturer", 5)
    return board.link("birmingham-oxford", 0).tile("stafford/1", 0, "brewery", 1)


CASES = {
    # (how the decision is reached, the edit of the action object): each makes a state that does not fit its decision
    "B-15 merchant not buying the tile": ("sale beer", {"merchant": "oxford/1"}),
    "B-26 merchant_beer with the barrel still there": ("sale beer", {"merchant_beer": True}),
    "B-15 target not a sold industry": ("sale beer", {"target": "stafford/1"}),
    "B-15 more barrels than the tile needs": ("sale beer", {"beer": 3}),
    "B-26 beer left at the bonus": ("bonus", {"beer": 1}),
    "B-13 beer decision of a first rail": ("rail beer", {"count": 1}),
    "B-13 merchant_beer in a rail": ("rail beer", {"merchant_beer": True}),
    "B-13 three barrels for a rail": ("rail beer", {"beer": 3}),
    "B-13 beer of a first rail's coal": ("rail coal", {"count": 1, "beer": 1}),
    "B-13 no beer at a second rail's coal": ("rail coal", {"beer": 0}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_B15_B13_a_sale_or_rail_under_way_must_fit_its_decision(engine, case):
    """docs/birmingham.md "The state" and "Validation": the action under way fits the decision (the native engine
    checks these since 7621fce and 7e0cc0d, Birmingham divergences 5, 6 and 7)."""
    how, edit = CASES[case]
    if how == "sale beer":
        state = play(beer_decision_of_a_sale().load(reference), "sell birmingham/2 oxford/2")
    elif how == "bonus":
        players, mill, links, _ = SALE_TO["gloucester/1"]
        board = Board(players).hand(0, dudley=1).merchants(gloucester_1="cotton_mill").tile(mill, 0, "cotton_mill", 1)
        state = play(board.link(links[0], 0).load(reference), f"sell {mill} gloucester/1")
    elif how == "rail beer":
        board = rail_position().tile("stafford/1", 0, "brewery", 2, cubes=1).tile("burton/2", 0, "brewery", 2, cubes=2)
        state = play(board.load(reference), "link birmingham-oxford", "link oxford-redditch")
    else:
        board = (
            rail_position()
            .tile("dudley/1", 1, "coal_mine", 2, cubes=3)
            .tile("wolverhampton/2", 1, "coal_mine", 2, cubes=3)
            .tile("stafford/1", 0, "brewery", 2, cubes=1)
        )
        state = play(board.load(reference), "link birmingham-dudley", "link dudley-wolverhampton")
    o = obj(state)
    assert o["decision"] == {"sale beer": "beer", "bonus": "bonus", "rail beer": "beer", "rail coal": "coal"}[how]
    engine.State.from_json(json.dumps(o))  # as written: valid
    o["action"].update(edit)
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(o))
