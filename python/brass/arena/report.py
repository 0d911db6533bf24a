"""The results of a tournament: each game's outcome (placings, scores, a forfeit) and the report over them —
standings with win rates and their 95% intervals, OpenSkill ratings (Plackett–Luce, the `arena` extra; without
it the report has everything else), pairwise results, win rates by seat, as a table, JSON or a chart."""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import brass
from brass._errors import install_hint
from brass._stats import wilson
from brass.arena.schedule import Entrant, lineups
from brass.text import count, describe_game

INSTALL_HINT = install_hint("arena")
#: Forfeits listed by `ArenaReport.table()`; the JSON report lists them all.
FORFEITS_SHOWN = 10


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
            f"{n} game{'s' if n != 1 else ''} of {self.game}: {len(self.agents)} agents; {count(self.deals, 'deal')}, "
            f"each played by {count(len(self.lineups), 'lineup')} in every seat rotation; seed {self.seed}; "
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
            lines.append(f"forfeits: {count(len(forfeits), 'game')} (the forfeiting player placed last)")
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
        interval. Needs matplotlib (the `arena` extra)."""
        Figure, FigureCanvasAgg = chart_tools()
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


def _number(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def chart_tools() -> tuple[Any, Any]:
    """The matplotlib classes the chart is drawn with (`Figure`, `FigureCanvasAgg`); `brass.MissingExtraError`
    naming the `arena` extra without matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise brass.MissingExtraError("the chart", "matplotlib", "arena") from None
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
