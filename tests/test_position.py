"""brass.Position (python/brass/position.py) on both engines: every configuration, the bookkeeping of each edit
(cards conserved, mats, link tiles, built_industry), the hands filled at load, the errors of bad arguments, and
the engine's validation for positions the rules do not allow."""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import types
from collections import Counter

import pytest

import brass

CONFIGS = [
    ("lancashire", 2, {}),
    ("lancashire", 3, {}),
    ("lancashire", 4, {}),
    ("lancashire", 3, {"classic_deck": True}),
    ("lancashire", 4, {"classic_deck": True}),
    ("lancashire", 2, {"virtual_link": True}),
    ("lancashire", 3, {"intro": True}),
    ("lancashire", 4, {"intro": True, "virtual_link": True}),
    ("brass", 3, {}),
    ("brass", 4, {}),
]


def ids(config) -> str:
    name, players, options = config
    return "-".join([name, str(players), *sorted(options)])


def obj(pos: brass.Position) -> dict:
    return json.loads(pos.to_json())


def all_cards(o: dict) -> Counter:
    """Every card of a state object: hands, discards, draw pile, deck tile, removed."""
    cards = Counter(o["deck"])
    for part in [p["hand"] for p in o["players"]] + [p["discards"] for p in o["players"]]:
        cards.update(part)
    cards.update(o["deck_tile"])
    cards.update(o["removed"])
    return cards


def deck_of(engine, name, players, options) -> Counter:
    return all_cards(json.loads(engine.Game(name, players=players, **options).new_state(seed=5).to_json()))


def deck_tile_size(name, players, options, era) -> int:
    """L-3, L-56, C-3: cards under the deck tile."""
    if era == "rail" or name == "brass":
        return 0
    return {3: 9, 4: 6}[players] if options.get("classic_deck") else players


def test_position_is_exported():
    assert "Position" in brass.__all__ and brass.Position.__module__ == "brass.position"


def test_the_example_of_the_docstring(engine):
    pos = brass.Position("lancashire", players=3, era="rail", round=2, engine=engine)
    pos.tile("manchester/1", owner=0, industry="cotton_mill", level=2, flipped=True)
    pos.link("bolton-manchester", owner=1).hand(0, "bolton", "cotton_mill").money(1, 45)
    pos.player(1, vp=12, income_space=20).markets(coal=5, iron=3).to_move(0)
    state = pos.state()
    assert isinstance(state, engine.State)
    assert state.board == {
        "manchester/1": {"owner": 0, "industry": "cotton_mill", "level": 2, "flipped": True, "cubes": 0}
    }
    assert state.links == {"bolton-manchester": 1}
    assert (state.era, state.round, state.current_player, state.actions_left) == ("rail", 2, 0, 2)
    assert sorted(state.player(0).hand) == ["bolton", "cotton_mill"]
    assert state.player(0).mat["cotton_mill"] == 8  # the three level-1 tiles and this one are off the mat
    assert (state.player(1).money, state.player(1).vp, state.player(1).income_space) == (45, 12, 20)
    assert state.player(1).links_left == 13
    assert (state.coal_market, state.iron_market) == (5, 3)
    assert state.to_json() == pos.to_json()
    state.apply(state.legal_actions()[0])  # a position to play from


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_every_configuration_at_every_era_and_round(engine, config):
    name, players, options = config
    game = engine.Game(name, players=players, **options)
    deck = deck_of(engine, name, players, options)
    eras = ["canal"] if options.get("intro") else ["canal", "rail"]
    for era in eras:
        for rnd in sorted({1, 2, game.rounds_per_era}):
            pos = brass.Position(name, players=players, era=era, round=rnd, engine=engine, **options)
            state = pos.state()
            assert state.to_json() == pos.to_json()  # the loader kept the position as written
            assert (state.era, state.round, state.current_player) == (era, rnd, 0)
            assert state.actions_left == (1 if (era, rnd) == ("canal", 1) else 2)
            assert state.game == game
            assert all_cards(obj(pos)) == deck
            assert state.deck_tile_size == deck_tile_size(name, players, options, era)
            assert state.legal_actions()


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_edits_keep_the_cards_the_configurations_deck(engine, config):
    name, players, options = config
    pos = brass.Position(name, players=players, engine=engine, **options)
    pos.hand(0, "manchester", "port").hand(1, "port").deck("manchester", "coal_mine")
    pos.tile("manchester/1", 0, "cotton_mill", 1).link("bolton-manchester", 1).to_move(1, actions_left=1)
    o = obj(pos)
    assert all_cards(o) == deck_of(engine, name, players, options)
    assert o["players"][0]["hand"] == {"manchester": 1, "port": 1}
    assert o["players"][1]["hand"] == {"port": 1}
    assert o["deck"] == ["manchester", "coal_mine"]
    state = pos.state()
    assert state.current_player == 1 and state.deck_size == 2
    if name == "brass":
        assert [p["built_industry"] for p in o["players"]] == [True] + [False] * (players - 1)
    else:
        assert all("built_industry" not in p for p in o["players"])


SET_ASIDE = [  # (deck tile, removed) in the Canal Era, then in the Rail Era (L-3, L-56, C-3)
    (("lancashire", 4, {}), (4, 0), (0, 0)),
    (("lancashire", 3, {"classic_deck": True}), (9, 0), (0, 6)),
    (("lancashire", 4, {"classic_deck": True}), (6, 0), (0, 2)),
    (("brass", 3, {}), (0, 9), (0, 6)),
    (("brass", 4, {}), (0, 6), (0, 2)),
]


