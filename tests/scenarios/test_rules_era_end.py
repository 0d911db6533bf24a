"""End of era and of the game: L-3, L-49 … L-53, R-4, R-5 (hand-built positions, public API only)."""

import pytest

DCM_4P = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]


def canal_end(position):
    return (
        position()
        .tile("bolton/1", 0, "coal_mine", 1, cubes=0)
        .tile("manchester/1", 1, "cotton_mill", 1, flipped=True)
        .tile("manchester/2", 2, "coal_mine", 2)
        .tile("preston/3", 3, "port", 2, flipped=True)
        .link("bolton-manchester", 0)
        .link("manchester-stockport", 1)
        .link("northwich-the_midlands", 2)
        .link("preston-fleetwood", 3)
        .end_of_era()
    )


def test_L49_L50_link_and_tile_scoring(position, h):
    state = h.do(canal_end(position).state(), "pass")
    # links: bolton-manchester 1+1, manchester-stockport 1+0, northwich-the_midlands 2+2, preston-fleetwood 1+0
    # tiles: bolton coal mine L1 1 VP, cotton mill L1 5 VP, the unflipped mine scores nothing, port L2 4 VP
    assert state.scores == [2 + 1, 1 + 5, 4, 1 + 4]


def test_L49_links_removed_and_returned(position, h):
    state = h.do(canal_end(position).state(), "pass")
    assert h.obj(state)["links"] == {}
    assert [state.player(p).links_left for p in range(4)] == [14, 14, 14, 14]


def test_L51_canal_era_level_1_removal(position, h):
    state = h.do(canal_end(position).state(), "pass")
    board = h.obj(state)["board"]
    assert set(board) == {"manchester/2", "preston/3"}
    assert board["manchester/2"]["cubes"] == 3 and board["preston/3"]["flipped"]


def test_L51_rail_era_setup(position, h):
    pos = canal_end(position).set(dcm={"marker": 8, "pile": DCM_4P[:5], "discards": DCM_4P[5:]})
    for p, spent in enumerate([3, 0, 9, 0]):
        pos.player(p, money_spent=spent)
    state = h.do(pos.state(), "pass")
    obj = h.obj(state)
    assert (state.era, state.round, state.actions_left, state.decision) == ("rail", 1, 2, "action")
    assert state.turn_order == [1, 3, 0, 2]  # recomputed at the end of the last Canal round
    assert obj["dcm"]["marker"] == 0 and obj["dcm"]["discards"] == [] and sorted(obj["dcm"]["pile"]) == DCM_4P
    assert obj["deck_tile"] == {}
    for p in range(4):
        assert len(state.player(p).hand) == 8 and state.player(p).discards == []
    assert state.deck_size == 64 - 32  # L-3, L-51: the deck-tile cards are back in play


def test_L3_deck_tile_cards_join_the_rail_deck(position, h):
    pos = canal_end(position)
    pos.set_cards({3: ["manchester"]}, deck=[], deck_tile=["colne", "colne", "burnley", "burnley"])
    state = h.do(pos.state(), "pass")
    cards = [c for p in range(4) for c in state.player(p).hand] + h.obj(state)["deck"]
    assert len(cards) == 64 and cards.count("colne") == 2 and cards.count("burnley") == 2


def test_R5_last_canal_round_income_and_shortfall_before_scoring(position, h):
    pos = canal_end(position).player(1, income_space=5, money=0)  # owes £5 with one tile (mill, worth 6)
    pos.player(0, income_space=15)
    state = h.do(pos.state(), "pass")
    # the removed mill scores nothing, and no longer counts as a link icon for manchester-stockport
    assert state.player(1).money == 1 and state.scores[1] == 0
    assert state.scores[0] == 1 + 1  # bolton-manchester: only bolton's flipped mine; + its 1 VP
    assert state.player(0).money == 33


