"""Self-play at scale (docs/selfplay.md): a run of games between agents, streamed to a record file
(`brass.records`) and a sample file (`brass.samples`) as the games finish, that survives Ctrl-C / SIGTERM and
resumes to the same file, on local threads or on a Ray cluster.

    >>> from brass import agents, selfplay
    >>> game = brass.Game("birmingham", players=4)
    >>> for batch in selfplay.sample_batches(game, [agents.Random()] * 4, games=10, seed=1):
    ...     batch["observation"].shape          # (rows, game.observation_size) float32

Game `i` of a run seeded with `seed` depends only on (`seed`, `i`) (`agents.selfplay_seeds`), so a run can be
split, stopped and resumed, and it always writes the same games in the same order. The record files and the
samples have modules of their own; their names are also names of this module, as they were before.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

import brass
from brass import agents
from brass._brass import _samples_of_game
from brass._stats import wilson
from brass.records import (
    RECORD_SUFFIXES,
    RecordWriter,
    RunSpec,
    SelfPlayError,
    compression,
    missing_extra,
    open_records,
    read_record_lines,
    resume_lines,
    run_seed_of,
    zstandard_library,
)
from brass.samples import (
    SAMPLE_COLUMNS,
    SampleBuffer,
    SampleWriter,
    parquet_libraries,
    read_samples,
    sample_batches,
    sample_schema,
    samples_of_record,
    unpack_masks,
)

#: The clock of a run's times (a test replaces it).
_clock = time.perf_counter

#: What a Ray worker hands over of each game: the fields of `PlayedGame` a native game result has.
_PLAYED_FIELDS = tuple(f.name for f in fields(agents.PlayedGame) if f.name != "samples")

# ---------------------------------------------------------------------------------------------------------
# The summary of a run, kept game by game (memory does not grow with the number of games).


@dataclass
class _AgentTally:
    games: int = 0
    wins: float = 0.0
    vp: float = 0.0
    vp_squares: float = 0.0


@dataclass
class Tally:
    """Counts for the summary of a run, added game by game."""

    players: int
    agents: dict[str, _AgentTally] = field(default_factory=dict)
    games: int = 0
    seat_wins: list[float] = field(default_factory=list)
    decisions: int = 0
    shortest: int | None = None
    longest: int | None = None

    def add(self, seats: Sequence[str], scores: Sequence[int], winners: Sequence[int], decisions: int) -> None:
        if not self.seat_wins:
            self.seat_wins = [0.0] * self.players
        self.games += 1
        share = 1 / len(winners) if winners else 0.0
        for p, name in enumerate(seats):
            t = self.agents.setdefault(name, _AgentTally())
            t.games += 1
            t.vp += scores[p]
            t.vp_squares += scores[p] ** 2
            if p in winners:
                t.wins += share
                self.seat_wins[p] += share
        self.decisions += decisions
        self.shortest = decisions if self.shortest is None else min(self.shortest, decisions)
        self.longest = decisions if self.longest is None else max(self.longest, decisions)

    def add_line(self, entry: dict[str, Any]) -> None:
        self.add(entry["seats"], entry["scores"], entry["winners"], entry["decisions"])

    def summary(self, names: Sequence[str], heading: str) -> str:
        """The table `brass selfplay` prints: per agent the seats it played, wins, win rate with its 95%
        interval, VP. Column widths follow the widest entry, so a million-game run's numbers stay apart."""
        rows = [["agent", "seats", "wins", "win rate", "95% interval", "mean VP", "sd VP"]]
        for name in dict.fromkeys(names):
            t = self.agents.get(name, _AgentTally())
            n = t.games
            lo, hi = wilson(t.wins, n)
            mean = t.vp / n if n else 0.0
            sd = max(0.0, t.vp_squares / n - mean * mean) ** 0.5 if n > 1 else 0.0
            rows.append(
                [name, f"{n:,}", f"{t.wins:,.1f}", f"{t.wins / max(n, 1):.1%}", f"{lo:.0%} – {hi:.0%}",
                 f"{mean:,.1f}", f"{sd:,.1f}"]
            )  # fmt: skip
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        lines = [heading, ""]
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
            lines.append("  ".join(cells).rstrip())
        for name, seats in Counter(names).items():
            if seats > 1:
                lines.append(f"{name} played {seats} seats a game: its seats, wins and win rate count each seat")
        lines.append("")
        rates = ", ".join(f"seat {p}: {w / max(self.games, 1):.0%}" for p, w in enumerate(self.seat_wins))
        if rates:
            lines.append(f"win rate by seat (turn order is random): {rates}")
        if self.games:
            lines.append(
                f"game length: {self.decisions / self.games:,.0f} decisions (min {self.shortest}, max {self.longest})"
            )
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------
# A run: the games of a RunSpec streamed to a record file and a sample file, stoppable and resumable.


