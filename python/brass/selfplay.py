"""Self-play at scale (docs/selfplay.md): game records streamed to disk as games finish, runs that survive
Ctrl-C / SIGTERM and resume to the same file, and training samples (observation, legal mask, action, final
returns per decision).

    >>> from brass import agents, selfplay
    >>> game = brass.Game("birmingham", players=4)
    >>> for batch in selfplay.sample_batches(game, [agents.Random()] * 4, games=10, seed=1):
    ...     batch["observation"].shape          # (rows, game.observation_size) float32

Game `i` of a run seeded with `seed` depends only on (`seed`, `i`) (`agents.selfplay_seeds`), so a run can be
split, stopped and resumed, and it always writes the same games in the same order.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

import numpy as np

import brass
from brass import agents

#: The record file names `brass selfplay --out` accepts, and how each is compressed.
RECORD_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst")

#: The columns of a sample batch and of the Parquet file (docs/selfplay.md, "Samples").
SAMPLE_COLUMNS = ("game", "decision", "player", "observation", "legal_mask", "action", "returns", "scores")


class SelfPlayError(brass.BrassError):
    """A self-play run cannot go on: an output that cannot be written, a file that cannot be resumed."""


def _missing(module: str, extra: str, what: str) -> SelfPlayError:
    return SelfPlayError(f"{what} needs {module}: pip install '.[{extra}]' (from the brass clone)")


# ---------------------------------------------------------------------------------------------------------
# Record files: one JSON line per game, plain, gzip or Zstandard.


def compression(path: str) -> str:
    """`"none"`, `"gzip"` or `"zstd"`, by the file name; any other name is an error."""
    if path.endswith(".jsonl.gz"):
        return "gzip"
    if path.endswith(".jsonl.zst"):
        return "zstd"
    if path.endswith(".jsonl") or path == os.devnull:
        return "none"
    raise SelfPlayError(f"{path}: a record file is named *.jsonl, *.jsonl.gz or *.jsonl.zst")


def _open_raw(path: str, mode: str) -> IO[bytes]:
    """The binary file under a record writer (tests replace it to simulate a full disk)."""
    return open(path, mode)  # noqa: SIM115 - owned and closed by RecordWriter


def _zstandard() -> Any:
    try:
        import zstandard
    except ImportError:
        raise _missing("zstandard", "zstd", "a .jsonl.zst file") from None
    return zstandard


class RecordWriter:
    """Writes game lines to a record file, each flushed as soon as it is written, so a run stopped at any
    moment leaves every line it wrote readable. Compressed files are flushed to a byte boundary after each
    line (deterministic for the same lines, so a resumed run writes the same bytes as an uninterrupted one).

    `mode` is `"x"` (a new file), `"w"` (replace) or `"a"` (append to a plain file); `kind` is the
    compression when it is not the one the name says (`compression`)."""

    def __init__(self, path: str, mode: str = "x", kind: str | None = None) -> None:
        self.path = path
        self.kind = kind or compression(path)
        if mode == "a" and self.kind != "none":
            raise SelfPlayError("only a plain .jsonl file can be appended to")
        self.raw = _open_raw(path, mode + "b")
        self.lines = 0
        #: The size of the file after the last line written whole: what a failed write truncates back to.
        self.good_size = self.raw.tell()
        self._sink: Any
        if self.kind == "gzip":
            # No file name and a zero time in the header: the same lines give the same bytes.
            self._sink = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0)
        elif self.kind == "zstd":
            self._zstd = _zstandard()
            self._sink = self._zstd.ZstdCompressor(level=3).stream_writer(self.raw, closefd=False)
        else:
            self._sink = self.raw

    def write(self, line: str) -> None:
        """One game's line (without the newline), written and flushed."""
        try:
            self._sink.write(line.encode() + b"\n")
            if self.kind == "gzip":
                self._sink.flush(zlib_mode=zlib.Z_SYNC_FLUSH)
            elif self.kind == "zstd":
                self._sink.flush(self._zstd.FLUSH_BLOCK)
            self.raw.flush()
        except OSError as e:
            self._cut_back()
            raise SelfPlayError(
                f"cannot write {self.path}: {e.strerror or e}; its first {self.lines} games are kept "
                "(the same command with --resume continues the run)"
            ) from None
        self.lines += 1
        self.good_size = self.raw.tell()

    def _cut_back(self) -> None:
        """After a failed write, drop the partial line so the file holds whole games only."""
        # If even that fails, the file stays as it is: a resume drops the partial line.
        with contextlib.suppress(OSError, ValueError):
            self.raw.truncate(self.good_size)

    def close(self) -> None:
        """Finish the file (a compressed stream gets its end marker)."""
        try:
            if self._sink is not self.raw:
                self._sink.close()
            self.raw.close()
        except OSError as e:
            raise SelfPlayError(f"cannot finish {self.path}: {e.strerror or e}") from None

    def abandon(self) -> None:
        """Close without finishing the compressed stream (after a failed write): what was flushed stays."""
        with contextlib.suppress(OSError):
            self.raw.close()


