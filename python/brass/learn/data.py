"""What a run learns from: decisions with their policy and value targets (`Samples`), made from the search's
self-play games or from Greedy's (the warm start), kept in a bounded replay buffer and saved in the run's folder."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

import brass
from brass import agents, search
from brass._files import replacing

#: VP margins (a seat's VP less the mean of all seats') are learnt divided by this (most lie within ±1).
MARGIN_SCALE = 20.0


@dataclass
class Samples:
    """Decisions to learn from: observations, bit-packed legal masks, policy targets (a distribution over
    actions) and their weights (0 where the decision's policy is no target: a quick search of playout-cap
    randomisation), value targets (relative to the player who decided), the auxiliary targets: the final
    and the first era's VP margins of every seat, relative to the player who decided, divided by
    `MARGIN_SCALE` (NaN where unknown), and each decision's weight in the buffer's draws (1: uniform; policy
    surprise weighting, `LearnConfig.policy_surprise`, sets it)."""

    observation: np.ndarray
    legal_mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    policy_weight: np.ndarray
    aux: np.ndarray
    sampling_weight: np.ndarray

    def __len__(self) -> int:
        return len(self.observation)

    @staticmethod
    def concatenate(parts: Sequence[Samples]) -> Samples:
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in Samples.__dataclass_fields__))


def margins(scores: Sequence[int] | None, players: np.ndarray, n: int) -> np.ndarray:
    """Every seat's VP margin (VP less the mean of all seats') / `MARGIN_SCALE`, relative to each row's player
    (`rows × n`); NaN rows when the scores are unknown."""
    if scores is None or len(scores) != n:
        return np.full((len(players), n), np.nan, np.float32)
    vp = np.asarray(scores, np.float32)
    margin = np.tile((vp - vp.mean()) / MARGIN_SCALE, (len(players), 1))
    return search.relative_returns(margin, players).astype(np.float32)


def _targets(
    game: brass.Game,
    players: np.ndarray,
    returns: Sequence[float],
    scores: Sequence[int],
    era_scores: Sequence[int] | None,
) -> tuple[np.ndarray, np.ndarray]:
    n = game.players
    value = search.relative_returns(np.tile(np.asarray(returns, np.float32), (len(players), 1)), players)
    aux = np.concatenate([margins(scores, players, n), margins(era_scores, players, n)], axis=1)
    return value.astype(np.float32), aux


def samples_of(played: Any, game: brass.Game) -> Samples:
    """The samples of a game played by `search.SearchGames`."""
    s = played.samples
    value, aux = _targets(game, s["player"], played.returns, played.scores, played.era_scores)
    weight = np.asarray(s["target"], np.float32) if "target" in s else np.ones(len(s["player"]), np.float32)
    ones = np.ones(len(s["player"]), np.float32)
    return Samples(s["observation"], s["legal_mask"], s["policy"], value, weight, aux, ones)


def imitation_samples(game: brass.Game, games: int, seed: int, threads: int = 0, sample_rate: float = 1.0) -> Samples:
    """Decisions of Greedy playing itself (each kept with probability `sample_rate`: fewer decisions of more
    games teach the value head outcomes rather than games by heart), the action taken as the policy target: a
    warm start that teaches the network the game's shape before self-play refines it (docs/learning.md, "Warm
    start")."""
    parts = []
    for played in agents.GameStream(
        game, [agents.Greedy()] * game.players, games, seed=seed, threads=threads, sample_rate=sample_rate
    ):
        s = played.samples
        assert s is not None  # a sample rate: every game carries its samples
        rows = len(s["action"])
        policy = np.zeros((rows, game.num_actions), np.float16)
        policy[np.arange(rows), s["action"]] = 1.0
        value, aux = _targets(game, s["player"], played.returns, played.scores, None)
        ones = np.ones(rows, np.float32)
        parts.append(Samples(s["observation"], s["legal_mask"], policy, value, ones, aux, ones.copy()))
    return Samples.concatenate(parts)


