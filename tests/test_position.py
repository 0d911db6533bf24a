"""brass.Position (python/brass/position.py) on both engines: every configuration, the bookkeeping of each edit
(cards conserved, mats, link tiles, built_industry), the hands filled at load, the errors of bad arguments, and
the engine's validation for positions the rules do not allow."""

from __future__ import annotations

import json
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
    refused(p("lancashire", players=4, engine=engine).markets(coal=9), "coal_market")
    refused(p("lancashire", players=4, engine=engine).money(0, -5), "money")


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
