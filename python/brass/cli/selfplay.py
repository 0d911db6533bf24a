"""`brass selfplay`: games between agents, summarised, streamed to a record file and a sample file as they finish
(docs/selfplay.md)."""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import sys
from typing import Any

import brass
from brass import agents, records, selfplay
from brass._errors import install_hint
from brass.cli._common import UserError, add_configuration_arguments, check_writable, options, progress_bar
from brass.text import count, describe_game

DEFAULT_AGENTS = {
    2: ["mcts:200", "greedy"],
    3: ["mcts:200", "greedy", "random"],
    4: ["mcts:200", "greedy", "greedy", "random"],
}


def add_parser(sub: Any) -> None:
    """Add `brass selfplay` to the command line's subcommands."""
    sp = sub.add_parser("selfplay", help="play games between agents and summarise them")
    add_configuration_arguments(sp)
    sp.add_argument(
        "--agents",
        nargs="+",
        metavar="AGENT",
        help="one per seat: random, greedy, mcts[:ITERATIONS[:DEPTH]], mcts@MS, net:NETWORK, "
        "netmcts:SIMULATIONS:NETWORK "
        "(default for 4 players: mcts:200 greedy greedy random)",
    )
    sp.add_argument("--games", type=int, default=40, metavar="N", help="games to play (default 40)")
    sp.add_argument(
        "--seed", type=int, help="the run seed: game i is dealt from (seed, i) (default: a fresh one, printed)"
    )
    sp.add_argument("--jobs", type=int, default=0, metavar="N", help="threads; 0 (the default) uses every core")
    sp.add_argument(
        "--out",
        metavar="FILE",
        help="write one game per line as it finishes (JSON Lines; FILE.jsonl, .jsonl.gz or .jsonl.zst)",
    )
    sp.add_argument(
        "--samples",
        metavar="FILE",
        help=f"write training samples, one row per decision (FILE.parquet; needs pyarrow: {install_hint('samples')})",
    )
    sp.add_argument(
        "--sample-rate",
        type=float,
        default=1.0,
        metavar="RATE",
        help="keep each decision as a sample with this probability (default 1: all)",
    )
    sp.add_argument("--overwrite", action="store_true", help="replace output files that exist")
    sp.add_argument(
        "--resume",
        action="store_true",
        help="continue the interrupted run in --out (same game, agents, seed and --games)",
    )
    sp.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help=f"run on a Ray cluster (a local one without ADDRESS); needs Ray: {install_hint('ray')}",
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass selfplay`: the games streamed to --out / --samples as they finish (docs/selfplay.md)."""
    specs = args.agents or DEFAULT_AGENTS[args.players]
    if len(specs) != args.players:
        raise UserError(f"{count(len(specs), 'agent')} given for {args.players} players: give one agent per seat")
    seats = [agents.parse_agent(s) for s in specs]
    game = brass.Game(args.game, players=args.players, **options(args))
    if args.seed is None and args.resume and args.out and os.path.exists(args.out):
        # The run's own seed, which every line records; a file with no whole line yet starts afresh.
        whole, _ = records.read_record_lines(args.out)
        if whole:
            args.seed = records.run_seed_of(args.out)
            if args.seed is None:
                raise UserError(f"{args.out} names no run seed to resume: give the run's --seed")
    if args.seed is None:
        args.seed = secrets.randbits(64)  # fresh games unless asked for a seed; the summary prints it
    game.new_state(seed=args.seed)  # a bad --seed is reported now, before the progress bar shows
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if not 0 < args.sample_rate <= 1:
        raise UserError(f"--sample-rate must be in (0, 1], not {args.sample_rate}")
    spec = selfplay.RunSpec(game, tuple(s.name for s in seats), args.seed, args.games)
    job = selfplay.Run(
        spec,
        seats,
        out=args.out,
        samples=args.samples,
        sample_rate=args.sample_rate,
        overwrite=args.overwrite,
        resume=args.resume,
        threads=args.jobs,
        ray=args.ray,
        specs=specs,
        wording=selfplay.CLI_WORDING,
        on_note=None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True),
    )
    check_writable(args.out, args.samples)
    restore = selfplay.install_signal_handlers(job)
    try:
        with progress_bar("selfplay", args.games, disable=args.quiet) as advance:
            job.on_game = advance
            outcome = job.execute()
    finally:
        restore()
    names = [s.name for s in seats]
    playing = outcome.seconds - outcome.checking_seconds
    rate = f"{outcome.played / max(playing, 1e-9):,.1f} games/s"
    took = f"{outcome.seconds:.1f}s ({rate})"
    if outcome.resumed:
        took = (
            f"{outcome.seconds:.1f}s ({outcome.checking_seconds:.1f}s checking the {outcome.resumed:,} games of "
            f"{args.out}, then {rate})"
        )
    heading = (
        f"{count(outcome.games, 'game')} of {describe_game(game)}, run seed {args.seed}, seats rotate every game; "
        f"{took}"
    )
    if outcome.resumed:
        heading += f"; {outcome.resumed} from {args.out}, {outcome.played} played now"
    print(outcome.tally.summary(names, heading))
    if outcome.repaired:
        print(f"{args.out}: a game cut off by the interruption was dropped and played again")
    if args.out:
        print(f"records: {args.out} (check them with `brass replay {args.out}`)")
    if args.samples:
        print(f"samples: {args.samples} ({outcome.sample_rows} decisions, docs/selfplay.md)")
    if outcome.interrupted is not None:
        print(
            f"brass: interrupted after {outcome.games} of {args.games} games"
            + (f"; the same command with --resume continues the run in {args.out}" if args.out else ""),
            file=sys.stderr,
        )
        return 128 + (outcome.interrupted or signal.SIGINT)
    return 0