class Buffer:
    """The last `capacity` decisions, in a ring. Observations and policy targets are kept as float16 (half
    the memory; observations are small counts and fractions, and targets are probabilities) and given back
    as float32. Draws are uniform until a decision of weight other than 1 comes in (`Samples.sampling_weight`),
    then in proportion to the weights."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.arrays: dict[str, np.ndarray] = {}
        self.size = 0
        self.next = 0  # where the next row goes
        self.weighted = False
        self._cumulative: np.ndarray | None = None  # of the weights, made at the first draw after an add

    def add(self, samples: Samples) -> None:
        rows = len(samples)
        if rows == 0:
            return
        if not self.arrays:
            kinds = {
                "observation": np.float16,
                "policy": np.float16,
                "legal_mask": np.uint8,
                "value": np.float32,
                "policy_weight": np.float16,
                "aux": np.float16,
                "sampling_weight": np.float32,
            }
            self.arrays = {
                name: np.zeros((self.capacity, *getattr(samples, name).shape[1:]), kind) for name, kind in kinds.items()
            }
        if rows > self.capacity:  # only the newest fit
            samples = Samples(*(getattr(samples, f)[-self.capacity :] for f in Samples.__dataclass_fields__))
            rows = self.capacity
        at = (self.next + np.arange(rows)) % self.capacity
        for name, array in self.arrays.items():
            array[at] = getattr(samples, name)
        self.next = (self.next + rows) % self.capacity
        self.size = min(self.capacity, self.size + rows)
        self.weighted = self.weighted or bool(np.any(samples.sampling_weight != 1.0))
        self._cumulative = None

    def __len__(self) -> int:
        return self.size

    def stored_batch(self, rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        """`size` rows drawn (uniformly, or by weight: the class's note), as the buffer keeps them (float16, the
        mask bit-packed): the trainer's compiled step widens them (`widen`), far faster than numpy's float16
        conversion. The weights themselves are not part of the batch."""
        if self.weighted:
            if self._cumulative is None:
                self._cumulative = np.cumsum(self.arrays["sampling_weight"][: self.size], dtype=np.float64)
            total = self._cumulative[-1]
            rows = np.searchsorted(self._cumulative, rng.random(size) * total, side="right")
            rows = np.minimum(rows, self.size - 1)  # a draw of exactly the total (rounding)
        else:
            rows = rng.integers(0, self.size, size)
        return {name: array[rows] for name, array in self.arrays.items() if name != "sampling_weight"}

    def batch(self, rng: np.random.Generator, size: int, num_actions: int) -> dict[str, np.ndarray]:
        """`size` rows drawn uniformly (the same rows as `stored_batch` from the same generator), as float32
        arrays (the mask unpacked to bools)."""
        return widen(self.stored_batch(rng, size), num_actions, np)


def widen(stored: dict[str, Any], num_actions: int, xp: Any) -> dict[str, Any]:
    """A batch of stored rows as the loss reads it: float32 arrays and the legal mask as bools, with `xp` numpy
    or jax.numpy (inside the compiled step: the conversions are exact, so both give the same batch)."""
    bits = xp.unpackbits(stored["legal_mask"], axis=-1, bitorder="little")
    return {
        "observation": stored["observation"].astype(xp.float32),
        "mask": bits[..., :num_actions].astype(bool),
        "policy": stored["policy"].astype(xp.float32),
        "value": stored["value"].astype(xp.float32),
        "policy_weight": stored["policy_weight"].astype(xp.float32),
        "aux": stored["aux"].astype(xp.float32),
    }


def save_samples(samples: Samples, path: str) -> None:
    """Write samples (observations and policies as float16, as the buffer keeps them), whole or not at all (a
    killed run's half-written file would be read back by the resumed run as data)."""
    arrays = asdict(samples)
    for name in ("observation", "policy", "aux"):
        arrays[name] = np.asarray(arrays[name], np.float16)
    # zlib's fastest level: the observations are mostly zeros, so it keeps most of the default level's gain
    # (30,000 Birmingham decisions: 5.4 MB against 3.0 MB, from 115 MB) in half its time, which a 2-core
    # machine would take from the training.
    with replacing(path) as f, zipfile.ZipFile(f, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, array in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


def load_samples(path: str) -> Samples:
    """A run's saved samples (files of runs before the weights and auxiliary targets get weight 1, and NaN:
    unknown; before the sampling weights, 1)."""
    with np.load(path) as f:
        fields = {name: f[name] for name in Samples.__dataclass_fields__ if name in f.files}
    rows = len(fields["observation"])
    fields.setdefault("policy_weight", np.ones(rows, np.float32))
    fields.setdefault("aux", np.full((rows, 2 * fields["value"].shape[1]), np.nan, np.float32))
    fields.setdefault("sampling_weight", np.ones(rows, np.float32))
    return Samples(**fields)
