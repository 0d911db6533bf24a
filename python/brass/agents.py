"""Agents: native `Random`, `Greedy` and `MCTS` (Rust, GIL released), and Python callables.

    >>> from brass import agents
    >>> game = brass.Game("lancashire", players=4)
    >>> results = agents.play_games(game, [agents.MCTS(300), agents.Greedy(), agents.Greedy(), agents.Random()],
    ...                             games=8, seed=1)

Any callable `state -> action id` can take a seat in `play_game` (the Python driver); `play_games` runs
native agents only, in parallel. Both deal and play game `index` of a run from (`seed`, `index`) alone, so
the two drivers and any split of a run over processes or machines give the same games. See docs/agents.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import brass
from brass._brass import agents as _native
from brass.reference._rng import SplitMix64

Agent = _native.Agent
"""The base class of the native agents (rust/brass-py/src/wrappers.rs and agents.rs): `name`, `choose(state, seed)`."""
Random = _native.Random
Greedy = _native.Greedy
MCTS = _native.MCTS
GameResult = _native.GameResult
GameStream = _native.GameStream
Net = _native.Net
NetMCTS = _native.NetMCTS
play_games = _native.play_games
evaluate = _native.evaluate
placings = _native.placings

MASK64 = (1 << 64) - 1

#: A seat: a native agent or any callable from a state to an action id (or notation).
Seat = Agent | Callable[[brass.State], int | str]


def selfplay_seeds(seed: int, index: int) -> tuple[int, SplitMix64]:
    """The deal seed and the agents' generator of game `index` of a run seeded with `seed`
    (the same as the native driver, rust/brass-core/src/agents.rs)."""
    r = SplitMix64(seed ^ ((index * 0xA24BAED4963EE407) & MASK64) ^ 0x5EED)
    deal = r.next()
    return deal, SplitMix64(r.next())


#: The networks shipped with the package (docs/learning.md, "Shipped networks"): name -> file in brass/nets.
PRETRAINED = {"birmingham-2p": "birmingham-2p.safetensors"}


def _pretrained_path(name: str) -> str:
    """The file of a shipped network (`Net.pretrained(name)`)."""
    import importlib.resources

    if name not in PRETRAINED:
        raise brass.ConfigError(f"no shipped network `{name}`: there is {', '.join(sorted(PRETRAINED))}")
    path = importlib.resources.files("brass") / "nets" / PRETRAINED[name]
    if not path.is_file():
        raise brass.ConfigError(f"the shipped network `{name}` is missing from this installation ({path})")
    return str(path)


def seat_name(seat: Seat) -> str:
    if isinstance(seat, Agent):
        return seat.name
    return getattr(seat, "__name__", type(seat).__name__)


@dataclass(frozen=True)
class PlayedGame:
    """A game played by `play_game`: the same fields as the native `GameResult`."""

    index: int
    seed: int
    seats: list[str]
    actions: list[int]
    scores: list[int]
    winners: list[int]
    record: str


def play_game(
    game: brass.Game, seats: Sequence[Seat], seed: int = 0, index: int = 0, rotate: bool = True
) -> PlayedGame:
    """Play one game in Python; `seats` may mix native agents and callables. With only native agents it
    reproduces game `index` of `play_games(game, seats, …, seed)` exactly."""
    n = game.players
    if len(seats) != n:
        raise brass.ConfigError(f"{len(seats)} seats for a {n}-player game")
    order = [seats[(p + index) % n] if rotate else seats[p] for p in range(n)]
    deal, rng = selfplay_seeds(seed, index)
    state = game.new_state(seed=deal)
    while not state.is_terminal:
        player = state.current_player
        assert player is not None  # a game that is not over has a player to decide
        seat = order[player]
        decision_seed = rng.next()
        choice = seat.choose(state, seed=decision_seed) if isinstance(seat, Agent) else seat(state)
        state.apply(choice)
    return PlayedGame(
        index=index,
        seed=deal,
        seats=[seat_name(s) for s in order],
        actions=state.history,
        scores=state.scores,
        winners=state.winners,
        record=state.record(),
    )


__all__ = [
    "MCTS",
    "Net",
    "NetMCTS",
    "Agent",
    "GameResult",
    "GameStream",
    "Greedy",
    "PlayedGame",
    "Random",
    "evaluate",
    "play_game",
    "placings",
    "play_games",
    "selfplay_seeds",
]
