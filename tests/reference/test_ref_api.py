"""Configuration, setup, views and state validation of the reference engine."""

import json

import pytest

from brass import reference as ref
from brass._rng import SplitMix64


def test_exception_classes_are_the_shared_ones():
    import brass._errors as errors

    for name in ("BrassError", "ConfigError", "IllegalActionError", "InvalidStateError", "NotationError"):
        assert getattr(ref, name) is getattr(errors, name)
    assert issubclass(ref.BrassError, ValueError)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(name="monopoly", players=4),
        dict(name="brass", players=2),
        dict(name="brass", players=5),
        dict(name="brass", players=4, intro=True),
        dict(name="brass", players=4, virtual_link=False),
        dict(name="lancashire", players=1),
        dict(name="lancashire", players=5),
        dict(name="lancashire", players=4, intro=1),
        dict(name="lancashire", players=4, turbo=True),
        dict(name="lancashire", players=2, classic_deck=True),
        dict(name="lancashire", players=2, variant="community-2p"),
        dict(name="lancashire", players=2, variant=True),
    ],
)
def test_bad_configuration(kwargs):
    with pytest.raises(ref.ConfigError):
        ref.Game(**kwargs)


def test_config_error_names_what_is_allowed():
    with pytest.raises(ref.ConfigError, match="lancashire"):
        ref.Game("monopoly", players=3)
    with pytest.raises(ref.ConfigError, match="2, 3 or 4 players"):
        ref.Game("lancashire", players=7)
    with pytest.raises(ref.ConfigError, match="3 or 4 players"):
        ref.Game("brass", players=2)
    with pytest.raises(ref.ConfigError, match="lines are not known"):
        ref.Game("lancashire", players=2, variant="community-2p")


def test_games_and_options():
    assert {name: info["players"] for name, info in ref.games().items()} == {
        "birmingham": [2, 3, 4],
        "brass": [3, 4],
        "lancashire": [2, 3, 4],
    }
    game = ref.Game("lancashire", players=3, intro=True, virtual_link=False, classic_deck=True)
    assert game.options == {"classic_deck": True, "intro": True}
    assert game == ref.Game("lancashire", players=3, classic_deck=True, intro=True)
    assert repr(game) == "Game('lancashire', players=3, classic_deck=True, intro=True)"
    assert ref.Game("lancashire", players=3, intro=False) == ref.Game("lancashire", players=3)


@pytest.mark.parametrize(
    "kwargs", [dict(name="lancashire", players="4"), dict(name="lancashire", players=True), dict(name=None, players=4)]
)
def test_arguments_of_the_wrong_type(kwargs):
    with pytest.raises(ref.ArgumentTypeError):
        ref.Game(**kwargs)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_bad_seed(seed):
    with pytest.raises(ref.ConfigError, match="0 <= seed < 2\\*\\*64"):
        ref.Game("lancashire", players=2).new_state(seed)


@pytest.mark.parametrize("seed", [1.0, "1", True])  # None: a fresh seed (test_seeds_and_undo.py)
def test_seed_of_the_wrong_type(seed):
    with pytest.raises(ref.ArgumentTypeError, match="seed"):
        ref.Game("lancashire", players=2).new_state(seed)


def test_game_equality_and_repr():
    a, b, c = (ref.Game("lancashire", players=n) for n in (4, 4, 3))
    assert a == b and a != c and hash(a) == hash(b)
    assert a.name == "lancashire" and a.players == 4 and a.options == {}
    assert repr(a) == "Game('lancashire', players=4)"


