"""brass.svg: SVG pictures of positions, drawn from the state JSON of either engine."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import brass
import brass.reference
import brass.svg
from brass.svg import _layout as svg_layout  # where names go, the map's projection (private to the pictures)

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
        if fast.is_terminal or stop(json.loads(fast.to_json())):
            break
        action = rng.choice(fast.legal_actions())
        fast.apply(action)
        slow.apply(action)
    assert fast.to_json() == slow.to_json()
    return fast, slow


def positions() -> dict[str, tuple[int, int]]:
    return brass.svg.picture("lancashire").positions


def test_every_location_has_a_position_on_the_map():
    d = data()
    ids = {loc["id"] for loc in d["locations"]}
    assert ids <= set(positions())
    assert ids <= set(d["picture"]["lat_lon"])
    for line in d["lines"]:
        assert set(line["ends"]) <= ids
    for x, y in positions().values():
        assert 0 < x < brass.svg.MAP_WIDTH and 45 < y < brass.svg.HEIGHT
    # Roughly geographic: Scotland north of Lancaster, Yorkshire east of Manchester, the Midlands south.
    pos = positions()
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


@pytest.mark.parametrize(("name", "players"), [*CONFIGS, ("birmingham", 2), ("birmingham", 4)])
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
        letter = d["picture"]["letters"][tile["industry"]]
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
                    [] if state.current_player is None else [str(state.current_player)]
                )
            if state.is_terminal:
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
    """`State._repr_svg_` is `brass.svg.board(state)` in both engines (docs/api.md, "Text, pictures, copies")."""
    import brass
    from brass import reference

    for module in (brass, reference):
        state = module.Game("lancashire", players=3).new_state(seed=4)
        assert state._repr_svg_() == brass.svg.board(state)


@pytest.mark.parametrize(
    "game,players,options,rounds",
    [("lancashire", 3, {}, 9), ("brass", 3, {}, 10), ("lancashire", 3, {"classic_deck": True}, 10)],
)
def test_the_round_count_is_the_configuration_s(game, players, options, rounds):
    """The panel's "round r of n" uses `Game.rounds_per_era` (L-7, C-2, L-56)."""
    state = brass.Game(game, players=players, **options).new_state(seed=2)
    assert state.game.rounds_per_era == brass.reference.Game(game, players=players, **options).rounds_per_era
    (era,) = find(parse(brass.svg.board(state)), **{"class": "era"})
    assert texts(era)[0].endswith(f"round 1 of {rounds}")


# --- Tile values, name placement, the scored-links overlay --------------------------------------------------


def tile_row(industry: str, level: int) -> dict:
    (row,) = [row for row in data()["tiles"][industry] if row["level"] == level]
    return row


@pytest.mark.parametrize(("name", "players", "seed"), [("lancashire", 4, 5), ("brass", 3, 2)])
def test_tiles_show_their_vp_and_income(name, players, seed):
    """Each tile shows the VP it scores when flipped (bottom left) and its income spaces (bottom right); classic
    Brass scores a level-1 cotton mill 3 VP (R-11)."""
    fast, _ = play_both(name, players, seed, stop=lambda obj: len(obj["board"]) >= 6)
    obj = json.loads(fast.to_json())
    assert len(obj["board"]) >= 6
    root = parse(brass.svg.board(fast))
    for space, tile in obj["board"].items():
        (el,) = find(root, data_space=space)
        row = tile_row(tile["industry"], tile["level"])
        vp = row.get("vp_classic", row["vp"]) if name == "brass" else row["vp"]
        assert el.get("data-vp") == str(vp) and el.get("data-income") == str(row["income"])
        (vp_text,) = [t for t in el.iter(f"{SVG}text") if t.get("class") == "tile-vp"]
        (income_text,) = [t for t in el.iter(f"{SVG}text") if t.get("class") == "tile-income"]
        assert vp_text.text == str(vp)
        assert income_text.text == (f"+{row['income']}" if row["income"] > 0 else str(row["income"]))
        # Inside the tile, below the label.
        x, y = float(el.find(f"{SVG}rect").get("x")), float(el.find(f"{SVG}rect").get("y"))
        for t in (vp_text, income_text):
            assert x <= float(t.get("x")) <= x + brass.svg.SPACE and y + 18 <= float(t.get("y")) <= y + brass.svg.SPACE
    assert any(t.get("class") == "tile-vp" for t in root.iter(f"{SVG}text"))
    legend = " ".join(texts(find(root, **{"class": "legend"})[0]))
    assert "VP when flipped" in legend and "income spaces" in legend


