"""The `brass` command line.

    brass selfplay [--game G] [--players 4] [--option NAME] [--agents mcts:200 greedy greedy random]
                   [--games 40] [--seed 1] [--jobs N] [--out games.jsonl[.gz|.zst]] [--samples FILE.parquet]
                   [--sample-rate R] [--overwrite | --resume] [--ray [ADDRESS]]
    brass arena [--game G] [--players 4] --agents random greedy mcts:300 ... (docs/arena.md)
    brass replay games.jsonl [--moves] [--svg DIR] [--game-index N]
    brass render games.jsonl [--game-index N] -o game.html
    brass play [--game G] [--players 4] [--option NAME] [--seat 0] [--agents greedy ...] [--seed 1]
    brass bench [--game G] [--players 2 3 4] [--json] [--quick]

`replay --moves` prints one game's moves in notation, numbered, with the player who made each; `replay --svg DIR`
writes the picture of each of its positions (000.svg, 001.svg, ...); `render` writes the replay viewer, one
self-contained HTML page stepping through the game (brass.viewer). RECORD files hold one game record (JSON) or
one per line (JSON Lines, as `selfplay --out` writes); `--game-index N` (default 0) chooses the game.

User mistakes (a bad option, an unreadable file, an illegal move) print one line and exit non-zero.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import json
import math
import os
import re
import secrets
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import brass
from brass import agents
from brass.text import result as text_result

DEFAULT_AGENTS = {
    2: ["mcts:200", "greedy"],
    3: ["mcts:200", "greedy", "random"],
    4: ["mcts:200", "greedy", "greedy", "random"],
}


class UserError(Exception):
    """A mistake of the user's, reported as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"brass: {message} (see `brass --help`)", file=sys.stderr)
        raise SystemExit(2)


def parse_agent(spec: str) -> agents.Agent:
    """`random`, `greedy`, `mcts` (1000 iterations), `mcts:ITERATIONS`, `mcts:ITERATIONS:DEPTH`,
    `mcts@MILLISECONDS` (a time budget per decision), `net:NETWORK` (a trained network's raw policy) and
    `netmcts:SIMULATIONS:NETWORK` (the search it guides), NETWORK a file or a shipped network's name
    (`birmingham-2p`, docs/learning.md)."""
    name, _, rest = spec.partition(":")
    try:
        if spec == "random":
            return agents.Random()
        if spec == "greedy":
            return agents.Greedy()
        if name.startswith("mcts@"):
            return agents.MCTS(time_ms=int(name[5:]))
        if name == "mcts":
            parts = [int(x) for x in rest.split(":")] if rest else []
            return agents.MCTS(parts[0] if parts else None, rollout_depth=parts[1] if len(parts) > 1 else None)
        if name == "net" and rest:
            return _network(rest)
        if name == "netmcts" and ":" in rest:
            simulations, _, network = rest.partition(":")
            return agents.NetMCTS(_network(network), simulations=int(simulations))
    except brass.BrassError as e:  # before ValueError, which it is too
        if name in ("net", "netmcts"):
            raise UserError(f"agent `{spec}`: {e}") from None
    except ValueError:
        pass
    raise UserError(
        f"unknown agent `{spec}`: use random, greedy, mcts, mcts:ITERATIONS[:DEPTH], mcts@MS, net:NETWORK or "
        "netmcts:SIMULATIONS:NETWORK"
    )


def _network(source: str) -> agents.Net:
    """A network file, or a shipped network by name."""
    if source in agents.PRETRAINED and not os.path.exists(source):
        return agents.Net.pretrained(source)
    return agents.Net(source)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _result_dict(r: Any) -> dict[str, Any]:
    return {
        "index": r.index,
        "seats": list(r.seats),
        "scores": list(r.scores),
        "winners": list(r.winners),
        "decisions": len(r.actions),
        "record": json.loads(r.record),
    }


def describe_game(game: brass.Game) -> str:
    """`lancashire, 4 players` or `lancashire (intro, virtual_link), 3 players`: the game and its options."""
    chosen = [name if value is True else f"{name}={value}" for name, value in sorted(game.options.items()) if value]
    name = f"{game.name} ({', '.join(chosen)})" if chosen else game.name
    return f"{name}, {game.players} players"


def _options(args: argparse.Namespace) -> dict[str, bool]:
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


