"""The `brass` command line.

    brass selfplay [--players 4] [--games 100] [--seed 1]

(Agents, progress bars and records grow here; see the issues.)
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import brass


def _selfplay(args: argparse.Namespace) -> int:
    game = brass.Game("lancashire", players=args.players)
    wins = [0.0] * args.players
    scores = [0] * args.players
    decisions = 0
    started = time.perf_counter()
    for g in range(args.games):
        chooser = random.Random(args.seed * 1_000_003 + g)
        state = game.new_state(seed=args.seed + g)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
            decisions += 1
        winners = state.winners()
        for p in winners:
            wins[p] += 1 / len(winners)
        for p, vp in enumerate(state.scores()):
            scores[p] += vp
    elapsed = time.perf_counter() - started
    print(f"{args.games} games of {game!r}, random agents, seed {args.seed}")
    print(f"{'seat':>4} {'wins':>7} {'mean VP':>8}")
    for p in range(args.players):
        print(f"{p:>4} {wins[p]:>7.1f} {scores[p] / args.games:>8.1f}")
    print(f"{decisions / args.games:.0f} decisions per game, {args.games / elapsed:.1f} games/s (Python loop)")
    return 0


def _bench(args: argparse.Namespace) -> int:
    import json

    from brass import bench

    report = bench.run(args.players, quick=args.quick)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(bench.format_table(report))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="brass", description="Rules engine for the Brass board games.")
    parser.add_argument("--version", action="version", version=f"brass {brass.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play games between agents and summarise them")
    sp.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--seed", type=int, default=1)
    sp.set_defaults(run=_selfplay)
    bp = sub.add_parser("bench", help="measure throughput on this machine (docs/performance.md)")
    bp.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    bp.add_argument("--json", action="store_true", help="print the figures as JSON")
    bp.add_argument("--quick", action="store_true", help="shorter runs (less precise)")
    bp.set_defaults(run=_bench)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except brass.BrassError as e:
        print(f"brass: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
