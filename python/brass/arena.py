"""A tournament between agents, with ratings: `brass arena` and its Python API (docs/arena.md).

    >>> from brass import arena
    >>> report = arena.run(brass.Game("birmingham", players=2), ["random", "greedy"], deals=6, seed=1)
    >>> print(report.table())

Every lineup of agents plays every deal in every rotation of its seats, so each agent sits in each seat
equally often and the games of a deal share its seeds ("paired by seed"). Games between native agents are
played on native threads (`agents.GameStream`); games with a Python policy (`module:function` or
`path/to/file.py:function`) are played here, one after another. A policy that raises or returns an illegal
action forfeits its game and the tournament goes on. Ratings are OpenSkill's Plackett–Luce (the `arena`
extra); without it the report has everything else.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import itertools
import json
import os
import reprlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import brass
from brass import agents
from brass.cli import UserError, _add_game_argument, _add_option_argument, _options, describe_game, parse_agent, wilson
from brass.reference._rng import SplitMix64

INSTALL_HINT = "pip install '.[arena]'"
#: Forfeits listed by `ArenaReport.table()`; the JSON report lists them all.
FORFEITS_SHOWN = 10

#: A Python policy: a callable from a state to an action id or its notation.
Policy = Callable[[brass.State], int | str]
#: An agent as `run` takes it: a spec (`greedy`, `mcts:300`, `module:function`), a native agent, a policy.
AgentLike = str | agents.Agent | Policy


#: A part of the report needs a library of the `arena` extra that is not installed (`brass.MissingExtraError`).
MissingExtraError = brass.MissingExtraError


@dataclass(frozen=True)
class Entrant:
    """An agent taking part: its name in the report and what chooses its moves."""

    name: str
    agent: agents.Agent | Policy

    @property
    def native(self) -> bool:
        """A native agent, which `agents.GameStream` can play on native threads."""
        return isinstance(self.agent, agents.Agent)


def load_policy(spec: str) -> Policy:
    """The function a `module:function` or `path/to/file.py:function` spec names (ConfigError if none)."""
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
        raise brass.ConfigError(f"cannot load the policy `{spec}`: {_one_line(e)}") from None
    policy: Any = module
    for part in name.split("."):
        policy = getattr(policy, part, None)
        if policy is None:
            raise brass.ConfigError(f"cannot load the policy `{spec}`: {where} has no `{name}`")
    if not callable(policy):
        raise brass.ConfigError(f"the policy `{spec}` is not a function")
    return policy


def entrant(agent: AgentLike | Entrant) -> Entrant:
    """What takes part for an agent given as a spec (`greedy`, `mcts:300`, `module:function`, ...), a native
    agent or a Python callable."""
    if isinstance(agent, Entrant):
        return agent
    if isinstance(agent, str):
        native = agent in ("random", "greedy") or agent.startswith("mcts@")
        native = native or agent.partition(":")[0] in ("mcts", "net", "netmcts")
        if native or ":" not in agent:
            try:
                return Entrant(agent, parse_agent(agent))
            except UserError as e:
                raise brass.ConfigError(
                    f"{e}, or a Python policy module:function or path/to/file.py:function"
                ) from None
        return Entrant(agent, load_policy(agent))
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
        deal_seed, rng = agents.selfplay_seeds(seed, d)
        for lineup in groups:
            for seats in _rotations(lineup):
                games.append(Seating(len(games), d, deal_seed, rng.state, seats))
    return games


@dataclass(frozen=True)
class Forfeit:
    """A Python policy that raised or chose an illegal action: at `decision` (decisions made before it, from 0)
    of game `game`, as player `player`."""

    game: int
    deal: int
    player: int
    agent: str
    decision: int
    error: str


@dataclass(frozen=True)
class Outcome:
    """One game played: `placings` (0 first, ties share a place) after the tie-breaks; a forfeited game has the
    forfeiting player last, the others sharing first, and no `scores`."""

    index: int
    deal: int
    seed: int
    seats: list[str]
    scores: list[int] | None
    placings: list[int]
    decisions: int
    forfeit: Forfeit | None = None
    #: The action ids played (up to the forfeit, for a forfeited game): `record` rebuilds the game from them.
    actions: tuple[int, ...] = ()

    def record(self, game: brass.Game, seed: int) -> str:
        """The game's record (docs/state-format.md) with headers naming the event, the agents and the deal."""
        state = game.new_state(seed=self.seed)
        for action in self.actions:
            state.apply(action)
        headers = {"event": "brass arena", "engine": f"brass {brass.__version__}", "round": f"deal {self.deal}"}
        headers.update({f"player_{p}": name for p, name in enumerate(self.seats)})
        headers["arena_seed"] = str(seed)
        if self.forfeit is not None:
            headers["forfeit"] = f"player {self.forfeit.player}: {self.forfeit.error}"
        return state.record(headers=headers)


