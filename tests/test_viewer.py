"""brass.viewer: the replay viewer page, and the CLI commands around it (`brass render`, `brass replay --moves
/ --svg`). No browser here: tests/browser drives Chromium through the page."""

from __future__ import annotations

import html
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

import brass
import brass.cli
import brass.svg
import brass.viewer

MOVES = 30


def play(
    name: str = "lancashire",
    players: int = 3,
    seed: int = 5,
    moves: int | None = MOVES,
    state: brass.State | None = None,
) -> brass.State:
    """`moves` random legal moves (all of them when None) from a new game (or from `state`)."""
    if state is None:
        state = brass.Game(name, players=players).new_state(seed)
    rng = random.Random(seed)
    count = 0
    while state.decision != "over" and (moves is None or count < moves):
        state.apply(rng.choice(state.legal_actions()))
        count += 1
    return state


def expected_states(record: dict) -> list[tuple[brass.State, int | None]]:
    """Every position of a seeded record and the player who made the move that led to it, replayed here."""
    game = record["game"]
    state = brass.Game(game["name"], players=game["players"], **game["options"]).new_state(record["seed"])
    out: list[tuple[brass.State, int | None]] = [(state.clone(), None)]
    for action in record["actions"]:
        player = state.current_player
        state.apply(action)
        out.append((state.clone(), player))
    return out


def page_data(page: str) -> dict:
    (text,) = re.findall(r'<script type="application/json" id="brass-data">(.*?)</script>', page, re.S)
    return json.loads(text)


def picture(data: dict, i: int) -> str:
    """Position i's picture put together from the page's pieces, as the page's script does."""
    runs = data["positions"][i]
    return "".join(data["pieces"][j] for k in range(0, len(runs), 2) for j in range(runs[k], runs[k] + runs[k + 1]))


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(play().record())


@pytest.fixture(scope="module")
def page(record) -> str:
    return brass.viewer.render_html(json.dumps(record))


def test_the_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    # No URL of any kind: no http(s), no src= / href= / url(...) / @import, no external script or style.
    for pattern in (r"https?:", r"\bsrc\s*=", r"\bhref\s*=", r"url\(", r"@import", r"<link\b", r"<iframe\b"):
        assert not re.search(pattern, page, re.I), pattern
    assert page.count("<script") == 2 and page.count("<style>") == 1
    # The embedded JSON cannot end its <script> element early.
    (data_text,) = re.findall(r'id="brass-data">(.*?)</script>', page, re.S)
    assert "</" not in data_text and "<!--" not in data_text


def test_every_move_in_notation_and_the_positions(record, page):
    game = brass.Game(record["game"]["name"], players=record["game"]["players"])
    states = expected_states(record)
    assert len(states) == MOVES + 1
    data = page_data(page)
    assert len(data["positions"]) == len(data["info"]) == MOVES + 1
    assert len(data["moves"]) == MOVES
    assert page.count("<li data-index=") == MOVES + 1
    for number, (action, (_, player)) in enumerate(zip(record["actions"], states[1:], strict=True), start=1):
        label = f"{number}. player {player}: {game.action_name(action)}"
        assert data["moves"][number - 1] == label
        assert f'<li data-index="{number}">{html.escape(label)}</li>' in page
    # The page's picture of each position is brass.svg.board of the replayed state (inline: no xmlns).
    for i, (state, _) in enumerate(states):
        assert picture(data, i) == brass.svg.board(state).replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
        info = data["info"][i]
        assert info["era"] == state.era and info["round"] == state.round and info["decision"] == state.decision
        assert info["current"] == state.current_player
        assert info["hands"] == [state.player(p).hand for p in range(3)]
    # Distinct pictures, stored once: far smaller than every picture in full.
    assert len({picture(data, i) for i in range(len(states))}) > MOVES // 2
    assert len(page) < sum(len(brass.svg.board(s)) for s, _ in states) / 4


