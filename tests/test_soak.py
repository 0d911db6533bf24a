"""Random-play soak of the Rust-backed engine through the Python API (issue: Lancashire engine)."""

from __future__ import annotations

import json
import random

import pytest

import brass

ROUNDS = {2: 10, 3: 9, 4: 8}  # L-7


def _play(game: brass.Game, seed: int, check_every: int = 0) -> brass.State:
    """Play a random game; return the final state. Checks the per-era card counts (L-8, L-12) on the way,
    and clone / JSON round trips at every `check_every`-th decision when asked."""
    chooser = random.Random(seed)
    state = game.new_state(seed=seed)
    n = game.players
    canal_played = None
    step = 0
    while not state.is_terminal:
        if check_every and step % check_every == 0:
            assert state.clone() == state
            text = state.to_json()
            back = brass.State.from_json(text)
            assert back.to_json() == text and back.legal_actions() == state.legal_actions()
        era = state.era
        before = [state.player(p) for p in range(n)]
        ids = state.legal_actions()
        state.apply(chooser.choice(ids))
        step += 1
        if era == "canal" and state.era == "rail":
            # Every card held at the last Canal decision was played (hands end empty, L-12).
            canal_played = [len(v.discards) + len(v.hand) for v in before]
    assert step <= game.max_decisions
    assert canal_played == [1 + 2 * (ROUNDS[n] - 1)] * n
    assert [len(state.player(p).discards) for p in range(n)] == [2 * ROUNDS[n]] * n
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_seeded_random_games_reach_the_end(players: int) -> None:
    game = brass.Game("lancashire", players=players)
    for seed in range(340):
        state = _play(game, seed)
        assert state.decision == "over" and state.legal_actions() == []
        assert state.winners and all(v >= 0 for v in state.scores)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_clone_and_json_round_trip_at_every_decision(players: int) -> None:
    game = brass.Game("lancashire", players=players)
    for seed in range(1000, 1004):
        _play(game, seed, check_every=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_applies_and_illegal_ones_change_nothing(players: int) -> None:
    game = brass.Game("lancashire", players=players)
    chooser = random.Random(players)
    state = game.new_state(seed=77)
    while not state.is_terminal:
        ids = state.legal_actions()
        for a in ids:
            child = state.clone()
            child.apply(a)
        before = state.to_json()
        legal = set(ids)
        for bad in chooser.sample(range(game.num_actions), 8):
            if bad not in legal:
                with pytest.raises(brass.IllegalActionError):
                    state.apply(bad)
                assert state.to_json() == before
        state.apply(chooser.choice(ids))
    assert json.loads(state.to_json())["decision"] == "over"
