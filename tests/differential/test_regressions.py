"""Regression tests for divergences the differential tests found outside game records (docs/verification.md).

Divergences in play are kept as golden vectors (tests/vectors/divergence_*.json). These were in the notation
parser, which a game record (a list of ids) cannot hold, so each is pinned here on both engines (`engine`).
"""

from __future__ import annotations

import json

import pytest

PASS = 430  # `pass` (docs/actions.md id layout, Lancashire)


def assert_notation_error_changes_nothing(engine, text):
    """`text` is a NotationError for `parse_action` and for `apply`, and the state is unchanged."""
    game = engine.Game("lancashire", players=2)
    with pytest.raises(engine.NotationError):
        game.parse_action(text)
    state = game.new_state(seed=1)
    before = state.to_json()
    with pytest.raises(engine.NotationError):
        state.apply(text)
    assert state.to_json() == before


@pytest.mark.parametrize("text", ["pass\x1f", "\x1cpass", "pass\x1dpass", "link\x1ebolton-manchester", "\x1f"])
def test_ascii_separators_are_not_white_space(engine, text):
    """Divergence 1: the reference split notation with Python's str.split(), which also splits at U+001C..U+001F;
    Rust's split_whitespace uses Unicode White_Space, which does not contain them. Fixed in the reference."""
    assert_notation_error_changes_nothing(engine, text)


@pytest.mark.parametrize("text", ["pass\xa0", "\u3000pass", "pass\x85", "\tPASS\r\n", "pass\u2003\u2003"])
def test_unicode_white_space_is_white_space(engine, text):
    assert engine.Game("lancashire", players=2).parse_action(text) == PASS


@pytest.mark.parametrize("pad", [196, 197, 300])
def test_notation_longer_than_200_bytes_is_rejected(engine, pad):
    """Divergence 2: the Rust parser rejects text over 200 bytes (UTF-8) before reading it; the reference
    collapsed the white space and accepted `" " * 300 + "pass"`. The reference now has the same limit."""
    game = engine.Game("lancashire", players=2)
    text = " " * pad + "pass"
    if len(text.encode()) <= 200:
        assert game.parse_action(text) == PASS
    else:
        with pytest.raises(engine.NotationError):
            game.parse_action(text)
    with pytest.raises(engine.NotationError):
        game.parse_action("é" * 99 + "pass")  # 202 bytes, 103 characters


@pytest.mark.parametrize("text", ["pass\ud800", "\udfff", "link bolton-manchester\udc80"])
def test_a_lone_surrogate_is_a_notation_error(engine, text):
    """Divergence 3: the PyO3 binding converted the str to UTF-8 before parsing and raised UnicodeEncodeError
    (not a BrassError) for a lone surrogate, where the reference raised NotationError. docs/api.md "Arguments and errors":
    every error a user can cause is a BrassError. Fixed in rust/brass-py (commit b69c285)."""
    assert_notation_error_changes_nothing(engine, text)


@pytest.mark.parametrize(
    ("field", "value", "accepted"),
    [
        ("vp", 100_000, True),
        ("vp", 100_001, False),
        ("vp", 2**64, False),
        ("money", 100_000, True),
        ("money", 100_001, False),
        ("money", 2**63, False),
        ("money_spent", 100_000, True),
        ("money_spent", 100_001, False),
    ],
)
def test_loader_bounds_on_player_counters(engine, field, value, accepted):
    """Divergence 4 (found by the edited-state loading test): the Rust loader bounds money to -1000..=100000 and
    money_spent / vp to 0..=100000; the reference accepted any integer (vp 2**64 loaded). The reference now has
    the same bounds; no game comes near them."""
    game = engine.Game("lancashire", players=2)
    obj = json.loads(game.new_state(seed=3).to_json())
    obj["players"][0][field] = value
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    if accepted:
        assert json.loads(engine.State.from_json(text).to_json())["players"][0][field] == value
    else:
        with pytest.raises(engine.InvalidStateError):
            engine.State.from_json(text)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("birmingham", "build cotton_mill belper/1 double"),
        ("birmingham", "build manufacturer birmingham/2 double"),
        ("birmingham", "build brewery farm_south/1 double"),
        ("birmingham", "sell birmingham/1 distant"),
        ("birmingham", "loan 10"),
        ("birmingham", "build port lancaster/1"),
        ("lancashire", "scout"),
        ("lancashire", "beer wigan/1"),
        ("lancashire", "sell bolton/1 oxford/1"),
        ("lancashire", "card wild_location"),
    ],
)
def test_a_notation_of_another_game_is_a_notation_error(engine, game, text):
    """Birmingham divergence B3 (docs/verification.md, found by tests/reference/test_ref_birmingham.py): the native
    parser read `build … double` in Birmingham, which has no BUILD_DOUBLE block, as the id of another action (the
    build's id plus the BUILD block's length: a link or a sale). Fixed in the native engine (7621fce). The random
    probes draw notation from the game's own names, so they never write another game's notation."""
    state = engine.Game(game, players=4).new_state(seed=2)
    before = state.to_json()
    with pytest.raises(engine.NotationError):
        state.game.parse_action(text)
    with pytest.raises(engine.NotationError):
        state.apply(text)
    assert state.to_json() == before
