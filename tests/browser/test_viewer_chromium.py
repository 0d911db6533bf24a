"""The replay viewer in a real headless Chromium, driven over the DevTools protocol (cdp.py): keys, buttons and
clicks step through the game, the move text and the board follow, the page loads nothing from outside, and a
screenshot shows it. Run with `nox -s browser` (or `pytest tests/browser` with the Debian package `chromium`)."""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from cdp import Browser

import brass
import brass.viewer

WIDTH, HEIGHT = 1400, 1000
MOVES = 30


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail(
            "Chromium is not installed, so the browser tests cannot run: install the Debian package "
            "`chromium` (apt-get install -y chromium); `.ci/run` does this before `nox -s browser`",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="module")
def browser():
    with Browser(chromium()) as b:
        yield b


@pytest.fixture(scope="module")
def game():
    """A 30-move game of Lancashire at 3 players (seed 5), its positions and the viewer page on disk."""
    state = brass.Game("lancashire", players=3).new_state(5)
    rng = random.Random(5)
    for _ in range(MOVES):
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    return record, brass.viewer.positions(record)


@pytest.fixture
def page(browser, game, tmp_path):
    record, _ = game
    path = tmp_path / "game.html"
    path.write_text(brass.viewer.render_html(record), encoding="utf-8")
    tab = browser.new_page(WIDTH, HEIGHT)
    tab.navigate(path.as_uri())
    tab.wait_for("document.body.getAttribute('data-position') === '0'")
    return tab


VIEW = """(function () {
    var board = document.querySelector("#board svg");
    function all(selector) {
        return Array.prototype.map.call(board.querySelectorAll(selector), function (el) { return el; });
    }
    return {
        position: Number(document.body.getAttribute("data-position")),
        move: document.getElementById("move").textContent,
        counter: document.getElementById("counter").textContent,
        svg: document.getElementById("board").innerHTML,
        tiles: all(".space.tile").map(function (el) {
            return [el.getAttribute("data-space"), Number(el.getAttribute("data-owner")),
                    el.getAttribute("data-industry"), Number(el.getAttribute("data-level"))];
        }),
        links: all(".link").map(function (el) {
            return [el.getAttribute("data-line"), Number(el.getAttribute("data-owner"))];
        }),
        turn: board.querySelector(".turn").textContent,
        current: all(".player.current").map(function (el) { return Number(el.getAttribute("data-player")); }),
        money: all(".player").map(function (el) { return "£" + el.getAttribute("data-money"); }),
        tables: document.querySelectorAll("table").length,
        selected: Array.prototype.map.call(document.querySelectorAll("#moves li[aria-current=true]"), function (li) {
            return Number(li.getAttribute("data-index"));
        }),
        width: board.getBoundingClientRect().width
    };
})()"""


def view(tab, position: int) -> dict:
    tab.wait_for(f"document.body.getAttribute('data-position') === '{position}'")
    return tab.evaluate(VIEW)


def check(seen: dict, positions: list, i: int) -> None:
    """The page shows position i: its move text, its board (tiles and links of the replayed state), its
    player to decide, the money of each player, the move list's selection and the counter."""
    p = positions[i]
    state = p.state
    assert seen["position"] == i
    assert seen["move"] == (p.move if i else "Start of the game")
    assert seen["counter"] == f"position {i} of {len(positions) - 1}"
    assert sorted(map(tuple, seen["tiles"])) == sorted(
        (space, t["owner"], t["industry"], t["level"]) for space, t in state.board.items()
    )
    assert sorted(map(tuple, seen["links"])) == sorted(state.links.items())
    assert seen["turn"].startswith(f"player {state.current_player} ")
    assert seen["current"] == [state.current_player]
    assert seen["money"] == [f"£{state.player(q).money}" for q in range(state.game.players)]
    assert seen["tables"] == 0  # the players are shown once, in the picture's panel (issue 21, item 8)
    assert seen["selected"] == [i]
    assert seen["svg"].startswith("<svg") and seen["width"] > 500


