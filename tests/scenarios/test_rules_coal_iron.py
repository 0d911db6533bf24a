"""Coal, iron and the markets: L-15 … L-20, L-27, L-28 (hand-built positions, public API only)."""

import pytest


def mill_in_manchester(position):
    """Player 0 (4p, Canal round 2, 2 actions) holds the Manchester card (and Wigan); their lowest cotton
    mill is level 2 (1 coal)."""
    return position().hand(0, "manchester", "wigan").lowest(0, "cotton_mill", 2)


def test_L16_coal_tie_asks_player(position, h):
    pos = (
        mill_in_manchester(position)
        .tile("bolton/1", 1, "coal_mine", 2)
        .tile("oldham/1", 2, "coal_mine", 2)
        .link("bolton-manchester", 1)
        .link("oldham-manchester", 2)
    )
    state = h.do(pos.state(), "build cotton_mill manchester/1")
    assert state.decision == "coal" and state.current_player == 0
    assert h.names(state) == ["coal bolton/1", "coal oldham/1"]
    h.do(state, "coal oldham/1")
    board = h.obj(state)["board"]
    assert board["oldham/1"]["cubes"] == 2 and board["bolton/1"]["cubes"] == 3
    assert board["manchester/1"] == {"owner": 0, "industry": "cotton_mill", "level": 2, "flipped": False, "cubes": 0}
    assert state.decision == "action" and state.actions_left == 1
    assert state.player(0).money == 30 - 14 and state.player(0).money_spent == 14


def test_L16_two_mines_in_one_location_are_a_tie(position, h):
    pos = (
        mill_in_manchester(position)
        .tile("manchester/2", 1, "coal_mine", 2)
        .tile("manchester/3", 2, "coal_mine", 2)
        .tile("bolton/1", 3, "coal_mine", 2)
        .link("bolton-manchester", 3)
    )
    state = h.do(pos.state(), "build cotton_mill manchester/1")
    assert h.names(state) == ["coal manchester/2", "coal manchester/3"]


def test_L16_closest_mine_is_used_and_L20_flips_when_emptied(position, h):
    pos = (
        mill_in_manchester(position)
        .tile("warrington_runcorn/2", 1, "coal_mine", 1, cubes=1)
        .tile("wigan/1", 2, "coal_mine", 2)
        .link("manchester-warrington_runcorn", 1)
        .link("wigan-warrington_runcorn", 2)
    )
    state = h.do(pos.state(), "build cotton_mill manchester/1")
    assert state.decision == "action"
    board = h.obj(state)["board"]
    assert board["warrington_runcorn/2"]["flipped"] and board["warrington_runcorn/2"]["cubes"] == 0
    assert board["wigan/1"]["cubes"] == 3
    assert state.player(1).income_space == 10 + 4  # L-20: the owner gains the mine's income
    assert h.obj(state)["coal_market"] == 8


def test_L17_connected_mine_is_used_before_the_market(position, h):
    pos = (
        mill_in_manchester(position)
        .tile("bury/1", 1, "coal_mine", 2)
        .link("bury-manchester", 1)
        .link("manchester-warrington_runcorn", 1)
        .tile("warrington_runcorn/1", 2, "port", 1)
    )
    state = h.do(pos.state(), "build cotton_mill manchester/1")
    assert h.obj(state)["coal_market"] == 8 and h.obj(state)["board"]["bury/1"]["cubes"] == 2
    assert state.player(0).money == 16


def test_L17_no_coal_source_build_illegal(position, h):
    pos = position().hand(0, "colne").lowest(0, "cotton_mill", 2).tile("bolton/1", 1, "coal_mine", 2)
    assert "build cotton_mill colne/1" not in h.names(pos.state())
    assert "build cotton_mill colne/1 double" not in h.names(pos.state())
    with pytest.raises(pos.engine.IllegalActionError):
        pos.state().apply("build cotton_mill colne/1")


def test_L17_market_coal_through_a_printed_trade_icon(position, h):
    pos = (
        position()
        .hand(0, "colne")
        .lowest(0, "cotton_mill", 2)
        .tile("bolton/1", 1, "coal_mine", 2)
        .link("colne-yorkshire", 1)
    )
    state = pos.state()
    assert "build cotton_mill colne/1" in h.names(state)
    h.do(state, "build cotton_mill colne/1")
    assert h.obj(state)["coal_market"] == 7
    assert state.player(0).money == 30 - 14 - 1 and state.player(0).money_spent == 15  # L-19


def test_L17_coal_market_empty_costs_5(position, h):
    pos = (
        position()
        .hand(0, "colne")
        .lowest(0, "cotton_mill", 2)
        .link("colne-yorkshire", 1)
        .set(coal_market=0)
        .player(0, money=19)
    )
    state = pos.state()
    h.do(state, "build cotton_mill colne/1")
    assert state.player(0).money == 0 and state.player(0).money_spent == 19
    assert h.obj(state)["coal_market"] == 0
    pos.player(0, money=18)
    assert "build cotton_mill colne/1" not in h.names(pos.state())


def test_L17_market_price_is_the_cheapest_cube(position, h):
    pos = (
        position()
        .hand(0, "colne")
        .lowest(0, "cotton_mill", 2)
        .link("colne-yorkshire", 1)
        .set(coal_market=3)
        .player(0, money=17)
    )  # 3 cubes sit on the £3, £4, £4 spaces
    state = h.do(pos.state(), "build cotton_mill colne/1")
    assert state.player(0).money == 0 and h.obj(state)["coal_market"] == 2
    pos.player(0, money=16)
    assert "build cotton_mill colne/1" not in h.names(pos.state())


