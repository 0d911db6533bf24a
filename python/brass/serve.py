"""`brass serve`: play and analyse games in the browser (docs/serve.md).

A small ASGI app (Starlette, served by uvicorn: the `serve` extra) with a JSON API and one self-contained page
(`brass/serve.html`: no CDN, no network). The server keeps several games at once in memory, each with its own
id, at most `max_games` of them (finished games go first, least recently used first; never a game whose agent is
thinking). Every request that touches a game takes its lock without waiting, in a worker thread (a busy game
answers 409), and agents think there with the GIL released: one long search holds up no other game.

The JSON API (every body JSON; every error a 4xx with `{"error": message}` that leaves the game unchanged) is
listed in docs/serve.md: games made, loaded, viewed, moved by a human or by their agent, undone, analysed, saved.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import brass
from brass import agents, svg
from brass import text as brass_text
from brass._errors import MissingExtraError

try:
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route
except ImportError:  # tests/test_serve.py hides starlette to check the message
    Starlette = None  # type: ignore[assignment,misc]

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


class Store:
    """The games of one server, bounded: adding one beyond `max_games` drops the oldest finished game, or, if
    none is finished, the least recently used one."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        if max_games < 1:
            raise ValueError("max_games must be at least 1")
        self.max_games = max_games
        self._games: dict[str, Session] = {}
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self._lock:
            while len(self._games) >= self.max_games:
                idle = [s for s in self._games.values() if not s.lock.locked()] or list(self._games.values())
                finished = [s for s in idle if s.state.is_terminal]
                del self._games[min(finished or idle, key=lambda s: s.used).id]
            self._games[session.id] = session

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
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
            if self._games.pop(game_id, None) is None:
                raise RequestError(404, f"no game with id {game_id!r}")

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


#: The largest budgets a seat's agent may be given: one agent's move must not hold the server for long.
MAX_MCTS_ITERATIONS = 200_000
MAX_AGENT_MS = 30_000
MAX_NET_SIMULATIONS = 20_000


def make_agent(spec: str, game: brass.Game) -> Any:
    """The agent of a seat spec: `random`, `greedy`, `mcts`, `mcts:N`, `mcts:N:DEPTH`, `mcts@MS`,
    `net:NAME` or `netmcts:SIMULATIONS:NAME` with NAME a shipped network of this configuration (never a file:
    the server reads no path a request names). Budgets are capped (MAX_…); RequestError names what is wrong."""
    name, _, rest = spec.partition(":")
    bad = RequestError(
        400,
        f"unknown agent `{spec}`: use human, random, greedy, mcts, mcts:ITERATIONS[:DEPTH], mcts@MS, net:NETWORK or "
        "netmcts:SIMULATIONS:NETWORK (NETWORK a shipped network's name)",
    )
    if len(spec) > 100:  # no spec is this long; nor may a number be too long for int()
        raise bad
    if spec == "random":
        return agents.Random()
    if spec == "greedy":
        return agents.Greedy()
    numbers = rest.split(":") if name == "mcts" and rest else []
    if name == "mcts" or name.startswith("mcts@"):
        if not all(digits(x) for x in numbers + ([name[5:]] if name.startswith("mcts@") else [])):
            raise bad
        if name.startswith("mcts@"):
            ms = int(name[5:])
            if not 1 <= ms <= MAX_AGENT_MS:
                raise RequestError(400, f"agent `{spec}`: the time per move must be from 1 to {MAX_AGENT_MS} ms")
            return agents.MCTS(time_ms=ms)
        iterations = int(numbers[0]) if numbers else 1000
        if not 1 <= iterations <= MAX_MCTS_ITERATIONS or len(numbers) > 2:
            raise RequestError(400, f"agent `{spec}`: iterations must be from 1 to {MAX_MCTS_ITERATIONS}")
        return agents.MCTS(iterations, rollout_depth=int(numbers[1]) if len(numbers) == 2 else None)
    if name in ("net", "netmcts"):
        simulations, _, network = rest.partition(":") if name == "netmcts" else ("", "", rest)
        if network not in NETWORKS.values() or (name == "netmcts" and not digits(simulations)):
            raise bad
        if network_for(game) != network:
            raise RequestError(
                400, f"agent `{spec}`: {network} plays {network.replace('-', ' ')}, not {describe(game)}"
            )
        net = agents.Net.pretrained(network)
        if name == "net":
            return net
        if not 2 <= int(simulations) <= MAX_NET_SIMULATIONS:
            raise RequestError(400, f"agent `{spec}`: simulations must be from 2 to {MAX_NET_SIMULATIONS}")
        return agents.NetMCTS(net, simulations=int(simulations))
    raise bad


