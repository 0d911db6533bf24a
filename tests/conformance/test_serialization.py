"""At sampled positions of random games: JSON, pickle and game records give the same state back."""

from __future__ import annotations

import json
import pickle
import random

from .support import budget, positions, sampled_games


def where(config, played, step) -> str:
    return f"{config.id} seed {played.seed} decision {step}"


def same_position(a, b, here: str) -> None:
    assert a == b, here
    assert a.to_json() == b.to_json(), here
    assert a.game == b.game and a.legal_actions() == b.legal_actions(), here
    assert a.current_player == b.current_player and a.is_terminal == b.is_terminal, here
    assert a.scores == b.scores and a.winners == b.winners and a.returns == b.returns, here


def test_json_round_trip(engine, config):
    for played, step, state in positions(engine, config):
        here = where(config, played, step)
        text = state.to_json()
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")), f"{here}: not canonical"
        for given in (text, text.encode(), json.loads(text)):
            loaded = engine.State.from_json(given)
            same_position(loaded, state, f"{here} ({type(given).__name__})")
        assert loaded.history == []
        legal = state.legal_actions()
        if legal:  # the loaded state plays on like the original
            action = random.Random(step).choice(legal)
            assert loaded.child(action) == state.child(action), here


def test_pickle_round_trip(engine, config):
    for played, step, state in positions(engine, config):
        here = where(config, played, step)
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            loaded = pickle.loads(pickle.dumps(state, protocol=protocol))
            same_position(loaded, state, f"{here} (protocol {protocol})")
            assert loaded.history == state.history and loaded.record() == state.record(), here
        assert pickle.loads(pickle.dumps(played.game)) == played.game
        # A state loaded from JSON pickles with its starting position.
        start = engine.State.from_json(state.to_json())
        assert pickle.loads(pickle.dumps(start)).record() == start.record(), here


def replayed_positions(engine, config):
    """The sampled positions whose records are replayed: `budget.replays` of each sampled game (all when None),
    evenly spread, and always its final position."""
    out = []
    replays = budget(engine).replays
    for played in sampled_games(engine, config):
        picks = played.positions[:-1]
        count = len(picks) if replays is None else min(replays, len(picks))
        chosen = [picks[round(i * (len(picks) - 1) / max(count - 1, 1))] for i in range(count)] if count else []
        out += [(played, step, state) for step, state in {id(p): p for p in chosen}.values()]
        out.append((played, *played.positions[-1]))
    return out


def test_record_replays_to_an_equal_state(engine, config):
    for played, step, state in replayed_positions(engine, config):
        here = where(config, played, step)
        record = state.record()
        obj = json.loads(record)
        assert obj["actions"] == state.history == played.actions[:step], here
        assert obj["seed"] == played.seed and obj["game"] == json.loads(state.to_json())["game"], here
        again = engine.replay(record)
        same_position(again, state, here)
        assert again.history == state.history, here

        moves = state.record(notation=True)
        obj = json.loads(moves)
        assert obj["moves"] == [played.game.action_name(a) for a in state.history], here
        again = engine.replay(moves)
        same_position(again, state, f"{here} (notation)")
        assert again.history == state.history, here


def test_record_of_a_state_loaded_from_json_replays(engine, config):
    for played, step, state in replayed_positions(engine, config):
        here = where(config, played, step)
        loaded = engine.State.from_json(state.to_json())
        rng = random.Random(step)
        for _ in range(3):  # a few decisions after the starting position
            if loaded.is_terminal:
                break
            loaded.apply(rng.choice(loaded.legal_actions()))
        for record in (loaded.record(), loaded.record(notation=True)):
            again = engine.replay(record)
            same_position(again, loaded, here)
            assert again.history == loaded.history, here
        for given in (loaded.record().encode(), json.loads(loaded.record())):
            same_position(engine.replay(given), loaded, f"{here} ({type(given).__name__})")
