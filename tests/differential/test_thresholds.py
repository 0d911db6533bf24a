"""Legal actions at the money and market thresholds (docs/performance.md, "Issue 23: where it stands").

The Rust listing decides whole groups of candidates at once: an industry's undeveloped build spaces (only the
Canal Era limit, L-25, and the coal of the location's component, L-16 and L-17, differ between them), the links
(in the Canal Era the money alone, L-35; a rail's cost and market coal once, L-36), a tile's sale targets, the
develops. The reference engine checks one candidate at a time from the rules. Here, at every eighth decision of
one random game per configuration, the player to move is given each of £0, £3, … £39 with the coal and iron
markets as they are, empty, and holding one cube each, where market purchases decide what is affordable (L-19):
both engines must load the edited state alike (or refuse it alike) and list the same legal actions.
"""

from __future__ import annotations

import json
import random

import pytest

import brass
from brass import reference

CONFIGURATIONS = [
    ("lancashire", 2),
    ("lancashire", 3),
    ("lancashire", 4),
    ("brass", 3),
    ("brass", 4),
    ("birmingham", 2),
    ("birmingham", 3),
    ("birmingham", 4),
]


def load(engine, text: str):
    """The state `text` in `engine` (brass or brass.reference), or the error it refused it with."""
    try:
        return engine.State.from_json(text), None
    except brass.BrassError as e:
        return None, f"{type(e).__name__}: {e}"


@pytest.mark.parametrize(("name", "players"), CONFIGURATIONS)
def test_l19_legal_actions_agree_at_money_and_market_thresholds(name: str, players: int) -> None:
    game = brass.Game(name, players=players)
    choose = random.Random(f"{name}/{players}")
    state = game.new_state(seed=players + 7)
    compared = refused = decision = 0
    while not state.is_terminal:
        if decision % 8 == 0:
            position = state.to_json()
            mover = state.current_player
            as_is = json.loads(position)
            markets = sorted({(as_is["coal_market"], as_is["iron_market"]), (0, 0), (1, 1)})
            for coal, iron in markets:
                for money in range(0, 40, 3):
                    edited = json.loads(position)
                    edited["players"][mover]["money"] = money
                    edited["coal_market"], edited["iron_market"] = coal, iron
                    text = json.dumps(edited)
                    rust, rust_error = load(brass, text)
                    ref, ref_error = load(reference, text)
                    where = f"{name} {players}p, decision {decision}, £{money}, markets {coal}/{iron}"
                    assert (rust is None) == (ref is None), f"{where}: {rust_error} / {ref_error}"
                    if rust is None:
                        refused += 1
                        continue
                    assert rust.legal_actions() == ref.legal_actions(), where
                    compared += 1
        state.apply(choose.choice(state.legal_actions()))
        decision += 1
    # Refusals are edits the state format forbids (a shortfall's `remove` decision without the debt).
    assert compared > 500 and refused < compared, (compared, refused)
