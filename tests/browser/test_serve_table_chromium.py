"""`brass serve` played as a person plays it (docs/serve.md, "The page"): whole games in a real headless Chromium
(cdp.py) by clicks on the guided turn, the hand, the mat and the board, and by the keyboard; never typed notation,
never a request of the test's own. The server runs in this process, and its engine is read to check the page:
after each human decision the hand region holds exactly the cards the engine holds and the actions offered are
those with a legal move; after each agent's move, the places it touched are marked on the board in its colour
and its words stand under the board.

- a whole Birmingham game at 2 players against greedy, the agent stepped one move at a time (Agent move);
- a whole Lancashire game at 3 players against random and greedy, the agents moving by themselves;
- the original Brass at 4 players in a window 700 px wide, a few turns played from the keyboard.

`BRASS_SERVE_SCREENSHOTS=DIR` writes the Birmingham game at its first human decision, in the middle (the last
choice under way, an action chosen and not yet played, of the Canal Era) and at its last human decision there:
`serve-first.png`, `serve-middle.png`, `serve-last.png` (docs/images, shown in docs/serve.md)."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from cdp import Browser, Page

import brass
from brass import serve

WIDTH, HEIGHT = 1280, 800

#: The page is idle: no request under way, no card chosen earlier about to be played for the engine's question, and
#: a human to move, the game over, or (agents stepped by hand) an agent waiting for "Agent move".
IDLE = (
    "document.body.dataset.busy === '0' && "
    "(document.body.dataset.pending === '' || document.body.dataset.decision !== 'card') && "
    "(document.body.dataset.human === 'true' || document.body.dataset.over === 'true' || "
    "(document.body.dataset.agent === 'true' && !document.getElementById('autoplay').checked))"
)
#: How a person's choices lean: mostly building, selling and linking, the moves that fill a board.
KIND_WEIGHTS = {"build": 5, "sell": 5, "link": 3, "develop": 1, "scout": 1, "loan": 0.5, "pass": 0.3}
#: A word each action's line says, whatever it did.
VERBS = {
    "build": "built",
    "link": "laid",
    "develop": "developed",
    "sell": "sold",
    "loan": "loan",
    "scout": "scouted",
    "pass": "passed",
    "remove": "removed",
}


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is not installed: install the Debian package `chromium`", pytrace=False)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser(chromium()) as b:
        yield b


class Table:
    """The page of a game and, beside it, the engine's own game (read in this process, never through the page's
    API) with who made each decision, replayed on a copy: the test's reading of the game, apart from the page's."""

    def __init__(self, page: Page, app: serve.App) -> None:
        self.page, self.app = page, app
        self.state = self.engine()
        self.replay = self.state.clone()
        for _ in self.state.history:
            self.replay.undo()
        self.decisions: list[tuple[int, str, str]] = []  # (player, decision, notation)
        self.follow()

    def engine(self) -> brass.State:
        session = self.app.store.get(self.page.evaluate("document.body.dataset.game"))
        return session.state.clone()

    def follow(self) -> None:
        """Read the decisions played since the last call from the engine."""
        self.state = self.engine()
        for action in self.state.history[len(self.decisions) :]:
            self.decisions.append(
                (self.replay.current_player, self.replay.decision, self.replay.game.action_name(action))
            )
            self.replay.apply(action)

    def actions(self) -> list[tuple[int, list[str]]]:
        """The decisions grouped into actions: one begins at each `action` decision and at the first `remove` of a
        debt; every other decision belongs to the action before it."""
        out: list[tuple[int, list[str]]] = []
        for player, decision, notation in self.decisions:
            starts = decision == "action" or (
                decision == "remove" and (not out or out[-1][1][-1].split()[0] != "remove")
            )
            if starts or not out or out[-1][0] != player:
                out.append((player, []))
            out[-1][1].append(notation)
        return out

    def last_action(self, player: int) -> list[str] | None:
        for who, moves in reversed(self.actions()):
            if who == player:
                return moves
        return None

    def moves(self) -> int:
        return int(self.page.evaluate("document.body.dataset.moves"))

    def settle(self, timeout: float = 60) -> None:
        try:
            self.page.wait_for(IDLE, timeout=timeout)
        except TimeoutError:
            page = self.page.evaluate(
                "JSON.stringify([document.body.dataset, document.getElementById('error').textContent])"
            )
            raise AssertionError(f"the page is not idle: {page}") from None
        assert self.page.evaluate("document.getElementById('error').textContent") == ""
        self.follow()

    # --- what the page must show ------------------------------------------------------------------------------

    def check_hand(self, player: int) -> None:
        shown = self.page.evaluate(
            "[...document.querySelectorAll('[aria-label=hand] [data-card]')].map(c => c.dataset.card)"
        )
        assert Counter(shown) == Counter(self.state.player(player).hand), (shown, self.state.player(player).hand)

    def check_kinds(self) -> None:
        offered = self.page.evaluate("[...document.querySelectorAll('#kinds [data-kind]')].map(b => b.dataset.kind)")
        legal = {self.state.game.action_name(a).split()[0] for a in self.state.legal_actions()}
        assert sorted(offered) == sorted(legal)

    def check_marked(self, player: int) -> None:
        """The last action of `player` is marked on the board (every space and line it names carries their
        number) and said under the board."""
        moves = self.last_action(player)
        if moves is None:
            return
        places = sorted(
            {
                word
                for move in moves
                for word in move.split()[1:]
                if ("/" in word or move.startswith("link ")) and word != "distant"
            }
        )
        unmarked = self.page.evaluate(f"""{json.dumps(places)}.filter(function (name) {{
            var els = [...document.querySelectorAll('#board [data-space="' + name + '"], #board [data-line="' + name + '"]')];
            return els.length === 0 || !els.every(e => (e.dataset.mark || '').split(' ').includes('{player}'));
        }})""")
        assert unmarked == [], (player, moves, unmarked)
        said = self.page.evaluate(f"document.querySelector('#lastmoves li[data-player=\"{player}\"]').textContent")
        kind = "remove" if moves[0].startswith("remove") else moves[0].split()[0]
        assert VERBS.get(kind, "") in said, (moves, said)

    def check_history(self) -> None:
        """One line of the history in words per action, one per era ended."""
        kinds = self.page.evaluate("[...document.querySelectorAll('#words li')].map(li => li.dataset.kind)")
        assert len([k for k in kinds if k != "era"]) == len(self.actions())
        assert kinds.count("era") == (2 if self.state.is_terminal else int(self.state.era == "rail"))

    # --- a person's decision ------------------------------------------------------------------------------------

    def shown(self, selector: str) -> list[int]:
        """The indices of the elements matching `selector` that are shown (a person can click them)."""
        return self.page.evaluate(
            f"[...document.querySelectorAll({json.dumps(selector)})].flatMap((e, i) => e.getClientRects().length ? [i] : [])"
        )

    def count(self, selector: str) -> int:
        return len(self.shown(selector))

    def pick(self, rng: random.Random, selector: str) -> bool:
        """Click one of the shown elements matching `selector`, chosen at random; False when there is none."""
        shown = self.shown(selector)
        if not shown:
            return False
        self.page.click(selector, rng.choice(shown))
        return True

    def decide(self, rng: random.Random, snapshot=None) -> None:
        """One decision of the human to move, by clicks on the guided turn, the hand, the mat and the board, each
        step chosen at random among what the page offers: at an action, its kind first, or a card of the hand
        first, or a place of the board first, or the industry on the mat; then cards, places and the options
        listed until a move is played (a card chosen first is played by the page when the engine asks for it)."""
        before = self.moves()
        action = self.state.decision == "action"
        order = rng.random()
        for clicks in range(16):
            if self.moves() > before:
                return
            narrowing = True
            if action and self.count("#kinds [data-kind]") and clicks == 0 and order < 0.25:
                narrowing = self.pick(rng, "[aria-label=hand] .card.usable")
            elif action and self.count("#kinds [data-kind]") and clicks == 0 and order < 0.45:
                self.pick(rng, "#board .playable")
            elif action and self.count("#kinds [data-kind]"):
                kinds = self.page.evaluate(
                    "[...document.querySelectorAll('#kinds [data-kind]')].map(b => b.dataset.kind)"
                )
                kind = rng.choices(kinds, [KIND_WEIGHTS.get(k, 1) for k in kinds])[0]
                direct = self.count(f'#kinds button.move[data-kind="{kind}"]')  # one way to do it: played at once
                self.page.click(f'#kinds [data-kind="{kind}"]')
                if not direct and rng.random() < 0.1:  # a choice taken back: the actions again
                    self.page.click("#back")
                    assert self.count("#kinds [data-kind]") > 0
            elif action and rng.random() < 0.2 and self.count("#mat button.ind"):
                self.pick(rng, "#mat button.ind")
            elif self.state.decision == "card" and rng.random() < 0.5 and self.count("[aria-label=hand] .card.usable"):
                self.pick(rng, "[aria-label=hand] .card.usable")
            elif rng.random() < 0.5 and self.count("#board .playable:not(.chosen)"):
                self.pick(rng, "#board .playable:not(.chosen)")
            elif not self.pick(rng, "#choices button.move"):
                # Choices that nothing fits (a place, then an industry not built there): the page says so and
                # offers Back, as a person would take it.
                hint = self.page.evaluate("document.getElementById('turnhint').textContent")
                assert hint.startswith("Nothing fits these choices") and self.count("#back"), "no move, no way back"
                self.page.click("#back")
            self.page.wait_for("document.body.dataset.busy === '0'", timeout=30)
            if narrowing and snapshot is not None and self.moves() == before and clicks >= 1:
                snapshot()
                snapshot = None
        raise AssertionError("no move after 16 clicks")


def screenshot(page: Page) -> bytes:
    """The page as a person sees it on arriving: scrolled to the top (clicks scroll what they reach into view)."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.screenshot()


