"""What a run learns from: decisions with their policy and value targets (`Samples`), made from the search's
self-play games or from Greedy's (the warm start), kept in a bounded replay buffer and saved in the run's folder."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

import brass
from brass import agents, search
from brass.samples import unpack_masks


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
            "mask": unpack_masks(a["legal_mask"][rows], num_actions),
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
