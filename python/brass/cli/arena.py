"""`brass arena`: a tournament between agents, with ratings, win rates and pairwise results (docs/arena.md;
the tournament itself is `brass.arena`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import brass
from brass import arena
from brass.cli._common import UserError, add_configuration_arguments, options


def add_parser(sub: Any) -> None:
    """Add `brass arena` to the command line's subcommands."""
    ap = sub.add_parser("arena", help="a tournament between agents: ratings, win rates, pairwise results")
    add_configuration_arguments(ap)
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
    ap.add_argument(
        "--move-time-limit",
        type=float,
        default=arena.MOVE_TIME_LIMIT,
        metavar="SECONDS",
        help=f"a Python policy taking longer over one decision forfeits the game (default {arena.MOVE_TIME_LIMIT:g})",
    )
    ap.add_argument("--json", metavar="FILE", help="write the report as JSON (`-`: print it in place of the table)")
    ap.add_argument(
        "--records",
        metavar="FILE",
        help="write every game's record, one per line, with headers naming the agents and the deal (JSON Lines)",
    )
    ap.add_argument(
        "--plot", metavar="FILE", help=f"write a PNG chart of the ratings (needs matplotlib: {arena.INSTALL_HINT})"
    )
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass arena`: the tournament, its table or JSON, its records and chart; the exit code."""
    if len(args.agents) < 2:
        raise UserError("an arena needs at least 2 agents: --agents A B ...")
    if args.deals < 1:
        raise UserError("--deals must be at least 1")
    if args.jobs < 0:
        raise UserError("--jobs must be 0 (all cores) or more")
    if not 0 < args.move_time_limit < float("inf"):
        raise UserError("--move-time-limit must be a number of seconds above 0")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # `--agents mypolicy:choose` finds mypolicy.py where the user is
    entered = arena.entrants(args.agents)  # an unknown spec or policy is reported before anything is played
    game = brass.Game(args.game, players=args.players, **options(args))
    if args.plot:
        arena.chart_tools()  # missing matplotlib is reported now rather than after the games
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
        result = arena.run(
            game,
            entered,
            args.deals,
            seed=args.seed,
            threads=args.jobs,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            move_time_limit=args.move_time_limit,
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
