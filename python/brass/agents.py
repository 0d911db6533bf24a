"""Agents: native `Random`, `Greedy` and `MCTS` (Rust, GIL released), and Python callables.

    >>> from brass import agents
    >>> game = brass.Game("lancashire", players=4)
    >>> results = agents.play_games(game, [agents.MCTS(300), agents.Greedy(), agents.Greedy(), agents.Random()],
    ...                             games=8, seed=1)

Any callable `state -> action id` can take a seat in `play_game` (the Python driver); `play_games` runs
native agents only, in parallel. Both deal and play game `index` of a run from (`seed`, `index`) alone, so
the two drivers and any split of a run over processes or machines give the same games. See docs/agents.md.

`parse_agent` reads the agent specs (`greedy`, `mcts:300`, `net:birmingham-2p`, ...): the one grammar of the
command line, the arena (which also takes Python policies) and the browser server (which caps the budgets).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.resources
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np

import brass
from brass._brass import agents as _native
from brass._rng import MASK64 as MASK64  # names this module has always offered
from brass._rng import SplitMix64 as SplitMix64
from brass._rng import check_seed, selfplay_seeds
from brass.text import describe_game, digits, one_line

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

#: A Python policy: a callable from a state to an action id or its notation.
Policy = Callable[[brass.State], int | str]
#: A seat: a native agent or any callable from a state to an action id (or notation).
Seat = Agent | Policy

#: The networks shipped with the package (docs/learning.md, "Shipped networks"): name -> file in brass/nets (the
#: binding's table, which `Net.pretrained` reads).
PRETRAINED: dict[str, str] = dict(_native.PRETRAINED)


def _configuration(name: str) -> tuple[str, int]:
    """(game, players) of a shipped network's name, `GAME-Np`."""
    game, _, players = name.rpartition("-")
    return game, int(players.rstrip("p"))


#: The shipped network of each configuration that has one: (game, players) -> name.
NETWORKS = {_configuration(name): name for name in sorted(PRETRAINED)}


@dataclass(frozen=True)
class Pretrained:
    """A network shipped with the package: its name (what `Net.pretrained` and the agent specs take) and the
    configuration it plays."""

    name: str
    game: str
    players: int


def pretrained_networks() -> list[Pretrained]:
    """Every network shipped with the package, by name (docs/learning.md, "The shipped networks")."""
    return [Pretrained(name, *_configuration(name)) for name in sorted(PRETRAINED)]


def network_for(game: brass.Game) -> str | None:
    """The name of the network shipped for a configuration, or None (a configuration with options has none)."""
    return None if game.options else NETWORKS.get((game.name, game.players))


# ---------------------------------------------------------------------------------------------------------
# The agent specs.

#: The specs of native agents, as every message that asks for one lists them.
SPEC_FORMS = "random, greedy, mcts, mcts:ITERATIONS[:DEPTH], mcts@MS, net:NETWORK or netmcts:SIMULATIONS:NETWORK"
#: The specs of Python policies (`parse_agent(..., policies=True)`).
POLICY_FORMS = "a Python policy module:function or path/to/file.py:function"


@dataclass(frozen=True)
class Caps:
    """The capped form of the specs, for specs a request names (`brass serve`): budgets no larger than these,
    and a network only by the name of a network shipped for the game (never a file)."""

    mcts_iterations: int
    time_ms: int
    net_simulations: int


class _Unknown(Exception):
    """A spec that is none of the forms."""


@overload
def parse_agent(
    spec: str,
    *,
    game: brass.Game | None = None,
    caps: Caps | None = None,
    policies: Literal[False] = False,
    others: Sequence[str] = (),
) -> Agent: ...


@overload
def parse_agent(
    spec: str, *, game: brass.Game | None = None, caps: Caps | None = None, policies: bool, others: Sequence[str] = ()
) -> Agent | Policy: ...


def parse_agent(
    spec: str,
    *,
    game: brass.Game | None = None,
    caps: Caps | None = None,
    policies: bool = False,
    others: Sequence[str] = (),
) -> Agent | Policy:
    """The agent a spec names: `random`, `greedy`, `mcts` (1000 iterations), `mcts:ITERATIONS`,
    `mcts:ITERATIONS:DEPTH`, `mcts@MILLISECONDS` (a time budget per decision), `net:NETWORK` (a trained
    network's raw policy) and `netmcts:SIMULATIONS:NETWORK` (the search it guides), NETWORK a file or a shipped
    network's name (`birmingham-2p`, docs/learning.md). `ConfigError` says what is wrong with a spec.

    - `caps` (with `game`, the configuration the agent plays): the capped form (`Caps`);
    - `policies`: a spec that is not a native agent's and has a `:` names a Python policy, `module:function` or
      `path/to/file.py:function` (`load_policy`): the entrants of `brass arena`;
    - `others`: the words the caller takes in a spec's place (`brass serve`'s `human`), listed first when a spec
      is not understood."""
    if not isinstance(spec, str):
        raise brass.ArgumentTypeError(f"an agent spec must be a str such as 'greedy', not {type(spec).__name__}")
    name = spec.partition(":")[0]
    native = spec in ("random", "greedy") or name.startswith("mcts@") or name in ("mcts", "net", "netmcts")
    if policies and not native and ":" in spec:
        return load_policy(spec)
    try:
        return _native_agent(spec, game, caps)
    except _Unknown:
        # Only a spec of no form lists the forms: a native spec with a bad part has said what is wrong with it.
        forms = ", ".join([*others, SPEC_FORMS]) + (" (NETWORK a shipped network's name)" if caps else "")
        if policies:
            forms += f", or {POLICY_FORMS}"
        raise brass.ConfigError(f"unknown agent `{spec}`: use {forms}") from None