def _add_game_argument(parser: argparse.ArgumentParser) -> None:
    names = sorted(brass.games())  # the keys are the game names
    parser.add_argument(
        "--game", default="lancashire", choices=names, metavar="GAME", help=f"{' or '.join(names)} (default lancashire)"
    )


def _add_option_argument(parser: argparse.ArgumentParser) -> None:
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


def _selfplay(args: argparse.Namespace) -> int:
    """`brass selfplay`: the games streamed to --out / --samples as they finish (docs/selfplay.md)."""
    from brass import selfplay

    specs = args.agents or DEFAULT_AGENTS[args.players]
    if len(specs) != args.players:
        raise UserError(f"{_count(len(specs), 'agent')} given for {args.players} players: give one agent per seat")
    seats = [parse_agent(s) for s in specs]
    game = brass.Game(args.game, players=args.players, **_options(args))
    if args.seed is None and args.resume and args.out and os.path.exists(args.out):
        # The run's own seed, which every line records; a file with no whole line yet starts afresh.
        whole, _ = selfplay.read_record_lines(args.out)
        if whole:
            args.seed = selfplay.run_seed_of(args.out)
            if args.seed is None:
                raise UserError(f"{args.out} names no run seed to resume: give the run's --seed")
    if args.seed is None:
        args.seed = secrets.randbits(64)  # fresh games unless asked for a seed; the summary prints it
    game.new_state(seed=args.seed)  # a bad --seed is reported now, before the progress bar shows
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if not 0 < args.sample_rate <= 1:
        raise UserError(f"--sample-rate must be in (0, 1], not {args.sample_rate}")
    spec = selfplay.RunSpec(game, tuple(s.name for s in seats), args.seed, args.games)
    run = selfplay.Run(
        spec,
        seats,
        out=args.out,
        samples=args.samples,
        sample_rate=args.sample_rate,
        overwrite=args.overwrite,
        resume=args.resume,
        threads=args.jobs,
        ray=args.ray,
        specs=specs,
    )
    _check_writable(args.out, args.samples)
    restore = selfplay.install_signal_handlers(run)
    try:
        with _progress_bar("selfplay", args.games, disable=args.quiet) as advance:
            run.on_game = advance
            outcome = run.execute()
    except selfplay.SelfPlayError as e:
        raise UserError(str(e)) from None
    finally:
        restore()
    names = [s.name for s in seats]
    took = f"{outcome.seconds:.1f}s ({outcome.played / max(outcome.seconds, 1e-9):.1f} games/s)"
    heading = (
        f"{_count(outcome.games, 'game')} of {describe_game(game)}, run seed {args.seed}, seats rotate every game; "
        f"{took}"
    )
    if outcome.resumed:
        heading += f"; {outcome.resumed} from {args.out}, {outcome.played} played now"
    print(outcome.tally.summary(names, heading))
    if outcome.repaired:
        print(f"{args.out}: a game cut off by the interruption was dropped and played again")
    if args.out:
        print(f"records: {args.out} (check them with `brass replay {args.out}`)")
    if args.samples:
        print(f"samples: {args.samples} ({outcome.sample_rows} decisions, docs/selfplay.md)")
    if outcome.interrupted is not None:
        print(
            f"brass: interrupted after {outcome.games} of {args.games} games"
            + (f"; the same command with --resume continues the run in {args.out}" if args.out else ""),
            file=sys.stderr,
        )
        return 128 + (outcome.interrupted or signal.SIGINT)
    return 0


def _check_writable(*paths: str | None) -> None:
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
def _progress_bar(what: str, total: int, disable: bool) -> Iterator[Callable[[int], None]]:
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


def _record_of(entry: Any) -> Any:
    """The game record of a file entry: a record itself, or a `selfplay --out` line (whose `record` is taken)."""
    if isinstance(entry, dict) and "format" not in entry and "record" in entry:
        return entry["record"]
    return entry


def _entries(path: str) -> Iterator[tuple[str, Any]]:
    """The entries of a record file, each with where it is (`FILE` or `FILE:LINE`), read one line at a time: JSON
    Lines of records or of `selfplay --out` lines, or one JSON record (pretty-printed or not). The one reader of
    `replay` and `render`, so both accept the same files and word the same errors the same way."""
    from brass import selfplay

    n = 0
    found = False
    try:
        with selfplay.open_records(path) as f:
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
    count = sum(1 for _ in _entries(path))
    if not 0 <= index < count:
        raise UserError(f"{path} holds {_count(count, 'game record')}: --game-index must be between 0 and {count - 1}")


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
            unfinished.append(f"{where} after {_count(len(state.history), 'decision')}")
    print(_replay_summary(args.file, games, decisions, unfinished))
    return 0


