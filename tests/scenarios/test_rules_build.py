"""Build: L-21 … L-33 (hand-built positions, public API only)."""

import pytest


def test_L21_location_card_builds_outside_the_network(position, h):
    state = position().hand(0, "colne").state()
    assert "build cotton_mill colne/1" in h.names(state)
    h.do(state, "build cotton_mill colne/1")
    assert h.obj(state)["board"]["colne/1"]["owner"] == 0
    assert "colne" not in state.player(0).hand


def test_L13_L21_industry_card_builds_only_in_own_network(position, h):
    pos = (
        position()
        .hand(0, "cotton_mill")
        .tile("preston/3", 0, "port", 1)
        .link("bolton-bury", 0)
        .link("bolton-manchester", 1)
    )
    legal = h.names(pos.state())
    assert "build cotton_mill bury/1" in legal and "build cotton_mill bolton/1" in legal
    assert "build cotton_mill manchester/1" not in legal  # connected only by another player's link
    assert "build cotton_mill colne/1" not in legal


def test_L22_first_build_with_an_industry_card_anywhere(position, h):
    state = position().hand(0, "cotton_mill").state()
    legal = h.names(state)
    for space in ("colne/1", "stockport/1", "lancaster/2", "preston/1", "manchester/1"):
        assert f"build cotton_mill {space}" in legal
    assert "build coal_mine wigan/1" not in legal
    h.do(state, "build cotton_mill colne/1")
    assert h.obj(state)["board"]["colne/1"]["owner"] == 0


def test_L22_no_first_build_once_a_link_is_on_the_board(position, h):
    legal = h.names(position().hand(0, "cotton_mill").link("bolton-bury", 0).state())
    assert "build cotton_mill colne/1" not in legal
    assert "build cotton_mill bolton/1" in legal and "build cotton_mill bury/1" in legal


def test_L22_first_build_does_not_overbuild(position, h):
    pos = (
        position()
        .hand(0, "coal_mine")
        .lowest(0, "coal_mine", 2)
        .tile("wigan/1", 1, "coal_mine", 1, cubes=0)
        .tile("wigan/2", 2, "coal_mine", 1, cubes=0)
        .set(coal_market=0)
    )
    legal = h.names(pos.state())
    assert "build coal_mine bolton/1" in legal
    assert "build coal_mine wigan/1" not in legal and "build coal_mine wigan/2" not in legal


def test_L21_double_build_anywhere_with_any_two_cards(position, h):
    pos = position().hand(0, "bolton", "wigan")
    state = pos.state()
    assert "build cotton_mill colne/1" not in h.names(state)
    h.do(state, "build cotton_mill colne/1 double")
    assert state.current_player == 1 and state.decision == "action"  # both actions used
    assert sorted(c for c in state.player(0).discards if c in ("bolton", "wigan")) == ["bolton", "wigan"]
    assert state.player(0).hand == []


def test_L21_double_build_cards_are_an_unordered_pair(position, h):
    state = h.do(position().hand(0, "bolton", "colne", "wigan").state(), "build cotton_mill stockport/1 double")
    assert state.decision == "card" and h.names(state) == ["card bolton", "card colne"]
    h.do(state, "card colne")
    assert state.player(0).hand == ["bolton"]  # the second card (wigan) was the only later kind
    assert state.current_player == 1


def test_L21_double_build_needs_two_actions(position, h):
    assert "build cotton_mill colne/1 double" not in h.names(position(round=1).hand(0, "bolton", "wigan").state())
    pos = position().hand(0, "bolton", "wigan").set(actions_left=1)
    assert "build cotton_mill colne/1 double" not in h.names(pos.state())


def test_L21_card_asked_when_two_kinds_could_pay(position, h):
    state = h.do(position().hand(0, "colne", "cotton_mill", "wigan").state(), "build cotton_mill colne/1")
    assert state.decision == "card" and h.names(state) == ["card colne", "card cotton_mill"]
    h.do(state, "card cotton_mill")
    assert sorted(state.player(0).hand) == ["colne", "wigan"]


