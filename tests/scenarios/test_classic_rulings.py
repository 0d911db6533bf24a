"""Classic Brass rules where both engines once shared a misreading (docs/classic.md): the first build of the game
(C-6, R-14), the end a rail's coal goes to (C-14, R-15) and the first round's turn order (C-17, R-16). Each test
states the rule from the rulebooks and runs on both engines; Lancashire keeps its own rule in each case."""

import json

import pytest


def coal_builds(names):
    return [n for n in names if n.startswith("build coal_mine")]


# --- C-6, R-14: the industry card's "anywhere" is for the first industry build of the game -------------------


def rail_hand(position, game="brass", built=None):
    """Rail Era, player 0 with nothing on the board, a coal mine card and a level-2 mine on top of the stack."""
    pos = position(3, game=game, era="rail").hand(0, "coal_mine").lowest(0, "coal_mine", 2)
    if built is not None:
        pos.player(0, built_industry=built)
    return pos


def test_C6_R14_a_player_who_never_built_may_build_anywhere_with_an_industry_card(position, h):
    state = rail_hand(position, built=False).state()
    assert "build coal_mine bolton/1" in h.names(state) and "build coal_mine wigan/1" in h.names(state)


def test_C6_R14_nothing_on_the_board_after_the_canal_era_is_not_a_first_build(position, h, engine):
    """Seed 003: "swojego pierwszego przedsiębiorstwa w grze" — the player's first enterprise *of the game*."""
    state = rail_hand(position, built=True).state()
    assert coal_builds(h.names(state)) == []
    with pytest.raises(engine.IllegalActionError):
        state.apply("build coal_mine wigan/1")


def test_L22_lancashire_keeps_nothing_on_the_board_for_contrast(position, h):
    state = rail_hand(position, game="lancashire").state()
    assert "built_industry" not in h.obj(state)["players"][0]
    assert "build coal_mine bolton/1" in h.names(state)


def test_C6_R14_a_build_records_it_a_develop_does_not(position, h):
    state = position(3, game="brass").hand(0, "coal_mine", "cotton_mill").player(0, built_industry=False).state()
    h.do(state, "develop cotton_mill", "stop", "card cotton_mill")
    assert h.obj(state)["players"][0]["built_industry"] is False
    h.do(state, "build coal_mine wigan/1")
    assert h.obj(state)["players"][0]["built_industry"] is True


def test_C6_R14_the_end_of_the_canal_era_keeps_it(position, h):
    """Player 0's only tile is level 1: the end of the Canal Era removes it (C-16), the fact stays."""
    pos = position(3, game="brass").tile("wigan/1", 0, "coal_mine", 1)
    state = h.do(pos.end_of_era().state(), "pass")
    after = h.obj(state)
    assert after["era"] == "rail" and not any(t["owner"] == 0 for t in after["board"].values())
    assert after["players"][0]["built_industry"] is True


def test_C6_R14_state_json_key_default_and_invariant(position, h, engine):
    """docs/state-format.md: `built_industry` is written in classic Brass states only; a state written without it
    (before it existed) reads it as "has a tile on the board"; false beside an own tile is refused."""
    obj = json.loads(position(3, game="brass").tile("wigan/1", 1, "coal_mine", 2).state().to_json())
    for p in obj["players"]:
        del p["built_industry"]
    loaded = h.obj(engine.State.from_json(json.dumps(obj)))
    assert [p["built_industry"] for p in loaded["players"]] == [False, True, False]
    obj["players"][1]["built_industry"] = False
    with pytest.raises(engine.InvalidStateError, match="built_industry"):
        engine.State.from_json(json.dumps(obj))
    lanc = json.loads(position(3).state().to_json())
    lanc["players"][0]["built_industry"] = False
    with pytest.raises(engine.InvalidStateError, match="built_industry"):
        engine.State.from_json(json.dumps(lanc))


# --- C-14, R-15: the player chooses the end that receives a rail's coal ---------------------------------------


def rail_coal(position, game):
    """Player 0 owns the Wigan mine; player 1 a Manchester mine one link (Bolton-Manchester) from Bolton. A rail
    Wigan-Bolton: to Wigan the Wigan mine is closest (0 links); to Bolton both mines are 1 link away."""
    return (
        position(3, game=game, era="rail")
        .hand(0, "bolton")
        .tile("wigan/1", 0, "coal_mine", 2)
        .tile("manchester/1", 1, "coal_mine", 2)
        .link("bolton-manchester", 1)
    )


def test_C14_R15_classic_rail_coal_from_the_source_closest_to_the_chosen_end(position, h):
    """Seed 000: "Tu decizi pe care dintre locatii doresti sa aduci carbunele" (you decide which of the two
    locations receives the coal): bringing it to Bolton makes the Manchester mine a closest source."""
    state = h.do(rail_coal(position, "brass").state(), "link wigan-bolton")
    assert state.decision == "coal" and h.names(state) == ["coal manchester/1", "coal wigan/1"]
    h.do(state, "coal manchester/1")
    board = h.obj(state)["board"]
    assert board["manchester/1"]["cubes"] == 2 and board["wigan/1"]["cubes"] == 3


def test_L36_R15_lancashire_measures_from_both_ends_together(position, h):
    state = h.do(rail_coal(position, "lancashire").state(), "link wigan-bolton")
    assert state.decision != "coal"
    board = h.obj(state)["board"]
    assert board["wigan/1"]["cubes"] == 2 and board["manchester/1"]["cubes"] == 3


def test_C14_R15_one_source_for_either_end_asks_nothing(position, h):
    pos = position(3, game="brass", era="rail").hand(0, "bolton").tile("wigan/1", 0, "coal_mine", 2)
    state = h.do(pos.state(), "link wigan-bolton")
    assert state.decision != "coal" and h.obj(state)["board"]["wigan/1"]["cubes"] == 2


def test_C14_R15_second_rail_coal_also_goes_to_a_chosen_end(position, h):
    """The second rail of one action needs its own coal, again to the end the player chooses (C-14)."""
    pos = rail_coal(position, "brass").tile("bury/1", 2, "coal_mine", 2).hand(0, "bolton", "bolton")
    state = h.do(pos.state(), "link wigan-bolton", "coal wigan/1")
    assert state.decision == "link" and "link bolton-bury" in h.names(state)
    # Bolton-Bury: to Bolton the Wigan mine (1 link), Manchester (1 link) and Bury (1 link) tie; to Bury its own.
    h.do(state, "link bolton-bury")
    assert state.decision == "coal"
    assert h.names(state) == ["coal bury/1", "coal manchester/1", "coal wigan/1"]


# --- C-17, R-16: a random start player, then clockwise -------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_C17_R16_classic_first_round_order_is_a_rotation_of_the_seats(engine, players):
    """Seeds 000 and 003: a random start player, then clockwise ("in sensul acelor de ceasornic")."""
    game = engine.Game("brass", players=players)
    firsts = set()
    for seed in range(60):
        order = game.new_state(seed).turn_order
        assert order == [(order[0] + i) % players for i in range(players)], seed
        firsts.add(order[0])
    assert firsts == set(range(players))


def test_L6_R16_lancashire_first_order_is_a_random_order(engine):
    game = engine.Game("lancashire", players=4)
    orders = {tuple(game.new_state(seed).turn_order) for seed in range(60)}
    assert any(o != tuple((o[0] + i) % 4 for i in range(4)) for o in orders)