def test_a_parsed_record_a_json_text_and_bytes_give_the_same_page(record, page):
    assert brass.viewer.render_html(record) == page
    assert brass.viewer.render_html(json.dumps(record).encode()) == page


def test_positions_and_pictures(record):
    positions = brass.viewer.positions(record)
    states = expected_states(record)
    assert [p.index for p in positions] == list(range(MOVES + 1))
    assert positions[0].move is None and positions[0].action is None
    for p, (state, player) in zip(positions, states, strict=True):
        assert p.state.to_json() == state.to_json()
        assert p.player == player
    assert brass.viewer.pictures(record)[5] == brass.svg.board(states[5][0])


def test_a_record_from_a_saved_position_starts_there():
    start = play(moves=12)
    state = brass.State.from_json(start.to_json())
    state = play(state=state, seed=9, moves=8)
    record = json.loads(state.record())
    assert "start" in record and "seed" not in record and len(record["actions"]) == 8
    page = brass.viewer.render_html(record)
    data = page_data(page)
    assert len(data["positions"]) == 9
    assert "from a saved position" in page
    assert picture(data, 0) == brass.svg.board(start).replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)


def test_the_links_that_scored_are_drawn_after_each_era():
    """Links leave the board at each era's scoring; the position after that move shows them as an overlay."""
    record = json.loads(play(players=4, seed=3, moves=None).record())
    positions = brass.viewer.positions(record)
    final = positions[-1]
    assert final.state.decision == "over" and final.state.links == {}
    scored = [p for p in positions if p.scored_links]
    assert [p.state.era for p in scored] == ["rail", "rail"] and scored[-1] is final
    for p in scored:
        before = positions[p.index - 1].state
        assert before.links and p.scored_links == before.links
    root = ET.fromstring(brass.svg.board(final.state, scored_links=final.scored_links))
    drawn = {el.get("data-line"): int(el.get("data-owner")) for el in root.iter() if el.get("class") == "scored-link"}
    assert drawn == final.scored_links
    # The viewer's page says so under the board of those positions, and only there.
    data = page_data(brass.viewer.render_html(record))
    noted = [i for i, info in enumerate(data["info"]) if info.get("scored")]
    assert noted == [p.index for p in scored]
    assert "canal era" in data["info"][noted[0]]["scored"] and "rail era" in data["info"][noted[1]]["scored"]
    assert picture(data, len(positions) - 1).count('class="scored-link"') == len(final.scored_links)


def _record(**changes) -> dict:
    record = json.loads(play(moves=4).record())
    record.update(changes)
    return record


BAD_RECORDS = {
    "not JSON": ("{not json", brass.InvalidStateError),
    "not an object": ("[1, 2]", brass.InvalidStateError),
    "no format": (json.dumps({"game": {}}), brass.InvalidStateError),
    "wrong format": (_record(format="brass-state/1"), brass.InvalidStateError),
    "game not an object": (_record(game="lancashire"), brass.InvalidStateError),
    "players not a number": (
        _record(game={"name": "lancashire", "players": "3", "options": {}}),
        brass.InvalidStateError,
    ),
    "unknown game": (
        _record(game={"name": "birmingham", "players": 3, "options": {}, "data": "lancashire/1"}),
        brass.BrassError,
    ),
    "actions not a list": (_record(actions="1 2 3"), brass.InvalidStateError),
    "action not an id": (_record(actions=[1, "build"]), brass.InvalidStateError),
    "action out of range": (_record(actions=[10**6]), brass.IllegalActionError),
    "illegal action": (_record(actions=[0, 0, 0, 0, 0]), brass.IllegalActionError),
    "no seed": ({k: v for k, v in _record().items() if k != "seed"}, brass.InvalidStateError),
    "negative seed": (_record(seed=-1), brass.InvalidStateError),
    "bad start": (_record(start={"format": "brass-state/1"}, seed=None), brass.InvalidStateError),
    "selfplay line": ({"index": 0, "record": _record()}, brass.InvalidStateError),
    "not text": (42, brass.ArgumentTypeError),
}


