"""At sampled positions of random games: legal actions apply, everything else is refused with the state
unchanged, the mask, copies."""

from __future__ import annotations

import copy
import random

import numpy as np

import brass

from .support import positions


def where(config, played, step) -> str:
    return f"{config.id} seed {played.seed} decision {step}"


def test_every_legal_action_applies(engine, config):
    for played, step, state in positions(engine, config):
        game, here = played.game, where(config, played, step)
        before, history = state.to_json(), state.history
        legal = state.legal_actions()
        assert isinstance(legal, list) and all(type(a) is int for a in legal), here
        assert legal == sorted(set(legal)), here
        assert all(0 <= a < game.num_actions for a in legal), here
        if state.is_terminal:
            assert legal == [], here
            continue
        assert legal, f"{here}: no legal action in a position that is not over"
        assert state.current_player in range(game.players), here
        rng = random.Random(step)
        checked = set(rng.sample(legal, min(3, len(legal))))
        for action in legal:
            child = state.child(action)
            assert child.history == [*history, action], (here, action)
            if hasattr(child, "validate"):
                child.validate()
            if action in checked:  # the same by clone + apply, by notation, by numpy integer
                name = game.action_name(action)
                for how in (action, name, np.int64(action)):
                    other = state.clone()
                    other.apply(how)
                    assert other == child and other.to_json() == child.to_json(), (here, name, how)
                    assert other.history == child.history, (here, name)
                engine.State.from_json(child.to_json())  # the loader validates
        assert state.to_json() == before and state.history == history, f"{here}: child() changed its parent"


def refused(game, legal: list[int], rng: random.Random) -> list[tuple[object, tuple[type, ...]]]:
    """Actions that must be refused in a position whose legal actions are `legal`, each with the errors that
    may refuse it: ids of illegal actions (a sample), ids out of range, the wrong types, and text."""
    n = game.num_actions
    legal_set = set(legal)
    illegal = [a for a in range(n) if a not in legal_set]
    ids = rng.sample(illegal, min(12, len(illegal)))
    ids += [-1, -2, -n, n, n + 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63), 10**30, -(10**30)]
    out: list[tuple[object, tuple[type, ...]]] = [(a, (brass.IllegalActionError,)) for a in ids]
    out += [(np.int64(-1), (brass.IllegalActionError,)), (np.int64(n), (brass.IllegalActionError,))]
    if illegal:
        out.append((np.int32(illegal[0]), (brass.IllegalActionError,)))
    some = legal[0] if legal else 0
    wrong = [True, False, float(some), 0.5, float("nan"), None, [some], (some,), b"pass", np.float64(some), object()]
    out += [(value, (brass.IllegalActionError, brass.ArgumentTypeError)) for value in wrong]
    out += [(game.action_name(a), (brass.IllegalActionError,)) for a in ids[:3] if 0 <= a < n]
    out += [(text, (brass.NotationError,)) for text in ("", "build castle", "card")]
    return out


def test_other_actions_are_refused_and_leave_the_state_unchanged(engine, config):
    for played, step, state in positions(engine, config):
        game, here = played.game, where(config, played, step)
        work = state.clone()
        before, history, legal = work.to_json(), work.history, work.legal_actions()
        for action, errors in refused(game, legal, random.Random(step)):
            for method in (work.apply, work.child):
                try:
                    method(action)
                except errors:
                    pass
                except Exception as e:  # noqa: BLE001 - the class is what is checked
                    raise AssertionError(f"{here}: {method.__name__}({action!r}) raised {type(e).__name__}: {e}") from e
                else:
                    raise AssertionError(f"{here}: {method.__name__}({action!r}) was accepted")
                assert work.to_json() == before, f"{here}: {method.__name__}({action!r}) changed the state"
                assert work.history == history and work.legal_actions() == legal, (here, action)
        assert work == state


def test_legal_action_mask_matches_legal_actions(engine, config):
    for played, step, state in positions(engine, config):
        here = where(config, played, step)
        mask = state.legal_action_mask()
        assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_, here
        assert mask.shape == (played.game.num_actions,), here
        assert np.flatnonzero(mask).tolist() == state.legal_actions(), here
        mask[:] = ~mask  # the mask is the caller's copy
        assert np.flatnonzero(state.legal_action_mask()).tolist() == state.legal_actions(), here


def test_copies_are_equal_and_independent(engine, config):
    for played, step, state in positions(engine, config):
        here = where(config, played, step)
        before, history, record = state.to_json(), state.history, state.record()
        legal = state.legal_actions()
        action = random.Random(step).choice(legal) if legal else None
        for how, make in (("clone", engine.State.clone), ("copy", copy.copy), ("deepcopy", copy.deepcopy)):
            other = make(state)
            assert other is not state and type(other) is type(state), (here, how)
            assert other == state and other.to_json() == before, (here, how)
            assert other.history == history and other.record() == record, (here, how)
            assert other.game == state.game and other.legal_actions() == legal, (here, how)
            if action is None:
                continue
            other.apply(action)  # changing the copy leaves the original as it was ...
            assert state.to_json() == before and state.history == history, (here, how)
            assert other == state.child(action), (here, how)
            original, kept = make(state), make(state)  # ... and changing the original leaves the copy
            copied = make(original)
            original.apply(action)
            assert copied.to_json() == before and copied.history == history and copied == kept, (here, how)