def _replay_summary(path: str, games: int, decisions: int, unfinished: list[str]) -> str:
    head = f"{_count(games, 'game')} replayed from {path}: every action legal"
    if not unfinished:
        return f"{head}, every final score matches ({_count(decisions, 'decision')})"
    finished = games - len(unfinished)
    shown = "; ".join(unfinished[:3]) + ("; ..." if len(unfinished) > 3 else "")
    scores = f"{finished} finished, every final score matches" if finished else "none finished"
    return f"{head} ({_count(decisions, 'decision')}); {scores}; {len(unfinished)} unfinished: {shown}"


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
    count = 0
    for where, entry in _entries(path):
        if count == index:
            return where, _record_of(entry)
        count += 1
    raise UserError(f"{path} holds {_count(count, 'game record')}: --game-index must be between 0 and {count - 1}")


def _chosen_game(path: str, index: int) -> tuple[str, list]:
    """Where the record `--game-index` chooses is, and its positions (brass.viewer.positions)."""
    from brass import viewer

    where, record = _pick_record(path, index)
    try:
        return where, viewer.positions(record)
    except brass.BrassError as e:
        raise UserError(f"{where}: {e}") from None


_PICTURE = re.compile(r"^[0-9]{3,}\.svg$")


def _replay_and_show(args: argparse.Namespace) -> int:
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


def _render(args: argparse.Namespace) -> int:
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


