"""The games of a `brass serve` server, without the web: the refusal of a request (`RequestError`), the games kept in
memory (`Session`, `Store`), the seats and their agents (the capped agent specs), what the page shows of a game,
and the analysis of a position."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import brass
from brass import agents, svg
from brass import text as brass_text
from brass.agents import network_for
from brass.serve import saved, table
from brass.serve.journal import Journal
from brass.serve.turn import move_words, turn
from brass.text import describe_game

#: The names of this machine a request's `Host` may give by default.
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
#: Largest request body accepted (a record of a long game is some tens of KiB).
MAX_BODY = 1 << 20
#: Games kept in memory by default.
MAX_GAMES = 64
HUMAN = "human"
#: The agent specs the page offers for every game (any spec of `make_agent` is accepted); the networks' seats
#: (`net:NAME`, `netmcts:64:NAME`) are offered for their configuration only.
AGENT_CHOICES = ["random", "greedy", "mcts:200", "mcts:1000", "mcts@2000"]
#: An analysis's thinking time when the request names none, and the analyses the server runs at once.
ANALYSE_MS = 1000
MAX_ANALYSES = 2


class RequestError(Exception):
    """A request the server refuses: HTTP `status` and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Session:
    """One game in the server: its state, who plays each seat, and a lock held while it changes."""

    id: str
    state: brass.State
    seats: list[str]
    agents: dict[int, Any]
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    moves_by_agents: int = 0
    #: The history in words, made when first asked (from the game's first position).
    journal: Journal | None = None
    #: The seat the page shows the hand of: the human to move, else the human who moved last.
    viewer: int | None = None

    def seat_shown(self) -> int | None:
        """The seat whose hand and mat the page shows: the human to move; else the human who moved last; else
        the first human seat (None when agents play every seat: nobody's hand is shown)."""
        player = self.state.current_player
        if player is not None and player not in self.agents:
            self.viewer = player
        if self.viewer is None:
            humans = [p for p in range(self.state.game.players) if p not in self.agents]
            self.viewer = humans[0] if humans else None
        return self.viewer

    def history_in_words(self) -> list[dict[str, Any]]:
        """The game's actions and eras in words (`journal.Journal`), brought up to date."""
        if self.journal is None:
            self.journal = Journal(position_at(self.state, 0))
        return self.journal.update(self.state)


class Store:
    """The games of one server, bounded: adding one beyond `max_games` drops the oldest finished game, or, if
    none is finished, the least recently used one.

    With a `folder` (`brass serve --store DIR`, `saved`), every game is also on the disk, written whole each time
    it changes (`save`): a game dropped from memory is read back when asked for, and a new Store on the same
    folder serves the same games under the same ids (the most recently changed `max_games` read at once)."""

    def __init__(self, max_games: int = MAX_GAMES, folder: str | None = None) -> None:
        if max_games < 1:
            raise ValueError("max_games must be at least 1")
        self.max_games = max_games
        self.folder = folder
        self._games: dict[str, Session] = {}
        self._lock = threading.Lock()
        if folder is not None:
            saved.check_folder(folder)
            for game_id in reversed(saved.ids(folder)[:max_games]):  # the most recent last: the last dropped
                self._keep(self._read(game_id))

    def _read(self, game_id: str) -> Session:
        assert self.folder is not None
        record = saved.read(self.folder, game_id)
        if record is None:
            raise RequestError(404, f"no game with id {game_id!r}")
        try:
            names, made = parse_seats(record["seats"], record["state"].game)
        except RequestError as e:
            raise saved.StoreError(f"{saved.path_of(self.folder, game_id)}: {e.message}") from None
        return Session(game_id, record["state"], names, made, moves_by_agents=record["moves_by_agents"])

    def save(self, session: Session) -> None:
        """Write the game to the folder (nothing without one). Called with the game's lock held, after each
        change; an OSError (a full disk) leaves the file as it was, and the caller takes the change back."""
        if self.folder is None:
            return
        saved.write(self.folder, session.id, session.state, session.seats, session.moves_by_agents)

    def add(self, session: Session) -> None:
        self.save(session)  # before it is kept: a game that cannot be written is refused, never lost later
        with self._lock:
            self._keep(session)

    def _keep(self, session: Session) -> None:
        while len(self._games) >= self.max_games:
            idle = [s for s in self._games.values() if not s.lock.locked()] or list(self._games.values())
            finished = [s for s in idle if s.state.is_terminal]
            del self._games[min(finished or idle, key=lambda s: s.used).id]
        self._games[session.id] = session

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
            if session is None and self.folder is not None and saved.GAME_ID.fullmatch(game_id):
                try:
                    session = self._read(game_id)
                except saved.StoreError as e:
                    raise RequestError(500, str(e)) from None
                self._keep(session)
        if session is None:
            raise RequestError(
                404,
                f"no game with id {game_id!r} (it may have been dropped: the server keeps "
                f"at most {self.max_games} games)",
            )
        session.used = time.monotonic()
        return session

    def remove(self, game_id: str) -> None:
        with self._lock:
            kept = self._games.pop(game_id, None) is not None
            folder = self.folder if saved.GAME_ID.fullmatch(game_id) else None
            if not (folder is not None and saved.delete(folder, game_id)) and not kept:
                raise RequestError(404, f"no game with id {game_id!r}")

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