def read_record_lines(path: str) -> tuple[list[bytes], bool]:
    """The whole lines of a record file, and whether anything followed the last of them (a line cut off by
    a process killed mid-write, or a compressed stream without its end). A compressed file is read as far
    as it can be decompressed."""
    kind = compression(path)
    with open(path, "rb") as f:
        data = f.read()
    if kind == "gzip":
        text, complete = _gunzip(data)
    elif kind == "zstd":
        text, complete = _unzstd(data)
    else:
        text, complete = data, True
    lines = text.split(b"\n")
    tail = lines.pop()  # after the last newline: empty when the file ends with a whole line
    return [line + b"\n" for line in lines], bool(tail) or not complete


def run_seed_of(path: str) -> int | None:
    """The run seed a record file's first game names (`run_seed`), for `--resume` without `--seed`; None if
    the file is missing, empty or names none."""
    try:
        with open_records(path) as f:
            first = f.readline()
        entry = json.loads(first)
    except (OSError, ValueError, EOFError):
        return None
    seed = entry.get("run_seed") if isinstance(entry, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def open_records(path: str) -> IO[str]:
    """A record file opened for reading as text, decompressed as its name says (`compression`): lines are
    read one at a time, so a file of any size can be checked in little memory."""
    kind = compression(path) if path.endswith((".gz", ".zst")) else "none"
    if kind == "gzip":
        return gzip.open(path, "rt", encoding="utf-8")
    if kind == "zstd":
        raw = open(path, "rb")  # noqa: SIM115 - closed with the reader
        return io.TextIOWrapper(_zstandard().ZstdDecompressor().stream_reader(raw, closefd=True), encoding="utf-8")
    return open(path, encoding="utf-8")


def _gunzip(data: bytes) -> tuple[bytes, bool]:
    out = io.BytesIO()
    while data:
        d = zlib.decompressobj(wbits=31)
        try:
            out.write(d.decompress(data))
        except zlib.error:
            return out.getvalue(), False
        if not d.eof:
            return out.getvalue(), False
        data = d.unused_data  # a further gzip member
    return out.getvalue(), True


def _unzstd(data: bytes) -> tuple[bytes, bool]:
    zstandard = _zstandard()
    d = zstandard.ZstdDecompressor().decompressobj()
    try:
        text = d.decompress(data)
    except zstandard.ZstdError:
        return b"", False
    return text, d.eof


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
        """The table `brass selfplay` prints: per agent games, wins, win rate with its 95% interval, VP."""
        from brass.cli import wilson

        lines = [heading, ""]
        lines.append(
            f"{'agent':<14}{'games':>7}{'wins':>8}{'win rate':>10}{'95% interval':>17}{'mean VP':>9}{'sd VP':>7}"
        )
        for name in dict.fromkeys(names):
            t = self.agents.get(name, _AgentTally())
            n = t.games
            lo, hi = wilson(t.wins, n)
            mean = t.vp / n if n else 0.0
            sd = max(0.0, t.vp_squares / n - mean * mean) ** 0.5 if n > 1 else 0.0
            lines.append(
                f"{name:<14}{n:>7}{t.wins:>8.1f}{t.wins / max(n, 1):>10.1%}{f'{lo:.0%} – {hi:.0%}':>17}"
                f"{mean:>9.1f}{sd:>7.1f}"
            )
        lines.append("")
        rates = ", ".join(f"seat {p}: {w / max(self.games, 1):.0%}" for p, w in enumerate(self.seat_wins))
        if rates:
            lines.append(f"win rate by seat (turn order is random): {rates}")
        if self.games:
            lines.append(
                f"game length: {self.decisions / self.games:.0f} decisions (min {self.shortest}, max {self.longest})"
            )
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------
# Training samples.


def unpack_masks(legal_mask: np.ndarray, num_actions: int) -> np.ndarray:
    """Bit-packed legal-action masks (`rows × ceil(num_actions / 8)` uint8, bit `a % 8` of byte `a // 8`) as
    a `rows × num_actions` bool array."""
    bits = np.unpackbits(np.asarray(legal_mask, dtype=np.uint8), axis=-1, bitorder="little")
    return bits[..., :num_actions].astype(bool)


def samples_of_record(record: str | bytes | dict[str, Any], sample_rate: float = 1.0) -> dict[str, np.ndarray]:
    """The samples of one recorded game, as `brass selfplay --samples` takes them while playing it: the
    columns of `sample_batches` but `game` (one row per kept decision), and the game's final `scores` and
    `returns` (lists, one value per seat; all 0 for a record that stops before the end)."""
    rec = json.loads(record) if isinstance(record, str | bytes) else record
    about = rec["game"]
    game = brass.Game(about["name"], players=about["players"], **about.get("options", {}))
    actions = [a if isinstance(a, int) else game.parse_action(a) for a in rec["actions"]]
    return brass._brass._samples_of_game(game, rec["seed"], actions, sample_rate)


class _Played(Protocol):
    """A finished game, as a `GameStream` or a Ray worker hands it over (read-only, as a `GameResult` is)."""

    @property
    def index(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def seats(self) -> list[str]: ...
    @property
    def actions(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def returns(self) -> list[float]: ...
    @property
    def line(self) -> str: ...
    @property
    def samples(self) -> dict[str, np.ndarray] | None: ...


class SampleBuffer:
    """Collects the samples of finished games and cuts them into batches of exactly `rows` rows (the last may
    be shorter), the same batches whatever the threads or the interruptions."""

    def __init__(self, game: brass.Game, sample_rate: float, rows: int) -> None:
        if rows < 1:
            raise brass.ConfigError(f"a batch holds at least one row, not {rows}")
        self.game, self.sample_rate, self.rows = game, sample_rate, rows
        self._parts: list[dict[str, np.ndarray]] = []
        self._held = 0

    def add(self, played: _Played) -> list[dict[str, np.ndarray]]:
        """Add a finished game's samples (taken while it was played, or made from its record); returns the
        batches now complete."""
        samples = played.samples
        returns, scores = played.returns, played.scores
        if samples is None:
            samples = brass._brass._samples_of_game(self.game, played.seed, list(played.actions), self.sample_rate)
        return self.add_samples(played.index, samples, returns, scores)

    def add_samples(
        self, index: int, samples: dict[str, Any], returns: Sequence[float], scores: Sequence[int]
    ) -> list[dict[str, np.ndarray]]:
        """Add the samples of game `index` labelled with its final `returns` and `scores`."""
        rows = len(samples["decision"])
        if rows:
            n = self.game.players
            part = {
                "game": np.full(rows, index, dtype=np.int64),
                "decision": samples["decision"].astype(np.int32),
                "player": samples["player"].astype(np.int8),
                "observation": samples["observation"],
                "legal_mask": samples["legal_mask"],
                "action": samples["action"].astype(np.int32),
                "returns": np.broadcast_to(np.asarray(returns[:n], dtype=np.float32), (rows, n)),
                "scores": np.broadcast_to(np.asarray(scores[:n], dtype=np.int16), (rows, n)),
            }
            self._parts.append(part)
            self._held += rows
        out = []
        while self._held >= self.rows:
            out.append(self._take(self.rows))
        return out

    def rest(self) -> list[dict[str, np.ndarray]]:
        """What is left, as a last (shorter) batch."""
        return [self._take(self._held)] if self._held else []

    def _take(self, rows: int) -> dict[str, np.ndarray]:
        merged = {c: np.concatenate([p[c] for p in self._parts]) for c in SAMPLE_COLUMNS}
        batch = {c: np.ascontiguousarray(v[:rows]) for c, v in merged.items()}
        rest = {c: v[rows:] for c, v in merged.items()}
        self._held -= rows
        self._parts = [rest] if self._held else []
        return batch


def sample_batches(
    game: brass.Game,
    seats: Sequence[agents.Agent],
    games: int,
    seed: int = 0,
    first: int = 0,
    sample_rate: float = 1.0,
    batch_rows: int = 4096,
    threads: int = 0,
) -> Iterator[dict[str, np.ndarray]]:
    """Play games `first .. first + games` of the run seeded with `seed` (native agents, seats rotating) and
    yield their training samples in batches of `batch_rows` rows (the last may be shorter), as numpy arrays
    keyed by `SAMPLE_COLUMNS` (docs/selfplay.md, "Samples"). Memory stays bounded however many games."""
    stream = agents.GameStream(
        game, list(seats), games, seed=seed, first=first, threads=threads, sample_rate=sample_rate
    )
    buffer = SampleBuffer(game, sample_rate, batch_rows)
    for played in stream:
        yield from buffer.add(played)
    yield from buffer.rest()


def sample_schema(game: brass.Game) -> Any:
    """The Arrow schema of the sample files of `game` (docs/selfplay.md)."""
    import pyarrow as pa

    n = game.players
    return pa.schema(
        [
            ("game", pa.int64()),
            ("decision", pa.int32()),
            ("player", pa.int8()),
            ("observation", pa.list_(pa.float32(), game.observation_size)),
            ("legal_mask", pa.list_(pa.uint8(), (game.num_actions + 7) // 8)),
            ("action", pa.int32()),
            ("returns", pa.list_(pa.float32(), n)),
            ("scores", pa.list_(pa.int16(), n)),
        ]
    )


class SampleWriter:
    """Writes sample batches to a Parquet file, one row group per batch; `close()` writes the footer that
    makes the file readable. `about` is kept in the file's metadata under the key `brass`."""

    def __init__(self, path: str, game: brass.Game, about: dict[str, Any], overwrite: bool = False) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise _missing("pyarrow", "samples", "--samples (a Parquet file)") from None
        self.pa, self.path, self.game, self.rows = pa, path, game, 0
        schema = sample_schema(game).with_metadata({"brass": json.dumps(about, sort_keys=True)})
        self.schema = schema
        try:
            sink = open(path, "wb" if overwrite else "xb")  # noqa: SIM115 - handed to the Parquet writer
        except FileExistsError:
            raise SelfPlayError(f"{path} exists: pass --overwrite to replace it") from None
        except OSError as e:
            raise SelfPlayError(f"cannot write {path}: {e.strerror or e}") from None
        self._sink = sink
        self._writer = pq.ParquetWriter(sink, schema, compression="zstd")

    def write(self, batch: dict[str, np.ndarray]) -> None:
        pa = self.pa
        rows = len(batch["game"])
        columns = []
        for name in SAMPLE_COLUMNS:
            values = batch[name]
            kind = self.schema.field(name).type
            if values.ndim == 2:
                flat = pa.array(np.ascontiguousarray(values).reshape(-1), type=kind.value_type)
                columns.append(pa.FixedSizeListArray.from_arrays(flat, values.shape[1]))
            else:
                columns.append(pa.array(values, type=kind))
        try:
            self._writer.write_batch(pa.RecordBatch.from_arrays(columns, schema=self.schema), row_group_size=rows)
        except OSError as e:
            raise SelfPlayError(f"cannot write {self.path}: {e.strerror or e}") from None
        self.rows += rows

    def close(self) -> None:
        try:
            self._writer.close()
            self._sink.close()
        except OSError as e:
            raise SelfPlayError(f"cannot finish {self.path}: {e.strerror or e}") from None


def read_samples(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """A sample file as numpy arrays (the columns of `sample_batches`) and the run it came from."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise _missing("pyarrow", "samples", "reading a sample file") from None
    table = pq.read_table(path)
    about = json.loads((table.schema.metadata or {}).get(b"brass", b"{}"))
    out: dict[str, np.ndarray] = {}
    for name in SAMPLE_COLUMNS:
        column = table.column(name).combine_chunks()
        if name in ("observation", "legal_mask", "returns", "scores"):
            width = column.type.list_size
            out[name] = column.flatten().to_numpy(zero_copy_only=False).reshape(-1, width)
        else:
            out[name] = column.to_numpy()
    return out, about


# ---------------------------------------------------------------------------------------------------------
# Checking a record file against the run that is to continue it.


@dataclass(frozen=True)
class RunSpec:
    """What makes a run: its game, its agents (names, in seat order before rotation), its seed and length."""

    game: brass.Game
    names: tuple[str, ...]
    seed: int
    games: int
    rotate: bool = True

    def seats(self, index: int) -> list[str]:
        n = self.game.players
        return [self.names[(p + index) % n] if self.rotate else self.names[p] for p in range(n)]

    def check(self, entry: dict[str, Any], line: int, path: str) -> None:
        """Refuse (with the reason) a line that is not game `line` of this run."""
        where = f"{path}: line {line + 1}"
        about = entry.get("record", {}).get("game", {}) if isinstance(entry.get("record"), dict) else {}
        if entry.get("index") != line:
            raise SelfPlayError(f"{where} holds game {entry.get('index')!r}, not game {line}: not a run from 0")
        ours = (self.game.name, self.game.players, dict(self.game.options))
        theirs = (about.get("name"), about.get("players"), about.get("options", {}))
        if theirs != ours:
            raise SelfPlayError(
                f"{where} is a game of {theirs[0]}, {theirs[1]} players, options {theirs[2]}: "
                f"this run plays {ours[0]}, {ours[1]} players, options {ours[2]}"
            )
        if entry.get("seats") != self.seats(line):
            raise SelfPlayError(f"{where} was played by {entry.get('seats')}: this run seats {self.seats(line)}")
        deal, _ = agents.selfplay_seeds(self.seed, line)
        if entry.get("run_seed", self.seed) != self.seed or entry["record"].get("seed") != deal:
            raise SelfPlayError(f"{where} was dealt from another run seed than --seed {self.seed}")


def resume_lines(path: str, spec: RunSpec) -> tuple[list[bytes], bool]:
    """The lines of `path` that continue in `spec`'s run, checked one by one, and whether a damaged end
    (a line cut off mid-write) was dropped. Refuses a file of another run, or one longer than the run."""
    try:
        lines, damaged = read_record_lines(path)
    except OSError as e:
        raise SelfPlayError(f"cannot read {path}: {e.strerror or e}") from None
    entries: list[bytes] = []
    for k, line in enumerate(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            if k == len(lines) - 1:  # killed after the newline of a torn write: drop it like a cut-off line
                damaged = True
                break
            raise SelfPlayError(f"{path}: line {k + 1} is not JSON: the file is damaged before its end") from None
        spec.check(entry, k, path)
        entries.append(line)
    if len(entries) > spec.games:
        raise SelfPlayError(f"{path} already holds {len(entries)} games, more than the {spec.games} of this run")
    return entries, damaged


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
    seconds: float
    #: The signal that stopped the run early (`signal.SIGINT`, `signal.SIGTERM`), or None.
    interrupted: int | None = None
    #: Whether a cut-off last line of the resumed file was dropped.
    repaired: bool = False
    sample_rows: int = 0

    @property
    def games(self) -> int:
        """Games the run holds now."""
        return self.resumed + self.played


class _Stoppable(Protocol):
    def cancel(self) -> None: ...
    def __iter__(self) -> Iterator[Any]: ...


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
        import time

        spec = self.spec
        self._check_paths()
        tally = Tally(spec.game.players)
        entries: list[bytes] = []
        repaired = False
        if self.resume and self.out and os.path.exists(self.out):
            entries, repaired = resume_lines(self.out, spec)
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
                    made = brass._brass._samples_of_game(spec.game, record["seed"], record["actions"], self.sample_rate)
                    for batch in buffer.add_samples(entry["index"], made, made["returns"], made["scores"]):
                        sample_writer.write(batch)
            first = len(entries)
            started = time.perf_counter()
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
        return Outcome(tally, played, first, time.perf_counter() - started, interrupted, repaired, rows)

    def _check_paths(self) -> None:
        if self.resume and not self.out:
            raise SelfPlayError("--resume needs --out: a run resumes from its records")
        if self.out:
            compression(self.out)
        if self.samples and not self.samples.endswith(".parquet"):
            raise SelfPlayError(f"{self.samples}: a sample file is named *.parquet")
        for path in (self.out, self.samples):
            if path is None or self.overwrite or path == os.devnull:
                continue
            if os.path.exists(path) and not (self.resume and path in (self.out, self.samples)):
                raise SelfPlayError(f"{path} exists: pass --overwrite to replace it, or --resume to continue its run")
        if self.out and self.samples and os.path.abspath(self.out) == os.path.abspath(self.samples):
            raise SelfPlayError("--out and --samples name the same file")

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
            os.replace(partial, path)
            writer.path = path
            return writer
        except FileExistsError:
            raise SelfPlayError(
                f"{path} exists: pass --overwrite to replace it, or --resume to continue its run"
            ) from None
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
            if len(self.specs) != spec.game.players:
                raise SelfPlayError("a run on Ray needs the agent specs (random, greedy, mcts:N, ...) of every seat")
            return _RayGames(self.ray, spec, list(self.specs), first, games)
        rate = self.sample_rate if self.samples else None
        return agents.GameStream(
            spec.game, list(self.seats), games, seed=spec.seed, first=first, rotate=spec.rotate,
            threads=self.threads, sample_rate=rate,
        )  # fmt: skip


@dataclass
class _Finished:
    """A game played by a Ray worker (the fields of `agents.GameResult` the run uses)."""

    index: int
    seed: int
    seats: list[str]
    actions: list[int]
    scores: list[int]
    winners: list[int]
    returns: list[float]
    line: str
    samples: None = None

    @property
    def decisions(self) -> int:
        return len(self.actions)


def _play_chunk(
    name: str, players: int, options: dict[str, Any], specs: list[str], seed: int, first: int, games: int
) -> list[dict[str, Any]]:
    """Games `first .. first + games` of a run, on one thread (a Ray task)."""
    from brass.cli import parse_agent

    game = brass.Game(name, players=players, **options)
    seats = [parse_agent(s) for s in specs]
    return [
        {f: getattr(r, f) for f in ("index", "seed", "seats", "actions", "scores", "winners", "returns", "line")}
        for r in agents.play_games(game, seats, games, seed=seed, first=first, threads=1)
    ]


class _RayGames:
    """The games of a run played by Ray tasks in chunks, handed over in index order; at most a few chunks
    per CPU of the cluster are in flight, so memory stays bounded."""

    def __init__(self, address: str, spec: RunSpec, specs: list[str], first: int, games: int) -> None:
        try:
            import ray
        except ImportError:
            raise _missing("Ray", "ray", "--ray") from None
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

    def __iter__(self) -> Iterator[_Finished]:
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
                    yield _Finished(**item)
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