def digits(text: str) -> bool:
    """An ASCII whole number (`str.isdigit` alone also takes "²", which `int` refuses)."""
    return text.isascii() and text.isdigit()


def describe(game: brass.Game) -> str:
    return f"{game.name} at {game.players} players" + "".join(f" with {o}" for o in sorted(game.options))


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
    """What the page shows of a game."""
    state = session.state
    game = state.game
    player = state.current_player
    over = state.is_terminal
    return {
        "id": session.id,
        "game": {"name": game.name, "players": game.players, "options": game.options},
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


def position_at(state: brass.State, k: Any) -> brass.State:
    """The position after the first `k` decisions of the game's history (0: where the history starts)."""
    n = len(state.history)
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= n:
        raise RequestError(400, f"position must be an int from 0 to {n}, the decisions of this game")
    past = state.clone()
    for _ in range(n - k):
        past.undo()
    return past


class App:
    """The server's state and its request handlers; `app.asgi` is the ASGI application."""

    def __init__(
        self, max_games: int = MAX_GAMES, defaults: dict[str, Any] | None = None, hosts: list[str] | None = None
    ) -> None:
        """`hosts`: the names the server answers to in the `Host` header (default this machine's: 127.0.0.1,
        localhost, ::1); a page of another site reached through a name of its own (DNS rebinding) is refused."""
        if Starlette is None:
            raise MissingExtraError("brass serve", "starlette and uvicorn", "serve")
        self.store = Store(max_games)
        self.defaults = defaults or {}
        routes = [
            Route("/", self.page),
            Route("/api/catalog", self.catalog),
            Route("/api/games", self.new_game, methods=["POST"]),
            Route("/api/games/load", self.load_game, methods=["POST"]),
            Route("/api/games/{id}", self.get_game, methods=["GET"]),
            Route("/api/games/{id}", self.delete_game, methods=["DELETE"]),
            Route("/api/games/{id}/move", self.move, methods=["POST"]),
            Route("/api/games/{id}/agent", self.agent_move, methods=["POST"]),
            Route("/api/games/{id}/undo", self.undo, methods=["POST"]),
            Route("/api/games/{id}/analyse", self.analyse, methods=["POST"]),
            Route("/api/games/{id}/record", self.record, methods=["GET"]),
            Route("/api/games/{id}/state", self.state_json, methods=["GET"]),
            Route("/api/games/{id}/positions/{k:int}", self.position, methods=["GET"]),
        ]
        self._analyses = threading.Semaphore(MAX_ANALYSES)
        self.asgi = Starlette(
            routes=routes,
            exception_handlers={RequestError: self._refused, HTTPException: self._http_error},
            middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts or LOCAL_HOSTS)],
        )

    # --- plumbing ----------------------------------------------------------------------------------------------

    async def _refused(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse(
            {"error": f"{request.method} {request.url.path}: {exc.detail}"}, status_code=exc.status_code
        )

    def _check_sender(self, request: Request) -> None:
        """A request that changes anything must be JSON (`content-type: application/json`, which a page of another
        site cannot send without the browser asking first) and, when the browser names its origin, come from
        this server's own page: no other site can drive the server from a visitor's browser."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise RequestError(415, "send the request as JSON (content-type: application/json)")
        origin = request.headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
            raise RequestError(403, f"requests from {origin} are not accepted: use the page this server gives")

    async def _body(self, request: Request) -> dict[str, Any]:
        self._check_sender(request)
        declared = request.headers.get("content-length")
        if declared is not None and not digits(declared):
            raise RequestError(400, "content-length must be a number of bytes")
        if declared is not None and int(declared) > MAX_BODY:
            raise RequestError(413, f"the request body is larger than {MAX_BODY} bytes")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise RequestError(413, f"the request body is larger than {MAX_BODY} bytes")
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError) as e:  # JSONDecodeError, UnicodeDecodeError, over-long ints, nesting
            raise RequestError(400, f"the request body is not JSON this server reads: {e}") from None
        if not isinstance(body, dict):
            raise RequestError(400, "the request body must be a JSON object")
        return body

    def _add(self, state: brass.State, seats: Any) -> Session:
        names, made = parse_seats(seats, state.game)
        session = Session(secrets.token_hex(8), state, names, made)
        self.store.add(session)
        return session

    # --- handlers ----------------------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        html = resources.files("brass").joinpath("serve.html").read_text(encoding="utf-8")
        # `<` escaped: no value of the defaults can close the script element it is written into.
        return HTMLResponse(html.replace("__DEFAULTS__", json.dumps(self.defaults).replace("<", "\\u003c")))

    async def catalog(self, request: Request) -> Response:
        networks = {name: {"game": game, "players": players} for (game, players), name in NETWORKS.items()}
        return JSONResponse({"games": brass.games(), "agents": [HUMAN, *AGENT_CHOICES], "networks": networks})

    async def new_game(self, request: Request) -> Response:
        body = await self._body(request)
        name, players = body.get("game", "lancashire"), body.get("players")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise RequestError(400, "options must be an object: option name -> true or false")
        try:
            game = brass.Game(name, players=players, **options)
            state = game.new_state(body.get("seed"))
        except (brass.BrassError, TypeError) as e:
            raise RequestError(400, str(e)) from None
        session = await run_in_threadpool(self._add, state, body.get("seats"))
        return JSONResponse(await run_in_threadpool(view, session), status_code=201)

    async def load_game(self, request: Request) -> Response:
        body = await self._body(request)
        if ("record" in body) == ("state" in body):
            raise RequestError(400, "give either a record or a state")
        try:
            state = brass.replay(body["record"]) if "record" in body else brass.State.from_json(body["state"])
        except (brass.BrassError, TypeError) as e:
            raise RequestError(400, str(e)) from None
        seats = body.get("seats", [HUMAN] * state.game.players)
        session = await run_in_threadpool(self._add, state, seats)
        return JSONResponse(await run_in_threadpool(view, session), status_code=201)

    async def _locked(self, session: Session, work: Any) -> Any:
        """`work()` with the game's lock held, in a worker thread. A game busy with another request (its agent
        thinking) answers 409 at once: no request waits for a lock, on the event loop or in a worker thread,
        so one game's long search holds up neither the server nor its thread pool."""

        def locked() -> Any:
            if not session.lock.acquire(blocking=False):
                raise RequestError(409, "this game is busy (its agent is thinking): try again when it has moved")
            try:
                return work()
            finally:
                session.used = time.monotonic()
                session.lock.release()

        return await run_in_threadpool(locked)

    async def get_game(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])
        return JSONResponse(await self._locked(session, lambda: view(session)))

    async def position(self, request: Request) -> Response:
        """A past position of the game, to step through it: its board and whose move it was, and the move played
        from it (None at the end of the history)."""
        session = self.store.get(request.path_params["id"])

        def work() -> dict[str, Any]:
            history = session.state.history
            past = position_at(session.state, request.path_params["k"])
            k = len(past.history)
            return {
                "position": k,
                "positions": len(history),
                "to_move": past.current_player,
                "decision": past.decision,
                "over": past.is_terminal,
                "played": None
                if k == len(history)
                else {"id": history[k], "notation": past.game.action_name(history[k])},
                "svg": svg.board(past),
            }

        return JSONResponse(await self._locked(session, work))

    async def delete_game(self, request: Request) -> Response:
        self.store.remove(request.path_params["id"])
        return JSONResponse({"deleted": request.path_params["id"]})

    async def move(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])
        body = await self._body(request)
        move = body.get("move")
        if not isinstance(move, (int, str)) or isinstance(move, bool):
            raise RequestError(400, "move must be an action id (int) or a notation (str)")

        def work() -> dict[str, Any]:
            player = session.state.current_player
            if player is None:
                raise RequestError(409, "the game is over")
            if player in session.agents:
                raise RequestError(409, f"player {player} is an agent ({session.seats[player]}): ask it to move")
            try:
                session.state.apply(move)
            except brass.BrassError as e:
                raise RequestError(400, str(e)) from None
            return view(session)

        return JSONResponse(await self._locked(session, work))

    async def agent_move(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])

        def work() -> dict[str, Any]:
            player = session.state.current_player
            if player is None:
                raise RequestError(409, "the game is over")
            agent = session.agents.get(player)
            if agent is None:
                raise RequestError(409, f"player {player} is a human: it is their move")
            try:
                action = agent.choose(session.state, seed=session.moves_by_agents)
                session.state.apply(action)
            except brass.BrassError as e:
                raise RequestError(409, f"player {player}'s agent ({session.seats[player]}) cannot move: {e}") from None
            session.moves_by_agents += 1
            return {"player": player, "move": session.state.game.action_name(action), "view": view(session)}

        return JSONResponse(await self._locked(session, work))

    async def undo(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])

        def work() -> dict[str, Any]:
            try:
                session.state.undo()
            except brass.BrassError as e:
                raise RequestError(409, str(e)) from None
            return view(session)

        return JSONResponse(await self._locked(session, work))

    async def analyse(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])
        body = await self._body(request)
        engine = body.get("engine", "mcts")
        if engine not in ("mcts", "network"):
            raise RequestError(400, "engine must be 'mcts' or 'network'")
        budget = {}
        for key, high in (("iterations", 1_000_000), ("time_ms", 60_000), ("simulations", 100_000)):
            if key in body:
                value = body[key]
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
                    raise RequestError(400, f"{key} must be an int from 1 to {high}")
                budget[key] = value
        if engine == "mcts" and {"iterations", "time_ms"} <= budget.keys():
            raise RequestError(400, "give the MCTS analysis either iterations or time_ms, not both")
        if (engine == "mcts" and "simulations" in budget) or (engine == "network" and budget.keys() - {"simulations"}):
            raise RequestError(400, "MCTS takes iterations or time_ms; the network's search takes simulations")
        if engine == "mcts" and not budget:
            budget["time_ms"] = ANALYSE_MS
        if not self._analyses.acquire(blocking=False):
            raise RequestError(429, f"{MAX_ANALYSES} analyses are running: try again when one has finished")
        try:
            return await self._analyse(session, engine, budget, body)
        finally:
            self._analyses.release()

    async def _analyse(self, session: Session, engine: str, budget: dict[str, int], body: dict[str, Any]) -> Response:

        def snapshot() -> brass.State:
            if "position" in body:
                return position_at(session.state, body["position"])
            return session.state.clone()

        state = await self._locked(session, snapshot)
        if state.is_terminal:
            raise RequestError(409, "the game is over: there is nothing to analyse")
        # The search runs on the copy, without the game's lock: the game can be played meanwhile.
        return JSONResponse(await run_in_threadpool(analyse_position, state, engine, budget))

    async def record(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])
        headers = {"Event": "brass serve", **{f"Seat{i}": spec for i, spec in enumerate(session.seats)}}
        text = await self._locked(session, lambda: session.state.record(notation=True, headers=headers))
        return Response(text, media_type="application/json")

    async def state_json(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])
        text = await self._locked(session, lambda: session.state.to_json())
        return Response(text, media_type="application/json")