def _native_agent(spec: str, game: brass.Game | None, caps: Caps | None) -> Agent:
    """A native agent's spec read; `_Unknown` for a spec of no form."""
    if caps is not None and len(spec) > 100:  # no spec is this long; nor may a number be too long for int()
        raise _Unknown
    if spec == "random":
        return Random()
    if spec == "greedy":
        return Greedy()
    name, _, rest = spec.partition(":")
    if name == "mcts" or name.startswith("mcts@"):
        return _mcts(spec, name, rest, caps)
    if name == "net" and rest or name == "netmcts" and ":" in rest:
        simulations, _, network = rest.partition(":") if name == "netmcts" else ("", "", rest)
        if caps is not None:
            return _shipped_net(spec, name, network, simulations, game, caps)
        try:
            net = _network(network)
            return net if name == "net" else NetMCTS(net, simulations=_number(simulations, caps))
        except brass.BrassError as e:
            raise brass.ConfigError(f"agent `{spec}`: {e}") from None
    raise _Unknown


def _number(text: str, caps: Caps | None) -> int:
    """A number of a spec: in the capped form ASCII digits only (`int` also reads `²`, `+5`, `1_000`)."""
    if caps is not None and not digits(text):
        raise _Unknown
    try:
        return int(text)
    except ValueError:
        raise _Unknown from None


def _mcts(spec: str, name: str, rest: str, caps: Caps | None) -> Agent:
    """`mcts`, `mcts:ITERATIONS[:DEPTH]` or `mcts@MS`."""
    timed = name.startswith("mcts@")
    numbers = [_number(x, caps) for x in ([name[5:]] if timed else rest.split(":") if rest else [])]
    if len(numbers) > 2:
        raise _Unknown
    if caps is not None and timed and not 1 <= numbers[0] <= caps.time_ms:
        raise brass.ConfigError(f"agent `{spec}`: the time per move must be from 1 to {caps.time_ms} ms")
    if caps is not None and not timed and not 1 <= (numbers[0] if numbers else 1000) <= caps.mcts_iterations:
        raise brass.ConfigError(f"agent `{spec}`: iterations must be from 1 to {caps.mcts_iterations}")
    try:
        if timed:
            return MCTS(time_ms=numbers[0])
        return MCTS(numbers[0] if numbers else None, rollout_depth=numbers[1] if len(numbers) > 1 else None)
    except brass.BrassError as e:  # a number the search refuses (`mcts:0`): the spec's form is right, say why
        raise brass.ConfigError(f"agent `{spec}`: {e}") from None
    except (ValueError, OverflowError):
        raise _Unknown from None


def _shipped_net(spec: str, name: str, network: str, simulations: str, game: brass.Game | None, caps: Caps) -> Agent:
    """`net:NAME` / `netmcts:SIMULATIONS:NAME` in the capped form: NAME the network shipped for `game`."""
    if network not in NETWORKS.values() or (name == "netmcts" and not digits(simulations)):
        raise _Unknown
    if game is None or network_for(game) != network:
        what = describe_game(game, at=True) if game is not None else "this game"
        raise brass.ConfigError(f"agent `{spec}`: {network} plays {network.replace('-', ' ')}, not {what}")
    net = Net.pretrained(network)
    if name == "net":
        return net
    if not 2 <= int(simulations) <= caps.net_simulations:
        raise brass.ConfigError(f"agent `{spec}`: simulations must be from 2 to {caps.net_simulations}")
    return NetMCTS(net, simulations=int(simulations))


def _network(source: str) -> Any:
    """A network file, or a shipped network by name."""
    if source in PRETRAINED and not os.path.exists(source):
        return Net.pretrained(source)
    try:
        return Net(source)
    except brass.ConfigError as e:
        if os.path.exists(source):
            raise
        # A mistyped name reads as a missing file: say which names would have been a network.
        raise brass.ConfigError(f"{e}; nor is it a shipped network ({', '.join(sorted(PRETRAINED))})") from None


