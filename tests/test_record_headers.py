"""Records carry optional headers like PGN's tags (issue 21, item 7): both engines write and accept them,
refuse a header that is not a string, and replay the game unchanged; `brass play --out` writes them and the
viewer shows them."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import brass
from brass import reference, viewer
from brass.cli import main

HEADERS = {"event": "club night", "date": "2026-12-01", "player_0": "Ann", "player_1": "greedy"}


def _played(engine: Any) -> Any:
    state = engine.Game("birmingham", players=2).new_state(seed=9)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("notation", [False, True])
def test_both_engines_write_the_same_headers_and_replay_them(notation: bool) -> None:
    native, ref = _played(brass).record(notation, HEADERS), _played(reference).record(notation, HEADERS)
    assert native == ref and json.loads(native)["headers"] == HEADERS
    for replay in (brass.replay, reference.replay):
        assert replay(native).history == _played(brass).history
    assert _played(brass).record(notation, {}) == _played(brass).record(notation)  # no empty headers written


@pytest.mark.parametrize("replay", [brass.replay, reference.replay])
@pytest.mark.parametrize(("headers", "said"), [({"a": 2}, "record.headers.a: expected a string"), ([], "headers")])
def test_a_header_that_is_not_a_string_is_refused(replay: Any, headers: object, said: str) -> None:
    record = json.loads(_played(brass).record())
    record["headers"] = headers
    with pytest.raises(brass.InvalidStateError, match=said):
        replay(json.dumps(record))


@pytest.mark.parametrize("engine", [brass, reference])
def test_record_refuses_headers_of_the_wrong_type(engine: Any) -> None:
    with pytest.raises(brass.ArgumentTypeError, match="headers must be a dict of str"):
        _played(engine).record(headers={"event": 1})


def test_play_writes_headers_that_the_viewer_shows(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    out = tmp_path / "g.json"
    assert main(["play", "--players", "2", "--agents", "greedy", "--seed", "3", "--out", str(out)]) == 0
    headers = json.loads(out.read_text())["headers"]
    assert headers["event"] == "brass play" and headers["engine"] == f"brass {brass.__version__}"
    assert headers["player_0"] == "you" and headers["player_1"] == "greedy"
    page = viewer.render_html(out.read_text())
    assert "0: you, 1: greedy · brass play" in page
