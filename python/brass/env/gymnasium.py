"""Gymnasium single-agent environment: the learner takes one seat, policies play the others.

    >>> from brass.env.gymnasium import BrassEnv
    >>> env = BrassEnv(game="lancashire", players=2)
    >>> obs, info = env.reset(seed=7)
    >>> while True:
    ...     action = env.action_space.sample(info["action_mask"])        # a masked random learner
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated or truncated:
    ...         break

Spaces: `Discrete(game.num_actions)` actions; observations `Box(float32, (game.observation_size,))`, the
learner's `state.observation(seat)`. The legal actions are `info["action_mask"]` (int8 0/1, ready for
`action_space.sample(mask)`); `env.action_masks()` gives the same as bool for sb3-contrib's MaskablePPO.

Opponents: `opponents=` is one policy for every other seat, a sequence with an entry per seat (None = the
default), or a mapping seat -> policy. A policy is a callable `(state) -> action id` (it gets a copy of the
engine state, hidden information included) or an agent object with `choose(state, seed=...)`. Seats left
empty get `brass.env.default_opponent`: the native greedy agent (`brass.agents.Greedy`), reseeded on every
reset.

Reward: 0 until the game ends, then the learner's entry of `brass.env.win_rewards` (zero-sum: a sole winner
+1, each other player -1/(n-1), ties after tie-breaks share). An illegal action ends the episode with
`illegal_reward` (-1) and `info["illegal_action"] = True`, leaving the game as it was
(`illegal_action="raise"` raises `brass.IllegalActionError` instead). The episode never truncates (a game
always ends, in about 150–250 decisions with random play). Registered as `brass/<game>-<n>p-v0`
(`gymnasium.make("brass/lancashire-2p-v0")` once this module is imported). See docs/env.md.

`BrassVectorEnv(num_envs, game=..., players=...)` is a `gymnasium.vector.VectorEnv` over the native batch
`brass.VecEnv` for self-play, where one policy plays every seat: the observation of each environment is that
of the player to move, the reward of a step goes to the seat that took it (0 until the game ends, then that
seat's zero-sum return), and finished games restart in the same step (`AutoresetMode.SAME_STEP`). Also
`gymnasium.make_vec("brass/lancashire-2p-v0", num_envs=64, vectorization_mode="vector_entry_point")`. See
docs/env.md and docs/vecenv.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from brass._errors import MissingExtraError

try:
    import gymnasium
except ModuleNotFoundError as e:  # say which extra brings it, not just the module's name
    raise MissingExtraError("brass.env.gymnasium", e.name or "gymnasium", "env") from None

import brass
from brass.env._common import (
    OBS_HIGH,
    OBS_LOW,
    as_policy,
    check_config,
    check_seed,
    configurations,
    deal_seed,
    default_opponent,
    final_info,
    opponents_by_seat,
    render,
    render_text,
    win_rewards,
)

__all__ = ["BrassEnv", "BrassVectorEnv", "register_envs"]


class BrassEnv(gymnasium.Env):
    """One seat of a Brass game as a Gymnasium environment.

    Args:
        game, players: the configuration (`brass.env.configurations()` lists them).
        seat: the learner's seat (0 … players-1), or None for a seat drawn on every reset.
        opponents: the other seats' policies (see the module docstring); None: defaults everywhere.
        illegal_action: "terminate" (default: end the episode with `illegal_reward`) or "raise".
        illegal_reward: the reward of an illegal action under "terminate".
        render_mode: None, "ansi" (render() returns text), "human" (prints it) or "rgb_array" (the board as
            a `(height, width, 3)` uint8 array, 700 pixels wide).
        **options: the game's options (docs/classic.md), e.g. `intro=True`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str = "lancashire",
        players: int = 4,
        seat: int | None = 0,
        opponents: Any = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: bool,
    ) -> None:
        super().__init__()
        self.game: brass.Game = check_config(game, players, **options)
        if seat is not None:
            if isinstance(seat, bool) or not hasattr(seat, "__index__"):
                raise brass.ArgumentTypeError(f"seat must be an int or None, not {type(seat).__name__}")
            seat = seat.__index__()
            if not 0 <= seat < players:
                raise brass.PlayerIndexError(f"seat {seat} does not exist: seats go from 0 to {players - 1}")
        if illegal_action not in ("terminate", "raise"):
            raise brass.ConfigError(f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise brass.ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._fixed_seat = seat
        self._given = opponents_by_seat(opponents, players)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_space = gymnasium.spaces.Box(
            OBS_LOW, OBS_HIGH, shape=(self.game.observation_size,), dtype=np.float32
        )
        self.seat: int = 0 if seat is None else seat
        self.brass_state: brass.State | None = None  # the engine state of the game under way
        self._policies: dict[int, Any] = {}
        self._done = True

    # --- API -----------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: `reset(seed=s)` deals `game.new_state(s)` and seeds the generator behind later deals,
        the random seat (seat=None) and the default opponents. `options` is accepted and ignored."""
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        rng = self.np_random
        self.brass_state = self.game.new_state(deal_seed(seed, rng))
        self.seat = int(rng.integers(self.game.players)) if self._fixed_seat is None else self._fixed_seat
        self._policies = {}
        for p in range(self.game.players):
            policy_seed = int(rng.integers(2**63))  # drawn for every seat, so seeds do not depend on the seat
            if p != self.seat:
                given = self._given.get(p)
                opponent = default_opponent(policy_seed) if given is None else given
                self._policies[p] = as_policy(opponent, policy_seed)
        self._done = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any):
        state = self._require_state()
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        mask = state.legal_action_mask()
        if not (0 <= action < len(mask) and mask[action]):
            if self.illegal_action == "raise":
                state.apply(action)  # raises IllegalActionError, state unchanged
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        state.apply(action)
        self._play_opponents()
        terminated = state.is_terminal
        reward = win_rewards(state)[self.seat] if terminated else 0.0
        self._done = terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool vector (the interface sb3-contrib's MaskablePPO looks for)."""
        state = self._require_state()
        if self._done:
            return np.zeros(self.game.num_actions, dtype=bool)
        return state.legal_action_mask()

    def render(self) -> Any:
        return render(self.render_mode, self._require_state() if self.render_mode else None)

    def close(self) -> None:
        pass

    # --- helpers -------------------------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        state = self._require_state()
        while not state.is_terminal and state.current_player != self.seat:
            player = state.current_player
            assert player is not None  # a game that is not over has a player to decide
            state.apply(self._policies[player](state.clone()))

    def _observation(self) -> np.ndarray:
        return self._require_state().observation(self.seat)

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        if self._done or state.is_terminal:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        else:
            mask = state.legal_action_mask().astype(np.int8)
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat, "decision": state.decision}
        if state.is_terminal:
            info.update(final_info(state))
        return info

    def _require_state(self) -> brass.State:
        if self.brass_state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.brass_state


class BrassVectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` Brass games stepped together for self-play: one policy plays every seat.

    Args:
        num_envs: the number of games.
        game, players: the configuration (`brass.env.configurations()` lists them).
        render_mode: None or "ansi" (`render()` returns one text picture per game).
        **options: the game's options (docs/classic.md), e.g. `intro=True`.

    Spaces: `single_action_space` is `Discrete(game.num_actions)` and `action_space` `MultiDiscrete` of
    `num_envs` of them; `single_observation_space` is `Box(float32, (game.observation_size,))` and
    `observation_space` the batch `(num_envs, observation_size)`.

    `reset(seed=s)` starts `num_envs` new games dealt from `s` (a fresh `brass.VecEnv(game, num_envs, seed=s)`:
    the same seed gives the same games); `reset()` without a seed starts the next games of the same batch
    (from fresh entropy before any seeded reset). Returns `(obs, info)`.

    `step(actions)` applies one action id per game (an int array of shape `(num_envs,)`); an illegal action
    raises `brass.IllegalActionError` naming the game, and nothing changes. Returns `(obs, reward,
    terminated, truncated, info)`:

    - `obs[i]`: `state.observation(p)` of the player `p` to move in game i (seats relative to that player,
      docs/observation.md); after a game ends, the first position of the next game;
    - `reward[i]` (float32): the reward of the seat that took this step's action in game i (the previous
      `info["current_player"][i]`): 0 while the game goes on; when this action ends the game, that seat's
      zero-sum return (`state.returns`, docs/api.md: a sole winner +1, the others -1/(n-1));
    - `terminated[i]`: the game ended with this step (and game i has restarted, `AutoresetMode.SAME_STEP`);
      `truncated` is always False (games are finite);
    - `info["action_mask"]`: the legal actions of every game, int8 `(num_envs, num_actions)` (ready for
      `action_space.sample(mask=tuple(info["action_mask"]))`; `action_masks()` gives it as bool);
      `info["current_player"]`: the seat to move in each game, int32 `(num_envs,)`;
    - when some game ended: `info["final_info"]` holds `returns` (float32 `(num_envs, players)`: every seat's
      zero-sum return) and `scores` (int32 `(num_envs, players)`: final VP), meaningful where
      `info["_final_info"]` is True. There is no `final_obs`: the engine restarts a finished game inside the
      batch step, and a terminated game needs no bootstrap value.

    Every key `k` of `info` comes with its Gymnasium mask `info["_k"]`. The batch runs natively in parallel with
    the GIL released (`brass.VecEnv`, docs/vecenv.md); `self.brass_vecenv` is it and `state(i)` a copy of
    game i's engine state.
    """

    metadata: dict[str, Any] = {
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        num_envs: int = 8,
        game: str = "lancashire",
        players: int = 4,
        render_mode: str | None = None,
        **options: bool,
    ) -> None:
        self.game: brass.Game = check_config(game, players, **options)
        if isinstance(num_envs, bool) or not hasattr(num_envs, "__index__"):
            raise brass.ArgumentTypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        num_envs = num_envs.__index__()
        if num_envs < 1:
            raise brass.ConfigError(f"num_envs must be at least 1, not {num_envs}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise brass.ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.num_envs = num_envs
        self.single_action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.single_observation_space = gymnasium.spaces.Box(
            OBS_LOW, OBS_HIGH, shape=(self.game.observation_size,), dtype=np.float32
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.brass_vecenv: brass.VecEnv | None = None
        self._all = np.ones(num_envs, dtype=bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every environment (see the class docstring); `options` is accepted and ignored,
        except `reset_mask` (partial resets), which this SAME_STEP environment never needs and refuses."""
        if seed is not None:
            if not isinstance(seed, bool) and isinstance(seed, (list, tuple, np.ndarray)):
                raise brass.ArgumentTypeError("seed must be an int or None: the batch derives every game from one seed")
            seed = check_seed(seed)
        if options and "reset_mask" in options:
            raise brass.ConfigError("reset_mask is not supported: finished games restart by themselves (SAME_STEP)")
        super().reset(seed=seed)
        if seed is not None or self.brass_vecenv is None:
            self.brass_vecenv = brass.VecEnv(self.game, self.num_envs, seed=deal_seed(seed, self.np_random))
        else:
            self.brass_vecenv.reset()
        return self.brass_vecenv.observations().copy(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        vec = self._require_vecenv()
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise brass.ArgumentTypeError(
                f"actions must be {self.num_envs} integer action ids (shape ({self.num_envs},)), "
                f"not an array of shape {ids.shape} and dtype {ids.dtype}"
            )
        movers = vec.current_players.copy()
        returns, dones = vec.step(ids.astype(np.int64, copy=False))
        returns, terminated = returns.copy(), dones.copy()
        reward = returns[np.arange(self.num_envs), movers].astype(np.float32)
        info = self._info()
        if terminated.any():
            info["final_info"] = {
                "returns": returns,
                "_returns": terminated.copy(),
                "scores": vec.scores.copy(),
                "_scores": terminated.copy(),
            }
            info["_final_info"] = terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=bool)
        return vec.observations().copy(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as bool, shape `(num_envs, num_actions)`."""
        return self._require_vecenv().legal_action_masks().copy()

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game (native, seeded from the environment's generator):
        a random policy for baselines."""
        seed = int(self.np_random.integers(2**63))
        return self._require_vecenv().sample_legal_actions(seed)

    def state(self, i: int) -> brass.State:
        """A copy of game i's engine state."""
        return self._require_vecenv().state(i)

    def render(self) -> tuple[str, ...] | None:
        """ "ansi": the text picture of each game (`str(state)` plus the legal-action count)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi').")
            return None
        vec = self._require_vecenv()
        return tuple(render_text(vec.state(i)) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        self.brass_vecenv = None

    def _info(self) -> dict[str, Any]:
        vec = self._require_vecenv()
        return {
            "action_mask": vec.legal_action_masks().astype(np.int8),
            "_action_mask": self._all.copy(),
            "current_player": vec.current_players.copy(),
            "_current_player": self._all.copy(),
        }

    def _require_vecenv(self) -> brass.VecEnv:
        if self.brass_vecenv is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.brass_vecenv


def register_envs() -> list[str]:
    """Register `brass/<game>-<n>p-v0` for every supported configuration (idempotent); returns the ids."""
    ids = []
    for name, counts in configurations().items():
        for n in counts:
            env_id = f"brass/{name}-{n}p-v0"
            if env_id not in gymnasium.registry:
                gymnasium.register(
                    id=env_id,
                    entry_point="brass.env.gymnasium:BrassEnv",
                    vector_entry_point="brass.env.gymnasium:BrassVectorEnv",
                    kwargs={"game": name, "players": n},
                    nondeterministic=False,
                )
            ids.append(env_id)
    return ids


register_envs()