def load_policy(spec: str) -> Policy:
    """The function a `module:function` or `path/to/file.py:function` spec names (ConfigError if none)."""
    if not isinstance(spec, str):
        raise brass.ArgumentTypeError(
            f"a policy spec must be a str such as 'module:function', not {type(spec).__name__}"
        )
    where, _, name = spec.rpartition(":")
    try:
        if where.endswith(".py"):
            path = os.path.abspath(where)
            # One module per file, whatever the spec's spelling of its path, so a file is run once.
            module_name = "brass_arena_policy_" + hashlib.sha1(path.encode()).hexdigest()[:12]
            module = sys.modules.get(module_name)
            if module is None:
                loader = importlib.util.spec_from_file_location(module_name, path)
                if loader is None or loader.loader is None:
                    raise ImportError(f"cannot import {where}")
                module = importlib.util.module_from_spec(loader)
                sys.modules[module_name] = module
                try:
                    loader.loader.exec_module(module)
                except BaseException:
                    del sys.modules[module_name]
                    raise
        else:
            module = importlib.import_module(where)
    except Exception as e:  # whatever importing the user's code raises, the user sees it in one line
        raise brass.ConfigError(f"cannot load the policy `{spec}`: {one_line(e)}") from None
    policy: Any = module
    for part in name.split("."):
        policy = getattr(policy, part, None)
        if policy is None:
            raise brass.ConfigError(f"cannot load the policy `{spec}`: {where} has no `{name}`")
    if not callable(policy):
        raise brass.ConfigError(f"the policy `{spec}` is not a function")
    return policy


# ---------------------------------------------------------------------------------------------------------
# Playing.


def seat_name(seat: Seat) -> str:
    """The name a seat is listed by: a native agent's `name`, else the callable's."""
    if isinstance(seat, Agent):
        return seat.name
    return getattr(seat, "__name__", type(seat).__name__)


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: what `play_game` gives, with the fields of the native `GameResult` that every driver of
    many games reads (a self-play run, on threads or on Ray). `returns` are each seat's zero-sum result
    (`State.returns`); `line` the line `brass selfplay --out` writes for it, when it was played for one;
    `samples` the training samples taken while it was played, if any."""

    index: int
    seed: int
    seats: list[str]
    actions: list[int]
    scores: list[int]
    winners: list[int]
    record: str
    returns: list[float] = field(default_factory=list)
    line: str = ""
    samples: dict[str, Any] | None = None

    @property
    def decisions(self) -> int:
        """The number of decisions of the game."""
        return len(self.actions)


def play_game(
    game: brass.Game, seats: Sequence[Seat], seed: int = 0, index: int = 0, rotate: bool = True
) -> PlayedGame:
    """Play one game in Python; `seats` may mix native agents and callables. With only native agents it
    reproduces game `index` of `play_games(game, seats, …, seed)` exactly."""
    seed = check_seed(seed)
    if isinstance(index, bool) or not hasattr(index, "__index__"):
        raise brass.ArgumentTypeError(f"index must be an int, not {type(index).__name__}")
    index = index.__index__()
    if not 0 <= index < 2**64:
        raise brass.ConfigError(f"index must be an int with 0 <= index < 2**64, not {index}")
    if not isinstance(rotate, bool | np.bool_):  # what `play_games` takes
        raise brass.ArgumentTypeError(f"rotate must be True or False, not {type(rotate).__name__}")
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise brass.ArgumentTypeError(
            f"seats must be a list of agents or callables (state -> action id), not {type(seats).__name__}"
        )
    for i, seat in enumerate(seats):
        if not isinstance(seat, Agent) and not callable(seat):
            # A spec string is the likeliest mistake: name the function that reads one.
            hint = (
                f" (brass.agents.parse_agent({seat!r}) makes the agent a spec names)" if isinstance(seat, str) else ""
            )
            raise brass.ArgumentTypeError(
                f"seats[{i}] must be an agent or a callable (state -> action id), not {type(seat).__name__}{hint}"
            )
    n = game.players
    if len(seats) != n:
        raise brass.ConfigError(f"{len(seats)} seat{'' if len(seats) == 1 else 's'} for a {n}-player game")
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
        returns=state.returns,
    )


__all__ = [
    "MCTS",
    "NETWORKS",
    "PRETRAINED",
    "Pretrained",
    "Net",
    "NetMCTS",
    "Agent",
    "Caps",
    "GameResult",
    "GameStream",
    "Greedy",
    "PlayedGame",
    "Policy",
    "Random",
    "evaluate",
    "load_policy",
    "network_for",
    "pretrained_networks",
    "parse_agent",
    "play_game",
    "placings",
    "play_games",
    "selfplay_seeds",
]