#: The largest budgets a seat's agent may be given: one agent's move must not hold the server for long.
MAX_MCTS_ITERATIONS = 200_000
MAX_AGENT_MS = 30_000
MAX_NET_SIMULATIONS = 20_000


#: The capped form of the agent specs a request may name.
CAPS = agents.Caps(mcts_iterations=MAX_MCTS_ITERATIONS, time_ms=MAX_AGENT_MS, net_simulations=MAX_NET_SIMULATIONS)


def make_agent(spec: str, game: brass.Game) -> Any:
    """The agent of a seat spec: `random`, `greedy`, `mcts`, `mcts:N`, `mcts:N:DEPTH`, `mcts@MS`,
    `net:NAME` or `netmcts:SIMULATIONS:NAME` with NAME a shipped network of this configuration (never a file:
    the server reads no path a request names). Budgets are capped (MAX_…); RequestError names what is wrong."""
    try:
        return agents.parse_agent(spec, game=game, caps=CAPS, others=[HUMAN])
    except brass.ConfigError as e:
        raise RequestError(400, str(e)) from None


def describe(game: brass.Game) -> str:
    """`lancashire at 2 players`: the configuration as the server's messages name it."""
    return describe_game(game, at=True)


def parse_seats(seats: Any, game: brass.Game) -> tuple[list[str], dict[int, Any]]:
    """Seat specs (`human` or an agent spec) and the agents they make; RequestError naming a bad one."""
    players = game.players
    if seats is None:
        seats = [HUMAN] + ["greedy"] * (players - 1)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RequestError(400, "seats must be a list of strings: 'human' or an agent spec per seat")
    if len(seats) != players:
        raise RequestError(400, f"seats names {len(seats)} seats for a {players}-player game")
    made: dict[int, Any] = {}
    for i, spec in enumerate(seats):
        if spec != HUMAN:
            try:
                made[i] = make_agent(spec, game)
            except RequestError as e:
                raise RequestError(400, f"seat {i}: {e.message}") from None
    return list(seats), made


def move_groups(state: brass.State) -> list[dict[str, Any]]:
    """The legal moves grouped by their first word (build, link, develop, sell, loan, scout, pass; coal, iron,
    beer, card, remove, stop for the follow-up decisions), in id order within a group."""
    game = state.game
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in state.legal_actions():
        notation = game.action_name(action)
        groups.setdefault(notation.split()[0], []).append({"id": action, "notation": notation})
    return [{"group": name, "moves": moves} for name, moves in groups.items()]


