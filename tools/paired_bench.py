"""Paired timing of two builds of the core benchmark (docs/performance.md, "Comparing two builds").

    python3 tools/paired_bench.py OLD_BENCH NEW_BENCH "sampled birmingham 4 2000" "rollouts lancashire 4 1000"

OLD_BENCH and NEW_BENCH are `cargo bench -p brass-core --bench core --no-run` binaries of two commits (the
older one may need the mode added to its bench file). Each mode runs as alternating pairs (old, new, old, new
...), pinned to one core with `taskset` where it exists, so a noisy neighbour on a shared machine hits both
sides alike. Prints, per mode, the median rate of each build and the median, lowest and highest of the paired
ratios new / old. A rate is the last "<number> games/s", "iterations/s", "env-steps/s" or "leaves/s" the benchmark
prints.
A mode written "OLD ARGS => NEW ARGS" runs other arguments on each side (e.g. the listing sampler of a
commit that had no other against the drawing sampler: "rollouts lancashire 4 2000 => sampled lancashire 4 2000").
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess

RATE = re.compile(r"([0-9.]+) (games|iterations|env-steps|leaves)/s")


def rate(command: list[str]) -> float:
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    found = RATE.findall(out)
    if not found:
        raise SystemExit(f"no rate in the output of {' '.join(command)}:\n{out}")
    return float(found[-1][0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("modes", nargs="+", help='benchmark arguments, e.g. "sampled birmingham 4 2000"')
    parser.add_argument("--pairs", type=int, default=11)
    parser.add_argument("--core", default="0", help="the core to pin to (taskset -c)")
    args = parser.parse_args()
    pin = ["taskset", "-c", args.core] if shutil.which("taskset") else []
    for mode in args.modes:
        old_rates, new_rates = [], []
        old_args, _, new_args = mode.partition("=>")
        new_args = new_args or old_args
        for _ in range(args.pairs):
            old_rates.append(rate([*pin, args.old, *old_args.split()]))
            new_rates.append(rate([*pin, args.new, *new_args.split()]))
        ratios = sorted(n / o for o, n in zip(old_rates, new_rates))
        print(
            f"{mode}: old {statistics.median(old_rates):,.0f}/s, new {statistics.median(new_rates):,.0f}/s, "
            f"new/old median {statistics.median(ratios):.2f} (range {ratios[0]:.2f}-{ratios[-1]:.2f}, "
            f"{args.pairs} pairs)"
        )


if __name__ == "__main__":
    main()
