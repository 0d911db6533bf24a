"""What the commands share: `UserError` and the arguments several commands take (`--game`, `--option`), the check
that an output can be written, and the progress bar."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import brass


class UserError(Exception):
    """A mistake of the user's, reported as one line."""


def options(args: argparse.Namespace) -> dict[str, bool]:
    """`--option intro --option virtual_link` -> {"intro": True, "virtual_link": True} (docs/classic.md). Only
    true/false options can be set this way, so only they are offered (a `variant` takes a name)."""
    specs = brass.games()[args.game]["options"] if args.game in brass.games() else {}
    offered = ", ".join(name for name, spec in specs.items() if spec.get("type") == "bool") or "none"
    for name in args.option or []:
        if name not in specs:
            raise UserError(f"unknown option `{name}` for {args.game}; --option takes: {offered}")
        if specs[name].get("type") != "bool":
            raise UserError(
                f"`{name}` is not a true/false option, so --option cannot set it; --option takes: {offered}"
            )
    return {name: True for name in args.option or []}


def add_game_argument(parser: argparse.ArgumentParser, otherwise: str = "") -> None:
    """`--game GAME`: a game of the catalog (default lancashire; `otherwise` says when another is used instead)."""
    names = sorted(brass.games())  # the keys are the game names
    parser.add_argument(
        "--game",
        default="lancashire",
        choices=names,
        metavar="GAME",
        help=f"{' or '.join(names)} (default lancashire{otherwise})",
    )


def add_configuration_arguments(parser: argparse.ArgumentParser, players: int = 4, otherwise: str = "") -> None:
    """`--game`, `--players` (one count, default `players`) and `--option`: the configuration a command plays;
    `otherwise` says when other defaults are used instead (`brass learn`: a recipe's, a resumed run's)."""
    add_game_argument(parser, otherwise)
    parser.add_argument(
        "--players",
        type=int,
        default=players,
        choices=(2, 3, 4),
        help=f"the number of players (default {players}{otherwise})",
    )
    add_option_argument(parser)


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """`--option NAME`, repeatable: a true/false option of the game set to true."""
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME",
        help=f"a game option set to true, repeatable: {_option_names()}",
    )


def _option_names() -> str:
    """`intro (birmingham, lancashire), virtual_link (lancashire), ...`: each true/false option and its games."""
    games: dict[str, list[str]] = {}
    for game, about in sorted(brass.games().items()):
        for option, spec in about["options"].items():
            if spec.get("type") == "bool":
                games.setdefault(option, []).append(game)
    return (
        ", ".join(f"{option} ({', '.join(names)})" for option, names in games.items())
        + " (docs/classic.md, docs/birmingham.md)"
    )


def port(text: str) -> int:
    """`--port`'s type: a TCP port, 1 to 65535, checked as the arguments are read (the server's own error for
    one out of range is a traceback, and comes after the address was printed as if it listened)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}") from None
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {number}")
    return number


def check_writable(*paths: str | None) -> None:
    """Fail now, before any game is played, when an output's folder is missing or cannot be written."""
    for path in paths:
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise UserError(f"cannot write {path}: there is no folder {folder}")
        if not os.access(folder, os.W_OK):
            raise UserError(f"cannot write {path}: the folder {folder} is not writable")


@contextlib.contextmanager
def progress_bar(what: str, total: int, disable: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar with games/s and the time left; yields the function that moves it to a count."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{task.speed:,.0f} games/s" if task.speed else "")

    with Progress(
        TextColumn(what), BarColumn(), MofNCompleteColumn(), Speed(), TimeRemainingColumn(),
        transient=True, disable=disable,
    ) as progress:  # fmt: skip
        task = progress.add_task(what, total=total)
        last = [0.0]

        def advance(done: int) -> None:
            # Redrawing costs more than a random game: at most 10 updates a second.
            now = time.monotonic()
            if now - last[0] >= 0.1 or done == total:
                last[0] = now
                progress.update(task, completed=done)

        yield advance
