"""Differential tests: the Rust engine (`brass`) and the reference (`brass.reference`) agree decision by decision.

Hypothesis draws a seed, a player count and a playing style, then at every decision an index into the legal
actions (`st.data()`); after every decision both engines must agree on the canonical state JSON, the sorted legal
actions and the derived properties (differential_harness.Pair.check). At drawn intervals an illegal id, an id out of
range, a value of the wrong type or bad notation is tried on both: the same exception class, no change.
Profiles and figures: tests/differential/conftest.py, docs/verification.md.
"""

from __future__ import annotations

import json
import pickle

import pytest
from differential_harness import (
    BIRMINGHAM,
    BIRMINGHAM_GAMES_PER_PLAYER_COUNT,
    COMPARABLE_CONFIGS,
    MIN_BIRMINGHAM_GAMES_PER_PLAYER_COUNT,
    MIN_GAMES_PER_CONFIGURATION,
    MIN_GAMES_PER_PLAYER_COUNT,
    NEW_CONFIGS,
    SEEDS,
    STATS,
    STYLE,
    Pair,
    dumps,
    edit_state,
    loaders_agree,
    play,
    probe,
    rust_refuses,
    style_for,
)
from hypothesis import given, settings, target
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import brass
from brass import reference

EXAMPLES = settings.default.max_examples
PROBE_EVERY = st.sampled_from([0, 5, 17, 41])  # an illegal input every n decisions (0: none)
# Games per configuration of docs/classic.md: about a quarter of the profile's (24 in brass-ci, 204 in brass-long),
# which keeps the CI run within its time (docs/verification.md).
CONFIG_EXAMPLES = max(24, EXAMPLES // 4 + 4)


@st.composite
def configurations(draw):
    """A configuration the Rust engine plays (default Lancashire first, so it shrinks there) and a player count."""
    cfg = draw(st.sampled_from(COMPARABLE_CONFIGS), label="configuration")
    return cfg, draw(st.sampled_from(cfg.players), label="players")


# --- 1. Whole games, decision by decision ---------------------------------------------------------------------

MAIN = "games agree"


@pytest.mark.parametrize("players", [2, 3, 4])
@given(data=st.data())
def test_random_games_agree_decision_by_decision(players, data):
    seed = data.draw(SEEDS, label="seed")
    style = data.draw(STYLE, label="style")
    probe_every = data.draw(PROBE_EVERY, label="probe every")
    test = f"{MAIN} {players}p"
    STATS.game_started(test)
    pair = Pair(players, seed, test=test)
    assert play(data, pair, style, probe_every)
    assert pair.rust.decision == "over" and pair.rust.winners
    target(float(pair.rare), label="rarer rule paths taken")  # steer generation toward them
    STATS.game_done(test, players)


# --- 1a. Whole games of Brass: Birmingham (docs/birmingham.md) --------------------------------------------------

BIRMINGHAM_TEST = "games agree birmingham"
BIRMINGHAM_EXAMPLES = BIRMINGHAM_GAMES_PER_PLAYER_COUNT.get(settings.get_current_profile_name(), 30)


@pytest.mark.skipif(bool(rust_refuses(BIRMINGHAM)), reason=str(rust_refuses(BIRMINGHAM)))
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=BIRMINGHAM_EXAMPLES)
@given(data=st.data())
def test_birmingham_games_agree_decision_by_decision(players, data):
    """Whole games of Brass: Birmingham at each player count (the introductory game is a configuration test below),
    with the same checks and styles as the Lancashire main test."""
    seed = data.draw(SEEDS, label="seed")
    style = data.draw(style_for(BIRMINGHAM), label="style")
    probe_every = data.draw(PROBE_EVERY, label="probe every")
    test = f"{BIRMINGHAM_TEST} {players}p"
    STATS.game_started(test)
    pair = Pair(players, seed, test=test, config=BIRMINGHAM)
    assert play(data, pair, style, probe_every)
    assert pair.rust.decision == "over" and pair.rust.winners
    target(float(pair.rare), label="rarer rule paths taken")
    STATS.game_done(test, players, BIRMINGHAM)


# --- 1b. Whole games of every other configuration (docs/classic.md) ---------------------------------------------

CONFIG_TEST = "games agree"


