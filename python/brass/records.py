"""Record files (docs/selfplay.md, "Records"): one JSON line per game, plain, gzip or Zstandard, written line by
line so that a run stopped at any moment leaves whole games only, read back line by line, and checked line by line
against the run that is to continue them (`--resume`).

    >>> from brass import records
    >>> with records.open_records("games.jsonl.gz") as f:     # doctest: +SKIP
    ...     first = json.loads(f.readline())["record"]

`brass selfplay` writes them (`brass.selfplay`), `brass replay` and `brass render` read them.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import io
import json
import os
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import brass
from brass._errors import install_hint
from brass._rng import selfplay_seeds

#: The record file names `brass selfplay --out` accepts, and how each is compressed.
RECORD_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst")


class SelfPlayError(brass.BrassError):
    """A self-play run cannot go on: an output that cannot be written, a file that cannot be resumed. The error
    of the record files, the sample files and the run (`brass.selfplay.SelfPlayError` is this class)."""


def missing_extra(module: str, extra: str, what: str) -> SelfPlayError:
    """The error for a file that needs a library of an extra that is not installed."""
    return SelfPlayError(f"{what} needs {module}: {install_hint(extra)}")


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


def zstandard_library() -> Any:
    """The zstandard module, or the error that names the extra to install."""
    try:
        import zstandard
    except ImportError:
        raise missing_extra("zstandard", "zstd", "a .jsonl.zst file") from None
    return zstandard


#: The clock that spaces a record file's syncs (a test replaces it).
_clock = time.monotonic


def sync(file: IO[bytes]) -> None:
    """Ask the operating system to put what was written of `file` on the disk (`os.fsync`): a flushed line
    survives a killed process, a synced one a crash of the machine. Files that cannot be synced (/dev/null, a
    pipe) are left as they are."""
    try:
        os.fsync(file.fileno())
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.EROFS, errno.ENOTSUP, errno.EBADF):
            raise


class RecordWriter:
    """Writes game lines to a record file, each flushed as soon as it is written, so a run stopped at any
    moment leaves every line it wrote readable. Compressed files are flushed to a byte boundary after each
    line (deterministic for the same lines, so a resumed run writes the same bytes as an uninterrupted one).
    The file is synced to the disk (`sync`) at most every `sync_seconds` after a line, and when it is closed
    or abandoned: a crash of the machine loses at most the last `sync_seconds` of games.

    `mode` is `"x"` (a new file), `"w"` (replace) or `"a"` (append to a plain file); `kind` is the
    compression when it is not the one the name says (`compression`)."""

    def __init__(self, path: str, mode: str = "x", kind: str | None = None, sync_seconds: float = 1.0) -> None:
        self.path = path
        self.sync_seconds = sync_seconds
        self.kind = kind or compression(path)
        if mode == "a" and self.kind != "none":
            raise SelfPlayError("only a plain .jsonl file can be appended to")
        self.raw = _open_raw(path, mode + "b")
        self.lines = 0
        self._synced = _clock()
        #: The size of the file after the last line written whole: what a failed write truncates back to.
        self.good_size = self.raw.tell()
        self._sink: Any
        if self.kind == "gzip":
            # No file name and a zero time in the header: the same lines give the same bytes.
            self._sink = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0)
        elif self.kind == "zstd":
            self._zstd = zstandard_library()
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
            # One sync per game would cost more than a random game: a sync a second bounds what a crash loses.
            if _clock() - self._synced >= self.sync_seconds:
                self.sync()
        except OSError as e:
            self._cut_back()
            raise SelfPlayError(
                f"cannot write {self.path}: {e.strerror or e}; its first {self.lines} games are kept "
                "(the same command with --resume continues the run)"
            ) from None
        self.lines += 1
        self.good_size = self.raw.tell()

    def sync(self) -> None:
        """Put every line written so far on the disk now."""
        sync(self.raw)
        self._synced = _clock()

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
            self.raw.flush()
            sync(self.raw)
            self.raw.close()
        except OSError as e:
            raise SelfPlayError(f"cannot finish {self.path}: {e.strerror or e}") from None

    def abandon(self) -> None:
        """Close without finishing the compressed stream (after a failed write): what was flushed stays, synced
        if the disk lets it be."""
        with contextlib.suppress(OSError, ValueError):
            sync(self.raw)
        with contextlib.suppress(OSError):
            self.raw.close()


def read_record_lines(path: str) -> tuple[list[bytes], bool]:
    """The whole lines of a record file, and whether anything followed the last of them (a line cut off by
    a process killed mid-write, or a compressed stream without its end). A compressed file is read as far
    as it can be decompressed."""
    kind = compression(path)
    with open(path, "rb") as f:
        data = f.read()
    if not data:  # no stream started, so none was cut short (an empty zstd stream would say it was)
        return [], False
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
        return io.TextIOWrapper(
            zstandard_library().ZstdDecompressor().stream_reader(raw, closefd=True), encoding="utf-8"
        )
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
    zstandard = zstandard_library()
    d = zstandard.ZstdDecompressor().decompressobj()
    try:
        text = d.decompress(data)
    except zstandard.ZstdError:
        return b"", False
    return text, d.eof


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
        deal, _ = selfplay_seeds(self.seed, line)
        if entry.get("run_seed", self.seed) != self.seed or entry["record"].get("seed") != deal:
            raise SelfPlayError(f"{where} was dealt from another run seed than --seed {self.seed}")


def resume_lines(path: str, spec: RunSpec, on_read: Callable[[int], None] | None = None) -> tuple[list[bytes], bool]:
    """The lines of `path` that continue in `spec`'s run, checked one by one, and whether a damaged end
    (a line cut off mid-write) was dropped. Refuses a file of another run, or one longer than the run.
    `on_read` is told how many lines there are to check once the file is read (checking takes a while)."""
    try:
        lines, damaged = read_record_lines(path)
    except OSError as e:
        raise SelfPlayError(f"cannot read {path}: {e.strerror or e}") from None
    if on_read is not None:
        on_read(len(lines))
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
