"""docs/api.md on both engines: properties and methods, returns, child, the text board, argument errors."""

from __future__ import annotations

import random

import pytest

FACTS = [
    "is_terminal",
    "scores",
    "winners",
    "returns",
    "history",
    "era",
    "round",
    "decision",
    "current_player",
    "turn_order",
    "actions_left",
    "deck_size",
    "board",
    "links",
    "coal_market",
    "iron_market",
]
WORK = ["legal_actions", "legal_action_mask", "apply", "child", "clone", "to_json", "record", "player"]


def finished(engine, players: int, seed: int):
    state = engine.Game("lancashire", players=players).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_facts_are_properties_and_work_is_methods(engine):
    state = engine.Game("lancashire", players=3).new_state(seed=2)
    for name in FACTS:
        assert not callable(getattr(state, name)), name
    for name in WORK:
        assert callable(getattr(state, name)), name
    assert not callable(state.game.num_actions)


def test_using_a_property_as_a_method_fails_loudly(engine):
    state = engine.Game("lancashire", players=2).new_state(seed=1)
    with pytest.raises(TypeError, match="not callable"):
        state.is_terminal()
    with pytest.raises(TypeError, match="not callable"):
        state.scores()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_are_zero_sum_and_follow_the_winners(engine, players):
    for seed in range(6):
        state = finished(engine, players, seed)
        returns, winners = state.returns, state.winners
        assert sum(returns) == pytest.approx(0.0)
        k = len(winners)
        for p in range(players):
            expected = (players / k - 1) / (players - 1) if p in winners else -1 / (players - 1)
            assert returns[p] == pytest.approx(expected)


def test_returns_before_the_end_are_zero(engine):
    state = engine.Game("lancashire", players=4).new_state(seed=3)
    assert state.returns == [0.0] * 4 and state.winners == []


def test_child_applies_without_changing_the_parent(engine):
    state = engine.Game("lancashire", players=3).new_state(seed=5)
    before = state.to_json()
    action = state.legal_actions()[0]
    child = state.child(action)
    assert state.to_json() == before and state.history == []
    twin = state.clone()
    twin.apply(action)
    assert child == twin and child.history == [action]
    notation = state.game.action_name(state.legal_actions()[-1])
    assert state.child(notation).history == [state.legal_actions()[-1]]
    with pytest.raises(engine.IllegalActionError):
        state.child(state.game.num_actions)
    assert state.to_json() == before


def test_str_is_a_compact_text_board(engine):
    state = engine.Game("lancashire", players=3).new_state(seed=7)
    text = str(state)
    assert text.startswith("lancashire, 3 players · canal era, round 1 of 9 · player ")
    assert "tiles: none" in text and "links: none" in text
    rng = random.Random(1)
    while not state.board or not state.links:
        state.apply(rng.choice(state.legal_actions()))
    text = str(state)
    for space in state.board:
        assert space in text
    for line in state.links:
        assert line in text
    for p in range(3):
        assert f"£{state.player(p).money}" in text
    over = finished(engine, 2, 4)
    assert "game over" in str(over) and str(over).count("\n") >= 4


def test_ranges_in_messages_read_the_python_way(engine):
    game = engine.Game("lancashire", players=4)
    state = game.new_state(seed=1)
    last = game.num_actions - 1
    with pytest.raises(
        engine.IllegalActionError, match=f"action id {last + 1} is out of range: ids go from 0 to {last}"
    ):
        state.apply(last + 1)
    with pytest.raises(engine.IllegalActionError, match=f"action id {2**70} is out of range"):
        state.apply(2**70)
    with pytest.raises(engine.IllegalActionError, match="action id -1 is out of range"):
        game.action_name(-1)
    with pytest.raises(engine.PlayerIndexError, match="player 4 does not exist: players go from 0 to 3"):
        state.player(4)
    with pytest.raises(engine.ArgumentTypeError):
        state.player("0")