def test_seeds():
    game = ref.Game("lancashire", players=4)
    assert game.new_state() != game.new_state()  # without a seed, a fresh deal each time
    assert game.new_state(5) == game.new_state(5)
    assert game.new_state(5) != game.new_state(6)
    game.new_state(2**64 - 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_follows_the_documented_rng_order(players):
    """docs/state-format.md setup steps 1-4 (L-2 … L-6)."""
    data = json.loads((ref._data.DATA_DIR / "lancashire.json").read_text(encoding="utf-8"))
    deck = [k for k in data["card_kinds"] for _ in range(data["decks"][str(players)].get(k, 0))]
    rng = SplitMix64(123)
    rng.shuffle(deck)
    under, deck = deck[-players:], deck[:-players]
    hands = [deck[8 * p : 8 * p + 8] for p in range(players)]
    deck = deck[8 * players :]
    pile = sorted(data["distant_cotton_market"]["tiles"][str(players)])
    rng.shuffle(pile)
    order = list(range(players))
    rng.shuffle(order)

    state = ref.Game("lancashire", players=players).new_state(123)
    obj = json.loads(state.to_json())
    assert obj["deck"] == deck and state.deck_size == len(deck)
    assert sorted(k for k, n in obj["deck_tile"].items() for _ in range(n)) == sorted(under)
    for p in range(players):
        assert sorted(state.player(p).hand) == sorted(hands[p])
        assert state.player(p).hand == sorted(hands[p], key=data["card_kinds"].index)
    assert obj["dcm"] == {"marker": 0, "pile": pile, "discards": []}
    assert state.turn_order == order
    assert obj["rng"] == str(rng.state)


def test_initial_state():
    """L-1, L-5, L-8."""
    state = ref.Game("lancashire", players=4).new_state(3)
    assert (state.era, state.round, state.actions_left, state.decision) == ("canal", 1, 1, "action")
    assert state.current_player == state.turn_order[0]
    assert state.deck_size == 64 - 4 - 32
    for p in range(4):
        view = state.player(p)
        assert (view.money, view.money_spent, view.income_level, view.income_space, view.vp) == (30, 0, 0, 10, 0)
        assert view.mat == {"cotton_mill": 12, "coal_mine": 7, "iron_works": 4, "port": 8, "shipyard": 6}
        assert view.links_left == 14 and len(view.hand) == 8 and view.discards == []
    obj = json.loads(state.to_json())
    assert obj["coal_market"] == 8 and obj["iron_market"] == 8 and obj["board"] == {} and obj["links"] == {}
    assert obj["game"] == {"name": "lancashire", "players": 4, "options": {}, "data": "lancashire/1"}
    with pytest.raises(IndexError):
        state.player(4)


def test_state_cannot_be_constructed_directly():
    with pytest.raises(TypeError):
        ref.State()


def edited(change):
    obj = json.loads(ref.Game("lancashire", players=3).new_state(2).to_json())
    change(obj)
    return json.dumps(obj)


def _set(path, value):
    def change(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    "change, message",
    [
        (_set(["format"], "brass-state/2"), "format"),
        (_set(["game", "name"], "monopoly"), "game.name"),
        (_set(["game", "name"], "brass"), "DCM tiles"),
        (_set(["game", "players"], 5), "game.players"),
        (_set(["game", "options"], {"turbo": True}), "option"),
        (_set(["game", "options"], {"intro": False}), "option"),
        (_set(["game", "options"], {"classic_deck": True}), "deck"),
        (_set(["game", "data"], "lancashire/0"), "game.data"),
        (_set(["rng"], 5), "rng"),
        (_set(["rng"], str(2**64)), "rng"),
        (_set(["rng"], "007"), "rng"),
        (_set(["era"], "bronze"), "era"),
        (_set(["round"], 10), "round"),
        (_set(["round"], 1.0), "round"),
        (_set(["turn_order"], [0, 0, 1]), "turn_order"),
        (_set(["turn"], 4), "turn"),
        (_set(["actions_left"], 2), "actions_left"),
        (_set(["decision"], "think"), "decision"),
        (_set(["decision"], "card"), "action"),
        (_set(["players", 0, "money"], -1), "money"),
        (_set(["players", 0, "money"], True), "money"),
        (_set(["players", 1, "income_space"], 100), "income_space"),
        (_set(["players", 1, "mat", "port"], 9), "mat"),
        (_set(["players", 2, "links_left"], 13), "links_left"),
        (_set(["players", 2, "hand", "joker"], 1), "hand"),
        (_set(["players", 2, "hand", "bolton"], 0), "hand"),
        (_set(["players", 0, "vp"], -1), "vp"),
        (
            _set(
                ["board", "manchester/9"],
                {"owner": 0, "industry": "cotton_mill", "level": 1, "flipped": False, "cubes": 0},
            ),
            "board",
        ),
        (
            _set(
                ["board", "wigan/1"], {"owner": 0, "industry": "cotton_mill", "level": 1, "flipped": False, "cubes": 0}
            ),
            "wigan/1",
        ),
        (
            _set(["board", "wigan/1"], {"owner": 0, "industry": "coal_mine", "level": 1, "flipped": False, "cubes": 2}),
            "left the mat",
        ),
        (
            _set(
                ["board", "liverpool/4"], {"owner": 0, "industry": "shipyard", "level": 0, "flipped": True, "cubes": 0}
            ),
            "level 0",
        ),
        (_set(["links", "bolton-colne"], 0), "links"),
        (_set(["links", "lancaster-scotland"], 0), "not a canal line"),
        (_set(["coal_market"], 9), "coal_market"),
        (_set(["dcm", "marker"], 9), "dcm.marker"),
        (_set(["dcm", "pile"], [0]), "DCM tiles"),
        (_set(["deck"], []), "cards"),
        (_set(["deck_tile"], {}), "cards"),
        (_set(["action"], {"kind": "pass"}), "action"),
    ],
)
def test_from_json_rejects(change, message):
    with pytest.raises(ref.InvalidStateError, match=message):
        ref.State.from_json(edited(change))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "{}", b"{}", b"\xff", {}, '{"format": NaN}'])
