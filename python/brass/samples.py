"""Training samples (docs/selfplay.md, "Samples"): per decision the observation, the legal mask, the action and
the game's final returns, cut into batches of a fixed number of rows, and their Parquet files.

    >>> from brass import agents, samples
    >>> game = brass.Game("birmingham", players=4)
    >>> for batch in samples.sample_batches(game, [agents.Random()] * 4, games=10, seed=1):
    ...     batch["observation"].shape          # (rows, game.observation_size) float32

`brass selfplay --samples` writes them while it plays (`brass.selfplay`); `read_samples` loads a file back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

import brass
from brass import agents
from brass._brass import _samples_of_game
from brass.records import SelfPlayError, missing_extra, sync

#: The columns of a sample batch and of the Parquet file (docs/selfplay.md, "Samples").
SAMPLE_COLUMNS = ("game", "decision", "player", "observation", "legal_mask", "action", "returns", "scores")


def unpack_masks(legal_mask: np.ndarray, num_actions: int) -> np.ndarray:
    """Bit-packed legal-action masks (`rows × ceil(num_actions / 8)` uint8, bit `a % 8` of byte `a // 8`) as
    a `rows × num_actions` bool array (one packed mask, `ceil(num_actions / 8)` bytes, gives one row)."""
    if isinstance(num_actions, bool) or not hasattr(num_actions, "__index__"):
        raise brass.ArgumentTypeError(f"num_actions must be an int, not {type(num_actions).__name__}")
    num_actions = num_actions.__index__()
    if num_actions < 0:
        raise brass.ConfigError(f"num_actions must be at least 0, not {num_actions}")
    packed = np.asarray(legal_mask, dtype=np.uint8)
    width = (num_actions + 7) // 8
    # Masks of another game, or masks already unpacked, would otherwise give rows of the wrong actions.
    if packed.ndim == 0 or packed.shape[-1] != width:
        raise brass.ConfigError(
            f"legal_mask must hold masks of {num_actions} actions packed into {width} byte{'s' * (width != 1)} on its "
            f"last axis, not an array of shape {packed.shape}"
        )
    bits = np.unpackbits(packed, axis=-1, bitorder="little")
    return bits[..., :num_actions].astype(bool)


def samples_of_record(record: str | bytes | dict[str, Any], sample_rate: float = 1.0) -> dict[str, np.ndarray]:
    """The samples of one recorded game, as `brass selfplay --samples` takes them while playing it: the
    columns of `sample_batches` but `game` (one row per kept decision), and the game's final `scores` and
    `returns` (lists, one value per seat; all 0 for a record that stops before the end)."""
    rec = json.loads(record) if isinstance(record, str | bytes) else record
    about = rec["game"]
    game = brass.Game(about["name"], players=about["players"], **about.get("options", {}))
    actions = [a if isinstance(a, int) else game.parse_action(a) for a in rec["actions"]]
    return _samples_of_game(game, rec["seed"], actions, sample_rate)


class SampleBuffer:
    """Collects the samples of finished games and cuts them into batches of exactly `rows` rows (the last may
    be shorter), the same batches whatever the threads or the interruptions."""

    def __init__(self, game: brass.Game, sample_rate: float, rows: int) -> None:
        if isinstance(rows, bool) or not hasattr(rows, "__index__"):
            raise brass.ArgumentTypeError(f"rows must be an int, not {type(rows).__name__}")
        rows = rows.__index__()
        if rows < 1:
            raise brass.ConfigError(f"a batch holds at least one row, not {rows}")
        self.game, self.sample_rate, self.rows = game, sample_rate, rows
        self._parts: list[dict[str, np.ndarray]] = []
        self._held = 0

    def add(self, played: agents.PlayedGame | agents.GameResult) -> list[dict[str, np.ndarray]]:
        """Add a finished game's samples (taken while it was played, or made from its record); returns the
        batches now complete. `played` is a `PlayedGame` or a native `GameResult`, which has the same fields."""
        samples = played.samples
        returns, scores = played.returns, played.scores
        if samples is None:
            samples = _samples_of_game(self.game, played.seed, list(played.actions), self.sample_rate)
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
    # The buffer is made here, so a bad `batch_rows` is refused by the call rather than by the first `next()`;
    # the stream is not, as it starts playing on its threads when made, and an unread generator must not.
    if isinstance(batch_rows, bool) or not hasattr(batch_rows, "__index__"):
        raise brass.ArgumentTypeError(f"batch_rows must be an int, not {type(batch_rows).__name__}")
    buffer = SampleBuffer(game, sample_rate, batch_rows)
    return _batches(buffer, game, seats, games, seed, first, threads, sample_rate)


def _batches(
    buffer: SampleBuffer,
    game: brass.Game,
    seats: Sequence[agents.Agent],
    games: int,
    seed: int,
    first: int,
    threads: int,
    sample_rate: float,
) -> Iterator[dict[str, np.ndarray]]:
    stream = agents.GameStream(
        game, list(seats), games, seed=seed, first=first, threads=threads, sample_rate=sample_rate
    )
    for played in stream:
        yield from buffer.add(played)
    yield from buffer.rest()


def parquet_libraries(what: str = "--samples (a Parquet file)") -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, or the error that names the extra to install."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise missing_extra("pyarrow", "samples", what) from None
    return pa, pq


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
        pa, pq = parquet_libraries()
        self.pa, self.path, self.game, self.rows = pa, path, game, 0
        schema = sample_schema(game).with_metadata({"brass": json.dumps(about, sort_keys=True)})
        self.schema = schema
        try:
            sink = open(path, "wb" if overwrite else "xb")  # noqa: SIM115 - handed to the Parquet writer
        except FileExistsError:
            raise SelfPlayError(f"{path} exists: pass overwrite=True to replace it") from None
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
            self._sink.flush()
            sync(self._sink)
            self._sink.close()
        except OSError as e:
            raise SelfPlayError(f"cannot finish {self.path}: {e.strerror or e}") from None


def read_samples(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """A sample file as numpy arrays (the columns of `sample_batches`) and the run it came from."""
    _, pq = parquet_libraries("reading a sample file")
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
