"""`brass selfplay --ray`: the same games on a local Ray instance as on local threads."""

from __future__ import annotations

import pathlib

import pytest
import ray

from brass.cli import main


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def test_ray_path_writes_the_same_records_as_the_local_path(local_ray, tmp_path: pathlib.Path) -> None:
    args = [
        "selfplay",
        "--players",
        "3",
        "--agents",
        "greedy",
        "random",
        "mcts:20",
        "--games",
        "10",
        "--seed",
        "8",
        "--quiet",
    ]
    local, distributed = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main([*args, "--out", str(local)]) == 0
    assert main([*args, "--out", str(distributed), "--ray"]) == 0
    assert distributed.read_text() == local.read_text()
    assert len(local.read_text().splitlines()) == 10


def test_ray_path_keeps_the_game_options(local_ray, tmp_path: pathlib.Path) -> None:
    """Workers rebuild the configuration with its options (docs/classic.md), so the games are the same."""
    args = [
        "selfplay",
        "--players",
        "3",
        "--agents",
        "greedy",
        "random",
        "random",
        "--games",
        "4",
        "--seed",
        "3",
        "--option",
        "classic_deck",
        "--quiet",
    ]
    local, distributed = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main([*args, "--out", str(local)]) == 0
    assert main([*args, "--out", str(distributed), "--ray"]) == 0
    assert distributed.read_text() == local.read_text()
    assert '"options":{"classic_deck":true}' in local.read_text()
