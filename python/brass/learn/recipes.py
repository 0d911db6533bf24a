"""The recipes of the shipped networks: the settings of the run that trained each, for `brass learn --recipe
NAME` and `recipe(name)` (docs/learning.md, "Recipes").

A recipe is the run's configuration as its folder saved it (`docs/runs/NAME/config.json`), up to the iteration
that was shipped, with no time limit: what a user needs to train the same kind of network for a configuration
the package ships (or, with `--option` or another player count, for one it does not). The game is today's, so
its Greedy (the warm start's teacher and the arenas' yardstick) may be stronger than the one the run played.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from brass.learn.network import LearnError
from brass.learn.trainer import LearnConfig

#: What the runs of every shipped network share, beyond `LearnConfig`'s defaults: hidden layers 256 and 128, a
#: warm start on a fifth of Greedy's decisions, 192 games an iteration of 32 simulations each (96 at once), the
#: Gumbel search unrescaled with `c_scale` 0.25, value targets half the result and half the VP margin on half
#: the decisions, the auxiliary VP-margin head, a cosine learning rate down to 1e-4, and the trainer's arena
#: against Greedy alone every 10 iterations.
COMMON: dict[str, Any] = {
    "widths": [256, 128],
    "warm_start_sample_rate": 0.2,
    "warm_start_steps": 3000,
    "buffer": 500_000,
    "games_per_iteration": 192,
    "parallel": 96,
    "simulations": 32,
    "steps_per_iteration": 200,
    "rescale": False,
    "c_scale": 0.25,
    "aux_weight": 0.5,
    "value_margin": 0.5,
    "value_sample_rate": 0.5,
    "final_learning_rate": 1e-4,
    "eval_every": 10,
    "eval_anchors": ["greedy"],
}

#: Each shipped network's own settings: its configuration, seed, warm start, learning-rate decay, the deals of
#: the trainer's arena, and the iteration that was shipped (`iterations`).
OWN: dict[str, dict[str, Any]] = {
    "birmingham-2p": {
        "game": "birmingham",
        "players": 2,
        "seed": 4,
        "warm_start_games": 8000,
        "decay_iterations": 150,
        "eval_deals": 4,
        "iterations": 360,
    },
    "birmingham-3p": {
        "game": "birmingham",
        "players": 3,
        "seed": 1,
        "warm_start_games": 8000,
        "decay_iterations": 100,
        "eval_deals": 2,
        "iterations": 210,
    },
    "birmingham-4p": {
        "game": "birmingham",
        "players": 4,
        "seed": 1,
        "warm_start_games": 6000,
        "decay_iterations": 80,
        "eval_deals": 2,
        "iterations": 150,
    },
    "lancashire-2p": {
        "game": "lancashire",
        "players": 2,
        "seed": 1,
        "warm_start_games": 8000,
        "decay_iterations": 150,
        "eval_deals": 4,
        "iterations": 238,
    },
    "lancashire-3p": {
        "game": "lancashire",
        "players": 3,
        "seed": 1,
        "warm_start_games": 8000,
        "decay_iterations": 120,
        "eval_deals": 2,
        "iterations": 129,
    },
    "lancashire-4p": {
        "game": "lancashire",
        "players": 4,
        "seed": 1,
        "warm_start_games": 6000,
        "decay_iterations": 100,
        "eval_deals": 2,
        "iterations": 169,
    },
    "brass-3p": {
        "game": "brass",
        "players": 3,
        "seed": 1,
        "warm_start_games": 8000,
        "decay_iterations": 110,
        "eval_deals": 2,
        "iterations": 120,
    },
    "brass-4p": {
        "game": "brass",
        "players": 4,
        "seed": 1,
        "warm_start_games": 6000,
        "decay_iterations": 80,
        "eval_deals": 2,
        "iterations": 100,
    },
}

#: The names of the recipes: those of the shipped networks.
RECIPES: tuple[str, ...] = tuple(sorted(OWN))


def recipe(name: str, **changes: Any) -> LearnConfig:
    """The configuration of the run that trained the shipped network `name` (`"birmingham-3p"`, one of
    `RECIPES`), up to its shipped iteration and with no time limit, with `changes` (any `LearnConfig` field)
    applied over it. A `LearnError` names an unknown recipe or setting."""
    if not isinstance(name, str) or name not in OWN:
        raise LearnError(f"no recipe {name!r}: the recipes are those of the shipped networks, {', '.join(RECIPES)}")
    fields = {f.name for f in dataclasses.fields(LearnConfig)}
    unknown = sorted(set(changes) - fields)
    if unknown:
        raise LearnError(f"recipe {name}: no setting {', '.join(unknown)} (a LearnConfig field)")
    settings: dict[str, Any] = {**COMMON, **OWN[name], **changes}
    # Lists are copied, so a changed config never changes the recipe.
    copied: dict[str, Any] = {k: list(v) if isinstance(v, list) else v for k, v in settings.items()}
    return LearnConfig(**copied)


__all__ = ["COMMON", "OWN", "RECIPES", "recipe"]
