"""Learning (docs/learning.md): an AlphaZero-style trainer for a policy-value network, `brass learn`.

Each iteration plays self-play games with the search the current network guides (`brass.search.SearchGames`,
evaluated natively: the games and the network's leaf evaluations run in Rust, without the GIL), adds their
decisions to a replay buffer, trains the network on batches drawn from it (JAX and optax, the `learn` extra),
and exports it to a `brass-net/1` safetensors file that `agents.Net` / `agents.NetMCTS` play with no framework
installed. Every `eval_every` iterations the arena measures it against Greedy and Random. A run lives in one
folder and resumes from it; an interrupted iteration is played again.

    brass learn --game birmingham --players 2 --out runs/b2 --minutes 50
    brass learn --out runs/b2 --resume

JAX is imported only when a run starts, so the rest of brass works without it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

import brass
from brass import agents, search, selfplay

#: The network file format (rust/brass-core/src/net.rs).
NET_FORMAT = "brass-net/1"
INSTALL_HINT = "pip install '.[learn]'"


class LearnError(brass.BrassError):
    """A training run cannot start or go on (a missing extra, a folder of another run, ...)."""


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise LearnError(f"training needs JAX and optax: {INSTALL_HINT} (from the brass clone)") from None
    return jax, jnp, optax


# ---------------------------------------------------------------------------------------------------------
# The network: a multilayer perceptron with a policy head and a value head, as net.rs evaluates it.


def layer_names(depth: int) -> list[str]:
    """The dense layers of a network with `depth` hidden layers, in order."""
    return [f"trunk.{i}" for i in range(depth)] + ["policy", "value"]


def init_params(game: brass.Game, widths: Sequence[int], seed: int) -> dict[str, np.ndarray]:
    """Fresh weights: He-normal for the trunk (ReLU), small for the heads (near-uniform priors, values near 0)."""
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    inputs = game.observation_size
    sizes = [*widths, game.num_actions, game.players]
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
    _, jnp, _ = _jax()
    x = observations
    for i in range(depth_of(params)):
        x = jnp.maximum(x @ params[f"trunk.{i}.weight"] + params[f"trunk.{i}.bias"], 0.0)
    logits = x @ params["policy.weight"] + params["policy.bias"]
    values = jnp.tanh(x @ params["value.weight"] + params["value.bias"])
    return logits, values


def save_network(params: dict[str, Any], game: brass.Game, path: str, about: dict[str, Any] | None = None) -> None:
    """Export weights to a `brass-net/1` safetensors file for `agents.Net` (written whole, then renamed)."""
    try:
        from safetensors.numpy import save_file
    except ImportError:
        raise LearnError(f"exporting a network needs safetensors: {INSTALL_HINT}") from None
    game_meta = {"name": game.name, "players": game.players, "options": dict(game.options)}
    metadata = {"format": NET_FORMAT, "game": json.dumps(game_meta), "engine": f"brass {brass.__version__}"}
    metadata.update({k: json.dumps(v) for k, v in (about or {}).items()})
    tensors = {name: np.ascontiguousarray(np.asarray(value, dtype=np.float32)) for name, value in params.items()}
    partial = path + ".partial"
    save_file(tensors, partial, metadata=metadata)
    os.replace(partial, path)


def load_network(path: str) -> dict[str, np.ndarray]:
    """The weights of a network file, by tensor name."""
    from safetensors.numpy import load_file

    return dict(load_file(path))


# ---------------------------------------------------------------------------------------------------------
# Training data: decisions with their policy and value targets, in a bounded buffer.


@dataclass
class Samples:
    """Decisions to learn from: observations, bit-packed legal masks, policy targets (a distribution over
    actions) and value targets (relative to the player who decided)."""

    observation: np.ndarray
    legal_mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.observation)

    @staticmethod
    def concatenate(parts: Sequence[Samples]) -> Samples:
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in Samples.__dataclass_fields__))


def samples_of(played: Any, game: brass.Game) -> Samples:
    """The samples of a game played by `search.SearchGames`."""
    s = played.samples
    returns = np.tile(np.asarray(played.returns, np.float32), (len(s["player"]), 1))
    return Samples(
        s["observation"], s["legal_mask"], s["policy"], search.relative_returns(returns, s["player"]).astype(np.float32)
    )


def imitation_samples(game: brass.Game, games: int, seed: int, threads: int = 0) -> Samples:
    """Decisions of Greedy playing itself, the action taken as the policy target: a warm start that teaches the
    network the game's shape before self-play refines it (docs/learning.md, "Warm start")."""
    parts = []
    for played in agents.GameStream(
        game, [agents.Greedy()] * game.players, games, seed=seed, threads=threads, sample_rate=1.0
    ):
        s = played.samples
        assert s is not None  # sample_rate=1.0: every game carries its samples
        policy = np.zeros((len(s["action"]), game.num_actions), np.float16)
        policy[np.arange(len(s["action"])), s["action"]] = 1.0
        returns = np.tile(np.asarray(played.returns, np.float32), (len(s["action"]), 1))
        value = search.relative_returns(returns, s["player"]).astype(np.float32)
        parts.append(Samples(s["observation"], s["legal_mask"], policy, value))
    return Samples.concatenate(parts)


