"""The network-guided search and the native network (docs/learning.md): visit counts worked out by hand on a
built position, the native forward pass against numpy's, bad network files, agents that play with a network,
and self-play with the batched search from a native network or a Python evaluator."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
from safetensors.numpy import save_file

import brass
from brass import agents, search, selfplay


def network_file(path: pathlib.Path, game: brass.Game, widths=(32, 16), seed=0, label: brass.Game | None = None):
    """A `brass-net/1` file with random weights; `label` names another game in its metadata."""
    rng = np.random.default_rng(seed)
    tensors = {}
    inputs = game.observation_size
    for i, width in enumerate(widths):
        tensors[f"trunk.{i}.weight"] = (rng.standard_normal((inputs, width)) * 0.1).astype(np.float32)
        tensors[f"trunk.{i}.bias"] = (rng.standard_normal(width) * 0.1).astype(np.float32)
        inputs = width
    heads = {"policy": game.num_actions, "value": game.players}
    for name, outputs in heads.items():
        tensors[f"{name}.weight"] = (rng.standard_normal((inputs, outputs)) * 0.1).astype(np.float32)
        tensors[f"{name}.bias"] = (rng.standard_normal(outputs) * 0.1).astype(np.float32)
    about = label or game
    meta = {"name": about.name, "players": about.players, "options": dict(about.options)}
    save_file(tensors, str(path), metadata={"format": "brass-net/1", "game": json.dumps(meta)})
    return tensors


def forward(tensors: dict, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = observations.astype(np.float64)
    i = 0
    while f"trunk.{i}.weight" in tensors:
        x = np.maximum(x @ tensors[f"trunk.{i}.weight"] + tensors[f"trunk.{i}.bias"], 0.0)
        i += 1
    return x @ tensors["policy.weight"] + tensors["policy.bias"], np.tanh(
        x @ tensors["value.weight"] + tensors["value.bias"]
    )


def uniform(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal priors, every value 0: the search is driven by the finished games it reaches."""
    return np.zeros(masks.shape, np.float32), np.zeros((len(masks), 3), np.float32)


def winning_sale(dcm_top: int | None = None) -> brass.State:
    """The last action of a 3-player Lancashire game: player 0 (10 VP) can sell their cotton mill in Lancaster
    to the Distant Cotton Market and win (18 VP against 16), or sell it to player 1's port, which flips it too
    and lets player 1 win, or pass and lose; links and develops start longer moves. With `dcm_top`, the DCM
    marker is on space 4, where of the ten face-down tiles only the 4 ends the sale (L-42), and `dcm_top` is the
    tile on top of the pile."""
    game = brass.Game("lancashire", players=3)
    pos = brass.Position("lancashire", players=3, era="rail", round=game.rounds_per_era)
    pos.tile("lancaster/2", owner=0, industry="cotton_mill", level=2)
    pos.tile("lancaster/1", owner=1, industry="port", level=2)
    pos.turn_order(1, 2, 0).to_move(0, actions_left=1).hand(0, "bolton")
    pos.player(0, vp=10).player(1, vp=13).player(2, vp=3)
    if dcm_top is not None:
        rest = [2, 3, 0, 2, 2, 2, 1, 3, 4, 3]
        rest.remove(dcm_top)
        pos.dcm(marker=4, pile=[dcm_top, *rest])
    return pos.state()


def expected_visits(outcomes: dict[int, float | None], simulations: int, c: float) -> dict[int, int]:
    """The visits PUCT gives the root actions when every child is a leaf (docs/learning.md, "The search"): priors
    equal (1 / actions), a child's value its game's result for the mover (`outcomes[a]`) or 0 (`None`: the
    evaluator's value of a position still under way), an unvisited child worth the root's mean value, ties to the
    lower id, the root evaluated before the simulations (value 0). Written out from the formula, to check
    the engine's arithmetic; a child met twice would need its own subtree, so that is refused."""
    prior = 1 / len(outcomes)
    visits, value = dict.fromkeys(outcomes, 0), dict.fromkeys(outcomes, 0.0)
    root_visits, root_value = 1, 0.0
    for _ in range(simulations):
        first_play = root_value / root_visits
        scores = {
            a: (value[a] / visits[a] if visits[a] else first_play) + c * prior * root_visits**0.5 / (1 + visits[a])
            for a in outcomes
        }
        best = max(sorted(outcomes), key=scores.__getitem__)  # max keeps the first of equals: the lower id
        result = outcomes[best]
        assert result is not None or visits[best] == 0, "a position under way met twice"
        v = result if result is not None else 0.0
        visits[best] += 1
        value[best] += v
        root_visits += 1
        root_value += v
    return visits


