"""Classic Brass (docs/classic.md): loans C-5, the virtual link C-7 (and the Lancashire option L-55), the Distant
Cotton Market C-11, tile VP R-11, the tie-break C-15 (hand-built positions, public API only)."""

import pytest

DCM_FULL = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]


# --- C-5: loans -----------------------------------------------------------------------------------------------


def loans(names):
    return [n for n in names if n.startswith("loan")]


def test_C5_no_loans_in_the_rail_era_once_the_draw_pile_is_empty(position, h):
    state = position(4, game="brass", era="rail", round=2).state()  # the builder's draw pile is empty
    assert h.obj(state)["deck"] == [] and loans(h.names(state)) == []


def test_C5_loans_while_the_rail_draw_pile_has_cards_even_in_the_last_round(position, h):
    pos = position(4, game="brass", era="rail", round=8)
    pos.set_cards({0: ["manchester", "manchester"]}, deck=["bolton"])
    assert loans(h.names(pos.state())) == ["loan 10", "loan 20", "loan 30"]


def test_C5_loans_in_the_canal_era_with_an_empty_draw_pile(position, h):
    state = position(3, game="brass", round=9).state()
    assert h.obj(state)["deck"] == [] and loans(h.names(state)) == ["loan 10", "loan 20", "loan 30"]


def test_L46_lancashire_keeps_the_last_four_rounds_for_contrast(position, h):
    pos = position(4, era="rail", round=5).set_cards({0: ["manchester", "manchester"]}, deck=["bolton"])
    assert loans(h.names(pos.state())) == []
    pos = position(4, era="rail", round=4)  # empty draw pile, round 4 of 8: loans allowed
    assert loans(h.names(pos.state())) == ["loan 10", "loan 20", "loan 30"]


def test_C5_the_income_floor_still_applies(position, h):
    state = position(3, game="brass", round=3).player(0, income_space=1).state()  # level -9
    assert loans(h.names(state)) == ["loan 10"]


# --- C-7 / L-55: the virtual link Liverpool-Birkenhead -----------------------------------------------------------

VIRTUAL = [dict(game="brass"), dict(game="lancashire", virtual_link=True)]
VIRTUAL_IDS = ["C-7 brass", "L-55 option"]


def birkenhead_with_coal(position, **config):
    """Player 0 has a port in Liverpool (so Liverpool is in the network), holds only a shipyard card and has
    a level-2 shipyard on top; a rail line of player 1 brings coal from Warrington to Birkenhead."""
    pos = position(4, era="rail", **config)
    pos.tile("liverpool/1", 0, "port", 2).lowest(0, "shipyard", 2)
    pos.tile("warrington_runcorn/2", 1, "coal_mine", 2)
    pos.link("warrington_runcorn-ellesmere_port", 1).link("ellesmere_port-birkenhead", 1)
    pos.set_cards({0: ["shipyard"]})
    return pos


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_industry_card_builds_in_birkenhead_when_liverpool_is_in_the_network(position, h, config):
    state = birkenhead_with_coal(position, **config).state()
    assert "build shipyard birkenhead/1" in h.names(state)
    h.do(state, "build shipyard birkenhead/1")
    board = h.obj(state)["board"]
    assert board["birkenhead/1"]["owner"] == 0 and board["warrington_runcorn/2"]["cubes"] == 2
    assert state.player(0).hand == [] and state.player(0).discards[-1] == "shipyard"