class Buffer:
    """The last `capacity` decisions, in a ring. Observations and policy targets are kept as float16 (half
    the memory; observations are small counts and fractions, and targets are probabilities) and given back
    as float32."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.arrays: dict[str, np.ndarray] = {}
        self.size = 0
        self.next = 0  # where the next row goes

    def add(self, samples: Samples) -> None:
        rows = len(samples)
        if rows == 0:
            return
        if not self.arrays:
            kinds = {"observation": np.float16, "policy": np.float16, "legal_mask": np.uint8, "value": np.float32}
            self.arrays = {
                name: np.zeros((self.capacity, getattr(samples, name).shape[1]), kind) for name, kind in kinds.items()
            }
        if rows > self.capacity:  # only the newest fit
            samples = Samples(*(getattr(samples, f)[-self.capacity :] for f in Samples.__dataclass_fields__))
            rows = self.capacity
        at = (self.next + np.arange(rows)) % self.capacity
        for name, array in self.arrays.items():
            array[at] = getattr(samples, name)
        self.next = (self.next + rows) % self.capacity
        self.size = min(self.capacity, self.size + rows)

    def __len__(self) -> int:
        return self.size

    def batch(self, rng: np.random.Generator, size: int, num_actions: int) -> dict[str, np.ndarray]:
        """`size` rows drawn uniformly, as float32 arrays (the mask unpacked to bools)."""
        rows = rng.integers(0, self.size, size)
        a = self.arrays
        return {
            "observation": a["observation"][rows].astype(np.float32),
            "mask": selfplay.unpack_masks(a["legal_mask"][rows], num_actions),
            "policy": a["policy"][rows].astype(np.float32),
            "value": a["value"][rows],
        }


def save_samples(samples: Samples, path: str) -> None:
    partial = path + ".partial.npz"
    np.savez_compressed(partial, **asdict(samples))
    os.replace(partial, path)


def load_samples(path: str) -> Samples:
    with np.load(path) as f:
        return Samples(**{name: f[name] for name in Samples.__dataclass_fields__})


# ---------------------------------------------------------------------------------------------------------
# The trainer.


@dataclass
class LearnConfig:
    """A training run (docs/learning.md, "brass learn"); saved in the run's folder as config.json."""

    game: str = "birmingham"
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    widths: list[int] = field(default_factory=lambda: [256, 256])
    seed: int = 1
    #: Stop after this many iterations, or once `minutes` of wall time have passed (whichever comes first).
    iterations: int = 1000
    minutes: float | None = None
    games_per_iteration: int = 64
    simulations: int = 32
    parallel: int = 64
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.3
    temperature_decisions: int = 30
    #: The policy target: "visits" (AlphaZero's visit distribution) or "completed_q" (docs/learning.md).
    policy_target: str = "completed_q"
    batch_size: int = 256
    steps_per_iteration: int = 100
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    buffer: int = 50_000
    #: Greedy self-play games imitated before the first iteration, and the training steps on them.
    warm_start_games: int = 0
    warm_start_steps: int = 0
    eval_every: int = 5
    eval_deals: int = 10
    eval_simulations: int = 64

    def make_game(self) -> brass.Game:
        return brass.Game(self.game, players=self.players, **self.options)


#: The columns of log.csv.
LOG_COLUMNS = [
    "iteration",
    "minutes",
    "games",
    "samples",
    "buffer",
    "policy_loss",
    "value_loss",
    "selfplay_seconds",
    "engine_seconds",
    "network_seconds",
    "train_seconds",
    "leaf_evaluations",
    "vs_greedy_win_rate",
    "vs_greedy_low",
    "vs_greedy_high",
    "vs_random_win_rate",
]


