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


def test_learn_plays_the_same_self_play_games_on_ray_as_here(local_ray, tmp_path: pathlib.Path) -> None:
    """`brass learn --ray`: an iteration's games played by Ray tasks in chunks are the local games, sample for
    sample (game i depends only on the seed and i, and the network computes every leaf the same way whatever
    its batch)."""
    import numpy as np

    from brass import learn

    config = learn.LearnConfig(
        game="birmingham", players=2, widths=[24], simulations=4, parallel=8, full_search_fraction=0.5
    )
    here = learn.Trainer(str(tmp_path / "here"), config, say=lambda _: None)
    there = learn.Trainer(str(tmp_path / "there"), learn.LearnConfig(**{**config.__dict__, "ray": "local"}))
    path = str(tmp_path / "net.safetensors")
    learn.save_network(here.params, here.game, path)
    with open(path, "rb") as f:
        network = f.read()
    local, leaves, _ = here.self_play(network, 3, 20)
    distributed, ray_leaves, _ = there.self_play(network, 3, 20)
    assert [g.index for g in local] == [g.index for g in distributed] == list(range(3, 23))
    assert ray_leaves == leaves
    a = learn.Samples.concatenate([learn.samples_of(g, here.game) for g in local])
    b = learn.Samples.concatenate([learn.samples_of(g, here.game) for g in distributed])
    for name in learn.Samples.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