def test_a_classic_level_one_cotton_mill_shows_3_vp():
    def has_mill(obj):
        return any(t["industry"] == "cotton_mill" and t["level"] == 1 for t in obj["board"].values())

    fast, _ = play_both("brass", 3, 4, stop=has_mill)
    obj = json.loads(fast.to_json())
    (space, _) = next((s, t) for s, t in obj["board"].items() if t["industry"] == "cotton_mill" and t["level"] == 1)
    (el,) = find(parse(brass.svg.board(fast)), data_space=space)
    assert el.get("data-vp") == "3" and tile_row("cotton_mill", 1)["vp"] == 5


def _segments(obj_game: dict) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    pos = positions()
    segments = [(pos[a], pos[b]) for a, b in (line["ends"] for line in data()["lines"])]
    if obj_game["name"] == "brass" or obj_game["options"].get("virtual_link"):
        segments.append((pos["liverpool"], pos["birkenhead"]))
    return segments


@pytest.mark.parametrize(
    ("name", "players", "options"), [("lancashire", 4, {}), ("lancashire", 3, {"virtual_link": True}), ("brass", 4, {})]
)
def test_location_names_are_clear_of_lines_boxes_and_each_other(name, players, options):
    """Every name sits where no line of the map passes (with the widest stroke's margin), off every location box
    and every other name, on a halo of the map colour (text extents estimated as brass.svg does)."""
    state = brass.Game(name, players=players, **options).new_state(seed=1)
    obj = json.loads(state.to_json())
    root = parse(brass.svg.board(state))
    boxes = {loc["id"]: svg_layout.location_rect(loc, positions()) for loc in data()["locations"]}
    names = []
    for group in root.iter(f"{SVG}g"):
        lid = group.get("data-location")
        if lid is None or group.get("class") == "location external":
            continue
        (label,) = [t for t in group.iter(f"{SVG}text") if t.get("class") == "name"]
        assert label.get("paint-order") == "stroke" and label.get("stroke") == brass.svg.MAP_COLOUR
        weight = "bold" if label.get("font-weight") == "bold" else "normal"
        width = svg_layout.CHAR_WIDTH[weight] * len(label.text)
        rect = svg_layout.text_rect(float(label.get("x")), float(label.get("y")), label.get("text-anchor"), width)
        m = svg_layout.LINE_MARGIN
        wide = (rect[0] - m, rect[1] - m, rect[2] + m, rect[3] + m)
        crossing = [s for s in _segments(obj["game"]) if svg_layout.crosses(*s, wide)]
        assert not crossing, (lid, crossing)
        assert not [other for other, box in boxes.items() if other != lid and svg_layout.overlaps(rect, box)], lid
        assert not svg_layout.overlaps(rect, boxes[lid]), lid
        assert rect[0] > 0 and rect[2] < brass.svg.MAP_WIDTH and rect[1] > 45 and rect[3] < brass.svg.HEIGHT
        names.append((lid, rect))
    assert len(names) == sum(1 for loc in data()["locations"] if not loc.get("trade_icon"))
    for i, (a, ra) in enumerate(names):
        for b, rb in names[i + 1 :]:
            assert not svg_layout.overlaps(ra, rb), (a, b)


def _last_move_of_a_game(seed: int) -> tuple[brass.State, brass.State]:
    state = brass.Game("lancashire", players=3).new_state(seed=seed)
    rng = random.Random(seed)
    before = state
    while state.decision != "over":
        before = state.clone()
        state.apply(rng.choice(state.legal_actions()))
    return before, state


