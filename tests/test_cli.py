"""The `brass` command line: self-play, replay, play; one-line errors."""

from __future__ import annotations

import json
import pathlib

import pytest

from brass.cli import main, wilson


def test_selfplay_writes_records_that_replay(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert (
        main(
            [
                "selfplay",
                "--players",
                "2",
                "--agents",
                "greedy",
                "random",
                "--games",
                "3",
                "--seed",
                "5",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "greedy" in text and "95% interval" in text and "games/s" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and [json.loads(x)["index"] for x in lines] == [0, 1, 2]
    assert main(["replay", str(out)]) == 0
    assert "3 games replayed" in capsys.readouterr().out
    # Same seed, same records.
    again = tmp_path / "again.jsonl"
    main(
        [
            "selfplay",
            "--players",
            "2",
            "--agents",
            "greedy",
            "random",
            "--games",
            "3",
            "--seed",
            "5",
            "--out",
            str(again),
            "--quiet",
            "--jobs",
            "1",
        ]
    )
    assert again.read_text() == out.read_text()


def test_selfplay_with_options_and_classic_brass_replays(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--option` reaches the game (records carry the options; L-54 games end after the Canal Era)."""
    out = tmp_path / "intro.jsonl"
    assert (
        main(
            [
                "selfplay",
                "--players",
                "2",
                "--agents",
                "greedy",
                "random",
                "--games",
                "2",
                "--option",
                "intro",
                "--option",
                "virtual_link",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    records = [json.loads(x)["record"] for x in out.read_text().splitlines()]
    assert all(r["game"]["options"] == {"intro": True, "virtual_link": True} for r in records)
    assert main(["replay", str(out)]) == 0
    classic = tmp_path / "classic.jsonl"
    assert (
        main(
            [
                "selfplay",
                "--game",
                "brass",
                "--players",
                "3",
                "--agents",
                "greedy",
                "random",
                "random",
                "--games",
                "2",
                "--out",
                str(classic),
                "--quiet",
            ]
        )
        == 0
    )
    assert all(json.loads(x)["record"]["game"]["name"] == "brass" for x in classic.read_text().splitlines())
    assert main(["replay", str(classic)]) == 0
    assert "2 games replayed" in capsys.readouterr().out


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
    [
        ["selfplay", "--agents", "wizard", "random", "random", "random"],
        ["selfplay", "--players", "7"],
        ["replay", "/no/such/file"],
        ["selfplay", "--frobnicate"],
        ["play", "--seat", "9"],
        ["selfplay", "--games", "0"],
        ["selfplay", "--option", "turbo"],
        [
            "selfplay",
            "--game",
            "brass",
            "--players",
            "3",
            "--agents",
            "random",
            "random",
            "random",
            "--option",
            "intro",
        ],
    ],
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
