"""Gymnasium vector adapter (BrassVectorEnv over brass.VecEnv): Gymnasium has no checker for vector
environments, so these are the checks by hand — spaces, shapes and dtypes, determinism for a seed, masks equal
to the legal actions, the reward convention, autoreset of terminated games — plus Gymnasium's own vector
machinery (make_vec, RecordEpisodeStatistics) running on it."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import brass
from brass.env.gymnasium import BrassEnv, BrassVectorEnv

N = 6


def masked_actions(info: dict, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]], dtype=np.int64)


def check_batch(env: BrassVectorEnv, obs: np.ndarray, info: dict) -> None:
    """Shapes, dtypes and masks of one batch, against the engine state of every game."""
    n, a = env.num_envs, env.game.num_actions
    assert obs.shape == (n, env.game.observation_size) and obs.dtype == np.float32
    assert obs in env.observation_space
    assert info["action_mask"].shape == (n, a) and info["action_mask"].dtype == np.int8
    assert info["current_player"].shape == (n,) and info["current_player"].dtype == np.int32
    assert info["_action_mask"].all() and info["_current_player"].all()
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    for i in range(n):
        state = env.state(i)
        assert not state.is_terminal
        assert list(np.flatnonzero(info["action_mask"][i])) == state.legal_actions()
        assert info["current_player"][i] == state.current_player
        np.testing.assert_array_equal(obs[i], state.observation(state.current_player))


def test_spaces_and_metadata():
    env = BrassVectorEnv(N, players=3)
    single = BrassEnv(players=3)
    assert env.num_envs == N
    assert env.single_action_space == single.action_space
    assert env.single_observation_space == single.observation_space
    assert env.action_space == gymnasium.spaces.MultiDiscrete([env.game.num_actions] * N)
    assert env.observation_space.shape == (N, env.game.observation_size)
    assert env.observation_space.dtype == np.float32
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert isinstance(env, gymnasium.vector.VectorEnv)


@pytest.mark.parametrize(
    "game, players, options", [("lancashire", 2, {}), ("lancashire", 4, {"intro": True}), ("brass", 3, {})]
)
def test_episodes_shapes_masks_rewards_and_autoreset(game, players, options):
    env = BrassVectorEnv(N, game=game, players=players, **options)
    obs, info = env.reset(seed=4)
    check_batch(env, obs, info)
    rng = np.random.default_rng(0)
    ended = np.zeros(N, dtype=int)
    for step in range(3000):
        actions = masked_actions(info, rng)
        movers = info["current_player"].copy()
        before = [env.state(i) for i in range(N)]
        obs, reward, terminated, truncated, info = env.step(actions)
        assert reward.shape == (N,) and reward.dtype == np.float32
        assert terminated.shape == truncated.shape == (N,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any()
        assert ("final_info" in info) == terminated.any()
        for i in range(N):
            after = before[i].child(int(actions[i]))  # the engine, one game at a time
            assert terminated[i] == after.is_terminal
            if terminated[i]:
                final = info["final_info"]
                assert info["_final_info"][i] and final["_returns"][i] and final["_scores"][i]
                np.testing.assert_allclose(final["returns"][i], after.returns)
                assert list(final["scores"][i]) == after.scores
                assert reward[i] == np.float32(after.returns[movers[i]])  # the seat that moved
                assert final["returns"][i].sum() == pytest.approx(0.0, abs=1e-6)
                fresh = env.state(i)  # restarted in the same step: a new game's first position
                assert (fresh.era, fresh.round, fresh.board, fresh.scores) == ("canal", 1, {}, [0] * players)
            else:
                assert reward[i] == 0.0
                assert env.state(i) == after
        if step % 25 == 0 or terminated.any():
            check_batch(env, obs, info)
        ended += terminated
        if ended.min() >= 1 and step > 50:
            break
    assert ended.min() >= 1


def play(env: BrassVectorEnv, seed: int, steps: int) -> list:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [(obs.copy(), info)]
    for _ in range(steps):
        out.append(env.step(masked_actions(info, rng)))
        info = out[-1][-1]
    return out


def test_a_seed_fixes_every_game():
    a = play(BrassVectorEnv(N, players=2), seed=7, steps=400)
    b = play(BrassVectorEnv(N, players=2), seed=7, steps=400)
    assert data_equivalence(a, b)
    assert any("final_info" in step[-1] for step in a[1:])  # some games ended and restarted alike
    env = BrassVectorEnv(N, players=2)
    first, _ = env.reset(seed=7)
    first = first.copy()
    env.step(env.sample_legal_actions())
    again, _ = env.reset(seed=7)  # the same seed deals the same games again
    np.testing.assert_array_equal(first, again)
    other, _ = BrassVectorEnv(N, players=2).reset(seed=8)
    assert not np.array_equal(first, other)
    following, _ = env.reset()  # no seed: the batch's next games, new deals
    assert not np.array_equal(first, following)


def test_unseeded_runs_reproduce_from_the_last_seeded_reset():
    runs = []
    for _ in range(2):
        env = BrassVectorEnv(3, players=3)
        env.reset(seed=5)
        obs, _ = env.reset()
        runs.append(obs.copy())
    np.testing.assert_array_equal(*runs)


def test_illegal_actions_raise_and_change_nothing():
    env = BrassVectorEnv(3, players=2)
    _, info = env.reset(seed=1)
    actions = masked_actions(info, np.random.default_rng(1))
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    before = [env.state(i) for i in range(3)]
    with pytest.raises(brass.IllegalActionError, match="environment 1"):
        env.step(actions)
    assert [env.state(i) for i in range(3)] == before


def test_bad_arguments():
    with pytest.raises(brass.ConfigError):
        BrassVectorEnv(4, players=1)
    with pytest.raises(brass.ConfigError, match="num_envs"):
        BrassVectorEnv(0)
    with pytest.raises(brass.ArgumentTypeError, match="num_envs"):
        BrassVectorEnv(2.5)
    with pytest.raises(brass.ConfigError):
        BrassVectorEnv(2, render_mode="human")
    env = BrassVectorEnv(2, players=2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step([0, 0])
    with pytest.raises(brass.ArgumentTypeError, match="seed"):
        env.reset(seed=[1, 2])
    with pytest.raises(brass.ConfigError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(brass.ConfigError, match="reset_mask"):
        env.reset(seed=1, options={"reset_mask": np.array([True, False])})
    env.reset(seed=1)
    with pytest.raises(brass.ArgumentTypeError, match="actions"):
        env.step([0, 0, 0])
    with pytest.raises(brass.ArgumentTypeError, match="actions"):
        env.step(np.array([0.5, 1.0]))


def test_make_vec_and_gymnasiums_vector_wrappers():
    env = gymnasium.make_vec("brass/lancashire-2p-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(env, BrassVectorEnv) and env.num_envs == 4
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=3)
    episodes = 0
    for _ in range(2000):
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.sample_legal_actions())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 50).all()
        if episodes >= 4:
            break
    assert episodes >= 4
    env.close()
    options = gymnasium.make_vec(
        "brass/lancashire-3p-v0", num_envs=2, vectorization_mode="vector_entry_point", classic_deck=True
    )
    assert options.game == brass.Game("lancashire", players=3, classic_deck=True)


def test_render_and_native_random_actions():
    env = BrassVectorEnv(3, players=4, render_mode="ansi")
    _, info = env.reset(seed=2)
    pictures = env.render()
    assert isinstance(pictures, tuple) and len(pictures) == 3 and all("legal actions" in p for p in pictures)
    for _ in range(20):
        actions = env.sample_legal_actions()
        assert all(info["action_mask"][i, a] for i, a in enumerate(actions))
        _, _, _, _, info = env.step(actions)
    with pytest.warns(UserWarning, match="render_mode"):
        assert BrassVectorEnv(2, players=2).render() is None  # no render mode: a warning, no picture


def test_the_example_of_docs_vecenv_runs(capsys):
    """docs/vecenv.md's Gymnasium block (left out of tests/test_docs_examples.py, which runs without extras)."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "vecenv.md"
    blocks = re.findall(r"^```python\n(.*?)^```", doc.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)
    [example] = [b for b in blocks if "BrassVectorEnv" in b]
    exec(compile(example, "docs/vecenv.md (BrassVectorEnv)", "exec"), {"__name__": "__doc_example__"})  # noqa: S102
    assert "8 games" in capsys.readouterr().out
