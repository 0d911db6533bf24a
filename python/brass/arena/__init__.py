"""A tournament between agents, with ratings: `brass arena` and its Python API (docs/arena.md).

    >>> from brass import arena
    >>> report = arena.run(brass.Game("birmingham", players=2), ["random", "greedy"], deals=6, seed=1)
    >>> print(report.table())

Every lineup of agents plays every deal in every rotation of its seats, so each agent sits in each seat
equally often and the games of a deal share its seeds ("paired by seed"). Games between native agents are
played on native threads (`agents.GameStream`); games with a Python policy (`module:function` or
`path/to/file.py:function`) are played here, one after another. A policy that raises, returns an illegal
action or takes longer than the time limit of a decision (`move_time_limit`, 30 s by default) forfeits its game
and the tournament goes on. Ratings are OpenSkill's Plackett–Luce (the `arena`
extra); without it the report has everything else.
"""

from __future__ import annotations

import math
import reprlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import brass
from brass import agents
from brass._rng import SplitMix64
from brass.agents import Policy, load_policy
from brass.arena.report import (
    FORFEITS_SHOWN,
    INSTALL_HINT,
    ArenaReport,
    Forfeit,
    Meeting,
    Outcome,
    Rating,
    Standing,
    chart_tools,
    rate,
    report,
)
from brass.arena.schedule import AgentLike, Entrant, Seating, entrant, entrants, lineups, schedule
from brass.text import one_line

#: A part of the report needs a library of the `arena` extra that is not installed (`brass.MissingExtraError`).
MissingExtraError = brass.MissingExtraError


#: Seconds a Python policy may take over one decision by default.
MOVE_TIME_LIMIT = 30.0


class _Late(Exception):
    """A policy did not decide within the time limit."""


def _decide(policy: Policy, state: brass.State, limit: float | None) -> Any:
    """`policy(state)` within `limit` seconds (None: no limit), or `_Late`. The call runs in a thread of its own:
    Python cannot interrupt a call that hangs in the calling thread (a blocking wait, a loop in C), but it can stop
    waiting for another thread. A late call is left to finish or hang in its daemon thread, which keeps no process
    alive; its answer is never read."""
    if limit is None:
        return policy(state)
    answer: list[object] = []
    failure: list[BaseException] = []

    def call() -> None:
        try:
            answer.append(policy(state))
        except BaseException as e:  # handed to the arena's thread, which forfeits the game for it
            failure.append(e)

    worker = threading.Thread(target=call, name="brass arena policy", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise _Late
    if failure:
        raise failure[0]
    return answer[0]


def check_move_time_limit(limit: object) -> float | None:
    """`limit` as seconds, or None (no limit); ConfigError for anything else than a positive finite number."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not (0 < limit < math.inf):
        raise brass.ConfigError(f"move_time_limit must be a number of seconds above 0, or None, not {limit!r}")
    return float(limit)


def play(
    game: brass.Game, entered: Sequence[Entrant], seating: Seating, move_time_limit: float | None = MOVE_TIME_LIMIT
) -> Outcome:
    """Play one game of the schedule in Python, exactly as `agents.GameStream` plays it: one draw of the agents'
    generator per decision, whoever decides (a Python policy ignores it). A Python policy that takes longer than
    `move_time_limit` seconds over a decision (None: no limit) forfeits the game."""
    move_time_limit = check_move_time_limit(move_time_limit)
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
            # A copy: the policy may explore it, the game stays as it was (and a late policy keeps its copy).
            choice = _decide(agent, state.clone(), move_time_limit)
        except _Late:
            error = f"took longer than the time limit of {move_time_limit:g} s to decide"
            return _forfeited(game, seating, names, player, state.history, error)
        except Exception as e:
            return _forfeited(game, seating, names, player, state.history, one_line(e))
        try:
            state.apply(choice)
        except Exception as e:
            error = f"returned {reprlib.repr(choice)}: {one_line(e)}"
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


def _play_all(
    game: brass.Game,
    entered: Sequence[Entrant],
    games: Sequence[Seating],
    threads: int,
    progress: Callable[[int, int], None] | None,
    move_time_limit: float | None = MOVE_TIME_LIMIT,
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
                yield play(game, entered, g, move_time_limit)
            if progress is not None:
                progress(done, len(games))
    finally:
        if stream is not None:
            stream.cancel()  # only matters when stopped early (Ctrl-C): the native threads stop too


def run(
    game: brass.Game,
    agents: Sequence[AgentLike | Entrant],
    deals: int,
    seed: int = 0,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
    move_time_limit: float | None = MOVE_TIME_LIMIT,
) -> ArenaReport:
    """Play a tournament and report it. `agents`: specs (`random`, `greedy`, `mcts:300`, `module:function`,
    `path/to/file.py:function`), native agents or Python callables, at least two; `deals`: how many deals every
    lineup plays in every rotation of its seats; `threads` for the native games (0: all cores); `progress(done,
    total)` is called after each game; `move_time_limit`: the seconds a Python policy may take over a decision
    (None: no limit) before it forfeits the game. The games and the report (but for `seconds`) depend on the
    arguments only, not on `threads` (a policy near its time limit aside)."""
    entered = entrants(agents)
    if len(entered) < 2:
        raise brass.ConfigError(f"an arena needs at least 2 agents, not {len(entered)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise brass.ConfigError(f"deals must be an int of at least 1, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise brass.ConfigError(f"the seed must be an int, 0 <= seed < 2**64, not {seed!r}")
    move_time_limit = check_move_time_limit(move_time_limit)
    games = schedule(len(entered), game.players, deals, seed)
    started = time.perf_counter()
    outcomes = list(_play_all(game, entered, games, threads, progress, move_time_limit))
    return report(game, entered, deals, seed, outcomes, time.perf_counter() - started)


__all__ = [
    "FORFEITS_SHOWN",
    "INSTALL_HINT",
    "AgentLike",
    "ArenaReport",
    "Entrant",
    "Forfeit",
    "Meeting",
    "MOVE_TIME_LIMIT",
    "MissingExtraError",
    "Outcome",
    "Rating",
    "Seating",
    "Standing",
    "chart_tools",
    "check_move_time_limit",
    "entrant",
    "entrants",
    "lineups",
    "load_policy",
    "Policy",
    "play",
    "rate",
    "report",
    "run",
    "schedule",
]