def view(session: Session) -> dict[str, Any]:
    """What the page shows of a game: the position (`svg`, the decision, the legal moves, the history), and what a
    person sees at the table (`table_view`)."""
    state = session.state
    game = state.game
    player = state.current_player
    over = state.is_terminal
    return table_view(session) | {
        "id": session.id,
        "game": {
            "name": game.name,
            "players": game.players,
            "options": game.options,
            "title": brass.games()[game.name]["title"],
            "rounds_per_era": game.rounds_per_era,
        },
        "seats": session.seats,
        "decision": state.decision,
        "era": state.era,
        "round": state.round,
        "to_move": player,
        "human_to_move": player is not None and player not in session.agents,
        "agent_to_move": player is not None and player in session.agents,
        "over": over,
        "result": brass_text.result(state) if over else None,
        "scores": state.scores,
        "legal": [] if over else move_groups(state),
        "history": [game.action_name(a) for a in state.history],
        "svg": svg.board(state),
        "network": network_for(game),
    }


def table_view(session: Session) -> dict[str, Any]:
    """What a person sees at the table: the hand of the seat shown (`viewer`), every player's mat and public
    facts, the markets and cards (`supply`), the history in words (`log`) with each player's last action
    (`last`: the index of its entry, which names the places it touched), and the guided turn (`turn`) when a
    human is to move."""
    state = session.state
    n = state.game.players
    log = session.history_in_words()
    assert session.journal is not None
    last: list[int | None] = [None] * n
    for i, line in enumerate(log):
        if line["player"] is not None:
            last[line["player"]] = i
    viewer = session.seat_shown()
    human = state.current_player is not None and state.current_player not in session.agents
    return {
        "viewer": viewer,
        "hand": table.hand(state, viewer),
        "mats": [table.mat(state, p) for p in range(n)],
        "players": table.players(state, session.seats, session.journal.tops()),
        "supply": table.supply(state),
        "log": log,
        "last": last,
        "turn": turn(state) if human else None,
    }


def position_at(state: brass.State, k: Any) -> brass.State:
    """The position after the first `k` decisions of the game's history (0: where the history starts)."""
    n = len(state.history)
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= n:
        raise RequestError(400, f"position must be an int from 0 to {n}, the decisions of this game")
    past = state.clone()
    for _ in range(n - k):
        past.undo()
    return past


def analyse_position(state: brass.State, engine: str, budget: dict[str, int]) -> dict[str, Any]:
    """Each legal move for the player to move, with its share of the search's visits and its value for that
    player: the native MCTS (`engine="mcts"`, the agent `choose` runs; value = mean reward, 1 a sure win, 0 a
    sure loss), or the trained network's search (`engine="network"`; the root value, zero-sum, per move only
    the visits). `budget`: `iterations` or `time_ms` for MCTS, `simulations` for the network."""
    player = state.current_player
    assert player is not None
    game = state.game
    legal = state.legal_actions()
    rows: dict[int, dict[str, Any]] = {
        a: {"id": a, "notation": game.action_name(a), "text": move_words(state, a), "share": 0.0, "value": None}
        for a in legal
    }
    if engine == "network":
        name = network_for(game)
        if name is None:
            raise RequestError(400, f"no trained network plays {game.name} at {game.players} players")
        from brass import search

        simulations = budget.get("simulations", 200)
        counts, values = search.analyse(state, agents.Net.pretrained(name), simulations=simulations, seed=0)
        total = sum(counts.values()) or 1
        for action, n in counts.items():
            rows[action]["share"] = n / total
        summary = {"method": f"network search ({name}, {simulations} simulations)", "value": values[player]}
    else:
        mcts = agents.MCTS(time_ms=budget["time_ms"]) if "time_ms" in budget else agents.MCTS(budget["iterations"])
        visits = mcts.analyse(state, seed=0)
        total = sum(n for _, n, _ in visits) or 1
        for action, n, mean in visits:
            rows[action]["share"] = n / total
            rows[action]["value"] = mean
        what = f"{budget['time_ms']} ms" if "time_ms" in budget else f"{budget['iterations']} iterations"
        summary = {"method": f"MCTS ({what})", "value": None}
    # MCTS.analyse lists the moves its agent would play first; the untried ones follow in id order.
    order = {a: i for i, (a, _, _) in enumerate(visits)} if engine == "mcts" else {}
    moves = sorted(rows.values(), key=lambda r: (-r["share"], order.get(r["id"], len(order)), r["id"]))
    return {"player": player, **summary, "moves": moves}