def start(page: Page, url: str, seed: int, autoplay: bool) -> None:
    page.navigate(url)
    page.wait_for("document.querySelectorAll('[data-seat]').length > 0")
    page.evaluate(f"document.getElementById('seed').value = '{seed}'")
    if not autoplay:
        page.click("#autoplay")
        assert page.evaluate("document.getElementById('autoplay').checked") is False
    page.click("#start")
    page.wait_for("document.body.dataset.game && document.querySelector('#board svg') !== null")
    page.wait_for(IDLE, timeout=60)


def test_a_whole_birmingham_game_against_greedy_by_clicks(browser, tmp_path) -> None:
    app = serve.App(defaults={"game": "birmingham", "players": 2, "seats": ["human", "greedy"], "delay": 0})
    shots_to = os.environ.get("BRASS_SERVE_SCREENSHOTS")
    shots: dict[str, bytes] = {}
    with serve.start(app) as running:
        page = browser.new_page(WIDTH, HEIGHT)
        start(page, running.url, seed=3, autoplay=False)
        table = Table(page, app)
        table.settle()
        rng = random.Random(3)
        human_decisions = agent_moves = 0
        while not table.state.is_terminal:
            player = table.state.current_player
            if page.evaluate("document.body.dataset.agent") == "true":
                before = table.moves()
                page.click("#step")
                page.wait_for(f"Number(document.body.dataset.moves) === {before + 1}", timeout=60)
                table.settle()
                table.check_marked(player)
                agent_moves += 1
                continue
            table.check_hand(player)
            if table.state.decision == "action":
                table.check_kinds()
            shot = screenshot(page)
            shots.setdefault("first", shot)
            shots["last"] = shot
            # The middle: the last choice under way of the Canal Era.
            table.decide(
                rng, (lambda: shots.__setitem__("middle", screenshot(page))) if table.state.era == "canal" else None
            )
            table.settle()
            human_decisions += 1
        table.check_history()
        assert page.evaluate("document.getElementById('status').textContent").startswith("Game over:")
        for p in range(2):
            table.check_marked(p)
        assert human_decisions > 40 and agent_moves > 40
        assert set(shots) == {"first", "middle", "last"}
        if shots_to:
            for name, png in shots.items():
                Path(shots_to, f"serve-{name}.png").write_bytes(png)


