"""`brass play`: a game against agents in the terminal. Moves are typed as their number in the list, their
notation, or (when every move but `stop` is of one kind) the rest of the notation alone; `moves`, `board`,
`undo`, `help` and `quit` are commands."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

import brass
from brass import _catalog, agents
from brass.cli._common import UserError, add_configuration_arguments, check_writable, options
from brass.text import count, result


def add_parser(sub: Any) -> None:
    """Add `brass play` to the command line's subcommands."""
    pp = sub.add_parser("play", help="play against agents in the terminal")
    add_configuration_arguments(pp)
    pp.add_argument(
        "--seat",
        type=int,
        default=0,
        metavar="N",
        help="your player number, from 0 (default 0; the turn order is random)",
    )
    pp.add_argument("--agents", nargs="+", metavar="AGENT", help="agents for the other seats (default greedy)")
    pp.add_argument("--seed", type=int, help="the deal (default: a fresh one, printed)")
    pp.add_argument(
        "--out", metavar="FILE", help="save the game record here when the game ends or is left (for brass render)"
    )
    pp.set_defaults(run=run)


def describe(state: brass.State, seat: int) -> str:
    """The position as text, from `seat`'s point of view: what the game has (markets of the game's size, the
    Distant Cotton Market in the Lancashire family, the merchants in Birmingham), the players, the tiles (coal and
    iron cubes, beer barrels), the links and the seat's hand."""
    data = _catalog.data_file(_catalog.data_name(json.loads(state.to_json())))  # market sizes, the DCM's X
    g = state.game
    parts = [
        f"{state.era.capitalize()} Era, round {state.round} of {g.rounds_per_era}; turn order {state.turn_order}",
        f"coal market {count(state.coal_market, 'cube')} ({len(data['coal_market']['prices'])} spaces)",
        f"iron market {count(state.iron_market, 'cube')} ({len(data['iron_market']['prices'])} spaces)",
    ]
    if state.dcm_marker is not None:
        parts.append(
            f"distant market marker {state.dcm_marker} (X at {data['distant_cotton_market']['x_space']}), "
            f"{state.dcm_tiles_left} tiles left"
        )
    parts.append(f"draw pile {state.deck_size}")
    lines = [", ".join(parts)]
    for p in range(g.players):
        v = state.player(p)
        who = "you" if p == seat else f"player {p}"
        lines.append(
            f"  {who:<9} £{v.money:<4} income {v.income_level:+d}  VP {v.vp:<4} links left {v.links_left:<3}"
            f" hand {len(v.hand)}"
        )
    if state.merchants:
        lines.append(
            "  merchants: "
            + ", ".join(f"{space} {m['tile']}{' (beer)' if m['beer'] else ''}" for space, m in state.merchants.items())
        )
    tiles = []
    for space, t in state.board.items():
        load = count(t["cubes"], "barrel" if t["industry"] == "brewery" else "cube") if t["cubes"] else ""
        tiles.append(
            f"{space}: P{t['owner']} {t['industry']} {t['level']}{' flipped' if t['flipped'] else ''}"
            f"{f' ({load})' if load else ''}"
        )
    if tiles:
        lines.append("  tiles: " + "; ".join(tiles))
    if state.links:
        lines.append("  links: " + ", ".join(f"{line} (P{o})" for line, o in state.links.items()))
    lines.append(f"  your hand: {', '.join(state.player(seat).hand)}")
    return "\n".join(lines)


def help_text(game: brass.Game) -> str:
    """What to type at a decision, with examples from `game` (its first build and its first card)."""
    build = game.action_name(0)
    card = game.card_kinds[0]
    return (
        f"Enter the number or the notation of a move (e.g. `{build}`, `card {card}`). When every move but `stop`\n"
        f"is of one kind (the card to discard, a coal, iron or beer source, ...), its name alone will do: `{card}`.\n"
        "Other commands: `moves` (list the moves again), `board` (show the position), `undo` (take back your last\n"
        "decision), `help`, `quit`."
    )


HINT = "`moves` lists the legal moves again, `help` the commands"

DECISIONS = {
    "coal": "where the coal comes from",
    "iron": "where the iron comes from",
    "beer": "where the beer comes from",
    "link": "a second rail in the same action, or stop",
    "develop": "a second tile to develop, or stop",
    "sell": "another sale, or stop",
    "bonus": "Gloucester's bonus: develop one tile for free (no iron), or stop to decline it",
    "card": "the card to discard",
    "remove": "a tile of yours to remove, to pay what you owe",
}


