"""`brass learn` (the `learn` extra: JAX, optax, safetensors, matplotlib; run by `nox -s integration`): a tiny
training run whose loss goes down, a checkpoint that round-trips and resumes, a network exported by JAX that the
native engine evaluates to within 1e-5 and plays legal games with, and the run's files."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import pathlib
import random
import signal
import stat
import subprocess
import sys
from typing import Any

import jax
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
    # The file holds every tensor but the trainer's auxiliary head.
    assert {k: v.tolist() for k, v in learn.load_network(str(path)).items()} == {
        k: v.tolist() for k, v in params.items() if not k.startswith("aux.")
    }


def test_the_compiled_step_widens_stored_rows_to_the_same_batch_and_saved_samples_read_back(tmp_path) -> None:
    game = brass.Game("birmingham", players=2)
    data = learn.imitation_samples(game, 3, seed=8)
    data.aux[::3] = np.nan  # unknown targets stay unknown
    buffer = learn.Buffer(10_000)
    buffer.add(data)
    want = buffer.batch(np.random.default_rng(2), 64, game.num_actions)
    stored = buffer.stored_batch(np.random.default_rng(2), 64)
    assert stored["observation"].dtype == np.float16 and stored["legal_mask"].dtype == np.uint8
    got = jax.jit(lambda s: learn.data.widen(s, game.num_actions, jnp))(stored)
    assert sorted(got) == sorted(want)
    for name, array in want.items():
        assert np.asarray(got[name]).dtype == array.dtype, name
        np.testing.assert_array_equal(np.asarray(got[name]), array, err_msg=name)
    assert want["mask"].sum(axis=1).min() >= 1  # the masks were unpacked, not zeroed
    path = tmp_path / "0001.npz"
    learn.save_samples(data, str(path))
    back = learn.load_samples(str(path))
    for name in learn.Samples.__dataclass_fields__:
        kept = np.asarray(getattr(back, name))
        np.testing.assert_array_equal(kept, np.asarray(getattr(data, name), kept.dtype), err_msg=name)


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
    small += ["--decay-iterations", "5", "--final-learning-rate", "2e-4", "--value-sample-rate", "0.5"]
    small += ["--c-visit", "30", "--c-scale", "0.25"]
    assert main(args + small) == 0
    stored = json.loads((folder / "config.json").read_text())
    assert stored["game"] == "lancashire" and stored["decay_iterations"] == 5
    assert stored["final_learning_rate"] == 2e-4 and stored["value_sample_rate"] == 0.5
    # The Gumbel settings reach the run and the network's file, whose NetMCTS then searches with them.
    assert stored["c_visit"] == 30 and stored["c_scale"] == 0.25
    meta = agents.Net(folder / "net.safetensors").metadata
    assert (meta["search"], meta["gumbel_c_visit"], meta["gumbel_c_scale"]) == ('"gumbel"', "30.0", "0.25")
    assert main(args + small) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert main(["learn", "--out", str(folder), "--resume", "--iterations", "2"]) == 0
    assert len(log_rows(folder)) == 2
    # The raised budget is the run's own now: config.json records it, and a resume that names none keeps it.
    assert json.loads((folder / "config.json").read_text())["iterations"] == 2
    assert main(["learn", "--out", str(folder), "--resume", "--iterations", "3", "--minutes", "30"]) == 0
    stored = json.loads((folder / "config.json").read_text())
    assert (stored["iterations"], stored["minutes"], stored["c_scale"]) == (3, 30, 0.25)
    assert main(["learn", "--out", str(folder), "--resume"]) == 0
    assert len(log_rows(folder)) == 3
    assert main(["learn", "--out", str(tmp_path / "none"), "--resume"]) == 2
    assert "no run to resume" in capsys.readouterr().err


def test_a_run_from_a_recipe_trains_with_the_recipes_settings_and_those_given(tmp_path: pathlib.Path) -> None:
    """`--recipe brass-3p` with a tiny budget given on top: the run plays classic Brass at 3 players with the
    recipe's search and targets, and the settings given."""
    folder = tmp_path / "run"
    small = ["--widths", "16", "--games-per-iteration", "2", "--simulations", "3", "--parallel", "2"]
    small += ["--steps-per-iteration", "3", "--batch-size", "8", "--eval-every", "0", "--buffer", "2000"]
    small += ["--warm-start-games", "0", "--warm-start-steps", "0", "--iterations", "1"]
    assert main(["learn", "--recipe", "brass-3p", "--out", str(folder), *small]) == 0
    stored = json.loads((folder / "config.json").read_text())
    recipe = dataclasses.asdict(learn.recipe("brass-3p"))
    given = {"widths": [16], "games_per_iteration": 2, "simulations": 3, "parallel": 2, "steps_per_iteration": 3}
    given |= {"batch_size": 8, "eval_every": 0, "buffer": 2000, "warm_start_games": 0, "warm_start_steps": 0}
    assert stored == {**recipe, **given, "iterations": 1}
    assert len(log_rows(folder)) == 1
    meta = agents.Net(folder / "net.safetensors").metadata
    assert json.loads(meta["game"])["name"] == "brass" and meta["gumbel_c_scale"] == "0.25"


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("c_visit", -1.0, "c_visit must not be negative"),
        ("c_scale", float("nan"), "c_scale must be a finite number"),
        ("simulations", 0, "simulations must be a whole number of at least 1"),
        ("value_sample_rate", 1.5, "value_sample_rate is a share"),
        ("search", "alphabeta", "search must be one of gumbel, puct"),
        ("widths", [64, 0], "widths must be one or more layer sizes"),
        ("learning_rate", 0.0, "learning_rate must be positive"),
        ("seed", -1, r"seed must be a whole number with 0 <= seed < 2\*\*64, not -1"),
        ("seed", 2**64, "seed must be a whole number"),
        ("seed", 1.5, "seed must be a whole number"),
    ],
)
def test_a_bad_setting_is_refused_before_the_run_is_made(
    tmp_path: pathlib.Path, setting: str, value: object, message: str
) -> None:
    config = dataclasses.replace(TINY, **{setting: value})
    with pytest.raises(learn.LearnError, match=message):
        config.check()
    folder = tmp_path / "run"
    with pytest.raises(learn.LearnError, match=message):
        learn.Trainer(str(folder), config, say=lambda _: None)
    assert not folder.exists()  # nothing made, no warm start played
    assert TINY.check() == brass.Game("birmingham", players=2)


