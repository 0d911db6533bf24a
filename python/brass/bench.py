"""`brass bench`: the throughput figures of docs/performance.md, measured on this machine.

Every figure is a measurement of this process, never an estimate. Run a release build for meaningful
numbers (`pip install .` builds release; `nox -s bench` does it in a fresh environment).
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
import timeit
from typing import Any

import brass
from brass import reference
from brass._rng import MASK64 as MASK64  # names this module has always offered
from brass._rng import SplitMix64 as SplitMix64
from brass._rng import rollout_seeds as game_seeds  # the seeds of game `index` of a `brass.rollouts` batch
from brass.text import game_name


def _rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def native_games(game: brass.Game, games: int, repeats: int = 5) -> dict[str, Any]:
    """Native random games per second on one thread and on all threads, and the scaling between them.

    Runs alternate (one thread, all threads, one thread, …) so that a noisy neighbour on a shared machine
    hits both alike; an all-threads run plays `threads` times as many games, so both last about as long.
    Each figure is the median of `repeats` runs; the scaling is the median of the paired ratios."""
    threads = brass.rollouts(game, 20, seed=99, threads=0).threads  # also warms up the thread pool
    one, many = [], []
    for _ in range(repeats):
        one.append(brass.rollouts(game, games, seed=1, threads=1))
        many.append(brass.rollouts(game, games * threads, seed=1, threads=0))

    def summary(runs: list) -> dict[str, float]:
        return {
            "games_per_s": statistics.median(r.games_per_second for r in runs),
            "decisions_per_game": float(runs[0].decisions.mean()),
            "threads": runs[0].threads,
        }

    ratios = [m.games_per_second / o.games_per_second for o, m in zip(one, many, strict=True)]
    return {
        "native_1_thread": summary(one),
        "native_all_threads": summary(many),
        "native_scaling": statistics.median(ratios),
    }


def python_loop(game: brass.Game, seconds: float) -> dict[str, float]:
    """Decisions per second of a Python loop calling legal_actions() and apply() on the native engine."""
    chooser = random.Random(0)
    decisions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal:
            ids = state.legal_actions()
            state.apply(ids[chooser.randrange(len(ids))])
            decisions += 1
    return {"decisions_per_s": _rate(decisions, time.perf_counter() - start)}


def vecenv(game: brass.Game, n: int, seconds: float) -> dict[str, float]:
    """Env-steps per second of VecEnv(n): stepping alone with native random actions, and a full RL loop
    (observations + masks + step)."""
    env = brass.VecEnv(game, n, seed=1)
    env.reset()
    out: dict[str, float] = {}
    for label, full in (("steps_per_s", False), ("loop_steps_per_s", True)):
        steps = 0
        k = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if full:
                env.observations()
                env.legal_action_masks()
            env.step(env.sample_legal_actions(k))
            k += 1
            steps += n
        out[label] = _rate(steps, time.perf_counter() - start)
    return out


def clone_ns(game: brass.Game) -> dict[str, float]:
    state = game.new_state(seed=3)
    chooser = random.Random(1)
    for _ in range(120):  # a mid-game position with some history (an introductory game may end sooner)
        if state.is_terminal:
            break
        state.apply(chooser.choice(state.legal_actions()))
    number = 20000
    seconds = min(timeit.repeat(state.clone, number=number, repeat=5))
    return {"clone_ns": seconds / number * 1e9}


def reference_ratio(game: brass.Game, games: int) -> dict[str, float]:
    """Reference engine games/s on the same games as native rollouts (same deals, same choices), the
    native/reference ratio, and a check that both engines reach the same final scores."""
    ref_game = reference.Game(game.name, players=game.players, **game.options)
    scores = []
    start = time.perf_counter()
    for i in range(games):
        deal, rng = game_seeds(1, i)
        state = ref_game.new_state(seed=deal)
        while not state.is_terminal:
            ids = state.legal_actions()
            state.apply(ids[rng.below(len(ids))])
        scores.append(state.scores)
    ref_rate = _rate(games, time.perf_counter() - start)
    native = brass.rollouts(game, max(games * 50, 200), seed=1, threads=1)
    same = native.scores[:games].tolist() == scores
    return {
        "reference_games_per_s": ref_rate,
        "native_over_reference": native.games_per_second / ref_rate,
        "same_results": float(same),
    }


def selfplay_throughput(game: brass.Game, games: int, repeats: int = 3) -> dict[str, Any]:
    """`brass selfplay` of random games streamed to a records file against `brass.rollouts` of as many games,
    both on one worker thread and the whole process pinned to one core (where the OS allows it), alternating
    so that noise hits both alike: the median games/s of each and the median of the paired ratios. Then the
    samples per second of a run taking every decision as a sample (to Parquet when pyarrow is installed, else
    as numpy batches)."""
    import tempfile

    from brass import agents, selfplay

    seats = [agents.Random() for _ in range(game.players)]
    spec = selfplay.RunSpec(game, tuple(s.name for s in seats), 1, games)
    pinned = hasattr(os, "sched_setaffinity")
    before = os.sched_getaffinity(0) if pinned else set()
    if pinned:
        os.sched_setaffinity(0, {min(before)})
    try:
        with tempfile.TemporaryDirectory() as folder:
            rollout_rates, selfplay_rates, ratios = [], [], []
            for k in range(repeats):
                rollout = brass.rollouts(game, games, seed=1, threads=1).games_per_second
                out = selfplay.Run(spec, seats, out=os.path.join(folder, f"{k}.jsonl"), threads=1).execute()
                rate = _rate(out.played, out.seconds)
                rollout_rates.append(rollout)
                selfplay_rates.append(rate)
                ratios.append(rate / rollout)
            sample_games = max(games // 20, 10)
            try:  # imported before the clock starts: its import alone is most of a second
                import pyarrow.parquet  # noqa: F401 - only whether it is there

                into = "parquet"
            except ImportError:
                into = "numpy"
            started = time.perf_counter()
            if into == "parquet":
                path = os.path.join(folder, "samples.parquet")
                sample_spec = selfplay.RunSpec(game, spec.names, 1, sample_games)
                rows = selfplay.Run(sample_spec, seats, samples=path, threads=1).execute().sample_rows
            else:
                rows = sum(len(b["game"]) for b in selfplay.sample_batches(game, seats, sample_games, threads=1))
            sample_seconds = time.perf_counter() - started
    finally:
        if pinned:
            os.sched_setaffinity(0, before)
    return {
        "selfplay_games_per_s": statistics.median(selfplay_rates),
        "rollouts_games_per_s": statistics.median(rollout_rates),
        "selfplay_over_rollouts": statistics.median(ratios),
        "one_core": float(pinned),
        "samples_per_s": _rate(rows, sample_seconds),
        "samples_into": into,
    }


def search_selfplay(game: brass.Game, games: int = 32, simulations: int = 32) -> dict[str, Any] | None:
    """Self-play with the network-guided search (`search.SearchGames`, the native network) on all cores: leaf
    evaluations per second and the share of the time spent in the engine rather than in the network. Uses the
    network shipped for the game; None when there is none."""
    from brass import agents, search

    name = f"{game.name}-{game.players}p"
    if game.options or name not in agents.PRETRAINED:
        return None
    try:
        net = agents.Net.pretrained(name)
    except brass.BrassError:
        return None
    run = search.SearchGames(game, net, games, seed=1, simulations=simulations, parallel=games)
    started = time.perf_counter()
    decisions = sum(len(played.actions) for played in run)
    seconds = time.perf_counter() - started
    engine, network = run.seconds
    return {
        "network": name,
        "widths": net.widths,
        "simulations": simulations,
        "parallel": games,
        "leaf_evaluations_per_s": _rate(run.leaf_evaluations, seconds),
        "decisions_per_s": _rate(decisions, seconds),
        "engine_share": engine / max(engine + network, 1e-12),
    }


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "brass": brass.__version__,
        "platform": platform.platform(),
    }


def run(
    players: list[int] | None = None,
    quick: bool = False,
    game_name: str = "lancashire",
    options: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """Every figure for each player count of `game_name` with `options` (default: all its player counts)."""
    options = dict(options or {})
    if players is None:
        players = brass.games().get(game_name, {}).get("players", [])
    games_made = [brass.Game(game_name, players=n, **options) for n in players]  # ConfigError before any timing
    seconds = 0.5 if quick else 2.0
    games = 200 if quick else 2000
    report: dict[str, Any] = {"machine": machine(), "game": game_name, "options": options, "results": {}}
    for n, game in zip(players, games_made, strict=True):
        r: dict[str, Any] = {}
        r.update(native_games(game, games))
        r.update(python_loop(game, seconds))
        r["vecenv_256"] = vecenv(game, 256, seconds)
        r.update(clone_ns(game))
        r.update(reference_ratio(game, 2 if quick else 5))
        r["selfplay"] = selfplay_throughput(game, games)
        r["search_selfplay"] = search_selfplay(game, 8 if quick else 64)
        report["results"][str(n)] = r
    return report


def _search(result: dict[str, Any], key: str, form: str) -> str:
    """A search self-play figure, or — when the game has no shipped network."""
    figures = result.get("search_selfplay")
    return form.format(figures[key]) if figures else "—"


def format_table(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"brass {m['brass']} on {m['cpu']} ({m['cores']} cores), Python {m['python']}; "
        f"random games of {game_name(report.get('game', 'lancashire'), report.get('options') or {})}",
        "",
    ]
    rows = [
        ("native random games/s, 1 thread", lambda r: f"{r['native_1_thread']['games_per_s']:,.0f}"),
        ("native random games/s, all threads", lambda r: f"{r['native_all_threads']['games_per_s']:,.0f}"),
        ("  scaling (all / 1)", lambda r: f"{r['native_scaling']:.2f}x"),
        ("decisions per game", lambda r: f"{r['native_1_thread']['decisions_per_game']:.0f}"),
        ("Python loop decisions/s", lambda r: f"{r['decisions_per_s']:,.0f}"),
        ("VecEnv(256) env-steps/s, step only", lambda r: f"{r['vecenv_256']['steps_per_s']:,.0f}"),
        ("VecEnv(256) env-steps/s, obs+mask+step", lambda r: f"{r['vecenv_256']['loop_steps_per_s']:,.0f}"),
        ("State.clone() from Python, ns", lambda r: f"{r['clone_ns']:.0f}"),
        ("selfplay --out, 1 core, games/s", lambda r: f"{r['selfplay']['selfplay_games_per_s']:,.0f}"),
        ("  / rollouts on the same core", lambda r: f"{r['selfplay']['selfplay_over_rollouts']:.0%}"),
        ("selfplay --samples (rate 1), 1 core, samples/s", lambda r: f"{r['selfplay']['samples_per_s']:,.0f}"),
        ("search self-play (shipped net), leaf evals/s", lambda r: _search(r, "leaf_evaluations_per_s", "{:,.0f}")),
        ("  share of the time in the engine", lambda r: _search(r, "engine_share", "{:.0%}")),
        ("reference engine games/s", lambda r: f"{r['reference_games_per_s']:.2f}"),
        ("native / reference (same games)", lambda r: f"{r['native_over_reference']:,.0f}x"),
        ("  same final scores", lambda r: "yes" if r["same_results"] else "NO"),
    ]
    keys = list(report["results"])
    lines.append(f"{'':48}" + "".join(f"{k + ' players':>14}" for k in keys))
    for label, fmt in rows:
        lines.append(f"{label:48}" + "".join(f"{fmt(report['results'][k]):>14}" for k in keys))
    return "\n".join(lines)


__all__ = ["run", "format_table", "game_seeds", "machine"]