@pytest.mark.parametrize("bad", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_malformed_records_raise_brass_errors(bad):
    record, error = bad
    if isinstance(record, dict) and record.get("seed", 0) is None:
        del record["seed"]
    with pytest.raises(error) as info:
        brass.viewer.render_html(record)
    assert isinstance(info.value, brass.BrassError)
    assert str(info.value)
    with pytest.raises(error):
        brass.viewer.positions(record)


def test_a_selfplay_line_is_explained():
    with pytest.raises(brass.InvalidStateError, match="record"):
        brass.viewer.render_html(BAD_RECORDS["selfplay line"][0])


# --- The command line -----------------------------------------------------------------------------------------


def test_brass_render(tmp_path, record, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=1))  # one record over several lines
    out = tmp_path / "game.html"
    assert brass.cli.main(["render", str(path), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == brass.viewer.render_html(record)
    assert f"{MOVES} moves" in capsys.readouterr().out


def test_brass_render_a_selfplay_file(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    assert (
        brass.cli.main(
            [
                "selfplay",
                "--players",
                "3",
                "--agents",
                "random",
                "random",
                "random",
                "--games",
                "2",
                "--jobs",
                "1",
                "--seed",
                "4",
                "--quiet",
                "--out",
                str(games),
            ]
        )
        == 0
    )
    lines = games.read_text().splitlines()
    assert len(lines) == 2
    second = json.loads(lines[1])["record"]
    out = tmp_path / "second.html"
    assert brass.cli.main(["render", str(games), "--game-index", "1", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == brass.viewer.render_html(second)
    capsys.readouterr()
    assert brass.cli.main(["render", str(games), "--game-index", "2", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brass: ") and err.count("\n") == 1 and "between 0 and 1" in err


@pytest.mark.parametrize(
    "content,message",
    [
        ("", "no game record"),
        ("{oops\n", "not JSON"),
        ('{"format": "brass-record/1"}\n', "game record"),
        (
            json.dumps(
                {
                    "format": "brass-record/1",
                    "game": {"name": "lancashire", "players": 3, "options": {}, "data": "lancashire/1"},
                    "seed": 1,
                    "actions": [9999],
                }
            ),
            "out of range",
        ),
    ],
)
def test_brass_render_reports_bad_files_in_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert brass.cli.main(["render", str(path), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brass: ") and err.count("\n") == 1 and message in err
    assert not (tmp_path / "x.html").exists()
    assert brass.cli.main(["render", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.html")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_render_and_replay_name_the_line_of_a_one_line_file_alike(tmp_path, capsys):
    """A one-line file is read whole by `render` and line by line by `replay`: both name `FILE:1`."""
    bad = {"format": "brass-record/1", "game": {"name": "lancashire", "players": 3}, "seed": 1, "actions": [9999]}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(bad) + "\n")
    assert brass.cli.main(["render", str(path), "-o", str(tmp_path / "x.html")]) == 2
    rendered = capsys.readouterr().err
    assert brass.cli.main(["replay", str(path)]) == 2
    replayed = capsys.readouterr().err
    assert rendered.startswith(f"brass: {path}:1: ") and replayed.startswith(f"brass: {path}:1: ")
    pretty = tmp_path / "bad.json"
    pretty.write_text(json.dumps(bad, indent=2))
    assert brass.cli.main(["render", str(pretty), "-o", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err.startswith(f"brass: {pretty}: ")  # a record over many lines: the file


def test_brass_replay_moves_and_svg(tmp_path, record, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert brass.cli.main(["replay", str(path), "--moves"]) == 0
    lines = capsys.readouterr().out.splitlines()
    game = brass.Game("lancashire", players=3)
    states = expected_states(record)
    expected = [
        f"{n}. player {player}: {game.action_name(action)}"
        for n, (action, (_, player)) in enumerate(zip(record["actions"], states[1:], strict=True), start=1)
    ]
    assert lines[-MOVES:] == expected
    assert "1 game replayed" in lines[0]

    pictures = tmp_path / "pictures"
    assert brass.cli.main(["replay", str(path), "--svg", str(pictures)]) == 0
    files = sorted(p.name for p in pictures.iterdir())
    assert files == [f"{i:03d}.svg" for i in range(MOVES + 1)]
    for i in (0, 7, MOVES):
        text = (pictures / f"{i:03d}.svg").read_text(encoding="utf-8")
        assert text == brass.svg.board(states[i][0])
        ET.fromstring(text)
    assert f"{MOVES + 1} pictures" in capsys.readouterr().out


def test_brass_replay_game_index(tmp_path, capsys):
    first, second = json.loads(play(seed=1, moves=3).record()), json.loads(play(seed=2, moves=5).record())
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    assert brass.cli.main(["replay", str(path), "--moves", "--game-index", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 + 5 and out[-1].startswith("5. player ")
    assert brass.cli.main(["replay", str(path), "--moves", "--game-index", "-1"]) == 2
    assert "between 0 and 1" in capsys.readouterr().err
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert brass.cli.main(["replay", str(path), "--svg", str(blocked / "sub")]) == 2
    assert capsys.readouterr().err.startswith("brass: cannot write")


# --- Brass: Birmingham ----------------------------------------------------------------------------------------


def test_a_birmingham_game_in_the_viewer_and_as_pictures(tmp_path, capsys):
    """`brass selfplay --game birmingham`, then `brass render` and `brass replay --svg` of its record: the page's
    picture of every position is brass.svg.board of it (merchant tiles, barrels and all), the links the Canal
    Era scored are drawn over the position after its last move."""
    games = tmp_path / "games.jsonl"
    args = ["selfplay", "--game", "birmingham", "--players", "4", "--agents", "random", "random", "random", "random"]
    assert brass.cli.main([*args, "--games", "1", "--jobs", "1", "--seed", "2", "--quiet", "--out", str(games)]) == 0
    record = json.loads(games.read_text().splitlines()[0])["record"]
    assert record["game"]["name"] == "birmingham"
    out = tmp_path / "game.html"
    assert brass.cli.main(["render", str(games), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page == brass.viewer.render_html(record)
    assert "<title>Brass: Birmingham" in page
    data = page_data(page)
    states = expected_states(record)
    positions = brass.viewer.positions(record)
    assert len(data["positions"]) == len(states) == len(record["actions"]) + 1
    for i in sorted({*range(0, len(states), 5), *(p.index for p in positions if p.scored_links)}):
        expected = brass.svg.board(states[i][0], scored_links=positions[i].scored_links)
        assert picture(data, i) == expected.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
    final = picture(data, len(states) - 1)
    assert final.count('class="merchant-tile"') == len(states[-1][0].merchants) == 9
    # The Canal Era's scoring removed links: that position shows them as an overlay, and says so.
    scored = [p for p in positions if p.scored_links]
    assert scored and scored[0].state.era == "rail"
    assert picture(data, scored[0].index).count('class="scored-link"') == len(scored[0].scored_links)
    assert "canal era" in data["info"][scored[0].index]["scored"]

    pictures = tmp_path / "pictures"
    capsys.readouterr()
    assert brass.cli.main(["replay", str(games), "--svg", str(pictures)]) == 0
    files = sorted(pictures.iterdir())
    assert len(files) == len(states)
    for i in (0, len(states) // 2, len(states) - 1):
        text = files[i].read_text(encoding="utf-8")
        assert text == brass.svg.board(states[i][0], scored_links=positions[i].scored_links)
        root = ET.fromstring(text)
        assert [el.get("data-game") for el in root.iter() if el.get("class") == "title"] == ["birmingham"]
    assert f"{len(states)} pictures" in capsys.readouterr().out
