"""Loans: L-45, L-46 (hand-built positions, public API only)."""

import pytest


def loans(state, h):
    return [n for n in h.names(state) if n.startswith("loan")]


def test_L45_loan_at_minus_8_for_30_refused(engine, position, h):
    state = position().player(0, income_space=2).state()  # level -8
    assert state.player(0).income_level == -8
    assert loans(state, h) == ["loan 10", "loan 20"]
    before = state.to_json()
    with pytest.raises(engine.IllegalActionError):
        state.apply("loan 30")
    assert state.to_json() == before


def test_L45_loan_moves_back_whole_levels_to_the_highest_space(position, h):
    state = h.do(position().player(0, income_space=20).state(), "loan 30")  # level 5 -> 2
    assert state.player(0).income_space == 14 and state.player(0).income_level == 2
    assert state.player(0).money == 60 and state.player(0).money_spent == 0  # L-10: not spending
    state = h.do(position().player(0, income_space=2).state(), "loan 20")
    assert state.player(0).income_space == 0 and state.player(0).income_level == -10
    state = h.do(position().state(), "loan 10")
    assert state.player(0).income_space == 9


@pytest.mark.parametrize("players, last_loan_round", [(2, 6), (3, 5), (4, 4)])
def test_L46_no_loans_in_the_last_four_rail_rounds(position, h, players, last_loan_round):
    assert loans(position(players, era="rail", round=last_loan_round).state(), h) == ["loan 10", "loan 20", "loan 30"]
    assert loans(position(players, era="rail", round=last_loan_round + 1).state(), h) == []
    # the Canal Era has no such limit
    assert loans(position(players, era="canal", round=last_loan_round + 3).state(), h) != []
