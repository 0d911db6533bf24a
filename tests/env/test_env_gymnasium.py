"""Gymnasium adapter: Gymnasium's own check_env, plus the adapter's promises."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import brass
import brass.env as benv
import brass.svg
from brass.env.gymnasium import BrassEnv, register_envs


def check_without_warnings(env):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert not [str(w.message) for w in caught]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_env_registered(players):
    env = gymnasium.make(f"brass/lancashire-{players}p-v0")
    check_without_warnings(env.unwrapped)


def test_check_env_random_seat_and_render_mode():
    env = gymnasium.make("brass/lancashire-3p-v0", seat=None, render_mode="ansi")
    check_without_warnings(env.unwrapped)


def test_registration_is_data_driven_and_idempotent():
    ids = register_envs()
    assert ids == register_envs()
    assert {f"brass/{g}-{n}p-v0" for g, counts in benv.configurations().items() for n in counts} == set(ids)


def play(env, seed, policy=None):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trajectory = []
    while True:
        assert obs in env.observation_space
        np.testing.assert_array_equal(info["action_mask"], env.action_masks().astype(np.int8))
        legal = np.flatnonzero(info["action_mask"])
        action = int(rng.choice(legal)) if policy is None else policy(env)
        obs, reward, terminated, truncated, info = env.step(action)
        trajectory.append((action, reward))
        assert not truncated
        if terminated:
            return trajectory, reward, info


@pytest.mark.parametrize("players", [2, 4])
def test_masked_episode_rewards_the_learners_win_share(players):
    env = BrassEnv(players=players, seat=1)
    trajectory, reward, info = play(env, seed=5)
    state = env.brass_state
    assert state.is_terminal
    assert all(r == 0.0 for _, r in trajectory[:-1])
    assert reward == benv.win_rewards(state)[1]
    assert info["scores"] == state.scores and info["winners"] == state.winners
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_episodes_are_reproducible_and_deal_the_seed():
    a, b = BrassEnv(players=3, seat=None), BrassEnv(players=3, seat=None)
    ta, ra, ia = play(a, seed=11)
    tb, rb, ib = play(b, seed=11)
    assert ta == tb and ra == rb and ia["seat"] == ib["seat"]
    replayed = brass.Game("lancashire", players=3).new_state(11)
    for action in a.brass_state.history:
        replayed.apply(action)
    assert replayed == a.brass_state


def test_opponents_are_pluggable_per_seat():
    calls = []

    def first_legal(state):
        calls.append(state.current_player)
        return state.legal_actions()[0]

    env = BrassEnv(players=3, seat=0, opponents={2: first_legal})
    play(env, seed=2)
    assert calls and set(calls) == {2}

    calls.clear()
    env = BrassEnv(players=3, seat=1, opponents=first_legal)
    play(env, seed=2)
    assert set(calls) == {0, 2}

    calls.clear()
    env = BrassEnv(players=2, seat=0, opponents=[None, first_legal])
    play(env, seed=2)
    assert set(calls) == {1}


def test_opponents_get_a_copy_of_the_state():
    def meddler(state):
        action = state.legal_actions()[0]
        state.apply(action)  # a copy: the game is untouched
        return action

    env = BrassEnv(players=2, seat=0, opponents=meddler)
    play(env, seed=4)
    assert env.brass_state.is_terminal


def test_illegal_actions():
    env = BrassEnv(players=2)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.brass_state.clone()
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.brass_state == before

    env = BrassEnv(players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(brass.IllegalActionError):
        env.step(illegal)
    assert env.brass_state == before


def test_bad_arguments():
    with pytest.raises(brass.ConfigError):
        BrassEnv(players=1)
    with pytest.raises(brass.PlayerIndexError, match="seat 2 does not exist: seats go from 0 to 1"):
        BrassEnv(players=2, seat=2)
    with pytest.raises(brass.ArgumentTypeError, match="seat"):
        BrassEnv(players=2, seat="1")
    with pytest.raises(brass.ConfigError):
        BrassEnv(players=2, illegal_action="ignore")
    with pytest.raises(brass.ArgumentTypeError, match="seed"):
        BrassEnv(players=2).reset(seed=1.5)
    with pytest.raises(brass.ConfigError, match="seed"):
        BrassEnv(players=2).reset(seed=-1)
    with pytest.raises(gymnasium.error.ResetNeeded):
        BrassEnv(players=2).step(0)


def test_native_agents_are_opponents_and_stay_reproducible():
    from brass import agents

    runs = []
    for _ in range(2):
        env = BrassEnv(players=2, seat=0, opponents=agents.Greedy())
        trajectory, reward, _ = play(env, seed=8)
        runs.append((trajectory, reward, env.brass_state.history))
        replayed = brass.Game("lancashire", players=2).new_state(8)
        for action in env.brass_state.history:
            replayed.apply(action)
        assert replayed == env.brass_state
    assert runs[0] == runs[1]


@pytest.mark.parametrize("game,players,options", [("brass", 4, {}), ("lancashire", 3, {"intro": True})])
def test_check_env_classic_brass_and_options(game, players, options):
    env = gymnasium.make(f"brass/{game}-{players}p-v0", **options).unwrapped
    check_without_warnings(env)
    env.reset(seed=9)
    assert env.brass_state.game == brass.Game(game, players=players, **options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_env_birmingham(players):
    env = gymnasium.make(f"brass/birmingham-{players}p-v0")
    check_without_warnings(env.unwrapped)
    env.unwrapped.reset(seed=5)
    assert env.unwrapped.brass_state.game == brass.Game("birmingham", players=players)


def test_mask_types_follow_the_documented_rule():
    """Issue 21, item 9 (docs/env.md, "Mask types, one rule"): int8 inside the framework's data, bool from every
    method that hands a mask to the user."""
    env = BrassEnv(game="lancashire", players=2)
    _, info = env.reset(seed=1)
    assert info["action_mask"].dtype == np.int8
    assert env.action_masks().dtype == np.bool_
    assert env.brass_state.legal_action_mask().dtype == np.bool_
    assert brass.VecEnv(brass.Game("lancashire", players=2), 2, seed=1).legal_action_masks().dtype == np.bool_


def test_the_rgb_array_render_mode_gives_the_board_s_pixels():
    """Issue 21, item 8: the render mode RL users expect: (height, width, 3) uint8, 700 pixels wide."""
    env = BrassEnv(game="birmingham", players=2, render_mode="rgb_array")
    env.reset(seed=3)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[1:] == (700, 3) and 300 < frame.shape[0] < 700
    assert "rgb_array" in BrassEnv.metadata["render_modes"]
    np.testing.assert_array_equal(frame, brass.svg.rgb(env.brass_state, width=700))
