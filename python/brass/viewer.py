"""A replay viewer: one self-contained HTML page that steps through a recorded game.

    import brass.viewer
    html = brass.viewer.render_html(state.record())      # a record as JSON text or as its parsed object
    open("game.html", "w", encoding="utf-8").write(html)

or from the command line: `brass render games.jsonl --game-index 3 -o game.html`.

The page shows the board of the current position (`brass.svg.board`), the move that led to it
("12. player 2: build cotton_mill manchester/1"), the era, round and decision, each player's money, income
level and VP, and the list of every move in notation; Previous / Next / First / Last buttons, the arrow keys
(Left / Right, Home / End) and a click on a move step through the game. It needs no network access: the
style, the script and the pictures are inside the file.

Positions are made by replaying the record (the start state from its seed or its `start` object, then each
action id), after the engine has checked the whole record (`brass.replay`): position 0 is the start, position k
the state after move k. Links leave the board when an era is scored, so the position after a scoring move is
drawn with the links that move removed as an overlay (`brass.svg.board(..., scored_links=...)`): the picture
of a finished game shows the network that scored.

Size: the pictures of consecutive positions share almost all their text, so each picture is cut into pieces
before each `<g` and `<text` element, every distinct piece is stored once, and each position is a list of
runs of piece numbers. Measured: a 246-move four-player game (MCTS self-play) gives a 499 kB page, a 256-move
one 449 kB, where its pictures in full would take 11.7 MB (40-60 kB each).
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

import brass
import brass.svg
import brass.text

FORMAT = "brass-record/1"


@dataclass(frozen=True)
class Position:
    """One position of a replayed game: `index` 0 is the start, k the state after move k; `move` the label of
    the move that led here (None at the start); `scored_links` the links this move scored and removed."""

    index: int
    state: brass.State
    move: str | None
    player: int | None
    action: int | None
    scored_links: dict[str, int] | None


# --- Reading and replaying a record -------------------------------------------------------------------------


def load_record(record: Any) -> dict:
    """The record as a dict, checked: JSON text (str or bytes) or its parsed object, in the format
    `state.record()` writes; every action is checked by the engine (`brass.replay`). Raises
    `InvalidStateError` for a malformed record, `IllegalActionError` for an illegal move, `ConfigError` for
    an unknown game, `ArgumentTypeError` for input that is no record at all."""
    if isinstance(record, bytes | bytearray):
        try:
            record = record.decode("utf-8")
        except UnicodeDecodeError as e:
            raise brass.InvalidStateError(f"game record: not UTF-8 text ({e.reason})") from None
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError as e:
            raise brass.InvalidStateError(f"game record: not JSON ({e})") from None
    elif not isinstance(record, dict):
        raise brass.ArgumentTypeError(
            f"a game record (JSON text or its parsed object) is needed, not {type(record).__name__}"
        )
    if not isinstance(record, dict):
        raise brass.InvalidStateError(f"game record: a JSON object is needed, not {type(record).__name__}")
    if "format" not in record and isinstance(record.get("record"), dict):
        raise brass.InvalidStateError(
            "game record: this is a `brass selfplay` line; its game record is the value of its `record` key"
        )
    if record.get("format") != FORMAT:
        raise brass.InvalidStateError(f"game record: `format` must be `{FORMAT}`, not {record.get('format')!r}")
    game = record.get("game")
    if (
        not isinstance(game, dict)
        or not isinstance(game.get("name"), str)
        or isinstance(game.get("players"), bool)
        or not isinstance(game.get("players"), int)
        or not isinstance(game.get("options", {}), dict)
    ):
        raise brass.InvalidStateError(
            "game record: `game` must be an object with `name` (text), `players` (integer) and `options` (object)"
        )
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise brass.InvalidStateError("game record: `actions` must be a list of action ids (integers)")
    if ("seed" in record) == ("start" in record):
        raise brass.InvalidStateError("game record: exactly one of `seed` and `start` is needed")
    if "start" in record and not isinstance(record["start"], dict):
        raise brass.InvalidStateError("game record: `start` must be a state object")
    brass.replay(json.dumps(record))  # the engine's own checks: data version, seed, start state, every move
    return record


def _start_state(record: dict) -> brass.State:
    if "start" in record:
        return brass.State.from_json(json.dumps(record["start"]))
    game = record["game"]
    return brass.Game(game["name"], players=game["players"], **game.get("options", {})).new_state(record["seed"])


def move_label(number: int, player: int | None, notation: str) -> str:
    """'12. player 2: build cotton_mill manchester/1'."""
    who = "no player" if player is None else f"player {player}"
    return f"{number}. {who}: {notation}"


def positions(record: Any) -> list[Position]:
    """Every position of the game, from the start to the last move (see `Position`); the record is checked
    first (`load_record`)."""
    return _replay(load_record(record))


def _replay(record: dict) -> list[Position]:
    """The positions of a record already checked by `load_record`."""
    state = _start_state(record)
    game = state.game
    out = [Position(0, state.clone(), None, None, None, None)]
    for number, action in enumerate(record["actions"], start=1):
        player = state.current_player
        before = state.links
        try:
            state.apply(action)
        except brass.BrassError as e:  # brass.replay accepted the record, so this is not expected
            raise type(e)(f"game record: move {number} (action {action}): {e}") from None
        after = state.links
        removed = {line: owner for line, owner in before.items() if line not in after}
        label = move_label(number, player, game.action_name(action))
        out.append(Position(number, state.clone(), label, player, action, removed or None))
    return out


def pictures(record: Any) -> list[str]:
    """The SVG picture of every position (`brass.svg.board`), scored links drawn where a move removed them."""
    return [brass.svg.board(p.state, scored_links=p.scored_links) for p in positions(record)]


# --- The page -----------------------------------------------------------------------------------------------

_PIECE = re.compile(r"(?=<g[ >]|<text)")
_XMLNS = ' xmlns="http://www.w3.org/2000/svg"'


def _pack(svgs: list[str]) -> tuple[list[str], list[list[int]]]:
    """Each picture cut into pieces before each `<g` and `<text`; the distinct pieces (numbered in order of first
    appearance) and, per picture, its piece numbers as runs: [first, count, first, count, ...]."""
    numbers: dict[str, int] = {}
    pieces: list[str] = []
    runs: list[list[int]] = []
    for svg in svgs:
        ids = []
        # Inline in HTML, <svg> is in the SVG namespace without the attribute: the page names no URL at all.
        for piece in _PIECE.split(svg.replace(_XMLNS, "", 1)):
            if piece not in numbers:
                numbers[piece] = len(pieces)
                pieces.append(piece)
            ids.append(numbers[piece])
        packed: list[int] = []
        for i in ids:
            if packed and packed[-2] + packed[-1] == i:
                packed[-1] += 1
            else:
                packed += [i, 1]
        runs.append(packed)
    return pieces, runs


def _script_json(value: Any) -> str:
    """JSON that is safe inside a `<script>` element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def _title(record: dict, game: brass.Game) -> str:
    title = f"{brass.svg.GAME_TITLES.get(game.name, game.name)} — {game.players} players"
    options = [key if value is True else f"{key}={value}" for key, value in sorted(game.options.items())]
    if options:
        title += f" ({', '.join(options)})"
    title += f", seed {record['seed']}" if "seed" in record else ", from a saved position"
    headers = record.get("headers") or {}
    seated = [headers.get(f"player_{p}") for p in range(game.players)]
    if any(seated):
        title += " · " + ", ".join(f"{p}: {name}" for p, name in enumerate(seated) if name)
    if headers.get("event"):
        title += f" · {headers['event']}" + (f", {headers['date']}" if headers.get("date") else "")
    return title


