"""`brass bench`: the throughput figures of docs/performance.md, measured on this machine (`brass.bench`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from brass.cli._common import add_game_argument, add_option_argument, options


def add_parser(sub: Any) -> None:
    """Add `brass bench` to the command line's subcommands."""
    bp = sub.add_parser("bench", help="measure throughput on this machine (docs/performance.md)")
    add_game_argument(bp)
    add_option_argument(bp)
    bp.add_argument(
        "--players", type=int, nargs="+", choices=(2, 3, 4), help="player counts (default: all of the game's)"
    )
    bp.add_argument("--json", action="store_true", help="print the figures as JSON")
    bp.add_argument("--quick", action="store_true", help="shorter runs (less precise)")
    bp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass bench`: the figures, as a table or JSON; the exit code."""
    from brass import bench

    report = bench.run(args.players, quick=args.quick, game_name=args.game, options=options(args))
    print(json.dumps(report, indent=1) if args.json else bench.format_table(report))
    return 0
