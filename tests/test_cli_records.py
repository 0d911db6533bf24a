"""`brass replay` and `brass render` read record files with one reader (issue 21, item 6): the same files are
accepted and the same errors worded alike; unfinished games are said to be; `--game-index` is checked before
anything is replayed; `--svg DIR` leaves no stale pictures and writes them even when stdout's reader goes away."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

import brass
from brass.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _two_games(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> pathlib.Path:
    out = tmp_path / "games.jsonl"
    argv = ["selfplay", "--players", "2", "--agents", "random", "random", "--games", "2", "--seed", "3"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    return out


def _unfinished_record(decisions: int) -> str:
    state = brass.Game("lancashire", players=2).new_state(seed=3)
    for _ in range(decisions):
        state.apply(state.legal_actions()[0])
    return state.record()


def test_replay_and_render_word_a_non_utf8_file_alike(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe{}\n")
    assert _run(capsys, "replay", str(bad)) == (2, "", f"brass: {bad}: not UTF-8 text\n")
    assert _run(capsys, "render", str(bad), "-o", str(tmp_path / "x.html")) == (
        2,
        "",
        f"brass: {bad}: not UTF-8 text\n",
    )


def test_replay_accepts_the_pretty_printed_record_render_accepts(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(json.loads(_unfinished_record(3)), indent=2))
    code, out, _ = _run(capsys, "replay", str(pretty))
    assert code == 0 and out.startswith(f"1 game replayed from {pretty}: every action legal (3 decisions)")
    assert _run(capsys, "render", str(pretty), "-o", str(tmp_path / "x.html"))[0] == 0


def test_an_unfinished_game_is_reported_as_unfinished(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = tmp_path / "one.json"
    one.write_text(_unfinished_record(1) + "\n")
    code, out, _ = _run(capsys, "replay", str(one))
    assert code == 0
    assert "every final score matches" not in out and "1 decision)" in out and "1 decisions" not in out
    assert f"1 unfinished: {one}:1 after 1 decision" in out
    games = _two_games(tmp_path, capsys)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(games.read_text() + _unfinished_record(4) + "\n")
    code, out, _ = _run(capsys, "replay", str(mixed))
    assert code == 0 and "3 games replayed" in out
    assert "2 finished, every final score matches; 1 unfinished: " + f"{mixed}:3 after 4 decisions" in out


@pytest.mark.parametrize("extra", [[], ["--moves"], ["--svg", "pictures"]])
def test_a_game_index_out_of_range_is_refused_before_the_replay(
    extra: list[str], tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _two_games(tmp_path, capsys)
    args = [a if a != "pictures" else str(tmp_path / "pictures") for a in extra]
    code, out, err = _run(capsys, "replay", str(games), "--game-index", "2", *args)
    assert (code, out) == (2, "")  # nothing replayed or printed first
    assert err == f"brass: {games} holds 2 game records: --game-index must be between 0 and 1\n"
    assert not (tmp_path / "pictures").exists()


def test_svg_pictures_of_a_longer_game_do_not_stay(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = _two_games(tmp_path, capsys)
    lengths = [len(json.loads(line)["record"]["actions"]) for line in games.read_text().splitlines()]
    longer, shorter = (0, 1) if lengths[0] > lengths[1] else (1, 0)
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "notes.txt").write_text("mine")
    for index in (longer, shorter):
        assert _run(capsys, "replay", str(games), "--game-index", str(index), "--svg", str(pictures))[0] == 0
    names = sorted(os.listdir(pictures))
    assert "notes.txt" in names  # only the pictures' own names are cleared
    assert len([n for n in names if n.endswith(".svg")]) == lengths[shorter] + 1


def test_svg_pictures_are_written_when_stdout_goes_away(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _two_games(tmp_path, capsys)
    pictures = tmp_path / "pictures"
    command = [sys.executable, "-m", "brass", "replay", str(games), "--svg", str(pictures)]
    reader = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None
    reader.stdout.close()  # the reader of stdout is gone before anything is printed (`| true`)
    reader.wait(timeout=120)
    record = json.loads(games.read_text().splitlines()[0])["record"]
    assert len([n for n in os.listdir(pictures) if n.endswith(".svg")]) == len(record["actions"]) + 1