class Trainer:
    """A training run in `folder`: `run()` trains until its budget is spent, checkpointing every iteration."""

    def __init__(
        self, folder: str, config: LearnConfig | None = None, resume: bool = False, say: Callable[[str], None] = print
    ) -> None:
        self.folder, self.say = folder, say
        self.jax, self.jnp, self.optax = _jax()
        path = os.path.join(folder, "config.json")
        if resume:
            if not os.path.exists(path):
                raise LearnError(f"{folder} holds no run to resume (no config.json)")
            with open(path) as f:
                self.config = LearnConfig(**json.load(f))
        else:
            if os.path.exists(path):
                raise LearnError(f"{folder} already holds a run: pass --resume to continue it, or another --out")
            self.config = config or LearnConfig()
            os.makedirs(os.path.join(folder, "data"), exist_ok=True)
            os.makedirs(os.path.join(folder, "nets"), exist_ok=True)
            with open(path, "w") as f:
                json.dump(asdict(self.config), f, indent=1)
        self.game = self.config.make_game()
        self.optimizer = self.optax.adamw(self.config.learning_rate, weight_decay=self.config.weight_decay)
        self._update = self.jax.jit(self._update_step)
        self.buffer = Buffer(self.config.buffer)
        self.iteration = 0
        self.minutes_before = 0.0
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

    def _loss(self, params: dict[str, Any], batch: dict[str, Any]) -> tuple[Any, tuple[Any, Any]]:
        jnp, jax = self.jnp, self.jax
        logits, values = forward(params, batch["observation"])
        logits = jnp.where(batch["mask"], logits, -1e9)  # only legal actions have probability
        policy_loss = -jnp.mean(jnp.sum(batch["policy"] * jax.nn.log_softmax(logits), axis=1))
        value_loss = jnp.mean(jnp.sum((values - batch["value"]) ** 2, axis=1))
        return policy_loss + value_loss, (policy_loss, value_loss)

    def _update_step(self, params: dict[str, Any], opt_state: Any, batch: dict[str, Any]) -> tuple[Any, ...]:
        (_, (policy_loss, value_loss)), grads = self.jax.value_and_grad(self._loss, has_aux=True)(params, batch)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return self.optax.apply_updates(params, updates), opt_state, policy_loss, value_loss

    def train(self, steps: int) -> tuple[float, float]:
        """`steps` updates on batches from the buffer; the mean policy and value losses."""
        losses = []
        for _ in range(steps):
            batch = self.buffer.batch(self.rng, self.config.batch_size, self.game.num_actions)
            self.params, self.opt_state, p, v = self._update(self.params, self.opt_state, batch)
            losses.append((float(p), float(v)))
        mean = np.mean(losses, axis=0) if losses else (float("nan"), float("nan"))
        return float(mean[0]), float(mean[1])

    # --- files ----------------------------------------------------------------------------------------

    @property
    def net_path(self) -> str:
        """The latest network, for agents.Net / agents.NetMCTS."""
        return os.path.join(self.folder, "net.safetensors")

    def _save_checkpoint(self, minutes: float) -> None:
        leaves, _ = self.jax.tree_util.tree_flatten(self.opt_state)
        arrays = {f"param/{k}": np.asarray(v) for k, v in self.params.items()}
        arrays.update({f"opt/{i}": np.asarray(v) for i, v in enumerate(leaves)})
        meta = {"iteration": self.iteration, "minutes": minutes}
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        path = os.path.join(self.folder, "checkpoint.npz")
        partial = path + ".partial.npz"
        np.savez(partial, allow_pickle=False, **arrays)
        os.replace(partial, path)

    def _load_checkpoint(self, path: str) -> None:
        with np.load(path) as f:
            meta = json.loads(bytes(f["meta"]).decode())
            self.params = {k[6:]: self.jnp.asarray(f[k]) for k in f.files if k.startswith("param/")}
            template = self.optimizer.init(self.params)
            _, tree = self.jax.tree_util.tree_flatten(template)
            leaves = [self.jnp.asarray(f[f"opt/{i}"]) for i in range(tree.num_leaves)]
        self.opt_state = self.jax.tree_util.tree_unflatten(tree, leaves)
        self.iteration, self.minutes_before = meta["iteration"], meta["minutes"]
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

    def _log(self, row: dict[str, Any]) -> None:
        path = os.path.join(self.folder, "log.csv")
        new = not os.path.exists(path)
        with open(path, "a", newline="") as f:
            writer = csv.DictWriter(f, LOG_COLUMNS)
            if new:
                writer.writeheader()
            writer.writerow({k: row.get(k, "") for k in LOG_COLUMNS})

    # --- the run --------------------------------------------------------------------------------------

    def warm_start(self) -> None:
        """Imitate Greedy before the first iteration (once per run: the checkpoint written after it marks it
        done, and a resumed run takes its data from the run's folder)."""
        c = self.config
        if self.warmed or c.warm_start_games <= 0:
            return
        started = time.perf_counter()
        data = imitation_samples(self.game, c.warm_start_games, seed=c.seed + 7919)
        save_samples(data, os.path.join(self.folder, "data", "0000-greedy.npz"))
        self.buffer.add(data)
        policy_loss, value_loss = self.train(c.warm_start_steps)
        seconds = time.perf_counter() - started
        self.warmed = True
        self._save_checkpoint(self.minutes_before + seconds / 60)
        self.say(
            f"warm start: {len(data)} decisions of {c.warm_start_games} Greedy games, {c.warm_start_steps} steps, "
            f"losses {policy_loss:.3f} / {value_loss:.3f} ({seconds:.0f} s)"
        )

    def evaluate(self) -> dict[str, Any]:
        """The arena against Greedy (NetMCTS) and against Random (the raw policy)."""
        from brass import arena

        c = self.config
        net = agents.Net(self.net_path)
        seed = 10_000 + self.iteration
        greedy = arena.run(
            self.game, [agents.NetMCTS(net, simulations=c.eval_simulations), "greedy"], deals=c.eval_deals, seed=seed
        )
        random = arena.run(self.game, [net, "random"], deals=c.eval_deals, seed=seed)
        ours = next(s for s in greedy.standings if s.agent != "greedy")
        raw = next(s for s in random.standings if s.agent != "random")
        return {
            "vs_greedy_win_rate": round(ours.win_rate, 4),
            "vs_greedy_low": round(ours.interval[0], 4),
            "vs_greedy_high": round(ours.interval[1], 4),
            "vs_random_win_rate": round(raw.win_rate, 4),
        }

    def run(self) -> None:
        c = self.config
        started = time.perf_counter()
        self.warm_start()
        if self.iteration == 0:
            save_network(self.params, self.game, self.net_path)
        while self.iteration < c.iterations:
            minutes = self.minutes_before + (time.perf_counter() - started) / 60
            if c.minutes is not None and minutes >= c.minutes:
                break
            self.step(started)
        self.plot()

    def step(self, started: float) -> None:
        """One iteration: self-play with the current network, training, export, checkpoint, log."""
        c = self.config
        i = self.iteration + 1
        t0 = time.perf_counter()
        net = agents.Net(self.net_path)
        games = search.SearchGames(
            self.game,
            net,
            c.games_per_iteration,
            seed=c.seed,
            first=self.iteration * c.games_per_iteration,
            simulations=c.simulations,
            parallel=c.parallel,
            c_puct=c.c_puct,
            dirichlet_alpha=c.dirichlet_alpha,
            temperature_decisions=c.temperature_decisions,
            policy_target=c.policy_target,
        )
        played = [samples_of(g, self.game) for g in games]
        data = Samples.concatenate(played)
        selfplay_seconds = time.perf_counter() - t0
        engine_seconds, network_seconds = games.seconds
        save_samples(data, os.path.join(self.folder, "data", f"{i:04d}.npz"))
        self.buffer.add(data)
        t1 = time.perf_counter()
        policy_loss, value_loss = self.train(c.steps_per_iteration)
        train_seconds = time.perf_counter() - t1
        self.iteration = i
        save_network(self.params, self.game, self.net_path, {"iteration": i})
        minutes = self.minutes_before + (time.perf_counter() - started) / 60
        row: dict[str, Any] = {
            "iteration": i,
            "minutes": round(minutes, 2),
            "games": i * c.games_per_iteration,
            "samples": len(data),
            "buffer": len(self.buffer),
            "policy_loss": round(policy_loss, 4),
            "value_loss": round(value_loss, 4),
            "selfplay_seconds": round(selfplay_seconds, 1),
            "train_seconds": round(train_seconds, 1),
            "leaf_evaluations": games.leaf_evaluations,
            "engine_seconds": round(engine_seconds, 1),
            "network_seconds": round(network_seconds, 1),
        }
        if c.eval_every and i % c.eval_every == 0:
            row.update(self.evaluate())
            save_network(self.params, self.game, os.path.join(self.folder, "nets", f"{i:04d}.safetensors"))
        self._save_checkpoint(minutes)
        self._log(row)
        self.say(" ".join(f"{k}={v}" for k, v in row.items()))

    def plot(self) -> str | None:
        """The learning curve as curve.png (`plot_log`)."""
        return plot_log(self.folder, say=self.say)


