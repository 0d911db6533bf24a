"""`brass replay` and `brass render`: game records checked move by move and their scores against the file, one
game's moves in notation or its pictures (`--moves`, `--svg DIR`), and the replay viewer of a game (one
self-contained HTML page, `brass.viewer`).

RECORD files hold one game record (JSON) or one per line (JSON Lines, as `selfplay --out` writes, plain or
compressed); `--game-index N` (default 0) chooses the game. Both commands read them with one reader, so they accept
the same files and word the same errors the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import brass
from brass import records
from brass.cli._common import UserError
from brass.text import count


def add_parser(sub: Any) -> None:
    """Add `brass replay` and `brass render` to the command line's subcommands."""
    rp = sub.add_parser("replay", help="replay game records, checking every move and the final scores")
    rp.add_argument("file")
    rp.add_argument("--moves", action="store_true", help="print the moves of one game in notation, numbered")
    rp.add_argument("--svg", metavar="DIR", help="write a picture of each position of one game: DIR/000.svg, ...")
    rp.add_argument(
        "--game-index",
        type=int,
        default=None,
        metavar="N",
        help="the game for --moves and --svg: the Nth record of the file, from 0 (default 0); checked first",
    )
    rp.set_defaults(run=run)

    vp = sub.add_parser("render", help="write the replay viewer of a game: one self-contained HTML page")
    vp.add_argument("record", metavar="RECORD", help="a JSON game record, or JSON Lines of them (selfplay --out)")
    vp.add_argument("-o", "--out", required=True, metavar="FILE", help="the HTML file to write")
    vp.add_argument(
        "--game-index", type=int, default=0, metavar="N", help="the Nth record of a JSON Lines file, from 0 (default 0)"
    )
    vp.add_argument("--hands", action="store_true", help="show every player's hand from the start (a checkbox)")
    vp.set_defaults(run=render)


def _record_of(entry: Any) -> Any:
    """The game record of a file entry: a record itself, or a `selfplay --out` line (whose `record` is taken)."""
    if isinstance(entry, dict) and "format" not in entry and "record" in entry:
        return entry["record"]
    return entry


