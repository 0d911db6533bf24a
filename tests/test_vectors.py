"""Golden vectors (tests/vectors/*.json, docs/verification.md) replayed by both engines via the `engine` fixture.

Each vector is a game record on which the engines agreed decision by decision (random complete games, and one
per divergence the differential tests found, kept after the fix). Every action must be legal, the number of
legal actions before each action must match and the final canonical state must equal the vector's. The same
files are replayed by `cargo test` (rust/brass-core/tests/vectors.rs); tests/vectors/make_vectors.py writes them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*.json"))
DOCS = Path(__file__).parent.parent / "docs"
# Rule ids the vectors may cite: those of docs/rules.md, docs/classic.md (classic Brass and the options) and
# docs/birmingham.md (B-…).
RULE_IDS = {
    rule
    for doc in ("rules.md", "classic.md", "birmingham.md")
    for rule in re.findall(r"\b([BCLR]-\d+)\b", (DOCS / doc).read_text())
}


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def start(engine, record: dict):
    game = record["game"]
    if "seed" in record:
        return engine.Game(game["name"], players=game["players"], **game["options"]).new_state(seed=record["seed"])
    return engine.State.from_json(json.dumps(record["start"]))


def test_the_vector_set_has_complete_random_games_at_every_player_count():
    seeded = [load(p) for p in VECTORS if p.name.startswith("random_")]
    players = {
        v["record"]["game"]["players"]
        for v in seeded
        if "seed" in v["record"] and v["record"]["game"]["name"] == "lancashire" and not v["record"]["game"]["options"]
    }
    assert players == {2, 3, 4}
    assert all(v["final_state"]["decision"] == "over" for v in seeded)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_is_well_formed(path):
    vec = load(path)
    assert list(vec) == ["description", "rule_ids", "record", "legal_counts", "final_state"]
    assert vec["description"] and vec["rule_ids"]
    assert set(vec["rule_ids"]) <= RULE_IDS, "rule ids are those of docs/rules.md, classic.md and birmingham.md"
    assert vec["record"]["format"] == "brass-record/1"
    assert len(vec["legal_counts"]) == len(vec["record"]["actions"])


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_replays_decision_by_decision(engine, path):
    vec = load(path)
    record = vec["record"]
    state = start(engine, record)
    for i, (action, count) in enumerate(zip(record["actions"], vec["legal_counts"], strict=True)):
        legal = state.legal_actions()
        assert len(legal) == count, f"number of legal actions before action {i}"
        assert action in legal, f"action {i} ({state.game.action_name(action)}) is legal"
        state.apply(action)
    assert json.loads(state.to_json()) == vec["final_state"]
    assert state.to_json() == json.dumps(vec["final_state"], sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_record_replays_with_replay(engine, path):
    vec = load(path)
    final = engine.replay(json.dumps(vec["record"]))
    assert json.loads(final.to_json()) == vec["final_state"]
    assert final.history == vec["record"]["actions"]
