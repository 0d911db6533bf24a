"""Adapters to reinforcement-learning and game-AI frameworks (the optional extra `env`:
`pip install pettingzoo gymnasium open_spiel`, or from a clone `pip install '.[env]'`).

- `brass.env.pettingzoo`: `env(game=..., players=...)`, a PettingZoo AEC environment;
- `brass.env.gymnasium`: `BrassEnv(game=..., players=...)`, one seat as a Gymnasium environment
  (registered as `brass/<game>-<n>p-v0`);
- `brass.env.openspiel`: importing it registers `python_brass_<game>` OpenSpiel games.

Each submodule imports its framework; this package itself needs none of them. The adapters hold no rules:
every fact about the game comes from `brass`. Shared definitions (rewards, default opponents, the list of
supported configurations) are re-exported here. See docs/env.md.
"""

from brass.env._common import (
    RandomPolicy,
    as_policy,
    configurations,
    default_opponent,
    reward_range,
    win_rewards,
)

__all__ = ["RandomPolicy", "as_policy", "configurations", "default_opponent", "reward_range", "win_rewards"]
