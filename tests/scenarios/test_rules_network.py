"""Network: L-34 … L-38 (hand-built positions, public API only)."""


def links(state, h):
    return [n for n in h.names(state) if n.startswith("link")]


def test_L34_R2_no_link_without_anything_on_the_board(position, h):
    assert links(position().state(), h) == []


def test_L34_L35_canal_links_next_to_the_network(position, h):
    state = position().tile("bolton/1", 0, "cotton_mill", 1).state()
    assert links(state, h) == ["link bolton-bury", "link bolton-manchester"]  # wigan-bolton is rail only


def test_L35_one_canal_for_3(position, h):
    state = h.do(position().tile("bolton/1", 0, "cotton_mill", 1).state(), "link bolton-bury")
    assert state.decision == "action" and state.actions_left == 1  # no second canal
    assert state.player(0).money == 27 and state.player(0).money_spent == 3
    assert state.player(0).links_left == 13 and h.obj(state)["links"] == {"bolton-bury": 0}
    assert "link bury-manchester" in links(state, h)  # L-13: an end of one's own link is in the network
    state = position().tile("bolton/1", 0, "cotton_mill", 1).player(0, money=2).state()
    assert links(state, h) == []


def test_L34_link_from_a_location_reached_through_an_external_location(position, h):
    state = position().link("colne-yorkshire", 0).state()
    assert "link rochdale-yorkshire" in links(state, h)


def test_L36_rail_lines_only_in_the_rail_era(position, h):
    pos = position(era="rail").tile("bolton/1", 0, "cotton_mill", 2).tile("bolton/2", 1, "coal_mine", 2)
    assert links(pos.state(), h) == [
        "link bolton-bury",
        "link bolton-manchester",
        "link blackburn-bolton",
        "link wigan-bolton",
    ]


def test_L36_double_rail_takes_coal_for_each_link(position, h):
    pos = position(era="rail").hand(0, "bolton", "bury").tile("wigan/1", 0, "coal_mine", 2)
    state = h.do(pos.state(), "link preston-wigan")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 2 and state.player(0).money == 25
    assert state.decision == "link" and "stop" in h.names(state)
    assert "link lancaster-preston" in h.names(state)  # next to the first rail
    h.do(state, "link lancaster-preston")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 1  # the second rail's own coal
    assert state.player(0).money == 15 and state.player(0).money_spent == 15
    assert state.player(0).links_left == 12
    assert state.decision == "card"
    h.do(state, "card bury")
    assert state.actions_left == 1


def test_L36_rail_coal_is_measured_from_both_ends(position, h):
    pos = (
        position(era="rail")
        .hand(0, "bolton")
        .tile("bolton/1", 0, "cotton_mill", 2)
        .tile("wigan/1", 1, "coal_mine", 2)
        .tile("bury/1", 2, "coal_mine", 2)
    )
    # wigan-bolton: wigan's mine is at distance 0 from the wigan end, bury's is 1 away from the bolton end
    state = h.do(pos.state(), "link wigan-bolton")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 2 and h.obj(state)["board"]["bury/1"]["cubes"] == 3
    pos.link("bolton-bury", 2)
    # bolton-manchester: bury's mine is 1 link from the bolton end; wigan's is not connected
    state = h.do(pos.state(), "link bolton-manchester")
    assert h.obj(state)["board"]["bury/1"]["cubes"] == 2


def test_L36_rail_coal_tie_between_the_ends(position, h):
    pos = (
        position(era="rail")
        .hand(0, "bolton")
        .tile("bolton/2", 0, "cotton_mill", 2)
        .tile("wigan/1", 1, "coal_mine", 2)
        .tile("bolton/1", 2, "coal_mine", 2)
    )
    state = h.do(pos.state(), "link wigan-bolton")
    assert state.decision == "coal" and h.names(state) == ["coal bolton/1", "coal wigan/1"]


def test_L36_rail_market_coal_through_a_trade_icon(position, h):
    pos = position(era="rail").hand(0, "lancaster").tile("lancaster/2", 0, "cotton_mill", 2)
    state = pos.state()
    assert links(state, h) == ["link lancaster-scotland"]  # only Scotland brings market coal
    h.do(state, "link lancaster-scotland")
    assert state.player(0).money == 30 - 5 - 1 and h.obj(state)["coal_market"] == 7
    assert state.decision == "link"
    assert h.names(state) == ["link lancaster-preston", "link barrow_in_furness-lancaster", "stop"]


def test_L36_no_second_rail_without_money(position, h):
    pos = position(era="rail").hand(0, "bolton", "bolton").tile("wigan/1", 0, "coal_mine", 2).player(0, money=14)
    state = h.do(pos.state(), "link preston-wigan")
    assert state.player(0).money == 9 and state.decision == "action" and state.actions_left == 1


def test_L36_no_rail_without_coal(position, h):
    pos = position(era="rail").tile("colne/1", 0, "cotton_mill", 2)
    assert links(pos.state(), h) == ["link colne-yorkshire"]
    pos.set(coal_market=0).player(0, money=9)
    assert links(pos.state(), h) == []
    pos.player(0, money=10)
    assert links(pos.state(), h) == ["link colne-yorkshire"]


def test_L37_no_link_tile_left(position, h):
    pos = position().tile("bolton/1", 0, "cotton_mill", 1)
    pos.obj["players"][0]["links_left"] = 0
    for line in [
        "preston-wigan",
        "blackburn-wigan",
        "blackburn-burnley",
        "burnley-colne",
        "colne-yorkshire",
        "rochdale-yorkshire",
        "rochdale-oldham",
        "oldham-manchester",
        "manchester-stockport",
        "stockport-macclesfield",
        "macclesfield-the_midlands",
        "northwich-the_midlands",
        "ellesmere_port-northwich",
        "warrington_runcorn-ellesmere_port",
    ]:
        pos.obj["links"][line] = 0
    assert links(pos.state(), h) == []


def test_L38_anyones_links_carry_coal(position, h):
    pos = (
        position()
        .hand(0, "manchester")
        .lowest(0, "cotton_mill", 2)
        .tile("rochdale/1", 3, "coal_mine", 2)
        .link("oldham-manchester", 1)
        .link("rochdale-oldham", 2)
    )
    state = h.do(pos.state(), "build cotton_mill manchester/1")
    assert h.obj(state)["board"]["rochdale/1"]["cubes"] == 2
