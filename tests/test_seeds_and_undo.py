"""Fresh randomness unless a seed is given, the seed kept so any game replays (issue 21, item 5), and undo
(item 11), in both engines; the counts and argument errors of item 9 that live in the binding."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import brass
from brass import agents, reference
from brass.cli import main

ENGINES = [brass, reference]


@pytest.mark.parametrize("engine", ENGINES)
def test_new_state_without_a_seed_deals_fresh_games_and_keeps_the_seed(engine: Any) -> None:
    game = engine.Game("birmingham", players=3)
    states = [game.new_state() for _ in range(4)]
    seeds = [s.seed for s in states]
    assert len(set(seeds)) == 4 and all(isinstance(s, int) and 0 <= s < 2**64 for s in seeds)
    for s in states:
        assert json.loads(s.record())["seed"] == s.seed
        assert s == game.new_state(seed=s.seed) if engine is brass else s.to_json() == game.new_state(s.seed).to_json()
    assert game.new_state(seed=7).seed == 7
    assert engine.State.from_json(states[0].to_json()).seed is None  # a saved position has no deal seed


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["lancashire", "birmingham", "brass"])
def test_undo_takes_back_each_decision_exactly(engine: Any, name: str) -> None:
    game = engine.Game(name, players=3)
    state = game.new_state(seed=11)
    rng = np.random.default_rng(5)
    seen = [state.to_json()]
    for _ in range(60):
        state.apply(int(rng.choice(state.legal_actions())))
        seen.append(state.to_json())
    played = state.history
    for k in range(len(played) - 1, -1, -1):
        assert state.undo() == played[k]
        assert state.to_json() == seen[k] and state.history == played[:k]
    with pytest.raises(brass.IllegalActionError, match="nothing to undo"):
        state.undo()
    assert state.to_json() == seen[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_undo_in_a_game_from_a_saved_position_stops_at_that_position(engine: Any) -> None:
    game = engine.Game("lancashire", players=2)
    played = game.new_state(seed=2)
    for _ in range(5):
        played.apply(played.legal_actions()[-1])
    saved = engine.State.from_json(played.to_json())
    first = saved.legal_actions()[0]
    saved.apply(first)
    assert saved.undo() == first and saved.to_json() == played.to_json()
    with pytest.raises(brass.IllegalActionError):
        saved.undo()


def test_play_deals_a_fresh_game_and_prints_its_seed(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds = []
    for k in range(2):
        monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
        out = tmp_path / f"g{k}.json"
        assert main(["play", "--players", "2", "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        record = json.loads(out.read_text())
        assert f"Dealt from seed {record['seed']} (`--seed {record['seed']}` deals this game again)." in printed
        seeds.append(record["seed"])
    assert seeds[0] != seeds[1]


def test_selfplay_draws_a_run_seed_prints_it_and_resume_finds_it(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.jsonl"
    base = ["selfplay", "--players", "2", "--agents", "random", "random", "--games"]
    assert main([*base, "3", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    seed = lines[0]["run_seed"]
    assert f"run seed {seed}," in printed and all(e["run_seed"] == seed for e in lines)
    assert all(e["engine"] == f"brass {brass.__version__}" for e in lines)  # issue 21, item 2
    again = tmp_path / "again.jsonl"
    assert main([*base, "3", "--seed", str(seed), "--out", str(again), "--quiet"]) == 0
    assert again.read_bytes() == out.read_bytes()
    # `--resume` without --seed continues the file's own run.
    part = tmp_path / "part.jsonl"
    part.write_text(out.read_text().splitlines(keepends=True)[0])
    assert main([*base, "3", "--out", str(part), "--resume", "--quiet"]) == 0
    assert part.read_bytes() == out.read_bytes()
    capsys.readouterr()
    assert main([*base, "3", "--seed", str(seed + 1), "--out", str(part), "--resume", "--quiet"]) == 2
    assert "another run seed" in capsys.readouterr().err


@pytest.mark.parametrize("before", [None, b"", b'{"index": 0, "run_se'])
def test_resume_without_a_seed_or_a_whole_line_starts_the_run(
    before: bytes | None, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/selfplay.md: a job script can always pass --resume; with no file yet (or one holding no whole game, cut
    off by a kill) the run starts with a fresh seed."""
    out = tmp_path / "g.jsonl"
    if before is not None:
        out.write_bytes(before)
    argv = ["selfplay", "--players", "2", "--agents", "random", "random", "--games", "2", "--out", str(out)]
    assert main([*argv, "--resume", "--quiet"]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [e["index"] for e in lines] == [0, 1] and lines[0]["run_seed"] == lines[1]["run_seed"]
    capsys.readouterr()
    old = out.read_text().splitlines(keepends=True)
    out.write_text(old[0])
    assert main([*argv, "--resume", "--quiet"]) == 0  # and again: the file's seed, the same games
    assert out.read_text() == "".join(old)


def test_binding_arguments_are_worded_for_the_user() -> None:
    game = brass.Game("lancashire", players=2)
    with pytest.raises(brass.ArgumentTypeError, match=r"agents\[1\] is a function, not a native agent.*play_game"):
        agents.play_games(game, [agents.Random(), lambda state: 0], 2)
    with pytest.raises(brass.ConfigError, match="^1 agent for a 2-player game: give one agent per seat$"):
        agents.play_games(game, [agents.Random()], 2)
    env = brass.VecEnv(game, 2, seed=1)
    with pytest.raises(
        brass.ArgumentTypeError, match=r"one per game in a 1-D sequence, not an array of shape \(2, 1\)"
    ):
        env.step(np.zeros((2, 1), dtype=np.int64))
    # Every count of the API has the same bound: below 2**32.
    with pytest.raises(brass.ConfigError, match="games must be between 0 and 4294967295"):
        brass.rollouts(game, 2**32)
    with pytest.raises(brass.ConfigError, match="iterations must be between 1 and 4294967295"):
        agents.MCTS(2**32)