def test_L55_without_the_option_an_industry_card_does_not_reach_birkenhead(position, h):
    state = birkenhead_with_coal(position).state()
    assert "build shipyard birkenhead/1" not in h.names(state)


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_and_vice_versa_from_birkenhead_to_liverpool(position, h, config):
    """R-9: both directions."""
    pos = position(4, era="rail", **config).tile("birkenhead/1", 0, "shipyard", 2).lowest(0, "port", 2)
    pos.set_cards({0: ["port"]})
    assert "build port liverpool/1" in h.names(pos.state())
    plain = position(4, era="rail").tile("birkenhead/1", 0, "shipyard", 2).lowest(0, "port", 2)
    plain.set_cards({0: ["port"]})
    assert "build port liverpool/1" not in h.names(plain.state())


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_the_virtual_link_carries_no_coal(position, h, config):
    """Liverpool holds a port (a trade icon), but the virtual link does not connect Birkenhead to it, so the
    shipyard's coal cannot come from the market; with a real rail to a port it can."""
    pos = position(4, era="rail", **config).tile("liverpool/1", 0, "port", 2).lowest(0, "shipyard", 2)
    pos.set_cards({0: ["shipyard", "birkenhead"]})
    assert not [n for n in h.names(pos.state()) if n.startswith("build shipyard birkenhead")]
    pos.link("ellesmere_port-birkenhead", 1).tile("ellesmere_port/1", 1, "port", 2)
    state = pos.state()
    assert "build shipyard birkenhead/1" in h.names(state)
    h.do(state, "build shipyard birkenhead/1")
    assert h.obj(state)["coal_market"] == 7  # bought through the real rail


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_the_virtual_link_is_not_adjacency_for_links(position, h, config):
    state = position(4, era="rail", **config).tile("liverpool/1", 0, "port", 2).state()
    links = sorted(n for n in h.names(state) if n.startswith("link"))
    assert links == ["link liverpool-southport", "link liverpool-warrington_runcorn", "link wigan-liverpool"]


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_the_virtual_link_does_not_carry_sales(position, h, config):
    """A mill connected to Birkenhead only (a rail of player 1) cannot sell to a port in Liverpool."""
    pos = position(4, era="rail", **config).tile("liverpool/1", 1, "port", 2)
    pos.tile("warrington_runcorn/2", 0, "cotton_mill", 2).link("warrington_runcorn-ellesmere_port", 1)
    pos.link("ellesmere_port-birkenhead", 1)
    state = pos.state()
    assert not [n for n in h.names(state) if n.startswith("sell")]
    pos.link("liverpool-warrington_runcorn", 1)
    assert "sell warrington_runcorn/2 liverpool/1" in h.names(pos.state())


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_the_virtual_link_is_not_presence_for_the_first_build(position, h, config):
    """Nothing on the board: the first-build exception holds (an industry card builds anywhere); a tile in
    Liverpool ends it, and the industry card then reaches Liverpool and Birkenhead only."""
    pos = position(4, **config).set_cards({0: ["port"]})
    assert "build port lancaster/1" in h.names(pos.state())
    pos.tile("birkenhead/1", 0, "shipyard", 1)
    names = [n for n in h.names(pos.state()) if n.startswith("build port") and not n.endswith("double")]
    assert names == ["build port liverpool/1"]


@pytest.mark.parametrize("config", VIRTUAL, ids=VIRTUAL_IDS)
def test_C7_L55_the_virtual_link_is_not_scored(position, h, config):
    pos = position(4, era="rail", **config).tile("liverpool/1", 0, "port", 2, flipped=True)
    pos.tile("birkenhead/1", 0, "shipyard", 2)
    state = h.do(pos.end_of_era().state(), "pass")
    assert state.scores[0] == 4 + 18 + 3  # the two tiles, £30 = 3 VP; no link VP


# --- C-11: the Distant Cotton Market -----------------------------------------------------------------------------


def dcm_position(position, pile, marker=0, players=3):
    """Player 0's mill in Warrington can sell only to the Distant Cotton Market (the port beside it is used)."""
    pos = position(players, game="brass").tile("warrington_runcorn/2", 0, "cotton_mill", 1)
    pos.tile("warrington_runcorn/1", 1, "port", 1, flipped=True)
    return pos.set(dcm={"marker": marker, "pile": pile, "discards": []})


def test_C11_a_drawn_tile_goes_to_the_bottom_of_the_pile(position, h):
    pile = [2, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4]
    state = dcm_position(position, pile).state()
    assert [n for n in h.names(state) if n.startswith("sell")] == ["sell warrington_runcorn/2 distant"]
    h.do(state, "sell warrington_runcorn/2 distant")
    obj = h.obj(state)
    assert obj["dcm"] == {"marker": 2, "pile": pile[1:] + [2], "discards": []}
    assert obj["board"]["warrington_runcorn/2"]["flipped"]
    assert state.player(0).income_space == 10 + 2 + 5  # the income beside space 2, then the mill's