def _entries(path: str) -> Iterator[tuple[str, Any]]:
    """The entries of a record file, each with where it is (`FILE` or `FILE:LINE`), read one line at a time: JSON
    Lines of records or of `selfplay --out` lines, or one JSON record (pretty-printed or not). The one reader of
    `replay` and `render`, so both accept the same files and word the same errors the same way."""
    n = 0
    found = False
    try:
        with records.open_records(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except ValueError as e:
                    if found:
                        raise UserError(f"{path}:{n}: not JSON ({e})") from None
                    # Not a line of JSON Lines: the whole file may be one pretty-printed record.
                    try:
                        entry = json.loads(line + f.read())
                    except ValueError:
                        raise UserError(f"{path}:{n}: not JSON ({e})") from None
                    yield path, entry
                    return
                found = True
                yield f"{path}:{n}", entry
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text" + (f" (line {n + 1})" if n else "")) from None
    except (EOFError, brass.BrassError) as e:
        raise UserError(f"{path}: after line {n}, the file cannot be read: {e}") from None
    if not found:
        raise UserError(f"{path}: no game record in the file")


def _check_game_index(path: str, index: int) -> None:
    """`--game-index` names a record of the file (checked before any replay)."""
    held = sum(1 for _ in _entries(path))
    if not 0 <= index < held:
        raise _no_such_index(path, held)


def _no_such_index(path: str, held: int) -> UserError:
    return UserError(f"{path} holds {count(held, 'game record')}: --game-index must be between 0 and {held - 1}")


def _replay(args: argparse.Namespace) -> int:
    if args.game_index is not None:
        _check_game_index(args.file, args.game_index)
    games = decisions = 0
    unfinished: list[str] = []
    for where, entry in _entries(args.file):
        state = _replay_entry(where, entry)
        decisions += len(state.history)
        games += 1
        if not state.is_terminal:
            unfinished.append(f"{where} after {count(len(state.history), 'decision')}")
    print(_replay_summary(args.file, games, decisions, unfinished))
    return 0


def _replay_summary(path: str, games: int, decisions: int, unfinished: list[str]) -> str:
    head = f"{count(games, 'game')} replayed from {path}: every action legal"
    if not unfinished:
        return f"{head}, every final score matches ({count(decisions, 'decision')})"
    finished = games - len(unfinished)
    shown = "; ".join(unfinished[:3]) + ("; ..." if len(unfinished) > 3 else "")
    scores = f"{finished} finished, every final score matches" if finished else "none finished"
    return f"{head} ({count(decisions, 'decision')}); {scores}; {len(unfinished)} unfinished: {shown}"


def _replay_entry(where: str, entry: Any) -> brass.State:
    """Replay the game of one entry, checking a `selfplay --out` line's scores and winners; the final state."""
    try:
        state = brass.replay(json.dumps(_record_of(entry)))
    except (ValueError, KeyError, TypeError) as e:
        raise UserError(f"{where}: {e}") from None
    if isinstance(entry, dict) and "scores" in entry and state.scores != entry["scores"]:
        raise UserError(f"{where}: replayed scores {state.scores} differ from recorded {entry['scores']}")
    if isinstance(entry, dict) and "winners" in entry and state.winners != entry["winners"]:
        raise UserError(f"{where}: replayed winners differ from the record")
    return state


def _pick_record(path: str, index: int) -> tuple[str, Any]:
    """The record `--game-index` chooses and where it is."""
    held = 0
    for where, entry in _entries(path):
        if held == index:
            return where, _record_of(entry)
        held += 1
    raise _no_such_index(path, held)


def _chosen_game(path: str, index: int) -> tuple[str, list]:
    """Where the record `--game-index` chooses is, and its positions (brass.viewer.positions)."""
    from brass import viewer

    where, record = _pick_record(path, index)
    try:
        return where, viewer.positions(record)
    except brass.BrassError as e:
        raise UserError(f"{where}: {e}") from None


_PICTURE = re.compile(r"^[0-9]{3,}\.svg$")


def run(args: argparse.Namespace) -> int:
    """`brass replay`: check every record, then `--moves` / `--svg DIR` for the chosen game. Pictures are written
    before anything is printed, so a reader of stdout that goes away early (`| head`) does not stop them."""
    if not (args.moves or args.svg):
        return _replay(args)
    from brass import svg

    index = 0 if args.game_index is None else args.game_index
    _check_game_index(args.file, index)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = _replay(args)
    _, game_positions = _chosen_game(args.file, index)
    if args.svg:
        width = max(3, len(str(len(game_positions) - 1)))
        try:
            os.makedirs(args.svg, exist_ok=True)
            # Pictures of an earlier, longer game would pass for this game's later positions.
            for name in os.listdir(args.svg):
                if _PICTURE.match(name):
                    os.remove(os.path.join(args.svg, name))
            for p in game_positions:
                with open(os.path.join(args.svg, f"{p.index:0{width}d}.svg"), "w", encoding="utf-8") as f:
                    f.write(svg.board(p.state, scored_links=p.scored_links))
        except OSError as e:
            raise UserError(f"cannot write to {args.svg}: {e.strerror}") from None
    sys.stdout.write(buffer.getvalue())
    if args.moves:
        for position in game_positions[1:]:
            print(position.move)
    if args.svg:
        print(
            f"{len(game_positions)} pictures written to {args.svg} ({0:0{width}d}.svg to "
            f"{len(game_positions) - 1:0{width}d}.svg)"
        )
    return code


def render(args: argparse.Namespace) -> int:
    """`brass render RECORD -o game.html`: the replay viewer of one game."""
    from brass import viewer

    where, record = _pick_record(args.record, args.game_index)
    try:
        page = viewer.render_html(record, hands=args.hands)
    except brass.BrassError as e:
        raise UserError(f"{where}: {e}") from None
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        raise UserError(f"cannot write {args.out}: {e.strerror}") from None
    moves = page.count("<li data-index=") - 1
    print(f"{args.out}: replay of {where}, {moves} moves, {len(page.encode()) / 1e3:.0f} kB")
    return 0
