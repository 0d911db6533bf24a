"""OpenSpiel adapter: OpenSpiel's own random simulation test, its search bots, and the adapter's promises."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import brass
import brass.env as benv
from brass.env import openspiel as bos

NAME = "python_brass_lancashire"


def load(players, **params):
    return pyspiel.load_game(NAME, {"players": players, **params})


def test_registered_for_every_configuration():
    names = pyspiel.registered_names()
    assert bos.register_games() == [f"python_brass_{g}" for g in benv.configurations()]
    assert all("brass" in n and n in names for n in bos.register_games())
    game = pyspiel.load_game(NAME)
    assert game.num_players() == 4
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert game.num_distinct_actions() == brass.Game("lancashire", players=4).num_actions
    assert game.max_chance_outcomes() == bos.DEFAULT_DEALS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(players):
    # Few deals keep the root chance node cheap to check (the test converts every outcome to a string).
    pyspiel.random_sim_test(load(players, deals=64), num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_default_deals():
    pyspiel.random_sim_test(load(2), num_sims=1, serialize=True, verbose=False)


def test_deal_outcome_is_the_engine_seed():
    game = load(3)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == bos.DEFAULT_DEALS
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 41) == "deal 41"
    assert not any(state.observation_tensor(0))
    state.apply_action(41)
    engine = brass.Game("lancashire", players=3).new_state(41)
    assert state.brass_state == engine
    assert state.current_player() == engine.current_player
    assert state.legal_actions() == engine.legal_actions()
    np.testing.assert_array_equal(np.array(state.observation_tensor(1), np.float32), engine.observation(1))
    action = engine.legal_actions()[0]
    assert state.action_to_string(action) == engine.game.action_name(action)


def test_resample_keeps_the_information_state():
    game = load(4, deals=10)
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other = state.resample_from_infostate(player, sampler)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_tensor(player) == state.observation_tensor(player)
    assert other.legal_actions() == state.legal_actions()
    assert str(other) != str(state)  # hidden cards and the RNG were redrawn
    assert "decisions" in state.information_state_string(player)


def play(game, bots, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_ismcts_bot_plays_a_whole_game():
    game = load(2)
    bot = ismcts.ISMCTSBot(
        game,
        bos.RolloutEvaluator(n_rollouts=1, seed=1),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(1),
    )
    state = play(game, [bot, pyspiel.make_uniform_random_bot(1, 2)], seed=3)
    assert state.returns() == benv.win_rewards(state.brass_state)
    assert sum(state.returns()) == 0


def test_mcts_bot_plays_a_whole_game():
    game = load(3)
    bots = [
        mcts.MCTSBot(game, 2.0, 4, bos.RolloutEvaluator(1, seed=p), random_state=np.random.RandomState(p))
        for p in range(3)
    ]
    state = play(game, bots, seed=4)
    assert state.is_terminal() and abs(sum(state.returns())) < 1e-9


def test_rollout_evaluator_returns_are_in_range():
    game = load(4, deals=5)
    state = game.new_initial_state()
    evaluator = bos.RolloutEvaluator(n_rollouts=3, seed=0)
    value = evaluator.evaluate(state)  # at the deal node: a sampled deal
    state.apply_action(2)
    value = evaluator.evaluate(state)
    assert value.shape == (4,) and abs(value.sum()) < 1e-9
    assert value.min() >= game.min_utility() and value.max() <= game.max_utility()
    assert sum(p for _, p in evaluator.prior(state)) == pytest.approx(1.0)


def test_unsupported_observation_types_and_parameters():
    game = load(2)
    public_only = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError):
        game.make_py_observer(public_only)
    with pytest.raises(brass.ConfigError, match="2, 3 or 4 players"):  # raised by the creator, through OpenSpiel
        load(5)
    with pytest.raises(ValueError, match="deals"):
        load(2, deals=0)


def test_interpreter_exits_cleanly_after_registration():
    # OpenSpiel keeps the registered creator past interpreter shutdown; a bad one aborts the process.
    code = (
        "import pyspiel, brass.env.openspiel\n"
        f"g = pyspiel.load_game('{NAME}', {{'players': 2, 'deals': 3}})\n"
        "s = g.new_initial_state(); s.apply_action(1); s.apply_action(s.legal_actions()[0])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_random_sim_test_classic_brass():
    game = pyspiel.load_game("python_brass_brass", {"players": 3, "deals": 16})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_options_are_game_parameters():
    game = load(2, intro=True, virtual_link=True, deals=16)
    assert game.brass_game == brass.Game("lancashire", players=2, intro=True, virtual_link=True)
    assert game.get_parameters()["intro"] is True and game.get_parameters()["classic_deck"] is False
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_birmingham(players):
    game = pyspiel.load_game("python_brass_birmingham", {"players": players, "deals": 16})
    assert game.brass_game == brass.Game("birmingham", players=players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_birmingham_intro_is_a_game_parameter():
    game = pyspiel.load_game("python_brass_birmingham", {"players": 3, "intro": True, "deals": 16})
    assert game.brass_game == brass.Game("birmingham", players=3, intro=True)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
