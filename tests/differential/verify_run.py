"""The long differential run (`nox -s verify`, docs/verification.md): both engines in lock-step over every
configuration of the catalog, a number of complete games per player count of each game, the games driven by a
mix of policies, and a summary of what they reached.

    python tests/differential/verify_run.py --games 10000 --jobs 2          # the full run (hours)
    python tests/differential/verify_run.py --games 10000 --minutes 60      # an hour of it; run again to go on

- **Games.** For each game and player count, games `0 … N-1`; game `k` takes the `k mod m`-th of the `m`
  configurations that play that count (Lancashire with and without its options, Birmingham with and without
  the introductory game), its deal seed and policy from (`game`, `players`, `k`) alone, so any split of the
  work gives the same games.
- **Policies** (one per game, cycling within each configuration's games): uniform random; Greedy; MCTS with 8 iterations; a builder that prefers
  builds, sales and links; a trader that prefers sales, then loans when poor, then trade builds and links; and
  a mix that draws one of these at every decision. About 30 % of the moves are given by notation, the rest by
  id.
- **Checks** (`differential_harness.Pair`): after every decision the canonical state JSON, the sorted legal
  actions, the properties, the read-only views and at the end scores and winners; every 20 decisions the
  observation of a seat is checked unchanged by `resample_hidden` from that seat's view (native engine).
- **Resumable.** Each finished game is appended to `STATE/done.jsonl`; a new run skips what is there. A
  divergence writes the record that reproduces it (to `STATE/divergences/`), stops the run and exits with 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import differential_harness as h  # noqa: E402 - the harness sits beside this file

from brass import agents  # noqa: E402

POLICIES = ("uniform", "greedy", "mcts", "builder", "trader", "mixed")
NOTATION_SHARE = 0.3
OBSERVATION_EVERY = 20
# The rarer situations the summary counts (`Pair.note_events` names; prefixes match families of names).
RARE = (
    ("coal ties asked", "coal choice"),
    ("iron ties asked", "iron choice"),
    ("merchant barrels taken", "merchant barrel taken"),
    ("second rail's beer", "second rail's beer B-13"),
    ("opponents overbuilt", "overbuild opponent L-30"),
    ("shortfall removals", "remove choice"),
    ("VP lost to a shortfall", "VP lost to a shortfall L-11"),
    ("loans closed with the deck", "loans closed with the deck C-5"),
    ("VP ties at the top", "VP tie at the top L-53"),
)


@cache
def configurations() -> dict[tuple[str, int], list[h.Config]]:
    """For each (game, player count), the configurations that play it, in a fixed order."""
    out: dict[tuple[str, int], list[h.Config]] = defaultdict(list)
    for cfg in (h.LANCASHIRE, *h.NEW_CONFIGS, h.BIRMINGHAM):
        if h.rust_refuses(cfg) is not None:
            continue
        for players in cfg.players:
            out[(cfg.name, players)].append(cfg)
    return dict(sorted(out.items()))


def task_seed(game: str, players: int, k: int) -> int:
    digest = hashlib.sha256(f"verify/{game}/{players}/{k}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def plan(game: str, players: int, k: int) -> tuple[h.Config, int, str]:
    """Game `k` of (`game`, `players`): its configuration (`k mod m` of the `m` that play the count), its seed,
    and its policy, which cycles within the configuration's own games (`k // m`), so that every configuration
    meets every policy (`k mod 6` would pin one policy to each configuration of a count with 6 of them)."""
    cfgs = configurations()[(game, players)]
    return cfgs[k % len(cfgs)], task_seed(game, players, k), POLICIES[(k // len(cfgs)) % len(POLICIES)]


def _preferred(pair: h.Pair, policy: str, rng: random.Random) -> list[int]:
    legal, ids = pair.legal, pair.ids
    if pair.rust.decision != "action":
        return legal
    if policy == "builder":
        busy = [a for a in legal if ids.kind[a] in ("build", "sell", "link")]
        return busy if busy and rng.random() < 0.8 else legal
    if policy == "trader":
        for tier in h.tiers(pair, "trader"):
            if tier and rng.random() < 0.85:
                return tier
    return legal


def choose(pair: h.Pair, policy: str, rng: random.Random, native: dict[str, agents.Agent]) -> int:
    """The next decision of the game under `policy` (`mixed` draws a policy per decision)."""
    if len(pair.legal) == 1:
        return pair.legal[0]
    if policy == "mixed":
        policy = rng.choice(POLICIES[:-1])
    if policy in native:
        return int(native[policy].choose(pair.rust, seed=rng.getrandbits(64)))
    return rng.choice(_preferred(pair, policy, rng))


def check_observation(pair: h.Pair, rng: random.Random) -> None:
    """A seat's observation is the same in a redeal of everything hidden from that seat."""
    state = pair.rust
    seat = rng.randrange(state.game.players)
    again = state.resample_hidden(seat, rng.getrandbits(64))
    before, after = state.observation(seat), again.observation(seat)
    if not (before == after).all():
        changed = [i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y][:8]
        raise pair.diverged("observation after resample_hidden", [f"seat {seat}: indices {changed} differ"])