def test_scored_links_are_drawn_over_a_final_position():
    """Links are removed when an era is scored: `scored_links` draws those of the position before the last
    move over the final position, dashed in the owner's colour, under the locations; the default picture is
    unchanged."""
    before, final = _last_move_of_a_game(6)
    assert before.links and not final.links
    plain = brass.svg.board(final)
    assert plain == brass.svg.board(final, scored_links=None)
    assert 'class="scored-link' not in plain and "scored and removed" not in plain
    root = parse(brass.svg.board(final, scored_links=before.links))
    drawn = [el for el in root.iter() if el.get("class") == "scored-link"]
    assert {el.get("data-line"): int(el.get("data-owner")) for el in drawn} == before.links
    for el in drawn:
        colour = brass.svg.PLAYER_COLOURS[int(el.get("data-owner"))]
        assert colour in [line.get("stroke") for line in el.iter(f"{SVG}line")]
        assert any(line.get("stroke-dasharray") for line in el.iter(f"{SVG}line"))
    layers = [el.get("class") for el in root if el.tag == f"{SVG}g"]
    assert layers.index("lines") < layers.index("scored-links") < layers.index("locations")
    assert not find(root, **{"class": "link"})
    assert "link scored and removed at the end of the era" in texts(find(root, **{"class": "legend"})[0])
    assert parse(brass.svg.board(final, scored_links={})).iter()  # an empty overlay is fine


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (["bolton-manchester"], brass.ArgumentTypeError),
        ({"bolton-nowhere": 0}, brass.InvalidStateError),
        ({"lancaster-preston": "0"}, brass.ArgumentTypeError),
        ({"lancaster-preston": True}, brass.ArgumentTypeError),
        ({"lancaster-preston": 3}, brass.InvalidStateError),
    ],
)
def test_bad_scored_links_raise_brass_errors(bad, error):
    state = brass.Game("lancashire", players=3).new_state(seed=1)
    with pytest.raises(error):
        brass.svg.board(state, scored_links=bad)


# --- Driven by the catalog and the data -----------------------------------------------------------------------


def catalog_file() -> dict:
    with open(brass.svg.DATA_DIR / "games.json", encoding="utf-8") as f:
        return {entry["name"]: entry for entry in json.load(f)["games"]}


def has_picture(name: str) -> bool:
    with open(brass.svg.DATA_DIR / f"{catalog_file()[name]['data']}.json", encoding="utf-8") as f:
        return "picture" in json.load(f)


@pytest.mark.parametrize("name", sorted(brass.games()))
def test_every_registered_game_is_drawn_or_refused_with_a_config_error(name):
    """A game of the catalog is drawn when its data file has a `picture` section, with its catalog title; a
    game without one raises ConfigError naming the missing section."""
    entry = brass.games()[name]
    state = brass.Game(name, players=entry["players"][0]).new_state(seed=1)
    if not has_picture(name):
        with pytest.raises(brass.ConfigError, match="picture"):
            brass.svg.board(state)
        with pytest.raises(brass.ConfigError, match="picture"):
            brass.svg.picture(name)
        return
    root = parse(brass.svg.board(state))
    (title,) = find(root, **{"class": "title"})
    assert texts(title)[0] == f"{entry['title']} — {entry['players'][0]} players"
    assert brass.svg.GAME_TITLES[name] == entry["title"]
    pic = brass.svg.picture(name)
    with open(brass.svg.DATA_DIR / f"{catalog_file()[name]['data']}.json", encoding="utf-8") as f:
        game_data = json.load(f)
    assert set(pic.positions) == {loc["id"] for loc in game_data["locations"]}
    assert pic.letters == game_data["picture"].get("letters", {})


def test_the_title_names_the_options():
    state = brass.Game("lancashire", players=3, intro=True, virtual_link=True).new_state(seed=1)
    (title,) = find(parse(brass.svg.board(state)), **{"class": "title"})
    assert texts(title)[0] == f"{brass.games()['lancashire']['title']} — 3 players (intro, virtual_link)"