@dataclass
class Outcome:
    """What a run did."""

    tally: Tally
    #: Games played by this call (the games of the file before a resume are not counted).
    played: int
    #: Games taken from the file being resumed.
    resumed: int
    #: Seconds the call took, the check of a resumed file included.
    seconds: float
    #: The signal that stopped the run early (`signal.SIGINT`, `signal.SIGTERM`), or None.
    interrupted: int | None = None
    #: Whether a cut-off last line of the resumed file was dropped.
    repaired: bool = False
    sample_rows: int = 0
    #: Seconds spent checking the games of the resumed file (and rebuilding their samples) before playing.
    checking_seconds: float = 0.0

    @property
    def games(self) -> int:
        """Games the run holds now."""
        return self.resumed + self.played


class _Stoppable(Protocol):
    def cancel(self) -> None: ...
    def __iter__(self) -> Iterator[Any]: ...


#: How `Run`'s messages name its options when it is called from Python: by its parameters.
PYTHON_WORDING = {"overwrite": "overwrite=True", "resume": "resume=True", "out": "out=", "samples": "samples="}
#: ... and when `brass selfplay` runs it: by the flags of the command.
CLI_WORDING = {"overwrite": "--overwrite", "resume": "--resume", "out": "--out", "samples": "--samples"}