def plot_log(folder: str, say: Callable[[str], None] = print) -> str | None:
    """The learning curve of the run in `folder` (losses, and the arena's win rates with their intervals,
    against minutes) as `folder/curve.png`, from its log.csv and config.json (so an interrupted run can be
    drawn); None without matplotlib or without a logged iteration."""
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
    minutes = [float(r["minutes"]) for r in rows]
    figure = Figure(figsize=(8, 6))
    top, bottom = figure.subplots(2, 1, sharex=True)
    top.plot(minutes, [float(r["policy_loss"]) for r in rows], label="policy loss")
    top.plot(minutes, [float(r["value_loss"]) for r in rows], label="value loss")
    top.legend()
    top.set_title(f"brass learn: {config['game']}, {config['players']} players ({config.get('policy_target', '')})")
    evals = [r for r in rows if r["vs_greedy_win_rate"]]
    if evals:
        x = [float(r["minutes"]) for r in evals]
        rate = np.array([float(r["vs_greedy_win_rate"]) for r in evals])
        low = rate - np.array([float(r["vs_greedy_low"]) for r in evals])
        high = np.array([float(r["vs_greedy_high"]) for r in evals]) - rate
        label = f"NetMCTS({config.get('eval_simulations', 64)}) vs Greedy"
        bottom.errorbar(x, rate, yerr=[low, high], marker="o", capsize=3, label=label)
        bottom.plot(x, [float(r["vs_random_win_rate"]) for r in evals], marker="s", label="Net vs Random")
        bottom.axhline(0.5, color="grey", linewidth=0.5)
        bottom.set_ylim(0, 1)
        bottom.legend()
    bottom.set_xlabel("minutes")
    bottom.set_ylabel("win rate (95% interval)")
    path = os.path.join(folder, "curve.png")
    figure.savefig(path, dpi=100)
    return path


