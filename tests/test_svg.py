"""brass.svg: SVG pictures of positions, drawn from the state JSON of either engine."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest

import brass
import brass.reference
import brass.svg

SVG = "{http://www.w3.org/2000/svg}"
CONFIGS = [("lancashire", 4), ("lancashire", 2), ("brass", 3)]
ENGINES = {"rust": brass, "reference": brass.reference}


def data() -> dict:
    with open(brass.svg.DATA_DIR / "lancashire.json", encoding="utf-8") as f:
        return json.load(f)


def parse(text: str) -> ET.Element:
    assert text.startswith("<svg")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def find(root: ET.Element, **attrs: str) -> list[ET.Element]:
    """Elements whose attributes (`data_line` for `data-line`) have the given values."""
    wanted = {key.replace("_", "-"): value for key, value in attrs.items()}
    return [el for el in root.iter() if all(el.get(k) == v for k, v in wanted.items())]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{SVG}text")]


def play_both(name: str, players: int, seed: int, stop=lambda obj: False, limit: int = 10_000):
    """The same random legal moves in both engines (same seed) until `stop(state JSON object)` or the end."""
    fast = brass.Game(name, players=players).new_state(seed=seed)
    slow = brass.reference.Game(name, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if fast.is_terminal() or stop(json.loads(fast.to_json())):
            break
        action = rng.choice(fast.legal_actions())
        fast.apply(action)
        slow.apply(action)
    assert fast.to_json() == slow.to_json()
    return fast, slow


def test_every_location_has_a_position_on_the_map():
    d = data()
    ids = {loc["id"] for loc in d["locations"]}
    assert ids <= set(brass.svg.POSITIONS)
    assert ids <= set(brass.svg.LAT_LON)
    for line in d["lines"]:
        assert set(line["ends"]) <= ids
    for x, y in brass.svg.POSITIONS.values():
        assert 0 < x < brass.svg.MAP_WIDTH and 45 < y < brass.svg.HEIGHT
    # Roughly geographic: Scotland north of Lancaster, Yorkshire east of Manchester, the Midlands south.
    pos = brass.svg.POSITIONS
    assert pos["scotland"][1] < pos["lancaster"][1] < pos["preston"][1] < pos["manchester"][1]
    assert pos["the_midlands"][1] > pos["macclesfield"][1] > pos["manchester"][1]
    assert pos["yorkshire"][0] > pos["rochdale"][0] > pos["wigan"][0] > pos["liverpool"][0]
    assert len(set(pos.values())) == len(pos)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_fresh_game_is_valid_svg(engine, name, players):
    state = engine.Game(name, players=players).new_state(seed=1)
    root = parse(brass.svg.board(state))
    title = find(root, **{"class": "title"})
    assert len(title) == 1 and title[0].get("data-game") == name
    assert texts(title[0])[0].endswith(f"{players} players")
    d = data()
    # Every location, space and line is drawn, all spaces empty, no links.
    assert {el.get("data-location") for el in root.iter() if el.get("data-location")} == {
        loc["id"] for loc in d["locations"]
    }
    spaces = [el for el in root.iter() if el.get("data-space")]
    assert len(spaces) == sum(len(loc["spaces"]) for loc in d["locations"])
    assert all(el.get("class") == "space empty" for el in spaces)
    assert len(find(root, **{"class": "line"})) == len(d["lines"])
    assert not find(root, **{"class": "link"})
    # Escaped text comes back intact.
    assert "Warrington & Runcorn" in texts(root)
    # One row per player, income level from the income track's start space.
    rows = [el for el in root.iter() if el.get("data-player") and "player" in (el.get("class") or "")]
    assert len(rows) == players
    start_level = d["income_track"]["levels"][d["income_track"]["start_space"]]
    assert all(int(row.get("data-income-level")) == start_level for row in rows)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@pytest.mark.parametrize("seed", [3, 11])
def test_random_positions_give_the_same_svg_in_both_engines(name, players, seed):
    moves = random.Random(seed).randrange(20, 160)
    count = iter(range(moves))
    fast, slow = play_both(name, players, seed, stop=lambda obj: next(count, None) is None)
    text = brass.svg.board(fast)
    parse(text)
    assert text == brass.svg.board(slow)
    # A JSON text or object draws the same picture.
    assert text == brass.svg.board(fast.to_json()) == brass.svg.board(json.loads(slow.to_json()))


def test_placed_link_and_built_tile_are_drawn_in_the_owners_colour():
    fast, slow = play_both("lancashire", 4, 5, stop=lambda obj: bool(obj["board"]) and bool(obj["links"]))
    obj = json.loads(fast.to_json())
    assert obj["board"] and obj["links"]
    root = parse(brass.svg.board(slow))
    d = data()
    names = {loc["id"]: loc["name"] for loc in d["locations"]}

    for line, owner in obj["links"].items():
        colour = brass.svg.PLAYER_COLOURS[owner]
        (link,) = find(root, data_line=line)
        assert link.get("class") == "link" and link.get("data-owner") == str(owner)
        assert colour in [el.get("stroke") for el in link.iter(f"{SVG}line")]
    unbuilt = [f"{a}-{b}" for a, b in (line["ends"] for line in d["lines"]) if f"{a}-{b}" not in obj["links"]]
    for line in unbuilt:
        (el,) = find(root, data_line=line)
        assert el.get("class") == "line"

    for space, tile in obj["board"].items():
        colour = brass.svg.PLAYER_COLOURS[tile["owner"]]
        (el,) = find(root, data_space=space)
        assert el.get("class") == "space tile"
        assert el.get("data-owner") == str(tile["owner"])
        assert el.get("data-industry") == tile["industry"]
        assert el.get("data-level") == str(tile["level"])
        assert el.get("data-flipped") == str(tile["flipped"]).lower()
        assert el.get("data-cubes") == str(tile["cubes"])
        assert colour in [r.get("stroke") for r in el.iter(f"{SVG}rect")]
        letter = brass.svg.INDUSTRY_LETTERS[tile["industry"]]
        assert f"{letter}{tile['level']}" in texts(el)
        location = space.split("/")[0]
        (box,) = find(root, data_location=location)
        assert names[location] in texts(box)
        assert el in list(box.iter())


def test_panel_shows_players_markets_and_deck():
    fast, _ = play_both("lancashire", 3, 8, stop=lambda obj: obj["round"] >= 3)
    obj = json.loads(fast.to_json())
    root = parse(brass.svg.board(fast))
    levels = data()["income_track"]["levels"]
    for p, player in enumerate(obj["players"]):
        (row,) = [el for el in find(root, data_player=str(p)) if "player" in el.get("class", "").split()]
        assert int(row.get("data-money")) == player["money"]
        assert int(row.get("data-vp")) == player["vp"]
        assert int(row.get("data-income-level")) == levels[player["income_space"]]
        assert row.get("data-colour") == brass.svg.PLAYER_COLOURS[p]
        assert str(sum(player["hand"].values())) in texts(row)
        assert str(player["links_left"]) in texts(row)
    (current,) = find(root, **{"class": "player current"})
    assert current.get("data-player") == str(fast.current_player)
    (coal,) = find(root, **{"class": "market coal"})
    assert coal.get("data-cubes") == str(obj["coal_market"])
    (iron,) = find(root, **{"class": "market iron"})
    assert iron.get("data-cubes") == str(obj["iron_market"])
    (dcm,) = find(root, **{"class": "dcm"})
    assert dcm.get("data-marker") == str(obj["dcm"]["marker"])
    (deck,) = find(root, **{"class": "deck"})
    assert deck.get("data-deck") == str(len(obj["deck"])) == str(fast.deck_size)
    (era,) = find(root, **{"class": "era"})
    assert era.get("data-era") == obj["era"]
    assert f"round {obj['round']}" in texts(era)[0]


def test_the_player_to_decide_comes_from_the_engine():
    decisions = set()
    for seed in range(2):
        state = brass.Game("lancashire", players=4).new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            decisions.add(state.decision)
            if state.decision in ("remove", "over") or rng.random() < 0.02:
                root = parse(brass.svg.board(state))
                current = find(root, **{"class": "player current"})
                assert [el.get("data-player") for el in current] == (
                    [] if state.current_player is None else [str(state.current_player)])
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert {"action", "over"} <= decisions
    root = parse(brass.svg.board(state))
    (turn,) = find(root, **{"class": "turn"})
    assert turn.get("data-decision") == "over" and "game over" in texts(turn)[0]


@pytest.mark.parametrize("bad", [42, None, b"{}", ["state"]])
def test_wrong_input_types_raise_argument_type_error(bad):
    with pytest.raises(brass.ArgumentTypeError):
        brass.svg.board(bad)


@pytest.mark.parametrize("bad", ["not json", "{}", json.dumps({"format": "brass-state/1"})])
def test_invalid_states_raise_invalid_state_error(bad):
    with pytest.raises(brass.InvalidStateError):
        brass.svg.board(bad)


def test_a_json_object_is_validated_too():
    obj = json.loads(brass.Game("lancashire", players=2).new_state(seed=1).to_json())
    assert brass.svg.board(obj) == brass.svg.board(json.dumps(obj))
    obj["coal_market"] = 9
    with pytest.raises(brass.InvalidStateError):
        brass.svg.board(obj)


def test_save_and_jupyter(tmp_path):
    state = brass.Game("lancashire", players=4, virtual_link=True).new_state(seed=4)
    path = tmp_path / "board.svg"
    brass.svg.save(state, path)
    assert path.read_text(encoding="utf-8") == brass.svg.board(state)
    picture = brass.svg.Board(state)
    assert picture._repr_svg_() == brass.svg.board(state) == str(picture)
    root = parse(picture._repr_svg_())
    assert find(root, **{"class": "virtual-link"})
    assert "virtual_link" in texts(find(root, **{"class": "title"})[0])[0]


def test_states_of_both_engines_show_themselves_as_svg_in_jupyter():
    """`State._repr_svg_` is `brass.svg.board(state)` in both engines (DESIGN.md: pictures)."""
    import brass
    from brass import reference

    for module in (brass, reference):
        state = module.Game("lancashire", players=3).new_state(seed=4)
        assert state._repr_svg_() == brass.svg.board(state)


@pytest.mark.parametrize("game,players,options,rounds", [("lancashire", 3, {}, 9), ("brass", 3, {}, 10),
                                                           ("lancashire", 3, {"classic_deck": True}, 10)])
def test_the_round_count_is_the_configuration_s(game, players, options, rounds):
    """The panel's "round r of n" uses `Game.rounds_per_era` (L-7, C-2, L-56)."""
    state = brass.Game(game, players=players, **options).new_state(seed=2)
    assert state.game.rounds_per_era == brass.reference.Game(game, players=players, **options).rounds_per_era
    (era,) = find(parse(brass.svg.board(state)), **{"class": "era"})
    assert texts(era)[0].endswith(f"round 1 of {rounds}")
