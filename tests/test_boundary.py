"""The input boundary (hardening): whatever Python passes to a public entry point, the result is a value or
a `brass.BrassError` subclass naming the problem: never a PanicException, an abort, a hang, or another
exception type. Hypothesis throws wrong types, huge and negative numbers, long strings, and deeply nested and
truncated JSON at every entry point, on both engines where both have it."""

from __future__ import annotations

import contextlib
import json
import threading

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import brass
from brass import agents, reference

ENGINES = [brass, reference]

junk_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.binary(max_size=20),
    st.sampled_from(["", "lancashire", "pass", "x" * 5000, "\ud800", "0", "-1", "1e9", "{}", "[]"]),
)
junk = st.recursive(
    junk_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
fuzz = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(fn, *args, **kwargs):
    """'ok' or the exception class name; anything but a BrassError fails the test."""
    try:
        fn(*args, **kwargs)
    except brass.BrassError as e:
        assert str(e), "errors name the problem"
        return type(e).__name__
    return "ok"


@fuzz
@given(name=junk, players=junk, option=junk)
def test_game_construction(name, players, option) -> None:
    for engine in ENGINES:
        outcome(engine.Game, name, players=players)
        outcome(engine.Game, "lancashire", players=4, turbo=option)


@fuzz
@given(value=junk)
def test_game_methods(value) -> None:
    for engine in ENGINES:
        game = engine.Game("lancashire", players=3)
        outcome(game.action_name, value)
        outcome(game.parse_action, value)
        outcome(game.new_state, value)


@fuzz
@given(value=junk, data=st.data())
def test_state_methods_agree_and_change_nothing(value, data) -> None:
    states = [engine.Game("lancashire", players=2).new_state(seed=5) for engine in ENGINES]
    for s in states:
        for a in s.legal_actions()[:1]:
            s.apply(a)
    before = [s.to_json() for s in states]
    result = outcome(states[0].apply, value)
    assert outcome(states[1].apply, value) == result
    if result == "ok":  # junk that happened to be a legal move: both engines made it
        assert states[0].to_json() == states[1].to_json()
    else:
        assert [s.to_json() for s in states] == before
    for s in states:
        with contextlib.suppress(brass.PlayerIndexError, brass.ArgumentTypeError):
            s.player(value)
    outcome(states[0].observation, value)
    outcome(states[0].resample_hidden, value, value)


@fuzz
@given(value=junk)
def test_from_json_and_replay_with_junk(value) -> None:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    for engine in ENGINES:
        assert outcome(engine.State.from_json, text) in ("ok", "InvalidStateError")
        assert outcome(engine.replay, text) in ("ok", "InvalidStateError", "IllegalActionError")
        outcome(engine.State.from_json, value)


@fuzz
@given(cut=st.integers(min_value=0, max_value=3000), depth=st.integers(min_value=1, max_value=100_000))
def test_truncated_and_deeply_nested_json(cut, depth) -> None:
    text = brass.Game("lancashire", players=4).new_state(seed=1).to_json()
    for engine in ENGINES:
        assert outcome(engine.State.from_json, text[:cut]) in ("InvalidStateError", "ok")
    nested = "[" * depth + "]" * depth
    deep = '{"a":' * min(depth, 5000) + "1" + "}" * min(depth, 5000)
    assert outcome(brass.State.from_json, nested) == "InvalidStateError"
    assert outcome(brass.State.from_json, deep) == "InvalidStateError"
    assert outcome(brass.replay, nested) == "InvalidStateError"


def test_huge_inputs_are_refused_quickly() -> None:
    huge = " " * (8 << 20)
    assert outcome(brass.State.from_json, huge) == "InvalidStateError"
    assert outcome(brass.Game("lancashire", players=2).parse_action, "pass" + " " * 10**6) == "NotationError"


@fuzz
@given(a=junk, b=junk, c=junk)
def test_batch_and_agent_entry_points(a, b, c) -> None:
    game = brass.Game("lancashire", players=2)
    state = game.new_state(seed=1)
    outcome(brass.rollouts, a, 1)
    outcome(brass.rollouts, game, a if not isinstance(a, int) or abs(a) > 3 else 2, seed=b)
    outcome(brass.rollouts, game, 1, threads=c if not isinstance(c, int) or c > 8 else 1)
    outcome(brass.VecEnv, a, 2)
    outcome(brass.VecEnv, game, a if not isinstance(a, int) or abs(a) > 5 else 2)
    outcome(agents.MCTS, iterations=a if not isinstance(a, int) or a > 50 else 3, exploration=b, rollout_depth=c)
    outcome(agents.Random().choose, a)
    outcome(agents.Greedy().choose, state, seed=b)
    outcome(agents.play_games, a, [agents.Random()] * 2, 1)
    outcome(agents.play_games, game, a, 1)
    outcome(agents.evaluate, state, a)


def test_vecenv_step_with_bad_actions() -> None:
    env = brass.VecEnv(brass.Game("lancashire", players=3), 4, seed=1)
    env.reset()
    for bad in ([1.5] * 4, "pass", [None] * 4, np.zeros(3, dtype=np.int64), [10**30] * 4, [-1] * 4):
        assert outcome(env.step, bad) in ("ArgumentTypeError", "IllegalActionError")


def test_many_threads_play_their_own_games_on_a_shared_game() -> None:
    game = brass.Game("lancashire", players=3)
    expected = {seed: brass.rollouts(game, 1, seed=seed, threads=1).scores.tolist() for seed in range(8)}
    results: dict[int, list] = {}

    def play(seed: int) -> None:
        results[seed] = brass.rollouts(game, 1, seed=seed, threads=1).scores.tolist()
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(state.legal_actions()[seed % len(state.legal_actions())])
        assert state.validate() is None

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


def test_a_state_shared_between_threads_never_breaks() -> None:
    """Two threads applying moves to one State: each call is atomic; a move made stale by the other thread is
    refused with IllegalActionError, and the state stays valid."""
    state = brass.Game("lancashire", players=2).new_state(seed=3)
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        for _ in range(300):
            if state.is_terminal:
                return
            ids = state.legal_actions()
            try:
                state.apply(ids[k % len(ids)] if ids else 0)
            except brass.IllegalActionError:
                pass
            except BaseException as e:  # noqa: BLE001 - anything else is the failure being tested for
                errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    state.validate()


def test_vecenv_used_from_two_threads_at_once_gives_a_clear_error() -> None:
    env = brass.VecEnv(brass.Game("lancashire", players=4), 512, seed=1)
    env.reset()
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def stepper() -> None:
        barrier.wait()
        for k in range(20):
            outcomes.append(outcome(lambda k=k: env.step(env.sample_legal_actions(k))))

    def reader() -> None:
        barrier.wait()
        for _ in range(200):
            outcomes.append(outcome(env.legal_action_masks))

    threads = [threading.Thread(target=stepper), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Either call can find the other one running; it then gets InvalidStateError, never a crash.
    assert set(outcomes) <= {"ok", "InvalidStateError"} and len(outcomes) == 220


class _Interrupted:
    """A value whose conversions (`__index__`, `__float__`, `__fspath__`) are cut short by a Ctrl-C, as a SIGINT
    arriving while Python code runs to read an argument cuts them; `error` is what they raise otherwise."""

    def __init__(self, error: type[BaseException] = KeyboardInterrupt) -> None:
        self.error = error

    def __index__(self) -> int:
        raise self.error

    def __float__(self) -> float:
        raise self.error

    def __fspath__(self) -> str:
        raise self.error


def test_a_ctrl_c_while_an_argument_is_read_is_a_keyboard_interrupt_not_a_wrong_argument() -> None:
    """A KeyboardInterrupt raised by Python code that reads an argument reaches the caller as it is, the state
    unchanged: once, a SIGINT landing in `pathlib.Path.__fspath__` as `Net.pretrained` read its file came out as
    `ArgumentTypeError: a network is a path or the bytes of a file, not PosixPath`. An ordinary exception from
    the same code is still the argument's error."""
    game = brass.Game("lancashire", players=2)
    state = game.new_state(seed=1)
    before = state.to_json()
    calls = [
        lambda x: state.apply(x),
        lambda x: state.player(x),
        lambda x: game.new_state(seed=x),
        lambda x: brass.Game("lancashire", players=x),
        lambda x: agents.MCTS(iterations=x),
        lambda x: agents.MCTS(exploration=x),
        lambda x: agents.Net(x),
    ]
    for call in calls:
        with contextlib.suppress(KeyboardInterrupt):
            call(_Interrupted())
            raise AssertionError("no KeyboardInterrupt")
        with contextlib.suppress(brass.ArgumentTypeError):
            call(_Interrupted(ValueError))
            raise AssertionError("no ArgumentTypeError")
    assert state.to_json() == before