def test_from_json_rejects_garbage(text):
    with pytest.raises(ref.InvalidStateError):
        ref.State.from_json(text)


@pytest.mark.parametrize("text", [5, None, ["{}"]])
def test_from_json_of_the_wrong_type(text):
    with pytest.raises(ref.ArgumentTypeError, match="str, bytes or dict"):
        ref.State.from_json(text)


@pytest.mark.parametrize(
    "record",
    [
        "",
        "{}",
        '{"format": "brass-record/1"}',
        '{"format": "brass-record/1", "game": {"name": "lancashire", "players": 2, "options": {}, "data": "lancashire/1"}, "seed": -1, "actions": []}',
        '{"format": "brass-record/1", "game": {"name": "lancashire", "players": 2, "options": {}, "data": "lancashire/1"}, "seed": 1, "actions": [true]}',
        '{"format": "brass-record/1", "game": {"name": "lancashire", "players": 2, "options": {}, "data": "lancashire/1"}, "seed": 1, "start": {}, "actions": []}',
        '{"format": "brass-record/2", "game": {"name": "lancashire", "players": 2, "options": {}, "data": "lancashire/1"}, "seed": 1, "actions": []}',
    ],
)
def test_replay_rejects_malformed_records(record):
    with pytest.raises(ref.InvalidStateError):
        ref.replay(record)


def test_replay_rejects_illegal_ids():
    state = ref.Game("lancashire", players=2).new_state(1)
    rec = json.loads(state.record())
    illegal = next(a for a in range(523) if a not in state.legal_actions())
    rec["actions"] = [illegal]
    with pytest.raises(ref.IllegalActionError):
        ref.replay(json.dumps(rec))
    rec["actions"] = [523]
    with pytest.raises(ref.IllegalActionError):
        ref.replay(json.dumps(rec))


def test_player_view_lists_cards_in_card_kind_order():
    data = json.loads((ref._data.DATA_DIR / "lancashire.json").read_text(encoding="utf-8"))
    state = ref.Game("lancashire", players=4).new_state(8)
    hand = state.player(0).hand
    assert hand == sorted(hand, key=data["card_kinds"].index)
    obj = json.loads(state.to_json())
    assert sum(obj["players"][0]["hand"].values()) == len(hand)


def test_the_reference_has_the_public_surface_of_the_native_engine():
    """Same names on Game and State (docs/api.md); the throughput and search helpers are native only
    (docs/reference-notes.md)."""
    import brass
    from brass import reference

    native_only = {"observation_layout", "observation_size", "observation", "resample_hidden"}
    for native, plain in ((brass.Game, reference.Game), (brass.State, reference.State)):
        public = {n for n in dir(native) if not n.startswith("_")} - native_only
        assert public <= {n for n in dir(plain) if not n.startswith("_")}, native.__name__
    game, ref_game = brass.Game("lancashire", players=4), reference.Game("lancashire", players=4)
    assert (game.spaces, game.lines, game.industries, game.card_kinds) == (
        ref_game.spaces,
        ref_game.lines,
        ref_game.industries,
        ref_game.card_kinds,
    )


def test_a_number_python_will_not_read_is_an_invalid_state_in_both_engines():
    """Python refuses to read an integer of more than 4,300 digits with its own ValueError; both engines turn it
    into InvalidStateError, for a state and for a game record."""
    import brass

    text = ref.Game("lancashire", players=3).new_state(1).to_json()
    assert '"round":1' in text
    huge_round = text.replace('"round":1', '"round":' + "9" * 5000)
    record = json.dumps({"format": "brass-record/1", "game": json.loads(text)["game"], "seed": 7, "actions": []})
    huge_seed = record.replace('"seed": 7', '"seed": ' + "9" * 5000)
    assert huge_seed != record
    for engine in (brass, ref):
        with pytest.raises(engine.InvalidStateError, match="number out of range"):
            engine.State.from_json(huge_round)
        with pytest.raises(engine.InvalidStateError, match="number out of range"):
            engine.replay(huge_seed)


def test_validate_checks_a_state_in_both_engines():
    """`state.validate()` (docs/api.md) on both engines: the states of a game pass, and a state that only the
    native engine's memory could hold (written past the loader) is refused."""
    import brass

    for engine in (brass, ref):
        state = engine.Game("birmingham", players=3).new_state(5)
        for i in range(60):
            assert state.validate() is None
            state.apply(state.legal_actions()[(7 * i) % len(state.legal_actions())])
    # The reference's validate reads the position back through the loader: a state edited past it is refused.
    state = ref.Game("lancashire", players=3).new_state(5)
    state._pos["round"] = 99
    with pytest.raises(ref.InvalidStateError, match="round"):
        state.validate()