@pytest.mark.parametrize("config, canal, rail", SET_ASIDE, ids=[ids(c) for c, _, _ in SET_ASIDE])
def test_deck_tile_and_removed_cards_follow_the_configuration(engine, config, canal, rail):
    name, players, options = config
    for era, (under, removed) in (("canal", canal), ("rail", rail)):
        o = obj(brass.Position(name, players=players, era=era, engine=engine, **options))
        assert (sum(o["deck_tile"].values()), sum(o["removed"].values())) == (under, removed)


def test_explicit_deck_tile_removed_and_discards(engine):
    pos = brass.Position("brass", players=4, engine=engine)
    pos.cards({0: ["bolton"]}, deck=["wigan"], removed=["colne"] * 2 + ["port"] * 4, discards={2: ["liverpool"]})
    o = obj(pos)
    assert o["removed"] == {"colne": 2, "port": 4}
    assert o["players"][2]["discards"]["liverpool"] >= 1
    assert o["players"][0]["hand"] == {"bolton": 1} and o["deck"] == ["wigan"]
    pos.hand(1, "manchester")  # keeps the other card settings
    assert obj(pos)["removed"] == {"colne": 2, "port": 4} and obj(pos)["deck"] == ["wigan"]
    assert pos.state().current_player == 0
    lanc = brass.Position("lancashire", players=2, engine=engine).cards(deck_tile=["bolton", "bolton"])
    assert obj(lanc)["deck_tile"] == {"bolton": 2}
    lanc.state()


def test_hands_not_set_are_filled_with_what_the_round_needs(engine):
    pos = brass.Position("lancashire", players=4, engine=engine).turn_order(2, 0, 3, 1).to_move(3)
    pos.hand(0, "bolton")  # player 0 has moved: a set hand is kept as it is
    o = obj(pos)
    hands = [sum(p["hand"].values()) for p in o["players"]]
    # player 2 has moved (2 cards for the next round), 3 is to move (2 actions), 1 is still to move (2)
    assert hands == [1, 2, 2, 2]
    assert o["turn"] == 2 and o["actions_left"] == 2
    state = pos.state()
    assert state.current_player == 3 and state.turn_order == [2, 0, 3, 1]
    # the era's last round: the players who have moved need nothing more
    last = brass.Position("lancashire", players=4, round=8, engine=engine).to_move(3)
    assert [sum(p["hand"].values()) for p in obj(last)["players"]] == [0, 0, 0, 2]
    # classic Brass refills at the end of the round (C-4): the same
    classic = brass.Position("brass", players=3, engine=engine).to_move(2)
    assert [sum(p["hand"].values()) for p in obj(classic)["players"]] == [0, 0, 2]


def test_actions_left_follow_the_hand_unless_given(engine):
    pos = brass.Position("lancashire", players=3, engine=engine).hand(0, "bolton")
    assert pos.state().actions_left == 1
    assert pos.to_move(0, actions_left=1).hand(0, "bolton", "wigan").state().actions_left == 1
    assert brass.Position("lancashire", players=3, round=1, engine=engine).state().actions_left == 1
    with pytest.raises(engine.InvalidStateError, match="actions_left"):
        brass.Position("lancashire", players=3, engine=engine).hand(0).state()  # nothing to play


def test_tiles_leave_the_mat_from_the_lowest(engine):
    pos = brass.Position("lancashire", players=4, engine=engine)
    pos.tile("bolton/1", 0, "cotton_mill", 1)
    assert obj(pos)["players"][0]["mat"]["cotton_mill"] == 11
    pos.tile("bury/1", 0, "cotton_mill", 1)
    assert obj(pos)["players"][0]["mat"]["cotton_mill"] == 10
    pos.tile("bury/1", 0, "cotton_mill", 1)  # the same tile again: nothing more leaves the mat
    assert obj(pos)["players"][0]["mat"]["cotton_mill"] == 10
    pos.tile("blackburn/1", 0, "cotton_mill", 3)
    assert obj(pos)["players"][0]["mat"]["cotton_mill"] == 5
    pos.tile("oldham/1", 0, "cotton_mill", 1)  # a lower tile does not give tiles back
    assert obj(pos)["players"][0]["mat"]["cotton_mill"] == 5
    with pytest.raises(brass.ConfigError, match="only 3 cotton_mill tile"):
        pos.tile("stockport/1", 0, "cotton_mill", 1)
    pos.lowest(1, "coal_mine", 3).mat(2, iron_works=0)
    assert obj(pos)["players"][1]["mat"]["coal_mine"] == 4 and obj(pos)["players"][2]["mat"]["iron_works"] == 0
    state = pos.state()
    assert len(state.board) == 4 and state.player(0).mat["cotton_mill"] == 5


def test_tile_cubes_and_flipping(engine):
    pos = brass.Position("lancashire", players=4, engine=engine)
    pos.tile("wigan/1", 0, "coal_mine", 2).tile("bolton/3", 1, "iron_works", 1, cubes=1)
    pos.tile("bolton/1", 2, "coal_mine", 1, flipped=True).tile("liverpool/4", 3, "shipyard", 1)
    pos.tile("preston/3", 0, "port", 1, flipped=True)
    board = pos.state().board
    assert (board["wigan/1"]["cubes"], board["wigan/1"]["flipped"]) == (3, False)
    assert (board["bolton/3"]["cubes"], board["bolton/3"]["flipped"]) == (1, False)
    assert (board["bolton/1"]["cubes"], board["bolton/1"]["flipped"]) == (0, True)
    assert board["liverpool/4"]["flipped"] and board["preston/3"]["flipped"]