@pytest.fixture
def fresh_pictures():
    """Forget the pictures read so far, before and after the test (which may change what is read)."""
    svg_layout.picture_of.cache_clear()
    svg_layout.label_places.cache_clear()
    yield
    svg_layout.picture_of.cache_clear()
    svg_layout.label_places.cache_clear()


def test_a_data_file_without_a_picture_section_raises_config_error(monkeypatch, fresh_pictures):
    stripped = {key: value for key, value in data().items() if key != "picture"}
    monkeypatch.setattr(svg_layout, "data_file", lambda name: stripped)
    state = brass.Game("lancashire", players=2).new_state(seed=1)
    with pytest.raises(
        brass.ConfigError,
        match=r"no picture of brass, lancashire: its data file lancashire\.json has no `picture` section",
    ):
        brass.svg.board(state)
    with pytest.raises(brass.ConfigError, match="`picture` section"):
        brass.svg.picture("brass")


def test_a_location_missing_from_the_picture_raises_config_error(monkeypatch, fresh_pictures):
    d = data()
    del d["picture"]["lat_lon"]["bolton"]
    monkeypatch.setattr(svg_layout, "data_file", lambda name: d)
    with pytest.raises(brass.ConfigError, match="no lat_lon for `bolton`"):
        brass.svg.board(brass.Game("lancashire", players=2).new_state(seed=1))


def test_a_malformed_picture_raises_config_error(monkeypatch, fresh_pictures):
    d = data()
    d["picture"]["projection"] = {"north": "far"}
    monkeypatch.setattr(svg_layout, "data_file", lambda name: d)
    with pytest.raises(brass.ConfigError, match="malformed"):
        brass.svg.picture("lancashire")


def test_an_unknown_game_has_no_picture():
    with pytest.raises(brass.ConfigError, match="unknown game"):
        brass.svg.picture("monopoly")


def test_the_picture_section_is_what_tools_make_data_writes():
    """tools/make_data.py regenerates the data file with the same `picture` section, the file's last key, in the
    file's format (json.dumps(obj, indent=1) and a newline)."""
    path = Path(__file__).resolve().parents[1] / "tools" / "make_data.py"
    spec = importlib.util.spec_from_file_location("make_data", path)
    assert spec is not None and spec.loader is not None
    make_data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_data)
    d = data()
    assert json.loads(json.dumps(make_data.PICTURE)) == d["picture"]
    assert list(d)[-1] == "picture"
    text = (brass.svg.DATA_DIR / "lancashire.json").read_text(encoding="utf-8")
    assert text == json.dumps(d, indent=1) + "\n"


# --- Brass: Birmingham: merchants, barrels, a line with three ends ----------------------------------------------


def birmingham_data() -> dict:
    with open(brass.svg.DATA_DIR / "birmingham.json", encoding="utf-8") as f:
        return json.load(f)


