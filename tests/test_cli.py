"""The `brass` command line: self-play, replay, play; one-line errors."""

from __future__ import annotations

import json
import pathlib

import pytest

from brass.cli import main, wilson


def test_selfplay_writes_records_that_replay(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert main(["selfplay", "--players", "2", "--agents", "greedy", "random", "--games", "3", "--seed", "5",
                 "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "95% interval" in text and "games/s" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and [json.loads(x)["index"] for x in lines] == [0, 1, 2]
    assert main(["replay", str(out)]) == 0
    assert "3 games replayed" in capsys.readouterr().out
    # Same seed, same records.
    again = tmp_path / "again.jsonl"
    main(["selfplay", "--players", "2", "--agents", "greedy", "random", "--games", "3", "--seed", "5",
          "--out", str(again), "--quiet", "--jobs", "1"])
    assert again.read_text() == out.read_text()


def test_replay_detects_a_tampered_score(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    main(["selfplay", "--players", "2", "--agents", "random", "random", "--games", "1", "--out", str(out), "--quiet"])
    entry = json.loads(out.read_text())
    entry["scores"][0] += 1
    out.write_text(json.dumps(entry) + "\n")
    capsys.readouterr()
    assert main(["replay", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "differ" in err


@pytest.mark.parametrize(
    "argv",
    [["selfplay", "--agents", "wizard", "random", "random", "random"], ["selfplay", "--players", "7"],
     ["replay", "/no/such/file"], ["selfplay", "--frobnicate"], ["play", "--seat", "9"], ["selfplay", "--games", "0"]],
)
def test_user_mistakes_are_one_line_and_nonzero(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("brass: ") and err.count("\n") == 1 and "Traceback" not in err


def test_play_in_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["help", "board", "undo", "build nothing", "0", "undo", "0", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "--players", "2", "--agents", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Your decision" in out and "nothing to undo" in out and "not possible" in out and "your hand" in out


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert 0.88 < lo < 0.9 and 0.97 < hi < 0.99
    assert wilson(0, 0) == (0.0, 0.0)
