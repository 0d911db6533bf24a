"""Random games: termination, card counts, JSON round trips, clones, errors leave the state unchanged."""

import copy
import json
import pickle
import random

import numpy as np
import pytest

from brass import reference as ref

ROUNDS = {2: 10, 3: 9, 4: 8}


def random_game(players, seed, on_decision=None, bias=0.8):
    """Play a seeded random game; `bias` prefers actions other than pass and loans (busier boards)."""
    game = ref.Game("lancashire", players=players)
    state = game.new_state(seed)
    rng = random.Random(seed * 1009 + players)
    while not state.is_terminal:
        legal = state.legal_actions()
        if on_decision:
            on_decision(state, legal)
        busy = [a for a in legal if not game.action_name(a).startswith(("pass", "loan"))]
        state.apply(rng.choice(busy if busy and rng.random() < bias else legal))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_game_reaches_the_end(players, seed):
    seen_rounds = set()

    def check(state, legal):
        assert legal, "a live state has legal actions"
        assert legal == sorted(set(legal))
        assert all(0 <= a < state.game.num_actions for a in legal)
        mask = state.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (523,)
        assert list(np.flatnonzero(mask)) == legal
        assert state.current_player in range(players)
        seen_rounds.add((state.era, state.round))

    state = random_game(players, seed, check)
    assert state.is_terminal
    assert state.decision == "over" and state.current_player is None
    assert state.legal_actions() == [] and not state.legal_action_mask().any()
    assert state.winners and set(state.winners) <= set(range(players))
    assert state.era == "rail" and state.round == ROUNDS[players]
    assert seen_rounds == {(e, r) for e in ("canal", "rail") for r in range(1, ROUNDS[players] + 1)}
    assert len(state.scores) == players and all(v >= 0 for v in state.scores)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_is_applicable(players):
    def check(state, legal):
        before = state.to_json()
        for a in legal:
            child = state.clone()
            child.apply(a)
            assert child.history[-1] == a
        assert state.to_json() == before

    random_game(players, 11, check)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [3, 4])
def test_cards_played_per_era(players, seed):
    """L-7, L-8, L-12: 1 + 2(R-1) cards per player in the Canal Era, 2R in the Rail Era."""
    rounds = ROUNDS[players]
    game = ref.Game("lancashire", players=players)
    state = game.new_state(seed)
    rng = random.Random(seed)
    canal_checked = False
    while not state.is_terminal:
        before = state.clone()
        state.apply(rng.choice(state.legal_actions()))
        if before.era == "canal" and state.era == "rail":
            # `before` is the last canal decision: every remaining hand card is about to be played
            assert before.deck_size == 0
            for p in range(players):
                view = before.player(p)
                assert len(view.discards) + len(view.hand) == 1 + 2 * (rounds - 1)
                if p != before.current_player:
                    assert view.hand == []
            canal_checked = True
    assert canal_checked
    for p in range(players):
        assert len(state.player(p).discards) == 2 * rounds
        assert state.player(p).hand == []
    assert state.deck_size == 0


@pytest.mark.parametrize("players", [2, 4])
def test_json_round_trip_at_every_decision(players):
    def check(state, legal):
        text = state.to_json()
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
        loaded = ref.State.from_json(text)
        assert loaded == state
        assert loaded.to_json() == text
        assert loaded.legal_actions() == legal
        assert loaded.current_player == state.current_player
        assert loaded.history == []

    random_game(players, 5, check)


def test_clone_is_independent():
    state = ref.Game("lancashire", players=3).new_state(9)
    rng = random.Random(9)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    text = state.to_json()
    for make in (lambda s: s.clone(), copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))):
        child = make(state)
        assert child == state and child is not state
        assert child.history == state.history
        for _ in range(40):
            child.apply(rng.choice(child.legal_actions()))
        assert state.to_json() == text
        assert child != state


def test_replay_and_pickle_keep_the_record():
    state = random_game(3, 8)
    again = ref.replay(state.record())
    assert again == state and again.history == state.history
    rec = json.loads(state.record())
    assert rec["format"] == "brass-record/1" and rec["seed"] == 8 and rec["actions"] == state.history
    assert rec["game"] == {"name": "lancashire", "players": 3, "options": {}, "data": "lancashire/1"}
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled.record() == state.record()


def test_record_of_a_loaded_state_uses_start():
    state = ref.Game("lancashire", players=2).new_state(4)
    rng = random.Random(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    loaded = ref.State.from_json(state.to_json())
    for _ in range(30):
        loaded.apply(rng.choice(loaded.legal_actions()))
    rec = json.loads(loaded.record())
    assert "seed" not in rec and rec["start"] == json.loads(state.to_json())
    assert ref.replay(loaded.record()) == loaded


def assert_rejected(state, action, error):
    before = state.to_json()
    history = state.history
    with pytest.raises(error):
        state.apply(action)
    assert state.to_json() == before
    assert state.history == history


@pytest.mark.parametrize("players", [2, 3, 4])
def test_illegal_ids_and_bad_notation_change_nothing(players):
    def check(state, legal):
        illegal = [a for a in range(0, 523, 7) if a not in legal][:3]
        for a in illegal:
            assert_rejected(state, a, ref.IllegalActionError)
            assert_rejected(state, state.game.action_name(a), ref.IllegalActionError)
        for bad in (-1, 523, 2**70):
            assert_rejected(state, bad, ref.IllegalActionError)
        for bad in (True, False, 1.5, None, b"pass", [0]):
            assert_rejected(state, bad, ref.ArgumentTypeError)
        for text in ("", "dance", "build cotton_mill nowhere/1", "loan 15"):
            assert_rejected(state, text, ref.NotationError)

    random_game(players, 21, check)


def test_apply_accepts_notation():
    state = ref.Game("lancashire", players=4).new_state(1)
    twin = state.clone()
    a = state.legal_actions()[0]
    state.apply(state.game.action_name(a).upper())
    twin.apply(a)
    assert state == twin and state.history == [a]


def test_applying_after_the_end_is_illegal():
    state = random_game(2, 6)
    assert_rejected(state, state.game.parse_action("pass"), ref.IllegalActionError)