def decision_text(state: brass.State) -> str:
    """`card: the card to discard, 2 of 3 for Scout`: the decision and what it asks."""
    parts = [DECISIONS[state.decision]] if state.decision in DECISIONS else []
    action = json.loads(state.to_json()).get("action") or {}
    if state.decision == "card" and action.get("kind") == "scout":
        parts.append(f"{action['count'] + 1} of 3 for Scout")
    if state.decision == "beer" and action.get("beer"):
        parts.append(f"{count(action['beer'], 'barrel')} still to take")
    return f"({state.decision}):" + (f" {', '.join(parts)}" if parts else "")


def _read_move(game: brass.Game, state: brass.State, legal: list[int], text: str) -> int:
    """The action id a line typed at a decision means: a number from the list, notation, or (when every legal
    move but `stop` has the same first word, as the cards at a card decision) the rest of a move alone. Raises
    BrassError (or UserError) with what is wrong."""
    if text.isdigit():
        if int(text) < len(legal):
            return legal[int(text)]
        raise UserError(f"no move number {text}: choose 0 to {len(legal) - 1}")
    if " " not in text:
        verbs = {game.action_name(a).split(" ", 1)[0] for a in legal} - {"stop"}
        if len(verbs) == 1 and text not in verbs and text != "stop":
            text = f"{verbs.pop()} {text}"
    return game.parse_action(text)


def run(args: argparse.Namespace) -> int:
    """`brass play`: the game in the terminal, the record saved at its end if asked; the exit code."""
    game = brass.Game(args.game, players=args.players, **options(args))
    if not 0 <= args.seat < args.players:
        raise UserError(f"--seat must be between 0 and {args.players - 1}")
    specs = args.agents or ["greedy"] * (args.players - 1)
    if len(specs) != args.players - 1:
        others_text = (
            "1 agent for the other seat" if args.players == 2 else f"{args.players - 1} agents for the other seats"
        )
        raise UserError(f"{len(specs)} agents given: give {others_text}")
    others = iter(agents.parse_agent(s) for s in specs)
    seats: list[agents.Agent | None] = [None if p == args.seat else next(others) for p in range(args.players)]
    check_writable(args.out)  # before the game, not after an hour of play
    state = game.new_state(seed=args.seed)  # None: a fresh deal, its seed printed below
    undo: list[brass.State] = []
    assert state.seed is not None
    decision_seed = state.seed
    names = ["you" if agent is None else agent.name for agent in seats]
    headers = {"event": "brass play", "date": datetime.date.today().isoformat(), "engine": f"brass {brass.__version__}"}
    headers.update({f"player_{p}": name for p, name in enumerate(names)})
    print(help_text(game))
    print(f"Dealt from seed {state.seed} (`--seed {state.seed}` deals this game again).")
    shown = None  # the turn whose position was last shown
    listed = None  # the decision whose moves were last listed (how many decisions the game had then)
    while not state.is_terminal:
        p = state.current_player
        assert p is not None  # a game that is not over has a player to decide
        agent = seats[p]
        if agent is not None:
            decision_seed += 1
            choice = agent.choose(state, seed=decision_seed)
            print(f"player {p} ({agent.name}): {game.action_name(choice)}")
            state.apply(choice)
            continue
        if shown != (state.era, state.round, state.actions_left):
            print(describe(state, args.seat))
            shown = (state.era, state.round, state.actions_left)
        legal = state.legal_actions()
        if listed != len(state.history):
            print(f"Your decision {decision_text(state)}")
            for i, a in enumerate(legal):
                print(f"  {i:>3}  {game.action_name(a)}")
            listed = len(state.history)
        try:
            text = input("> ").strip()
        except EOFError:
            print()
            text = "quit"
        if not text:
            continue
        if text in ("quit", "exit"):
            print(f"Game left unfinished after {count(len(state.history), 'decision')}.")
            _save_played(args.out, state, headers)
            return 0
        if text == "help":
            print(help_text(game))
            continue
        if text == "moves":
            listed = None
            continue
        if text == "board":
            print(describe(state, args.seat))
            continue
        if text == "undo":
            if not undo:
                print("nothing to undo")
            else:
                state = undo.pop()
                shown = listed = None
            continue
        try:
            choice = _read_move(game, state, legal, text)
            before = state.clone()
            state.apply(choice)
        except (UserError, brass.BrassError) as e:
            print(f"not possible: {e}" if isinstance(e, brass.BrassError) else str(e))
            print(f"  ({HINT})")
            continue
        undo.append(before)
        print(f"player {p} (you): {game.action_name(choice)}")
    print(describe(state, args.seat))
    print(f"Game over: {result(state)}. VP: {state.scores}")
    _save_played(args.out, state, headers)
    return 0


def _save_played(path: str | None, state: brass.State, headers: dict[str, str]) -> None:
    """`brass play --out FILE`: the game's record, finished or not, with its headers (who played, when)."""
    if path is None:
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(state.record(headers=headers) + "\n")
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror}") from None
    print(f"record saved to {path} (brass render {path} -o game.html)")
