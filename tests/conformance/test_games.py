"""Per configuration: the catalog, the Game object, random games to the end, action names."""

from __future__ import annotations

import importlib
import math

import pytest

import brass

from .support import CONFIGS, ENGINE_NAMES, budget, play


def test_both_engines_register_the_same_catalog():
    for name in ENGINE_NAMES:
        assert importlib.import_module(name).games() == brass.games(), name


def test_every_game_of_the_catalog_has_configurations():
    catalog = brass.games()
    assert {config.name for config in CONFIGS} == set(catalog)
    for name, entry in catalog.items():
        assert {c.players for c in CONFIGS if c.name == name} == set(entry["players"]), name
    assert len({config.id for config in CONFIGS}) == len(CONFIGS)


def test_configuration_builds(engine, config):
    game = config.game(engine)
    assert game.name == config.name and game.players == config.players
    assert game.options == config.kwargs
    assert game == config.game(engine) and hash(game) == hash(config.game(engine))
    assert game.num_actions > 0 and game.max_decisions > 0 and game.rounds_per_era > 0
    state = game.new_state(seed=12345)
    assert state == game.new_state(seed=12345) and state.to_json() == game.new_state(seed=12345).to_json()
    assert state.game == game
    assert not state.is_terminal and state.winners == [] and state.history == []
    assert state.current_player in range(game.players)
    assert state.returns == [0.0] * game.players and len(state.scores) == game.players
    assert state.legal_actions()


def expected_returns(players: int, winners: list[int]) -> list[float]:
    """docs/api.md: each of k winners gets (n/k - 1)/(n - 1), every other player -1/(n - 1)."""
    k = len(winners)
    return [(players / k - 1) / (players - 1) if p in winners else -1 / (players - 1) for p in range(players)]


def test_random_games_end(engine, config):
    for index in range(budget(engine).end_games):
        played = play(engine.__name__, config, index)
        game, state = played.game, played.final
        where = f"{config.id} seed {played.seed}"
        assert len(played.actions) <= game.max_decisions, where
        assert state.is_terminal, f"{where}: not over after max_decisions = {game.max_decisions} decisions"
        assert state.history == played.actions, where
        assert state.current_player is None, where
        assert state.legal_actions() == [] and not state.legal_action_mask().any(), where
        winners = state.winners
        assert winners and winners == sorted(set(winners)), where
        assert all(p in range(game.players) for p in winners), where
        returns = state.returns
        assert len(returns) == game.players and math.isclose(sum(returns), 0.0, abs_tol=1e-9), (where, returns)
        assert returns == pytest.approx(expected_returns(game.players, winners)), (where, returns, winners)
        assert len(state.scores) == game.players, where


def test_action_names_round_trip(engine, config):
    game = config.game(engine)
    names = [game.action_name(action) for action in range(game.num_actions)]
    assert all(isinstance(name, str) and name for name in names)
    assert len(set(names)) == len(names), "two ids share a notation"
    for action, name in enumerate(names):
        assert game.parse_action(name) == action, name
    for bad in (-1, game.num_actions, 2**64):
        with pytest.raises(brass.IllegalActionError):
            game.action_name(bad)
    for bad in (True, 1.0, None, "pass"):
        with pytest.raises((brass.IllegalActionError, brass.ArgumentTypeError)):
            game.action_name(bad)
    for text in ("", "build castle", "pass pass"):
        with pytest.raises(brass.NotationError):
            game.parse_action(text)
