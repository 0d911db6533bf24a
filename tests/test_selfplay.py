"""Self-play at scale (docs/selfplay.md): records streamed as games finish, real SIGINT / SIGTERM, resume to the
same bytes, refused resumes, failing disks, and training samples checked against replays of the games.

The tests that need the optional extras (pyarrow for Parquet, zstandard) are in test_selfplay_extras.py."""

from __future__ import annotations

import errno
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import brass
from brass import agents, records, selfplay
from brass.cli import main

GAME = ["--game", "birmingham", "--players", "2", "--agents", "greedy", "random", "--quiet"]


def run_cli(*argv: str) -> int:
    """`brass selfplay` on the test game, with run seed 1 unless the test gives one (without, every run
    draws a fresh seed) or resumes (which takes the file's)."""
    seed = [] if "--seed" in argv or "--resume" in argv else ["--seed", "1"]
    return main(["selfplay", *GAME, *seed, *argv])


def entries(path: pathlib.Path) -> list[dict]:
    lines, damaged = selfplay.read_record_lines(str(path))
    assert not damaged
    return [json.loads(line) for line in lines]


# --- streaming, resume, refusals ------------------------------------------------------------------------


def test_records_are_the_games_of_play_games_in_index_order(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "g.jsonl"
    assert run_cli("--games", "12", "--seed", "3", "--out", str(out), "--jobs", "2") == 0
    game = brass.Game("birmingham", players=2)
    direct = agents.play_games(game, [agents.Greedy(), agents.Random()], 12, seed=3)
    assert out.read_text().splitlines() == [r.line for r in direct]
    assert [e["index"] for e in entries(out)] == list(range(12))


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_cut_off_last_line_is_repaired_and_the_resumed_file_is_the_uninterrupted_one(
    tmp_path: pathlib.Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    full, part = tmp_path / f"full{suffix}", tmp_path / f"part{suffix}"
    assert run_cli("--games", "10", "--seed", "5", "--out", str(full)) == 0
    # A run killed while writing its 7th game: 6 whole games, then half a line (for gzip: a stream cut short).
    raw = full.read_bytes()
    if suffix == ".jsonl":
        text = raw.decode().splitlines(keepends=True)
        part.write_text("".join(text[:6]) + text[6][: len(text[6]) // 2])
    else:
        part.write_bytes(raw[: len(raw) * 2 // 3])
    kept, damaged = selfplay.read_record_lines(str(part))
    assert damaged and 0 < len(kept) < 10
    capsys.readouterr()
    assert run_cli("--games", "10", "--seed", "5", "--out", str(part), "--resume") == 0
    out = capsys.readouterr().out
    assert "dropped" in out and f"{len(kept)} from {part}" in out
    assert part.read_bytes() == full.read_bytes()


def test_an_existing_file_is_never_replaced_silently(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    out.write_text("precious\n")
    assert run_cli("--games", "2", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "exists: pass --overwrite" in err and "--resume" in err and out.read_text() == "precious\n"
    assert run_cli("--games", "2", "--out", str(out), "--overwrite") == 0
    assert len(entries(out)) == 2


@pytest.mark.parametrize("output", ["out", "samples"])
def test_the_python_api_names_its_parameters_not_the_flags_of_the_command(tmp_path: pathlib.Path, output: str) -> None:
    """Issue 34, item 8: `Run(...)` is called with `overwrite=True`, not `--overwrite`."""
    path = tmp_path / ("g.jsonl" if output == "out" else "s.parquet")
    path.write_text("precious\n")
    game = brass.Game("birmingham", players=2)
    spec = selfplay.RunSpec(game, ("greedy", "random"), 1, 2)
    run = selfplay.Run(spec, [agents.Greedy(), agents.Random()], **{output: str(path)})
    with pytest.raises(selfplay.SelfPlayError) as caught:
        run.execute()
    message = str(caught.value)
    assert "exists: pass overwrite=True to replace it" in message and "--" not in message
    if output == "out":
        assert "resume=True" in message
    with pytest.raises(selfplay.SelfPlayError, match=r"resume=True needs out=") as caught:
        selfplay.Run(spec, [agents.Greedy(), agents.Random()], resume=True).execute()
    assert path.read_text() == "precious\n"


def test_resume_of_a_finished_run_plays_nothing_and_keeps_the_file(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    assert run_cli("--games", "3", "--out", str(out)) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert run_cli("--games", "3", "--out", str(out), "--resume") == 0
    assert "3 from" in capsys.readouterr().out and out.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (["--seed", "9"], "another run seed than --seed 9"),
        (["--games", "2"], "already holds 4 games"),
        (["--game", "lancashire"], "this run plays lancashire"),
        (["--agents", "random", "greedy"], "this run seats"),
        (["--option", "intro"], "options {'intro': True}"),
    ],
)
def test_resume_refuses_a_file_of_another_run_with_the_reason(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], change: list[str], reason: str
) -> None:
    out = tmp_path / "g.jsonl"
    assert run_cli("--games", "4", "--seed", "1", "--out", str(out)) == 0
    before = out.read_bytes()
    capsys.readouterr()
    args = ["--games", "4", "--seed", "1", *change, "--out", str(out), "--resume"]
    assert main(["selfplay", *GAME, *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err, err
    assert out.read_bytes() == before


def test_a_damaged_middle_line_is_refused(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    assert run_cli("--games", "3", "--out", str(out)) == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text(lines[0] + "{oops\n" + lines[2])
    assert run_cli("--games", "3", "--out", str(out), "--resume") == 2
    assert "line 2 is not JSON" in capsys.readouterr().err


def test_bad_outputs_are_one_line_errors_before_any_game(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv, says in [
        (["--out", str(tmp_path / "missing" / "g.jsonl")], "there is no folder"),
        (["--out", str(tmp_path / "g.json")], "*.jsonl, *.jsonl.gz or *.jsonl.zst"),
        (["--samples", str(tmp_path / "s.csv")], "*.parquet"),
        (["--resume"], "--resume needs --out"),
        (["--sample-rate", "0"], "--sample-rate must be in (0, 1]"),
    ]:
        assert run_cli("--games", "2", *argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err, (argv, err)
    assert os.listdir(tmp_path) == []


class FillsUp:
    """A file that takes `room` bytes, then fails as a full disk does (ENOSPC), part of a write taken."""

    def __init__(self, path: str, mode: str, room: int) -> None:
        self.file = open(path, mode)  # noqa: SIM115 - closed by close()
        self.room = room

    def write(self, data: bytes) -> int:
        if self.file.tell() + len(data) > self.room:
            self.file.write(data[: max(0, self.room - self.file.tell())])
            self.file.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.file.write(data)

    def __getattr__(self, name: str):  # flush, tell, truncate, close
        return getattr(self.file, name)


def test_a_full_disk_is_a_clear_error_and_the_games_written_stay_whole(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full, out = tmp_path / "full.jsonl", tmp_path / "g.jsonl"
    assert run_cli("--games", "8", "--out", str(full)) == 0
    room = len(full.read_bytes()) // 2
    monkeypatch.setattr(records, "_open_raw", lambda path, mode: FillsUp(path, mode, room))
    assert run_cli("--games", "8", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and "--resume" in err
    kept = entries(out)  # whole lines only: the partial one was cut back
    assert 0 < len(kept) < 8 and out.read_bytes() == full.read_bytes()[: len(out.read_bytes())]
    monkeypatch.undo()
    assert run_cli("--games", "8", "--out", str(out), "--resume") == 0
    assert out.read_bytes() == full.read_bytes()


# --- real signals to a child process --------------------------------------------------------------------


def _wait_for_lines(path: pathlib.Path, lines: int, child: subprocess.Popen, deadline: float = 120.0) -> None:
    """Poll until the child has written `lines` whole games (it writes each one as it finishes)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if path.exists() and path.read_bytes().count(b"\n") >= lines:
            return
        assert child.poll() is None, child.communicate()
        time.sleep(0.02)
    raise AssertionError(f"{path} did not reach {lines} games")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_real_signal_leaves_every_finished_game_on_disk_and_resume_completes_the_same_file(
    tmp_path: pathlib.Path, sig: int, code: int
) -> None:
    out = tmp_path / "g.jsonl"
    argv = [sys.executable, "-m", "brass", "selfplay", *GAME[:-1], "--games", "200000", "--seed", "2"]
    child = subprocess.Popen(
        [*argv, "--out", str(out), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    _wait_for_lines(out, 50, child)
    child.send_signal(sig)
    stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == code, stderr
    assert "interrupted after" in stderr and "--resume" in stderr
    assert "win rate" in stdout  # the summary of what was done
    games = entries(out)  # valid to its last line, games 0 .. k-1 in order
    assert len(games) >= 50 and [g["index"] for g in games] == list(range(len(games)))
    assert f"interrupted after {len(games)} of 200000" in stderr
    # The interrupted file is the start of the run's file: the same games as an uninterrupted run of them.
    short = tmp_path / "short.jsonl"
    assert main(["selfplay", *GAME, "--games", str(len(games)), "--seed", "2", "--out", str(short)]) == 0
    assert short.read_bytes() == out.read_bytes()


def test_an_interrupted_then_resumed_run_writes_the_file_of_an_uninterrupted_run(tmp_path: pathlib.Path) -> None:
    games = "1500"
    full, part = tmp_path / "full.jsonl.gz", tmp_path / "part.jsonl.gz"
    assert run_cli("--games", games, "--seed", "6", "--out", str(full)) == 0
    argv = [sys.executable, "-m", "brass", "selfplay", *GAME, "--games", games, "--seed", "6", "--out", str(part)]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while child.poll() is None and time.monotonic() < deadline:
        if part.exists() and len(selfplay.read_record_lines(str(part))[0]) >= 20:
            child.send_signal(signal.SIGINT)
            break
        time.sleep(0.02)
    child.communicate(timeout=120)
    if child.returncode == 0:
        pytest.fail("the run ended before it could be interrupted: give it more games")
    assert child.returncode == 130
    kept = len(selfplay.read_record_lines(str(part))[0])
    assert 20 <= kept < 1500
    assert run_cli("--games", games, "--seed", "6", "--out", str(part), "--resume") == 0
    assert part.read_bytes() == full.read_bytes()


@pytest.mark.parametrize(("suffix", "kill_seed"), [(".jsonl", 1), (".jsonl", 2), (".jsonl", 3), (".jsonl.gz", 4)])
def test_a_run_killed_at_a_random_point_resumes_to_the_file_of_an_uninterrupted_run(
    tmp_path: pathlib.Path, suffix: str, kill_seed: int
) -> None:
    """Issue 34, item 10: SIGKILL (no handler runs, no file is finished) at a random number of games, maybe in
    the middle of a write; --resume then finishes the very file of a run never killed."""
    import random

    games = "400"
    full, part = tmp_path / f"full{suffix}", tmp_path / f"part{suffix}"
    assert run_cli("--games", games, "--seed", "8", "--out", str(full)) == 0
    argv = [sys.executable, "-m", "brass", "selfplay", *GAME, "--games", games, "--seed", "8", "--out", str(part)]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kill_after = random.Random(kill_seed).randrange(1, 120)
    deadline = time.monotonic() + 120
    while child.poll() is None and time.monotonic() < deadline:
        if part.exists() and len(selfplay.read_record_lines(str(part))[0]) >= kill_after:
            child.kill()
            break
        time.sleep(0.005)
    child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, "the run ended before it could be killed: give it more games"
    kept = len(selfplay.read_record_lines(str(part))[0])
    assert kill_after <= kept < 400
    assert run_cli("--games", games, "--seed", "8", "--out", str(part), "--resume") == 0
    assert part.read_bytes() == full.read_bytes()


# --- training samples (numpy; the Parquet file is tested in test_selfplay_extras.py) -----------------------


def test_sample_batches_hold_each_decision_of_the_games_as_replays_show_it() -> None:
    game = brass.Game("lancashire", players=3)
    seats = [agents.Greedy(), agents.Random(), agents.Random()]
    batches = list(selfplay.sample_batches(game, seats, games=3, seed=8, batch_rows=100))
    assert all(len(b["game"]) == 100 for b in batches[:-1]) and 0 < len(batches[-1]["game"]) <= 100
    rows = {c: np.concatenate([b[c] for b in batches]) for c in selfplay.SAMPLE_COLUMNS}
    results = agents.play_games(game, seats, 3, seed=8)
    assert len(rows["game"]) == sum(len(r.actions) for r in results)  # rate 1: every decision
    for r in results:
        mine = rows["game"] == r.index
        state = brass.replay(json.dumps({**json.loads(r.record), "actions": []}))
        masks = selfplay.unpack_masks(rows["legal_mask"][mine], game.num_actions)
        for k, (d, action) in enumerate(zip(rows["decision"][mine], rows["action"][mine], strict=True)):
            assert d == k and action == r.actions[k]
            player = state.current_player
            assert rows["player"][mine][k] == player
            np.testing.assert_array_equal(rows["observation"][mine][k], state.observation(player))
            np.testing.assert_array_equal(masks[k], state.legal_action_mask())
            state.apply(int(action))
        assert state.is_terminal
        np.testing.assert_allclose(rows["returns"][mine], np.tile(state.returns, (mine.sum(), 1)), atol=1e-6)
        np.testing.assert_array_equal(rows["scores"][mine], np.tile(state.scores, (mine.sum(), 1)))


def test_sample_batches_refuses_a_bad_batch_size_when_called() -> None:
    game = brass.Game("lancashire", players=2)
    seats = [agents.Random()] * 2
    # Refused by the call itself, not by the first next() of the generator.
    with pytest.raises(brass.ArgumentTypeError, match="batch_rows must be an int, not float"):
        selfplay.sample_batches(game, seats, games=1, batch_rows=1.5)  # type: ignore[arg-type]
    with pytest.raises(brass.ArgumentTypeError, match="batch_rows must be an int, not bool"):
        selfplay.sample_batches(game, seats, games=1, batch_rows=True)
    with pytest.raises(brass.ConfigError, match="at least one row, not 0"):
        selfplay.sample_batches(game, seats, games=1, batch_rows=0)
    with pytest.raises(brass.ArgumentTypeError, match="rows must be an int, not float"):
        selfplay.SampleBuffer(game, 1.0, 2.5)  # type: ignore[arg-type]
    rows = sum(len(b["game"]) for b in selfplay.sample_batches(game, seats, games=1, batch_rows=np.int64(50)))
    assert rows == len(agents.play_games(game, seats, 1)[0].actions)


def test_unpack_masks_refuses_masks_of_another_width() -> None:
    game = brass.Game("lancashire", players=2)
    state = game.new_state(seed=1)
    packed = np.packbits(state.legal_action_mask(), bitorder="little")[None]
    width = (game.num_actions + 7) // 8
    assert packed.shape == (1, width)
    np.testing.assert_array_equal(selfplay.unpack_masks(packed, game.num_actions)[0], state.legal_action_mask())
    assert selfplay.unpack_masks(packed[0], game.num_actions).shape == (game.num_actions,)  # one mask, one row
    unpacked = state.legal_action_mask()[None].astype(np.uint8)  # masks already unpacked
    with pytest.raises(brass.ConfigError, match=f"{width} bytes on its last axis, not an array of shape"):
        selfplay.unpack_masks(unpacked, game.num_actions)
    birmingham = brass.Game("birmingham", players=2)  # another game's masks
    with pytest.raises(brass.ConfigError, match=f"masks of {birmingham.num_actions} actions"):
        selfplay.unpack_masks(packed, birmingham.num_actions)
    with pytest.raises(brass.ConfigError, match="num_actions must be at least 0, not -1"):
        selfplay.unpack_masks(packed, -1)
    with pytest.raises(brass.ArgumentTypeError, match="num_actions must be an int, not float"):
        selfplay.unpack_masks(packed, 523.0)  # type: ignore[arg-type]
    with pytest.raises(brass.ConfigError, match=r"shape \(\)"):
        selfplay.unpack_masks(np.uint8(1), 8)


def test_subsampled_samples_are_the_same_from_the_stream_and_from_the_records() -> None:
    game = brass.Game("birmingham", players=4)
    seats = [agents.Random()] * 4
    streamed = list(agents.GameStream(game, seats, 4, seed=2, sample_rate=0.3, threads=2))
    for r in streamed:
        again = selfplay.samples_of_record(r.record, sample_rate=0.3)
        n = len(r.actions)
        assert 0.15 * n < len(again["decision"]) < 0.45 * n
        for column in ("decision", "player", "action", "observation", "legal_mask"):
            np.testing.assert_array_equal(again[column], r.samples[column])
        assert again["scores"] == r.scores and again["returns"] == pytest.approx(r.returns)


def test_samples_need_pyarrow_and_say_how_to_get_it(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    assert run_cli("--games", "1", "--samples", str(tmp_path / "s.parquet")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install pyarrow (or, from a clone, pip install '.[samples]')" in err


@pytest.mark.parametrize(
    ("missing", "outputs"),
    [
        ("zstandard", ["--out", "g.jsonl.zst", "--samples", "s.parquet"]),
        ("zstandard", ["--out", "g.jsonl.zst"]),
        ("pyarrow", ["--out", "g.jsonl", "--samples", "s.parquet"]),
        ("pyarrow", ["--out", "g.jsonl.gz", "--samples", "s.parquet"]),
    ],
)
def test_a_missing_extra_is_refused_before_any_file_is_created(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    missing: str,
    outputs: list[str],
) -> None:
    """Issue 34, item 1: a refused run left an empty record file, which the next run then refused to replace
    (and a resume took for an interrupted run)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now fails as if it were not installed
    assert run_cli("--games", "1", *outputs) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"needs {missing}" in err
    assert os.listdir(tmp_path) == []


def test_game_stream_arguments_are_checked() -> None:
    game = brass.Game("lancashire", players=2)
    two = [agents.Random(), agents.Random()]
    with pytest.raises(brass.ConfigError, match="sample_rate must be in"):
        agents.GameStream(game, two, 1, sample_rate=1.5)
    with pytest.raises(brass.ConfigError, match="3 agents for a 2-player game"):
        agents.GameStream(game, [*two, agents.Random()], 1)
    with pytest.raises(brass.ConfigError, match="either games"):
        agents.GameStream(game, two)
    with pytest.raises(brass.ConfigError, match="an agent index"):
        agents.GameStream(game, two, seatings=[(1, 2, [0, 2])])
    with pytest.raises(brass.ArgumentTypeError, match="seatings must be"):
        agents.GameStream(game, two, seatings="no")
    stream = agents.GameStream(game, two, seatings=[(1, 2, [1, 0]), (1, 2, [0, 1])])
    first, second = list(stream)
    assert (first.index, second.index) == (0, 1) and first.seed == second.seed == 1
    assert first.seats == ["random", "random"] and len(stream) == 2 and stream.games_done == 2


# --- the summary ----------------------------------------------------------------------------------------


def test_the_summary_columns_stay_apart_at_a_million_games() -> None:
    """Issue 34, item 2: at 1M games `random        40000001000000.0` ran the columns together, and the column
    called games counted seats (an agent in two seats counts twice per game)."""
    tally = selfplay.Tally(4)
    tally.add(["random", "random", "greedy", "a-long-agent-name:123"], [10, 20, 90, 30], [2], 150)
    scale = 1_000_000  # a million games with the same outcome
    for t in tally.agents.values():
        t.games, t.wins, t.vp, t.vp_squares = t.games * scale, t.wins * scale, t.vp * scale, t.vp_squares * scale
    tally.games, tally.decisions = scale, 150 * scale
    seats = ["random", "random", "greedy", "a-long-agent-name:123"]  # the seat names, as `brass selfplay` gives them
    table = tally.summary(seats, "heading").splitlines()
    header = table[2].split()
    assert header[:3] == ["agent", "seats", "wins"]
    rows = {line.split()[0]: re.split(r"\s{2,}", line.strip()) for line in table[3:6]}
    assert rows["random"][1:3] == ["2,000,000", "0.0"]
    assert rows["greedy"][1:3] == ["1,000,000", "1,000,000.0"]
    assert rows["a-long-agent-name:123"][1] == "1,000,000"
    # Every row has its columns at the header's places: right-aligned numbers end where their heading ends.
    end = table[2].index("seats") + len("seats")
    assert all(line[:end].endswith(rows[line.split()[0]][1]) for line in table[3:6])
    assert "random played 2 seats a game" in "\n".join(table)


def test_help_shows_the_default_number_of_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    assert re.search(r"--games N\s+games to play \(default 40\)", capsys.readouterr().out)


def test_resume_shows_the_check_of_the_games_already_done_and_counts_its_time(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34, item 5: checking 242k finished games took 38 s, silently, and the summary left them out."""
    out = tmp_path / "g.jsonl"
    assert run_cli("--games", "6", "--out", str(out)) == 0
    capsys.readouterr()
    clock = [1000.0]  # a clock that only the check moves: 38 s of checking, no time spent playing
    checked = selfplay.resume_lines

    def slow_check(*args, **kwargs):
        clock[0] += 38.0
        return checked(*args, **kwargs)

    monkeypatch.setattr(selfplay, "_clock", lambda: clock[0])
    monkeypatch.setattr(selfplay, "resume_lines", slow_check)
    assert main(["selfplay", *GAME[:-1], "--games", "8", "--out", str(out), "--resume"]) == 0
    captured = capsys.readouterr()
    assert f"checking 6 games already in {out}…" in captured.err
    assert "checked 6 games in 38.0s" in captured.err
    heading = next(line for line in captured.out.splitlines() if line.startswith("8 games of"))
    assert "38.0s (38.0s checking the 6 games of" in heading, heading


# --- durability: syncs to the disk ------------------------------------------------------------------------


def _count_syncs(monkeypatch: pytest.MonkeyPatch, path: pathlib.Path) -> list[int]:
    """Replace os.fsync by a counter of the syncs of `path` (the list's length)."""
    synced: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        if os.path.realpath(f"/proc/self/fd/{fd}") == str(path.resolve()):
            synced.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_records_are_synced_at_most_once_a_second_and_when_the_run_ends(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 10: lines were flushed but never synced, so a crash of the machine could lose any number."""
    out = tmp_path / "g.jsonl"
    synced = _count_syncs(monkeypatch, out)
    clock = [0.0]
    monkeypatch.setattr(records, "_clock", lambda: clock[0])
    assert run_cli("--games", "12", "--out", str(out), "--jobs", "1") == 0
    assert len(synced) == 1  # a clock that does not move: only the sync at the end
    out.unlink()
    synced.clear()

    def ticking() -> float:  # 0.4 s a game: a sync every third game, and one at the end
        clock[0] += 0.4
        return clock[0]

    monkeypatch.setattr(records, "_clock", ticking)
    assert run_cli("--games", "12", "--out", str(out), "--jobs", "1") == 0
    assert 3 <= len(synced) <= 7 and len(entries(out)) == 12


def test_an_interrupted_run_syncs_what_it_wrote(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.jsonl.gz"
    synced = _count_syncs(monkeypatch, out)
    monkeypatch.setattr(records, "_clock", lambda: 0.0)
    game = brass.Game("birmingham", players=2)
    run = selfplay.Run(
        selfplay.RunSpec(game, ("greedy", "random"), 1, 50), [agents.Greedy(), agents.Random()], out=str(out)
    )
    run.on_game = lambda done: run.stop(signal.SIGTERM) if done == 3 else None
    outcome = run.execute()
    assert outcome.interrupted == signal.SIGTERM and len(synced) == 1
    assert 3 <= len(entries(out)) < 50