def test_L23_level_1_tiles_only_in_the_canal_era(position, h):
    pos = position(era="rail", round=2).hand(0, "colne")
    assert "build cotton_mill colne/1" not in h.names(pos.state())
    pos.lowest(0, "cotton_mill", 2).link("colne-yorkshire", 1)
    assert "build cotton_mill colne/1" in h.names(pos.state())


def test_L23_shipyard_levels(position, h):
    pos = position().hand(0, "liverpool").tile("liverpool/1", 1, "port", 1)
    assert "build shipyard liverpool/4" not in h.names(pos.state())  # level 0 is never built
    pos.lowest(0, "shipyard", 2)
    assert "build shipyard liverpool/4" not in h.names(pos.state())  # level 2 only in the Rail Era
    pos.lowest(0, "shipyard", 1)
    assert "build shipyard liverpool/4" in h.names(pos.state())


def test_L24_slot_priority_in_lancaster(position, h):
    pos = position().hand(0, "lancaster")
    legal = h.names(pos.state())
    assert "build port lancaster/1" in legal and "build port lancaster/2" not in legal
    assert "build cotton_mill lancaster/2" in legal
    pos.tile("lancaster/1", 1, "port", 1)
    assert "build port lancaster/2" in h.names(pos.state())


def test_L24_slot_priority_in_preston(position, h):
    pos = position().hand(0, "preston")
    legal = h.names(pos.state())
    assert "build port preston/3" in legal and "build port preston/1" not in legal
    assert "build cotton_mill preston/1" in legal
    pos.tile("preston/3", 1, "port", 1)
    assert "build port preston/1" in h.names(pos.state())


def test_L24_identical_spaces_offer_the_first_free_one(position, h):
    pos = position().hand(0, "manchester").tile("manchester/1", 1, "cotton_mill", 1)
    legal = h.names(pos.state())
    assert "build cotton_mill manchester/2" in legal and "build cotton_mill manchester/3" not in legal


def test_L25_canal_second_tile_in_a_location_refused(position, h):
    pos = position().hand(0, "manchester").tile("manchester/1", 0, "cotton_mill", 1)
    legal = h.names(pos.state())
    assert not any(n.startswith("build") and "manchester/2" in n for n in legal)
    assert "build cotton_mill manchester/2 double" not in legal


def test_L25_rail_era_allows_several_own_tiles(position, h):
    pos = (
        position(era="rail")
        .hand(0, "manchester")
        .lowest(0, "cotton_mill", 2)
        .tile("manchester/1", 0, "cotton_mill", 2)
        .tile("manchester/3", 1, "coal_mine", 2)
    )
    assert "build cotton_mill manchester/2" in h.names(pos.state())


def test_L29_own_overbuild_allowed(position, h):
    pos = (
        position()
        .hand(0, "manchester")
        .tile("manchester/1", 0, "cotton_mill", 1, flipped=True)
        .lowest(0, "cotton_mill", 2)
        .tile("bolton/1", 1, "coal_mine", 2)
        .link("bolton-manchester", 1)
    )
    pos.player(0, income_space=15)
    state = pos.state()
    assert "build cotton_mill manchester/1" in h.names(state)
    h.do(state, "build cotton_mill manchester/1")
    tile = h.obj(state)["board"]["manchester/1"]
    assert (tile["level"], tile["flipped"], tile["owner"]) == (2, False, 0)
    assert state.player(0).income_space == 15  # no income lost
    assert state.player(0).money == 16


def test_L29_own_overbuild_needs_a_higher_level(position, h):
    pos = position().hand(0, "manchester").tile("manchester/1", 0, "cotton_mill", 2)  # mat: lowest is level 2
    assert pos.obj["players"][0]["mat"]["cotton_mill"] == 8
    assert "build cotton_mill manchester/1" not in h.names(pos.state())


