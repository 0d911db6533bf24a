"""Resident memory of a long `brass selfplay` run, sampled while it plays (docs/performance.md, "Self-play").

Runs `brass selfplay ARGS...` as a child process and reads its resident set (VmRSS, Linux) every `--every`
seconds; prints the samples against the games written so far, then the peak and the final figure.

    python tools/selfplay_rss.py --every 5 -- --game birmingham --agents random random random random \\
        --games 1000000 --out /tmp/m.jsonl.zst --quiet
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=2.0, help="seconds between samples")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of brass selfplay")
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    started = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "brass", "selfplay", *args])
    samples: list[tuple[float, int]] = []
    while child.poll() is None:
        kib = rss_kib(child.pid)
        if kib is not None:
            samples.append((time.monotonic() - started, kib))
            print(f"{samples[-1][0]:8.1f} s  RSS {kib / 1024:8.1f} MiB", flush=True)
        time.sleep(opts.every)
    if samples:
        peak = max(k for _, k in samples)
        late = [k for t, k in samples if t > samples[-1][0] / 10]  # after the start-up (imports, first games)
        low, high = min(late) / 1024, max(late) / 1024
        print(f"peak RSS {peak / 1024:.1f} MiB; after the first tenth: {low:.1f}–{high:.1f} MiB")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