@dataclass
class Run:
    """A self-play run (`brass selfplay`): the games of `spec` played by `seats` (native agents, one per
    seat before rotation), streamed to `out` (records) and `samples` (Parquet). See docs/selfplay.md."""

    spec: RunSpec
    seats: Sequence[agents.Agent]
    out: str | None = None
    samples: str | None = None
    sample_rate: float = 1.0
    sample_rows: int = 4096
    overwrite: bool = False
    resume: bool = False
    threads: int = 0
    #: A Ray address ("local" for a local instance) to play the games on, or None for local threads.
    ray: str | None = None
    #: The agent specs of `brass selfplay --agents` (Ray workers build the agents from them).
    specs: Sequence[str] = ()
    #: Called with the number of games done after each game (a progress bar).
    on_game: Callable[[int], None] | None = None
    #: Called with a line of progress that is not a game: the check of the games of a resumed file.
    on_note: Callable[[str], None] | None = None
    #: The names the messages give the options (`PYTHON_WORDING`, or `CLI_WORDING` for the command line).
    wording: dict[str, str] = field(default_factory=lambda: dict(PYTHON_WORDING))
    _source: _Stoppable | None = field(default=None, init=False, repr=False)
    _signal: int | None = field(default=None, init=False, repr=False)

    def stop(self, signum: int | None = None) -> None:
        """Stop the run between two games (a signal handler may call it): the games finished in order are
        written, the files are finished, and `execute` returns with `interrupted` set."""
        self._signal = signum if signum is not None else 0
        if self._source is not None:
            self._source.cancel()

    def execute(self) -> Outcome:
        """Play the run (or what is left of it), writing as the games finish."""
        spec = self.spec
        self._check_paths()
        self._check_libraries()
        started = _clock()
        tally = Tally(spec.game.players)
        entries: list[bytes] = []
        repaired = False
        if self.resume and self.out and os.path.exists(self.out):
            out = self.out

            def on_read(lines: int) -> None:
                if lines:
                    self._note(f"checking {lines:,} games already in {out}…")

            entries, repaired = resume_lines(out, spec, on_read=on_read)
        writer = self._open_records(entries) if self.out else None
        sample_writer = buffer = None
        try:
            if self.samples:
                sample_writer = SampleWriter(
                    self.samples, spec.game, self._about(), overwrite=self.overwrite or self.resume
                )
                buffer = SampleBuffer(spec.game, self.sample_rate, self.sample_rows)
            for entry in map(json.loads, entries):
                tally.add_line(entry)
                if buffer is not None and sample_writer is not None:
                    record = entry["record"]
                    made = _samples_of_game(spec.game, record["seed"], record["actions"], self.sample_rate)
                    for batch in buffer.add_samples(entry["index"], made, made["returns"], made["scores"]):
                        sample_writer.write(batch)
            first = len(entries)
            checking = _clock() - started
            if first:
                self._note(f"checked {first:,} games in {checking:.1f}s")
            played = 0
            if first < spec.games and self._signal is None:
                self._source = self._games(first, spec.games - first)
                if self._signal is not None:  # stopped while the source was being set up
                    self._source.cancel()
                for r in self._source:
                    if writer is not None:
                        writer.write(r.line)
                    tally.add(r.seats, r.scores, r.winners, r.decisions)
                    if buffer is not None and sample_writer is not None:
                        for batch in buffer.add(r):
                            sample_writer.write(batch)
                    played += 1
                    if self.on_game is not None:
                        self.on_game(first + played)
            if buffer is not None and sample_writer is not None:
                for batch in buffer.rest():
                    sample_writer.write(batch)
        except BaseException:
            if self._source is not None:
                self._source.cancel()
            if writer is not None:
                writer.abandon()
            if sample_writer is not None:
                with contextlib.suppress(SelfPlayError):
                    sample_writer.close()
            raise
        if writer is not None:
            writer.close()
        rows = 0
        if sample_writer is not None:
            sample_writer.close()
            rows = sample_writer.rows
        done = first + played
        interrupted = self._signal if done < spec.games else None
        return Outcome(tally, played, first, _clock() - started, interrupted, repaired, rows, checking)

    def _note(self, line: str) -> None:
        if self.on_note is not None:
            self.on_note(line)

    def _exists(self, path: str) -> SelfPlayError:
        w = self.wording
        return SelfPlayError(
            f"{path} exists: pass {w['overwrite']} to replace it, or {w['resume']} to continue its run"
        )

    def _check_paths(self) -> None:
        w = self.wording
        if self.resume and not self.out:
            raise SelfPlayError(f"{w['resume']} needs {w['out']}: a run resumes from its records")
        if self.out:
            compression(self.out)
        if self.samples and not self.samples.endswith(".parquet"):
            raise SelfPlayError(f"{self.samples}: a sample file is named *.parquet")
        for path in (self.out, self.samples):
            if path is None or self.overwrite or path == os.devnull:
                continue
            if os.path.exists(path) and not (self.resume and path in (self.out, self.samples)):
                raise self._exists(path)
        if self.out and self.samples and os.path.abspath(self.out) == os.path.abspath(self.samples):
            raise SelfPlayError(f"{w['out']} and {w['samples']} name the same file")

    def _check_libraries(self) -> None:
        """Import now what the outputs and --ray need: a missing extra refuses the run before any file exists
        (an empty file left behind would be refused by the next run, and taken for an interrupted one)."""
        if self.out and compression(self.out) == "zstd":
            zstandard_library()
        if self.samples:
            parquet_libraries()
        if self.ray is not None:
            if len(self.specs) != self.spec.game.players:
                raise SelfPlayError("a run on Ray needs the agent specs (random, greedy, mcts:N, ...) of every seat")
            _ray_library()

    def _open_records(self, entries: list[bytes]) -> RecordWriter:
        """The record writer, holding the `entries` kept from a resumed file."""
        assert self.out is not None
        path = self.out
        try:
            if not entries:
                mode = "w" if (self.overwrite or self.resume or path == os.devnull) else "x"
                return RecordWriter(path, mode)
            if compression(path) == "none":
                # The kept lines are the start of the file: cut what follows them and append.
                with open(path, "r+b") as f:
                    f.truncate(sum(len(e) for e in entries))
                writer = RecordWriter(path, "a")
                writer.lines = len(entries)
                return writer
            # A compressed stream cannot be continued: the kept lines are compressed again into a new file
            # that replaces the old one once it holds them (the same bytes an uninterrupted run writes).
            partial = path + ".resuming"
            writer = RecordWriter(partial, "w", kind=compression(path))
            for e in entries:
                writer.write(e[:-1].decode())
            writer.sync()  # on the disk before the rename, or a crash could leave the name on a shorter file
            os.replace(partial, path)
            writer.path = path
            return writer
        except FileExistsError:
            raise self._exists(path) from None
        except OSError as e:
            raise SelfPlayError(f"cannot write {path}: {e.strerror or e}") from None

    def _about(self) -> dict[str, Any]:
        """The run, as the sample file's metadata records it."""
        spec = self.spec
        return {
            "engine": f"brass {brass.__version__}",
            "game": {"name": spec.game.name, "players": spec.game.players, "options": dict(spec.game.options)},
            "agents": list(spec.names),
            "seed": spec.seed,
            "games": spec.games,
            "sample_rate": self.sample_rate,
            "observation_size": spec.game.observation_size,
            "num_actions": spec.game.num_actions,
        }

    def _games(self, first: int, games: int) -> _Stoppable:
        spec = self.spec
        if self.ray is not None:
            return _RayGames(self.ray, spec, list(self.specs), first, games)
        rate = self.sample_rate if self.samples else None
        return agents.GameStream(
            spec.game, list(self.seats), games, seed=spec.seed, first=first, rotate=spec.rotate,
            threads=self.threads, sample_rate=rate,
        )  # fmt: skip