def test_the_command_refuses_a_bad_search_setting_in_one_line(tmp_path: pathlib.Path, capsys) -> None:
    folder = tmp_path / "run"
    assert main(["learn", "--out", str(folder), "--warm-start-games", "5000", "--c-visit", "-5"]) == 2
    err = capsys.readouterr().err
    assert "c_visit must not be negative, not -5.0" in err and "Traceback" not in err
    assert not folder.exists()


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


def imitation_split(game: brass.Game, games: int, seed: int) -> learn.Samples:
    """A tenth of the decisions of `games` Greedy games: many outcomes, few decisions of each."""
    return learn.imitation_samples(game, games, seed=seed, sample_rate=0.1)


def held_out_r2(train: learn.Samples, test: learn.Samples, game: brass.Game, steps: int) -> float:
    """The value head's R² on `test` after `steps` updates on `train` alone (a small network, a fixed buffer)."""
    config = learn.LearnConfig(game=game.name, players=game.players, widths=[64], batch_size=128, buffer=len(train))
    trainer = learn.Trainer.__new__(learn.Trainer)
    trainer.config, trainer.game = config, game
    trainer.jax, trainer.jnp, trainer.optax = learn.jax_libraries()
    trainer.optimizer = trainer.optax.adamw(config.learning_rate, weight_decay=config.weight_decay)
    trainer._update = trainer.jax.jit(trainer._update_step)
    trainer.params = {k: jnp.asarray(v) for k, v in learn.init_params(game, config.widths, 1).items()}
    trainer.opt_state = trainer.optimizer.init(trainer.params)
    trainer.rng = np.random.default_rng(1)
    trainer.buffer = learn.Buffer(len(train))
    trainer.buffer.add(train)
    trainer.train(steps)
    return learn.held_out(trainer.params, test, game.num_actions)["value_r2"]