def play(game: brass.Game, entered: Sequence[Entrant], seating: Seating) -> Outcome:
    """Play one game of the schedule in Python, exactly as `agents.GameStream` plays it: one draw of the agents'
    generator per decision, whoever decides (a Python policy ignores it)."""
    state = game.new_state(seed=seating.deal_seed)
    rng = SplitMix64(seating.agents_seed)
    names = [entered[a].name for a in seating.seats]
    while not state.is_terminal:
        player = state.current_player
        assert player is not None  # a game that is not over has a player to decide
        agent = entered[seating.seats[player]].agent
        decision_seed = rng.next()
        if isinstance(agent, agents.Agent):
            state.apply(agent.choose(state, seed=decision_seed))
            continue
        # The user's code failing in any way forfeits the game, not the tournament.
        try:
            choice = agent(state.clone())  # a copy: the policy may explore it, the game stays as it was
        except Exception as e:
            return _forfeited(game, seating, names, player, state.history, _one_line(e))
        try:
            state.apply(choice)
        except Exception as e:
            error = f"returned {reprlib.repr(choice)}: {_one_line(e)}"
            return _forfeited(game, seating, names, player, state.history, error)
    placings = list(agents.placings(state))
    history = tuple(state.history)
    return Outcome(
        seating.index, seating.deal, seating.deal_seed, names, state.scores, placings, len(history), None, history
    )


def _forfeited(
    game: brass.Game, seating: Seating, names: list[str], player: int, history: list[int], error: str
) -> Outcome:
    """The forfeiting player placed last, the others sharing first."""
    forfeit = Forfeit(seating.index, seating.deal, player, names[player], len(history), error)
    placings = [game.players - 1 if p == player else 0 for p in range(game.players)]
    return Outcome(
        seating.index, seating.deal, seating.deal_seed, names, None, placings, len(history), forfeit, tuple(history)
    )


def _one_line(e: BaseException) -> str:
    return " ".join(f"{type(e).__name__}: {e}".split())


