"""Classic Brass (game="brass"): the rules that are the same as Lancashire — C-5 (loan amounts), C-6, C-8,
C-9, C-10, C-12, C-13, C-14, C-16 (hand-built positions, public API only)."""

DCM_FULL = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]


def builds(state, h, industry=None):
    """The single builds (not double) among the legal actions, optionally of one industry."""
    prefix = "build " if industry is None else f"build {industry} "
    return [n for n in h.names(state) if n.startswith(prefix) and not n.endswith("double")]


# --- C-5: loan amounts ------------------------------------------------------------------------------------------


def test_C5_loans_of_10_20_30_move_back_one_level_per_10(position, h):
    """C-5: £10 / £20 / £30, 1 income band back per £10, to the highest space of the new level."""
    state = h.do(position(3, game="brass", round=3).player(0, income_space=20).state(), "loan 30")  # level 5
    assert state.player(0).money == 60 and state.player(0).income_level == 2
    assert state.player(0).income_space == 14 and state.player(0).money_spent == 0
    state = h.do(position(4, game="brass", round=3).state(), "loan 20")  # level 0 -> -2
    assert state.player(0).money == 50 and state.player(0).income_level == -2
    state = h.do(position(3, game="brass", round=3).state(), "loan 10")
    assert state.player(0).money == 40 and state.player(0).income_space == 9


# --- C-6: building with an industry card ---------------------------------------------------------------------


def test_C6_first_build_with_an_industry_card_anywhere_with_a_matching_space(position, h):
    """C-6: with nothing on the board, an industry card builds at any location with a matching space."""
    state = position(3, game="brass").hand(0, "cotton_mill").state()
    legal = builds(state, h)
    for space in ("colne/1", "stockport/1", "lancaster/2", "preston/1", "manchester/1", "bury/1"):
        assert f"build cotton_mill {space}" in legal
    assert not any(n.startswith("build coal_mine") or n.startswith("build port") for n in legal)
    h.do(state, "build cotton_mill colne/1")
    assert h.obj(state)["board"]["colne/1"]["owner"] == 0 and state.player(0).money == 30 - 12


def test_C6_canal_industry_card_only_through_own_canals(position, h):
    """C-6: once on the board, a Canal-Era industry card builds only where your own canals/tiles reach."""
    pos = (
        position(3, game="brass")
        .hand(0, "cotton_mill")
        .tile("preston/3", 0, "port", 1)
        .link("bolton-bury", 0)
        .link("bolton-manchester", 1)
    )
    legal = builds(pos.state(), h, "cotton_mill")
    assert "build cotton_mill bolton/1" in legal and "build cotton_mill bury/1" in legal
    assert "build cotton_mill preston/1" not in legal  # own tile there, Canal Era: one per location (L-25)
    assert "build cotton_mill manchester/1" not in legal  # reached only by another player's canal
    assert "build cotton_mill colne/1" not in legal


def test_C6_rail_era_industry_card_where_you_have_a_tile_or_own_rail(position, h):
    """C-6: Rail Era — an industry card builds where you already have a tile, or along your own rails."""
    pos = (
        position(3, game="brass", era="rail")
        .hand(0, "cotton_mill")
        .lowest(0, "cotton_mill", 2)
        .tile("manchester/1", 0, "cotton_mill", 2)
        .tile("manchester/3", 1, "coal_mine", 2)
    )
    state = pos.state()
    legal = builds(state, h, "cotton_mill")
    assert legal == ["build cotton_mill manchester/2"]  # the location of the own tile only
    h.do(state, "build cotton_mill manchester/2")
    board = h.obj(state)["board"]
    assert board["manchester/2"]["owner"] == 0 and board["manchester/3"]["cubes"] == 2
    pos.link("bolton-manchester", 0).link("manchester-stockport", 1)
    legal = builds(pos.state(), h, "cotton_mill")
    assert "build cotton_mill bolton/1" in legal  # along the own rail
    assert "build cotton_mill stockport/1" not in legal  # another player's rail


# --- C-8: slot priority ---------------------------------------------------------------------------------------


def test_C8_lancaster_port_goes_to_the_port_only_space_first(position, h):
    """C-8: in Lancaster a port takes the left (port-only) space before the mill/port space."""
    pos = position(3, game="brass").hand(0, "lancaster")
    legal = builds(pos.state(), h)
    assert "build port lancaster/1" in legal and "build port lancaster/2" not in legal
    assert "build cotton_mill lancaster/2" in legal
    pos.tile("lancaster/1", 1, "port", 1)
    legal = builds(pos.state(), h)
    assert "build port lancaster/2" in legal


