"""`brass serve`: play and analyse games in the browser (docs/serve.md). The server (`brass.serve`, the `serve`
extra) is imported only when the command runs."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

import brass
from brass.cli._common import UserError, port


def add_parser(sub: Any) -> None:
    """Add `brass serve` to the command line's subcommands."""
    sv = sub.add_parser("serve", help="play and analyse games in the browser (docs/serve.md)")
    sv.add_argument("--game", choices=sorted(brass.games()), help="the game the page offers first")
    sv.add_argument("--players", type=int, choices=(2, 3, 4), help="the player count the page offers first")
    sv.add_argument(
        "--agents", nargs="+", metavar="SEAT", help="the seats the page offers first: human or an agent spec each"
    )
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    sv.add_argument("--port", type=port, default=8000, help="the port, 1 to 65535 (default 8000)")
    sv.add_argument("--max-games", type=int, default=64, help="games kept in memory (default 64)")
    sv.add_argument(
        "--store",
        metavar="DIR",
        help="keep every game in this folder too, written as it changes: a restarted server serves the same games",
    )
    sv.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass serve`: the seats checked, then the server until it is stopped; the exit code."""
    from brass import serve

    if args.max_games < 1:
        raise UserError("--max-games must be at least 1")
    serve.require_extra()  # before the address is printed: a server that cannot start must not seem to
    if args.store is not None:
        # The folder probed and its games read now, then again by the server: an error is reported before the
        # address is printed.
        serve.Store(args.max_games, folder=args.store)
    defaults: dict[str, object] = {k: v for k, v in (("game", args.game), ("players", args.players)) if v}
    if args.agents:
        game = brass.Game(args.game or "lancashire", players=args.players or len(args.agents))
        try:
            serve.parse_seats(args.agents, game)  # a bad spec is reported now
        except serve.RequestError as e:
            raise UserError(e.message) from None
        defaults.update(seats=args.agents, players=len(args.agents))
    check_host(args.host, args.port)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"brass serve: listening on {args.host}: anyone who can reach this machine can use the server",
            file=sys.stderr,
        )
    print(f"brass serve: http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    serve.run(args.host, args.port, args.max_games, defaults, args.store)
    return 0


def check_host(host: str, port: int) -> None:
    """Refuse, before the address is printed, a host the server could not listen on: one that does not resolve
    (the server would print the address, then fail), or an empty one, which listens on every address of the
    machine, as `0.0.0.0` does, though it reads like no host at all (an unset shell variable)."""
    if not host.strip():
        raise UserError("--host is empty: give an address (0.0.0.0 listens on every address of this machine)")
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise UserError(f"cannot listen on --host {host}: {getattr(e, 'strerror', None) or e}") from None
