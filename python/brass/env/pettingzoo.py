"""PettingZoo AEC environment for every game and player count the engine supports.

    >>> from brass.env import pettingzoo as brass_pz
    >>> env = brass_pz.env(game="lancashire", players=4)
    >>> env.reset(seed=7)                      # deals exactly brass.Game("lancashire", players=4).new_state(7)
    >>> for agent in env.agent_iter():
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

Agents are `player_0 … player_{n-1}` (engine seats 0 … n-1). Each has the action space
`Discrete(game.num_actions)` and a Dict observation space: `observation` (Box float32 of
`game.observation_size`, `state.observation(seat)`: only what that seat may see, seats relative to it) and
`action_mask` (Box int8 0/1 of `game.num_actions`: the legal actions for the agent to move, all zeros for
the others). The same agent may act several times in a row (a turn is several decisions).

Rewards are 0 until the game ends, then `brass.env.win_rewards` (zero-sum: a sole winner +1, the others
-1/(n-1); ties after tie-breaks share). `infos` are `{}` during the game and
`{"scores": [...], "winners": [...]}` at the end. `env()` adds PettingZoo's standard wrappers (an illegal
action ends the game with -1 for the offender); `raw_env()` raises `brass.IllegalActionError` instead.
See docs/env.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from brass._errors import MissingExtraError

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:  # say which extra brings it, not just the module's name
    raise MissingExtraError("brass.env.pettingzoo", e.name or "pettingzoo", "env") from None

import brass
from brass.env._common import (
    OBS_HIGH,
    OBS_LOW,
    check_config,
    check_seed,
    config_label,
    deal_seed,
    final_info,
    render,
    win_rewards,
)

__all__ = ["BrassAECEnv", "env", "raw_env"]

#: Reward given by `env()` to an agent that plays an illegal action (the game then ends).
ILLEGAL_REWARD = -1.0


def env(game: str = "lancashire", players: int = 4, render_mode: str | None = None, **options: bool) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (illegal move → game over with -1 for the
    offender; out-of-range actions asserted; API order enforced). `options` are the game's (docs/classic.md),
    e.g. `env(players=3, intro=True)`."""
    e: AECEnv = BrassAECEnv(game=game, players=players, render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class BrassAECEnv(AECEnv):
    """Brass as a PettingZoo AEC environment (unwrapped; `env()` wraps it)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "brass_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str = "lancashire", players: int = 4, render_mode: str | None = None, **options: bool
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise brass.ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.game: brass.Game = check_config(game, players, **options)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"brass_{config_label(game, players, options)}_v0")
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        # One space object per agent, returned on every call (PettingZoo seeds them per agent).
        self.observation_spaces = {a: self._make_observation_space() for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.brass_state: brass.State | None = None  # the engine state of the game under way
        self.agents: list[str] = []

    # --- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # --- API -----------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `reset(seed=s)` deals `game.new_state(s)` and reseeds the generator that deals later
        `reset()` calls; `options` is accepted and ignored."""
        if seed is not None:
            self._rng = np.random.default_rng(check_seed(seed))
        self.brass_state = self.game.new_state(deal_seed(seed, self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        player = self.brass_state.current_player
        assert player is not None  # a new game has a player to decide
        self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        seat = self._seat[agent]
        if state.current_player == seat:
            mask = state.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": state.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        if action is None:
            raise brass.IllegalActionError(f"{agent} is to move: step(None) is only for agents whose game is over")
        state.apply(int(action))  # IllegalActionError (state unchanged) on an illegal id
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal:
            rewards = win_rewards(state)
            self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: final_info(state) for a in self.agents}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            player = state.current_player
            assert player is not None  # a game that is not over has a player to decide
            self.agent_selection = self.possible_agents[player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.render_mode, self._require_state() if self.render_mode else None)

    def close(self) -> None:
        pass

    # --- helpers -------------------------------------------------------------------------------------------
    def _make_observation_space(self) -> gymnasium.spaces.Dict:
        size, actions = self.game.observation_size, self.game.num_actions
        return gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(OBS_LOW, OBS_HIGH, shape=(size,), dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )

    def _require_state(self) -> brass.State:
        if self.brass_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.brass_state


#: PettingZoo's conventional name for the unwrapped class.
raw_env = BrassAECEnv
