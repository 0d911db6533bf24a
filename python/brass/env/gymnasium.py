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
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np

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
    win_rewards,
)

__all__ = ["BrassEnv", "register_envs"]


class BrassEnv(gymnasium.Env):
    """One seat of a Brass game as a Gymnasium environment.

    Args:
        game, players: the configuration (`brass.env.configurations()` lists them).
        seat: the learner's seat (0 … players-1), or None for a seat drawn on every reset.
        opponents: the other seats' policies (see the module docstring); None: defaults everywhere.
        illegal_action: "terminate" (default: end the episode with `illegal_reward`) or "raise".
        illegal_reward: the reward of an illegal action under "terminate".
        render_mode: None, "ansi" (render() returns text) or "human" (prints it).
        **options: the game's options (docs/classic.md), e.g. `intro=True`.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

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

    def render(self) -> str | None:
        return render(self.render_mode, self._require_state() if self.render_mode else None)

    def close(self) -> None:
        pass

    # --- helpers -------------------------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        state = self._require_state()
        while not state.is_terminal and state.current_player != self.seat:
            state.apply(self._policies[state.current_player](state.clone()))

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
                    kwargs={"game": name, "players": n},
                    nondeterministic=False,
                )
            ids.append(env_id)
    return ids


register_envs()