def test_L15_market_trade_icon_via_a_port_tile(position, h):
    pos = (
        position()
        .hand(0, "bolton")
        .lowest(0, "cotton_mill", 2)
        .link("bolton-manchester", 1)
        .link("manchester-warrington_runcorn", 2)
    )
    assert "build cotton_mill bolton/1" not in h.names(pos.state())
    for flipped in (False, True):  # a port tile carries the icon on both sides
        pos.tile("warrington_runcorn/1", 3, "port", 1, flipped=flipped)
        state = pos.state()
        assert "build cotton_mill bolton/1" in h.names(state)
        h.do(state, "build cotton_mill bolton/1")
        assert h.obj(state)["coal_market"] == 7


def test_L18_iron_from_any_works_player_chooses(position, h):
    pos = (
        position()
        .hand(0, "manchester", "bolton")
        .tile("bolton/3", 1, "iron_works", 2)
        .tile("rochdale/3", 2, "iron_works", 2)
    )
    state = h.do(pos.state(), "develop port")
    assert state.decision == "iron" and h.names(state) == ["iron bolton/3", "iron rochdale/3"]
    h.do(state, "iron rochdale/3")
    assert h.obj(state)["board"]["rochdale/3"]["cubes"] == 3 and h.obj(state)["iron_market"] == 8
    assert state.decision == "develop"
    h.do(state, "stop")
    assert state.decision == "card"
    assert state.player(0).money == 30 and state.player(0).mat["port"] == 7


def test_L18_single_iron_works_is_used_without_asking(position, h):
    pos = position().hand(0, "manchester").tile("bolton/3", 1, "iron_works", 2, cubes=1)
    state = h.do(pos.state(), "develop port")
    board = h.obj(state)["board"]
    assert board["bolton/3"]["flipped"] and state.player(1).income_space == 13
    assert state.decision == "develop"  # the iron market still sells iron for a second tile


def test_L18_empty_iron_market_costs_5(position, h):
    pos = position().hand(0, "manchester").set(iron_market=0).player(0, money=4)
    assert not any(n.startswith("develop") for n in h.names(pos.state()))
    pos.player(0, money=5)
    state = h.do(pos.state(), "develop shipyard")
    assert state.player(0).money == 0 and state.player(0).money_spent == 5
    assert state.decision == "action"  # no money for a second tile: the action ends


def test_L27_coal_mine_sells_to_the_market_when_connected(position, h):
    pos = (
        position()
        .hand(0, "warrington_runcorn")
        .lowest(0, "coal_mine", 2)
        .tile("warrington_runcorn/1", 1, "port", 1)
        .set(coal_market=5)
    )
    state = h.do(pos.state(), "build coal_mine warrington_runcorn/2")
    tile = h.obj(state)["board"]["warrington_runcorn/2"]
    assert tile["cubes"] == 0 and tile["flipped"]  # L-28
    assert h.obj(state)["coal_market"] == 8
    assert state.player(0).money == 30 - 7 + 2 + 1 + 1
    assert state.player(0).money_spent == 7
    assert state.player(0).income_space == 10 + 7


def test_L27_coal_mine_keeps_cubes_the_market_cannot_take(position, h):
    pos = (
        position()
        .hand(0, "warrington_runcorn")
        .lowest(0, "coal_mine", 2)
        .tile("warrington_runcorn/1", 1, "port", 1)
        .set(coal_market=7)
    )
    state = h.do(pos.state(), "build coal_mine warrington_runcorn/2")
    tile = h.obj(state)["board"]["warrington_runcorn/2"]
    assert tile["cubes"] == 2 and not tile["flipped"]
    assert state.player(0).money == 30 - 7 + 1


def test_L27_unconnected_coal_mine_sells_nothing(position, h):
    pos = position().hand(0, "wigan").lowest(0, "coal_mine", 2).set(coal_market=0)
    state = h.do(pos.state(), "build coal_mine wigan/1")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 3 and h.obj(state)["coal_market"] == 0
    assert state.player(0).money == 23


def test_L27_iron_works_always_sells_to_the_market(position, h):
    pos = position().hand(0, "bolton").tile("bolton/1", 1, "coal_mine", 2).set(iron_market=6)
    state = h.do(pos.state(), "build iron_works bolton/3")
    board = h.obj(state)["board"]
    assert board["bolton/3"]["cubes"] == 2 and not board["bolton/3"]["flipped"]
    assert board["bolton/1"]["cubes"] == 2  # its coal came from the mine in the same location
    assert h.obj(state)["iron_market"] == 8
    assert state.player(0).money == 30 - 5 + 1 + 1


def test_L27_market_money_cannot_pay_the_build(position, h):
    pos = (
        position()
        .hand(0, "warrington_runcorn")
        .lowest(0, "coal_mine", 2)
        .tile("warrington_runcorn/1", 1, "port", 1)
        .set(coal_market=0)
        .player(0, money=6)
    )
    assert "build coal_mine warrington_runcorn/2" not in h.names(pos.state())


def test_L28_shipyard_flips_when_built(position, h):
    pos = position().hand(0, "liverpool").lowest(0, "shipyard", 1).tile("liverpool/1", 1, "port", 1)
    state = h.do(pos.state(), "build shipyard liverpool/4")
    tile = h.obj(state)["board"]["liverpool/4"]
    assert tile["flipped"] and tile["level"] == 1
    assert state.player(0).money == 30 - 16 - 1 - 1  # coal and iron from the markets
    assert state.player(0).income_space == 12
