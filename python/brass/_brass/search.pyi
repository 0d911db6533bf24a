"""Types of the network-guided search (`brass._brass.search`: rust/brass-py/src/search.rs), which `brass.search`
re-exports (docs/learning.md). An evaluator is an `agents.Net` (evaluated natively, the GIL released) or a
callable `(observations float32[B, observation_size], masks bool[B, num_actions]) -> (logits [B, num_actions],
values [B, players])` called with each batch of leaves."""

from collections.abc import Callable
from typing import Any, final

import numpy as np
import numpy.typing as npt

from . import Game, State
from .agents import Net

__all__ = ["SearchGames", "SearchGame", "analyse"]

_Evaluator = Net | Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.ArrayLike, npt.ArrayLike]]

@final
class SearchGame:
    """A game played by `SearchGames`, with one training sample per decision."""

    @property
    def index(self) -> int:
        """The game's index in its run."""
    @property
    def seed(self) -> int:
        """The deal seed (the record's seed)."""
    @property
    def actions(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def returns(self) -> list[float]:
        """Every seat's zero-sum result."""
    @property
    def era_scores(self) -> list[int]:
        """Every seat's VP when the first era was scored (the final VP in a one-era game)."""
    @property
    def record(self) -> str:
        """The game record JSON."""
    @property
    def samples(self) -> dict[str, npt.NDArray[Any]]:
        """Per decision: `player` (int8), `observation` (float32, rows x observation_size), `legal_mask` (uint8,
        bit-packed), `policy` (float32, rows x num_actions), `target` (bool: the policy is a training target, the
        decision searched in full)."""

@final
class SearchGames:
    """Self-play games with the network-guided search, many at once (docs/learning.md, "Self-play"). Iterating
    yields each `SearchGame` as it ends (not in index order). `policy_target`: "visits" (default, the visit
    distribution) or "completed_q" (the improved policy of the completed Q-values). `search`: "puct" (default)
    or "gumbel" (Gumbel AlphaZero: `considered` root actions, Gumbel draws of `gumbel_scale`, completed Q-values
    rescaled per node unless `rescale=False`, and scaled by σ(q) = (`c_visit` + most visits) · `c_scale` · q,
    defaults 50 and 0.1).
    `full_search_fraction` (default 1): the share of decisions searched in full, the others with
    `fast_simulations` (default 16), no noise, and their policy no target (playout-cap randomisation)."""

    def __new__(
        cls,
        game: Game,
        evaluator: _Evaluator,
        games: int,
        seed: int | None = None,
        first: int | None = None,
        simulations: int | None = None,
        parallel: int | None = None,
        c_puct: float | None = None,
        dirichlet_alpha: float | None = None,
        dirichlet_fraction: float | None = None,
        temperature: float | None = None,
        temperature_decisions: int | None = None,
        policy_target: str | None = None,
        search: str | None = None,
        considered: int | None = None,
        gumbel_scale: float | None = None,
        full_search_fraction: float | None = None,
        fast_simulations: int | None = None,
        rescale: bool | None = None,
        c_visit: float | None = None,
        c_scale: float | None = None,
    ) -> SearchGames: ...
    def __iter__(self) -> SearchGames: ...
    def __next__(self) -> SearchGame: ...
    @property
    def leaf_evaluations(self) -> int:
        """Leaves evaluated so far."""
    @property
    def seconds(self) -> tuple[float, float]:
        """Seconds spent so far in the engine and in a native network's evaluations (wall-clock: with a native
        network, each lane's averaged over the lanes, which run at the same time)."""

def analyse(
    state: State,
    evaluator: _Evaluator,
    simulations: int | None = None,
    c_puct: float | None = None,
    seed: int | None = None,
    search: str | None = None,
    considered: int | None = None,
    gumbel_scale: float | None = None,
    rescale: bool | None = None,
    c_visit: float | None = None,
    c_scale: float | None = None,
) -> tuple[dict[int, int], list[float]]:
    """One search from `state` (`search` "puct", the default, or "gumbel"): the visits of each root action and
    the root's mean value per seat."""
