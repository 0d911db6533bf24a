"""`brass serve` in a real headless Chromium (cdp.py): a whole 2-player Lancashire game against the random agent
played by clicking the move buttons, one illegal typed move answered with its rule, an MCTS analysis, an undo, the game loaded back
from its saved record through the page's file input, and screenshots that show the board. Run with
`nox -s browser` (or `pytest tests/browser`, with the Debian package `chromium` and the `serve` extra).

`BRASS_SERVE_SCREENSHOT=PATH` also writes the screenshot taken mid-game there."""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import zlib
from collections.abc import Iterator

import pytest
from cdp import Browser

import brass
from brass import serve

WIDTH, HEIGHT = 1400, 1000
SEED = 11


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is not installed: install the Debian package `chromium`", pytrace=False)
    return path


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app served by uvicorn from a thread, on a port of its own."""
    app = serve.App(defaults={"game": "lancashire", "players": 2, "seats": ["human", "random"], "delay": 0})
    with serve.start(app) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(chromium()) as b:
        yield b


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def png_colours(png: bytes) -> int:
    """Distinct colours of an RGB(A) PNG's first rows: an error page or a blank one has a handful."""
    width, _ = png_size(png)
    depth, kind = png[24], png[25]
    assert depth == 8 and kind in (2, 6)
    data, pos = b"", 8
    while pos < len(png):
        length = struct.unpack(">I", png[pos : pos + 4])[0]
        if png[pos + 4 : pos + 8] == b"IDAT":
            data += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(data)
    bpp = 3 if kind == 2 else 4
    stride = 1 + width * bpp
    # Filter bytes make the rows differ from the pixels, but distinct byte triples still count variety.
    rows = raw[: stride * 200]
    return len({rows[i : i + 3] for i in range(0, len(rows) - 3, 3)})


def test_a_game_played_by_clicking_with_an_illegal_move_an_undo_and_a_reload(server: str, browser, tmp_path) -> None:
    page = browser.new_page(WIDTH, HEIGHT)
    page.navigate(server)
    page.wait_for("document.querySelectorAll('[data-seat]').length === 2")
    assert page.evaluate("document.querySelector('[data-seat=\"1\"]').value") == "random"
    page.evaluate(f"document.getElementById('seed').value = '{SEED}'")
    page.click("#start")
    page.wait_for("document.body.dataset.game && document.querySelector('#board svg') !== null")
    settled = "document.body.dataset.busy === '0' && (document.body.dataset.human === 'true' || document.body.dataset.over === 'true')"
    page.wait_for(settled, timeout=30)

    # An illegal typed move: the engine's reason with its rule id, and nothing played.
    moves_before = page.evaluate("document.body.dataset.moves")
    page.evaluate("document.getElementById('notation').value = 'link bolton-bury'")
    page.click("#typed button")
    error = page.wait_for("document.getElementById('error').textContent")
    assert "not legal now" in error and "(L-34)" in error
    assert page.evaluate("document.body.dataset.moves") == moves_before

    # A move chosen on the board: a space that a legal move uses is marked; clicking it plays its move, or offers
    # the moves it takes part in when there are several.
    playable = "#board .playable[data-space], #board .playable[data-line]"
    page.wait_for(f"document.querySelector('{playable}') !== null")
    moves = int(page.evaluate("document.body.dataset.moves"))
    page.click(playable)
    page.wait_for(f"Number(document.body.dataset.moves) > {moves} || document.querySelector('#choices button.move')")
    if int(page.evaluate("document.body.dataset.moves")) == moves:
        name = page.evaluate("document.querySelector('#choices b').textContent")
        assert all(
            name in b
            for b in page.evaluate("[...document.querySelectorAll('#choices button.move')].map(b => b.textContent)")
        )
        page.click("#choices button.move")
    page.wait_for(f"Number(document.body.dataset.moves) > {moves} && ({settled})", timeout=30)

    # An analysis of the position: each legal move with its share of the MCTS visits.
    page.evaluate("document.getElementById('thinking').value = '150'")
    page.click("#analyse")
    rows = page.wait_for(
        "document.querySelector('#analysis table') && document.querySelectorAll('#analysis tr').length - 1", timeout=30
    )
    assert rows == min(30, page.evaluate("document.querySelectorAll('#moves button.move').length"))
    assert page.evaluate("document.querySelector('#analysis div').textContent").startswith("MCTS (150 ms)")

    clicks = 0
    undone = False
    while page.evaluate("document.body.dataset.over") != "true":
        moves = int(page.evaluate("document.body.dataset.moves"))
        page.click("button.move")
        clicks += 1
        page.wait_for(f"Number(document.body.dataset.moves) > {moves} && ({settled})", timeout=30)
        if clicks == 5 and not undone:
            before = int(page.evaluate("document.body.dataset.moves"))
            page.click("#undo")
            page.wait_for(f"Number(document.body.dataset.moves) === {before - 1} && document.body.dataset.busy === '0'")
            undone = True
            # After an undo the agents wait; "Agent move" lets the one to move play.
            if page.evaluate("document.body.dataset.agent") == "true":
                page.click("#step")
            page.wait_for(settled, timeout=30)
        if clicks == 12 and page.evaluate("document.body.dataset.over") != "true":
            shot = page.screenshot()  # the board, the grouped moves, the history
            assert png_size(shot) == (WIDTH, HEIGHT) and png_colours(shot) > 50
            assert page.evaluate("document.querySelectorAll('button.move').length") > 0
            if os.environ.get("BRASS_SERVE_SCREENSHOT"):
                with open(os.environ["BRASS_SERVE_SCREENSHOT"], "wb") as f:
                    f.write(shot)
        assert clicks < 2000
    status = page.evaluate("document.getElementById('status').textContent")
    assert status.startswith("Game over:") and "wins" in status
    shot = page.screenshot()
    assert png_size(shot) == (WIDTH, HEIGHT) and png_colours(shot) > 50

    # The game's record, saved and loaded back through the page's file input, shows the same game.
    game_id = page.evaluate("document.body.dataset.game")
    record = page.evaluate(f"fetch('/api/games/{game_id}/record').then(r => r.text())")
    assert brass.replay(record).is_terminal
    saved = tmp_path / "game.json"
    saved.write_text(record, encoding="utf-8")
    root = page.send("DOM.getDocument")["root"]["nodeId"]
    node = page.send("DOM.querySelector", nodeId=root, selector="#load")["nodeId"]
    page.send("DOM.setFileInputFiles", files=[str(saved)], nodeId=node)
    page.wait_for(f"document.body.dataset.game !== '{game_id}' && document.body.dataset.busy === '0'")
    assert page.evaluate("document.body.dataset.over") == "true"
    assert int(page.evaluate("document.body.dataset.moves")) == len(json.loads(record)["moves"])
    assert page.evaluate("document.getElementById('status').textContent") == status

    # Stepping through the loaded game, each position evaluated, the move played there marked.
    page.evaluate("document.getElementById('thinking').value = '100'")
    page.evaluate("document.getElementById('evaluate').checked = true")
    page.click("#first")
    page.wait_for("document.body.dataset.position === '0' && document.body.dataset.busy === '0'", timeout=30)
    page.click("#next")
    page.wait_for("document.body.dataset.position === '1' && document.body.dataset.busy === '0'", timeout=30)
    assert page.evaluate("document.getElementById('where').textContent").startswith("position 1 of ")
    replayed = brass.replay(record)
    played = replayed.game.action_name(replayed.history[1])
    assert page.evaluate("document.getElementById('played').textContent") == f"played here: {played}"
    page.wait_for("document.querySelector('#analysis tr.played') !== null", timeout=30)
    assert page.evaluate("document.querySelector('#analysis tr.played td').textContent") == played
    page.click("#last")
    page.wait_for("document.getElementById('where').textContent === '' && document.body.dataset.busy === '0'")