def play_birmingham(players: int, seed: int, stop=lambda state: False, limit: int = 10_000) -> brass.State:
    """Random legal moves (seeded) in a Birmingham game until `stop(state)` or the end."""
    state = brass.Game("birmingham", players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal or stop(state):
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def first_birmingham(players: int, stop, seeds=range(60)) -> brass.State:
    """The first position where `stop(state)` holds, in random games of the seeds in turn."""
    for seed in seeds:
        state = play_birmingham(players, seed, stop)
        if stop(state):
            return state
    raise AssertionError("no random game reached the position wanted")


def tile_of(root: ET.Element, space: str) -> ET.Element:
    (el,) = find(root, data_space=space)
    return el


def barrels(el: ET.Element) -> list[str]:
    """The classes of the barrels drawn inside `el`: 'barrel' (there) or 'barrel taken'."""
    return [r.get("class") for r in el.iter(f"{SVG}rect") if (r.get("class") or "").startswith("barrel")]


def check_birmingham_picture(state: brass.State) -> ET.Element:
    """Everything a Birmingham picture must show of `state`, checked element by element."""
    text = brass.svg.board(state)
    root = parse(text)
    assert text == brass.svg.board(state.to_json())
    obj = json.loads(state.to_json())
    d = birmingham_data()
    pic = brass.svg.picture("birmingham")
    kinds = d["merchant_tiles"]["kinds"]
    # Every location once; every building space once, as a tile or empty.
    assert {el.get("data-location") for el in root.iter() if el.get("data-location")} == {
        loc["id"] for loc in d["locations"]
    }
    for location in d["locations"]:
        for number in range(1, len(location["spaces"]) + 1):
            space = f"{location['id']}/{number}"
            el = tile_of(root, space)
            tile = obj["board"].get(space)
            if tile is None:
                assert el.get("class") == "space empty" and not barrels(el)
                continue
            assert el.get("class") == "space tile"
            assert el.get("data-industry") == tile["industry"] and el.get("data-cubes") == str(tile["cubes"])
            assert el.get("data-flipped") == str(tile["flipped"]).lower()
            assert f"{pic.letter(tile['industry'])}{tile['level']}" in texts(el)
            # VP and income as printed on the tile.
            (row,) = [r for r in d["tiles"][tile["industry"]] if r["level"] == tile["level"]]
            assert el.get("data-vp") == str(row["vp"]) and el.get("data-income") == str(row["income"])
            (vp_text,) = [t for t in el.iter(f"{SVG}text") if t.get("class") == "tile-vp"]
            (income_text,) = [t for t in el.iter(f"{SVG}text") if t.get("class") == "tile-income"]
            assert vp_text.text == str(row["vp"])
            assert income_text.text == (f"+{row['income']}" if row["income"] > 0 else str(row["income"]))
            # A brewery's cubes are barrels; a mine's or works' cubes are squares of the resource's colour.
            squares = [r for r in el.iter(f"{SVG}rect") if r.get("width") == "2.8"]
            if tile["industry"] == "brewery":
                assert barrels(el) == ["barrel"] * tile["cubes"] and not squares
            else:
                assert not barrels(el) and len(squares) == tile["cubes"]
                produces = d["industry_roles"][tile["industry"]].get("produces")
                if produces:
                    assert {r.get("fill") for r in squares} <= {brass.svg.CUBE_COLOURS[produces]}
    # Every merchant space: the tile in use with its barrel, or a dashed space the player count leaves empty.
    merchants = obj["merchants"]
    assert merchants == state.merchants
    seen = set()
    for location in d["locations"]:
        if "merchant" not in location:
            continue
        (box,) = find(root, data_location=location["id"])
        assert box.get("class") == "location merchant" and location["name"] in texts(box)
        for number, counts in enumerate(location["merchant"]["slots"], start=1):
            space = f"{location['id']}/{number}"
            el = tile_of(root, space)
            assert el in list(box.iter())
            seen.add(space)
            if space not in merchants:
                assert obj["game"]["players"] not in counts
                assert el.get("class") == "merchant-space unused"
                assert el.get("data-players") == " ".join(map(str, counts)) and not barrels(el)
                continue
            assert obj["game"]["players"] in counts
            tile, beer = merchants[space]["tile"], merchants[space]["beer"]
            assert el.get("class") == "merchant-tile"
            assert el.get("data-tile") == tile and el.get("data-beer") == str(beer).lower()
            accepts = kinds[tile]
            if not accepts:
                assert not beer and not barrels(el) and not texts(el)
            else:
                assert barrels(el) == ["barrel" if beer else "barrel taken"]
                assert texts(el) == [pic.letter(accepts[0]) if len(accepts) == 1 else tile]
    assert set(merchants) <= seen
    # Lines: one element each, links in the owner's colour; the line with a third end drawn as a T.
    for line in d["lines"]:
        name = "-".join(line["ends"][:2])
        (el,) = find(root, data_line=name)
        segments = [s for s in el.iter(f"{SVG}line")]
        owner = obj["links"].get(name)
        if owner is None:
            assert el.get("class") == "line"
        else:
            assert el.get("class") == "link" and el.get("data-owner") == str(owner)
            assert brass.svg.PLAYER_COLOURS[owner] in {s.get("stroke") for s in segments}
        ends = {(float(s.get(f"x{i}")), float(s.get(f"y{i}"))) for s in segments for i in (1, 2)}
        assert {tuple(map(float, pic.positions[end])) for end in line["ends"]} <= ends
        assert el.get("data-ends") == (" ".join(line["ends"]) if len(line["ends"]) > 2 else None)
    # The panel: markets of 14 and 10 spaces, no Distant Cotton Market.
    for resource, size in (("coal", 14), ("iron", 10)):
        (market,) = find(root, **{"class": f"market {resource}"})
        assert market.get("data-cubes") == str(obj[f"{resource}_market"])
        cells = [r for r in market.iter(f"{SVG}rect")]
        assert len(cells) == size == len(d[f"{resource}_market"]["prices"])
        filled = [r for r in cells if r.get("fill") == brass.svg.CUBE_COLOURS[resource]]
        assert len(filled) == obj[f"{resource}_market"]
    assert not find(root, **{"class": "dcm"}) and "Distant Cotton Market" not in text
    return root


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 7])
def test_birmingham_random_positions_are_drawn_in_full(players, seed):
    """Birmingham at every player count, at several points of random games (start, both eras, the end): every
    tile with its VP, income and cubes or barrels, every merchant tile in use with its barrel, the merchant
    spaces the player count leaves empty, every line and link, the markets."""
    rng = random.Random(seed * 10 + players)
    state = brass.Game("birmingham", players=players).new_state(seed=seed)
    check_birmingham_picture(state)
    checked = {state.era}
    while not state.is_terminal:
        era = state.era
        state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.02 or state.era != era:
            check_birmingham_picture(state)
            checked.add(state.era)
    check_birmingham_picture(state)
    assert state.decision == "over" and checked == {"canal", "rail"}