def test_C11_reaching_x_ends_the_action_and_the_tiles_stay_in_the_pile(position, h):
    pile = [4, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 2]
    state = dcm_position(position, pile, marker=5).state()
    h.do(state, "sell warrington_runcorn/2 distant")
    obj = h.obj(state)
    assert obj["dcm"] == {"marker": 8, "pile": pile[1:] + [4], "discards": []}
    assert not obj["board"]["warrington_runcorn/2"]["flipped"]
    assert (state.decision, state.current_player, state.actions_left) == ("action", 0, 1)  # the action ended
    pos = dcm_position(position, pile[1:] + [4], marker=8)
    assert not [n for n in h.names(pos.state()) if n.endswith("distant")]  # for the rest of the era


def test_C11_the_pile_holds_all_12_tiles_at_3_players(engine):
    import json

    obj = json.loads(engine.Game("brass", players=3).new_state(4).to_json())
    assert sorted(obj["dcm"]["pile"]) == DCM_FULL and obj["dcm"]["discards"] == []


def test_C11_the_rail_era_reshuffles_all_12_tiles(position, h):
    pos = position(3, game="brass").end_of_era().set(dcm={"marker": 8, "pile": DCM_FULL, "discards": []})
    state = h.do(pos.state(), "pass")
    obj = h.obj(state)
    assert obj["dcm"]["marker"] == 0 and sorted(obj["dcm"]["pile"]) == DCM_FULL and obj["dcm"]["discards"] == []


def test_C11_the_loader_rejects_dcm_discards(engine, position):
    pos = position(3, game="brass").set(dcm={"marker": 2, "pile": DCM_FULL[1:], "discards": [0]})
    with pytest.raises(engine.InvalidStateError):
        pos.state()


# --- tile VP -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, vp", [("brass", 3), ("lancashire", 5)])
def test_R11_cotton_mill_level_1_scores_3_vp_in_classic_brass(position, h, game, vp):
    pos = position(4, game=game).tile("stockport/1", 1, "cotton_mill", 1, flipped=True)
    pos.tile("macclesfield/1", 2, "cotton_mill", 2, flipped=True)
    state = h.do(pos.end_of_era().state(), "pass")
    assert state.scores[1:3] == [vp, 5]


# --- C-15: winners ------------------------------------------------------------------------------------------------


def rail_end(position, spent=(5, 0, 5)):
    pos = position(3, game="brass", era="rail").end_of_era()
    for p, s in enumerate(spent):
        pos.player(p, money_spent=s)
    return pos


def test_C15_full_tie_goes_to_the_earlier_player_in_the_next_turn_order(position, h):
    state = h.do(rail_end(position).state(), "pass")
    assert state.scores == [3, 3, 3] and state.turn_order == [1, 0, 2]
    assert state.winners == [1]
    state = h.do(rail_end(position, spent=(0, 4, 4)).state(), "pass")
    assert state.turn_order == [0, 1, 2] and state.winners == [0]


def test_C15_income_level_then_money_before_the_turn_order(position, h):
    state = h.do(rail_end(position).player(2, income_space=11).state(), "pass")  # level 1 beats level 0
    assert state.winners == [2]
    state = h.do(rail_end(position).player(0, money=39).state(), "pass")  # £39: still 3 VP, more money
    assert state.scores == [3, 3, 3] and state.winners == [0]


def test_C15_no_track_space_tie_break(position, h):
    """The track space inside a level is no tie-break (C-15, as R-4 for Lancashire): 11 and 12 are both level 1,
    so the next turn order decides."""
    pos = rail_end(position).player(0, income_space=12).player(1, income_space=11).player(2, income_space=11)
    state = h.do(pos.state(), "pass")
    assert state.winners == [1]


def test_L53_lancashire_shares_the_win_for_contrast(position, h):
    pos = position(3, era="rail").end_of_era()
    state = h.do(pos.state(), "pass")
    assert state.scores == [3, 3, 3] and state.winners == [0, 1, 2]