def test_a_birmingham_sale_chosen_by_clicking_the_merchant(server: str, browser, tmp_path) -> None:
    """Birmingham's merchant tiles are board spaces too: in a loaded position where a sale to a merchant is
    legal, the merchant glows, and clicking it plays the sale (or lists the sales to it)."""
    state = brass.Game("birmingham", players=2).new_state(5)
    rng = random.Random(1)
    while True:
        sales = [state.game.action_name(a) for a in state.legal_actions()]
        sales = [n for n in sales if n.startswith("sell ") and "/" in n.split()[2]]
        if sales and state.decision == "action":
            break
        state.apply(rng.choice(state.legal_actions()))
    merchant = sales[0].split()[2]
    saved = tmp_path / "position.json"
    saved.write_text(state.to_json(), encoding="utf-8")
    page = browser.new_page(WIDTH, HEIGHT)
    page.navigate(server)
    page.wait_for("document.querySelectorAll('[data-seat]').length > 0")
    root = page.send("DOM.getDocument")["root"]["nodeId"]
    node = page.send("DOM.querySelector", nodeId=root, selector="#load")["nodeId"]
    page.send("DOM.setFileInputFiles", files=[str(saved)], nodeId=node)
    page.wait_for("document.body.dataset.game && document.body.dataset.busy === '0'", timeout=30)
    selector = f'#board .merchant-tile[data-space="{merchant}"]'
    assert page.evaluate(f"document.querySelector('{selector}').classList.contains('playable')")
    page.click(selector)
    page.wait_for("document.body.dataset.moves === '1' || document.querySelector('#choices button.move')", timeout=10)
    if page.evaluate("document.body.dataset.moves") != "1":
        page.click("#choices button.move")
        page.wait_for("document.body.dataset.moves === '1'", timeout=10)
    played = page.evaluate("document.getElementById('history').textContent")
    assert played.startswith("1. sell ") and merchant in played
