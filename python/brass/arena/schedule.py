"""Who takes part in a tournament and who plays whom: the entrants (agents by spec, native agents, Python
policies), the lineups of agents that sit down together, and the schedule of every game with its seeds."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import brass
from brass import agents
from brass._rng import selfplay_seeds
from brass.agents import Policy

#: An agent as `run` takes it: a spec (`greedy`, `mcts:300`, `module:function`), a native agent, a policy.
AgentLike = str | agents.Agent | Policy


@dataclass(frozen=True)
class Entrant:
    """An agent taking part: its name in the report and what chooses its moves."""

    name: str
    agent: agents.Agent | Policy

    @property
    def native(self) -> bool:
        """A native agent, which `agents.GameStream` can play on native threads."""
        return isinstance(self.agent, agents.Agent)


def entrant(agent: AgentLike | Entrant) -> Entrant:
    """What takes part for an agent given as a spec (`greedy`, `mcts:300`, `module:function`, ...), a native
    agent or a Python callable."""
    if isinstance(agent, Entrant):
        return agent
    if isinstance(agent, str):
        return Entrant(agent, agents.parse_agent(agent, policies=True))
    if isinstance(agent, agents.Agent):
        return Entrant(agent.name, agent)
    if callable(agent):
        return Entrant(str(getattr(agent, "name", None) or getattr(agent, "__name__", type(agent).__name__)), agent)
    raise brass.ArgumentTypeError(
        f"an agent is a spec (str), a brass.agents agent or a callable, not {type(agent).__name__}"
    )


def entrants(given: Sequence[AgentLike | Entrant]) -> list[Entrant]:
    """The entrants for a list of agents; a name already taken gets `#2`, `#3`, ... (`greedy greedy`)."""
    out: list[Entrant] = []
    for agent in given:
        e = entrant(agent)
        name, n = e.name, 1
        while name in {x.name for x in out}:
            n += 1
            name = f"{e.name}#{n}"
        out.append(Entrant(name, e.agent))
    return out


def lineups(agents_count: int, players: int) -> list[tuple[int, ...]]:
    """The groups of agents (indices) that sit down together: every `players` of the agents, or, with fewer
    agents than seats, the agents repeated in order starting from each agent in turn, so every agent has as many
    seats as every other (lineups that are rotations of one another are the same games and kept once)."""
    if agents_count >= players:
        return list(itertools.combinations(range(agents_count), players))
    found: dict[tuple[int, ...], tuple[int, ...]] = {}
    for first in range(agents_count):
        lineup = tuple((first + i) % agents_count for i in range(players))
        found.setdefault(min(_rotations(lineup)), lineup)
    return list(found.values())


def _rotations(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct cyclic rotations of a lineup, from rotation 0 (a lineup like A B A B has only two)."""
    out: list[tuple[int, ...]] = []
    for r in range(len(lineup)):
        seats = lineup[r:] + lineup[:r]
        if seats in out:
            break
        out.append(seats)
    return out


@dataclass(frozen=True)
class Seating:
    """One game of the schedule: which deal, its seeds, and the entrant (index) playing each player."""

    index: int
    deal: int
    deal_seed: int
    agents_seed: int
    seats: tuple[int, ...]


def schedule(agents_count: int, players: int, deals: int, seed: int = 0) -> list[Seating]:
    """Every game of a tournament, in the order they count: deal by deal, lineup by lineup, rotation by
    rotation. Deal `d` is game `d` of a self-play run with the same seed (`agents.selfplay_seeds`): its deal seed
    and its agents' seed depend on (`seed`, `d`) only, and every game of the deal uses both."""
    games: list[Seating] = []
    groups = lineups(agents_count, players)
    for d in range(deals):
        deal_seed, rng = selfplay_seeds(seed, d)
        for lineup in groups:
            for seats in _rotations(lineup):
                games.append(Seating(len(games), d, deal_seed, rng.state, seats))
    return games
