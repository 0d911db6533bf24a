"""The network a run trains: a multilayer perceptron with a policy head and a value head, evaluated here in JAX
exactly as rust/brass-core/src/net.rs evaluates it, and its `brass-net/1` safetensors file (the format
`agents.Net` reads, with no framework installed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

import brass
from brass._errors import install_hint
from brass._files import write_whole

#: The network file format (rust/brass-core/src/net.rs).
NET_FORMAT = "brass-net/1"
INSTALL_HINT = install_hint("learn")


class LearnError(brass.BrassError):
    """A training run cannot start or go on (a missing extra, a folder of another run, ...)."""


def jax_libraries() -> tuple[Any, Any, Any]:
    """`jax`, `jax.numpy` and `optax`, imported when a run starts; `LearnError` naming the extra without them."""
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise LearnError(f"training needs JAX and optax: {INSTALL_HINT}") from None
    return jax, jnp, optax


def layer_names(depth: int) -> list[str]:
    """The dense layers of a network with `depth` hidden layers, in order: the trunk, the policy and value heads
    (the file's), and the auxiliary head the trainer alone uses (`aux`: final and first-era VP margins per seat,
    never exported)."""
    return [f"trunk.{i}" for i in range(depth)] + ["policy", "value", "aux"]


#: The tensors of the trainer's auxiliary head, left out of the exported file.
AUX_PREFIX = "aux."


def init_params(game: brass.Game, widths: Sequence[int], seed: int) -> dict[str, np.ndarray]:
    """Fresh weights: He-normal for the trunk (ReLU), small for the heads (near-uniform priors, values near 0)."""
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    inputs = game.observation_size
    sizes = [*widths, game.num_actions, game.players, 2 * game.players]
    for name, outputs in zip(layer_names(len(widths)), sizes, strict=True):
        scale = np.sqrt(2.0 / inputs) if name.startswith("trunk") else 0.01
        params[f"{name}.weight"] = (rng.standard_normal((inputs, outputs)) * scale).astype(np.float32)
        params[f"{name}.bias"] = np.zeros(outputs, np.float32)
        if name.startswith("trunk"):
            inputs = outputs
    return params


def depth_of(params: dict[str, Any]) -> int:
    return sum(1 for name in params if name.startswith("trunk.") and name.endswith(".weight"))


def forward(params: dict[str, Any], observations: Any) -> tuple[Any, Any]:
    """Logits and values (tanh, relative to each observer) of a batch, in JAX; the same function as net.rs."""
    logits, values, _ = forward_all(params, observations)
    return logits, values


def forward_all(params: dict[str, Any], observations: Any) -> tuple[Any, Any, Any]:
    """`forward` and the auxiliary head's predictions (None for weights without it)."""
    _, jnp, _ = jax_libraries()
    x = observations
    for i in range(depth_of(params)):
        x = jnp.maximum(x @ params[f"trunk.{i}.weight"] + params[f"trunk.{i}.bias"], 0.0)
    logits = x @ params["policy.weight"] + params["policy.bias"]
    values = jnp.tanh(x @ params["value.weight"] + params["value.bias"])
    aux = x @ params["aux.weight"] + params["aux.bias"] if "aux.weight" in params else None
    return logits, values, aux


def save_network(params: dict[str, Any], game: brass.Game, path: str, about: dict[str, Any] | None = None) -> None:
    """Export weights to a `brass-net/1` safetensors file for `agents.Net` (whole or not at all: `write_whole`,
    with the mode of the run's other files, where safetensors' own writer gives 0600)."""
    try:
        from safetensors.numpy import save
    except ImportError:
        raise LearnError(f"exporting a network needs safetensors: {INSTALL_HINT}") from None
    game_meta = {"name": game.name, "players": game.players, "options": dict(game.options)}
    metadata = {"format": NET_FORMAT, "game": json.dumps(game_meta), "engine": f"brass {brass.__version__}"}
    metadata.update({k: json.dumps(v) for k, v in (about or {}).items()})
    tensors = {
        name: np.ascontiguousarray(np.asarray(value, dtype=np.float32))
        for name, value in params.items()
        if not name.startswith(AUX_PREFIX)
    }
    write_whole(path, save(tensors, metadata=metadata))


def load_network(path: str) -> dict[str, np.ndarray]:
    """The weights of a network file, by tensor name."""
    from safetensors.numpy import load_file

    return dict(load_file(path))