def _info(p: Position) -> dict:
    s = p.state
    players = [s.player(i) for i in range(s.game.players)]
    return {
        "era": s.era,
        "round": s.round,
        "decision": s.decision,
        "current": s.current_player,
        "hands": [list(v.hand) for v in players],
        "result": brass.text.result(s) if s.is_terminal else "",
    }


_STYLE = """
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 Helvetica, Arial, sans-serif; color: #222; background: #fafafa; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 14px;
  background: #fff; border-bottom: 1px solid #ddd; }
h1 { font-size: 17px; margin: 0; flex: 1 1 auto; }
nav { display: flex; align-items: center; gap: 6px; }
button { font: inherit; padding: 4px 10px; border: 1px solid #999; border-radius: 4px; background: #f4f4f4;
  cursor: pointer; }
button:hover:not(:disabled) { background: #e6eef7; }
button:disabled { opacity: 0.45; cursor: default; }
#counter { min-width: 9em; text-align: center; font-variant-numeric: tabular-nums; }
main { display: flex; gap: 12px; padding: 10px 14px; align-items: flex-start; }
#view { flex: 1 1 auto; min-width: 0; }
#move { font-size: 16px; font-weight: bold; margin: 0 0 6px; min-height: 1.4em; }
#note { margin: 4px 0 0; color: #555; min-height: 1.4em; }
#board svg { display: block; width: 100%; height: auto; max-height: calc(100vh - 140px);
  border: 1px solid #ddd; background: #fff; }
aside { flex: 0 0 340px; display: flex; flex-direction: column; gap: 10px; max-height: calc(100vh - 80px); }
#status { font-weight: bold; }
#moves { flex: 1 1 auto; overflow-y: auto; margin: 0; padding: 0; list-style: none; background: #fff;
  border: 1px solid #ddd; min-height: 160px; }
#moves li { padding: 2px 8px 2px 2.2em; text-indent: -1.4em; cursor: pointer; font-size: 13px; }
#moves li:hover { background: #eef3f8; }
#moves li[aria-current="true"] { background: #0072B2; color: #fff; }
.help { color: #666; font-size: 12px; margin: 0; }
#hands { margin: 0; padding: 4px 8px; list-style: none; background: #fff; border: 1px solid #ddd; font-size: 13px; }
/* A narrow window (a phone, a docked pane, 700 px): the side column goes under the board, whose picture
   keeps the full width; nothing scrolls sideways. */
@media (max-width: 900px) {
  header { padding: 6px 8px; }
  nav { flex-wrap: wrap; }
  main { flex-direction: column; padding: 6px 8px; }
  #view, aside { width: 100%; }
  aside { flex: 1 1 auto; max-height: none; }
  #board svg { max-height: none; }
  #moves { max-height: 40vh; }
}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("brass-data").textContent);
  var count = data.positions.length;
  var board = document.getElementById("board");
  var moveText = document.getElementById("move");
  var note = document.getElementById("note");
  var counter = document.getElementById("counter");
  var statusText = document.getElementById("status");
  var handsBox = document.getElementById("show-hands");
  var handsList = document.getElementById("hands");
  var items = document.querySelectorAll("#moves li");
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last")
  };
  var current = -1;

  function picture(i) {
    var runs = data.positions[i], out = [];
    for (var k = 0; k < runs.length; k += 2) {
      for (var j = runs[k]; j < runs[k] + runs[k + 1]; j++) { out.push(data.pieces[j]); }
    }
    return out.join("");
  }

  function showHands() {
    var info = data.info[current];
    handsList.hidden = !handsBox.checked;
    handsList.innerHTML = "";
    if (!handsBox.checked) { return; }
    for (var p = 0; p < info.hands.length; p++) {
      var item = document.createElement("li");
      item.setAttribute("data-player", String(p));
      item.textContent = "player " + p + ": " + (info.hands[p].join(", ") || "no cards");
      handsList.appendChild(item);
    }
  }

  function show(i) {
    i = Math.max(0, Math.min(count - 1, i));
    if (i === current) { return; }
    if (current >= 0) { items[current].removeAttribute("aria-current"); }
    current = i;
    var info = data.info[i];
    board.innerHTML = picture(i);
    moveText.textContent = i === 0 ? "Start of the game" : data.moves[i - 1];
    counter.textContent = "position " + i + " of " + (count - 1);
    var era = info.era.charAt(0).toUpperCase() + info.era.slice(1);
    statusText.textContent = info.decision === "over"
      ? "Game over (" + era + " Era, round " + info.round + "): " + info.result
      : era + " Era, round " + info.round + ": player " + info.current + " to decide (" + info.decision + ")";
    note.textContent = info.scored || "";
    showHands();
    items[i].setAttribute("aria-current", "true");
    items[i].scrollIntoView({block: "nearest"});
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.next.disabled = buttons.last.disabled = i === count - 1;
    document.body.setAttribute("data-position", String(i));
  }

  buttons.first.addEventListener("click", function () { show(0); });
  buttons.prev.addEventListener("click", function () { show(current - 1); });
  buttons.next.addEventListener("click", function () { show(current + 1); });
  buttons.last.addEventListener("click", function () { show(count - 1); });
  handsBox.addEventListener("change", showHands);
  document.getElementById("moves").addEventListener("click", function (event) {
    var item = event.target.closest("li[data-index]");
    if (item) { show(Number(item.getAttribute("data-index"))); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1}[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    show(to);
  });
  show(0);
})();
"""