def test_links_use_link_tiles(engine):
    pos = brass.Position("lancashire", players=3, engine=engine)
    pos.link("manchester-bolton", 0)  # either order of the ends
    assert obj(pos)["links"] == {"bolton-manchester": 0} and obj(pos)["players"][0]["links_left"] == 13
    pos.link("bolton-manchester", 2)  # the link changes hands: player 0 has the tile back
    assert [p["links_left"] for p in obj(pos)["players"]] == [14, 14, 13]
    assert pos.state().links == {"bolton-manchester": 2}
    pos.player(1, links_left=0)
    with pytest.raises(brass.ConfigError, match="no link tile left"):
        pos.link("bolton-bury", 1)


def test_classic_owners_of_tiles_have_built(engine):
    pos = brass.Position("brass", players=3, engine=engine).tile("bolton/1", 1, "cotton_mill", 1)
    assert [p["built_industry"] for p in obj(pos)["players"]] == [False, True, False]
    pos.player(2, built_industry=True)
    assert [p["built_industry"] for p in obj(pos)["players"]] == [False, True, True]
    pos.state()
    pos.player(1, built_industry=False)  # beside a tile of theirs: the engine refuses it
    with pytest.raises(engine.InvalidStateError, match="built_industry"):
        pos.state()
    with pytest.raises(brass.ConfigError, match="classic Brass"):
        brass.Position("lancashire", players=3, engine=engine).player(0, built_industry=True)


def test_markets_dcm_and_raw_fields(engine):
    pos = brass.Position("lancashire", players=4, engine=engine).markets(coal=0, iron=7)
    pos.dcm(marker=3, pile=[4, 3, 3, 0])
    o = obj(pos)
    assert (o["coal_market"], o["iron_market"]) == (0, 7)
    assert o["dcm"] == {"marker": 3, "pile": [4, 3, 3, 0], "discards": [0, 1, 1, 2, 2, 2, 2, 3]}
    state = pos.state()
    assert (state.dcm_marker, state.dcm_tiles_left) == (3, 4)
    with pytest.raises(brass.ConfigError, match="Distant Cotton Market"):
        pos.dcm(pile=[5])
    pos.set(rng="12345")
    assert obj(pos)["rng"] == "12345" and json.loads(pos.state().to_json())["rng"] == "12345"
    with pytest.raises(brass.ConfigError, match="unknown state field 'rgn'"):
        pos.set(rgn="1")


def test_positions_the_rules_do_not_allow_are_refused_by_the_engine(engine):
    def refused(pos, match):
        with pytest.raises(engine.InvalidStateError, match=match):
            pos.state()

    p = brass.Position
    refused(p("lancashire", players=4, engine=engine).tile("manchester/1", 0, "shipyard", 1), "shipyard")
    refused(p("lancashire", players=4, era="rail", engine=engine).tile("bolton/1", 0, "cotton_mill", 1), "L-51")
    refused(p("lancashire", players=4, engine=engine).link("lancaster-scotland", 0), "lancaster-scotland")
    refused(p("lancashire", players=4, engine=engine).set(coal_market=9), "coal_market")  # `markets` refuses it
    refused(p("lancashire", players=4, engine=engine).money(0, -5), "money")
    # L-23: a level-2 shipyard is built only in the Rail Era, so none is on the board in the Canal Era.
    refused(p("lancashire", players=4, engine=engine).tile("liverpool/4", 0, "shipyard", 2), "Rail Era")
    p("lancashire", players=4, era="rail", engine=engine).tile("liverpool/4", 0, "shipyard", 2).state()
    # A `flipped` given is written as given, and the engine refuses one the rules do not allow (L-20, L-28).
    refused(
        p("lancashire", players=4, engine=engine).tile("wigan/1", 0, "coal_mine", 2, cubes=2, flipped=True), "flipped"
    )
    refused(
        p("lancashire", players=4, engine=engine).tile("wigan/1", 0, "coal_mine", 2, cubes=0, flipped=False), "flipped"
    )
    refused(p("lancashire", players=4, engine=engine).tile("liverpool/4", 0, "shipyard", 1, flipped=False), "shipyard")