def test_birmingham_breweries_show_their_barrels_and_merchants_their_taken_barrels():
    """A position with a brewery holding two barrels (built in the Rail Era, B-7) and a merchant barrel taken:
    the brewery shows two golden barrels, the merchant tile a dashed one."""

    def wanted(state: brass.State) -> bool:
        obj = json.loads(state.to_json())
        full = any(t["industry"] == "brewery" and t["cubes"] == 2 for t in obj["board"].values())
        taken = any(m["tile"] != "blank" and not m["beer"] for m in obj["merchants"].values())
        return full and taken

    state = first_birmingham(4, wanted)
    root = check_birmingham_picture(state)
    obj = json.loads(state.to_json())
    (space, _) = next((s, t) for s, t in obj["board"].items() if t["industry"] == "brewery" and t["cubes"] == 2)
    drawn = [r for r in tile_of(root, space).iter(f"{SVG}rect") if r.get("class") == "barrel"]
    assert len(drawn) == 2 and {r.get("fill") for r in drawn} == {brass.svg.BARREL_COLOUR}
    assert brass.svg.BARREL_COLOUR not in brass.svg.CUBE_COLOURS.values()
    (merchant, _) = next((s, m) for s, m in obj["merchants"].items() if m["tile"] != "blank" and not m["beer"])
    assert barrels(tile_of(root, merchant)) == ["barrel taken"]
    legend = " ".join(texts(find(root, **{"class": "legend"})[0]))
    assert "beer barrels" in legend and "merchant tile" in legend and "any = C/G/P" in legend


def test_birmingham_two_players_leave_warrington_and_nottingham_without_tiles():
    root = check_birmingham_picture(brass.Game("birmingham", players=2).new_state(seed=3))
    for space in ("warrington/1", "warrington/2", "nottingham/1", "nottingham/2"):
        assert tile_of(root, space).get("class") == "merchant-space unused"
    assert texts(tile_of(root, "nottingham/1")) == ["4"] and texts(tile_of(root, "warrington/2")) == ["3/4"]
    (bonus,) = [t for t in find(root, data_location="oxford")[0].iter(f"{SVG}text") if t.get("class")]
    assert bonus.get("class") == "merchant-bonus" and bonus.text == "+2 income"


