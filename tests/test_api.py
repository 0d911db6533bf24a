"""The Python API of the Rust-backed engine: construction, errors, views, serialisation."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest

import brass
from brass import reference


@pytest.fixture(params=[2, 3, 4])
def game(request: pytest.FixtureRequest) -> brass.Game:
    return brass.Game("lancashire", players=request.param)


def test_game_configuration_and_action_space(game: brass.Game) -> None:
    assert game.name == "lancashire"
    assert game.options == {}
    assert game.num_actions == 523
    names = [game.action_name(i) for i in range(game.num_actions)]
    assert len(set(names)) == game.num_actions
    assert all(game.parse_action(n) == i for i, n in enumerate(names))
    assert game.parse_action("  BUILD   Cotton_Mill manchester/1 ") == game.parse_action(
        "build cotton_mill manchester/1"
    )
    assert game.parse_action("link wigan-preston") == game.parse_action("link preston-wigan")
    assert len(game.spaces) == 43 and len(game.lines) == 36 and len(game.card_kinds) == 24
    assert game == brass.Game("lancashire", players=game.players)
    assert pickle.loads(pickle.dumps(game)) == game


@pytest.mark.parametrize(
    ("args", "kwargs", "fragment"),
    [
        (("monopoly",), {"players": 4}, "unknown game"),
        (("lancashire",), {"players": 5}, "2, 3 or 4"),
        (("lancashire",), {"players": 1}, "2, 3 or 4"),
        (("lancashire",), {"players": 4, "turbo": True}, "unknown option `turbo`"),
    ],
)
def test_bad_configuration_raises_config_error(args: tuple, kwargs: dict, fragment: str) -> None:
    with pytest.raises(brass.ConfigError, match=fragment):
        brass.Game(*args, **kwargs)


def test_error_hierarchy() -> None:
    for cls in (brass.ConfigError, brass.IllegalActionError, brass.InvalidStateError, brass.NotationError):
        assert issubclass(cls, brass.BrassError)
    assert issubclass(brass.BrassError, ValueError)


@pytest.mark.parametrize("players", ["4", 4.0, True])
def test_players_of_the_wrong_type_raise_argument_type_error(players: object) -> None:
    with pytest.raises(brass.ArgumentTypeError, match="players must be an int"):
        brass.Game("lancashire", players=players)


@pytest.mark.parametrize("engine", [brass, reference])
@pytest.mark.parametrize("players", [{}, {"players": None}])
def test_a_missing_player_count_names_the_counts_not_new(engine: Any, players: dict[str, Any]) -> None:
    """Issue 21, item 9: `brass.Game("lancashire")` says what is missing, not a bare TypeError about __new__."""
    with pytest.raises(brass.ArgumentTypeError) as caught:
        engine.Game("lancashire", **players)
    assert str(caught.value) == (
        'players is needed: lancashire is played by 2, 3 or 4 players, e.g. brass.Game("lancashire", players=4)'
    )
    assert isinstance(caught.value, TypeError)
    with pytest.raises(brass.ConfigError, match="unknown game"):
        engine.Game("nope")


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seed_out_of_range_raises_config_error(seed: object) -> None:
    with pytest.raises(brass.ConfigError, match="0 <= seed < 2\\*\\*64"):
        brass.Game("lancashire", players=2).new_state(seed=seed)


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_seed_of_the_wrong_type_raises_argument_type_error(seed: object) -> None:
    with pytest.raises(brass.ArgumentTypeError, match="seed"):
        brass.Game("lancashire", players=2).new_state(seed=seed)


def test_integer_like_arguments_are_accepted_everywhere() -> None:
    """numpy integers (anything with `__index__`) are ints for players, seeds, action ids and player indices."""
    import numpy as np

    game = brass.Game("lancashire", players=np.int64(3))
    state = game.new_state(seed=np.uint64(3))
    assert state == game.new_state(seed=3)
    state.apply(np.int64(state.legal_actions()[0]))
    assert state.player(np.int32(2)).money == state.player(2).money


def test_a_seeds_index_is_read_once() -> None:
    """A Python `__index__` runs once a seed: a second reading could cost as much again or give another value."""

    class Counted:
        calls = 0

        def __index__(self) -> int:
            Counted.calls += 1
            return 3 if Counted.calls == 1 else -1  # a second reading would be out of range

    game = brass.Game("lancashire", players=3)
    assert game.new_state(seed=Counted()) == game.new_state(seed=3)  # type: ignore[arg-type]
    assert Counted.calls == 1


def test_new_state_follows_setup_rules(game: brass.Game) -> None:
    state = game.new_state(seed=11)
    n = game.players
    assert state.era == "canal" and state.round == 1 and state.decision == "action"
    assert sorted(state.turn_order) == list(range(n))
    assert state.current_player == state.turn_order[0]
    assert state.actions_left == 1  # L-8
    deck = {2: 40, 3: 54, 4: 64}[n]  # L-2
    assert state.deck_size == deck - n - 8 * n  # L-3: n cards under the deck tile, 8 dealt each
    for p in range(n):
        view = state.player(p)
        assert (view.money, view.income_level, view.income_space, view.vp, view.links_left) == (30, 0, 10, 0, 14)
        assert len(view.hand) == 8 and view.discards == []
        assert view.mat == {"cotton_mill": 12, "coal_mine": 7, "iron_works": 4, "port": 8, "shipyard": 6}
    doc = json.loads(state.to_json())
    assert doc["coal_market"] == 8 and doc["iron_market"] == 8 and doc["dcm"]["marker"] == 0
    assert sum(doc["deck_tile"].values()) == n


def test_same_seed_same_game_and_different_seed_differs(game: brass.Game) -> None:
    assert game.new_state(seed=5).to_json() == game.new_state(seed=5).to_json()
    assert game.new_state(seed=5).to_json() != game.new_state(seed=6).to_json()


def test_legal_actions_sorted_unique_and_mask_agrees(game: brass.Game) -> None:
    state = game.new_state(seed=3)
    ids = state.legal_actions()
    assert ids == sorted(set(ids)) and ids
    mask = state.legal_action_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert np.flatnonzero(mask).tolist() == ids


def test_apply_by_notation_and_history(game: brass.Game) -> None:
    state = game.new_state(seed=3)
    first = state.legal_actions()[0]
    state.apply(game.action_name(first))
    assert state.history == [first]


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (-1, brass.IllegalActionError),
        (10**30, brass.IllegalActionError),
        (523, brass.IllegalActionError),
        (1.0, brass.ArgumentTypeError),
        (None, brass.ArgumentTypeError),
        (b"pass", brass.ArgumentTypeError),
        ([1], brass.ArgumentTypeError),
        (True, brass.ArgumentTypeError),
        (np.float64(3), brass.ArgumentTypeError),
    ],
)
def test_bad_action_values_raise_and_change_nothing(bad: object, error: type[Exception]) -> None:
    """docs/api.md: an id out of range is an IllegalActionError, a value that is neither an int nor a str an
    ArgumentTypeError (also a TypeError)."""
    state = brass.Game("lancashire", players=3).new_state(seed=2)
    before = state.to_json()
    with pytest.raises(error):
        state.apply(bad)
    with pytest.raises(error):
        state.game.action_name(bad)
    assert state.to_json() == before and state.history == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "build",
        "fly away",
        "build cotton_mill nowhere/1",
        "sell manchester/1 moon",
        "loan 15",
        "card joker",
        "build port manchester/1",
        "x" * 10_000,
    ],
)
def test_bad_notation_raises_notation_error_and_changes_nothing(text: str) -> None:
    state = brass.Game("lancashire", players=3).new_state(seed=2)
    before = state.to_json()
    with pytest.raises(brass.NotationError):
        state.apply(text)
    assert state.to_json() == before


def test_illegal_action_message_names_the_rule() -> None:
    game = brass.Game("lancashire", players=4)
    state = game.new_state(seed=1)
    with pytest.raises(brass.IllegalActionError, match="L-24"):
        state.apply("build cotton_mill colne/2")
    with pytest.raises(brass.IllegalActionError, match="stop"):
        state.apply("stop")


def test_clone_is_independent() -> None:
    state = brass.Game("lancashire", players=2).new_state(seed=9)
    child = state.clone()
    assert child == state
    child.apply(child.legal_actions()[-1])
    assert child != state and state.history == []
    assert copy.copy(state) == state and copy.deepcopy(state) == state


def test_pickle_keeps_position_and_history() -> None:
    state = brass.Game("lancashire", players=2).new_state(seed=9)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.history == state.history
    assert back.legal_actions() == state.legal_actions()


def test_json_is_canonical_and_round_trips() -> None:
    state = brass.Game("lancashire", players=4).new_state(seed=4)
    text = state.to_json()
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    back = brass.State.from_json(text)
    assert back == state and back.to_json() == text and back.history == []


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda d: d.update(format="nope"), "format"),
        (lambda d: d.update(round=99), "round"),
        (lambda d: d["players"][0].update(money=-5), "negative money"),
        (lambda d: d["players"][0]["hand"].update(wigan=9), "cards"),
        (lambda d: d.update(turn_order=[0, 0, 1, 2]), "twice"),
        (
            lambda d: d["board"].update(
                {"wigan/1": {"owner": 0, "industry": "port", "level": 1, "flipped": False, "cubes": 0}}
            ),
            "does not show",
        ),
        (lambda d: d["links"].update({"barrow_in_furness-lancaster": 0}), "no link in the canal era"),
        (lambda d: d.update(extra=1), "unexpected key"),
        (lambda d: d["game"].update(players=7), "2, 3 or 4"),
    ],
)
def test_from_json_rejects_bad_states(edit, fragment: str) -> None:
    doc = json.loads(brass.Game("lancashire", players=4).new_state(seed=4).to_json())
    edit(doc)
    with pytest.raises(brass.InvalidStateError, match=fragment):
        brass.State.from_json(json.dumps(doc))


@pytest.mark.parametrize(
    "text", ["", "{", "[]", "null", "1" * 100, "[" * 10_000 + "]" * 10_000, b"{", b"\xff", {"format": 1}]
)
def test_from_json_rejects_garbage(text: object) -> None:
    with pytest.raises(brass.InvalidStateError):
        brass.State.from_json(text)


@pytest.mark.parametrize("text", [42, None, ["{}"]])
def test_from_json_of_the_wrong_type_raises_argument_type_error(text: object) -> None:
    with pytest.raises(brass.ArgumentTypeError, match="str, bytes or dict"):
        brass.State.from_json(text)


def test_from_json_and_replay_accept_text_bytes_and_dicts(game: brass.Game) -> None:
    state = game.new_state(seed=4)
    state.apply(state.legal_actions()[0])
    text = state.to_json()
    for form in (text, text.encode(), json.loads(text)):
        assert brass.State.from_json(form) == state
    record = state.record()
    for form in (record, record.encode(), json.loads(record)):
        assert brass.replay(form) == state


def test_record_replays_exactly() -> None:
    import random

    game = brass.Game("lancashire", players=3)
    state = game.new_state(seed=21)
    chooser = random.Random(0)
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
    record = json.loads(state.record())
    assert record["seed"] == 21 and record["actions"] == state.history
    replayed = brass.replay(state.record())
    assert replayed == state and replayed.scores == state.scores and replayed.winners == state.winners
    record["actions"][5] = 0  # almost surely illegal there
    with pytest.raises(brass.IllegalActionError, match="record action 5"):
        brass.replay(json.dumps(record))


def test_record_of_a_loaded_state_carries_its_start() -> None:
    game = brass.Game("lancashire", players=2)
    state = brass.State.from_json(game.new_state(seed=8).to_json())
    state.apply(state.legal_actions()[0])
    record = json.loads(state.record())
    assert "seed" not in record and record["start"]["format"] == "brass-state/1"
    assert brass.replay(state.record()) == state


def test_views_and_repr() -> None:
    state = brass.Game("lancashire", players=2).new_state(seed=1)
    assert "player" in repr(state) and "lancashire" in repr(state.game)
    with pytest.raises(IndexError):
        state.player(2)
    assert state.scores == [0, 0] and state.winners == []


def test_numpy_integers_are_accepted_as_ids() -> None:
    game = brass.Game("lancashire", players=2)
    state = game.new_state(seed=1)
    mask = state.legal_action_mask()
    first = np.flatnonzero(mask)[0]
    state.apply(first)  # a numpy integer, as np.argmax or np.flatnonzero return
    assert state.history == [int(first)]
    assert game.action_name(np.int32(first)) == game.action_name(int(first))
    with pytest.raises(TypeError):
        state.player(True)


def test_cli_bench_quick_json_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """Smoke test of `brass bench` (figures come from running it, not from this test)."""
    from brass.cli import main

    assert main(["bench", "--quick", "--json", "--players", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    result = report["results"]["2"]
    assert result["same_results"] == 1.0  # the reference engine reached the native engine's scores
    expected = {"native_1_thread", "native_all_threads", "decisions_per_s", "vecenv_256", "clone_ns", "selfplay"}
    assert expected <= set(result)
    assert result["selfplay"]["selfplay_games_per_s"] > 0 and result["selfplay"]["samples_per_s"] > 0


def test_cli_bench_classic_game_and_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """`brass bench --game brass` measures classic games; a player count the game lacks is one error line."""
    from brass.cli import main

    assert main(["bench", "--quick", "--json", "--game", "brass", "--players", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "brass" and report["results"]["3"]["same_results"] == 1.0
    assert main(["bench", "--quick", "--game", "brass", "--players", "2"]) != 0
    err = capsys.readouterr().err
    assert "players" in err and "Traceback" not in err


def test_games_catalog_and_decision_bound() -> None:
    from brass import reference

    assert (
        brass.games()
        == reference.games()
        == {
            "brass": {"title": "Brass (Warfrog 2007, classic rules)", "players": [3, 4], "options": {}},
            "lancashire": {
                "title": "Brass: Lancashire (Roxley 2018)",
                "players": [2, 3, 4],
                "options": {
                    "intro": {
                        "type": "bool",
                        "players": [2, 3, 4],
                        "rule": "L-54",
                        "doc": "the introductory game: the Canal Era only, with extra scoring",
                    },
                    "virtual_link": {
                        "type": "bool",
                        "players": [2, 3, 4],
                        "rule": "L-55",
                        "doc": "the virtual link Liverpool-Birkenhead for industry cards",
                    },
                    "classic_deck": {
                        "type": "bool",
                        "players": [3, 4],
                        "rule": "L-56",
                        "doc": "the classic deck set-up: all 66 cards, 9 / 6 under the deck tile",
                    },
                    "variant": {
                        "type": "str",
                        "players": [2],
                        "rule": "L-57",
                        "doc": '"community-2p", the community 2-player variant: refused until its alternate map is known (R-13)',
                    },
                },
            },
            "birmingham": {
                "title": "Brass: Birmingham (Roxley 2018)",
                "players": [2, 3, 4],
                "options": {
                    "intro": {
                        "type": "bool",
                        "players": [2, 3, 4],
                        "rule": "B-22",
                        "doc": "the introductory game: the Canal Era only, with extra scoring",
                    },
                },
            },
        }
    )
    assert [brass.Game("birmingham", players=n).max_decisions for n in (2, 3, 4)] == [930, 1299, 1604]
    for name, info in brass.games().items():
        for n in info["players"]:
            assert brass.Game(name, players=n).max_decisions == reference.Game(name, players=n).max_decisions


@pytest.mark.parametrize("engine", ["brass", "reference"])
def test_position_views_match_the_state_json(engine: str) -> None:
    """`board`, `links`, markets, DCM and deck tile read the position without parsing JSON (both engines)."""
    from brass import reference

    module = brass if engine == "brass" else reference
    game = module.Game("lancashire", players=3)
    state = game.new_state(seed=21)
    assert state.board == {} and state.links == {} and state.deck_tile_size == 3  # L-3
    assert (state.coal_market, state.iron_market, state.dcm_marker, state.dcm_tiles_left) == (8, 8, 0, 10)
    chooser = random.Random(4)
    while not (state.board and state.links):
        state.apply(chooser.choice(state.legal_actions()))
    obj = json.loads(state.to_json())
    assert state.board == obj["board"] and state.links == obj["links"]
    assert list(state.board) == [s for s in game.spaces if s in obj["board"]]  # space order
    assert list(state.links) == [line for line in game.lines if line in obj["links"]]  # line order
    assert state.coal_market == obj["coal_market"] and state.iron_market == obj["iron_market"]
    assert state.dcm_marker == obj["dcm"]["marker"] and state.dcm_tiles_left == len(obj["dcm"]["pile"])
    assert state.deck_tile_size == sum(obj["deck_tile"].values())
    snapshot = state.board
    snapshot.clear()  # a snapshot: changing it changes nothing
    assert state.board == obj["board"]


@pytest.mark.parametrize(
    ("name", "options"),
    [("lancashire", {}), ("lancashire", {"intro": True, "classic_deck": True}), ("birmingham", {"intro": True})],
)
def test_a_games_repr_is_the_call_that_makes_it(name: str, options: dict) -> None:
    game = brass.Game(name, players=3, **options)
    text = repr(game)
    assert text.startswith(f"brass.Game('{name}', players=3") and "=true" not in text
    assert eval(text, {"brass": brass}) == game  # noqa: S307 - the repr of a trusted object


def test_a_notation_error_gives_examples_from_the_game_played() -> None:
    """A misspelt space or line is answered with a space or line of the game itself, not Lancashire's."""
    for name in brass.games():
        game = brass.Game(name, players=3)
        with pytest.raises(brass.NotationError) as space:
            game.parse_action("build cotton_mill nowhere/1")
        with pytest.raises(brass.NotationError) as line:
            game.parse_action("link a-b")
        example_space = str(space.value).rsplit("`", 2)[-2]
        example_line = str(line.value).rsplit("`", 2)[-2]
        assert example_space in game.spaces and example_line in game.lines, name
