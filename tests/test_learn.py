"""`brass learn` (the `learn` extra: JAX, optax, safetensors, matplotlib; run by `nox -s integration`): a tiny
training run whose loss goes down, a checkpoint that round-trips and resumes, a network exported by JAX that the
native engine evaluates to within 1e-5 and plays legal games with, and the run's files."""

from __future__ import annotations

import csv
import json
import pathlib

import jax.numpy as jnp
import numpy as np
import pytest

import brass
from brass import agents, learn, search
from brass.cli import main

TINY = learn.LearnConfig(
    game="birmingham",
    players=2,
    widths=[32],
    iterations=2,
    games_per_iteration=4,
    simulations=4,
    parallel=4,
    steps_per_iteration=20,
    batch_size=32,
    warm_start_games=4,
    warm_start_steps=10,
    eval_every=2,
    eval_deals=1,
    eval_simulations=4,
    buffer=5000,
)


def log_rows(folder: pathlib.Path) -> list[dict[str, str]]:
    with open(folder / "log.csv") as f:
        return list(csv.DictReader(f))


def test_the_native_network_evaluates_what_jax_evaluates(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    params = learn.init_params(game, [64, 32], seed=3)
    rng = np.random.default_rng(0)
    params = {k: v + rng.standard_normal(v.shape).astype(np.float32) * 0.05 for k, v in params.items()}
    path = tmp_path / "n.safetensors"
    learn.save_network(params, game, str(path))
    states = [game.new_state(seed=s) for s in range(4)]
    obs = np.stack([s.observation(p) for s in states for p in (0, 1)])
    want_logits, want_values = learn.forward({k: jnp.asarray(v) for k, v in params.items()}, jnp.asarray(obs))
    logits, values = agents.Net(path).evaluate(obs)
    np.testing.assert_allclose(logits, np.asarray(want_logits), atol=1e-5, rtol=0)
    np.testing.assert_allclose(values, np.asarray(want_values), atol=1e-5, rtol=0)
    assert {k: v.tolist() for k, v in learn.load_network(str(path)).items()} == {
        k: v.tolist() for k, v in params.items()
    }


def test_a_tiny_run_learns_checkpoints_resumes_and_exports_a_playable_network(tmp_path: pathlib.Path) -> None:
    folder = tmp_path / "run"
    trainer = learn.Trainer(str(folder), TINY, say=lambda _: None)
    trainer.warm_start()
    batch = trainer.buffer.batch(np.random.default_rng(1), 256, trainer.game.num_actions)
    before = float(trainer._loss(trainer.params, batch)[0])
    trainer.train(60)
    after = float(trainer._loss(trainer.params, batch)[0])
    assert after < before, (before, after)  # the loss on a fixed batch goes down
    trainer.run()
    assert trainer.iteration == 2
    rows = log_rows(folder)
    assert [int(r["iteration"]) for r in rows] == [1, 2] and rows[1]["vs_greedy_win_rate"] != ""
    assert int(rows[0]["leaf_evaluations"]) > 0 and float(rows[0]["network_seconds"]) >= 0
    assert (folder / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The checkpoint round-trips: a resumed trainer has the same weights and optimiser state.
    again = learn.Trainer(str(folder), resume=True, say=lambda _: None)
    assert again.iteration == 2 and len(again.buffer) == len(trainer.buffer)
    for name, value in trainer.params.items():
        np.testing.assert_array_equal(np.asarray(again.params[name]), np.asarray(value))
    again.config.iterations = 3
    again.run()
    assert again.iteration == 3 and len(log_rows(folder)) == 3
    # The exported network plays legal games natively, raw and with the search.
    net = agents.Net(folder / "net.safetensors")
    assert net.game == trainer.game and net.widths == [32]
    for r in agents.play_games(trainer.game, [agents.NetMCTS(net, simulations=4), net], 2, seed=5):
        assert brass.replay(r.record).scores == r.scores
    played = next(iter(search.SearchGames(trainer.game, net, 1, simulations=4)))
    assert len(played.actions) == len(played.samples["policy"])


def test_the_command_refuses_a_used_folder_and_resumes_it(tmp_path: pathlib.Path, capsys) -> None:
    folder = tmp_path / "run"
    args = ["learn", "--game", "lancashire", "--players", "2", "--out", str(folder), "--iterations", "1"]
    small = ["--widths", "16", "--games-per-iteration", "2", "--simulations", "3", "--parallel", "2"]
    small += ["--steps-per-iteration", "3", "--batch-size", "8", "--eval-every", "0"]
    assert main(args + small) == 0
    assert json.loads((folder / "config.json").read_text())["game"] == "lancashire"
    assert main(args + small) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert main(["learn", "--out", str(folder), "--resume", "--iterations", "2"]) == 0
    assert len(log_rows(folder)) == 2
    assert main(["learn", "--out", str(tmp_path / "none"), "--resume"]) == 2
    assert "no run to resume" in capsys.readouterr().err


def test_without_jax_the_command_says_how_to_get_it(tmp_path: pathlib.Path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(__import__("sys").modules, "jax", None)
    assert main(["learn", "--out", str(tmp_path / "run")]) == 2
    assert "pip install '.[learn]'" in capsys.readouterr().err


@pytest.mark.parametrize("players", [2, 3])
def test_relative_value_targets_match_the_network_view(players: int) -> None:
    game = brass.Game("birmingham", players=players)

    def zeros(observations: np.ndarray, masks: np.ndarray):
        return np.zeros(masks.shape), np.zeros((len(masks), players))

    played = next(iter(search.SearchGames(game, zeros, 1, simulations=2)))
    samples = learn.samples_of(played, game)
    for row, player in zip(samples.value, played.samples["player"], strict=True):
        assert row[0] == pytest.approx(played.returns[player])