def config_test(cfg):
    """The test of one configuration: parametrized over its player counts, CONFIG_EXAMPLES games in all (shared
    evenly, so each count gets its share even when Hypothesis is derandomized); skipped with the reason while the
    Rust engine refuses the configuration."""
    refused = rust_refuses(cfg)

    @pytest.mark.skipif(bool(refused), reason=str(refused))
    @pytest.mark.parametrize("players", cfg.players)
    @settings(max_examples=-(-CONFIG_EXAMPLES // len(cfg.players)))
    @given(data=st.data())
    def test(players, data):
        seed = data.draw(SEEDS, label="seed")
        style = data.draw(style_for(cfg), label="style")
        probe_every = data.draw(PROBE_EVERY, label="probe every")
        test = f"{CONFIG_TEST} {cfg.label}"
        STATS.game_started(test)
        pair = Pair(players, seed, test=test, config=cfg)
        assert play(data, pair, style, probe_every)
        assert pair.rust.decision == "over" and pair.rust.winners
        if cfg.name == "brass":
            assert len(pair.rust.winners) == 1  # C-15: always one winner
        target(float(pair.rare), label="rarer rule paths taken")
        STATS.game_done(test, players, cfg)

    name = cfg.name + ("_" + "_".join(k for k, _ in cfg.options) if cfg.options else "")
    if len(cfg.players) == 1:
        name += f"_{cfg.players[0]}p"
    test.__name__ = test.__qualname__ = f"test_{name}_games_agree_decision_by_decision"
    test.__doc__ = f"Whole games of {cfg.label} (docs/classic.md), compared decision by decision."
    return test


for _cfg in NEW_CONFIGS:
    _test = config_test(_cfg)
    globals()[_test.__name__] = _test
del _cfg, _test


# --- 2. Cross-loading: a state exported by one engine continues identically in the other ----------------------

CROSS = "cross-loading"


@settings(max_examples=max(10, EXAMPLES // 4))
@given(data=st.data())
def test_a_state_exported_by_one_engine_continues_identically_in_the_other(data):
    cfg, players = data.draw(configurations())
    seed = data.draw(SEEDS, label="seed")
    style = data.draw(STYLE, label="style")
    stop = data.draw(st.integers(0, 320), label="export after")
    STATS.game_started(CROSS)
    first = Pair(players, seed, test=CROSS, config=cfg)
    play(data, first, style, max_decisions=stop)
    text = first.rust.to_json()
    obj = json.loads(text)

    # Each engine loads the other's export (any decision: action, coal, iron, card, remove, link, …).
    rust_from_ref = brass.State.from_json(first.ref.to_json())
    ref_from_rust = reference.State.from_json(text)
    STATS.cross_loads += 2
    assert rust_from_ref.to_json() == text and ref_from_rust.to_json() == text
    # Pair A: the original Rust state with a reference state loaded from it; pair B the other way round.
    a = Pair(players, rust=first.rust, ref=ref_from_rust, start=obj, test=CROSS + " A", config=cfg)
    b = Pair(players, rust=rust_from_ref, ref=first.ref, start=obj, test=CROSS + " B", config=cfg)
    b_rust_start = rust_from_ref.clone()
    play(data, a, style)
    for aid in a.actions:  # the same decisions, in the other pair
        b.apply(aid)
    assert b.rust.to_json() == a.rust.to_json() and b.over

    # Records of loaded states start from the loaded position; each engine replays the other's.
    for loaded in (ref_from_rust, rust_from_ref):
        rec = json.loads(loaded.record())
        assert "seed" not in rec and rec["start"] == obj and rec["actions"] == a.actions
    final = a.rust.to_json()
    assert brass.replay(ref_from_rust.record()).to_json() == final
    assert reference.replay(rust_from_ref.record()).to_json() == final
    # The whole game from the seed, replayed by each engine from the other's record.
    assert brass.replay(first.ref.record()).to_json() == final
    assert reference.replay(first.rust.record()).to_json() == final
    assert b_rust_start.to_json() == text  # a clone taken before is untouched
    STATS.game_done(CROSS, players, cfg)


@settings(max_examples=max(10, EXAMPLES // 4))
@given(data=st.data())
def test_edited_states_are_loaded_alike_or_rejected_alike(data):
    """Cross-loading of invalid input: one-field edits of a reachable state (values, neighbours of integers,
    missing and unknown keys); both loaders accept with the same result, or both raise InvalidStateError."""
    cfg, players = data.draw(configurations())
    pair = Pair(players, data.draw(SEEDS, label="seed"), test="edited states", config=cfg)
    play(data, pair, data.draw(STYLE, label="style"), max_decisions=data.draw(st.integers(0, 320), label="stop"))
    text = pair.rust.to_json()
    for _ in range(25):
        if loaders_agree(pair, edit_state(data, text)):
            STATS.events["edited state loaded alike"] += 1


# --- 3. The same as a state machine: decisions, stretches, probes, swaps, clones, pickles -----------------------

MACHINE = "state machine"


class DifferentialMachine(RuleBasedStateMachine):
    """Steps interleave decisions with illegal inputs, engine swaps (a state replaced by one loaded from the
    other engine's JSON), clones and pickle copies; every step ends with both engines agreeing."""

    def new_game(self, configuration, seed, style):
        cfg, players = configuration
        self.style = style
        self.pair = Pair(players, seed, test=MACHINE, config=cfg)
        STATS.game_started(MACHINE)
        self.counted = False

    def count(self):
        if self.pair.over and not self.counted:
            self.counted = True
            STATS.game_done(MACHINE, self.pair.players, self.pair.config)

    @initialize(configuration=configurations(), seed=SEEDS, style=STYLE)
    def start(self, configuration, seed, style):
        self.new_game(configuration, seed, style)

    @precondition(lambda self: not self.pair.over)
    @rule(data=st.data())
    def decide(self, data):
        play(data, self.pair, self.style, max_decisions=1)
        self.count()

    @precondition(lambda self: not self.pair.over)
    @rule(data=st.data(), n=st.integers(1, 80))
    def stretch(self, data, n):
        play(data, self.pair, self.style, max_decisions=n)
        self.count()

    @rule(data=st.data())
    def illegal_input(self, data):
        probe(data, self.pair)

    @rule(into=st.sampled_from(["rust", "reference"]))
    def load_from_the_other_engine(self, into):
        STATS.cross_loads += 1
        if into == "rust":
            self.pair.attach(rust=brass.State.from_json(self.pair.ref.to_json()))
        else:
            self.pair.attach(ref=reference.State.from_json(self.pair.rust.to_json()))

    @rule(data=st.data())
    def load_an_edited_state(self, data):
        """A one-field edit of the current state: both loaders accept it alike or reject it alike."""
        if loaders_agree(self.pair, edit_state(data, self.pair.rust.to_json())):
            STATS.events["edited state loaded alike"] += 1

    @rule(how=st.sampled_from(["clone", "pickle"]))
    def copy_both(self, how):
        copy = (lambda s: s.clone()) if how == "clone" else (lambda s: pickle.loads(pickle.dumps(s)))
        old = (self.pair.rust.to_json(), self.pair.ref.to_json())
        self.pair.attach(rust=copy(self.pair.rust), ref=copy(self.pair.ref))
        assert (self.pair.rust.to_json(), self.pair.ref.to_json()) == old

    @precondition(lambda self: self.pair.over)
    @rule(configuration=configurations(), seed=SEEDS, style=STYLE)
    def next_game(self, configuration, seed, style):
        self.new_game(configuration, seed, style)

    @invariant()
    def engines_agree(self):
        self.pair.check()


TestDifferentialMachine = DifferentialMachine.TestCase
TestDifferentialMachine.settings = settings(max_examples=max(5, EXAMPLES // 8))


# --- 4. The count of complete games is part of the result -------------------------------------------------------


def test_zz_enough_complete_games_were_compared():
    """When the main test (Lancashire), the Birmingham test or a configuration test ran in this session, it compared
    at least the profile's minimum of complete games (the CI log shows the figures in the `differential:` summary
    lines)."""
    profile = settings.get_current_profile_name()
    minimum = MIN_GAMES_PER_PLAYER_COUNT.get(profile)
    if minimum is None or not any(STATS.started.values()):
        pytest.skip(f"no differential game test ran under a brass profile ({profile!r}) in this session")
    for p in (2, 3, 4):
        if STATS.started[f"{MAIN} {p}p"]:
            assert STATS.tests[f"{MAIN} {p}p"] >= minimum, (p, STATS.tests, minimum)
    per_config = MIN_GAMES_PER_CONFIGURATION[profile]
    for cfg in NEW_CONFIGS:
        test = f"{CONFIG_TEST} {cfg.label}"
        if STATS.started[test]:
            assert STATS.tests[test] >= per_config, (cfg.label, STATS.tests, per_config)
    per_count = MIN_BIRMINGHAM_GAMES_PER_PLAYER_COUNT[profile]
    for p in (2, 3, 4):
        test = f"{BIRMINGHAM_TEST} {p}p"
        if STATS.started[test]:
            assert STATS.tests[test] >= per_count, (test, STATS.tests, per_count)
    print(dumps(dict(STATS.games)))