def test_the_pipeline_fits_a_small_fixed_buffer_to_near_zero_loss() -> None:
    """A few hundred decisions, learnt by heart: the value loss near 0, the policy loss near its floor (the
    targets' own entropy). A pipeline that cannot do this cannot learn anything."""
    game = brass.Game("birmingham", players=2)
    data = learn.imitation_samples(game, 2, seed=3)
    small = learn.Samples(*(getattr(data, f)[:300] for f in learn.Samples.__dataclass_fields__))
    config = learn.LearnConfig(widths=[128], batch_size=300, buffer=300, learning_rate=3e-3, aux_weight=0.5)
    trainer = learn.Trainer.__new__(learn.Trainer)
    trainer.config, trainer.game = config, game
    trainer.jax, trainer.jnp, trainer.optax = learn.jax_libraries()
    trainer.optimizer = trainer.optax.adamw(config.learning_rate, weight_decay=0.0)
    trainer._update = trainer.jax.jit(trainer._update_step)
    trainer.params = {k: jnp.asarray(v) for k, v in learn.init_params(game, config.widths, 2).items()}
    trainer.opt_state = trainer.optimizer.init(trainer.params)
    trainer.rng = np.random.default_rng(2)
    trainer.buffer = learn.Buffer(300)
    trainer.buffer.add(small)
    trainer.train(400)
    policy_loss, value_loss, aux_loss = trainer.train(20)
    assert value_loss < 0.02 and aux_loss < 0.02, (value_loss, aux_loss)
    assert policy_loss < 0.02, policy_loss  # one-hot targets: the floor is 0


def test_a_value_head_learns_what_held_out_games_confirm_and_a_planted_seat_error_is_caught(monkeypatch) -> None:
    """The learning test: trained on Greedy games, the value head predicts games it never saw better than the
    best constant (R² > 0.1; 0.23 when written). With the value targets in the wrong seat order (planted: each
    row's returns read from the seat after the player's), the same test fails (R² −0.74 then): what it learns is
    wrong on the held-out games."""
    game = brass.Game("birmingham", players=2)
    train, test = imitation_split(game, 1000, seed=11), imitation_split(game, 200, seed=12)
    assert held_out_r2(train, test, game, 300) > 0.1
    right = search.relative_returns

    def wrong_seats(returns: np.ndarray, players: np.ndarray) -> np.ndarray:
        return right(returns, (np.asarray(players) + 1) % returns.shape[1])

    monkeypatch.setattr(search, "relative_returns", wrong_seats)
    planted = imitation_split(game, 1000, seed=11)
    assert held_out_r2(planted, test, game, 300) <= 0.1


def own_prior(game: brass.Game) -> tuple[dict[str, Any], learn.Samples, np.ndarray, np.ndarray, np.ndarray]:
    """A small network, two Greedy games' decisions, and the network's values, legal masks and priors on them."""
    params = {k: jnp.asarray(v) for k, v in learn.init_params(game, [16], seed=4).items()}
    data = learn.imitation_samples(game, 2, seed=5)
    logits, values, _ = learn.network.forward_all(params, jnp.asarray(data.observation, jnp.float32))
    mask = brass.samples.unpack_masks(data.legal_mask, game.num_actions)
    prior = np.where(mask, np.exp(np.asarray(logits, np.float64) - np.asarray(logits).max()), 0.0)
    prior /= prior.sum(axis=1, keepdims=True)
    return params, data, np.asarray(values), mask, prior