#: The shipped network of each configuration that has one (docs/learning.md).
NETWORKS = {("birmingham", 2): "birmingham-2p"}


def network_for(game: brass.Game) -> str | None:
    return None if game.options else NETWORKS.get((game.name, game.players))


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
        a: {"id": a, "notation": game.action_name(a), "share": 0.0, "value": None} for a in legal
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


class Running:
    """A server running in a thread of this process (`start`): its `url`, and `stop()`."""

    def __init__(self, app: App, host: str = "127.0.0.1", port: int = 0) -> None:
        try:
            import uvicorn
        except ImportError:
            raise MissingExtraError("brass serve", "uvicorn", "serve") from None
        import socket

        # The socket listens before the thread starts, so a first request waits in its backlog, never fails.
        self._socket = socket.create_server((host, port), backlog=128)
        self.app = app
        self.url = f"http://{host}:{self._socket.getsockname()[1]}/"
        self._server = uvicorn.Server(uvicorn.Config(app.asgi, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)
        self._socket.close()

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(app: App | None = None, host: str = "127.0.0.1", port: int = 0) -> Running:
    """Serve `app` (a new `App` by default) from a thread of this process, on `port` (0: any free one), e.g.
    from a notebook: `with serve.start() as server: print(server.url)`."""
    return Running(app or App(), host, port)


def run(host: str, port: int, max_games: int, defaults: dict[str, Any]) -> None:
    """Serve until interrupted."""
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = LOCAL_HOSTS if local else ["*"] if host in ("0.0.0.0", "::") else [*LOCAL_HOSTS, host]
    app = App(max_games=max_games, defaults=defaults, hosts=hosts)
    try:
        import uvicorn
    except ImportError:
        raise MissingExtraError("brass serve", "uvicorn", "serve") from None
    uvicorn.run(app.asgi, host=host, port=port, log_level="warning")