def test_C8_preston_port_goes_to_the_port_only_space_first(position, h):
    """C-8: in Preston a port takes the port-only space (preston/3) before the mill/port space."""
    pos = position(4, game="brass").hand(0, "preston")
    state = pos.state()
    legal = builds(state, h)
    assert "build port preston/3" in legal and "build port preston/1" not in legal
    assert "build cotton_mill preston/1" in legal
    h.do(state, "build port preston/3")
    assert set(h.obj(state)["board"]) == {"preston/3"}
    pos.tile("preston/3", 2, "port", 1)
    assert "build port preston/1" in builds(pos.state(), h)


# --- C-9: coal from the market needs a built port --------------------------------------------------------------


def test_C9_market_coal_needs_a_connection_to_a_port_tile(position, h):
    """C-9: a mill needing coal in Bolton can buy market coal only once connected to a port tile (either side)."""
    pos = (
        position(3, game="brass")
        .hand(0, "bolton")
        .lowest(0, "cotton_mill", 2)
        .link("bolton-manchester", 1)
        .link("manchester-warrington_runcorn", 2)
    )
    assert "build cotton_mill bolton/1" not in h.names(pos.state())
    for flipped in (False, True):
        pos.tile("warrington_runcorn/1", 2, "port", 1, flipped=flipped)
        state = pos.state()
        assert "build cotton_mill bolton/1" in h.names(state)
        h.do(state, "build cotton_mill bolton/1")
        assert h.obj(state)["coal_market"] == 7 and state.player(0).money == 30 - 14 - 1


def test_C9_market_coal_through_an_external_location(position, h):
    """C-9: Yorkshire (an external location) counts as a built port for market coal; a lone mine does not."""
    pos = position(4, game="brass").hand(0, "colne").lowest(0, "cotton_mill", 2).tile("bolton/1", 1, "coal_mine", 2)
    assert "build cotton_mill colne/1" not in h.names(pos.state())  # the mine is not connected
    pos.link("colne-yorkshire", 2)
    state = pos.state()
    assert "build cotton_mill colne/1" in h.names(state)
    h.do(state, "build cotton_mill colne/1")
    assert h.obj(state)["coal_market"] == 7 and state.player(0).money == 30 - 14 - 1
    assert h.obj(state)["board"]["bolton/1"]["cubes"] == 3


def test_C9_rail_link_market_coal_only_via_scotland(position, h):
    """C-9: a rail out of Lancaster can take market coal only when an end reaches a built port (Scotland)."""
    state = position(3, game="brass", era="rail").hand(0, "lancaster").tile("lancaster/2", 0, "cotton_mill", 2).state()
    assert [n for n in h.names(state) if n.startswith("link")] == ["link lancaster-scotland"]


# --- C-10: coal mines and iron works fill the demand tracks ----------------------------------------------------


def test_C10_coal_mine_connected_to_a_port_fills_the_coal_demand(position, h):
    """C-10: a mine connected to a port must sell its cubes to the empty market spaces, dearest first."""
    pos = (
        position(3, game="brass")
        .hand(0, "warrington_runcorn")
        .lowest(0, "coal_mine", 2)
        .tile("warrington_runcorn/1", 1, "port", 1)
        .set(coal_market=5)
    )  # empty spaces: £2, £1, £1
    state = h.do(pos.state(), "build coal_mine warrington_runcorn/2")
    assert (state.decision, state.current_player) == ("action", 1)  # no choice asked
    tile = h.obj(state)["board"]["warrington_runcorn/2"]
    assert tile["cubes"] == 0 and tile["flipped"] and h.obj(state)["coal_market"] == 8
    assert state.player(0).money == 30 - 7 + 2 + 1 + 1 and state.player(0).money_spent == 7
    assert state.player(0).income_space == 10 + 7  # emptied: flipped


