"""The `brass` command line: one module per command, each with `add_parser(sub)` and `run(args)`.

    brass selfplay [--game G] [--players 4] [--option NAME] [--agents mcts:200 greedy greedy random]
                   [--games 40] [--seed 1] [--jobs N] [--out games.jsonl[.gz|.zst]] [--samples FILE.parquet]
                   [--sample-rate R] [--overwrite | --resume] [--ray [ADDRESS]]
    brass arena [--game G] [--players 4] --agents random greedy mcts:300 ... (docs/arena.md)
    brass replay games.jsonl [--moves] [--svg DIR] [--game-index N]
    brass render games.jsonl [--game-index N] -o game.html
    brass play [--game G] [--players 4] [--option NAME] [--seat 0] [--agents greedy ...] [--seed 1]
    brass serve [--game G] [--players N] [--agents SEAT ...] [--host H] [--port 8000] (docs/serve.md)
    brass bench [--game G] [--players 2 3 4] [--json] [--quick]
    brass learn --out DIR [--recipe NAME] [--game G] [--players 2] [--minutes M] [--resume] (docs/learning.md)

`replay --moves` prints one game's moves in notation, numbered, with the player who made each; `replay --svg DIR`
writes the picture of each of its positions (000.svg, 001.svg, ...); `render` writes the replay viewer, one
self-contained HTML page stepping through the game (brass.viewer). RECORD files hold one game record (JSON) or
one per line (JSON Lines, as `selfplay --out` writes); `--game-index N` (default 0) chooses the game.

User mistakes (a bad option, an unreadable file, an illegal move) print one line and exit non-zero: a `UserError`
of a command, or any `brass.BrassError` the library raises.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import NoReturn

import brass
from brass.cli import arena, bench, learn, play, replay, selfplay, serve
from brass.cli._common import UserError

#: The commands' modules, in the order `brass --help` lists them (`replay` adds `render` too).
COMMANDS = (selfplay, replay, play, serve, bench, arena, learn)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"brass: {message} (see `brass --help`)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command: each command's module adds its own."""
    parser = _Parser(prog="brass", description="Rules engine for the Brass board games.")
    parser.add_argument("--version", action="version", version=f"brass {brass.__version__}")
    # Not `required=True`: argparse reports a missing required argument before an unknown one, so `brass --bogus`
    # would say a command is missing rather than name `--bogus`; `main` asks for the command once the rest is read.
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command `argv` names (default the process's arguments); the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.error("the following arguments are required: command")
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a reader that went away shows here rather than at exit
        return code
    except (UserError, brass.BrassError) as e:
        print(f"brass: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("brass: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`brass replay --moves | head`): stop quietly. What is left in the stdout buffer
        # can never be written, so stdout goes to /dev/null, or Python would complain when it flushes at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a program stopped by SIGPIPE (128 + 13)


__all__ = ["COMMANDS", "UserError", "build_parser", "main"]