def test_a_whole_lancashire_game_at_three_players_with_the_agents_moving_by_themselves(browser) -> None:
    seats = ["human", "random", "greedy"]
    app = serve.App(defaults={"game": "lancashire", "players": 3, "seats": seats, "delay": 0})
    with serve.start(app) as running:
        page = browser.new_page(WIDTH, HEIGHT)
        start(page, running.url, seed=8, autoplay=True)
        table = Table(page, app)
        table.settle()
        rng = random.Random(8)
        decisions = 0
        while not table.state.is_terminal:
            assert table.state.current_player == 0
            table.check_hand(0)
            if table.state.decision == "action":
                table.check_kinds()
            for agent in (1, 2):
                table.check_marked(agent)
            table.decide(rng)
            table.settle()
            decisions += 1
        table.check_history()
        assert decisions > 40
        status = page.evaluate("document.getElementById('status').textContent")
        assert status == f"Game over: {brass.text.result(table.state)}"


def test_the_original_brass_700_px_wide_from_the_keyboard(browser) -> None:
    """Every region fits a narrow window (no sideways scrolling), and a few turns are played with the keyboard
    alone: an action chosen with Enter and forgotten with Esc, a place of the board reached by focus, options
    and cards taken with Enter."""
    app = serve.App(
        defaults={"game": "brass", "players": 4, "seats": ["human", "random", "random", "random"], "delay": 0}
    )
    with serve.start(app) as running:
        page = browser.new_page(700, 1000)
        start(page, running.url, seed=5, autoplay=True)
        table = Table(page, app)
        table.settle()
        assert page.evaluate("document.documentElement.scrollWidth") <= 700
        for region in ("hand", "mat", "players", "turn", "board"):
            box = page.evaluate(
                f"JSON.stringify(document.querySelector('[aria-label={region}]').getBoundingClientRect())"
            )
            box = json.loads(box)
            assert box["width"] > 300 and box["left"] >= 0 and box["right"] <= 700, (region, box)
        for turn in range(6):
            if table.state.is_terminal:
                break
            table.check_hand(0)
            before = table.moves()
            if table.state.decision == "action" and turn % 2 == 0:
                # Enter on an action narrows the turn to it; Esc takes the choice back.
                page.evaluate("document.querySelector('#kinds button.kind:not(.move)').focus()")
                page.press("Enter")
                page.wait_for("document.querySelectorAll('#crumbs .crumb').length === 1")
                page.press("Escape")
                page.wait_for("document.querySelectorAll('#crumbs .crumb').length === 0")
                # A place of the board, reached by focus and taken with Enter: its move, or its moves to choose from.
                page.evaluate("document.querySelector('#board .playable').focus()")
                page.press("Enter")
                page.wait_for(
                    f"Number(document.body.dataset.moves) > {before} || document.querySelector('#choices button.move')"
                )
            while table.moves() == before:
                page.evaluate("document.querySelector('#choices button.move, #kinds button.move').focus()")
                page.press("Enter")
                page.wait_for(f"Number(document.body.dataset.moves) > {before} || document.body.dataset.busy === '0'")
            table.settle()
        assert page.evaluate("document.documentElement.scrollWidth") <= 700
