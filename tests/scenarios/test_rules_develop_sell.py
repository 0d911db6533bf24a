"""Develop and Sell: L-39 … L-44 (hand-built positions, public API only)."""

DCM_4P = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]


def test_L39_develop_two_tiles_of_one_industry(position, h):
    state = h.do(position().hand(0, "bolton", "bolton").state(), "develop cotton_mill")
    assert state.decision == "develop"
    assert h.names(state) == [
        "develop cotton_mill",
        "develop coal_mine",
        "develop iron_works",
        "develop port",
        "develop shipyard",
        "stop",
    ]
    h.do(state, "develop cotton_mill")
    assert state.player(0).mat["cotton_mill"] == 10
    assert state.player(0).money == 28 and h.obj(state)["iron_market"] == 6  # £1 + £1 from the market
    assert state.decision == "action" and state.actions_left == 1


def test_L39_develop_any_level_including_shipyard_0(position, h):
    state = h.do(position().hand(0, "bolton").state(), "develop shipyard", "stop")
    assert state.player(0).mat["shipyard"] == 5


def test_L39_develop_needs_a_tile_on_the_mat(position, h):
    state = position().hand(0, "bolton").mat(0, iron_works=0).state()
    assert "develop iron_works" not in h.names(state)


def mills_for_sale(position):
    return (
        position(era="rail")
        .hand(0, "bolton", "wigan")
        .tile("bolton/1", 0, "cotton_mill", 2)
        .tile("burnley/1", 0, "cotton_mill", 2)
        .link("bolton-manchester", 1)
        .link("manchester-warrington_runcorn", 1)
        .link("burnley-colne", 2)
        .link("colne-yorkshire", 2)
    )


def test_L41_sell_to_a_connected_port_of_any_player(position, h):
    pos = mills_for_sale(position).tile("warrington_runcorn/1", 1, "port", 2)
    state = pos.state()
    assert "sell bolton/1 warrington_runcorn/1" in h.names(state)
    assert "sell burnley/1 warrington_runcorn/1" not in h.names(state)  # not connected
    h.do(state, "sell bolton/1 warrington_runcorn/1")
    board = h.obj(state)["board"]
    assert board["warrington_runcorn/1"]["flipped"] and board["bolton/1"]["flipped"]
    assert state.player(1).income_space == 10 + 3 and state.player(0).income_space == 10 + 4
    assert state.player(0).money == 30  # L-43: income, not money
    assert state.decision == "sell"  # burnley can still sell to the DCM through Yorkshire
    assert h.names(state) == ["sell burnley/1 distant", "stop"]


def test_L42_distant_market_sale(position, h):
    pos = mills_for_sale(position).set(dcm={"marker": 0, "pile": [1, 0, 0, 1, 2, 2, 2, 2, 3, 3, 3, 4], "discards": []})
    state = h.do(pos.state(), "sell burnley/1 distant")
    dcm = h.obj(state)["dcm"]
    assert dcm["marker"] == 1 and dcm["discards"] == [1] and dcm["pile"] == [0, 0, 1, 2, 2, 2, 2, 3, 3, 3, 4]
    assert state.player(0).income_space == 10 + 3 + 4  # the space beside the marker, then the mill
    assert h.obj(state)["board"]["burnley/1"]["flipped"]


def test_L42_X_reached_mid_sell_ends_the_action_mill_unflipped(position, h):
    pos = (
        mills_for_sale(position)
        .link("bolton-bury", 0)
        .link("bury-burnley", 0)
        .set(dcm={"marker": 6, "pile": [1, 4, 0, 0, 1, 2, 2, 2, 2, 3, 3, 3], "discards": []})
    )
    state = h.do(pos.state(), "sell burnley/1 distant")
    assert state.player(0).income_space == 10 + 0 + 4  # marker on space 7: no income from the market
    assert state.decision == "sell" and "sell bolton/1 distant" in h.names(state)
    h.do(state, "sell bolton/1 distant")
    assert h.obj(state)["dcm"]["marker"] == 8
    assert not h.obj(state)["board"]["bolton/1"]["flipped"]
    assert state.player(0).income_space == 14
    assert state.decision == "card"  # the action ended; only its card is left
    h.do(state, "card wigan")
    assert not any(n.endswith("distant") for n in h.names(state))  # no more DCM sales this era


def test_L42_X_on_the_first_sale(position, h):
    pos = mills_for_sale(position).set(dcm={"marker": 5, "pile": [3, 4, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3], "discards": []})
    state = h.do(pos.state(), "sell burnley/1 distant")
    assert h.obj(state)["dcm"]["marker"] == 8 and not h.obj(state)["board"]["burnley/1"]["flipped"]
    assert state.player(0).income_space == 10 and state.decision == "card"


def test_L42_port_sales_continue_after_X(position, h):
    pos = (
        mills_for_sale(position)
        .tile("warrington_runcorn/1", 1, "port", 2)
        .set(dcm={"marker": 8, "pile": DCM_4P[:6], "discards": DCM_4P[6:]})
    )
    legal = h.names(pos.state())
    assert "sell bolton/1 warrington_runcorn/1" in legal and not any(n.endswith("distant") for n in legal)


def test_L42_distant_sale_needs_a_trade_icon(position, h):
    pos = position(era="rail").hand(0, "bolton").tile("bolton/1", 0, "cotton_mill", 2)
    assert not any(n.startswith("sell") for n in h.names(pos.state()))
    pos.tile("bolton/3", 1, "iron_works", 2)
    assert not any(n.startswith("sell") for n in h.names(pos.state()))
    pos.link("bolton-manchester", 1).link("manchester-warrington_runcorn", 1).tile(
        "warrington_runcorn/1", 2, "port", 2, flipped=True
    )
    assert [n for n in h.names(pos.state()) if n.startswith("sell")] == ["sell bolton/1 distant"]


def test_L44_R3_empty_dcm_pile_reshuffles_the_discards(position, h):
    pos = mills_for_sale(position).set(dcm={"marker": 0, "pile": [], "discards": DCM_4P})
    state = h.do(pos.state(), "sell burnley/1 distant")
    dcm = h.obj(state)["dcm"]
    assert len(dcm["pile"]) == 11 and len(dcm["discards"]) == 1
    assert sorted(dcm["pile"] + dcm["discards"]) == DCM_4P
    assert h.obj(state)["rng"] != pos.obj["rng"]


def test_L48_income_track_stops_at_the_top(position, h):
    pos = mills_for_sale(position).tile("warrington_runcorn/1", 1, "port", 2).player(0, income_space=97)
    state = h.do(pos.state(), "sell bolton/1 warrington_runcorn/1")
    assert state.player(0).income_space == 99 and state.player(0).income_level == 30