def test_birmingham_the_line_with_three_ends_is_a_t_and_its_link_and_scored_overlay_cover_all_three():
    """kidderminster-worcester also reaches the south farm brewery: drawn as the line Kidderminster–Worcester
    and a branch to the farm from the nearest point of it; a link there is keyed by the first two ends."""
    pos = brass.svg.picture("birmingham").positions
    fresh = brass.Game("birmingham", players=3).new_state(seed=1)
    root = parse(brass.svg.board(fresh))
    (line,) = find(root, data_line="kidderminster-worcester")
    assert line.get("data-ends") == "kidderminster worcester farm_south"
    pieces = {((s.get("x1"), s.get("y1")), (s.get("x2"), s.get("y2"))) for s in line.iter(f"{SVG}line")}
    assert len(pieces) == 2
    main = next(p for p in pieces if p[1] != tuple(map(str, pos["farm_south"])))
    branch = next(p for p in pieces if p[1] == tuple(map(str, pos["farm_south"])))
    assert main == tuple(tuple(map(str, pos[end])) for end in ("kidderminster", "worcester"))
    (x1, y1), (x2, y2) = pos["kidderminster"], pos["worcester"]
    bx, by = (float(v) for v in branch[0])
    assert abs((x2 - x1) * (by - y1) - (y2 - y1) * (bx - x1)) / math.dist((x1, y1), (x2, y2)) < 0.2
    assert min(y1, y2) < by < max(y1, y2)

    state = first_birmingham(4, lambda s: "kidderminster-worcester" in s.links)
    owner = state.links["kidderminster-worcester"]
    root = check_birmingham_picture(state)
    (link,) = find(root, data_line="kidderminster-worcester")
    strokes = [s.get("stroke") for s in link.iter(f"{SVG}line")]
    assert strokes.count(brass.svg.PLAYER_COLOURS[owner]) == 2

    overlay = parse(brass.svg.board(fresh, scored_links={"kidderminster-worcester": 2}))
    (scored,) = [el for el in overlay.iter() if el.get("class") == "scored-link"]
    assert scored.get("data-ends") == "kidderminster worcester farm_south"
    assert len([s for s in scored.iter(f"{SVG}line") if s.get("stroke") == brass.svg.PLAYER_COLOURS[2]]) == 2
    with pytest.raises(brass.InvalidStateError):
        brass.svg.board(fresh, scored_links={"kidderminster-worcester-farm_south": 0})


def test_birmingham_an_action_under_way_names_its_beer_and_merchant():
    state = first_birmingham(3, lambda s: s.decision == "beer" and bool(json.loads(s.to_json())["action"]["merchant"]))
    action = json.loads(state.to_json())["action"]
    (under_way,) = find(parse(brass.svg.board(state)), **{"class": "action"})
    text = texts(under_way)[0]
    assert text.startswith(f"under way: sell {action['target']}")
    assert f"({action['beer']} beer to take)" in text and text.endswith(f"to {action['merchant']}")