def check_png(png: bytes) -> tuple[int, int]:
    """A well-formed PNG with real content; its size. Standard library only: the chunks are walked, the image
    data inflated and its rows compared."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, body = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        chunks.append((kind, body))
        offset += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    assert depth == 8 and colour in (2, 6)
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + width * (3 if colour == 2 else 4)
    assert len(pixels) == height * stride
    rows = {pixels[r * stride + 1 : (r + 1) * stride] for r in range(height)}
    assert len(rows) > height // 4, "the screenshot is mostly blank"
    assert len(set(pixels)) > 64
    return width, height


def test_keys_step_through_the_game(page, game, tmp_path):
    _, positions = game
    seen = {0: view(page, 0)}
    check(seen[0], positions, 0)
    assert seen[0]["tiles"] == [] and seen[0]["links"] == []
    for i in range(1, 5):
        page.press("ArrowRight")
        seen[i] = view(page, i)
        check(seen[i], positions, i)
        assert seen[i]["move"] != seen[i - 1]["move"]
        if positions[i].state.to_json() != positions[i - 1].state.to_json():
            assert seen[i]["svg"] != seen[i - 1]["svg"]
    page.press("ArrowLeft")
    back = view(page, 3)
    check(back, positions, 3)
    assert back["svg"] == seen[3]["svg"] and back["move"] == seen[3]["move"]

    png = page.screenshot()
    assert check_png(png) == (WIDTH, HEIGHT)
    assert len(png) > 20_000
    (tmp_path / "viewer.png").write_bytes(png)
    if os.environ.get("BRASS_SCREENSHOTS"):
        Path(os.environ["BRASS_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["BRASS_SCREENSHOTS"]) / "viewer.png").write_bytes(png)

    page.press("End")
    check(view(page, MOVES), positions, MOVES)
    page.press("ArrowRight")  # nothing after the last move
    check(view(page, MOVES), positions, MOVES)
    page.press("Home")
    check(view(page, 0), positions, 0)
    page.press("ArrowLeft")  # nothing before the start
    check(view(page, 0), positions, 0)


def test_buttons_and_the_move_list(page, game):
    _, positions = game
    assert page.evaluate("document.getElementById('prev').disabled") is True
    page.click("#next")
    check(view(page, 1), positions, 1)
    page.click("#last")
    check(view(page, MOVES), positions, MOVES)
    assert page.evaluate("document.getElementById('next').disabled") is True
    page.click('#moves li[data-index="17"]')
    check(view(page, 17), positions, 17)
    page.click("#prev")
    check(view(page, 16), positions, 16)
    page.click("#first")
    check(view(page, 0), positions, 0)


def test_the_page_loads_nothing_from_outside_and_runs_cleanly(page, game, browser):
    page.press("End")
    view(page, MOVES)
    requests = [e["params"]["request"]["url"] for e in page.events("Network.requestWillBeSent")]
    assert requests and all(url.startswith("file://") for url in requests), requests
    assert not page.events("Runtime.exceptionThrown")
    errors = [e["params"] for e in page.events("Runtime.consoleAPICalled") if e["params"]["type"] == "error"]
    assert not errors, json.dumps(errors)[:500]


def test_the_viewer_stays_readable_700_pixels_wide(browser, game, tmp_path):
    """Issue 21, item 8: at 700 px the side column goes under the board, the board takes the full width and
    nothing scrolls sideways."""
    record, _ = game
    path = tmp_path / "narrow.html"
    path.write_text(brass.viewer.render_html(record), encoding="utf-8")
    tab = browser.new_page(700, 900)
    tab.navigate(path.as_uri())
    tab.wait_for("document.body.getAttribute('data-position') === '0'")
    layout = tab.evaluate(
        """(function () {
            var board = document.querySelector("#board svg").getBoundingClientRect();
            var aside = document.querySelector("aside").getBoundingClientRect();
            return {scroll: document.documentElement.scrollWidth, boardWidth: board.width,
                    boardBottom: board.bottom, asideTop: aside.top, asideWidth: aside.width};
        })()"""
    )
    assert layout["scroll"] <= 700
    assert layout["boardWidth"] >= 650 and layout["asideWidth"] >= 650
    assert layout["asideTop"] >= layout["boardBottom"]


def test_every_hand_is_shown_when_asked(browser, game, tmp_path):
    """Issue 21, item 8: the record knows the hands; the checkbox (ticked by `hands=True`, `brass render
    --hands`) lists them for the position shown."""
    record, positions = game
    path = tmp_path / "hands.html"
    path.write_text(brass.viewer.render_html(record, hands=True), encoding="utf-8")
    tab = browser.new_page(WIDTH, HEIGHT)
    tab.navigate(path.as_uri())
    tab.wait_for("document.body.getAttribute('data-position') === '0'")
    listed = (
        "Array.prototype.map.call(document.querySelectorAll('#hands li'), function (li) { return li.textContent; })"
    )
    state = positions[0].state
    expected = [f"player {p}: {', '.join(state.player(p).hand)}" for p in range(state.game.players)]
    assert tab.evaluate(listed) == expected
    tab.press("End")
    last = positions[-1].state
    tab.wait_for(f"document.body.getAttribute('data-position') === '{len(positions) - 1}'")
    assert tab.evaluate(listed) == [f"player {p}: {', '.join(last.player(p).hand)}" for p in range(3)]
    tab.click("#show-hands")
    assert tab.evaluate("document.getElementById('hands').hidden") is True
