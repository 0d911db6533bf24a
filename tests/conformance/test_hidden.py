"""At sampled positions of random games: observations, and the hidden-information rules — a state that
differs only in what player p cannot see (`resample_hidden(p, seed)`) gives p the same observation.

These run on the engines that have observations: the reference engine has none (docs/reference-notes.md);
it gets these tests by itself once `State.observation` exists there."""

from __future__ import annotations

import copy
import importlib
import json
import random
from collections import Counter

import numpy as np
import pytest

import brass

from .support import ENGINE_IDS, ENGINE_NAMES, positions

OBSERVING = [name for name in ENGINE_NAMES if hasattr(importlib.import_module(name).State, "observation")]


@pytest.fixture(params=OBSERVING, ids=[ENGINE_IDS.get(name, name) for name in OBSERVING])
def engine(request: pytest.FixtureRequest):
    return importlib.import_module(request.param)


def where(config, played, step, player) -> str:
    return f"{config.id} seed {played.seed} decision {step} player {player}"


def test_observation_layout_covers_the_observation(engine, config):
    game = config.game(engine)
    offset = 0
    for name, start, length, meaning in game.observation_layout:
        assert start == offset and length > 0 and name and meaning, name
        offset += length
    assert offset == game.observation_size


def test_observations(engine, config):
    for played, step, state in positions(engine, config):
        game = played.game
        for player in range(game.players):
            here = where(config, played, step, player)
            seen = state.observation(player)
            assert isinstance(seen, np.ndarray) and seen.dtype == np.float32, here
            assert seen.shape == (game.observation_size,), here
            assert np.isfinite(seen).all(), here
            assert np.array_equal(state.clone().observation(player), seen), here
            assert np.array_equal(state.observation(np.int64(player)), seen), here
    state = positions(engine, config)[0][2]
    for bad in (-1, config.players):
        with pytest.raises(brass.PlayerIndexError):
            state.observation(bad)
        with pytest.raises(brass.PlayerIndexError):
            state.resample_hidden(bad, 0)
    for bad in (True, 0.0, None, "0"):
        with pytest.raises(brass.ArgumentTypeError):
            state.observation(bad)


def public_view(obj: dict, player: int) -> dict:
    """The state JSON with what `player` cannot see reduced to what they can: other hands and the cards under
    the deck tile or removed unseen (face down) to their sizes, the draw pile to its size, the DCM pile to its
    tiles in sorted order (the set of tiles is public, their order is not), the RNG left out. Everything else
    (board, links, markets, merchants, discards, money, the action under way, ...) is public."""
    view = copy.deepcopy(obj)
    view.pop("rng", None)
    for p, seat in enumerate(view["players"]):
        if p != player:
            seat["hand"] = sum(seat["hand"].values())
    view["deck"] = len(view["deck"])
    for key in ("deck_tile", "removed"):
        if key in view:
            view[key] = sum(view[key].values())
    if view.get("dcm"):  # a game with a Distant Cotton Market
        view["dcm"]["pile"] = sorted(view["dcm"]["pile"])
    return view


def hidden_cards(obj: dict, player: int) -> Counter:
    """Every card `player` cannot see: the other hands, the draw pile, under the deck tile, removed unseen."""
    cards = Counter(obj["deck"])
    for p, seat in enumerate(obj["players"]):
        if p != player:
            cards.update(seat["hand"])
    for key in ("deck_tile", "removed"):
        cards.update(obj.get(key, {}))
    return +cards


def resampled(engine, config):
    """(here, player, seed, state, resampled state) for every sampled position, every player and two seeds;
    checks on the way that resampling leaves the state as it was and is determined by the seed."""
    for played, step, state in positions(engine, config):
        before = state.to_json()
        for player in range(played.game.players):
            for seed in (step, 2**64 - 1 - step):
                here = f"{where(config, played, step, player)}: resample_hidden({player}, {seed})"
                other = state.resample_hidden(player, seed)
                assert state.to_json() == before, f"{here} changed the state"
                assert other.to_json() == state.resample_hidden(player, seed).to_json(), f"{here}: not by the seed"
                yield here, player, seed, state, other


def test_resample_hidden_keeps_what_the_player_knows(engine, config):
    for here, player, _, state, other in resampled(engine, config):
        assert other.game == state.game, here
        assert np.array_equal(other.observation(player), state.observation(player)), f"{here}: observation changed"
        obj, new = json.loads(state.to_json()), json.loads(other.to_json())
        assert new["players"][player]["hand"] == obj["players"][player]["hand"], here
        assert other.player(player).hand == state.player(player).hand, here
        assert [p["discards"] for p in new["players"]] == [p["discards"] for p in obj["players"]], here
        assert new["board"] == obj["board"] and new["links"] == obj["links"], here
        assert (new["coal_market"], new["iron_market"]) == (obj["coal_market"], obj["iron_market"]), here
        if obj.get("dcm"):
            assert (new["dcm"]["marker"], new["dcm"]["discards"]) == (obj["dcm"]["marker"], obj["dcm"]["discards"]), (
                here
            )
        assert public_view(new, player) == public_view(obj, player), f"{here}: a public part changed"
        assert hidden_cards(new, player) == hidden_cards(obj, player), f"{here}: the hidden cards changed"
        if player == state.current_player:  # what the player may do depends only on what they know
            assert other.legal_actions() == state.legal_actions(), here


def test_resample_hidden_gives_a_valid_state(engine, config):
    for here, _, seed, state, other in resampled(engine, config):
        try:
            other.validate()
            engine.State.from_json(other.to_json())
        except brass.InvalidStateError as e:
            # The record replays to the position: brass.replay(record).resample_hidden(player, seed).
            raise AssertionError(f"{here} gave an invalid state: {e}; record {state.record(notation=True)}") from e
        legal = other.legal_actions()
        if legal:  # the resampled state plays on
            action = random.Random(seed).choice(legal)
            try:
                after = other.child(action)
            except brass.BrassError as e:
                raise AssertionError(f"{here}, then action {action}: {type(e).__name__}: {e}") from e
            after.validate()
