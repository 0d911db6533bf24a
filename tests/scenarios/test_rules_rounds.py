"""Turns and rounds: L-6 … L-12, shortfall (hand-built positions, public API only)."""

import pytest


def test_L8_first_canal_round_has_one_action_per_turn(engine, h):
    state = engine.Game("lancashire", players=3).new_state(5)
    order = state.turn_order
    for p in order:
        assert state.current_player == p and state.actions_left == 1
        h.do(state, "pass")
        while state.decision == "card":
            state.apply(state.legal_actions()[0])
    assert state.round == 2 and state.actions_left == 2


def test_L8_pass_discards_a_chosen_card(position, h):
    state = h.do(position().hand(0, "bolton", "wigan").state(), "pass")
    assert state.decision == "card" and h.names(state) == ["card bolton", "card wigan"]
    h.do(state, "card wigan")
    assert state.player(0).hand == ["bolton"] and state.actions_left == 1


def test_L9_refill_to_8_after_the_turn(position, h):
    hand = ["bolton", "bolton", "bury", "wigan", "wigan", "oldham", "oldham", "preston"]
    pos = position().set_cards({0: hand}, deck=["colne", "manchester", "rochdale"])
    state = h.do(pos.state(), "pass", "card bury", "pass", "card preston")
    assert len(state.player(0).hand) == 8 and "colne" in state.player(0).hand
    assert "manchester" in state.player(0).hand and state.deck_size == 1
    assert state.current_player == 1


def test_L3_L9_deck_tile_cards_are_not_drawn_in_the_canal_era(position, h):
    pos = position().set_cards(
        {0: ["bolton", "wigan"]}, deck=["colne"], deck_tile=["bury", "oldham", "port", "stockport"]
    )
    state = h.do(pos.state(), "pass", "card bolton", "pass")
    assert state.player(0).hand == ["colne"] and state.deck_size == 0
    assert h.obj(state)["deck_tile"] == {"bury": 1, "oldham": 1, "port": 1, "stockport": 1}


def test_L11_turn_order_by_money_spent_and_income(position, h):
    pos = position().last_action_of_round()
    for p, spent in enumerate([10, 0, 5, 0]):
        pos.player(p, money_spent=spent)
    pos.player(1, income_space=15)  # level 3
    pos.player(2, income_space=7)  # level -3
    pos.set_cards({3: ["bolton"], 0: ["wigan"]})
    state = h.do(pos.state(), "pass")
    assert state.turn_order == [1, 3, 2, 0]  # ties (1, 3) keep their order
    assert [state.player(p).money_spent for p in range(4)] == [0, 0, 0, 0]
    assert [state.player(p).money for p in range(4)] == [30, 33, 27, 30]
    assert (state.round, state.current_player, state.actions_left) == (3, 1, 2)


def shortfall(position, money=2, tiles=True):
    pos = position().last_action_of_round().set_cards({3: ["bolton"], 0: ["wigan"]})
    pos.player(2, income_space=5, money=money)  # income level -5
    if tiles:
        pos.tile("bolton/1", 2, "cotton_mill", 1, flipped=True).tile("preston/3", 2, "port", 1)
    return pos


def test_L11_shortfall_with_tile_removal_choice(position, h):
    state = h.do(shortfall(position).state(), "pass")
    assert state.decision == "remove" and state.current_player == 2
    assert h.names(state) == ["remove bolton/1", "remove preston/3"]
    assert state.player(2).money == -3
    h.do(state, "remove preston/3")  # worth floor(6 / 2) = 3: the debt is covered
    assert state.player(2).money == 0 and "preston/3" not in h.obj(state)["board"]
    assert "bolton/1" in h.obj(state)["board"]
    assert (state.decision, state.round, state.current_player) == ("action", 3, 0)


def test_L11_shortfall_stops_when_covered_and_keeps_the_excess(position, h):
    state = h.do(shortfall(position, money=0).state(), "pass", "remove bolton/1")
    assert state.player(2).money == 1 and "preston/3" in h.obj(state)["board"]


def test_L11_shortfall_last_tile_removed_without_asking(position, h):
    state = h.do(shortfall(position, money=0).state(), "pass", "remove preston/3")
    assert state.decision == "action"
    assert state.player(2).money == -5 + 3 + 6 and h.obj(state)["board"] == {}


def test_L11_shortfall_vp_loss_when_no_tile_left(position, h):
    pos = shortfall(position, money=1, tiles=False).player(2, vp=10)
    state = h.do(pos.state(), "pass")
    assert state.player(2).vp == 6 and state.player(2).money == 0 and state.decision == "action"
    pos.player(2, vp=3)
    state = h.do(pos.state(), "pass")
    assert state.player(2).vp == 0 and state.player(2).money == 0  # never below 0


def test_L11_shortfall_one_tile_then_vp(position, h):
    pos = shortfall(position, money=0, tiles=False).tile("preston/3", 2, "port", 1).player(2, vp=5)
    state = h.do(pos.state(), "pass")
    assert state.player(2).money == 0 and state.player(2).vp == 3 and h.obj(state)["board"] == {}


def test_L11_shortfalls_are_settled_in_turn_order(position, h):
    pos = shortfall(position).player(1, income_space=5, money=0)
    pos.tile("wigan/1", 1, "coal_mine", 2).tile("colne/1", 1, "cotton_mill", 1)
    for p, spent in enumerate([0, 7, 3, 0]):
        pos.player(p, money_spent=spent)
    state = h.do(pos.state(), "pass")
    assert state.turn_order == [0, 3, 2, 1]
    assert state.current_player == 2 and h.names(state) == ["remove bolton/1", "remove preston/3"]
    h.do(state, "remove bolton/1")
    assert state.current_player == 1 and h.names(state) == ["remove colne/1", "remove wigan/1"]
    h.do(state, "remove wigan/1")  # floor(7 / 2) = 3 < 5: colne's mill goes too
    assert state.player(1).money == -5 + 3 + 6 and state.decision == "action"


def test_L11_illegal_remove_changes_nothing(engine, position, h):
    state = h.do(shortfall(position).state(), "pass")
    before = state.to_json()
    for bad in ("remove wigan/1", "pass", "stop"):
        with pytest.raises(engine.IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before
