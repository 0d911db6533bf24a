"""PettingZoo adapter: PettingZoo's own api_test and seed_test, plus the adapter's promises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import brass
import brass.env as benv
from brass.env import pettingzoo as bpz

#: api_test warnings that would point at a real problem (the two it always prints for Dict observations
#: outside PettingZoo's own list, "Observation is not a NumPy array" and "... should be
#: gymnasium.spaces.box", are expected).
BAD_WARNINGS = ("NaN", "infinity", "all zeros", "not boolean", "different", "Action space", "not a numeric")


def run_quietly(check, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    bad = [str(w.message) for w in caught if any(s in str(w.message) for s in BAD_WARNINGS)]
    assert not bad, bad


@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_test(players):
    run_quietly(api_test, bpz.env(game="lancashire", players=players), num_cycles=1000)


def test_api_test_unwrapped():
    run_quietly(api_test, bpz.raw_env(game="lancashire", players=3), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed_test(players):
    run_quietly(seed_test, lambda: bpz.env(game="lancashire", players=players), num_cycles=500)


def test_agents_and_spaces():
    env = bpz.env(players=4)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    game = brass.Game("lancashire", players=4)
    for agent in env.possible_agents:
        assert env.action_space(agent).n == game.num_actions
        space = env.observation_space(agent)
        assert space["observation"].shape == (game.observation_size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (game.num_actions,)
        assert space["action_mask"].dtype == np.int8
    assert str(env.unwrapped) == "brass_lancashire_4p_v0"


def test_reset_seed_deals_that_engine_seed_and_masks_only_the_mover():
    env = bpz.raw_env(players=3)
    env.reset(seed=12345)
    state = brass.Game("lancashire", players=3).new_state(12345)
    assert env.brass_state == state
    assert env.agent_selection == f"player_{state.current_player}"
    for agent in env.agents:
        obs = env.observe(agent)
        seat = int(agent.split("_")[1])
        np.testing.assert_array_equal(obs["observation"], state.observation(seat))
        if seat == state.current_player:
            np.testing.assert_array_equal(obs["action_mask"], state.legal_action_mask().astype(np.int8))
        else:
            assert not obs["action_mask"].any()
    env.reset()  # unseeded resets continue from the seeded generator: reproducible too
    first = env.brass_state
    env.reset(seed=12345)
    env.reset()
    assert env.brass_state == first


@pytest.mark.parametrize("players", [2, 4])
def test_a_full_game_ends_with_zero_sum_win_rewards(players):
    env = bpz.env(players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            finals[agent] = info
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
        env.step(action)
    state = env.unwrapped.brass_state
    assert state.is_terminal
    expected = benv.win_rewards(state)
    assert [returns[a] for a in env.possible_agents] == pytest.approx(expected)
    assert set(finals) == set(env.possible_agents)
    assert all(i == {"scores": state.scores, "winners": state.winners} for i in finals.values())
    assert env.agents == []


def test_illegal_action_ends_the_wrapped_game_and_raises_unwrapped():
    env = bpz.env(players=2)
    env.reset(seed=0)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0

    raw = bpz.raw_env(players=2)
    raw.reset(seed=0)
    before = raw.brass_state.clone()
    with pytest.raises(brass.IllegalActionError):
        raw.step(illegal)
    assert raw.brass_state == before


def test_render_ansi():
    env = bpz.env(players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "player 1" in env.render()
    with pytest.raises(brass.ConfigError):
        bpz.env(players=7)


# Classic Brass and the Lancashire options (docs/classic.md) through the same adapter.
OTHER_CONFIGS = [
    ("brass", 3, {}),
    ("brass", 4, {}),
    ("lancashire", 2, {"intro": True}),
    ("lancashire", 4, {"classic_deck": True, "virtual_link": True}),
]


@pytest.mark.parametrize("game,players,options", OTHER_CONFIGS)
def test_api_test_classic_brass_and_options(game, players, options):
    run_quietly(api_test, bpz.env(game=game, players=players, **options), num_cycles=1000)


def test_options_reach_the_engine_and_name_the_environment():
    env = bpz.raw_env(game="lancashire", players=3, virtual_link=True, intro=True)
    env.reset(seed=5)
    assert env.brass_state == brass.Game("lancashire", players=3, intro=True, virtual_link=True).new_state(5)
    assert env.metadata["name"] == "brass_lancashire_3p_intro_virtual_link_v0"
    with pytest.raises(brass.ConfigError):
        bpz.env(game="brass", players=3, intro=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_test_birmingham(players):
    run_quietly(api_test, bpz.env(game="birmingham", players=players), num_cycles=1000)


def test_seed_test_birmingham():
    run_quietly(seed_test, lambda: bpz.env(game="birmingham", players=3), num_cycles=500)


def test_a_negative_seed_is_a_brass_error_not_numpy_s():
    """Issue 21, item 9: reset(seed=-1) says what a seed is, as the engine does."""
    env = bpz.env(game="lancashire", players=2)
    with pytest.raises(brass.ConfigError, match=r"seed must be an int with 0 <= seed < 2\*\*64, not -1"):
        env.reset(seed=-1)
