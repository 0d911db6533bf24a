"""OpenSpiel: importing this module registers every game the engine supports as an OpenSpiel Python game.

    >>> import pyspiel
    >>> import brass.env.openspiel                      # registers "python_brass_lancashire"
    >>> game = pyspiel.load_game("python_brass_lancashire", {"players": 2})
    >>> state = game.new_initial_state()                # a chance node: the deal
    >>> state.apply_action(7)                           # deal 7 = brass.Game("lancashire", players=2).new_state(7)

Names: `python_brass_<game>` (OpenSpiel's prefix for Python games), parameters `players` (default: the
largest supported count) and `deals` (default 65536). Sequential, imperfect information, zero-sum,
terminal rewards.

**Chance.** The engine fixes all chance by a seed: `new_state(seed)` shuffles the deck and the Distant Cotton
Market tiles and draws the turn order, and the state carries its own RNG for later reshuffles. The adapter
therefore has exactly one explicit chance node, at the root: its outcome `k` (uniform over
`range(deals)`) is the engine seed, so outcome k is the same game as `brass.Game(...).new_state(k)` and
every framework that samples chance outcomes (random_sim_test, MCTS, ISMCTS, rl_environment) gets a
different deal per episode. Every later random event (cards drawn from the shuffled deck, DCM reshuffles)
is the engine's seeded draw, hidden state inside the game, not a chance node: exposing each draw as a
chance node would need the rules' knowledge of when draws happen, which the adapter must not duplicate.
Consequently the game is a sample of `deals` deals of the real game, not the full deal distribution.

**Observations.** `observation_tensor(p)` is `state.observation(p)` (docs/observation.md: only what p may
see; zeros at the deal node); `observation_string(p)` lists its non-zero entries by name (`hand[3]=0.25 …`).
`information_state_string(p)` is that string plus the public decision history (every decision in Brass is
public). It is not strictly perfect-recall (earlier private draws are summarised by the current hand), and
no information-state tensor is provided. `state.resample_from_infostate(p, sampler)` returns a state with
everything p cannot see redrawn by the engine (`brass.State.resample_hidden`), for OpenSpiel's Python
ISMCTS bot; `RolloutEvaluator` evaluates leaves with native random playouts (`brass.rollouts`).

Returns are `brass.env.win_rewards` (a sole winner +1, each other player -1/(n-1); they sum to 0).
See docs/env.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from brass._errors import MissingExtraError

try:
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ModuleNotFoundError as e:  # say which extra brings it, not just the module's name
    raise MissingExtraError("brass.env.openspiel", e.name or "open_spiel", "env") from None

import brass
from brass.env._common import (
    GAME_OPTIONS,
    check_config,
    configurations,
    reward_range,
    win_rewards,
    win_rewards_from_flags,
)

__all__ = ["BrassGame", "BrassState", "RolloutEvaluator", "game_names", "register_games"]

#: The default number of deals (chance outcomes at the root).
DEFAULT_DEALS = 1 << 16


def game_names() -> dict[str, str]:
    """OpenSpiel short name -> engine game name, for every game the engine supports."""
    return {f"python_brass_{name}": name for name in configurations()}


def _game_type(name: str, counts: tuple[int, ...]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"python_brass_{name}",
        long_name=f"Python Brass: {name.replace('_', ' ').title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": max(counts),
            "deals": DEFAULT_DEALS,
            **{option: False for option in GAME_OPTIONS.get(name, ())},
        },
    )


class BrassGame(pyspiel.Game):
    """One engine configuration as an OpenSpiel game. `register_games` makes one subclass per engine game
    (`GAME_CLASSES[name]`, with `game_name` set); OpenSpiel calls it with the game parameters."""

    #: The engine game name (set by each registered subclass).
    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params = dict(params or {})
        counts = configurations()[name]
        players = int(params.get("players", max(counts)))
        deals = int(params.get("deals", DEFAULT_DEALS))
        if not 1 <= deals <= 2**31 - 1:
            raise brass.ConfigError(f"deals must be in [1, 2**31 - 1], not {deals}")
        options = {option: bool(params.get(option, False)) for option in GAME_OPTIONS.get(name, ())}
        brass_game = check_config(name, players, **options)
        low, high = reward_range(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=brass_game.num_actions,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=brass_game.max_decisions,
        )
        super().__init__(_game_type(name, counts), info, {"players": players, "deals": deals, **options})
        self.brass_game: brass.Game = brass_game
        self.deals = deals
        self._chance_outcomes = [(k, 1.0 / deals) for k in range(deals)]
        # A label per observation entry ("round", "hand[3]", …) for the observation strings.
        self._labels = [
            block if length == 1 else f"{block}[{j}]"
            for block, _, length, _ in brass_game.observation_layout
            for j in range(length)
        ]

    def new_initial_state(self) -> BrassState:
        """The root: a chance node whose outcome is the deal (the engine seed)."""
        return BrassState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 1

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The default observation (one player's view) or, with perfect recall, the information state
        (string only). Other observation types (public-only, all-private) are not available."""
        if params:
            raise brass.ConfigError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            return _Observer(self, info_state=False)
        if iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _Observer(self, info_state=bool(iig_obs_type.perfect_recall))
        raise brass.ConfigError(f"unsupported observation type {iig_obs_type}: only one player's own view is available")