def test_bad_arguments_raise_brass_errors(engine):
    pos = brass.Position("lancashire", players=3, engine=engine)
    before = pos.to_json()
    with pytest.raises(brass.ConfigError, match=r"unknown space 'manchster/1'.*'manchester/1'"):
        pos.tile("manchster/1", 0, "cotton_mill", 1)
    with pytest.raises(brass.ConfigError, match="unknown industry 'cotton'"):
        pos.tile("manchester/1", 0, "cotton", 1)
    with pytest.raises(brass.ConfigError, match="no level 5"):
        pos.tile("manchester/1", 0, "cotton_mill", 5)
    with pytest.raises(brass.ConfigError, match="unknown line 'bolton-wigan-x'"):
        pos.link("bolton-wigan-x", 0)
    with pytest.raises(brass.ConfigError, match=r"unknown card kind 'boltn'.*'bolton'"):
        pos.hand(0, "boltn")
    with pytest.raises(brass.ConfigError, match="no bolton card left"):
        pos.hand(0, "bolton", "bolton", "bolton")
    with pytest.raises(brass.ConfigError, match="no colne card left"):  # not in the 2-player deck
        brass.Position("lancashire", players=2, engine=engine).hand(0, "colne")
    with pytest.raises(brass.PlayerIndexError, match="players go from 0 to 2"):
        pos.money(3, 10)
    with pytest.raises(brass.ArgumentTypeError, match="money must be an int"):
        pos.money(0, 4.5)
    with pytest.raises(brass.ArgumentTypeError):
        pos.tile(1, 0, "cotton_mill", 1)
    with pytest.raises(brass.ConfigError, match="turn order"):
        pos.turn_order(0, 1, 1)
    with pytest.raises(brass.ConfigError, match="a mat holds"):
        pos.mat(0, port=9)
    with pytest.raises(brass.ConfigError, match="off its track: 0 .top. to 8 .X."):
        pos.dcm(marker=9)
    with pytest.raises(brass.ConfigError, match="off its track"):
        pos.dcm(marker=-1)
    with pytest.raises(brass.ConfigError, match="income_space 100 is off the income track"):
        pos.player(0, income_space=100)
    with pytest.raises(brass.ConfigError, match="links_left 15"):
        pos.player(1, links_left=15)
    assert pos.to_json() == before  # every refused edit left the position as it was
    with pytest.raises(brass.ConfigError, match="unknown era"):
        brass.Position("lancashire", players=3, era="steam", engine=engine)
    with pytest.raises(brass.ConfigError, match="round 10"):
        brass.Position("lancashire", players=3, round=10, engine=engine)
    with pytest.raises(brass.ConfigError, match="no Rail Era"):
        brass.Position("lancashire", players=3, era="rail", intro=True, engine=engine)
    with pytest.raises(brass.ConfigError):  # the engine's own check of the configuration
        brass.Position("lancashire", players=5, engine=engine)
    with pytest.raises(brass.ConfigError):
        brass.Position("brass", players=3, classic_deck=True, engine=engine)
    with pytest.raises(brass.ArgumentTypeError, match="players"):
        brass.Position("lancashire", engine=engine)
    with pytest.raises(brass.ArgumentTypeError, match="game must be"):
        brass.Position(4, engine=engine)  # type: ignore[arg-type]


def test_filling_hands_can_run_out_of_cards(engine):
    pos = brass.Position("lancashire", players=2, engine=engine)
    deck = [k for k, n in deck_of(engine, "lancashire", 2, {}).items() for _ in range(n)]
    pos.cards({0: deck[:2]}, deck=deck[2:-2])  # the last 2 are under the deck tile
    with pytest.raises(brass.ConfigError, match="no card left to give player 1"):
        pos.to_json()


def test_a_game_object_picks_its_engine_and_configuration(engine):
    game = engine.Game("lancashire", players=3, classic_deck=True)
    pos = brass.Position(game, era="rail")
    assert pos.engine is engine and pos.game == game
    assert isinstance(pos.state(), engine.State)
    with pytest.raises(brass.ConfigError, match="not both"):
        brass.Position(game, players=4)


def test_both_engines_load_the_same_position(engine):
    import brass.reference

    pos = brass.Position("brass", players=4, era="rail", round=3, engine=engine)
    pos.tile("manchester/1", 2, "cotton_mill", 3).link("bolton-manchester", 2).hand(3, "manchester", "port")
    pos.to_move(3).player(2, vp=30, income_space=25)
    native, ref = pos.state(engine=brass), pos.state(engine=brass.reference)
    assert native.to_json() == ref.to_json() == pos.to_json()
    assert native.legal_actions() == ref.legal_actions()


def test_copies_are_independent(engine):
    pos = brass.Position("lancashire", players=2, engine=engine).hand(0, "bolton")
    other = pos.copy().hand(0, "wigan").tile("wigan/1", 1, "coal_mine", 2)
    assert obj(pos)["players"][0]["hand"] == {"bolton": 1} and obj(pos)["board"] == {}
    assert obj(other)["players"][0]["hand"] == {"wigan": 1} and "wigan/1" in obj(other)["board"]
    assert repr(pos) == "Position('lancashire', players=2, era='canal', round=2)"


# --- Brass: Birmingham (docs/birmingham.md) ---------------------------------------------------------------------
# Run on every engine that plays Birmingham: an engine that refuses it by name ("does not play this game yet") is
# left out of the parameters, anything else it raises fails the collection.

ENGINE_NAMES = [
    name.strip() for name in os.environ.get("BRASS_TEST_ENGINES", "brass,brass.reference").split(",") if name.strip()
]
WILD = ("wild_location", "wild_industry")


def plays(engine_name: str, game: str) -> bool:
    """Whether the engine plays the game (as tests/conformance/support.py::plays)."""
    engine = importlib.import_module(engine_name)
    try:
        engine.Game(game, players=brass.games()[game]["players"][0])
    except brass.ConfigError as e:
        if "does not play" in str(e):
            return False
        raise
    return True


BIRMINGHAM_ENGINES = [name for name in ENGINE_NAMES if plays(name, "birmingham")]


@pytest.fixture(params=BIRMINGHAM_ENGINES)
def bham(request):
    """An engine module that plays Birmingham."""
    return importlib.import_module(request.param)


def bham_cards(o: dict) -> Counter:
    """Every card of a Birmingham state object but the wild cards: hands, discards, draw pile, removed."""
    cards = Counter(o["deck"])
    for p in o["players"]:
        cards.update(p["hand"])
        cards.update(p["discards"])
    cards.update(o["removed"])
    for kind in WILD:
        del cards[kind]
    return cards