# ---------------------------------------------------------------------------------------------------------
# The command line.


def add_parser(sub: Any) -> None:
    """`brass learn`."""
    from brass.cli import _add_game_argument, _add_option_argument

    p = sub.add_parser("learn", help="train a policy-value network by self-play (needs '.[learn]'; docs/learning.md)")
    _add_game_argument(p)
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    _add_option_argument(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder (config, log, networks)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    defaults = LearnConfig()
    for name, kind in (
        ("minutes", float),
        ("iterations", int),
        ("games_per_iteration", int),
        ("simulations", int),
        ("parallel", int),
        ("steps_per_iteration", int),
        ("batch_size", int),
        ("learning_rate", float),
        ("buffer", int),
        ("warm_start_games", int),
        ("warm_start_steps", int),
        ("eval_every", int),
        ("eval_deals", int),
        ("eval_simulations", int),
        ("seed", int),
    ):
        flag = "--" + name.replace("_", "-")
        p.add_argument(flag, type=kind, default=None, help=f"(default {getattr(defaults, name)})")
    p.add_argument("--widths", type=int, nargs="+", default=None, help=f"hidden layers (default {defaults.widths})")
    p.add_argument(
        "--policy-target",
        choices=("visits", "completed_q"),
        default=None,
        help=f"the policy target (default {defaults.policy_target})",
    )
    p.set_defaults(run=run_cli)


def run_cli(args: argparse.Namespace) -> int:
    from brass.cli import UserError, _options

    chosen = {k: v for k, v in vars(args).items() if k in LearnConfig.__dataclass_fields__ and v is not None}
    try:
        if args.resume:
            trainer = Trainer(args.out, resume=True)
        else:
            settings = {k: v for k, v in chosen.items() if k not in ("game", "players", "options")}
            config = LearnConfig(game=args.game, players=args.players, options=_options(args), **settings)
            config.make_game()  # a bad configuration is reported before the folder is made
            trainer = Trainer(args.out, config)
        if args.resume:  # a resumed run may be given a new budget
            for name in ("minutes", "iterations"):
                if getattr(args, name) is not None:
                    setattr(trainer.config, name, getattr(args, name))
        trainer.run()
    except LearnError as e:
        raise UserError(str(e)) from None
    print(f"network: {trainer.net_path} (brass.agents.Net / NetMCTS); log: {os.path.join(args.out, 'log.csv')}")
    return 0


__all__ = [
    "Buffer",
    "LearnConfig",
    "LearnError",
    "Samples",
    "Trainer",
    "forward",
    "imitation_samples",
    "init_params",
    "load_network",
    "save_network",
]
