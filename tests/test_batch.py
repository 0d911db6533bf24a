"""Observations, hidden-information resampling, native rollouts and VecEnv (the throughput API)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import brass

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "observation.md"


@pytest.fixture(params=[2, 3, 4])
def game(request: pytest.FixtureRequest) -> brass.Game:
    return brass.Game("lancashire", players=request.param)


def _advance(state: brass.State, steps: int, seed: int = 0) -> brass.State:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def test_observation_layout_is_contiguous_and_documented(game: brass.Game) -> None:
    layout = game.observation_layout
    names = [name for name, *_ in layout]
    assert len(set(names)) == len(names)
    offset = 0
    for _, start, length, meaning in layout:
        assert start == offset and length > 0 and meaning
        offset += length
    assert offset == game.observation_size
    documented = DOCS.read_text()
    missing = [n for n in names if f"`{n}`" not in documented]
    assert not missing, f"docs/observation.md does not describe {missing}"


def test_observation_shows_own_hand_and_hides_what_the_player_cannot_see(game: brass.Game) -> None:
    state = _advance(game.new_state(seed=12), 40)
    for player in range(game.players):
        seen = state.observation(player)
        assert seen.dtype == np.float32 and seen.shape == (game.observation_size,)
        other = state.resample_hidden(player, seed=5)
        # Everything the player may know is unchanged, so the observation is identical ...
        assert np.array_equal(other.observation(player), seen)
        assert other.player(player).hand == state.player(player).hand
        doc, odoc = json.loads(state.to_json()), json.loads(other.to_json())
        assert odoc["board"] == doc["board"] and odoc["dcm"]["discards"] == doc["dcm"]["discards"]
        assert [p["discards"] for p in odoc["players"]] == [p["discards"] for p in doc["players"]]
        assert len(odoc["deck"]) == len(doc["deck"])
    # ... while the hidden parts did change somewhere, and the resampled state plays on.
    others = [state.resample_hidden(0, seed=s) for s in range(5)]
    assert any(o.to_json() != state.to_json() for o in others)
    _advance(others[0], 500)


def test_observation_depends_on_own_hand_and_seat() -> None:
    game = brass.Game("lancashire", players=4)
    state = game.new_state(seed=2)
    layout = {name: (start, length) for name, start, length, _ in game.observation_layout}
    start, length = layout["hand"]
    for p in range(4):
        hand = state.player(p).hand
        counts = state.observation(p)[start : start + length] * 4
        assert counts.sum() == pytest.approx(len(hand))
    to_act = layout["to_act"]
    current = state.current_player
    for p in range(4):
        row = state.observation(p)[to_act[0] : to_act[0] + to_act[1]]
        assert row[(current - p) % 4] == 1 and row.sum() == 1


def test_rollouts_are_deterministic_whatever_the_thread_count(game: brass.Game) -> None:
    one = brass.rollouts(game, 60, seed=4, threads=1)
    two = brass.rollouts(game, 60, seed=4, threads=2)
    every = brass.rollouts(game, 60, seed=4)
    for r in (two, every):
        assert np.array_equal(one.scores, r.scores)
        assert np.array_equal(one.winners, r.winners)
        assert np.array_equal(one.decisions, r.decisions)
    assert one.scores.shape == (60, game.players) and one.winners.dtype == np.bool_
    assert (one.winners.sum(axis=1) >= 1).all() and (one.decisions > 100).all()
    assert one.seconds > 0 and one.games_per_second > 0
    assert not np.array_equal(one.scores, brass.rollouts(game, 60, seed=5, threads=1).scores)


def test_the_draw_sampler_plays_other_games_just_as_reproducibly(game: brass.Game) -> None:
    """`sampler="draw"` (candidates drawn until one is legal) is uniform like the default `"list"` but uses the
    random numbers differently: the same seed gives other games, reproducible whatever the threads."""
    listed = brass.rollouts(game, 40, seed=4, threads=1)
    assert np.array_equal(listed.decisions, brass.rollouts(game, 40, seed=4, threads=1, sampler="list").decisions)
    drawn = brass.rollouts(game, 40, seed=4, threads=1, sampler="draw")
    again = brass.rollouts(game, 40, seed=4, threads=2, sampler="draw")
    assert np.array_equal(drawn.scores, again.scores) and np.array_equal(drawn.decisions, again.decisions)
    assert not np.array_equal(drawn.decisions, listed.decisions)
    assert (drawn.winners.sum(axis=1) >= 1).all() and (drawn.decisions > 100).all()
    # Both uniform: the games are alike on average (decisions per game within a few percent over 40 games).
    assert abs(drawn.decisions.mean() / listed.decisions.mean() - 1) < 0.1
    with pytest.raises(brass.ConfigError, match="sampler is 'list'"):
        brass.rollouts(game, 1, sampler="fast")


def test_a_long_batch_played_in_parts_is_the_same_games() -> None:
    """`rollouts` plays a long batch in parts of 1,024 games, looking for a Ctrl-C between them: game `i` of the
    batch is still the game its seeds make (`brass._rng.rollout_seeds`), replayed here move by move in Python."""
    from brass._rng import rollout_seeds

    game = brass.Game("lancashire", players=2)
    batch = brass.rollouts(game, 1100, seed=4, threads=2)
    for i in (3, 1030):  # one game of the first part, one of the second
        deal, rng = rollout_seeds(4, i)
        state, decisions = game.new_state(seed=deal), 0
        while not state.is_terminal:
            ids = state.legal_actions()
            state.apply(ids[rng.below(len(ids))])
            decisions += 1
        assert batch.decisions[i] == decisions and batch.scores[i].tolist() == list(state.scores), i


def test_rollouts_from_a_state_continue_that_game() -> None:
    game = brass.Game("lancashire", players=3)
    state = _advance(game.new_state(seed=1), 100)
    result = brass.rollouts(state, 20, seed=0, threads=1)
    # Every playout starts from the same position: the VP already scored can only grow.
    assert (result.scores >= np.array(state.scores)).all()
    assert (result.decisions < 400).all()
    with pytest.raises(brass.ArgumentTypeError, match="brass.Game or a brass.State"):
        brass.rollouts("lancashire", 3)


def test_vecenv_steps_auto_resets_and_rewards_winners() -> None:
    game = brass.Game("lancashire", players=2)
    env = brass.VecEnv(game, 6, seed=9)
    obs = env.reset()
    assert obs.shape == (6, game.observation_size) and obs.dtype == np.float32
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(3000):
        masks = env.legal_action_masks()
        assert masks.shape == (6, game.num_actions) and masks.any(axis=1).all()
        players = env.current_players
        for i in range(6):
            assert np.array_equal(np.flatnonzero(masks[i]), env.state(i).legal_actions())
            assert players[i] == env.state(i).current_player
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        rewards, dones = env.step(actions)
        assert rewards.shape == (6, 2)
        for i in np.flatnonzero(dones):
            # docs/api.md "Returns": zero-sum, +1 / -1 for a sole winner at 2 players, 0 / 0 for a shared win.
            assert rewards[i].sum() == pytest.approx(0.0)
            assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
            winners = np.flatnonzero(rewards[i] == rewards[i].max())
            assert (env.scores[i][winners] == env.scores[i].max()).all()  # L-53: most VP wins
            assert env.state(i).round == 1 and env.state(i).era == "canal"  # restarted
        assert (rewards[~dones] == 0).all()
        finished += int(dones.sum())
    assert finished >= 6


def test_vecenv_names_an_unsigned_id_past_int64_as_given() -> None:
    """Cast to int64 it would wrap round to -1 and be named so."""
    env = brass.VecEnv(brass.Game("lancashire", players=2), 2, seed=1)
    before = [env.state(i).to_json() for i in range(2)]
    with pytest.raises(brass.IllegalActionError, match="action id 18446744073709551615 is out of range"):
        env.step(np.array([2**64 - 1] * 2, np.uint64))
    assert [env.state(i).to_json() for i in range(2)] == before


def test_vecenv_arrays_are_views_whose_shape_and_dtype_the_caller_may_change() -> None:
    """The arrays returned share the environment's buffers (docs/vecenv.md, "Buffers") but are views of their own:
    reshaping one or giving it another dtype changes that view, not what the next call returns; a buffer changed
    through a view's `.base` is refused, not read with the wrong layout."""
    game = brass.Game("lancashire", players=2)
    env = brass.VecEnv(game, 3, seed=9)
    obs, masks, players = env.reset(), env.legal_action_masks(), env.current_players
    rewards, dones = env.step(env.sample_legal_actions(1))
    obs.shape, masks.shape, players.shape = (-1,), (-1,), (3, 1)
    rewards.dtype, dones.dtype = np.int32, np.uint8
    env.scores.shape = (-1,)
    assert env.observations().shape == (3, game.observation_size) and env.observations().dtype == np.float32
    assert env.legal_action_masks().shape == (3, game.num_actions) and env.current_players.shape == (3,)
    assert env.rewards.dtype == np.float32 and env.dones.dtype == np.bool_ and env.scores.shape == (3, 2)
    assert np.shares_memory(env.observations(), env.observations())  # still the one buffer, not copies
    env.observations().base.dtype = np.float64  # the buffer itself, reached on purpose
    with pytest.raises(brass.InvalidStateError, match="buffer was changed"):
        env.observations()