def _play_all(
    game: brass.Game,
    entered: Sequence[Entrant],
    games: Sequence[Seating],
    threads: int,
    progress: Callable[[int, int], None] | None,
) -> Iterator[Outcome]:
    """The outcomes in schedule order. The native games stream from native threads, which play ahead while the
    games with a Python policy are played here."""
    native = [i for i, e in enumerate(entered) if e.native]
    position = {a: k for k, a in enumerate(native)}
    streamed = [g for g in games if all(entered[a].native for a in g.seats)]
    stream = None
    if streamed:
        stream = agents.GameStream(
            game,
            [e.agent for e in entered if isinstance(e.agent, agents.Agent)],
            seatings=[(g.deal_seed, g.agents_seed, [position[a] for a in g.seats]) for g in streamed],
            threads=threads,
        )
    results = iter(stream) if stream is not None else iter(())
    try:
        for done, g in enumerate(games, 1):
            if all(entered[a].native for a in g.seats):
                r = next(results)
                names = [entered[a].name for a in g.seats]
                yield Outcome(
                    g.index,
                    g.deal,
                    g.deal_seed,
                    names,
                    list(r.scores),
                    list(r.placings),
                    len(r.actions),
                    None,
                    tuple(r.actions),
                )
            else:
                yield play(game, entered, g)
            if progress is not None:
                progress(done, len(games))
    finally:
        if stream is not None:
            stream.cancel()  # only matters when stopped early (Ctrl-C): the native threads stop too


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: `mu` the estimated skill, `sigma` its uncertainty (one standard deviation)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu − 3σ: a skill the agent has with about 99.9% confidence, the conservative order of agents."""
        return self.mu - 3 * self.sigma


def rate(names: Sequence[str], outcomes: Sequence[Outcome]) -> dict[str, Rating] | None:
    """Plackett–Luce ratings (OpenSkill's defaults: mu 25, sigma 25/3) updated game by game in schedule order
    from the placings; None without openskill. An agent in several seats of a game is rated in each seat from
    its rating before the game and keeps the mean of those updates, so a game counts once per agent."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current = {name: Rating(model.mu, model.sigma) for name in names}
    for o in outcomes:
        # A rating object of its own per seat: openskill mixes up one object given for two teams.
        teams = [[model.rating(mu=current[n].mu, sigma=current[n].sigma)] for n in o.seats]
        updated = model.rate(teams, ranks=[float(p) for p in o.placings])
        for name in set(o.seats):
            seats = [updated[p][0] for p, n in enumerate(o.seats) if n == name]
            current[name] = Rating(statistics.mean(r.mu for r in seats), statistics.mean(r.sigma for r in seats))
    return current


@dataclass(frozen=True)
class Standing:
    """One agent's results. `games` counts seats played (an agent in two seats of a game counts it twice),
    `wins` splits shared wins; VP figures leave out forfeited games; `mean_margin` is the agent's VP minus the
    best other player's."""

    agent: str
    games: int
    wins: float
    interval: tuple[float, float]
    mean_vp: float | None
    mean_margin: float | None
    forfeits: int
    rating: Rating | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Meeting:
    """How agent A did against agent B over the games they met in: `ahead` counts the pairs of their seats in
    which A placed ahead of B (ties half) out of `games`."""

    ahead: float
    games: int

    @property
    def share(self) -> float | None:
        return self.ahead / self.games if self.games else None


def _ahead(place: int, other: int) -> float:
    """1 for placing ahead of the other player, ½ for a tie, 0 for placing behind."""
    return 1.0 if place < other else 0.5 if place == other else 0.0


def _share(placings: Sequence[int], player: int) -> float:
    """The player's share of the win: 1 shared among the players placed first."""
    return 1 / placings.count(0) if placings[player] == 0 else 0.0


@dataclass(frozen=True)
class ArenaReport:
    """A tournament's results (`table()`, `to_dict()` / `to_json()`, `plot(path)`)."""

    game: str
    game_name: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    deals: int
    seed: int
    lineups: list[list[str]]
    outcomes: list[Outcome]
    standings: list[Standing]
    pairwise: dict[str, dict[str, Meeting]]
    seat_wins: list[float]
    seconds: float
    notes: list[str]

    @property
    def forfeits(self) -> list[Forfeit]:
        return [o.forfeit for o in self.outcomes if o.forfeit is not None]

    @property
    def rated(self) -> bool:
        return any(s.rating is not None for s in self.standings)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (docs/arena.md, "JSON")."""
        return {
            "game": {"name": self.game_name, "players": self.players, "options": self.options, "text": self.game},
            "agents": self.agents,
            "deals": self.deals,
            "seed": self.seed,
            "lineups": self.lineups,
            "games": len(self.outcomes),
            "seconds": round(self.seconds, 3),
            "rating_model": "openskill PlackettLuce" if self.rated else None,
            "standings": [
                {
                    "agent": s.agent,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "interval": list(s.interval),
                    "mean_vp": s.mean_vp,
                    "mean_margin": s.mean_margin,
                    "forfeits": s.forfeits,
                    "rating": None
                    if s.rating is None
                    else {"mu": s.rating.mu, "sigma": s.rating.sigma, "ordinal": s.rating.ordinal},
                }
                for s in self.standings
            ],
            "pairwise": {
                a: {b: {"ahead": m.ahead, "games": m.games, "share": m.share} for b, m in row.items()}
                for a, row in self.pairwise.items()
            },
            "seat_wins": self.seat_wins,
            "forfeits": [vars(f) for f in self.forfeits],
            "results": [
                {
                    "index": o.index,
                    "deal": o.deal,
                    "seed": o.seed,
                    "seats": o.seats,
                    "scores": o.scores,
                    "placings": o.placings,
                    "decisions": o.decisions,
                    "forfeit": o.forfeit is not None,
                }
                for o in self.outcomes
            ],
            "notes": self.notes,
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def table(self) -> str:
        """The report as text: standings, pairwise results, seats, forfeits."""
        n = len(self.outcomes)
        lines = [
            f"{n} game{'s' if n != 1 else ''} of {self.game}: {len(self.agents)} agents; {_count(self.deals, 'deal')}, "
            f"each played by {_count(len(self.lineups), 'lineup')} in every seat rotation; seed {self.seed}; "
            f"{self.seconds:.1f}s ({n / max(self.seconds, 1e-9):.1f} games/s)",
            "",
        ]
        width = max(14, *(len(a) + 2 for a in self.agents))
        header = f"{'agent':<{width}}{'games':>7}{'wins':>8}{'win rate':>10}{'95% interval':>15}{'mean VP':>9}"
        header += f"{'margin':>8}" + (f"{'mu':>8}{'sigma':>7}{'ordinal':>9}" if self.rated else "")
        lines.append(header)
        for s in self.standings:
            lo, hi = s.interval
            row = (
                f"{s.agent:<{width}}{s.games:>7}{s.wins:>8.1f}{s.win_rate:>10.1%}{f'{lo:.0%} – {hi:.0%}':>15}"
                f"{_number(s.mean_vp, '.1f'):>9}{_number(s.mean_margin, '+.1f'):>8}"
            )
            if s.rating is not None:
                row += f"{s.rating.mu:>8.2f}{s.rating.sigma:>7.2f}{s.rating.ordinal:>9.2f}"
            lines.append(row)
        lines += ["", "placed ahead (row against column, ties half; games met):"]
        order = [s.agent for s in self.standings]
        cell = max(12, *(len(a) + 2 for a in order))
        lines.append(" " * width + "".join(f"{b:>{cell}}" for b in order))
        for a in order:
            row = f"{a:<{width}}"
            for b in order:
                share = self.pairwise[a][b].share if b != a else None
                row += f"{'—' if share is None else f'{share:.0%} ({self.pairwise[a][b].games})':>{cell}}"
            lines.append(row)
        lines += [
            "",
            "win rate by seat (turn order is random): "
            + ", ".join(f"player {p}: {w:.0%}" for p, w in enumerate(self.seat_wins)),
            "lineups: " + "; ".join(" ".join(x) for x in self.lineups),
        ]
        forfeits = self.forfeits
        if forfeits:
            lines.append(f"forfeits: {_count(len(forfeits), 'game')} (the forfeiting player placed last)")
            lines += [
                f"  game {f.game} (deal {f.deal}), player {f.player}, {f.agent}, decision {f.decision}: {f.error}"
                for f in forfeits[:FORFEITS_SHOWN]
            ]
            if len(forfeits) > FORFEITS_SHOWN:
                lines.append(f"  and {len(forfeits) - FORFEITS_SHOWN} more (all of them in the JSON report)")
        else:
            lines.append("forfeits: none")
        lines += self.notes
        return "\n".join(lines)

    def plot(self, path: str | os.PathLike[str]) -> None:
        """Write a PNG chart: each agent's rating (mu ± sigma), or, without ratings, its win rate with the 95%
        interval. Needs matplotlib (`pip install '.[arena]'`)."""
        Figure, FigureCanvasAgg = _matplotlib()
        fig = Figure(figsize=(max(4.0, 1.2 * len(self.standings) + 1.5), 3.6), layout="constrained")
        FigureCanvasAgg(fig)  # the Agg canvas, without pyplot's global state
        ax = fig.add_subplot()
        names = [s.agent for s in self.standings]
        x = list(range(len(names)))
        if self.rated:
            ratings = [s.rating for s in self.standings if s.rating is not None]
            ax.errorbar(x, [r.mu for r in ratings], yerr=[r.sigma for r in ratings], fmt="o", capsize=6)
            ax.plot(x, [r.ordinal for r in ratings], "v", color="grey", label="ordinal (mu − 3σ)")
            ax.set_ylabel("rating: mu ± sigma")
            ax.legend(loc="best", fontsize="small")
        else:
            rates = [s.win_rate for s in self.standings]
            below = [r - s.interval[0] for r, s in zip(rates, self.standings, strict=True)]
            above = [s.interval[1] - r for r, s in zip(rates, self.standings, strict=True)]
            ax.errorbar(x, rates, yerr=[below, above], fmt="o", capsize=6)
            ax.set_ylabel("win rate (95% interval)")
            ax.set_ylim(0, 1)
        tilted = sum(len(n) for n in names) > 60  # long names (file paths) would overlap
        ax.set_xticks(x, names, rotation=20 if tilted else 0, ha="right" if tilted else "center")
        ax.set_xlim(-0.5, len(names) - 0.5)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(f"{self.game}: {len(self.outcomes)} games, seed {self.seed}", fontsize="medium")
        fig.savefig(path, format="png", dpi=120)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _number(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def _matplotlib() -> tuple[Any, Any]:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("the chart", "matplotlib", "arena") from None
    return Figure, FigureCanvasAgg


def report(
    game: brass.Game, entered: Sequence[Entrant], deals: int, seed: int, outcomes: Sequence[Outcome], seconds: float
) -> ArenaReport:
    """The report of a tournament's outcomes."""
    names = [e.name for e in entered]
    ratings = rate(names, outcomes)
    seat_games: dict[str, int] = dict.fromkeys(names, 0)
    wins: dict[str, float] = dict.fromkeys(names, 0.0)
    vps: dict[str, list[int]] = {n: [] for n in names}
    margins: dict[str, list[int]] = {n: [] for n in names}
    forfeits: dict[str, int] = dict.fromkeys(names, 0)
    ahead = {a: dict.fromkeys(names, 0.0) for a in names}
    met = {a: dict.fromkeys(names, 0) for a in names}
    for o in outcomes:
        if o.forfeit is not None:
            forfeits[o.forfeit.agent] += 1
        for p, name in enumerate(o.seats):
            seat_games[name] += 1
            wins[name] += _share(o.placings, p)
            if o.scores is not None:
                vps[name].append(o.scores[p])
                margins[name].append(o.scores[p] - max(v for q, v in enumerate(o.scores) if q != p))
            for q, other in enumerate(o.seats):
                if other != name:
                    met[name][other] += 1
                    ahead[name][other] += _ahead(o.placings[p], o.placings[q])
    standings = [
        Standing(
            n,
            seat_games[n],
            wins[n],
            wilson(wins[n], seat_games[n]),
            statistics.mean(vps[n]) if vps[n] else None,
            statistics.mean(margins[n]) if margins[n] else None,
            forfeits[n],
            ratings[n] if ratings is not None else None,
        )
        for n in names
    ]
    if ratings is not None:
        standings.sort(key=lambda s: -s.rating.ordinal if s.rating else 0.0)
    else:
        standings.sort(key=lambda s: -s.win_rate)
    players = game.players
    return ArenaReport(
        game=describe_game(game),
        game_name=game.name,
        players=players,
        options=dict(game.options),
        agents=names,
        deals=deals,
        seed=seed,
        lineups=[[names[a] for a in lineup] for lineup in lineups(len(entered), players)],
        outcomes=list(outcomes),
        standings=standings,
        pairwise={a: {b: Meeting(ahead[a][b], met[a][b]) for b in names if b != a} for a in names},
        seat_wins=[sum(_share(o.placings, p) for o in outcomes) / max(len(outcomes), 1) for p in range(players)],
        seconds=seconds,
        notes=[] if ratings is not None else [f"ratings need openskill: {INSTALL_HINT}"],
    )


def run(
    game: brass.Game,
    agents: Sequence[AgentLike | Entrant],
    deals: int,
    seed: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaReport:
    """Play a tournament and report it. `agents`: specs (`random`, `greedy`, `mcts:300`, `module:function`,
    `path/to/file.py:function`), native agents or Python callables, at least two; `deals`: how many deals every
    lineup plays in every rotation of its seats; `threads` for the native games (0: all cores); `progress(done,
    total)` is called after each game. The games and the report (but for `seconds`) depend on the arguments
    only, not on `threads`."""
    entered = entrants(agents)
    if len(entered) < 2:
        raise brass.ConfigError(f"an arena needs at least 2 agents, not {len(entered)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise brass.ConfigError(f"deals must be an int of at least 1, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise brass.ConfigError(f"the seed must be an int, 0 <= seed < 2**64, not {seed!r}")
    games = schedule(len(entered), game.players, deals, seed)
    started = time.perf_counter()
    outcomes = list(_play_all(game, entered, games, threads, progress))
    return report(game, entered, deals, seed, outcomes, time.perf_counter() - started)


def add_parser(sub: Any) -> None:
    """Add `brass arena` to the command line's subcommands."""
    ap = sub.add_parser("arena", help="a tournament between agents: ratings, win rates, pairwise results")
    _add_game_argument(ap)
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    _add_option_argument(ap)
    ap.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="two or more: random, greedy, mcts[:ITERATIONS[:DEPTH]], mcts@MS, net:NETWORK, "
        "netmcts:SIMULATIONS:NETWORK (a file or a shipped network's name), or a Python policy "
        "module:function or path/to/file.py:function",
    )
    ap.add_argument(
        "--deals", type=int, default=10, help="deals, each played by every lineup in every seat rotation (default 10)"
    )
    ap.add_argument(
        "--seed", type=int, default=1, help="the deals (default 1: a tournament is reproducible unless asked not to be)"
    )
    ap.add_argument(
        "--jobs", type=int, default=0, metavar="N", help="threads for the native games; 0 (the default) uses every core"
    )
    ap.add_argument("--json", metavar="FILE", help="write the report as JSON (`-`: print it in place of the table)")
    ap.add_argument(
        "--records",
        metavar="FILE",
        help="write every game's record, one per line, with headers naming the agents and the deal (JSON Lines)",
    )
    ap.add_argument(
        "--plot", metavar="FILE", help=f"write a PNG chart of the ratings (needs matplotlib: {INSTALL_HINT})"
    )
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.set_defaults(run=_arena)


def _arena(args: argparse.Namespace) -> int:
    if len(args.agents) < 2:
        raise UserError("an arena needs at least 2 agents: --agents A B ...")
    if args.deals < 1:
        raise UserError("--deals must be at least 1")
    if args.jobs < 0:
        raise UserError("--jobs must be 0 (all cores) or more")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `--agents mypolicy:choose` finds mypolicy.py where the user is
    entered = entrants(args.agents)  # an unknown spec or policy is reported before anything is played
    game = brass.Game(args.game, players=args.players, **_options(args))
    if args.plot:
        _matplotlib()  # missing matplotlib is reported now rather than after the games
    for path in (args.json, args.plot, args.records):
        if path and path != "-":
            try:
                with open(path, "w"):  # fail now rather than after the games
                    pass
            except OSError as e:
                raise UserError(f"cannot write {path}: {e.strerror}") from None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("arena"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),  # stdout stays clean for `--json -`
        transient=True,
        disable=args.quiet,
    ) as bar:
        task = bar.add_task("games", total=None)
        result = run(
            game,
            entered,
            args.deals,
            seed=args.seed,
            threads=args.jobs,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if args.json:
        text = result.to_json()
        if args.json == "-":
            print(text)
        else:
            _write(args.json, text + "\n")
    if args.json != "-":
        print(result.table())
    if args.plot:
        try:
            result.plot(args.plot)
        except OSError as e:
            raise UserError(f"cannot write {args.plot}: {e.strerror}") from None
    if args.records:
        _write(args.records, "".join(o.record(game, args.seed) + "\n" for o in result.outcomes))
        print(f"records: {args.records} (brass replay / brass render read them)")
    if args.json and args.json != "-":
        print(f"report: {args.json}")
    if args.plot:
        print(f"chart: {args.plot}")
    return 0


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror}") from None


__all__ = [
    "ArenaReport",
    "Entrant",
    "Forfeit",
    "Meeting",
    "MissingExtraError",
    "Outcome",
    "Rating",
    "Seating",
    "Standing",
    "entrant",
    "entrants",
    "lineups",
    "load_policy",
    "play",
    "rate",
    "report",
    "run",
    "schedule",
]
