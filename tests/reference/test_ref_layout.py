"""The reference engine's layout (docs/reference-notes.md "Layout"): facts read from the data file, lines with more
than two ends, and the one dispatch point to the game module (`Rules.game`), shown by a game without the
Lancashire sections that plays on the shared code alone."""

from __future__ import annotations

import copy
import json
import random

import pytest

from brass._errors import InvalidStateError
from brass.reference import _birmingham, _catalog, _games, _lancashire
from brass.reference._actions import ActionSpace
from brass.reference._data import DATA_DIR, GameData
from brass.reference._games import GAME_MODULES
from brass.reference._json import dumps, from_obj, to_obj
from brass.reference._legal import first_link_price, legal_actions, loan_problem, second_link_price
from brass.reference._network import distances, network
from brass.reference._resolve import apply_decision
from brass.reference._rules import Rules
from brass.reference._scoring import score_links
from brass.reference._setup import new_position
from brass.reference._turns import current_player


def lancashire_raw() -> dict:
    return json.loads((DATA_DIR / "lancashire.json").read_text(encoding="utf-8"))


def rules_from(raw: dict, name: str = "lancashire", players: int = 3, **options: bool) -> Rules:
    """A configuration on edited data (not cached, unlike `_games.rules`)."""
    return Rules(GameData(raw), name, players, options, GAME_MODULES[_catalog.family(name)])


def play(data: Rules, seed: int, rng: random.Random) -> dict:
    """A random game on the internal API, checking the JSON round trip at every decision; the final position."""
    acts = ActionSpace(data)
    pos = new_position(data, seed)
    while pos["decision"] != "over":
        text = dumps(to_obj(data, data.players, data.options, pos))
        assert dumps(to_obj(data, data.players, data.options, from_obj(data, data.players, json.loads(text)))) == text
        legal = legal_actions(data, acts, pos)
        assert legal, pos["decision"]
        apply_decision(data, acts, pos, rng.choice(legal))
    return pos


def test_industry_roles_come_from_the_data():
    data = GameData(lancashire_raw())
    assert data.produces == {"coal_mine": "coal", "iron_works": "iron"}
    assert data.sold == ["cotton_mill"]
    assert data.port_industries == ["port"]
    assert data.flips_when_built == ["shipyard"]


def test_link_costs_and_loans_come_from_the_data():
    raw = lancashire_raw()
    raw["link_costs"] = {"canal": 4, "rail": 6, "second_rail": 11}
    raw["loans"] = {"amounts": [30], "lowest_income_level": -2}
    data = rules_from(raw)
    pos = new_position(data, 1)
    assert first_link_price(data, pos) == 4
    assert second_link_price(data) == 11
    pos["era"] = "rail"
    assert first_link_price(data, pos) == 6
    assert [name for name in ActionSpace(data).names if name.startswith("loan")] == ["loan 30"]
    assert "below -2 (L-45)" in loan_problem(data, new_position(data, 1), 0, 30)


def test_a_line_with_three_ends_joins_all_of_them():
    raw = lancashire_raw()
    line = next(i for i, line in enumerate(raw["lines"]) if line["ends"] == ["lancaster", "preston"])
    raw["lines"][line]["ends"] = ["lancaster", "preston", "fleetwood"]
    data = rules_from(raw)
    assert data.lines[line].name == "lancaster-preston"
    assert data.lines[line].ends == ("lancaster", "preston", "fleetwood")
    pos = new_position(data, 1)
    pos["links"] = {line: 0}
    pos["players"][0]["links_left"] -= 1
    assert network(data, pos, 0) == {"lancaster", "preston", "fleetwood"}
    assert distances(data, pos, ["fleetwood"]) == {"fleetwood": 0, "lancaster": 1, "preston": 1}
    assert distances(data, pos, ["lancaster"]) == {"lancaster": 0, "preston": 1, "fleetwood": 1}
    # L-49 over every end: Fleetwood, Lancaster and Preston print no link icon; a flipped tile in each counts once.
    for space in ("fleetwood/1", "lancaster/1", "preston/1"):
        index = data.space_by_name[space]
        industry = data.spaces[index].icons[0]
        pos["board"][index] = {"owner": 1, "industry": industry, "level": 2, "flipped": True, "cubes": 0}
    score_links(data, pos)
    assert pos["players"][0]["vp"] == 3