@pytest.mark.parametrize(
    "actions",
    [[1.0, 2.0], np.array([1.0, 2.0]), [True, False], np.array([True, True]), ["1", "2"], "12", None],
)
def test_vecenv_step_refuses_actions_that_are_not_integers(actions: object) -> None:
    """A float or bool id is a bug in the caller: refused with ArgumentTypeError, nothing stepped."""
    env = brass.VecEnv(brass.Game("lancashire", players=2), 2, seed=3)
    env.reset()
    before = [env.state(i).to_json() for i in range(2)]
    with pytest.raises(brass.ArgumentTypeError, match="integer action ids"):
        env.step(actions)
    assert [env.state(i).to_json() for i in range(2)] == before


def test_vecenv_step_takes_integer_arrays_of_any_width_and_lists() -> None:
    game = brass.Game("birmingham", players=2)
    after = []
    for convert in (
        list,
        lambda a: np.array(a, dtype=np.int64),
        lambda a: np.array(a, dtype=np.int32),
        lambda a: np.array(a, dtype=np.uint16),
    ):
        env = brass.VecEnv(game, 2, seed=4)
        env.reset()
        before = [env.state(i).to_json() for i in range(2)]
        first = [int(np.flatnonzero(row)[0]) for row in env.legal_action_masks()]
        env.step(convert(first))
        expected = [brass.State.from_json(before[i]).child(first[i]).to_json() for i in range(2)]
        after.append([env.state(i).to_json() for i in range(2)])
        assert after[-1] == expected
    assert all(a == after[0] for a in after)


def test_vecenv_illegal_action_names_the_environment_and_changes_nothing() -> None:
    game = brass.Game("lancashire", players=3)
    env = brass.VecEnv(game, 4, seed=2)
    env.reset()
    before = [env.state(i).to_json() for i in range(4)]
    masks = env.legal_action_masks()
    actions = [int(np.flatnonzero(row)[0]) for row in masks]
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(brass.IllegalActionError, match="environment 2"):
        env.step(actions)
    assert [env.state(i).to_json() for i in range(4)] == before
    with pytest.raises(brass.IllegalActionError):
        env.step(actions[:3])


def test_vecenv_is_reproducible_for_a_seed() -> None:
    game = brass.Game("lancashire", players=4)

    def run() -> list[str]:
        env = brass.VecEnv(game, 3, seed=7)
        env.reset()
        for _ in range(50):
            env.step([int(np.flatnonzero(row)[-1]) for row in env.legal_action_masks()])
        return [env.state(i).to_json() for i in range(3)]

    assert run() == run()
