"""`brass learn --ray`: an iteration's self-play games played by Ray tasks across a cluster (the `ray` extra),
handed back to the learner in game order.

Game `i` of a run depends only on the run's seed and `i` (`search.SearchGames`: its deal and its searches are
seeded from them, and a native network computes every leaf the same way whatever batch it is in), so the games
are the same, sample for sample, whether one process plays them or many tasks on several machines of the same
kind play them in chunks (machines whose processors take another path through the matrix products, with or
without fused multiply-add, may round differently).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

import brass
from brass._errors import install_hint
from brass.learn.network import LearnError

#: Games per Ray task.
CHUNK = 16


@dataclass
class PlayedChunk:
    """A self-play game as a task hands it back: what `learn.samples_of` reads of a `search.SearchGame`."""

    index: int
    returns: list[float]
    scores: list[int]
    era_scores: list[int]
    samples: dict[str, np.ndarray]


def play_chunk(
    about: dict[str, Any], network: bytes, settings: dict[str, Any], seed: int, first: int, games: int
) -> tuple[list[PlayedChunk], int, tuple[float, float]]:
    """Games `first .. first + games` of a run (a Ray task, or a plain call): the games, the leaves evaluated and
    the seconds in the engine and the network."""
    # One thread per task: a task holds one CPU of the cluster (set before the extension starts its pool).
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    from brass import agents, search

    game = brass.Game(about["name"], players=about["players"], **about["options"])
    played = search.SearchGames(game, agents.Net(network), games, seed=seed, first=first, **settings)
    out = [PlayedChunk(g.index, list(g.returns), list(g.scores), list(g.era_scores), dict(g.samples)) for g in played]
    return out, played.leaf_evaluations, played.seconds


class RaySelfPlay:
    """Self-play on a Ray cluster (`address` "local" starts one on this machine); `play` returns an
    iteration's games in index order with their totals, as the local path does."""

    def __init__(self, address: str) -> None:
        try:
            import ray
        except ImportError:
            raise LearnError(f"brass learn --ray needs Ray: {install_hint('ray')}") from None
        if not ray.is_initialized():
            ray.init(
                address=None if address == "local" else address,
                ignore_reinit_error=True,
                include_dashboard=False,
                log_to_driver=False,
            )
        self.ray = ray
        self.task = ray.remote(num_cpus=1)(play_chunk)

    def play(
        self, game: brass.Game, network: bytes, settings: dict[str, Any], seed: int, first: int, games: int
    ) -> tuple[list[PlayedChunk], int, tuple[float, float]]:
        about = {"name": game.name, "players": game.players, "options": dict(game.options)}
        net_ref = self.ray.put(network)
        refs = [
            self.task.remote(about, net_ref, settings, seed, start, min(CHUNK, first + games - start))
            for start in range(first, first + games, CHUNK)
        ]
        played: list[PlayedChunk] = []
        leaves, engine, net = 0, 0.0, 0.0
        for chunk, evaluated, (e, n) in self.ray.get(refs):
            played += chunk
            leaves, engine, net = leaves + evaluated, engine + e, net + n
        played.sort(key=lambda g: g.index)
        return played, leaves, (engine, net)