def play_one(task: tuple[str, int, int, str]) -> dict:
    """Play game `k` of (`game`, `players`) in lock-step; what it reached, or the divergence."""
    game, players, k, divergences = task
    cfg, seed, policy = plan(game, players, k)
    rng = random.Random(seed)
    os.environ["BRASS_DIVERGENCE_DIR"] = divergences
    native = {"greedy": agents.Greedy(), "mcts": agents.MCTS(iterations=8)}
    events_before = Counter(h.STATS.events)
    key = f"{game} {players}p #{k}"
    try:
        pair = h.Pair(players, seed, config=cfg, test=f"verify {key}")
        while not pair.over:
            aid = choose(pair, policy, rng, native)
            pair.apply(pair.ids.names[aid] if rng.random() < NOTATION_SHARE else aid)
            if len(pair.actions) % OBSERVATION_EVERY == 0 and not pair.over:
                check_observation(pair, rng)
    except h.Divergence as e:
        return {"key": key, "config": cfg.at(players), "policy": policy, "divergence": str(e)}
    events = Counter(h.STATS.events)
    events.subtract(events_before)
    return {
        "key": key,
        "config": cfg.at(players),
        "policy": policy,
        "decisions": len(pair.actions),
        "events": {name: n for name, n in events.items() if n > 0},
    }


def summary(done: list[dict]) -> list[str]:
    """One line per configuration, then per game and player count, with the rare situations reached."""
    by_config: dict[str, list[dict]] = defaultdict(list)
    for entry in done:
        by_config[entry["config"]].append(entry)
    lines = []
    for label in sorted(by_config):
        entries = by_config[label]
        events: Counter = Counter()
        for e in entries:
            events.update(e["events"])
        rare = ", ".join(
            f"{title} {sum(n for name, n in events.items() if name.startswith(prefix))}" for title, prefix in RARE
        )
        decisions = sum(e["decisions"] for e in entries)
        lines.append(f"{label}: {len(entries)} games, {decisions} decisions; {rare}")
    per_count = Counter(" ".join(e["key"].split()[:2]) for e in done)
    lines.append("games per game and player count: " + ", ".join(f"{k} {n}" for k, n in sorted(per_count.items())))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per game and player count")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--state", default="target/verify", help="where finished games are recorded")
    parser.add_argument("--minutes", type=float, help="stop after this long (run again to go on)")
    parser.add_argument("--only", help="one game: lancashire, brass or birmingham")
    args = parser.parse_args(argv)
    state = Path(args.state)
    (state / "divergences").mkdir(parents=True, exist_ok=True)
    done_file = state / "done.jsonl"
    done = [json.loads(line) for line in done_file.read_text().splitlines()] if done_file.exists() else []
    seen = {e["key"] for e in done}
    tasks = [
        (game, players, k, str(state / "divergences"))
        for (game, players) in configurations()
        if args.only in (None, game)
        for k in range(args.games)
        if f"{game} {players}p #{k}" not in seen
    ]
    # Interleave the games and player counts, so that a run stopped early has covered all of them.
    tasks.sort(key=lambda t: (t[2], t[0], t[1]))
    print(f"verify: {len(done)} games done before, {len(tasks)} to play on {args.jobs} processes", flush=True)
    started = time.perf_counter()
    failed = None
    played = 0
    with open(done_file, "a") as out, multiprocessing.Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play_one, tasks, chunksize=1):
            if "divergence" in result:
                failed = result
                break
            out.write(json.dumps(result, sort_keys=True) + "\n")
            out.flush()
            done.append(result)
            played += 1
            if played % 500 == 0:
                rate = played / (time.perf_counter() - started)
                print(f"verify: {len(done)} games ({rate:.1f} games/s)", flush=True)
            if args.minutes is not None and time.perf_counter() - started > args.minutes * 60:
                break
        pool.terminate()
    took = time.perf_counter() - started
    print(f"verify: {played} games played in {took / 60:.1f} minutes; {len(done)} in all", flush=True)
    for line in summary(done):
        print(line)
    if failed is not None:
        print(
            f"verify: DIVERGENCE in {failed['key']} ({failed['config']}, {failed['policy']}):\n{failed['divergence']}"
        )
        return 1
    print("verify: 0 divergences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
