"""Shared adapter definitions: configurations, rewards, opponents."""

from __future__ import annotations

import numpy as np
import pytest

import brass
import brass.env as benv
from brass.env import _common


def finished(players: int, seed: int) -> brass.State:
    state = brass.Game("lancashire", players=players).new_state(seed)
    policy = benv.RandomPolicy(seed)
    while not state.is_terminal:
        state.apply(policy(state))
    return state


def test_configurations_are_discovered_from_the_engine():
    configs = benv.configurations()
    assert configs["lancashire"] == (2, 3, 4)
    for name, counts in configs.items():
        for n in counts:
            assert brass.Game(name, players=n).players == n


def test_check_config_names_what_is_allowed():
    with pytest.raises(brass.ConfigError, match="lancashire"):
        _common.check_config("nope", 2)
    with pytest.raises(brass.ConfigError, match="2, 3 or 4 players"):
        _common.check_config("lancashire", 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_rewards_are_zero_sum_and_follow_the_winners(players):
    for seed in range(3):
        state = finished(players, seed)
        rewards = benv.win_rewards(state)
        low, high = benv.reward_range(players)
        assert len(rewards) == players
        assert abs(sum(rewards)) < 1e-12
        assert all(low - 1e-12 <= r <= high + 1e-12 for r in rewards)
        winners = state.winners
        assert {p for p in range(players) if rewards[p] == max(rewards)} == set(winners)
        if len(winners) == 1:
            assert rewards[winners[0]] == 1.0
            assert all(rewards[p] == pytest.approx(-1 / (players - 1)) for p in range(players) if p not in winners)


def test_random_policy_is_seeded_and_legal():
    state = brass.Game("lancashire", players=3).new_state(1)
    a = [benv.RandomPolicy(9)(state) for _ in range(3)]
    b = [benv.RandomPolicy(9)(state) for _ in range(3)]
    assert a == b
    assert all(x in state.legal_actions() for x in a)
    assert callable(benv.default_opponent(0))


def test_as_policy_drives_objects_with_choose():
    class Agent:  # the shape of a native agent: choose(state, seed=...)
        def __init__(self):
            self.seeds = []

        def choose(self, state, seed):
            self.seeds.append(seed)
            return state.legal_actions()[0]

    agent = Agent()
    policy = benv.as_policy(agent, 5)
    state = brass.Game("lancashire", players=2).new_state(1)
    assert policy(state) == state.legal_actions()[0]
    assert policy(state) == state.legal_actions()[0]
    assert len(set(agent.seeds)) == 2
    with pytest.raises(TypeError):
        benv.as_policy(42, 0)


def test_opponents_by_seat_forms():
    p = benv.RandomPolicy(0)
    assert _common.opponents_by_seat(None, 3) == {}
    assert _common.opponents_by_seat(p, 3) == {0: p, 1: p, 2: p}
    assert _common.opponents_by_seat([None, p, None], 3) == {1: p}
    assert _common.opponents_by_seat({2: p}, 3) == {2: p}
    with pytest.raises(ValueError):
        _common.opponents_by_seat([p, p], 3)
    with pytest.raises(ValueError):
        _common.opponents_by_seat({3: p}, 3)
    with pytest.raises(TypeError):
        _common.opponents_by_seat({1: "greedy"}, 3)


def test_observations_stay_inside_the_declared_bounds():
    for players in (2, 4):
        state = brass.Game("lancashire", players=players).new_state(3)
        policy = benv.RandomPolicy(3)
        while True:
            for p in range(players):
                obs = state.observation(p)
                assert obs.dtype == np.float32
                assert obs.min() >= _common.OBS_LOW and obs.max() <= _common.OBS_HIGH
            if state.is_terminal:
                break
            state.apply(policy(state))


def test_render_text_mentions_every_player():
    state = finished(2, 0)
    text = _common.render_text(state)
    assert "player 0" in text and "player 1" in text and "winners" in text


def test_win_rewards_from_flags():
    flags = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 0, 0]])
    expected = np.array(
        [[1, -1 / 3, -1 / 3, -1 / 3], [1 / 3, 1 / 3, -1 / 3, -1 / 3], [0, 0, 0, 0], [-1 / 3, 1, -1 / 3, -1 / 3]]
    )
    np.testing.assert_allclose(_common.win_rewards_from_flags(flags), expected)
    np.testing.assert_allclose(_common.win_rewards_from_flags([[0, 1]]), [[-1, 1]])
