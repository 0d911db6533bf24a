"""Types of the native agents (`brass._brass.agents`: rust/brass-py/src/agents.rs, net.rs, stream.rs), which
`brass.agents` re-exports: random, greedy and MCTS agents, trained networks, and games between native agents
played on native threads with the GIL released."""

from collections.abc import Sequence
from os import PathLike
from typing import Any, Literal, final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from . import Game, State

__all__ = [
    "PRETRAINED",
    "Agent",
    "Random",
    "Greedy",
    "MCTS",
    "GameResult",
    "GameStream",
    "Net",
    "NetMCTS",
    "play_games",
    "evaluate",
    "placings",
]

#: The networks shipped with the package (docs/learning.md, "Shipped networks"): name -> file in `brass/nets`.
PRETRAINED: dict[str, str]

@disjoint_base  # a native class: its subclasses cannot also derive from another native class
class Agent:
    """Base class of the native agents: `choose(state, seed=0)` returns a legal action id."""

    def choose(self, state: State, seed: int | None = None) -> int:
        """A legal action id for the state's current player, deterministic for `seed` (IllegalActionError once
        the game is over)."""
    @property
    def name(self) -> str:
        """A short name: "random", "greedy", "mcts(1000)"."""
    def __call__(self, state: State) -> int:
        """`choose(state)`: an agent is a policy."""

@final
class Random(Agent):
    """Uniformly random legal actions. `sampler`: "list" (default: the legal actions listed, one picked) or
    "draw" (candidates drawn until one is legal: also uniform, other games; faster in Lancashire and classic
    Brass, slower in Birmingham)."""

    def __new__(cls, sampler: Literal["list", "draw"] | None = None) -> Random: ...

@final
class Greedy(Agent):
    """One-ply greedy on the evaluation of docs/agents.md (VP, tiles, links, income, money). An action that draws a
    face-down tile (a sale to the Distant Cotton Market) is averaged over 8 deals of what the player cannot see:
    Greedy never reads hidden information."""

    def __new__(cls) -> Greedy: ...

@final
class MCTS(Agent):
    """Determinised (single-observer information-set) Monte-Carlo tree search, docs/agents.md: `iterations` per
    decision, or a `time_ms` wall-clock budget (then results depend on the machine); `rollout_depth` random
    decisions before scoring a position (0: play to the end); `sampler` as for `Random`, for the playouts."""

    def __new__(
        cls,
        iterations: int | None = None,
        time_ms: int | None = None,
        exploration: float | None = None,
        rollout_depth: int | None = None,
        sampler: Literal["list", "draw"] | None = None,
    ) -> MCTS: ...
    def analyse(self, state: State, seed: int | None = None) -> list[tuple[int, int, float]]:
        """One search from `state`, as `choose` runs it: each root action tried as `(action, visits, mean)`, the
        mean being the reward for the player to move, most visited first (the action `choose` plays)."""