def merchant_tiles(o: dict) -> list[str]:
    return sorted(m["tile"] for m in o["merchants"].values())


def play_on(state, moves: int, seed: int) -> None:
    """Apply a few random legal actions (the position is one to play from)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        assert legal
        state.apply(rng.choice(legal))


def catalog_configurations() -> list[tuple[str, str, int, dict]]:
    """(engine, game, players, options) for every engine and game it plays of `brass.games()`: each player
    count with no option, and with each bool option the catalog allows at that count."""
    out = []
    for name, entry in brass.games().items():
        engines = [e for e in ENGINE_NAMES if plays(e, name)]
        for players in entry["players"]:
            variants: list[dict] = [{}]
            variants += [
                {key: True}
                for key, option in entry["options"].items()
                if option["type"] == "bool" and players in option["players"]
            ]
            out += [(e, name, players, options) for e in engines for options in variants]
    return out


@pytest.mark.parametrize(
    "engine_name, name, players, options",
    catalog_configurations(),
    ids=lambda v: v if isinstance(v, str) else str(v) if isinstance(v, int) else "-".join(sorted(v)) or "plain",
)
def test_every_game_of_the_catalog(engine_name, name, players, options):
    engine = importlib.import_module(engine_name)
    game = engine.Game(name, players=players, **options)
    for era in ["canal"] if options.get("intro") else ["canal", "rail"]:
        pos = brass.Position(game, era=era, round=2)
        assert pos.engine is engine
        state = pos.state()
        assert state.to_json() == pos.to_json() and state.game == game and state.era == era
        play_on(state, 6, seed=players)


def test_the_engines_that_play_birmingham_are_tested(monkeypatch):
    assert "brass" in BIRMINGHAM_ENGINES or "brass" not in ENGINE_NAMES  # the native engine plays it
    # an engine refusing the game by name is left out; any other error of the configuration is not hidden
    fake = types.ModuleType("fake_engine")

    def refuses(message):
        def game(name, players):
            raise brass.ConfigError(message)

        return game

    monkeypatch.setitem(sys.modules, "fake_engine", fake)
    fake.Game = refuses("the reference engine does not play this game yet: 'birmingham'")  # type: ignore[attr-defined]
    assert not plays("fake_engine", "birmingham")
    fake.Game = refuses("players must be 2 to 4")  # type: ignore[attr-defined]
    with pytest.raises(brass.ConfigError, match="players must be"):
        plays("fake_engine", "birmingham")
    fake.Game = lambda name, players: object()  # type: ignore[attr-defined]
    assert plays("fake_engine", "birmingham")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_birmingham_at_every_player_count_era_and_round(bham, players):
    game = bham.Game("birmingham", players=players)
    new = json.loads(game.new_state(seed=5).to_json())
    deck = bham_cards(new)
    assert sum(deck.values()) == {2: 40, 3: 54, 4: 64}[players]  # B-2
    for era in ("canal", "rail"):
        for rnd in sorted({1, 2, game.rounds_per_era}):
            pos = brass.Position("birmingham", players=players, era=era, round=rnd, seed=5, engine=bham)
            o = obj(pos)
            assert "dcm" not in o and "deck_tile" not in o
            assert bham_cards(o) == deck
            assert sum(o["removed"].values()) == (players if era == "canal" else 0)  # B-1, B-20
            assert o["merchants"] == new["merchants"]  # the seed's set-up, barrels beside every tile that buys
            assert merchant_tiles(o) == merchant_tiles(new)
            assert [p["money"] for p in o["players"]] == [17] * players
            state = pos.state()
            assert state.to_json() == pos.to_json()
            assert (state.era, state.round, state.current_player) == (era, rnd, 0)
            assert state.actions_left == (1 if (era, rnd) == ("canal", 1) else 2)
            assert (state.coal_market, state.iron_market, state.deck_tile_size) == (13, 8, 0)
            assert state.legal_actions()
            play_on(state, 12, seed=players * 100 + rnd)


def test_birmingham_introductory_game(bham):
    pos = brass.Position("birmingham", players=3, intro=True, round=4, engine=bham)
    state = pos.state()
    assert state.game == bham.Game("birmingham", players=3, intro=True) and state.round == 4
    play_on(state, 10, seed=3)
    with pytest.raises(brass.ConfigError, match=r"no Rail Era \(B-22\)"):
        brass.Position("birmingham", players=3, era="rail", intro=True, engine=bham)


def test_birmingham_docstring_example(bham):
    pos = brass.Position("birmingham", players=3, era="rail", engine=bham)
    pos.merchant("oxford/1", "any", beer=True).hand(0, "birmingham", "wild_industry")
    pos.tile("burton/2", owner=0, industry="brewery", level=2)
    state = pos.state()
    assert state.merchants["oxford/1"] == {"tile": "any", "beer": True}
    assert state.board["burton/2"] == {"owner": 0, "industry": "brewery", "level": 2, "flipped": False, "cubes": 2}
    assert sorted(state.player(0).hand) == ["birmingham", "wild_industry"]
    assert state.player(0).mat["brewery"] == 4  # the two level-1 breweries and this one are off the mat
    play_on(state, 8, seed=1)


def test_birmingham_sale_to_a_merchant_with_its_barrel(bham):
    """A cotton mill in Birmingham linked to Oxford: the Oxford merchant's barrel is its only beer (B-8, B-15),
    and the sale takes it with Oxford's bonus (+2 income spaces, B-26)."""
    pos = brass.Position("birmingham", players=3, engine=bham)
    pos.merchant("oxford/1", "any", beer=True).merchant("oxford/2", "blank")
    pos.tile("birmingham/1", 0, "cotton_mill", 1).link("birmingham-oxford", 0).hand(0, "coventry", "dudley")
    state = pos.state()
    sales = [n for n in map(state.game.action_name, state.legal_actions()) if n.startswith("sell")]
    assert sales == ["sell birmingham/1 oxford/1"]
    state.apply("sell birmingham/1 oxford/1")
    assert state.merchants["oxford/1"] == {"tile": "any", "beer": False}
    assert state.board["birmingham/1"]["flipped"]
    assert state.player(0).income_space == 10 + 5 + 2  # the cotton mill's income, then Oxford's bonus
    # without the barrel there is no beer: no sale
    dry = pos.copy().merchant("oxford/1", beer=False).state()
    assert not [n for n in map(dry.game.action_name, dry.legal_actions()) if n.startswith("sell")]


