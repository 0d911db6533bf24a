"""Self-play outputs that need the optional extras (`nox -s integration`): training samples in Parquet (pyarrow)
read back and checked against replays of the recorded games, Zstandard-compressed records, and the examples of
docs/selfplay.md that load samples with polars and JAX."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pyarrow.parquet as pq
import pytest

import brass
from brass import selfplay
from brass.cli import main

GAME = ["--game", "birmingham", "--players", "3", "--agents", "greedy", "random", "random", "--quiet"]


def test_the_sample_file_holds_every_decision_of_the_recorded_games(tmp_path: pathlib.Path) -> None:
    out, samples = tmp_path / "g.jsonl", tmp_path / "s.parquet"
    assert main(["selfplay", *GAME, "--games", "3", "--seed", "4", "--out", str(out), "--samples", str(samples)]) == 0
    table = pq.read_table(samples)
    assert table.schema == selfplay.sample_schema(brass.Game("birmingham", players=3)).with_metadata(
        table.schema.metadata
    )
    about = json.loads(table.schema.metadata[b"brass"])
    assert about["game"] == {"name": "birmingham", "players": 3, "options": {}}
    assert about["agents"] == ["greedy", "random", "random"] and about["seed"] == 4
    assert about["engine"] == f"brass {brass.__version__}"
    rows, _ = selfplay.read_samples(str(samples))
    game = brass.Game("birmingham", players=3)
    records = [json.loads(line)["record"] for line in out.read_text().splitlines()]
    assert len(rows["game"]) == sum(len(r["actions"]) for r in records)
    at = 0
    for index, record in enumerate(records):
        state = game.new_state(seed=record["seed"])
        end = brass.replay(record)
        for k, action in enumerate(record["actions"]):
            assert (rows["game"][at], rows["decision"][at], rows["action"][at]) == (index, k, action)
            player = state.current_player
            assert rows["player"][at] == player
            np.testing.assert_array_equal(rows["observation"][at], state.observation(player))
            mask = selfplay.unpack_masks(rows["legal_mask"][at : at + 1], game.num_actions)[0]
            np.testing.assert_array_equal(mask, state.legal_action_mask())
            np.testing.assert_allclose(rows["returns"][at], end.returns, atol=1e-6)
            assert list(rows["scores"][at]) == end.scores
            state.apply(action)
            at += 1


def test_a_resumed_run_rebuilds_the_same_sample_file(tmp_path: pathlib.Path) -> None:
    """Samples of the games before the interruption are made again from their records (the sample file of an
    interrupted run is rewritten), so the resumed file equals an uninterrupted run's."""
    full_out, full_samples = tmp_path / "full.jsonl", tmp_path / "full.parquet"
    run = ["selfplay", *GAME, "--games", "6", "--seed", "2", "--sample-rate", "0.5", "--jobs", "2"]
    assert main([*run, "--out", str(full_out), "--samples", str(full_samples)]) == 0
    part_out, part_samples = tmp_path / "part.jsonl", tmp_path / "part.parquet"
    part_out.write_text("".join(full_out.read_text().splitlines(keepends=True)[:4]))
    part_samples.write_bytes(b"PAR1 cut short")  # as a run killed before it finished the file leaves it
    assert main([*run, "--out", str(part_out), "--samples", str(part_samples), "--resume"]) == 0
    assert part_out.read_bytes() == full_out.read_bytes()
    assert pq.read_table(part_samples).equals(pq.read_table(full_samples))
    full_rows, _ = selfplay.read_samples(str(full_samples))
    decisions = sum(json.loads(line)["decisions"] for line in full_out.read_text().splitlines())
    assert 0 < len(full_rows["game"]) < 0.75 * decisions


def test_row_groups_are_batches_of_the_same_rows_whatever_the_threads(tmp_path: pathlib.Path) -> None:
    files = []
    for jobs in ("1", "2"):
        path = tmp_path / f"s{jobs}.parquet"
        argv = ["selfplay", *GAME, "--games", "4", "--seed", "1", "--jobs", jobs, "--samples", str(path)]
        assert main(argv) == 0
        files.append(pq.ParquetFile(path))
    assert files[0].metadata.num_row_groups == files[1].metadata.num_row_groups
    assert files[0].read().equals(files[1].read())


@pytest.mark.parametrize("suffix", [".jsonl.zst", ".jsonl.gz"])
def test_compressed_records_replay_and_resume(tmp_path: pathlib.Path, suffix: str) -> None:
    full, part = tmp_path / f"full{suffix}", tmp_path / f"part{suffix}"
    run = ["selfplay", *GAME, "--games", "5", "--seed", "3"]
    assert main([*run, "--out", str(full)]) == 0
    assert main(["replay", str(full)]) == 0
    raw = full.read_bytes()
    part.write_bytes(raw[: len(raw) // 2])  # a stream cut short, as by a killed process
    assert main([*run, "--out", str(part), "--resume"]) == 0
    assert part.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("suffix", [".jsonl.zst", ".jsonl.gz", ".jsonl"])
def test_resuming_an_empty_record_file_drops_no_game(
    tmp_path: pathlib.Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34, item 1: an empty file (left by a run refused before its first game, under an older version)
    holds no game cut off, so a resume says it dropped none."""
    out = tmp_path / f"g{suffix}"
    out.write_bytes(b"")
    assert main(["selfplay", *GAME, "--games", "2", "--seed", "4", "--out", str(out), "--resume"]) == 0
    said = capsys.readouterr().out
    assert "cut off" not in said
    assert [json.loads(line)["index"] for line in selfplay.read_record_lines(str(out))[0]] == [0, 1]


def test_the_examples_of_docs_selfplay_run(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every python block of docs/selfplay.md, in order, in one namespace (tests/test_docs_examples.py runs the
    ones that need no extra)."""
    from test_docs_examples import blocks

    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "docs_selfplay"}
    ran = 0
    for language, number, code in blocks("docs/selfplay.md"):
        if language == "python":
            exec(compile(code, f"docs/selfplay.md, python block {number}", "exec"), namespace)
            ran += 1
    assert ran == 4 and (tmp_path / "s.parquet").exists()