def render_html(record: Any, *, hands: bool = False) -> str:
    """One self-contained HTML page stepping through the game of `record` (see the module docstring): JSON
    text or its parsed object, as `state.record()` writes it. The players are shown once, in the picture's
    panel; every player's hand (which the record knows) is shown under a checkbox, ticked with `hands=True`.
    A malformed record raises a `BrassError` subclass (`load_record`)."""
    record = load_record(record)
    game_positions = _replay(record)
    game = game_positions[0].state.game
    svgs = [brass.svg.board(p.state, scored_links=p.scored_links) for p in game_positions]
    pieces, runs = _pack(svgs)
    info = []
    for before, p in zip([None, *game_positions], game_positions, strict=False):
        entry = _info(p)
        if p.scored_links and before is not None:
            entry["scored"] = (
                f"Dashed links: scored at the end of the {before.state.era} era, then removed from the board."
            )
        info.append(entry)
    data = {"pieces": pieces, "positions": runs, "info": info, "moves": [p.move for p in game_positions[1:]]}
    title = _title(record, game)

    move_items = ['<li data-index="0">Start of the game</li>'] + [
        f'<li data-index="{p.index}">{html.escape(p.move or "")}</li>' for p in game_positions[1:]
    ]
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body data-position="">
<header>
<h1>{html.escape(title)}</h1>
<nav>
<button id="first" type="button" title="First position (Home)">&#xAB; First</button>
<button id="prev" type="button" title="Previous position (Left arrow)">&#x2039; Previous</button>
<span id="counter"></span>
<button id="next" type="button" title="Next position (Right arrow)">Next &#x203A;</button>
<button id="last" type="button" title="Last position (End)">Last &#xBB;</button>
</nav>
</header>
<main>
<section id="view">
<p id="move"></p>
<div id="board"></div>
<p id="note"></p>
</section>
<aside>
<div id="status"></div>
<label class="help"><input type="checkbox" id="show-hands"{" checked" if hands else ""}> show every hand</label>
<ul id="hands" hidden></ul>
<p class="help">Keys: &#x2190; / &#x2192; step, Home / End jump; click a move to go there.</p>
<ol id="moves">
{chr(10).join(move_items)}
</ol>
</aside>
</main>
<script type="application/json" id="brass-data">{_script_json(data)}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
