"""The trainer (docs/learning.md, "brass learn"): a run's configuration, its iterations of self-play, training,
export, evaluation and checkpoint in one folder, its log and its learning curve.

Every iteration also measures what the network has learnt on the games it has just played, before it trains on
them (so they are held out): the value head's error against the best constant, the policy head's agreement
with the search's choice and the KL from its prior to the search's policy. Every `eval_every` iterations an
arena on deals no training game uses rates the network's search and its raw policy against fixed anchors.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

import brass
from brass import agents, search
from brass._files import remove_partials, replacing, write_whole
from brass.learn.data import Buffer, Samples, imitation_samples, load_samples, samples_of, save_samples, widen
from brass.learn.network import INSTALL_HINT, LearnError, forward_all, init_params, jax_libraries, save_network
from brass.samples import unpack_masks

#: The arena's deals: a seed no self-play game of a run uses (self-play deals come from the run's seed).
EVAL_SEED = 0x5EED_A4E4A


@dataclass
class LearnConfig:
    """A training run (docs/learning.md, "brass learn"); saved in the run's folder as config.json."""

    game: str = "birmingham"
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    widths: list[int] = field(default_factory=lambda: [256, 128])
    seed: int = 1
    #: Stop after this many iterations, or once `minutes` of wall time have passed (whichever comes first).
    iterations: int = 1000
    minutes: float | None = None
    games_per_iteration: int = 64
    #: The search of self-play: "gumbel" (Gumbel AlphaZero, `considered` root actions) or "puct".
    search: str = "gumbel"
    simulations: int = 32
    considered: int = 16
    #: Gumbel: rescale each node's completed Q-values to [0, 1] (mctx's default, right for exact values); off,
    #: a small difference between noisy values stays small in the policy target.
    rescale: bool = True
    #: Gumbel: σ(q) = (c_visit + most visits) · c_scale · q, the weight of the completed Q-values against the
    #: priors in the improved policy (mctx's `maxvisit_init` and `value_scale`).
    c_visit: float = 50.0
    c_scale: float = 0.1
    parallel: int = 64
    c_puct: float = 1.5
    #: PUCT's root noise and the decisions drawn by visit counts (Gumbel draws its own).
    dirichlet_alpha: float = 0.3
    temperature_decisions: int = 30
    #: The policy target: "completed_q" (the improved policy, docs/learning.md) or "visits" (AlphaZero's).
    policy_target: str = "completed_q"
    #: Playout-cap randomisation (KataGo): the share of decisions searched in full (their policy a target), the
    #: others with `fast_simulations` only to play on.
    full_search_fraction: float = 1.0
    fast_simulations: int = 8
    batch_size: int = 256
    steps_per_iteration: int = 100
    learning_rate: float = 1e-3
    #: The learning rate falls along a cosine from `learning_rate` to `final_learning_rate` over the first
    #: `decay_iterations` iterations (the warm start's steps at `learning_rate`), then stays there; 0: constant.
    #: The shipped Birmingham 2p network's run fell from 10⁻³ to 10⁻⁴ over 150 iterations (docs/learning.md).
    decay_iterations: int = 0
    final_learning_rate: float = 1e-4
    weight_decay: float = 1e-4
    #: The weights of the value loss and of the auxiliary targets' (final and first-era VP margins).
    value_weight: float = 1.0
    aux_weight: float = 0.0
    #: The value target: (1 − m) × the game's result + m × tanh(final VP margin / 10) (0: the result alone). A
    #: margin says more than a win or a loss about the position, and is less noisy to learn from.
    value_margin: float = 0.0
    #: The share of each iteration's self-play decisions that keep their value and auxiliary targets (drawn
    #: once, seeded): a game's ~150 decisions share one result, and a value head trained on all of them learns
    #: the buffer's games by heart (held-out error above the constant's) while its training loss falls.
    value_sample_rate: float = 1.0
    #: Policy surprise weighting (KataGo): each self-play decision is drawn from the buffer with weight
    #: (1 − s) + s × its surprise / the iteration's mean surprise, the surprise being the KL divergence from
    #: the network's prior (the one that played) to the search's policy target. Decisions where the search
    #: taught the prior something are learnt from more often. 0: uniform draws.
    policy_surprise: float = 0.0
    buffer: int = 50_000
    #: Greedy self-play games imitated before the first iteration (each decision kept with probability
    #: `warm_start_sample_rate`), and the training steps on them.
    warm_start_games: int = 0
    warm_start_steps: int = 0
    warm_start_sample_rate: float = 1.0
    eval_every: int = 5
    #: Deals of each evaluation match (every seat of each, so `players` games a deal).
    eval_deals: int = 10
    eval_simulations: int = 64
    #: The fixed anchors of the arena (agent specs); the warm-start network and the best so far join them.
    eval_anchors: list[str] = field(default_factory=lambda: ["random", "greedy", "mcts:300"])
    #: Self-play on a Ray cluster: its address, or "local" for one started on this machine; None: this process.
    ray: str | None = None

    def make_game(self) -> brass.Game:
        return brass.Game(self.game, players=self.players, **self.options)

    def check(self) -> brass.Game:
        """The run's game, once every setting is known to be usable: a `LearnError` naming the first that is not
        (a bad game, player count or option is the engine's own error). A new run calls this before it makes its
        folder or plays its warm start, so a bad search setting is not found minutes later by the first
        iteration's self-play."""
        game = self.make_game()
        choices = {"search": ("gumbel", "puct"), "policy_target": ("completed_q", "visits")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise LearnError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        at_least_one = ["iterations", "games_per_iteration", "simulations", "parallel", "batch_size", "buffer"]
        at_least_one += ["eval_deals", "eval_simulations", "fast_simulations", "considered"]
        at_least_zero = ["steps_per_iteration", "decay_iterations", "temperature_decisions", "eval_every"]
        at_least_zero += ["warm_start_games", "warm_start_steps"]
        non_negative = ["c_puct", "dirichlet_alpha", "c_visit", "c_scale", "weight_decay", "value_weight"]
        non_negative += ["aux_weight"]
        shares = ["full_search_fraction", "value_margin", "value_sample_rate", "warm_start_sample_rate"]
        shares += ["policy_surprise"]
        positive = ["learning_rate", "final_learning_rate"] + ([] if self.minutes is None else ["minutes"])
        for name in at_least_one + at_least_zero:
            value, least = getattr(self, name), 1 if name in at_least_one else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise LearnError(f"{name} must be a whole number of at least {least}, not {value!r}")
        for name in non_negative + shares + positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise LearnError(f"{name} must be a finite number, not {value!r}")
            if name in non_negative and value < 0:
                raise LearnError(f"{name} must not be negative, not {value!r}")
            if name in shares and not 0 <= value <= 1:
                raise LearnError(f"{name} is a share: it must lie between 0 and 1, not {value!r}")
            if name in positive and value <= 0:
                raise LearnError(f"{name} must be positive, not {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**64:
            # The engine's seeds are 64-bit: found here, not by the first game after the folder is made.
            raise LearnError(f"seed must be a whole number with 0 <= seed < 2**64, not {self.seed!r}")
        if not self.widths or any(isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in self.widths):
            raise LearnError(f"widths must be one or more layer sizes of at least 1, not {self.widths!r}")
        return game


#: The columns of log.csv.
LOG_COLUMNS = [
    "iteration",
    "minutes",
    "games",
    "samples",
    "buffer",
    "policy_loss",
    "value_loss",
    "aux_loss",
    "selfplay_seconds",
    "engine_seconds",
    "network_seconds",
    "train_seconds",
    "leaf_evaluations",
    "learning_rate",
    # Held out: this iteration's games, measured before training on them.
    "value_mse",
    "value_mse_constant",
    "value_r2",
    "policy_agreement",
    "policy_kl",
    "target_entropy",
    "prior_entropy",
    # The arena (every eval_every iterations).
    "rating",
    "rating_sigma",
    "vs_greedy_win_rate",
    "vs_greedy_low",
    "vs_greedy_high",
    "vs_random_win_rate",
    "vs_mcts_win_rate",
    "raw_vs_greedy_win_rate",
    "best",
]


#: The held-out measures read every this many decisions of an iteration's games.
HELD_OUT_STRIDE = 4


def held_out(params: dict[str, Any], data: Samples, num_actions: int) -> dict[str, float]:
    """What a network has learnt, measured on games it has not trained on: the value head's mean squared error
    (summed over seats) against the best constant's (each seat's mean result) and their ratio's complement
    (R², above 0 when the head knows more than the constant); on the decisions with a policy target and a choice,
    how often the prior's best action is the target's, the KL from the prior to the target (how much the search
    still teaches) and both entropies."""
    logits, values, _ = forward_all(params, data.observation.astype(np.float32))
    logits, values = np.asarray(logits, np.float64), np.asarray(values, np.float64)
    target = data.value.astype(np.float64)
    mse = float(np.mean(np.sum((values - target) ** 2, axis=1)))
    constant = float(np.mean(np.sum((target - target.mean(axis=0)) ** 2, axis=1)))
    out = {"value_mse": mse, "value_mse_constant": constant, "value_r2": 1 - mse / constant if constant else 0.0}
    rows, kl, parts = _policy_divergence(logits, data, num_actions)
    if rows.any():
        masked, policy, log_target, prior, finite_prior = parts
        out["policy_agreement"] = float(np.mean(np.argmax(masked, axis=1) == np.argmax(policy, axis=1)))
        out["policy_kl"] = float(np.mean(kl))
        out["target_entropy"] = float(np.mean(-np.sum(policy * log_target, axis=1)))
        out["prior_entropy"] = float(np.mean(-np.sum(prior * finite_prior, axis=1)))
    return {k: round(v, 4) for k, v in out.items()}


def _policy_divergence(logits: np.ndarray, data: Samples, num_actions: int) -> tuple[np.ndarray, np.ndarray, Any]:
    """The decisions with a policy target and a choice (a mask over the rows), the KL divergence from the
    prior (`logits` over the legal actions) to the target on each of them, and the arrays it was made of."""
    mask = unpack_masks(data.legal_mask, num_actions)
    rows = (np.asarray(data.policy_weight) > 0) & (mask.sum(axis=1) > 1)
    masked = np.where(mask[rows], logits[rows], -np.inf)
    log_prior = masked - np.logaddexp.reduce(masked, axis=1, keepdims=True) if rows.any() else masked
    policy = data.policy[rows].astype(np.float64)
    policy /= np.maximum(policy.sum(axis=1, keepdims=True), 1e-30)
    log_target = np.log(np.where(policy > 0, policy, 1.0))  # 0 where the target is 0, which it multiplies
    finite_prior = np.where(mask[rows], log_prior, 0.0)  # the target is 0 off the legal actions
    kl = np.sum(policy * (log_target - finite_prior), axis=1)
    return rows, kl, (masked, policy, log_target, np.exp(log_prior), finite_prior)


#: The rows of one compiled pass of `surprise_weights` (the last part of an iteration is padded to it, so the
#: pass is compiled once).
SURPRISE_CHUNK = 4096


def _surprise_kl(params: dict[str, Any], observations: Any, mask: Any, policy: Any) -> Any:
    """Each row's KL divergence from the prior (the masked softmax of the logits) to the policy target, in one
    pass over the actions: Σ p ln p − Σ p · logit + logsumexp(legal logits), the target being 0 off the legal
    actions."""
    jax, jnp, _ = jax_libraries()
    logits, _, _ = forward_all(params, observations)
    lse = jax.nn.logsumexp(jnp.where(mask, logits, -jnp.inf), axis=1)
    p = policy / jnp.maximum(jnp.sum(policy, axis=1, keepdims=True), 1e-30)
    p_log_p = jnp.sum(jnp.where(p > 0, p * jnp.log(jnp.where(p > 0, p, 1.0)), 0.0), axis=1)
    p_logits = jnp.sum(jnp.where(mask, p * logits, 0.0), axis=1)
    return p_log_p - p_logits + lse


_compiled_surprise_kl: Any = None


def surprise_weights(params: dict[str, Any], data: Samples, num_actions: int, share: float) -> np.ndarray:
    """Policy surprise weighting (`LearnConfig.policy_surprise`): each decision's sampling weight, (1 − share) +
    share × its KL divergence from prior to target / the mean of those divergences. Decisions without a policy
    target or without a choice have no surprise (weight 1 − share); the weights' mean over the decisions with
    one is 1, as an unweighted decision's."""
    global _compiled_surprise_kl
    if _compiled_surprise_kl is None:
        jax, _, _ = jax_libraries()
        _compiled_surprise_kl = jax.jit(_surprise_kl)
    mask = unpack_masks(data.legal_mask, num_actions)
    targets = (np.asarray(data.policy_weight) > 0) & (mask.sum(axis=1) > 1)
    kl = np.zeros(len(data), np.float64)
    for start in range(0, len(data), SURPRISE_CHUNK):
        rows = slice(start, start + SURPRISE_CHUNK)
        obs = np.zeros((SURPRISE_CHUNK, data.observation.shape[1]), np.float32)
        legal = np.zeros((SURPRISE_CHUNK, num_actions), bool)
        policy = np.zeros((SURPRISE_CHUNK, num_actions), np.float32)
        n = len(data.observation[rows])
        obs[:n], legal[:n], policy[:n] = data.observation[rows], mask[rows], data.policy[rows]
        legal[n:, 0] = policy[n:, 0] = 1.0  # padding rows: one legal action, its own target (KL 0)
        kl[rows] = np.asarray(_compiled_surprise_kl(params, obs, legal, policy), np.float64)[:n]
    kl = np.where(targets, np.maximum(kl, 0.0), 0.0)
    mean = float(kl[targets].mean()) if targets.any() else 0.0
    # Below this the divergences are rounding (a prior that is the target: ~1e-7), not surprise; self-play's
    # mean is 0.005-0.02.
    if mean <= 1e-5:
        return np.ones(len(data), np.float32)
    return ((1.0 - share) + share * kl / mean).astype(np.float32)


def stored_config(folder: str) -> LearnConfig:
    """The configuration of the run in `folder` (its config.json)."""
    path = os.path.join(folder, "config.json")
    if not os.path.exists(path):
        raise LearnError(f"{folder} holds no run to resume (no config.json)")
    with open(path) as f:
        return LearnConfig(**json.load(f))


def learning_rate_schedule(c: LearnConfig, optax: Any) -> Any:
    """The learning rate of the run's optimiser: `learning_rate` itself, or with `decay_iterations` a schedule of
    the update count — constant through the warm start's steps, then a cosine down to `final_learning_rate` over
    `decay_iterations` iterations of `steps_per_iteration` steps, then constant."""
    if c.decay_iterations <= 0:
        return c.learning_rate  # a plain rate: the optimiser state of runs made before schedules existed
    if not 0 < c.final_learning_rate <= c.learning_rate:
        raise LearnError(
            f"final_learning_rate {c.final_learning_rate} must be positive and at most learning_rate {c.learning_rate}"
        )
    warm = c.warm_start_steps if c.warm_start_games > 0 else 0
    falling = optax.cosine_decay_schedule(
        c.learning_rate, c.decay_iterations * c.steps_per_iteration, alpha=c.final_learning_rate / c.learning_rate
    )
    return optax.join_schedules([optax.constant_schedule(c.learning_rate), falling], [warm])


def _base_name(name: str) -> str:
    """An arena entrant's agent name without the `#n` that tells copies of it apart."""
    return re.sub(r"#\d+$", "", name)


class Trainer:
    """A training run in `folder`: `run()` trains until its budget is spent, checkpointing every iteration."""

    def __init__(
        self, folder: str, config: LearnConfig | None = None, resume: bool = False, say: Callable[[str], None] = print
    ) -> None:
        self.folder, self.say = folder, say
        self.jax, self.jnp, self.optax = jax_libraries()
        path = os.path.join(folder, "config.json")
        if resume:
            self.config = stored_config(folder)
            for part in (folder, os.path.join(folder, "data"), os.path.join(folder, "nets")):
                remove_partials(part)
        else:
            if os.path.exists(path):
                raise LearnError(f"{folder} already holds a run: pass --resume to continue it, or another --out")
            self.config = config or LearnConfig()
            # A bad setting or schedule is refused before the folder is made.
            self.config.check()
            learning_rate_schedule(self.config, self.optax)
            os.makedirs(os.path.join(folder, "data"), exist_ok=True)
            os.makedirs(os.path.join(folder, "nets"), exist_ok=True)
            write_whole(path, json.dumps(asdict(self.config), indent=1))
        self.game = self.config.make_game()
        self.learning_rate = learning_rate_schedule(self.config, self.optax)
        self.optimizer = self.optax.adamw(self.learning_rate, weight_decay=self.config.weight_decay)
        self._update = self.jax.jit(self._update_step)
        self.buffer = Buffer(self.config.buffer)
        self.iteration = 0
        self.minutes_before = 0.0
        #: The best network so far by the arena (its iteration and score), or empty.
        self.best: dict[str, Any] = {}
        self._ray: Any = None
        checkpoint = os.path.join(folder, "checkpoint.npz")
        #: Whether the warm start is behind us (or there is none): a checkpoint exists.
        self.warmed = os.path.exists(checkpoint)
        if resume and os.path.exists(checkpoint):
            self._load_checkpoint(checkpoint)
        else:
            self.params = {
                k: self.jnp.asarray(v) for k, v in init_params(self.game, self.config.widths, self.config.seed).items()
            }
            self.opt_state = self.optimizer.init(self.params)
        self.rng = np.random.default_rng([self.config.seed, self.iteration])

    # --- the update -----------------------------------------------------------------------------------

    def _loss(self, params: dict[str, Any], batch: dict[str, Any]) -> tuple[Any, tuple[Any, Any, Any]]:
        jnp, jax = self.jnp, self.jax
        c = self.config
        logits, values, aux = forward_all(params, batch["observation"])
        logits = jnp.where(batch["mask"], logits, -1e9)  # only legal actions have probability
        cross_entropy = -jnp.sum(batch["policy"] * jax.nn.log_softmax(logits), axis=1)
        weight = batch["policy_weight"]
        policy_loss = jnp.sum(weight * cross_entropy) / jnp.maximum(jnp.sum(weight), 1.0)
        n = batch["value"].shape[1]
        margin = jnp.tanh(2.0 * batch["aux"][:, :n])  # the final margins are stored / 20: tanh(VP / 10)
        target = jnp.where(
            jnp.isnan(margin), batch["value"], (1 - c.value_margin) * batch["value"] + c.value_margin * margin
        )
        # Rows without a value target (NaN: `value_sample_rate`) count for the policy only.
        valued = ~jnp.isnan(target[:, 0])
        squared = jnp.sum((values - jnp.where(valued[:, None], target, 0.0)) ** 2, axis=1)
        value_loss = jnp.sum(jnp.where(valued, squared, 0.0)) / jnp.maximum(jnp.sum(valued), 1.0)
        known = ~jnp.isnan(batch["aux"])
        error = jnp.where(known, aux - jnp.where(known, batch["aux"], 0.0), 0.0) if aux is not None else 0.0
        aux_loss = jnp.sum(error**2) / jnp.maximum(jnp.sum(known), 1.0) * batch["aux"].shape[1]
        total = policy_loss + c.value_weight * value_loss + c.aux_weight * aux_loss
        return total, (policy_loss, value_loss, aux_loss)

    def _update_step(self, params: dict[str, Any], opt_state: Any, stored: dict[str, Any]) -> tuple[Any, ...]:
        batch = widen(stored, self.game.num_actions, self.jnp)
        (_, losses), grads = self.jax.value_and_grad(self._loss, has_aux=True)(params, batch)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return self.optax.apply_updates(params, updates), opt_state, losses

    def learning_rate_of(self, iteration: int) -> float:
        """The learning rate of iteration `iteration`'s first training step."""
        c = self.config
        if callable(self.learning_rate):
            warm = c.warm_start_steps if c.warm_start_games > 0 else 0
            return float(self.learning_rate(warm + (iteration - 1) * c.steps_per_iteration))
        return float(self.learning_rate)

    def train(self, steps: int) -> tuple[float, float, float]:
        """`steps` updates on batches from the buffer; the mean policy, value and auxiliary losses."""
        losses = []
        for _ in range(steps):
            stored = self.buffer.stored_batch(self.rng, self.config.batch_size)
            self.params, self.opt_state, parts = self._update(self.params, self.opt_state, stored)
            losses.append(parts)  # read once at the end: a read each step would wait for it, not draw the next batch
        mean = np.mean([[float(x) for x in parts] for parts in losses], axis=0) if losses else [float("nan")] * 3
        return float(mean[0]), float(mean[1]), float(mean[2])

    # --- files ----------------------------------------------------------------------------------------

    @property
    def net_path(self) -> str:
        """The latest network, for agents.Net / agents.NetMCTS."""
        return os.path.join(self.folder, "net.safetensors")

    def _export(self, path: str, iteration: int) -> None:
        """The network as a file, naming the search it was trained with (`NetMCTS` uses it by default)."""
        c = self.config
        about = {
            "iteration": iteration,
            "search": c.search,
            "gumbel_rescale": c.rescale,
            "gumbel_c_visit": c.c_visit,
            "gumbel_c_scale": c.c_scale,
        }
        save_network(self.params, self.game, path, about)

    def _save_checkpoint(self, minutes: float, best: dict[str, Any] | None = None) -> None:
        leaves, _ = self.jax.tree_util.tree_flatten(self.opt_state)
        arrays = {f"param/{k}": np.asarray(v) for k, v in self.params.items()}
        arrays.update({f"opt/{i}": np.asarray(v) for i, v in enumerate(leaves)})
        meta = {"iteration": self.iteration, "minutes": minutes, "best": best or self.best}
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        with replacing(os.path.join(self.folder, "checkpoint.npz")) as f:
            np.savez(f, allow_pickle=False, **arrays)

    def _load_checkpoint(self, path: str) -> None:
        with np.load(path) as f:
            meta = json.loads(bytes(f["meta"]).decode())
            self.params = {k[6:]: self.jnp.asarray(f[k]) for k in f.files if k.startswith("param/")}
            template = self.optimizer.init(self.params)
            _, tree = self.jax.tree_util.tree_flatten(template)
            leaves = [self.jnp.asarray(f[f"opt/{i}"]) for i in range(tree.num_leaves)]
        self.opt_state = self.jax.tree_util.tree_unflatten(tree, leaves)
        self.iteration, self.minutes_before = meta["iteration"], meta["minutes"]
        self.best = meta.get("best") or {}
        self._forget_after(self.iteration)
        # The buffer: the newest self-play files, up to its capacity.
        files = sorted(os.listdir(os.path.join(self.folder, "data")))
        parts: list[Samples] = []
        held = 0
        for name in reversed(files):
            if not name.endswith(".npz") or held >= self.config.buffer:
                continue
            parts.append(load_samples(os.path.join(self.folder, "data", name)))
            held += len(parts[-1])
        for part in reversed(parts):
            self.buffer.add(part)
        self.say(f"resumed {self.folder} after iteration {self.iteration} ({len(self.buffer)} samples in the buffer)")

    def _prune_data(self) -> None:
        """Delete the saved samples the buffer no longer holds (a resumed run rebuilds it from the newest files):
        the files older than the newest ones that hold `buffer` decisions. A file's name ends in its rows."""
        folder = os.path.join(self.folder, "data")
        held = 0
        for name in sorted((n for n in os.listdir(folder) if n.endswith(".npz")), reverse=True):
            if held >= self.config.buffer:
                os.remove(os.path.join(folder, name))
                continue
            rows = name[: -len(".npz")].rsplit("-", 1)[-1]
            held += int(rows) if rows.isdigit() and "-" in name else self.config.buffer
        return

    def _forget_after(self, iteration: int) -> None:
        """Drop what a killed run wrote of the iteration after its checkpoint's, which a resumed run plays again:
        its log row (written before the checkpoint) and its samples (they would be in the buffer twice)."""
        self._write_log([r for r in self._log_rows() if int(r["iteration"]) <= iteration])
        folder = os.path.join(self.folder, "data")
        for name in os.listdir(folder):
            if name.endswith(".npz") and name[:4].isdigit() and int(name[:4]) > iteration:
                os.remove(os.path.join(folder, name))

    def _log_rows(self) -> list[dict[str, str]]:
        path = os.path.join(self.folder, "log.csv")
        if not os.path.exists(path):
            return []
        with open(path, newline="") as f:
            return list(csv.DictReader(f))

    def _write_log(self, rows: Sequence[dict[str, Any]]) -> None:
        """log.csv rewritten whole (`replacing`): an append cut short by a kill would leave half a row."""
        with replacing(os.path.join(self.folder, "log.csv"), "w") as f:
            writer = csv.DictWriter(f, LOG_COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows({k: row.get(k, "") for k in LOG_COLUMNS} for row in rows)

    def _log(self, row: dict[str, Any]) -> None:
        self._write_log([*self._log_rows(), row])

    # --- the run --------------------------------------------------------------------------------------

    def warm_start(self) -> None:
        """Imitate Greedy before the first iteration (once per run: the checkpoint written after it marks it
        done, and a resumed run takes its data from the run's folder). The network it ends with is kept as
        `nets/0000.safetensors`, an anchor of the arena."""
        c = self.config
        if self.warmed:
            return
        started = time.perf_counter()
        if c.warm_start_games > 0:
            # The warm start's games are not the run's self-play games: their seed is offset, and kept 64-bit for
            # a run seed near 2**64.
            data = imitation_samples(
                self.game, c.warm_start_games, seed=(c.seed + 7919) % 2**64, sample_rate=c.warm_start_sample_rate
            )
            save_samples(data, os.path.join(self.folder, "data", f"0000-greedy-{len(data)}.npz"))
            self.buffer.add(data)
            policy_loss, value_loss, _ = self.train(c.warm_start_steps)
            self.say(
                f"warm start: {len(data)} decisions of {c.warm_start_games} Greedy games, {c.warm_start_steps} "
                f"steps, losses {policy_loss:.3f} / {value_loss:.3f} ({time.perf_counter() - started:.0f} s)"
            )
        self._export(os.path.join(self.folder, "nets", "0000.safetensors"), 0)
        self.warmed = True
        self._save_checkpoint(self.minutes_before + (time.perf_counter() - started) / 60)

    def evaluate(self) -> dict[str, Any]:
        """The arena, on deals no self-play game uses (the same at every evaluation): the network's search
        (`NetMCTS(eval_simulations)`) in one seat against each anchor in all the others — the fixed ones, the
        warm-start network's search, the best network so far — and its raw policy against Greedy, every seat in
        turn; OpenSkill ratings from all these games together, and the win rates with their 95% intervals."""
        from brass import arena

        c = self.config
        net = agents.Net(self.net_path)
        current = agents.NetMCTS(net, simulations=c.eval_simulations)
        # Greedy is always an anchor: the rating is measured from it and the log's win rates are against it.
        fixed = list(c.eval_anchors) if "greedy" in c.eval_anchors else ["greedy", *c.eval_anchors]
        anchors: list[tuple[str, Any]] = [(spec, spec) for spec in fixed]
        for name, file in (("warm-start", "0000"), ("best", "best")):
            path = os.path.join(self.folder, "nets", f"{file}.safetensors")
            if os.path.exists(path):
                anchors.append((name, agents.NetMCTS(path, simulations=c.eval_simulations)))
        outcomes, rates = [], {}
        matches: list[tuple[str, Any, str, Any]] = [("netmcts", current, name, anchor) for name, anchor in anchors]
        matches.append(("net", net, "greedy", "greedy"))
        for ours, agent, name, anchor in matches:
            seats = [arena.Entrant(ours, agent)] + [
                arena.Entrant(name, agents.parse_agent(anchor) if isinstance(anchor, str) else anchor)
            ] * (c.players - 1)
            report = arena.run(self.game, seats, deals=c.eval_deals, seed=EVAL_SEED)
            mine = next(s for s in report.standings if s.agent == ours)
            rates[(ours, name)] = mine
            outcomes += report.outcomes
        names = sorted({_base_name(n) for o in outcomes for n in o.seats})
        renamed = [dataclasses.replace(o, seats=[_base_name(n) for n in o.seats]) for o in outcomes]
        ratings = arena.rate(names, renamed)
        row: dict[str, Any] = {}
        if ratings:
            row["rating"] = round(ratings["netmcts"].mu - ratings["greedy"].mu, 3)
            row["rating_sigma"] = round(ratings["netmcts"].sigma, 3)
        greedy = rates[("netmcts", "greedy")]
        row.update(
            vs_greedy_win_rate=round(greedy.win_rate, 4),
            vs_greedy_low=round(greedy.interval[0], 4),
            vs_greedy_high=round(greedy.interval[1], 4),
            raw_vs_greedy_win_rate=round(rates[("net", "greedy")].win_rate, 4),
        )
        if ("netmcts", "random") in rates:
            row["vs_random_win_rate"] = round(rates[("netmcts", "random")].win_rate, 4)
        mcts = [k for k in rates if k[1].startswith("mcts")]
        if mcts:
            row["vs_mcts_win_rate"] = round(rates[mcts[0]].win_rate, 4)
        # The best so far: the highest mean win rate against the fixed anchors (the same deals every time).
        score = float(np.mean([rates[("netmcts", name)].win_rate for name, _ in anchors[: len(fixed)]]))
        if not self.best or score > self.best["score"]:
            self.best = {"iteration": self.iteration, "score": round(score, 4)}
            self._export(os.path.join(self.folder, "nets", "best.safetensors"), self.iteration)
        row["best"] = self.best["iteration"]
        return row

    def change_budget(
        self, minutes: float | None = None, iterations: int | None = None, ray: str | None = None
    ) -> None:
        """Give a resumed run a new budget (totals, not more) or Ray cluster; what is None stays. The run's
        config.json records it, so the folder says what the run was last given and a later `--resume` without
        these settings keeps them."""
        c = self.config
        config = dataclasses.replace(
            c,
            minutes=c.minutes if minutes is None else minutes,
            iterations=c.iterations if iterations is None else iterations,
            ray=c.ray if ray is None else ray,
        )
        config.check()
        self.config = config
        write_whole(os.path.join(self.folder, "config.json"), json.dumps(asdict(config), indent=1))

    def run(self) -> None:
        c = self.config
        started = time.perf_counter()
        self.warm_start()
        # Always, not only at iteration 0: a run killed between exporting an iteration's network and writing its
        # checkpoint left that network, which the checkpoint's weights (the iteration played again) replace.
        self._export(self.net_path, self.iteration)
        while self.iteration < c.iterations:
            minutes = self.minutes_before + (time.perf_counter() - started) / 60
            if c.minutes is not None and minutes >= c.minutes:
                break
            self.step(started)
        self.plot()

    def search_settings(self) -> dict[str, Any]:
        """The settings of `search.SearchGames` for the run's self-play (but the game, network and games)."""
        c = self.config
        gumbel = c.search == "gumbel"
        return {
            "simulations": c.simulations,
            "parallel": c.parallel,
            "c_puct": c.c_puct,
            "dirichlet_alpha": 0.0 if gumbel else c.dirichlet_alpha,
            "temperature_decisions": 0 if gumbel else c.temperature_decisions,
            "policy_target": c.policy_target,
            "search": c.search,
            "considered": c.considered if gumbel else None,
            "rescale": c.rescale if gumbel else None,
            "c_visit": c.c_visit if gumbel else None,
            "c_scale": c.c_scale if gumbel else None,
            "full_search_fraction": c.full_search_fraction,
            "fast_simulations": c.fast_simulations,
        }

    def self_play(self, network: bytes, first: int, games: int) -> tuple[list[Any], int, tuple[float, float]]:
        """`games` self-play games (from game `first` of the run) with the search the network file's `network`
        guides, in game order — here, or on the Ray cluster of `ray` (the same games) — with the leaves evaluated
        and the seconds in the engine and the network."""
        c = self.config
        if c.ray is not None:
            if self._ray is None:
                from brass.learn.distributed import RaySelfPlay

                self._ray = RaySelfPlay(c.ray)
            return self._ray.play(self.game, network, self.search_settings(), c.seed, first, games)
        played = search.SearchGames(
            self.game, agents.Net(network), games, seed=c.seed, first=first, **self.search_settings()
        )
        games_played = sorted(played, key=lambda g: g.index)
        return games_played, played.leaf_evaluations, played.seconds

    def step(self, started: float) -> None:
        """One iteration: self-play with the current network, the held-out measures on its games, training,
        export, checkpoint, log."""
        c = self.config
        i = self.iteration + 1
        t0 = time.perf_counter()
        with open(self.net_path, "rb") as f:
            network = f.read()
        games, leaves, (engine_seconds, network_seconds) = self.self_play(
            network, self.iteration * c.games_per_iteration, c.games_per_iteration
        )
        data = Samples.concatenate([samples_of(g, self.game) for g in games])
        selfplay_seconds = time.perf_counter() - t0
        # Every fourth decision: the measures vary with the iteration's games far more than with their rows, and
        # all of them took a quarter of an iteration's time.
        quarter = Samples(*(getattr(data, f)[::HELD_OUT_STRIDE] for f in Samples.__dataclass_fields__))
        measured = held_out(self.params, quarter, self.game.num_actions)
        if c.policy_surprise > 0.0:
            # The prior is the network that played these games: the parameters before this iteration's training.
            data.sampling_weight = surprise_weights(self.params, data, self.game.num_actions, c.policy_surprise)
        if c.value_sample_rate < 1.0:
            dropped = np.random.default_rng([c.seed, i, 1]).random(len(data)) >= c.value_sample_rate
            data.value[dropped] = np.nan
            data.aux[dropped] = np.nan
        # The samples' file is compressed on another thread while the network trains (zlib lets go of the GIL);
        # it is whole on the disk before the checkpoint that counts this iteration.
        with ThreadPoolExecutor(1) as saving:
            saved = saving.submit(save_samples, data, os.path.join(self.folder, "data", f"{i:04d}-{len(data)}.npz"))
            self.buffer.add(data)
            t1 = time.perf_counter()
            policy_loss, value_loss, aux_loss = self.train(c.steps_per_iteration)
            train_seconds = time.perf_counter() - t1
            saved.result()
        self._prune_data()
        self.iteration = i
        self._export(self.net_path, i)
        row: dict[str, Any] = {
            "iteration": i,
            "games": i * c.games_per_iteration,
            "samples": len(data),
            "buffer": len(self.buffer),
            "policy_loss": round(policy_loss, 4),
            "value_loss": round(value_loss, 4),
            "aux_loss": round(aux_loss, 4),
            "selfplay_seconds": round(selfplay_seconds, 1),
            "train_seconds": round(train_seconds, 1),
            "leaf_evaluations": leaves,
            "learning_rate": float(f"{self.learning_rate_of(i):.3g}"),
            "engine_seconds": round(engine_seconds, 1),
            "network_seconds": round(network_seconds, 1),
            **measured,
        }
        if c.eval_every and i % c.eval_every == 0:
            self._export(os.path.join(self.folder, "nets", f"{i:04d}.safetensors"), i)
            row.update(self.evaluate())
        row["minutes"] = round(self.minutes_before + (time.perf_counter() - started) / 60, 2)
        # The log first: a run killed between the two resumes from the previous checkpoint and drops this row.
        self._log(row)
        self._save_checkpoint(row["minutes"])
        self.say(" ".join(f"{k}={v}" for k, v in row.items()))

    def plot(self) -> str | None:
        """The learning curve as curve.png (`plot_log`)."""
        return plot_log(self.folder, say=self.say)


def _column(rows: Sequence[dict[str, str]], name: str) -> tuple[list[float], list[float]]:
    """The minutes and values of the rows that have a value in column `name`."""
    kept = [r for r in rows if r.get(name)]
    return [float(r["minutes"]) for r in kept], [float(r[name]) for r in kept]


def plot_log(folder: str, say: Callable[[str], None] = print) -> str | None:
    """The learning curve of the run in `folder` against minutes, as `folder/curve.png`, from its log.csv and
    config.json (so an interrupted run can be drawn): the losses; the held-out measures (value R², policy
    agreement, KL from prior to target); the arena (the rating against Greedy's with its interval, and the win
    rates). None without matplotlib or without a logged iteration."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        say(f"the learning curve needs matplotlib: {INSTALL_HINT}")
        return None
    with open(os.path.join(folder, "log.csv")) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    figure = Figure(figsize=(8, 10))
    losses, measures, ratings, rates = figure.subplots(4, 1, sharex=True)
    for name in ("policy_loss", "value_loss", "aux_loss"):
        losses.plot(*_column(rows, name), label=name.replace("_", " "))
    losses.legend()
    title = f"brass learn: {config['game']}, {config['players']} players ({config.get('search', 'puct')} search)"
    losses.set_title(title)
    for name, label in (
        ("value_r2", "value R² (held out)"),
        ("policy_agreement", "prior's best = search's"),
        ("policy_kl", "KL(search ‖ prior)"),
    ):
        measures.plot(*_column(rows, name), label=label)
    measures.axhline(0.0, color="grey", linewidth=0.5)
    measures.legend()
    x, rating = _column(rows, "rating")
    if x:
        _, sigma = _column(rows, "rating_sigma")
        ratings.errorbar(
            x, rating, yerr=2 * np.asarray(sigma), marker="o", capsize=3, label="OpenSkill μ − Greedy's μ (±2σ)"
        )
        ratings.axhline(0.0, color="grey", linewidth=0.5)
        ratings.legend()
    x, rate = _column(rows, "vs_greedy_win_rate")
    if x:
        _, low = _column(rows, "vs_greedy_low")
        _, high = _column(rows, "vs_greedy_high")
        label = f"NetMCTS({config.get('eval_simulations', 64)}) vs Greedy"
        rates.errorbar(
            x, rate, yerr=[np.subtract(rate, low), np.subtract(high, rate)], marker="o", capsize=3, label=label
        )
        for name, label in (
            ("vs_mcts_win_rate", "vs MCTS"),
            ("raw_vs_greedy_win_rate", "raw Net vs Greedy"),
            ("vs_random_win_rate", "vs Random"),
        ):
            rates.plot(*_column(rows, name), marker="s", label=label)
        rates.axhline(0.5, color="grey", linewidth=0.5)
        rates.set_ylim(0, 1)
        rates.legend()
    rates.set_xlabel("minutes")
    rates.set_ylabel("win rate (95% interval)")
    path = os.path.join(folder, "curve.png")
    with replacing(path) as f:
        figure.savefig(f, dpi=100, format="png")
    return path