def test_the_search_visits_a_built_position_as_the_formula_says() -> None:
    """With equal priors and zero values, the 200 simulations from the last action of the game: the winning sale
    takes most of them, every other action a few or one; the counts are the formula's, worked out above."""
    state = winning_sale()
    game = state.game
    outcomes: dict[int, float | None] = {}
    for action in state.legal_actions():
        child = state.child(action)
        outcomes[action] = child.returns[0] if child.is_terminal else None
    win = game.parse_action("sell lancaster/2 distant")
    assert outcomes[win] == 1.0 and sorted(v for v in outcomes.values() if v is not None) == [-0.5, -0.5, 1.0]
    visits, value = search.analyse(state, uniform, simulations=200, c_puct=1.5, seed=3)
    want = expected_visits(outcomes, 200, 1.5)
    assert visits == want
    assert visits[win] == max(visits.values()) > 150
    total = sum(want[a] * (v or 0.0) for a, v in outcomes.items())
    assert value[0] == pytest.approx(total / 201, abs=1e-5)  # the root's own evaluation (0) and 200 simulations


@pytest.mark.parametrize(
    ("logit", "value"), [(float("nan"), 0.0), (float("inf"), 0.0), (float("-inf"), 0.0), (0.0, float("nan"))]
)
@pytest.mark.parametrize("rule", ["puct", "gumbel"])
def test_analyse_refuses_an_evaluation_that_is_not_finite(logit: float, value: float, rule: str) -> None:
    """As `SearchGames` does: a NaN would spread through every mean it is added to, and the search would choose
    by noise (an illegal action's logit too: masks are no licence for -inf)."""
    state = brass.Game("lancashire", players=3).new_state(seed=5)  # `uniform` gives 3 values

    def broken(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = uniform(observations, masks)
        logits[:, 0], values[:, 0] = logit, value
        return logits, values

    with pytest.raises(brass.ConfigError, match="not finite"):
        search.analyse(state, broken, simulations=8, seed=1, search=rule)
    assert search.analyse(state, uniform, simulations=8, seed=1, search=rule)[0]


@pytest.mark.parametrize("name", ["simulations", "fast_simulations"])
def test_search_games_name_the_setting_that_is_out_of_range(name: str) -> None:
    game = brass.Game("lancashire", players=3)
    with pytest.raises(brass.ConfigError, match=f"^{name} must be between 2 and"):
        search.SearchGames(game, uniform, 1, **{name: 0})


def test_a_network_name_or_a_rescale_of_the_wrong_type_is_an_argument_type_error() -> None:
    """Not the plain TypeError of the bindings' own conversion: the API's error, naming the argument."""
    with pytest.raises(brass.ArgumentTypeError, match="network's name is a str such as 'birmingham-2p', not NoneType"):
        agents.Net.pretrained(None)  # type: ignore[arg-type]
    net = agents.Net.pretrained("lancashire-2p")
    with pytest.raises(brass.ArgumentTypeError, match="rescale must be True or False, not int"):
        agents.NetMCTS(net, rescale=1)  # type: ignore[arg-type]
    state = brass.Game("lancashire", players=2).new_state(seed=1)
    with pytest.raises(brass.ArgumentTypeError, match="rescale must be True or False, not str"):
        search.analyse(state, net, simulations=4, rescale="yes")  # type: ignore[arg-type]
    assert agents.NetMCTS(net, rescale=True).name


def test_net_evaluate_reads_any_float_array_and_names_a_wrong_shape(tmp_path: pathlib.Path) -> None:
    """numpy's default float64 is read as the float32 the network computes in (the same outputs); a 1-D array or
    text is an ArgumentTypeError naming what was wrong, a network without a hidden unit is refused at load."""
    game = brass.Game("birmingham", players=2)
    network_file(tmp_path / "n.safetensors", game)
    net = agents.Net(tmp_path / "n.safetensors")
    obs = np.stack([game.new_state(seed=s).observation(0) for s in range(3)])
    for want, got in zip(net.evaluate(obs), net.evaluate(obs.astype(np.float64)), strict=True):
        assert np.array_equal(want, got)
    with pytest.raises(brass.ArgumentTypeError, match="2-D array .rows, observation size., not 1-D"):
        net.evaluate(obs[0])
    with pytest.raises(brass.ArgumentTypeError, match="an array of numbers, not str"):
        net.evaluate("observations")


def test_the_native_forward_pass_is_numpys(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    tensors = network_file(tmp_path / "n.safetensors", game)
    net = agents.Net(tmp_path / "n.safetensors")
    assert net.game == game and net.widths == [32, 16] and net.metadata["format"] == "brass-net/1"
    states = [game.new_state(seed=s) for s in range(3)]
    obs = np.stack([s.observation(p) for s in states for p in (0, 1)])
    logits, values = net.evaluate(obs)
    want_logits, want_values = forward(tensors, obs)
    np.testing.assert_allclose(logits, want_logits, atol=1e-5)
    np.testing.assert_allclose(values, want_values, atol=1e-5)
    assert agents.Net((tmp_path / "n.safetensors").read_bytes()).evaluate(obs)[0].tolist() == logits.tolist()


def test_bad_network_files_are_clear_brass_errors(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    good = tmp_path / "good.safetensors"
    network_file(good, game)
    truncated = tmp_path / "cut.safetensors"
    truncated.write_bytes(good.read_bytes()[:-100])
    with pytest.raises(brass.ConfigError, match="not a usable network file"):
        agents.Net(truncated)
    with pytest.raises(brass.ConfigError, match="cannot read the network"):
        agents.Net(tmp_path / "missing.safetensors")
    # Tensors of a 3-player network labelled as a 2-player one: the value head has the wrong size.
    wrong = tmp_path / "wrong.safetensors"
    network_file(wrong, brass.Game("birmingham", players=3), label=game)
    with pytest.raises(brass.ConfigError, match="its value has 3 outputs, not one per player"):
        agents.Net(wrong)
    # A Lancashire network cannot play Birmingham.
    lancashire = tmp_path / "lancashire.safetensors"
    network_file(lancashire, brass.Game("lancashire", players=2))
    net = agents.Net(lancashire)
    with pytest.raises(brass.ConfigError, match="trained for lancashire, 2 players, not for birmingham, 2 players"):
        net.choose(game.new_state(seed=1))
    with pytest.raises(brass.ConfigError, match="trained for lancashire"):
        agents.play_games(game, [net, agents.Random()], 1)
    with pytest.raises(brass.ConfigError, match="trained for lancashire"):
        search.SearchGames(game, net, 1)
    with pytest.raises(brass.ArgumentTypeError, match="a path or the bytes"):
        agents.Net(12)
    with pytest.raises(brass.ConfigError, match="simulations must be between 2"):
        agents.NetMCTS(net, simulations=1)


def test_network_agents_play_legal_games_that_replay(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    network_file(tmp_path / "n.safetensors", game)
    net = agents.Net(tmp_path / "n.safetensors")
    seats = [agents.NetMCTS(net, simulations=8), net]
    results = agents.play_games(game, seats, 2, seed=4)
    for r in results:
        assert brass.replay(r.record).scores == r.scores
    assert [r.seats for r in results] == [["netmcts(8)", "net"], ["net", "netmcts(8)"]]
    streamed = list(agents.GameStream(game, seats, 2, seed=4))
    assert [r.line for r in streamed] == [r.line for r in results]


def test_self_play_with_a_python_evaluator_is_the_native_one(tmp_path: pathlib.Path) -> None:
    game = brass.Game("birmingham", players=2)
    network_file(tmp_path / "n.safetensors", game)
    net = agents.Net(tmp_path / "n.safetensors")
    calls = []

    def evaluator(observations: np.ndarray, masks: np.ndarray):
        assert observations.dtype == np.float32 and masks.dtype == np.bool_
        calls.append(len(observations))
        return net.evaluate(observations)

    settings = {"games": 3, "seed": 2, "simulations": 6, "parallel": 2}
    native = sorted(search.SearchGames(game, net, **settings), key=lambda g: g.index)
    python = sorted(search.SearchGames(game, evaluator, **settings), key=lambda g: g.index)
    assert [g.index for g in native] == [0, 1, 2]
    assert [g.actions for g in native] == [g.actions for g in python]
    assert max(calls) == 2  # two games' leaves in each batch
    for played in native:
        state = brass.replay(played.record)
        assert state.scores == played.scores and state.returns == pytest.approx(played.returns)
        samples = played.samples
        rows = len(played.actions)
        assert samples["observation"].shape == (rows, game.observation_size)
        np.testing.assert_allclose(samples["policy"].sum(axis=1), 1.0, atol=1e-5)
        replayed = game.new_state(seed=played.seed)
        for k, action in enumerate(played.actions):
            player = replayed.current_player
            assert samples["player"][k] == player and samples["policy"][k][action] > 0
            np.testing.assert_array_equal(samples["observation"][k], replayed.observation(player))
            replayed.apply(action)


def test_evaluator_failures_reach_the_caller(tmp_path: pathlib.Path) -> None:
    game = brass.Game("lancashire", players=2)

    def raises(observations, masks):
        raise RuntimeError("the GPU caught fire")

    with pytest.raises(RuntimeError, match="caught fire"):
        list(search.SearchGames(game, raises, 1, simulations=4))

    def wrong_shape(observations, masks):
        return np.zeros((len(masks), 3)), np.zeros((len(masks), 2))

    with pytest.raises(brass.ConfigError, match="logits have shape"):
        list(search.SearchGames(game, wrong_shape, 1, simulations=4))

    def not_finite(observations, masks):
        return np.full(masks.shape, np.nan), np.zeros((len(masks), 2))

    with pytest.raises(brass.ConfigError, match="not finite"):
        list(search.SearchGames(game, not_finite, 1, simulations=4))
    with pytest.raises(brass.ArgumentTypeError, match="evaluator must be"):
        search.SearchGames(game, 3, 1)


def test_an_evaluator_that_steps_its_own_games_is_refused_and_the_games_go_on_unharmed() -> None:
    """The leaves are out with a Python evaluator while it runs: a second round then (the evaluator asking for
    the next game, or another thread) is refused in words, and the games, their leaves never delivered, are
    the games of a run without it."""
    game = brass.Game("birmingham", players=2)
    settings = {"games": 2, "seed": 3, "simulations": 4}

    def zeros(observations, masks):
        return np.zeros(masks.shape, np.float32), np.zeros((len(masks), 2), np.float32)

    plain = [(g.index, g.actions) for g in search.SearchGames(game, zeros, **settings)]
    calls = 0

    def reenters(observations, masks):
        nonlocal calls
        calls += 1
        if calls == 3:
            next(games)
        return zeros(observations, masks)

    games = search.SearchGames(game, reenters, **settings)
    played = []
    with pytest.raises(brass.ConfigError, match="being stepped already"):
        played.extend(games)
    played.extend(games)
    assert [(g.index, g.actions) for g in played] == plain


@pytest.mark.parametrize("setting", ["search", "policy_target"])
def test_a_setting_named_by_a_word_refuses_another_type_as_a_brass_error(setting: str) -> None:
    """`search` and `policy_target` were read by the bindings' own conversion: a plain TypeError that named
    neither the setting nor brass, and a UnicodeEncodeError for a lone surrogate."""
    game = brass.Game("birmingham", players=2)
    net = agents.Net.pretrained("birmingham-2p")
    calls = [lambda **kw: search.SearchGames(game, net, 1, **kw)]
    if setting == "search":
        calls += [
            lambda **kw: agents.NetMCTS(net, **kw),
            lambda **kw: search.analyse(game.new_state(seed=1), net, **kw),
        ]
    for call in calls:
        with pytest.raises(brass.ArgumentTypeError, match=f"^{setting} must be a str, not int$"):
            call(**{setting: 3})
        with pytest.raises(brass.ConfigError, match="lone surrogate"):
            call(**{setting: "\ud800"})


def test_relative_returns_turn_each_row_to_its_player() -> None:
    returns = np.array([[1.0, -0.5, -0.5], [1.0, -0.5, -0.5]])
    out = search.relative_returns(returns, np.array([0, 2]))
    np.testing.assert_array_equal(out, [[1.0, -0.5, -0.5], [-0.5, 1.0, -0.5]])


def test_network_agents_by_spec_in_the_command_line(tmp_path: pathlib.Path, capsys) -> None:
    """`net:FILE` and `netmcts:SIMULATIONS:FILE` take seats in brass selfplay and brass arena; a bad file is one
    line."""
    from brass.cli import main

    game = brass.Game("lancashire", players=2)
    path = tmp_path / "n.safetensors"
    network_file(path, game)
    argv = ["selfplay", "--players", "2", "--agents", f"net:{path}", f"netmcts:4:{path}", "--games", "2", "--quiet"]
    assert main(argv) == 0
    assert "netmcts(4)" in capsys.readouterr().out
    argv = ["arena", "--players", "2", "--agents", f"net:{path}", "random", "--deals", "1", "--quiet"]
    assert main(argv) == 0
    assert f"net:{path}" in capsys.readouterr().out
    assert main(["selfplay", "--players", "2", "--agents", "net:nowhere.safetensors", "random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read the network nowhere.safetensors" in err
    assert main(["selfplay", "--game", "birmingham", "--players", "2", "--agents", f"net:{path}", "random"]) == 2
    assert "trained for lancashire, 2 players" in capsys.readouterr().err


def test_completed_q_targets_follow_what_the_search_found() -> None:
    """`policy_target="completed_q"`: a distribution over the legal actions that favours what the search found
    (docs/learning.md); with a flat prior, the action the search valued most gets the most weight."""
    game = brass.Game("lancashire", players=2)

    def zeros(observations, masks):
        return np.zeros(masks.shape, np.float32), np.zeros((len(masks), 2), np.float32)

    for played in search.SearchGames(game, zeros, 2, simulations=8, policy_target="completed_q"):
        policy = played.samples["policy"]
        masks = selfplay.unpack_masks(played.samples["legal_mask"], game.num_actions)
        np.testing.assert_allclose(policy.sum(axis=1), 1.0, atol=1e-5)
        assert ((policy > 0) == masks).all()
    with pytest.raises(brass.ConfigError, match="policy_target is"):
        search.SearchGames(game, zeros, 1, policy_target="greedy")


def test_gumbel_c_visit_and_c_scale_weigh_the_values_and_a_network_file_names_its_own(tmp_path: pathlib.Path) -> None:
    """σ(q) = (c_visit + most visits) · c_scale · q (docs/learning.md, "The search"): at c_scale 0 the improved
    policy is the network's prior, whatever the search found, and above 0 it is not; the settings belong to the
    Gumbel search only; and a network file that names its own (`gumbel_c_scale`) has its NetMCTS search with
    them unless told otherwise."""
    game = brass.Game("lancashire", players=2)
    path = tmp_path / "net.safetensors"
    tensors = network_file(path, game)
    net = agents.Net(path)
    for c_scale, off in ((0.0, False), (0.1, True)):
        settings = {"simulations": 8, "policy_target": "completed_q", "search": "gumbel", "c_scale": c_scale}
        played = next(iter(search.SearchGames(game, net, 1, **settings)))
        masks = selfplay.unpack_masks(played.samples["legal_mask"], game.num_actions)
        logits, _ = forward(tensors, played.samples["observation"].astype(np.float32))
        prior = np.exp(np.where(masks, logits - logits.max(axis=1, keepdims=True), -np.inf))
        prior /= prior.sum(axis=1, keepdims=True)
        assert (np.abs(played.samples["policy"] - prior).max() > 0.01) == off, c_scale
    # One search from the start: the root actions Sequential Halving keeps depend on c_scale, and the defaults
    # given are the defaults.
    state = game.new_state(seed=1)

    def visits(**settings):
        return search.analyse(state, net, simulations=64, search="gumbel", **settings)[0]

    assert visits() == visits(c_visit=50, c_scale=0.1) != visits(c_scale=0.0)
    assert visits(c_visit=50) != visits(c_visit=500)
    for bad, match in (({"search": "puct", "c_scale": 0.1}, "settings of search"), ({"c_visit": -1}, "c_visit")):
        with pytest.raises(brass.ConfigError, match=match):
            search.analyse(state, net, simulations=4, **{"search": "gumbel", **bad})
    # A network file that names c_scale 0: its NetMCTS plays as one told c_scale=0, not as one told 1.
    from safetensors.numpy import load_file

    meta = {
        "format": "brass-net/1",
        "game": json.dumps({"name": "lancashire", "players": 2, "options": {}}),
        "search": '"gumbel"',
        "gumbel_c_scale": "0.0",
    }
    save_file(load_file(str(path)), str(path), metadata=meta)

    def record(**settings):
        player = agents.NetMCTS(path, simulations=16, **settings)
        return agents.play_games(game, [player, player], 1, seed=3)[0].record

    assert record() == record(c_scale=0.0) != record(c_scale=1.0)


@pytest.mark.parametrize("top", [0, 4])
def test_l4_l42_greedy_weighs_a_dcm_sale_by_the_tiles_it_cannot_see_not_the_top_one(top: int) -> None:
    """The DCM pile is face down (L-4): Greedy used to play the sale on the state itself, saw the 4 on top and
    linked instead; nine tiles in ten make the sale, whatever lies on top (docs/agents.md)."""
    state = winning_sale(dcm_top=top)
    game = state.game
    for seed in range(4):
        assert game.action_name(agents.Greedy().choose(state, seed=seed)) == "sell lancaster/2 distant"
    # The pile is as it was set: the sale made on this state with the 4 on top does fail.
    sale = next(a for a in state.legal_actions() if game.action_name(a) == "sell lancaster/2 distant")
    after = state.clone()
    after.apply(sale)
    assert after.scores[0] == (13 if top == 4 else 18)