def test_birmingham_map_is_geographic_and_uncrowded():
    """Towns where they are (north is up, east is right); the merchant locations on their side of the map; the
    farm breweries beside the lines that reach them; no two boxes touching; all inside the map."""
    d = birmingham_data()
    pos = brass.svg.picture("birmingham").positions
    assert set(pos) == {loc["id"] for loc in d["locations"]}

    def north_of(a, b):
        return pos[a][1] < pos[b][1]

    def west_of(a, b):
        return pos[a][0] < pos[b][0]

    assert north_of("leek", "stoke") and north_of("stoke", "stone") and north_of("stone", "stafford")
    assert north_of("belper", "derby") and north_of("derby", "burton") and north_of("burton", "tamworth")
    assert (
        north_of("cannock", "walsall") and north_of("birmingham", "redditch") and north_of("kidderminster", "worcester")
    )
    assert west_of("coalbrookdale", "wolverhampton") and west_of("wolverhampton", "walsall")
    assert west_of("walsall", "tamworth") and west_of("birmingham", "coventry") and west_of("dudley", "birmingham")
    assert west_of("shrewsbury", "coalbrookdale") and west_of("derby", "nottingham")
    assert north_of("warrington", "leek") and west_of("warrington", "stoke")
    assert north_of("worcester", "gloucester") and north_of("redditch", "oxford") and west_of("birmingham", "oxford")
    assert west_of("farm_north", "cannock") and abs(pos["farm_north"][1] - pos["cannock"][1]) < 40
    assert north_of("kidderminster", "farm_south") and north_of("farm_south", "worcester")
    boxes = {loc["id"]: svg_layout.location_rect(loc, pos) for loc in d["locations"]}
    for a, ra in boxes.items():
        assert ra[0] > 0 and ra[2] < brass.svg.MAP_WIDTH and ra[1] > 45 and ra[3] < brass.svg.HEIGHT, a
        for b, rb in boxes.items():
            if a < b:
                assert not svg_layout.overlaps((ra[0] - 8, ra[1] - 8, ra[2] + 8, ra[3] + 8), rb), (a, b)
    # No line passes through a box it does not end at.
    for line in d["lines"]:
        for segment in svg_layout.line_segments(line["ends"], pos):
            through = [
                lid for lid, box in boxes.items() if lid not in line["ends"] and svg_layout.crosses(*segment, box)
            ]
            assert not through, (line["ends"], through)


def test_birmingham_location_names_are_clear_of_lines_boxes_and_each_other():
    d = birmingham_data()
    pos = brass.svg.picture("birmingham").positions
    root = parse(brass.svg.board(brass.Game("birmingham", players=4).new_state(seed=1)))
    boxes = {loc["id"]: svg_layout.location_rect(loc, pos) for loc in d["locations"]}
    segments = [s for line in d["lines"] for s in svg_layout.line_segments(line["ends"], pos)]
    names = []
    for group in root.iter(f"{SVG}g"):
        lid = group.get("data-location")
        if lid is None or group.get("class") == "location merchant":
            continue
        (label,) = [t for t in group.iter(f"{SVG}text") if t.get("class") == "name"]
        weight = "bold" if label.get("font-weight") == "bold" else "normal"
        width = svg_layout.CHAR_WIDTH[weight] * len(label.text)
        rect = svg_layout.text_rect(float(label.get("x")), float(label.get("y")), label.get("text-anchor"), width)
        m = svg_layout.LINE_MARGIN
        wide = (rect[0] - m, rect[1] - m, rect[2] + m, rect[3] + m)
        assert not [s for s in segments if svg_layout.crosses(*s, wide)], lid
        assert not [other for other, box in boxes.items() if svg_layout.overlaps(rect, box)], lid
        assert rect[0] > 0 and rect[2] < brass.svg.MAP_WIDTH and rect[1] > 45 and rect[3] < brass.svg.HEIGHT
        names.append((lid, rect))
    assert len(names) == sum(1 for loc in d["locations"] if "merchant" not in loc) == 22
    for i, (a, ra) in enumerate(names):
        for b, rb in names[i + 1 :]:
            assert not svg_layout.overlaps(ra, rb), (a, b)


def test_birmingham_picture_section_is_what_tools_make_birmingham_data_writes():
    """tools/make_birmingham_data.py writes the same `picture` section as the file's last key; its six industries
    have distinct letters; every location has a place."""
    path = Path(__file__).resolve().parents[1] / "tools" / "make_birmingham_data.py"
    spec = importlib.util.spec_from_file_location("make_birmingham_data", path)
    assert spec is not None and spec.loader is not None
    make_data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_data)
    d = birmingham_data()
    assert json.loads(json.dumps(make_data.PICTURE)) == d["picture"]
    assert list(d)[-1] == "picture"
    text = (brass.svg.DATA_DIR / "birmingham.json").read_text(encoding="utf-8")
    assert text == json.dumps(d, indent=1) + "\n"
    letters = d["picture"]["letters"]
    assert set(letters) == set(d["industries"]) and len(set(letters.values())) == len(d["industries"]) == 6
    assert set(d["picture"]["lat_lon"]) == {loc["id"] for loc in d["locations"]}