def test_held_out_measures_are_exact_on_a_network_that_predicts_its_own_targets(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    params, data, values, _, prior = own_prior(game)
    own = learn.Samples(
        data.observation, data.legal_mask, prior, values, data.policy_weight, data.aux, data.sampling_weight
    )
    measured = learn.held_out(params, own, game.num_actions)
    assert measured["value_mse"] == pytest.approx(0.0, abs=1e-6) and measured["value_r2"] == pytest.approx(1.0)
    assert measured["policy_kl"] == pytest.approx(0.0, abs=1e-6) and measured["policy_agreement"] == 1.0
    assert measured["prior_entropy"] == pytest.approx(measured["target_entropy"], abs=1e-6)


def test_policy_surprise_weights_decisions_by_how_far_the_target_is_from_the_prior() -> None:
    """Policy surprise weighting: a decision whose target is the network's own prior has no surprise (weight
    1 − share), one whose target the prior finds unlikely a large weight; the weights of the decisions with a
    target average 1; a decision without a policy target (a quick search) gets 1 − share."""
    game = brass.Game("birmingham", players=2)
    params, data, _, mask, prior = own_prior(game)
    choice = mask.sum(axis=1) > 1
    policy = prior.copy()
    surprising = np.flatnonzero(choice)[::3]  # a third of the decisions: a one-hot target on the least likely action
    for r in surprising:
        least = np.flatnonzero(mask[r])[np.argmin(prior[r][mask[r]])]
        policy[r] = 0.0
        policy[r, least] = 1.0
    quick = np.flatnonzero(choice)[1]
    weight = np.ones(len(data), np.float32)
    weight[quick] = 0.0
    own = learn.Samples(data.observation, data.legal_mask, policy, data.value, weight, data.aux, data.sampling_weight)
    w = learn.surprise_weights(params, own, game.num_actions, 0.5)
    assert w.shape == (len(data),) and w.dtype == np.float32
    calm = np.setdiff1d(np.flatnonzero(choice), np.append(surprising, quick))
    assert np.allclose(w[calm], 0.5, atol=1e-4) and w[quick] == pytest.approx(0.5)
    targets = choice & (weight > 0)
    # The surprise of a one-hot target is −ln(prior of its action); the weights are relative to their mean.
    kl = np.zeros(len(data))
    kl[surprising] = -np.log(prior[surprising, np.argmax(policy[surprising], axis=1)])
    expected = 0.5 + 0.5 * kl[surprising] / kl[targets].mean()
    assert np.allclose(w[surprising], expected, rtol=1e-3) and np.all(w[surprising] > 0.6)
    assert w[targets].mean() == pytest.approx(1.0, rel=1e-5)
    assert np.all(w[~choice] == pytest.approx(0.5))
    # Share 0 would be uniform; a network whose prior is every target: no surprise anywhere, uniform too.
    same = learn.Samples(data.observation, data.legal_mask, prior, data.value, weight, data.aux, data.sampling_weight)
    assert np.all(learn.surprise_weights(params, same, game.num_actions, 0.5) == 1.0)


def test_the_buffer_draws_in_proportion_to_the_sampling_weights() -> None:
    """Uniform draws while every weight is 1 (the same rows as before weights existed); once weights come in,
    a row of weight 3 is drawn about three times as often as a row of weight 1, and a row of weight 0 never."""
    game = brass.Game("birmingham", players=2)
    data = learn.imitation_samples(game, 1, seed=6)
    rows = len(data)
    buffer = learn.Buffer(rows)
    buffer.add(data)
    assert not buffer.weighted
    drawn = buffer.stored_batch(np.random.default_rng(3), 50)
    expected = np.random.default_rng(3).integers(0, rows, 50)
    assert np.array_equal(drawn["observation"], buffer.arrays["observation"][expected])
    assert "sampling_weight" not in drawn
    weights = np.ones(rows, np.float32)
    weights[: rows // 2] = 3.0
    weights[-1] = 0.0
    tagged = dataclasses.replace(
        data, sampling_weight=weights, value=np.arange(rows, dtype=np.float32)[:, None].repeat(2, 1)
    )
    buffer = learn.Buffer(rows)
    buffer.add(tagged)
    assert buffer.weighted
    picked = buffer.stored_batch(np.random.default_rng(4), 40_000)["value"][:, 0].astype(int)
    heavy = np.mean(picked < rows // 2)
    # Expected share of the heavy half: 3·h / (3·h + (rows − h − 1)).
    h = rows // 2
    assert heavy == pytest.approx(3 * h / (3 * h + rows - h - 1), abs=0.02)
    assert not np.any(picked == rows - 1)


def test_resume_refuses_another_configuration_and_names_both(tmp_path: pathlib.Path, capsys) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    stored = learn.LearnConfig(game="lancashire", players=2, options={"virtual_link": True})
    (folder / "config.json").write_text(json.dumps(dataclasses.asdict(stored)))
    have = "holds a run of lancashire, 2 players, options virtual_link"
    for flags, asked in (
        (["--game", "birmingham"], "asks for birmingham, 2 players, options virtual_link"),
        (["--players", "3"], "asks for lancashire, 3 players, options virtual_link"),
        (["--option", "intro"], "asks for lancashire, 2 players, options intro"),
    ):
        assert main(["learn", "--out", str(folder), "--resume", *flags]) == 2
        err = capsys.readouterr().err
        assert have in err and asked in err, err
    # What is not given is the run's: the check passes, and the run (no checkpoint yet) is taken up where it is.
    same = ["--game", "lancashire", "--players", "2", "--option", "virtual_link"]
    assert learn.stored_config(str(folder)) == stored
    from brass.cli.learn import check_same_configuration

    parser = __import__("brass.cli", fromlist=["build_parser"]).build_parser()
    for flags in ([], same):
        check_same_configuration(stored, parser.parse_args(["learn", "--out", str(folder), "--resume", *flags]))


def test_the_run_files_have_the_umask_mode_and_no_half_written_file_is_left(tmp_path: pathlib.Path) -> None:
    old = os.umask(0o027)
    try:
        folder = tmp_path / "run"
        trainer = learn.Trainer(str(folder), dataclasses.replace(TINY, iterations=1, eval_every=0), say=lambda _: None)
        trainer.run()
    finally:
        os.umask(old)
    names = ["config.json", "net.safetensors", "checkpoint.npz", "log.csv", "curve.png", "nets/0000.safetensors"]
    modes = {name: stat.S_IMODE((folder / name).stat().st_mode) for name in names}
    assert set(modes.values()) == {0o640}, modes  # 0o666 less the umask, as open() gives, for every file
    assert not [p for p in folder.rglob("*") if "partial" in p.name]


#: A run of a few seconds through the command line, every kind of file in it (the arena every 2 iterations).
KILLED_RUN = ["learn", "--game", "birmingham", "--players", "2", "--iterations", "3", "--widths", "16"]
KILLED_RUN += ["--games-per-iteration", "2", "--simulations", "3", "--parallel", "2", "--steps-per-iteration", "3"]
KILLED_RUN += ["--batch-size", "8", "--warm-start-games", "2", "--warm-start-steps", "2", "--eval-every", "2"]
KILLED_RUN += ["--eval-deals", "1", "--eval-simulations", "2", "--eval-anchors", "greedy"]


def check_run_files(folder: pathlib.Path) -> int:
    """Every finished file of the run reads back whole; the iteration of its checkpoint (0 without one)."""
    if (folder / "config.json").exists():
        json.loads((folder / "config.json").read_text())
    for path in [folder / "net.safetensors", *folder.glob("nets/*.safetensors")]:
        if path.exists():
            assert learn.load_network(str(path)), path
    for path in folder.glob("data/*.npz"):
        assert len(learn.load_samples(str(path))) > 0, path
    if not (folder / "checkpoint.npz").exists():
        assert not (folder / "log.csv").exists()
        return 0
    with np.load(folder / "checkpoint.npz") as f:
        arrays = {name: f[name] for name in f.files}  # reading every array checks every member's CRC
    iteration = json.loads(bytes(arrays["meta"]).decode())["iteration"]
    rows = log_rows(folder) if (folder / "log.csv").exists() else []
    assert all(None not in row and None not in row.values() for row in rows)  # no row cut short
    # The log has every iteration once, and at most the one under way beyond the checkpoint.
    assert [int(r["iteration"]) for r in rows] in ([*range(1, iteration + 1)], [*range(1, iteration + 2)])
    return iteration


#: `brass learn` in a process that kills itself with SIGKILL at the rename of a file of the run (the Nth whose path
#: contains TARGET, just BEFORE or AFTER it: argv[1:4]) — a kill -9 between any two steps of saving the run.
KILL_AT_RENAME = """
import os, signal, sys
from brass.cli import main
when, target, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen, rename = 0, os.replace
def replace(source, destination):
    global seen
    seen += target in str(destination)
    if seen == nth and when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    rename(source, destination)
    if seen == nth and when == "after":
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
sys.exit(main(sys.argv[4:]))
"""


def test_a_run_killed_at_random_moments_resumes_and_leaves_no_broken_file(tmp_path: pathlib.Path) -> None:
    folder = tmp_path / "run"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each line as printed: the timed kill follows the run's progress
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(brass.__file__).parents[1]), env.get("PYTHONPATH", "")])
    rng = random.Random(34)
    # Kills at renames: after the first iteration's checkpoint, then at random files of the run, before or after
    # their rename; and one at a random moment (in the middle of writing a file, with luck).
    targets = ["checkpoint.npz", "log.csv", "net.safetensors", f"data{os.sep}", f"nets{os.sep}", "curve.png"]
    kills: list[tuple[str, str, int] | None] = [("after", "checkpoint.npz", 2)]
    kills += [(rng.choice(["before", "after"]), rng.choice(targets), rng.randint(1, 2)) for _ in range(2)] + [None]
    for kill in kills:
        resume = ["--resume"] if (folder / "config.json").exists() else []
        args = [*KILLED_RUN, "--out", str(folder), *resume]
        if kill is None:
            command = [sys.executable, "-m", "brass", *args]
        else:
            command = [sys.executable, "-c", KILL_AT_RENAME, *map(str, kill), *args]
        run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert run.stdout is not None
        if kill is None:  # a random moment after a random line of its output (the warm start's, an iteration's)
            for _ in range(rng.randrange(3)):
                if not run.stdout.readline():
                    break
            try:
                run.wait(timeout=rng.uniform(0.0, 0.6))
            except subprocess.TimeoutExpired:
                run.send_signal(signal.SIGKILL)
        output = run.stdout.read()
        run.wait()
        assert run.returncode in (0, -signal.SIGKILL), output
        check_run_files(folder)
    # Resumed to its end: every iteration logged once, the checkpoint at the last, no file left half-written.
    command = [sys.executable, "-m", "brass", *KILLED_RUN, "--out", str(folder), "--resume"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert check_run_files(folder) == 3 and len(log_rows(folder)) == 3
    assert not [p for p in folder.rglob("*") if "partial" in p.name]


def test_the_arena_of_a_run_always_has_greedy_among_its_anchors(tmp_path: pathlib.Path) -> None:
    # The rating is Greedy's difference and the log's win rates are against Greedy: anchors without it
    # (`--eval-anchors random`) stopped the run at its first evaluation with a KeyError.
    config = dataclasses.replace(TINY, iterations=1, eval_every=1, eval_deals=1, eval_anchors=["random"])
    trainer = learn.Trainer(str(tmp_path / "run"), config, say=lambda _: None)
    trainer.run()
    with open(tmp_path / "run" / "log.csv") as f:
        row = list(csv.DictReader(f))[-1]
    assert row["vs_greedy_win_rate"] != "" and row["vs_random_win_rate"] != ""


def test_a_decaying_learning_rate_falls_along_its_cosine_and_resumes_where_it_was(tmp_path: pathlib.Path) -> None:
    """`decay_iterations`: the warm start at the full rate, iteration 1 at the full rate, the middle of the decay at
    the mean of the two rates, its end and after at the final rate; the optimiser really uses it (one update at
    the final rate moves the weights less than at the full one), and a resumed run goes on from its step count."""
    config = dataclasses.replace(TINY, decay_iterations=4, final_learning_rate=1e-4, learning_rate=1e-3)
    folder = tmp_path / "run"
    trainer = learn.Trainer(str(folder), config, say=lambda _: None)
    schedule = trainer.learning_rate
    warm, steps = config.warm_start_steps, config.steps_per_iteration
    assert float(schedule(0)) == pytest.approx(1e-3) and float(schedule(warm - 1)) == pytest.approx(1e-3)
    assert trainer.learning_rate_of(1) == pytest.approx(1e-3)
    assert trainer.learning_rate_of(3) == pytest.approx(5.5e-4)  # half-way down the cosine: the mean
    assert trainer.learning_rate_of(5) == pytest.approx(1e-4) and trainer.learning_rate_of(50) == pytest.approx(1e-4)
    assert float(schedule(warm + 2 * steps)) == pytest.approx(5.5e-4)
    trainer.run()
    rows = log_rows(folder)
    quarter = 1e-4 + 9e-4 * (1 + math.cos(math.pi / 4)) / 2  # a quarter of the way down
    assert [float(r["learning_rate"]) for r in rows] == [pytest.approx(1e-3), pytest.approx(quarter, rel=1e-3)]
    again = learn.Trainer(str(folder), resume=True, say=lambda _: None)
    counts = [np.asarray(x) for x in again.jax.tree_util.tree_leaves(again.opt_state) if np.asarray(x).ndim == 0]
    assert int(counts[0]) == warm + 2 * steps  # the update count, so the schedule, goes on where it was
    again.config.iterations = 3
    again.run()
    assert float(log_rows(folder)[2]["learning_rate"]) == pytest.approx(5.5e-4)
    # A bad final rate is refused before the run's folder is made.
    bad = dataclasses.replace(config, final_learning_rate=2e-3)
    with pytest.raises(learn.LearnError, match="final_learning_rate"):
        learn.Trainer(str(tmp_path / "bad"), bad, say=lambda _: None)
    assert not (tmp_path / "bad").exists()


def test_the_optimiser_moves_the_weights_by_the_scheduled_rate() -> None:
    """Adam's first step moves each weight by about the learning rate: at the decay's end by a tenth of its start."""
    game = brass.Game("birmingham", players=2)
    data = learn.imitation_samples(game, 1, seed=3)
    moved = []
    for iterations_done in (0, 10):
        config = learn.LearnConfig(
            widths=[16],
            batch_size=64,
            decay_iterations=4,
            steps_per_iteration=5,
            learning_rate=1e-3,
            final_learning_rate=1e-4,
            weight_decay=0.0,
        )
        trainer = learn.Trainer.__new__(learn.Trainer)
        trainer.config, trainer.game = config, game
        trainer.jax, trainer.jnp, trainer.optax = learn.jax_libraries()
        trainer.learning_rate = learn.learning_rate_schedule(config, trainer.optax)
        trainer.optimizer = trainer.optax.adamw(trainer.learning_rate, weight_decay=0.0)
        trainer._update = trainer.jax.jit(trainer._update_step)
        trainer.params = {k: jnp.asarray(v) for k, v in learn.init_params(game, config.widths, 2).items()}
        start = dict(trainer.params)
        trainer.opt_state = trainer.optimizer.init(trainer.params)
        # The schedule's step count (the state's last counter; Adam's own stays at 0, its first step's size the
        # rate) as if `iterations_done` iterations had trained.
        leaves, tree = trainer.jax.tree_util.tree_flatten(trainer.opt_state)
        last = max(i for i, x in enumerate(leaves) if np.asarray(x).ndim == 0)
        leaves[last] = jnp.asarray(iterations_done * 5, leaves[last].dtype)
        trainer.opt_state = trainer.jax.tree_util.tree_unflatten(tree, leaves)
        trainer.rng = np.random.default_rng(2)
        trainer.buffer = learn.Buffer(10_000)
        trainer.buffer.add(data)
        trainer.train(1)
        moved.append(max(float(jnp.max(jnp.abs(trainer.params[k] - start[k]))) for k in start))
    assert moved[0] == pytest.approx(1e-3, rel=0.05) and moved[1] == pytest.approx(1e-4, rel=0.05), moved


def test_a_value_sample_rate_keeps_that_share_of_value_targets_and_the_rest_teach_the_policy_only(
    tmp_path: pathlib.Path,
) -> None:
    """`value_sample_rate`: the saved self-play samples keep a value (and auxiliary) target in about that share of
    their rows, NaN in the others; a row without one adds nothing to the value loss, its policy still counts."""
    config = dataclasses.replace(TINY, value_sample_rate=0.25, iterations=1, eval_every=0)
    folder = tmp_path / "run"
    trainer = learn.Trainer(str(folder), config, say=lambda _: None)
    trainer.run()
    (name,) = [n for n in os.listdir(folder / "data") if n.startswith("0001-")]
    data = learn.load_samples(str(folder / "data" / name))
    kept = ~np.isnan(data.value[:, 0])
    assert 0.1 < kept.mean() < 0.45, kept.mean()
    assert np.array_equal(np.isnan(data.aux).all(axis=1), ~kept) and not np.isnan(data.aux[kept]).any()
    assert np.isfinite(float(log_rows(folder)[0]["value_loss"]))
    # The loss of a batch with rows lacking a value target is the valued rows' value loss, and the policy's of all.
    trainer.buffer = learn.Buffer(len(data))
    trainer.buffer.add(data)
    batch = trainer.buffer.batch(np.random.default_rng(4), 64, trainer.game.num_actions)
    valued = ~np.isnan(batch["value"][:, 0])
    assert 0 < valued.sum() < 64
    _, (policy_loss, value_loss, aux_loss) = trainer._loss(trainer.params, batch)
    only = {k: v[valued] for k, v in batch.items()}
    _, (_, want_value, want_aux) = trainer._loss(trainer.params, only)
    assert float(value_loss) == pytest.approx(float(want_value), rel=1e-5)
    assert float(aux_loss) == pytest.approx(float(want_aux), rel=1e-5)
    _, (want_policy, _, _) = trainer._loss(trainer.params, {**batch, "value": np.zeros_like(batch["value"])})
    assert float(policy_loss) == pytest.approx(float(want_policy), rel=1e-6)
    grads = trainer.jax.grad(lambda p: trainer._loss(p, batch)[0])(trainer.params)
    assert all(np.isfinite(np.asarray(g)).all() for g in grads.values())


def test_a_run_with_policy_surprise_saves_the_weights_and_draws_by_them(tmp_path: pathlib.Path) -> None:
    """`policy_surprise`: the iteration's samples are saved with their surprise weights (not all 1, mean 1 over
    the decisions with a policy target), the buffer draws by them, and a resumed run reads them back."""
    config = dataclasses.replace(TINY, policy_surprise=0.5, iterations=1, eval_every=0)
    folder = tmp_path / "run"
    trainer = learn.Trainer(str(folder), config, say=lambda _: None)
    trainer.run()
    assert trainer.buffer.weighted
    (name,) = [n for n in os.listdir(folder / "data") if n.startswith("0001-")]
    data = learn.load_samples(str(folder / "data" / name))
    w = data.sampling_weight
    assert np.all(w >= 0.5 - 1e-6) and np.any(w > 1.0) and np.any(w < 1.0)
    choice = brass.samples.unpack_masks(data.legal_mask, trainer.game.num_actions).sum(axis=1) > 1
    assert w[choice].mean() == pytest.approx(1.0, rel=1e-4)
    again = learn.Trainer(str(folder), resume=True, say=lambda _: None)
    assert again.buffer.weighted
    # Without it (the default) every weight is 1 and the draws are uniform.
    plain = learn.Trainer(str(tmp_path / "plain"), dataclasses.replace(config, policy_surprise=0.0), say=lambda _: None)
    plain.run()
    assert not plain.buffer.weighted