def test_birmingham_merchant_moves_tiles_by_exchange(bham):
    pos = brass.Position("birmingham", players=4, engine=bham)
    before = obj(pos)["merchants"]
    holder = next(s for s, m in before.items() if m["tile"] == "any")
    target = next(s for s, m in before.items() if m["tile"] == "blank")
    pos.merchant(target, "any")
    after = obj(pos)["merchants"]
    assert after[target] == before[holder] == {"tile": "any", "beer": True}  # the tile comes with its barrel
    assert after[holder] == before[target] == {"tile": "blank", "beer": False}  # and the blank takes its place
    assert merchant_tiles(obj(pos)) == sorted(
        brass.Position("birmingham", players=4).state().merchants[s]["tile"] for s in after
    )
    pos.merchant(target, "any", beer=False)  # the tile is there already: only the barrel changes
    assert obj(pos)["merchants"][target] == {"tile": "any", "beer": False}
    assert obj(pos)["merchants"][holder] == {"tile": "blank", "beer": False}
    pos.merchant(target, beer=True)
    assert pos.state().merchants[target] == {"tile": "any", "beer": True}


def test_birmingham_merchants_all_at_once(bham):
    pos = brass.Position("birmingham", players=2, engine=bham)
    assert sorted(obj(pos)["merchants"]) == sorted(
        ["shrewsbury/1", "gloucester/1", "gloucester/2", "oxford/1", "oxford/2"]
    )  # no Warrington nor Nottingham at 2 players (B-3)
    pos.merchants(
        {
            "shrewsbury/1": "any",
            "gloucester/1": "cotton_mill",
            "gloucester/2": {"tile": "manufacturer", "beer": False},
            "oxford/1": "blank",
            "oxford/2": {"tile": "blank"},
        }
    )
    assert pos.state().merchants == {
        "shrewsbury/1": {"tile": "any", "beer": True},
        "gloucester/1": {"tile": "cotton_mill", "beer": True},
        "gloucester/2": {"tile": "manufacturer", "beer": False},
        "oxford/1": {"tile": "blank", "beer": False},
        "oxford/2": {"tile": "blank", "beer": False},
    }
    other = brass.Position("birmingham", players=2, seed=9, engine=bham).merchants(pos.state().merchants)
    assert obj(other)["merchants"] == obj(pos)["merchants"]  # a state's merchants copied as they are
    before = pos.to_json()
    with pytest.raises(brass.ConfigError, match="missing oxford/2"):
        pos.merchants({s: "blank" for s in ["shrewsbury/1", "gloucester/1", "gloucester/2", "oxford/1"]})
    with pytest.raises(
        brass.ConfigError,
        match=r"are any, blank, blank, cotton_mill, manufacturer: too many any, any, any, any; missing blank, blank",
    ):
        pos.merchants(dict.fromkeys(obj(pos)["merchants"], "any"))
    with pytest.raises(brass.ConfigError, match="no barrel beside a blank merchant tile"):
        pos.merchants({**obj(pos)["merchants"], "oxford/1": {"tile": "blank", "beer": True}})
    with pytest.raises(brass.ConfigError, match="'warrington/1' is not in use at 2 players"):
        pos.merchants({**obj(pos)["merchants"], "warrington/1": "blank"})
    with pytest.raises(brass.ArgumentTypeError, match="mapping"):
        pos.merchants(["any"])  # type: ignore[arg-type]
    assert pos.to_json() == before


def test_birmingham_merchant_errors(bham):
    pos = brass.Position("birmingham", players=3, engine=bham)
    before = pos.to_json()
    with pytest.raises(brass.ConfigError, match=r"unknown merchant space 'oxfrd/1'.*'oxford/1'"):
        pos.merchant("oxfrd/1", "any")
    with pytest.raises(brass.ConfigError, match="'nottingham/1' is not in use at 3 players"):
        pos.merchant("nottingham/1", "any")
    with pytest.raises(brass.ConfigError, match=r"unknown merchant tile 'potery'.*'pottery'"):
        pos.merchant("oxford/1", "potery")
    with pytest.raises(brass.ConfigError, match="no barrel beside a blank merchant tile"):
        pos.merchant("oxford/1", "blank", beer=True)
    with pytest.raises(brass.ArgumentTypeError, match="beer must be a bool"):
        pos.merchant("oxford/1", beer=1)  # type: ignore[arg-type]
    with pytest.raises(brass.ArgumentTypeError, match="merchant space must be a str"):
        pos.merchant(1, "any")  # type: ignore[arg-type]
    assert pos.to_json() == before
    two = brass.Position("birmingham", players=2, engine=bham)
    with pytest.raises(brass.ConfigError, match="no 'pottery' merchant tile at 2 players"):
        two.merchant("oxford/1", "pottery")  # B-3: no pottery merchant at 2 players
    with pytest.raises(brass.ConfigError, match=r"lancashire \(3 players\) has no merchant tiles"):
        brass.Position("lancashire", players=3, engine=bham).merchant("oxford/1", "any")


