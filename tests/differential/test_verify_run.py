"""`nox -s verify` (tests/differential/verify_run.py) on one game per game and player count: every
configuration is reached, the summary counts what was played, and a second run resumes with nothing to do."""

from __future__ import annotations

import json
import pathlib

import pytest
import verify_run


def test_one_game_of_each_count_then_nothing_left(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "verify"
    assert verify_run.main(["--games", "1", "--jobs", "1", "--state", str(state)]) == 0
    out = capsys.readouterr().out
    done = [json.loads(line) for line in (state / "done.jsonl").read_text().splitlines()]
    counts = sorted(" ".join(e["key"].split()[:2]) for e in done)
    assert counts == sorted(f"{game} {p}p" for game, p in verify_run.configurations())
    assert all(e["decisions"] > 0 for e in done) and "verify: 0 divergences" in out
    assert "games per game and player count: " in out
    assert verify_run.main(["--games", "1", "--jobs", "1", "--state", str(state)]) == 0
    assert f"verify: {len(done)} games done before, 0 to play" in capsys.readouterr().out


def test_games_are_spread_over_the_configurations_and_policies() -> None:
    configs = verify_run.configurations()
    assert len(configs[("lancashire", 3)]) >= 5  # default rules and the options of docs/classic.md
    assert sorted(c.options for c in configs[("birmingham", 2)]) == [(), (("intro", True),)]
    # The seeds depend on (game, players, k) only.
    assert verify_run.task_seed("lancashire", 2, 7) == verify_run.task_seed("lancashire", 2, 7)
    assert verify_run.task_seed("lancashire", 2, 7) != verify_run.task_seed("lancashire", 3, 7)


def test_every_configuration_meets_every_policy() -> None:
    """Game k of a count plays configuration k mod m with policy (k // m) mod 6: within 6m games every
    configuration meets every policy (k mod 6 would pin one policy to each configuration when m is 6)."""
    for (game, players), cfgs in verify_run.configurations().items():
        planned = [verify_run.plan(game, players, k) for k in range(len(cfgs) * len(verify_run.POLICIES))]
        met = {(cfg, policy) for cfg, _, policy in planned}
        assert len(met) == len(cfgs) * len(verify_run.POLICIES), (game, players)