def _count(n: int, what: str) -> str:
    """`1 cube`, `2 barrels`."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def describe(state: brass.State, seat: int) -> str:
    """The position as text, from `seat`'s point of view: what the game has (markets of the game's size, the
    Distant Cotton Market in the Lancashire family, the merchants in Birmingham), the players, the tiles (coal and
    iron cubes, beer barrels), the links and the seat's hand."""
    from brass.svg import _data_for  # the game's data file: market sizes, the Distant Cotton Market's X

    doc = json.loads(state.to_json())
    data = _data_for(doc)
    g = state.game
    parts = [
        f"{state.era.capitalize()} Era, round {state.round} of {g.rounds_per_era}; turn order {state.turn_order}",
        f"coal market {_count(state.coal_market, 'cube')} ({len(data['coal_market']['prices'])} spaces)",
        f"iron market {_count(state.iron_market, 'cube')} ({len(data['iron_market']['prices'])} spaces)",
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
        load = _count(t["cubes"], "barrel" if t["industry"] == "brewery" else "cube") if t["cubes"] else ""
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
        parts.append(f"{_count(action['beer'], 'barrel')} still to take")
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


def _play(args: argparse.Namespace) -> int:
    game = brass.Game(args.game, players=args.players, **_options(args))
    if not 0 <= args.seat < args.players:
        raise UserError(f"--seat must be between 0 and {args.players - 1}")
    specs = args.agents or ["greedy"] * (args.players - 1)
    if len(specs) != args.players - 1:
        others_text = (
            "1 agent for the other seat" if args.players == 2 else f"{args.players - 1} agents for the other seats"
        )
        raise UserError(f"{len(specs)} agents given: give {others_text}")
    others = iter(parse_agent(s) for s in specs)
    seats: list[agents.Agent | None] = [None if p == args.seat else next(others) for p in range(args.players)]
    _check_writable(args.out)  # before the game, not after an hour of play
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
            print(f"Game left unfinished after {_count(len(state.history), 'decision')}.")
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
    print(f"Game over: {text_result(state)}. VP: {state.scores}")
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


def _bench(args: argparse.Namespace) -> int:
    from brass import bench

    report = bench.run(args.players, quick=args.quick, game_name=args.game, options=_options(args))
    print(json.dumps(report, indent=1) if args.json else bench.format_table(report))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="brass", description="Rules engine for the Brass board games.")
    parser.add_argument("--version", action="version", version=f"brass {brass.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sp = sub.add_parser("selfplay", help="play games between agents and summarise them")
    _add_game_argument(sp)
    sp.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    _add_option_argument(sp)
    sp.add_argument(
        "--agents",
        nargs="+",
        metavar="AGENT",
        help="one per seat: random, greedy, mcts[:ITERATIONS[:DEPTH]], mcts@MS, net:NETWORK, "
        "netmcts:SIMULATIONS:NETWORK "
        "(default for 4 players: mcts:200 greedy greedy random)",
    )
    sp.add_argument("--games", type=int, default=40)
    sp.add_argument(
        "--seed", type=int, help="the run seed: game i is dealt from (seed, i) (default: a fresh one, printed)"
    )
    sp.add_argument("--jobs", type=int, default=0, metavar="N", help="threads; 0 (the default) uses every core")
    sp.add_argument(
        "--out",
        metavar="FILE",
        help="write one game per line as it finishes (JSON Lines; FILE.jsonl, .jsonl.gz or .jsonl.zst)",
    )
    sp.add_argument(
        "--samples",
        metavar="FILE",
        help="write training samples, one row per decision (FILE.parquet; needs '.[samples]', docs/selfplay.md)",
    )
    sp.add_argument(
        "--sample-rate",
        type=float,
        default=1.0,
        metavar="RATE",
        help="keep each decision as a sample with this probability (default 1: all)",
    )
    sp.add_argument("--overwrite", action="store_true", help="replace output files that exist")
    sp.add_argument(
        "--resume",
        action="store_true",
        help="continue the interrupted run in --out (same game, agents, seed and --games)",
    )
    sp.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run on a Ray cluster (a local one without ADDRESS); needs the ray extra: pip install '.[ray]'",
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(run=_selfplay)

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
    rp.set_defaults(run=_replay_and_show)

    vp = sub.add_parser("render", help="write the replay viewer of a game: one self-contained HTML page")
    vp.add_argument("record", metavar="RECORD", help="a JSON game record, or JSON Lines of them (selfplay --out)")
    vp.add_argument("-o", "--out", required=True, metavar="FILE", help="the HTML file to write")
    vp.add_argument(
        "--game-index", type=int, default=0, metavar="N", help="the Nth record of a JSON Lines file, from 0 (default 0)"
    )
    vp.add_argument("--hands", action="store_true", help="show every player's hand from the start (a checkbox)")
    vp.set_defaults(run=_render)

    pp = sub.add_parser("play", help="play against agents in the terminal")
    _add_game_argument(pp)
    pp.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    _add_option_argument(pp)
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
    pp.set_defaults(run=_play)

    sv = sub.add_parser("serve", help="play and analyse games in the browser (docs/serve.md)")
    sv.add_argument("--game", choices=sorted(brass.games()), help="the game the page offers first")
    sv.add_argument("--players", type=int, choices=(2, 3, 4), help="the player count the page offers first")
    sv.add_argument(
        "--agents", nargs="+", metavar="SEAT", help="the seats the page offers first: human or an agent spec each"
    )
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    sv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    sv.add_argument("--max-games", type=int, default=64, help="games kept in memory (default 64)")
    sv.set_defaults(run=_serve)

    bp = sub.add_parser("bench", help="measure throughput on this machine (docs/performance.md)")
    _add_game_argument(bp)
    _add_option_argument(bp)
    bp.add_argument(
        "--players", type=int, nargs="+", choices=(2, 3, 4), help="player counts (default: all of the game's)"
    )
    bp.add_argument("--json", action="store_true", help="print the figures as JSON")
    bp.add_argument("--quick", action="store_true", help="shorter runs (less precise)")
    bp.set_defaults(run=_bench)

    from brass import arena, learn  # they build on this module's agent specs and errors

    arena.add_parser(sub)
    learn.add_parser(sub)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from brass import serve

    if args.max_games < 1:
        raise UserError("--max-games must be at least 1")
    defaults: dict[str, object] = {k: v for k, v in (("game", args.game), ("players", args.players)) if v}
    if args.agents:
        game = brass.Game(args.game or "lancashire", players=args.players or len(args.agents))
        try:
            serve.parse_seats(args.agents, game)  # a bad spec is reported now
        except serve.RequestError as e:
            raise UserError(e.message) from None
        defaults.update(seats=args.agents, players=len(args.agents))
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"brass serve: listening on {args.host}: anyone who can reach this machine can use the server",
            file=sys.stderr,
        )
    print(f"brass serve: http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    serve.run(args.host, args.port, args.max_games, defaults)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.run(args)
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


if __name__ == "__main__":
    sys.exit(main())