class BrassState(pyspiel.State):
    """An OpenSpiel state wrapping a `brass.State` (None until the deal)."""

    def __init__(self, game: BrassGame) -> None:
        super().__init__(game)
        self.brass_state: brass.State | None = None

    # --- the OpenSpiel State API ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.brass_state is None:
            return pyspiel.PlayerId.CHANCE
        player = self.brass_state.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.brass_state.legal_actions() if self.brass_state is not None else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.get_game()._chance_outcomes)

    def _apply_action(self, action: int) -> None:
        if self.brass_state is None:
            self.brass_state = self.get_game().brass_game.new_state(int(action))
        else:
            self.brass_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.get_game().brass_game.action_name(int(action))

    def is_terminal(self) -> bool:
        return self.brass_state is not None and self.brass_state.is_terminal

    def returns(self) -> list[float]:
        if self.brass_state is not None and self.brass_state.is_terminal:
            return win_rewards(self.brass_state)
        return [0.0] * self.get_game().num_players()

    def rewards(self) -> list[float]:
        return self.returns()  # terminal rewards: everything arrives at the end

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BrassState:
        """A copy in which everything `player_id` cannot see (other hands, the draw pile, the DCM pile
        order, the RNG) is redrawn from a seed taken from `probability_sampler` (called once, a float in
        [0, 1)). The copy keeps this state's OpenSpiel history, whose deal outcome no longer describes it."""
        copy = self.clone()
        if self.brass_state is not None:
            seed = int(float(probability_sampler()) * 2**53)
            copy.brass_state = self.brass_state.resample_hidden(int(player_id), seed)
        return copy

    def __str__(self) -> str:
        if self.brass_state is None:
            return "deal pending (chance node)"
        return self.brass_state.to_json()


class _Observer:
    """OpenSpiel's Python observer interface over `state.observation(player)`."""

    def __init__(self, game: BrassGame, info_state: bool) -> None:
        self._game = game
        self._info_state = info_state
        if info_state:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(game.brass_game.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: BrassState, player: int) -> None:
        if self.tensor is None:
            return
        if state.brass_state is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.brass_state.observation(player)

    def string_from(self, state: BrassState, player: int) -> str:
        if state.brass_state is None:
            return f"p{player}: deal pending"
        obs = state.brass_state.observation(player)
        nonzero = np.flatnonzero(obs)
        labels = self._game._labels
        text = f"p{player} " + " ".join(
            f"{labels[i]}={v:.6g}" for i, v in zip(nonzero.tolist(), obs[nonzero].tolist(), strict=True)
        )
        if self._info_state:
            decisions = state.history()[1:]  # the deal (history[0]) is hidden; every decision is public
            text += " | decisions " + " ".join(str(a) for a in decisions)
        return text


class RolloutEvaluator(mcts.Evaluator):
    """An OpenSpiel MCTS/ISMCTS evaluator: the mean returns of `n_rollouts` native uniformly random playouts
    from the state (`brass.rollouts`, Rust), with a uniform prior. Much faster than OpenSpiel's
    `RandomRolloutEvaluator`, which plays out through the Python state. `threads` as in `brass.rollouts`
    (0: all cores; results do not depend on it)."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None, threads: int = 1) -> None:
        self.n_rollouts = int(n_rollouts)
        self.threads = int(threads)
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: BrassState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        brass_state = state.brass_state
        if brass_state is None:  # the deal node: evaluate one sampled deal
            brass_state = state.get_game().brass_game.new_state(int(self._rng.integers(state.get_game().deals)))
        result = brass.rollouts(
            brass_state, games=self.n_rollouts, seed=int(self._rng.integers(2**63)), threads=self.threads
        )
        return win_rewards_from_flags(result.winners).mean(axis=0)

    def prior(self, state: BrassState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


#: The registered game class of each engine game name.
GAME_CLASSES: dict[str, type[BrassGame]] = {}


def register_games() -> list[str]:
    """Register `python_brass_<game>` for every supported game (idempotent); returns the names.

    The creator given to OpenSpiel is a class (one per game), as in OpenSpiel's own Python games: OpenSpiel's
    registry keeps it until after the interpreter has shut down, and a class, unlike a function object, is
    not freed there (freeing a Python object at that point aborts the process)."""
    registered = set(pyspiel.registered_names())
    for short_name, name in game_names().items():
        if name not in GAME_CLASSES:
            GAME_CLASSES[name] = type(f"BrassGame_{name}", (BrassGame,), {"game_name": name, "__module__": __name__})
        if short_name not in registered:
            pyspiel.register_game(_game_type(name, configurations()[name]), GAME_CLASSES[name])
    return list(game_names())


register_games()