def _play_chunk(
    name: str, players: int, options: dict[str, Any], specs: list[str], seed: int, first: int, games: int
) -> list[dict[str, Any]]:
    """Games `first .. first + games` of a run, on one thread (a Ray task), as the fields of `PlayedGame`."""
    game = brass.Game(name, players=players, **options)
    seats = [agents.parse_agent(s) for s in specs]
    played = agents.play_games(game, seats, games, seed=seed, first=first, threads=1)
    return [{f: getattr(r, f) for f in _PLAYED_FIELDS} for r in played]


def _ray_library() -> Any:
    try:
        import ray
    except ImportError:
        raise missing_extra("Ray", "ray", "--ray") from None
    return ray


class _RayGames:
    """The games of a run played by Ray tasks in chunks, handed over in index order; at most a few chunks
    per CPU of the cluster are in flight, so memory stays bounded."""

    def __init__(self, address: str, spec: RunSpec, specs: list[str], first: int, games: int) -> None:
        ray = _ray_library()
        if not ray.is_initialized():
            ray.init(
                address=None if address == "local" else address,
                ignore_reinit_error=True,
                include_dashboard=False,
                log_to_driver=False,
            )
        self.ray, self.spec, self.specs = ray, spec, specs
        self.chunk = 8
        self.starts = [(i, min(self.chunk, first + games - i)) for i in range(first, first + games, self.chunk)]
        self.in_flight = max(2, 2 * int(ray.cluster_resources().get("CPU", 2)))
        self.cancelled = False
        self._task = ray.remote(_play_chunk)

    def cancel(self) -> None:
        self.cancelled = True

    def __iter__(self) -> Iterator[agents.PlayedGame]:
        ray, spec = self.ray, self.spec
        game = spec.game
        pending: dict[Any, int] = {}
        ready: dict[int, list[dict[str, Any]]] = {}
        launched = 0
        try:
            for k in range(len(self.starts)):
                while k not in ready:
                    if self.cancelled:
                        return
                    while launched < len(self.starts) and len(pending) + len(ready) < self.in_flight:
                        a, b = self.starts[launched]
                        ref = self._task.remote(
                            game.name, game.players, dict(game.options), self.specs, spec.seed, a, b
                        )
                        pending[ref] = launched
                        launched += 1
                    done, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
                    for ref in done:
                        ready[pending.pop(ref)] = ray.get(ref)
                for item in ready.pop(k):
                    yield agents.PlayedGame(**item)
        finally:
            for ref in pending:
                ray.cancel(ref)


def install_signal_handlers(run: Run) -> Callable[[], None]:
    """Make Ctrl-C (SIGINT) and SIGTERM stop `run` between two games; a second signal stops at once
    (KeyboardInterrupt). Returns the function that puts the previous handlers back. Only the main thread
    can handle signals: elsewhere nothing is installed."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: object) -> None:
        if run._signal is not None:
            raise KeyboardInterrupt
        run.stop(signum)

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for s, h in previous.items():
            signal.signal(s, h)

    return restore


__all__ = [
    "CLI_WORDING",
    "PYTHON_WORDING",
    "RECORD_SUFFIXES",
    "SAMPLE_COLUMNS",
    "Outcome",
    "RecordWriter",
    "Run",
    "RunSpec",
    "SampleBuffer",
    "SampleWriter",
    "SelfPlayError",
    "Tally",
    "compression",
    "install_signal_handlers",
    "open_records",
    "read_record_lines",
    "read_samples",
    "resume_lines",
    "run_seed_of",
    "sample_batches",
    "sample_schema",
    "samples_of_record",
    "unpack_masks",
]