def test_C10_unconnected_mine_keeps_its_coal_iron_works_always_sells(position, h):
    """C-10: an unconnected mine keeps its cubes; an iron works fills the iron track with no connection."""
    state = h.do(
        position(3, game="brass").hand(0, "wigan").lowest(0, "coal_mine", 2).set(coal_market=0).state(),
        "build coal_mine wigan/1",
    )
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 3 and h.obj(state)["coal_market"] == 0
    assert state.player(0).money == 30 - 7
    pos = position(3, game="brass").hand(0, "bolton").tile("bolton/1", 1, "coal_mine", 2).set(iron_market=6)
    state = h.do(pos.state(), "build iron_works bolton/3")
    board = h.obj(state)["board"]
    assert board["bolton/3"]["cubes"] == 2 and h.obj(state)["iron_market"] == 8
    assert state.player(0).money == 30 - 5 + 1 + 1


# --- C-12: shipyards -------------------------------------------------------------------------------------------


def test_C12_shipyard_level_0_never_level_1_canal_only(position, h):
    """C-12: in the Canal Era a level-0 or level-2 shipyard cannot be built, a level-1 can (level 0: develop)."""
    pos = position(3, game="brass").hand(0, "liverpool").tile("liverpool/1", 1, "port", 1)
    legal = h.names(pos.state())
    assert "build shipyard liverpool/4" not in legal and "develop shipyard" in legal  # level 0 on top
    pos.lowest(0, "shipyard", 2)
    assert "build shipyard liverpool/4" not in h.names(pos.state())
    pos.lowest(0, "shipyard", 1)
    state = pos.state()
    assert "build shipyard liverpool/4" in h.names(state)
    h.do(state, "build shipyard liverpool/4")
    tile = h.obj(state)["board"]["liverpool/4"]
    assert (tile["level"], tile["flipped"], tile["owner"]) == (1, True, 0)
    assert state.player(0).money == 30 - 16 - 1 - 1 and state.player(0).income_space == 12


def test_C12_shipyard_level_2_rail_only(position, h):
    """C-12: in the Rail Era a level-1 shipyard cannot be built, a level-2 can."""
    pos = position(3, game="brass", era="rail").hand(0, "liverpool").tile("liverpool/1", 1, "port", 2)
    pos.lowest(0, "shipyard", 1)
    assert "build shipyard liverpool/4" not in h.names(pos.state())
    pos.lowest(0, "shipyard", 0)
    assert "build shipyard liverpool/4" not in h.names(pos.state())
    pos.lowest(0, "shipyard", 2)
    state = pos.state()
    assert "build shipyard liverpool/4" in h.names(state)
    h.do(state, "build shipyard liverpool/4")
    tile = h.obj(state)["board"]["liverpool/4"]
    assert (tile["level"], tile["flipped"]) == (2, True)
    assert state.player(0).money == 30 - 25 - 1 - 1 and state.player(0).income_space == 11


# --- C-13: overbuilding an opponent's coal mine / iron works ----------------------------------------------------


def opponent_mines(position):
    return (
        position(3, game="brass")
        .hand(0, "wigan")
        .lowest(0, "coal_mine", 2)
        .tile("wigan/1", 1, "coal_mine", 1, cubes=0)
        .tile("wigan/2", 2, "coal_mine", 2, cubes=0)
        .set(coal_market=0)
    )


def test_C13_opponent_coal_mine_refused_while_coal_remains(position, h):
    """C-13: no overbuilding an opponent's mine while a coal cube is in the market or on any tile."""
    assert "build coal_mine wigan/1" not in h.names(opponent_mines(position).set(coal_market=1).state())
    pos = opponent_mines(position).tile("bolton/1", 2, "coal_mine", 2, cubes=1)
    assert "build coal_mine wigan/1" not in h.names(pos.state())


def test_C13_opponent_coal_mine_overbuilt_when_no_coal_anywhere(position, h):
    """C-13: with no coal on the board nor in the market, a higher-level mine replaces an opponent's."""
    state = opponent_mines(position).state()
    legal = h.names(state)
    assert "build coal_mine wigan/1" in legal
    assert "build coal_mine wigan/2" not in legal  # the new tile must be of a higher level
    h.do(state, "build coal_mine wigan/1")
    tile = h.obj(state)["board"]["wigan/1"]
    assert (tile["owner"], tile["level"], tile["cubes"]) == (0, 2, 3)
    assert state.player(0).money == 30 - 7 and state.player(1).income_space == 10


