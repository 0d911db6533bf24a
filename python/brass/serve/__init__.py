"""`brass serve`: play and analyse games in the browser (docs/serve.md).

A small ASGI app (Starlette, served by uvicorn: the `serve` extra) with a JSON API and one self-contained page
(`brass/serve/serve.html`: no CDN, no network). The server keeps several games at once in memory, each with its own
id, at most `max_games` of them (finished games go first, least recently used first; never a game whose agent is
thinking), and with a `store` folder on the disk too (`saved`: a restarted server serves them again). Every
request that touches a game takes its lock without waiting, in a worker thread (a busy game answers 409), and
agents think there with the GIL released: one long search holds up no other game.

The JSON API (every body JSON; every error a 4xx with `{"error": message}` that leaves the game unchanged) is
listed in docs/serve.md: games made, loaded, viewed, moved by a human or by their agent, undone, analysed, saved.
"""

from __future__ import annotations

import importlib
import json
import secrets
import threading
import time
from importlib import resources
from typing import Any

import brass
from brass import svg
from brass._errors import MissingExtraError
from brass.agents import NETWORKS
from brass.serve import saved
from brass.serve.games import (
    AGENT_CHOICES,
    ANALYSE_MS,
    CAPS,
    HUMAN,
    LOCAL_HOSTS,
    MAX_AGENT_MS,
    MAX_ANALYSES,
    MAX_BODY,
    MAX_GAMES,
    MAX_MCTS_ITERATIONS,
    MAX_NET_SIMULATIONS,
    RequestError,
    Session,
    Store,
    analyse_position,
    describe,
    make_agent,
    move_groups,
    move_words,
    network_for,
    parse_seats,
    position_at,
    table_view,
    view,
)
from brass.serve.saved import StoreError
from brass.text import digits

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


class App:
    """The server's state and its request handlers; `app.asgi` is the ASGI application."""

    def __init__(
        self,
        max_games: int = MAX_GAMES,
        defaults: dict[str, Any] | None = None,
        hosts: list[str] | None = None,
        store: str | None = None,
    ) -> None:
        """`hosts`: the names the server answers to in the `Host` header (default this machine's: 127.0.0.1,
        localhost, ::1); a page of another site reached through a name of its own (DNS rebinding) is refused.
        `store`: a folder that keeps every game on the disk (`Store`); `StoreError` if games cannot be written
        there."""
        if Starlette is None:
            raise MissingExtraError("brass serve", "starlette and uvicorn", "serve")
        self.store = Store(max_games, folder=store)
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
        try:
            self.store.add(session)
        except OSError as e:
            raise RequestError(
                507, f"the game could not be saved in {self.store.folder} ({e.strerror or e}): it was not made"
            ) from None
        return session

    # --- handlers ----------------------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        html = resources.files("brass.serve").joinpath("serve.html").read_text(encoding="utf-8")
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

    def _save(self, session: Session, take_back: Any) -> None:
        """Write the changed game to the store (with its lock held); if it cannot be written, `take_back()` the
        change and refuse the request: a game the disk does not have is never answered as changed."""
        try:
            self.store.save(session)
        except OSError as e:
            take_back()
            raise RequestError(
                507, f"the game could not be saved in {self.store.folder} ({e.strerror or e}): nothing was changed"
            ) from None

    def _back_to(self, session: Session, moves: int) -> Any:
        def take_back() -> None:
            while len(session.state.history) > moves:
                session.state.undo()

        return take_back

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
                "played_text": None if k == len(history) else move_words(past, history[k]),
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
            before = len(session.state.history)
            try:
                session.state.apply(move)
            except brass.BrassError as e:
                raise RequestError(400, str(e)) from None
            self._save(session, self._back_to(session, before))
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
            before = len(session.state.history)
            try:
                action = agent.choose(session.state, seed=session.moves_by_agents)
                session.state.apply(action)
            except brass.BrassError as e:
                raise RequestError(409, f"player {player}'s agent ({session.seats[player]}) cannot move: {e}") from None
            session.moves_by_agents += 1
            take_back = self._back_to(session, before)

            def and_the_count() -> None:
                take_back()
                session.moves_by_agents -= 1

            self._save(session, and_the_count)
            return {"player": player, "move": session.state.game.action_name(action), "view": view(session)}

        return JSONResponse(await self._locked(session, work))

    async def undo(self, request: Request) -> Response:
        session = self.store.get(request.path_params["id"])

        def work() -> dict[str, Any]:
            undone = session.state.history[-1:]
            try:
                session.state.undo()
            except brass.BrassError as e:
                raise RequestError(409, str(e)) from None

            def take_back() -> None:
                for action in undone:
                    session.state.apply(action)

            self._save(session, take_back)
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
        # A long keep-alive: a client reusing a connection the server has just dropped as idle gets a read error,
        # a race that a busy machine (agents thinking in the event loop's thread) makes likely at uvicorn's 5 s.
        config = uvicorn.Config(app.asgi, log_level="warning", timeout_keep_alive=KEEP_ALIVE_SECONDS)
        self._server = uvicorn.Server(config)
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


#: Seconds an idle HTTP connection stays open.
KEEP_ALIVE_SECONDS = 60


def start(app: App | None = None, host: str = "127.0.0.1", port: int = 0) -> Running:
    """Serve `app` (a new `App` by default) from a thread of this process, on `port` (0: any free one), e.g.
    from a notebook: `with serve.start() as server: print(server.url)`."""
    return Running(app or App(), host, port)


def require_extra() -> None:
    """Raise `MissingExtraError` unless starlette and uvicorn are both installed: `brass serve` checks this before
    it prints the address it would listen on, so a missing extra never looks like a server that started."""
    found = {"starlette": Starlette is not None, "uvicorn": _has("uvicorn")}
    missing = [name for name, there in found.items() if not there]
    if missing:
        raise MissingExtraError("brass serve", " and ".join(missing), "serve")


def _has(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def run(host: str, port: int, max_games: int, defaults: dict[str, Any], store: str | None = None) -> None:
    """Serve until interrupted (the games kept in the folder `store`, if given: `Store`)."""
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = LOCAL_HOSTS if local else ["*"] if host in ("0.0.0.0", "::") else [*LOCAL_HOSTS, host]
    app = App(max_games=max_games, defaults=defaults, hosts=hosts, store=store)
    try:
        import uvicorn
    except ImportError:
        raise MissingExtraError("brass serve", "uvicorn", "serve") from None
    uvicorn.run(app.asgi, host=host, port=port, log_level="warning", timeout_keep_alive=KEEP_ALIVE_SECONDS)


__all__ = [
    "AGENT_CHOICES",
    "ANALYSE_MS",
    "CAPS",
    "HUMAN",
    "LOCAL_HOSTS",
    "MAX_AGENT_MS",
    "MAX_ANALYSES",
    "MAX_BODY",
    "MAX_GAMES",
    "MAX_MCTS_ITERATIONS",
    "MAX_NET_SIMULATIONS",
    "NETWORKS",
    "App",
    "RequestError",
    "Running",
    "Session",
    "Store",
    "StoreError",
    "analyse_position",
    "describe",
    "digits",
    "make_agent",
    "move_groups",
    "network_for",
    "parse_seats",
    "position_at",
    "require_extra",
    "run",
    "saved",
    "start",
    "table_view",
    "view",
]