def test_games_play_with_a_line_of_three_ends():
    raw = lancashire_raw()
    line = next(i for i, line in enumerate(raw["lines"]) if line["ends"] == ["wigan", "warrington_runcorn"])
    raw["lines"][line]["ends"] = ["wigan", "warrington_runcorn", "liverpool"]
    rng = random.Random(5)
    for players in (2, 4):
        pos = play(rules_from(raw, players=players), seed=players, rng=rng)
        assert pos["decision"] == "over"


def test_every_family_of_the_catalog_has_a_game_module():
    assert {_catalog.family(name) for name in _catalog.names()} <= set(GAME_MODULES)
    assert isinstance(_games.rules("brass", 3, {}).game, _lancashire.Lancashire)
    assert _games.rules("brass", 3, {}).game.classic
    assert not _games.rules("lancashire", 3, {}).game.classic
    assert isinstance(_games.rules("birmingham", 2, {}).game, _birmingham.Birmingham)


def test_the_id_blocks_a_game_does_not_have_are_empty():
    """docs/actions.md, docs/birmingham.md: Lancashire has no SCOUT and no BEER ids (523 ids, unchanged);
    Birmingham has no BUILD_DOUBLE ids, and SCOUT sits between LOAN and PASS, BEER between IRON and STOP."""
    lancashire = ActionSpace(_games.rules("lancashire", 4, {}))
    assert len(lancashire) == 523
    assert not [n for n in lancashire.names if n.split()[0] in ("scout", "beer")]
    birmingham = ActionSpace(_games.rules("birmingham", 4, {}))
    kinds = [n.split()[0] for n in birmingham.names]
    assert len(birmingham) == 569 and not [n for n in birmingham.names if n.endswith("double")]
    blocks = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
    assert blocks == [
        *("build", "link", "develop", "sell", "loan", "scout", "pass"),
        *("coal", "iron", "beer", "stop", "card", "remove"),
    ]
    assert birmingham.names[kinds.index("beer") :][:1] == ["beer derby/1"]
    assert [n for n in birmingham.names if n.startswith("beer ")][-9:] == [
        f"beer {m.name}" for m in _games.rules("birmingham", 4, {}).game.merchants
    ]


class WithoutLancashireSections(_lancashire.Lancashire):
    """A game on the Lancashire map with no Distant Cotton Market and no deck tile: ports are the only sale
    targets and its state has no section of its own. It stands for a second game module: if the shared code read
    `dcm` or `deck_tile` itself, these games would fail."""

    state_keys = frozenset()

    def sale_targets(self):
        return [target for target in super().sale_targets() if target[0] is not None]

    def set_aside(self, pos, deck):
        return deck

    def start_era(self, pos, rng):
        pass

    def open_sale_targets(self, pos):
        return [target for target in super().open_sale_targets(pos) if target is not None]

    def sale_problem(self, pos, player, mill, target):
        assert target is not None
        return super().sale_problem(pos, player, mill, target)

    def loan_period_problem(self, pos):
        return None

    def write_sections(self, pos):
        return {}

    def read_sections(self, obj, pos):
        pass

    def copy_sections(self, pos, copy):
        pass

    def held_cards(self, pos):
        return []

    def check_held_cards(self, pos):
        pass


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_module_without_the_lancashire_sections_plays_on_the_shared_code(monkeypatch, players):
    monkeypatch.setitem(GAME_MODULES, "lancashire", WithoutLancashireSections)
    data = rules_from(lancashire_raw(), players=players)
    acts = ActionSpace(data)
    assert len(acts) == 523 - 24  # one SELL id fewer per cotton mill space: no distant sale
    rng = random.Random(players)
    pos = play(data, seed=players, rng=rng)
    assert "dcm" not in pos and "deck_tile" not in pos
    assert not {"dcm", "deck_tile"} & set(to_obj(data, players, {}, pos))
    assert current_player(data, pos) is None


def test_the_lancashire_sections_are_written_by_the_game_module():
    data = _games.rules("lancashire", 4, {})
    pos = new_position(data, 9)
    obj = to_obj(data, 4, {}, pos)
    assert {"dcm", "deck_tile"} <= set(obj)
    edited = copy.deepcopy(obj)
    del edited["dcm"]
    with pytest.raises(InvalidStateError, match="lacks the key 'dcm'"):
        from_obj(data, 4, edited)