def test_birmingham_wild_cards_in_hands_only(bham):
    pos = brass.Position("birmingham", players=3, engine=bham)
    deck = bham_cards(obj(pos))
    pos.hand(0, "birmingham", "wild_location", "wild_industry").hand(2, "wild_location", "dudley", "coventry")
    o = obj(pos)
    assert o["players"][0]["hand"] == {"birmingham": 1, "wild_location": 1, "wild_industry": 1}
    assert bham_cards(o) == deck  # the wild cards come from beside the deck
    state = pos.state()
    names = set(map(state.game.action_name, state.legal_actions()))
    assert "build cotton_mill belper/1" in names  # a wild card builds outside the network (B-10, B-12)
    assert "scout" not in names  # not while holding a wild card (B-17)
    plain = brass.Position("birmingham", players=3, engine=bham).hand(0, "birmingham", "dudley", "coventry").state()
    assert "scout" in set(map(plain.game.action_name, plain.legal_actions()))
    before = pos.to_json()
    with pytest.raises(brass.ConfigError, match="only one wild_location card"):
        pos.hand(1, "wild_location", "wild_location")
    with pytest.raises(brass.ConfigError, match="wild_industry card cannot be in the draw pile"):
        pos.deck("wild_industry")
    with pytest.raises(brass.ConfigError, match="wild_location card cannot be in player 1's discards"):
        pos.cards(discards={1: ["wild_location"]})
    with pytest.raises(brass.ConfigError, match="wild_location card cannot be in the removed cards"):
        pos.cards(removed=["wild_location"] * 3)
    assert pos.to_json() == before
    with pytest.raises(brass.ConfigError, match="unknown card kind 'wild_location'"):
        brass.Position("lancashire", players=3, engine=bham).hand(0, "wild_location")


def test_birmingham_removed_cards_and_no_deck_tile(bham):
    pos = brass.Position("birmingham", players=4, engine=bham)
    pos.cards({0: ["birmingham", "dudley"]}, deck=["coventry"], removed=["leek", "leek", "stone", "derby"])
    o = obj(pos)
    assert o["removed"] == {"leek": 2, "stone": 1, "derby": 1} and o["deck"] == ["coventry"]
    assert pos.state().deck_size == 1
    with pytest.raises(bham.InvalidStateError, match="removed"):  # B-1: one face-down card per player
        pos.copy().cards(removed=["leek"]).state()
    rail = brass.Position("birmingham", players=4, era="rail", engine=bham)
    assert obj(rail)["removed"] == {}
    with pytest.raises(bham.InvalidStateError, match="removed"):  # none in the Rail Era (B-20)
        rail.cards(removed=["leek"]).state()
    pos.cards(deck_tile=[])  # nothing under a deck tile there is not
    assert "deck_tile" not in obj(pos)
    with pytest.raises(brass.ConfigError, match=r"birmingham \(4 players\) has no deck tile"):
        pos.cards(deck_tile=["leek"])


def test_birmingham_tile_cubes_and_barrels(bham):
    canal = brass.Position("birmingham", players=3, engine=bham)
    canal.tile("burton/2", 0, "brewery", 1).tile("stafford/1", 1, "brewery", 2, flipped=True)
    canal.tile("cannock/2", 1, "coal_mine", 2).tile("dudley/2", 2, "iron_works", 1)
    canal.tile("coalbrookdale/3", 2, "coal_mine", 1, cubes=0).tile("redditch/2", 0, "iron_works", 1, cubes=1)
    canal.tile("farm_north/1", 2, "brewery", 2, cubes=0)
    board = canal.state().board
    assert {s: (t["cubes"], t["flipped"]) for s, t in board.items()} == {
        "burton/2": (1, False),  # a brewery built in the Canal Era: 1 barrel (B-7)
        "stafford/1": (0, True),
        "cannock/2": (3, False),  # the printed cubes
        "dudley/2": (4, False),
        "coalbrookdale/3": (0, True),  # flipped exactly when empty (B-6)
        "redditch/2": (1, False),
        "farm_north/1": (0, True),
    }
    rail = brass.Position("birmingham", players=3, era="rail", engine=bham)
    rail.tile("burton/2", 0, "brewery", 2).tile("stafford/1", 1, "brewery", 3, cubes=1)
    board = rail.state().board
    assert board["burton/2"]["cubes"] == 2 and not board["burton/2"]["flipped"]  # built in the Rail Era: 2
    assert board["stafford/1"]["cubes"] == 1  # built in the Canal Era, one barrel left
    before = rail.to_json()
    with pytest.raises(brass.ConfigError, match="holds from 0 to 2 cubes, not 3"):  # at most 2 barrels (B-7)
        rail.tile("uttoxeter/1", 2, "brewery", 2, cubes=3)
    with pytest.raises(brass.ConfigError, match="cotton_mill tile holds no cubes"):
        rail.tile("uttoxeter/2", 2, "cotton_mill", 2, cubes=1)
    assert rail.to_json() == before
    three = obj(rail)
    three["board"]["burton/2"]["cubes"] = 3
    with pytest.raises(bham.InvalidStateError, match="cubes"):  # and the engine refuses it in a state
        bham.State.from_json(json.dumps(three))
    with pytest.raises(bham.InvalidStateError, match="burton/1"):  # a level-1 cotton mill left the board (B-20)
        rail.copy().tile("burton/1", 2, "manufacturer", 1).state()