@final
class GameResult:
    """One finished game of `play_games` or a `GameStream`."""

    @property
    def index(self) -> int:
        """Index of the game in its run."""
    @property
    def seed(self) -> int:
        """The deal seed (the game record's seed)."""
    @property
    def seats(self) -> list[str]:
        """Agent name per seat."""
    @property
    def actions(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def placings(self) -> list[int]:
        """Each seat's place after the tie-breaks, 0 first (players tied on every tie-break share a place)."""
    @property
    def returns(self) -> list[float]:
        """Each seat's zero-sum result (`State.returns`)."""
    @property
    def record(self) -> str:
        """The game record JSON (docs/state-format.md), replayable with `brass.replay`."""
    @property
    def line(self) -> str:
        """The line `brass selfplay --out` writes for the game (JSON, no newline; docs/selfplay.md)."""
    @property
    def samples(self) -> dict[str, npt.NDArray[Any]] | None:
        """Training samples (numpy arrays by name, docs/selfplay.md) when the stream takes them, else None."""
    @property
    def decisions(self) -> int:
        """The number of decisions of the game (`len(actions)`, without building the list)."""

@final
class GameStream:
    """Games between native agents played on native threads and read in index order, with bounded memory
    (docs/selfplay.md): games `first .. first + games` of the run seeded with `seed` (the games of
    `play_games`), or the games `seatings` lists as `(deal seed, agents seed, [agent index per player])`. At
    most `window` games (default 8 per thread) are played ahead of the reader; with `sample_rate` each result
    carries the training samples of its decisions kept with that probability."""

    def __new__(
        cls,
        game: Game,
        agents: Sequence[Agent],
        games: int | None = None,
        seed: int | None = None,
        first: int | None = None,
        rotate: bool | None = None,
        threads: int | None = None,
        sample_rate: float | None = None,
        window: int | None = None,
        seatings: Sequence[tuple[int, int, Sequence[int]]] | None = None,
    ) -> GameStream: ...
    def __iter__(self) -> GameStream: ...
    def __next__(self) -> GameResult: ...
    def __len__(self) -> int:
        """Games in the stream."""
    def cancel(self) -> None:
        """Stop: no new game starts and the games under way end at their next decision."""
    @property
    def games_done(self) -> int:
        """Games yielded so far."""
    @property
    def agents(self) -> list[str]:
        """The agent names, in the order given."""

@final
class Net(Agent):
    """A trained policy-value network playing its raw policy, the legal action with the highest logit
    (docs/learning.md): from a path, the bytes of a file, or `Net.pretrained(name)`."""

    def __new__(cls, source: str | PathLike[str] | bytes) -> Net: ...
    @classmethod
    def pretrained(cls, name: str) -> Net:
        """A network shipped with the package (`PRETRAINED`; ConfigError for another name)."""
    @property
    def game(self) -> Game:
        """The game the network was trained for."""
    @property
    def widths(self) -> list[int]:
        """The widths of its hidden layers."""
    @property
    def metadata(self) -> dict[str, str]:
        """The metadata of its file."""
    def evaluate(self, observations: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Logits `(rows, num_actions)` and values `(rows, players)` (each relative to its observer) for
        observations `(rows, observation_size)`: float32, or any array of numbers numpy converts to it."""

@final
class NetMCTS(Agent):
    """The search a trained network (a `Net` or a network file) guides, without noise: `search="puct"` plays the
    most visited action, `"gumbel"` the Sequential Halving winner over `considered` root actions; None: the search
    the network was trained with (its metadata `search`, `gumbel_rescale`, `gumbel_c_visit`, `gumbel_c_scale`),
    else PUCT. `c_visit` and `c_scale` (Gumbel) scale the completed Q-values in the improved policy:
    σ(q) = (c_visit + most visits) · c_scale · q (defaults 50 and 0.1, or the network's own)."""

    def __new__(
        cls,
        network: Net | str | PathLike[str] | bytes,
        simulations: int | None = None,
        c_puct: float | None = None,
        fpu_reduction: float | None = None,
        search: str | None = None,
        considered: int | None = None,
        rescale: bool | None = None,
        c_visit: float | None = None,
        c_scale: float | None = None,
    ) -> NetMCTS: ...

def play_games(
    game: Game,
    agents: Sequence[Agent],
    games: int,
    seed: int | None = None,
    first: int | None = None,
    rotate: bool | None = None,
    threads: int | None = None,
) -> list[GameResult]:
    """Play games `first .. first + games` between native agents, in parallel with the GIL released; game `i` is
    dealt and played from seeds derived from (`seed`, `i`) only. With `rotate` (default), game `i` seats agent
    `(p + i) mod players` as player `p`."""

def evaluate(state: State, player: int) -> float:
    """The evaluation the greedy agent maximises, for one player (docs/agents.md)."""

def placings(state: State) -> list[int]:
    """Each player's place in a finished game after the tie-breaks, 0 first (IllegalActionError before the
    end)."""