def test_C13_opponent_iron_works_follows_the_iron(position, h):
    """C-13: an opponent's iron works is overbuildable only when no iron is left anywhere."""
    pos = (
        position(4, game="brass")
        .hand(0, "bolton")
        .lowest(0, "iron_works", 2)
        .tile("bolton/3", 1, "iron_works", 1, cubes=0)
        .tile("bolton/1", 2, "coal_mine", 2)
        .set(iron_market=1)
    )
    assert "build iron_works bolton/3" not in h.names(pos.state())
    pos.set(iron_market=0)
    state = pos.state()
    assert "build iron_works bolton/3" in h.names(state)
    h.do(state, "build iron_works bolton/3")
    assert h.obj(state)["board"]["bolton/3"]["owner"] == 0 and h.obj(state)["iron_market"] == 4


# --- C-14: two rail links in one action -------------------------------------------------------------------------


def test_C14_second_rail_for_15_in_total_with_coal_for_each(position, h):
    """C-14: two rails in one action cost £5 + £10, each taking its own coal."""
    pos = position(3, game="brass", era="rail").hand(0, "bolton", "bury").tile("wigan/1", 0, "coal_mine", 2)
    state = h.do(pos.state(), "link preston-wigan")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 2 and state.player(0).money == 25
    assert state.decision == "link" and "link lancaster-preston" in h.names(state) and "stop" in h.names(state)
    h.do(state, "link lancaster-preston")
    assert h.obj(state)["board"]["wigan/1"]["cubes"] == 1
    assert state.player(0).money == 15 and state.player(0).money_spent == 15 and state.player(0).links_left == 12
    h.do(state, "card bury")
    assert (state.decision, state.current_player, state.actions_left) == ("action", 0, 1)


def test_C14_second_rail_with_market_coal_and_not_without_money(position, h):
    """C-14: both rails' coal from the market (via Scotland): £15 + £1 + £1; with £14 only one rail is built."""
    pos = position(4, game="brass", era="rail").hand(0, "lancaster", "bolton").tile("lancaster/2", 0, "cotton_mill", 2)
    state = h.do(pos.state(), "link lancaster-scotland")
    assert state.decision == "link" and "link lancaster-preston" in h.names(state)
    h.do(state, "link lancaster-preston")
    assert state.player(0).money == 30 - 15 - 2 and h.obj(state)["coal_market"] == 6
    state = h.do(pos.player(0, money=14).state(), "link lancaster-scotland")
    assert state.decision != "link" and state.player(0).money == 14 - 5 - 1
    assert h.obj(state)["links"] == {"lancaster-scotland": 0}


# --- C-16: end of the Canal period ------------------------------------------------------------------------------


def canal_end(position):
    pos = (
        position(3, game="brass")
        .tile("bolton/1", 0, "coal_mine", 1, cubes=0)
        .tile("wigan/1", 1, "coal_mine", 1, cubes=2)
        .tile("manchester/1", 1, "cotton_mill", 1, flipped=True)
        .tile("manchester/2", 2, "coal_mine", 2)
        .tile("preston/3", 0, "port", 2, flipped=True)
        .link("bolton-manchester", 0)
        .link("manchester-stockport", 1)
        .link("preston-wigan", 2)
        .set(coal_market=4, dcm={"marker": 8, "pile": [4, 3, 3, 2, 2, 2, 2, 1, 1, 0, 0, 3], "discards": []})
    )
    return pos.end_of_era()


def test_C16_canal_end_removes_links_and_level_1_tiles(position, h):
    """C-16: after Canal scoring every link and every level-1 tile (with its cubes) leaves the board."""
    state = h.do(canal_end(position).state(), "pass")
    obj = h.obj(state)
    assert state.era == "rail" and obj["links"] == {}
    assert [state.player(p).links_left for p in range(3)] == [14, 14, 14]
    assert set(obj["board"]) == {"manchester/2", "preston/3"}
    assert obj["board"]["manchester/2"]["cubes"] == 3 and obj["coal_market"] == 4  # cubes not to the market


def test_C16_dcm_reset_and_rail_era_starts_with_two_actions(position, h):
    """C-16: the DCM marker returns to the top with all tiles reshuffled; each Rail turn has 2 actions."""
    state = h.do(canal_end(position).state(), "pass")
    obj = h.obj(state)
    assert obj["dcm"]["marker"] == 0 and sorted(obj["dcm"]["pile"]) == DCM_FULL and obj["dcm"]["discards"] == []
    assert (state.era, state.round, state.decision, state.actions_left) == ("rail", 1, "action", 2)
    player = state.current_player
    h.do(state, "pass")
    if state.decision == "card":
        state.apply(state.legal_actions()[0])
    assert (state.decision, state.current_player, state.actions_left) == ("action", player, 1)