def rail_end(position):
    pos = (
        position(era="rail")
        .tile("manchester/1", 0, "cotton_mill", 3, flipped=True)
        .tile("bolton/1", 1, "cotton_mill", 2)
        .link("bolton-manchester", 1)
        .end_of_era()
    )
    pos.player(0, money=47, income_space=30, money_spent=20).player(1, money=9)
    return pos


def test_L52_cash_vp_and_no_income_after_the_last_round(position, h):
    state = h.do(rail_end(position).state(), "pass")
    assert state.is_terminal and state.current_player is None and state.legal_actions() == []
    assert state.player(0).money == 47 and state.player(1).money == 9
    assert state.scores == [9 + 4, 1 + 0, 3, 3]
    assert state.winners == [0]


def test_L11_turn_order_recomputed_after_the_last_round(position, h):
    state = h.do(rail_end(position).state(), "pass")
    assert state.turn_order == [1, 2, 3, 0]


def over(position, **players):
    pos = position(era="rail", round=8).set_cards({}).set(decision="over", turn=4, actions_left=0)
    for p, fields in players.items():
        pos.player(int(p[1:]), **fields)
    return pos.state()


def test_L53_most_vp_wins(position):
    state = over(position, p0={"vp": 50}, p1={"vp": 51, "income_space": 0})
    assert state.winners == [1] and state.scores[:2] == [50, 51]


def test_L53_tie_broken_by_income_level(position):
    state = over(position, p0={"vp": 50, "income_space": 18, "money": 90}, p1={"vp": 50, "income_space": 19})
    assert state.winners == [1]


def test_L53_R4_the_track_space_is_not_a_tie_break_money_is(position):
    """R-4's example (seed 004: income level, then money, then a shared win): 102 VP and income level 10 each;
    space 30 with £20 against space 29 with £29: the player with £29 wins alone."""
    state = over(
        position, p0={"vp": 102, "income_space": 30, "money": 20}, p1={"vp": 102, "income_space": 29, "money": 29}
    )
    assert state.player(0).income_level == state.player(1).income_level == 10
    assert state.winners == [1]


def test_L53_R4_same_level_and_money_on_different_spaces_share_the_win(position):
    state = over(position, p0={"vp": 50, "income_space": 20, "money": 9}, p2={"vp": 50, "income_space": 19, "money": 9})
    assert state.player(0).income_level == state.player(2).income_level
    assert state.winners == [0, 2]


def test_L53_then_by_money(position):
    state = over(position, p0={"vp": 50, "income_space": 20, "money": 8}, p2={"vp": 50, "income_space": 20, "money": 9})
    assert state.winners == [2]


def test_L53_still_tied_shares_the_win(position):
    state = over(position, p1={"vp": 7}, p3={"vp": 7})
    assert state.winners == [1, 3]
    # docs/api.md "Returns": k = 2 of n = 4 share the win: (4/2 - 1)/3 = 1/3 each, -1/3 for the others.
    assert state.returns == pytest.approx([-1 / 3, 1 / 3, -1 / 3, 1 / 3])


def test_L53_a_win_shared_by_everyone_returns_zero_each(position):
    state = over(position, p0={"vp": 7}, p1={"vp": 7}, p2={"vp": 7}, p3={"vp": 7})
    assert state.winners == [0, 1, 2, 3] and state.returns == [0.0] * 4


def test_L53_no_winner_before_the_end(position):
    assert position().state().winners == []


def test_R5_shortfall_choice_at_the_end_of_the_canal_era(position, h):
    pos = canal_end(position).player(2, income_space=5, money=0).tile("colne/1", 2, "cotton_mill", 2, flipped=True)
    state = h.do(pos.state(), "pass")
    assert (state.era, state.decision, state.current_player) == ("canal", "remove", 2)
    assert h.names(state) == ["remove colne/1", "remove manchester/2"]
    h.do(state, "remove manchester/2")  # coal mine L2 worth 3: still owes 2, so the mill goes too
    assert state.era == "rail" and state.player(2).money == -5 + 3 + 7
    assert state.scores[2] == 4  # only the Northwich-Midlands link; the mill was sold before scoring
