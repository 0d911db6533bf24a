"""Learning (docs/learning.md): an AlphaZero-style trainer for a policy-value network, `brass learn`.

Each iteration plays self-play games with the search the current network guides (`brass.search.SearchGames`,
evaluated natively: the games and the network's leaf evaluations run in Rust, without the GIL), adds their
decisions to a replay buffer, trains the network on batches drawn from it (JAX and optax, the `learn` extra),
and exports it to a `brass-net/1` safetensors file that `agents.Net` / `agents.NetMCTS` play with no framework
installed. Every `eval_every` iterations the arena measures it against Greedy and Random. A run lives in one
folder and resumes from it; an interrupted iteration is played again.

    brass learn --game birmingham --players 2 --out runs/b2 --minutes 50
    brass learn --out runs/b2 --resume

JAX is imported only when a run starts, so the rest of brass works without it. The package: the network and its
file (`brass.learn.network`), the training data (`brass.learn.data`), the trainer (`brass.learn.trainer`), the
settings that trained the shipped networks (`brass.learn.recipes`); the command is `brass.cli.learn`.
"""

from brass.learn.data import (
    MARGIN_SCALE,
    Buffer,
    Samples,
    imitation_samples,
    load_samples,
    margins,
    samples_of,
    save_samples,
)
from brass.learn.network import (
    INSTALL_HINT,
    NET_FORMAT,
    LearnError,
    depth_of,
    forward,
    forward_all,
    init_params,
    jax_libraries,
    layer_names,
    load_network,
    save_network,
)
from brass.learn.recipes import RECIPES, recipe
from brass.learn.trainer import (
    EVAL_SEED,
    LOG_COLUMNS,
    LearnConfig,
    Trainer,
    held_out,
    learning_rate_schedule,
    plot_log,
    stored_config,
    surprise_weights,
)

__all__ = [
    "EVAL_SEED",
    "MARGIN_SCALE",
    "INSTALL_HINT",
    "LOG_COLUMNS",
    "NET_FORMAT",
    "RECIPES",
    "Buffer",
    "LearnConfig",
    "LearnError",
    "Samples",
    "Trainer",
    "depth_of",
    "forward",
    "forward_all",
    "held_out",
    "imitation_samples",
    "init_params",
    "jax_libraries",
    "layer_names",
    "learning_rate_schedule",
    "load_network",
    "load_samples",
    "margins",
    "plot_log",
    "recipe",
    "samples_of",
    "save_network",
    "save_samples",
    "stored_config",
    "surprise_weights",
]