def test_L29_overbuilt_cubes_return_to_the_supply(position, h):
    pos = position().hand(0, "wigan").tile("wigan/1", 0, "coal_mine", 1, cubes=2).lowest(0, "coal_mine", 2)
    state = h.do(pos.state(), "build coal_mine wigan/1")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 3 and h.obj(state)["coal_market"] == 8


def opponent_mine(position):
    return (
        position()
        .hand(0, "wigan")
        .lowest(0, "coal_mine", 2)
        .tile("wigan/1", 1, "coal_mine", 1, cubes=0)
        .tile("wigan/2", 2, "coal_mine", 2, cubes=0)
        .set(coal_market=0)
    )


def test_L30_opponent_overbuild_when_no_coal_anywhere(position, h):
    state = opponent_mine(position).state()
    assert "build coal_mine wigan/1" in h.names(state)
    assert "build coal_mine wigan/2" not in h.names(state)  # not of a lower level
    h.do(state, "build coal_mine wigan/1")
    assert h.obj(state)["board"]["wigan/1"]["owner"] == 0
    assert state.player(1).income_space == 10  # the old owner keeps their income


def test_L30_opponent_overbuild_with_cubes_left_refused(position, h):
    assert "build coal_mine wigan/1" not in h.names(opponent_mine(position).set(coal_market=1).state())
    pos = opponent_mine(position).tile("bolton/1", 3, "coal_mine", 2, cubes=1)
    assert "build coal_mine wigan/1" not in h.names(pos.state())


def test_L30_opponent_iron_works_follows_iron(position, h):
    pos = (
        position()
        .hand(0, "bolton")
        .lowest(0, "iron_works", 2)
        .tile("bolton/3", 1, "iron_works", 1, cubes=0)
        .tile("wigan/1", 2, "coal_mine", 2)
        .link("bolton-manchester", 1)
        .link("wigan-warrington_runcorn", 2)
        .link("manchester-warrington_runcorn", 2)
        .set(iron_market=1)
    )
    assert "build iron_works bolton/3" not in h.names(pos.state())
    pos.set(iron_market=0)
    assert "build iron_works bolton/3" in h.names(pos.state())


def test_L30_only_mines_and_works_of_opponents(position, h):
    pos = (
        position()
        .hand(0, "colne")
        .tile("colne/1", 1, "cotton_mill", 1)
        .tile("colne/2", 2, "cotton_mill", 1)
        .lowest(0, "cotton_mill", 2)
        .link("colne-yorkshire", 1)
        .set(coal_market=0)
    )
    assert not any(n.startswith("build cotton_mill colne") for n in h.names(pos.state()))


def test_L31_no_opponent_overbuild_where_you_have_a_tile_in_the_canal_era(position, h):
    pos = (
        position()
        .hand(0, "bolton")
        .lowest(0, "coal_mine", 2)
        .tile("bolton/1", 1, "coal_mine", 1, cubes=0)
        .set(coal_market=0)
    )
    assert "build coal_mine bolton/1" in h.names(pos.state())
    pos.tile("bolton/2", 0, "cotton_mill", 1)
    assert "build coal_mine bolton/1" not in h.names(pos.state())


def test_L33_build_needs_the_whole_cost(position, h):
    pos = position().hand(0, "manchester").lowest(0, "cotton_mill", 2).tile("manchester/2", 1, "coal_mine", 2)
    pos.player(0, money=14)
    assert "build cotton_mill manchester/1" in h.names(pos.state())
    pos.player(0, money=13)
    assert "build cotton_mill manchester/1" not in h.names(pos.state())
    with pytest.raises(pos.engine.IllegalActionError):
        pos.state().apply("build cotton_mill manchester/1")


def test_L32_barrow_needs_coal_so_is_a_rail_location(position, h):
    pos = position().hand(0, "barrow_in_furness").lowest(0, "shipyard", 1)
    legal = h.names(pos.state())
    assert not any("barrow_in_furness" in n for n in legal)
