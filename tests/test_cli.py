"""The `brass` command line: self-play, replay, play; one-line errors."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

import brass
from brass._stats import wilson
from brass.cli import main


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


def _run(argv: list[str]) -> int:
    """main(argv), with argparse's exits turned into their codes."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


@pytest.mark.parametrize("command", ["selfplay", "play", "bench"])
def test_an_unknown_game_is_an_error_naming_the_games(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([command, "--game", "nope", "--quick"] if command == "bench" else [command, "--game", "nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("brass: ") and captured.err.count("\n") == 1
    assert "nope" in captured.err and all(name in captured.err for name in brass.games())
    # --help lists them too.
    assert _run([command, "--help"]) == 0
    help_text = capsys.readouterr().out
    assert all(name in help_text for name in brass.games())


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_replay_of_a_file_without_records_is_an_error(
    text: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text(text)
    assert main(["replay", str(empty)]) == 2
    captured = capsys.readouterr()
    assert "every action legal" not in captured.out
    assert captured.err == f"brass: {empty}: no game record in the file\n"


def test_selfplay_summary_names_the_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--players", "2", "--agents", "random", "random", "--games", "1", "--quiet"]
    assert main([*argv, "--option", "intro", "--option", "virtual_link"]) == 0
    assert capsys.readouterr().out.startswith("1 game of lancashire (intro, virtual_link), 2 players, ")
    classic = ["selfplay", "--game", "brass", "--players", "3", "--agents", "random", "random", "random"]
    assert main([*classic, "--games", "2", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("2 games of brass, 3 players, ")


@pytest.mark.parametrize(("port", "shown"), [("99999", "99999"), ("-1", "-1"), ("0", "0"), ("http", "'http'")])
def test_serve_refuses_a_bad_port_as_it_reads_the_arguments(
    port: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Refused by the parser: before the server's extra is needed, the address printed or a socket bound.
    assert _run(["serve", "--port", port]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    expected = f"brass: argument --port: must be a port number from 1 to 65535, not {shown} (see `brass --help`)\n"
    assert captured.err == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--bogus", "bench", "--quick"], "unrecognized arguments: --bogus"),
        ([], "the following arguments are required: command"),
        (["bogus"], "invalid choice: 'bogus'"),
    ],
)
def test_a_bad_flag_before_the_command_is_named(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("brass: ") and message in err and err.count("\n") == 1


def test_seat_has_help_and_a_bad_seed_prints_only_the_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["play", "--help"]) == 0
    assert "--seat N" in capsys.readouterr().out
    for argv in (["selfplay", "--seed", "-1", "--games", "1"], ["play", "--seed", "-1"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith("brass: ") and captured.err.count("\n") == 1


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: list[str]) -> str:
    lines = iter([*answers, "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "--players", "2", "--agents", "random", "--seed", "3"]) == 0
    return capsys.readouterr().out


def test_play_errors_print_one_line_and_a_hint_not_the_menu(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    legal = len(brass.Game("lancashire", players=2).new_state(seed=3).legal_actions())
    out = _play(monkeypatch, capsys, ["999", "build nothing", "", "help"])
    assert out.count("Your decision") == 1  # listed once: errors, help and empty lines do not list it again
    assert f"no move number 999: choose 0 to {legal - 1}\n" in out and "notation error" not in out
    assert "not possible: " in out and out.count("`moves` lists the legal moves again") == 2
    out = _play(monkeypatch, capsys, ["999", "moves"])
    assert out.count("Your decision") == 2  # `moves` lists them again


def test_play_echoes_every_move_and_takes_a_card_name_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    card = brass.Game("lancashire", players=2).new_state(seed=3).player(0).hand[0]
    out = _play(monkeypatch, capsys, ["develop coal_mine", "stop", card, "0"])
    assert "player 0 (you): develop coal_mine\n" in out and "player 0 (you): stop\n" in out
    assert f"player 0 (you): card {card}\n" in out  # the bare name at a card decision
    assert "player 1 (random): " in out  # the opponents' moves, in notation
    assert out.count("player 0 (you): ") == 4


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_closed_pipe_ends_the_output_quietly(unbuffered: str, tmp_path: pathlib.Path) -> None:
    """`brass replay --moves | head`: no traceback when the reader goes away, whether the output is buffered
    (Python's default for a pipe: the error comes when it is flushed) or not."""
    records = tmp_path / "g.jsonl"
    argv = ["selfplay", "--players", "2", "--agents", "random", "random", "--games", "1"]
    assert main([*argv, "--out", str(records), "--quiet"]) == 0
    read, write = os.pipe()
    os.close(read)  # nobody will ever read: the first write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "brass", "replay", str(records), "--moves"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, "PYTHONUNBUFFERED": unbuffered},
        )
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 141