def test_birmingham_every_other_edit(bham):
    pos = brass.Position("birmingham", players=4, era="rail", round=3, engine=bham)
    pos.link("coventry-birmingham", 1).link("dudley-birmingham", 1)  # either order of the ends
    pos.tile("birmingham/1", 1, "cotton_mill", 2).tile("stoke/2", 3, "pottery", 2, flipped=True)
    pos.lowest(2, "manufacturer", 5).mat(0, iron_works=1).money(0, 40)
    pos.player(3, vp=21, income_space=30, money_spent=7)
    pos.markets(coal=14, iron=0).turn_order(3, 1, 0, 2).to_move(0, actions_left=1)
    pos.hand(0, "birmingham", "wild_industry").set(rng="4242")
    copied = pos.copy().money(0, 3)
    o = obj(pos)
    assert o["links"] == {"birmingham-coventry": 1, "birmingham-dudley": 1}
    assert [p["links_left"] for p in o["players"]] == [14, 12, 14, 14]
    assert o["players"][1]["mat"]["cotton_mill"] == 11 - 4 and o["players"][3]["mat"]["pottery"] == 5 - 2
    assert o["players"][2]["mat"]["manufacturer"] == 11 - 5 and o["players"][0]["mat"]["iron_works"] == 1
    assert (o["coal_market"], o["iron_market"], o["rng"]) == (14, 0, "4242")
    assert obj(copied)["players"][0]["money"] == 3 and o["players"][0]["money"] == 40
    state = pos.state()
    assert state.to_json() == pos.to_json()
    assert (state.current_player, state.actions_left, state.turn_order) == (0, 1, [3, 1, 0, 2])
    p3 = state.player(3)
    assert (p3.vp, p3.income_space, p3.money_spent, p3.links_left) == (21, 30, 7, 14)
    # players 3 and 1 have moved (2 cards for the next round), player 2 is still to move (2 cards)
    assert [sum(p["hand"].values()) for p in o["players"]] == [2, 2, 2, 2]
    assert repr(pos) == "Position('birmingham', players=4, era='rail', round=3)"
    play_on(state, 10, seed=7)
    with pytest.raises(brass.ConfigError, match="coal market of birmingham .* from 0 to 14 cubes, not 15"):  # B-4
        pos.markets(coal=15)
    with pytest.raises(brass.ConfigError, match="iron market of birmingham .* from 0 to 10 cubes, not 11"):
        pos.markets(iron=11)
    assert obj(pos) == o
    with pytest.raises(bham.InvalidStateError, match="coal_market"):  # the engine's own check
        pos.copy().set(coal_market=15).state()
    with pytest.raises(bham.InvalidStateError, match="iron_market"):
        pos.copy().set(iron_market=11).state()
    with pytest.raises(bham.InvalidStateError, match="birmingham-nuneaton"):  # a rail-only line in the Canal Era
        brass.Position("birmingham", players=2, engine=bham).link("birmingham-nuneaton", 0).state()


def test_birmingham_parts_it_does_not_have(bham):
    pos = brass.Position("birmingham", players=3, engine=bham)
    before = pos.to_json()
    with pytest.raises(brass.ConfigError, match=r"birmingham \(3 players\) has no Distant Cotton Market"):
        pos.dcm(marker=2)
    with pytest.raises(brass.ConfigError, match=r"the states of birmingham \(3 players\) have no field 'deck_tile'"):
        pos.set(deck_tile={})
    with pytest.raises(brass.ConfigError, match="built_industry exists only in classic Brass"):
        pos.player(0, built_industry=True)
    with pytest.raises(brass.ConfigError, match=r"unknown industry 'port' in birmingham"):
        pos.tile("birmingham/1", 0, "port", 1)
    assert pos.to_json() == before
    merchants = {**obj(pos)["merchants"], "oxford/1": {"tile": "blank", "beer": False}}
    pos.set(merchants=merchants)  # raw, no checks: the engine's validation decides
    with pytest.raises(bham.InvalidStateError, match="merchants"):
        pos.state()


def test_birmingham_both_engines_load_the_same_position():
    if len(BIRMINGHAM_ENGINES) < 2:
        assert BIRMINGHAM_ENGINES == ["brass"] or "brass.reference" not in ENGINE_NAMES
        return
    import brass.reference

    pos = brass.Position("birmingham", players=4, era="rail", round=2)
    pos.tile("birmingham/2", 2, "manufacturer", 3).link("birmingham-walsall", 2).hand(3, "walsall", "wild_location")
    pos.merchant("nottingham/2", "any").to_move(3).player(2, vp=30, income_space=25)
    native, ref = pos.state(engine=brass), pos.state(engine=brass.reference)
    assert native.to_json() == ref.to_json() == pos.to_json()
    assert native.legal_actions() == ref.legal_actions()
