"""`brass serve` (docs/serve.md): the JSON API through the ASGI test client, every refusal a 4xx that leaves the
game unchanged, the bounded store, and many games played at once through the API, each final state checked
against a replay of its record. Needs the `serve` extra (the integration session installs it)."""

from __future__ import annotations

import asyncio
import importlib
import random
import re
import sys
import threading
from collections import Counter
from pathlib import Path

import httpx
import pytest

import brass
from brass import serve

#: What the page sends with every request that changes something (the server refuses other content types).
JSON = {"content-type": "application/json"}


class ApiClient:
    """A synchronous client over the app's ASGI interface (httpx's ASGI transport, one event loop per request)."""

    def __init__(self, asgi: object) -> None:
        self.transport = httpx.ASGITransport(app=asgi)  # type: ignore[arg-type]

    def request(self, method: str, url: str, **kwargs: object) -> httpx.Response:
        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=self.transport, base_url="http://127.0.0.1", headers=JSON) as client:
                return await client.request(method, url, **kwargs)  # type: ignore[arg-type]

        return asyncio.run(send())

    def get(self, url: str, **kwargs: object) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: object) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def delete(self, url: str, **kwargs: object) -> httpx.Response:
        return self.request("DELETE", url, **kwargs)


@pytest.fixture
def app() -> serve.App:
    return serve.App(max_games=8)


@pytest.fixture
def client(app: serve.App) -> ApiClient:
    return ApiClient(app.asgi)


def new_game(client: ApiClient, **body: object) -> dict:
    r = client.post("/api/games", json={"game": "lancashire", "players": 2, "seed": 7, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_page_is_self_contained_and_carries_the_defaults() -> None:
    app = serve.App(defaults={"game": "birmingham", "players": 3})
    page = ApiClient(app.asgi).get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '"game": "birmingham"' in page.text and "__DEFAULTS__" not in page.text
    for external in ("http://", "https://", "//cdn", "<link", "src="):
        assert external not in page.text  # no CDN, no network: everything is in the page
    sneaky = ApiClient(serve.App(defaults={"game": "</script><b>x</b>"}).asgi).get("/").text
    assert "</script><b>" not in sneaky and "\\u003c/script>" in sneaky


def test_the_catalog_lists_the_games_and_the_seats(client: ApiClient) -> None:
    body = client.get("/api/catalog").json()
    assert set(body["games"]) == set(brass.games())
    assert body["agents"][0] == "human" and "greedy" in body["agents"]


def test_a_human_plays_an_agent_answers_and_undo_takes_a_move_back(client: ApiClient) -> None:
    view = new_game(client, seats=["human", "greedy"])
    state = brass.Game("lancashire", players=2).new_state(7)
    assert view["to_move"] == state.current_player
    assert view["svg"].startswith("<svg")
    groups = {g["group"]: g["moves"] for g in view["legal"]}
    assert set(groups) <= {"build", "link", "develop", "sell", "loan", "pass"} and "pass" in groups
    assert [m["id"] for g in view["legal"] for m in g["moves"]] == state.legal_actions()
    human = view["to_move"]
    if human != 0:  # the turn order is random: the agent opens
        r = client.post(f"/api/games/{view['id']}/agent")
        assert r.status_code == 200 and r.json()["player"] == 1
        view = r.json()["view"]
    move = view["legal"][0]["moves"][0]["notation"]
    view = client.post(f"/api/games/{view['id']}/move", json={"move": move}).json()
    assert view["history"][-1] == move
    while view["agent_to_move"]:
        view = client.post(f"/api/games/{view['id']}/agent").json()["view"]
    before = view["history"]
    undone = client.post(f"/api/games/{view['id']}/undo").json()
    assert undone["history"] == before[:-1]


def test_an_illegal_typed_move_gets_the_rule_and_changes_nothing(client: ApiClient) -> None:
    view = new_game(client, seats=["human", "human"])
    url = f"/api/games/{view['id']}"
    r = client.post(f"{url}/move", json={"move": "link bolton-bury"})
    assert r.status_code == 400
    assert "not legal now" in r.json()["error"] and "(L-34)" in r.json()["error"]
    r = client.post(f"{url}/move", json={"move": "build cotton_mill nowhere/1"})
    assert r.status_code == 400 and "is not a space" in r.json()["error"]
    after = client.get(url).json()
    assert after["history"] == [] and after["svg"] == view["svg"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("get", "/api/games/nope", None, 404, "no game with id 'nope'"),
        ("post", "/api/games", {"game": "chess", "players": 2}, 400, "unknown game `chess`"),
        ("post", "/api/games", {"game": "lancashire", "players": 7}, 400, "2, 3 or 4 players"),
        ("post", "/api/games", {"game": "lancashire", "players": 2, "seats": ["human"]}, 400, "names 1 seats"),
        ("post", "/api/games", {"game": "lancashire", "players": 2, "seats": ["human", "wizard"]}, 400, "seat 1"),
        ("post", "/api/games", {"game": "lancashire", "players": 2, "options": [1]}, 400, "options must be"),
        ("post", "/api/games/load", {}, 400, "either a record or a state"),
        ("post", "/api/games/load", {"record": "{}"}, 400, "record"),
    ],
)
def test_bad_requests_are_refused_with_a_message(
    client: ApiClient, method: str, path: str, body: object, status: int, message: str
) -> None:
    r = getattr(client, method)(path, **({} if body is None else {"json": body}))
    assert r.status_code == status
    assert message in r.json()["error"]


def test_bodies_that_are_not_json_objects_or_too_large_are_refused(client: ApiClient) -> None:
    view = new_game(client, seats=["human", "human"])
    url = f"/api/games/{view['id']}/move"
    assert client.post(url, content=b"{not json").status_code == 400
    assert client.post(url, content=b"[1, 2]").json()["error"] == "the request body must be a JSON object"
    assert client.post(url, json={"move": True}).status_code == 400
    big = client.post(url, content=b" " * (serve.MAX_BODY + 1))
    assert big.status_code == 413 and "larger than" in big.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json()["history"] == []


def test_moves_out_of_turn_are_refused(client: ApiClient) -> None:
    view = new_game(client, seats=["greedy", "greedy"])
    r = client.post(f"/api/games/{view['id']}/move", json={"move": "pass"})
    assert r.status_code == 409 and "is an agent" in r.json()["error"]
    humans = new_game(client, seats=["human", "human"])
    r = client.post(f"/api/games/{humans['id']}/agent")
    assert r.status_code == 409 and "is a human" in r.json()["error"]
    r = client.post(f"/api/games/{humans['id']}/undo")
    assert r.status_code == 409


def test_a_saved_record_and_state_load_back(client: ApiClient) -> None:
    view = new_game(client, seats=["random", "random"])
    for _ in range(30):
        view = client.post(f"/api/games/{view['id']}/agent").json()["view"]
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["headers"]["Seat0"] == "random" and len(record["moves"]) == 30
    loaded = client.post("/api/games/load", json={"record": record})
    assert loaded.status_code == 201
    assert loaded.json()["history"] == view["history"] and loaded.json()["seats"] == ["human", "human"]
    state_json = client.get(f"/api/games/{view['id']}/state").text
    from_state = client.post("/api/games/load", json={"state": state_json, "seats": ["human", "greedy"]})
    assert from_state.status_code == 201 and from_state.json()["svg"] == view["svg"]


def test_a_loaded_record_can_be_stepped_through_with_an_evaluation_of_each_position(client: ApiClient) -> None:
    state = brass.Game("lancashire", players=2).new_state(9)
    rng = random.Random(9)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    view = client.post("/api/games/load", json={"record": state.record(notation=True)}).json()
    url = f"/api/games/{view['id']}"
    first = client.get(f"{url}/positions/0").json()
    start = brass.Game("lancashire", players=2).new_state(9)
    assert first["positions"] == 25 and first["svg"] == brass.svg.board(start)
    assert first["played"] == {"id": state.history[0], "notation": state.game.action_name(state.history[0])}
    assert first["to_move"] == start.current_player
    middle = client.get(f"{url}/positions/12").json()
    past = brass.Game("lancashire", players=2).new_state(9)
    for action in state.history[:12]:
        past.apply(action)
    assert middle["svg"] == brass.svg.board(past) and middle["played"]["id"] == state.history[12]
    last = client.get(f"{url}/positions/25").json()
    assert last["played"] is None and last["svg"] == view["svg"]
    assert client.get(f"{url}/positions/26").status_code == 400
    assert client.get(f"{url}").json()["history"] == view["history"]  # stepping changes nothing
    evaluated = client.post(f"{url}/analyse", json={"position": 12, "iterations": 100}).json()
    assert sorted(m["id"] for m in evaluated["moves"]) == sorted(past.legal_actions())
    assert evaluated["moves"][0]["id"] == brass.agents.MCTS(100).choose(past, seed=0)
    assert client.post(f"{url}/analyse", json={"position": -1}).status_code == 400


def test_the_store_drops_finished_games_first_then_the_least_recently_used() -> None:
    app = serve.App(max_games=2)
    client = ApiClient(app.asgi)
    playing = new_game(client)["id"]
    finished_state = brass.Game("lancashire", players=2).new_state(3)
    while not finished_state.is_terminal:
        finished_state.apply(finished_state.legal_actions()[0])
    finished = client.post("/api/games/load", json={"state": finished_state.to_json()}).json()
    assert finished["over"] and finished["result"] == brass.text.result(finished_state)
    third = new_game(client)["id"]
    assert client.get(f"/api/games/{finished['id']}").status_code == 404  # finished, though newer
    assert client.get(f"/api/games/{playing}").status_code == 200
    fourth = new_game(client)["id"]  # none finished: the least recently used goes
    assert client.get(f"/api/games/{third}").status_code == 404
    assert {client.get(f"/api/games/{g}").status_code for g in (playing, fourth)} == {200}
    assert client.delete(f"/api/games/{fourth}").status_code == 200 and len(app.store) == 1


def test_mcts_analysis_gives_every_legal_move_its_visit_share_and_value(client: ApiClient) -> None:
    view = new_game(client, seats=["human", "human"])
    r = client.post(f"/api/games/{view['id']}/analyse", json={"engine": "mcts", "iterations": 300})
    assert r.status_code == 200
    body = r.json()
    assert body["method"] == "MCTS (300 iterations)" and body["player"] == view["to_move"]
    ids = [m["id"] for g in view["legal"] for m in g["moves"]]
    assert sorted(m["id"] for m in body["moves"]) == sorted(ids)
    assert abs(sum(m["share"] for m in body["moves"]) - 1) < 1e-9
    shares = [m["share"] for m in body["moves"]]
    assert shares == sorted(shares, reverse=True)
    tried = [m for m in body["moves"] if m["share"] > 0]
    assert tried and all(0 <= m["value"] <= 1 for m in tried)
    # The most visited move is the one the MCTS agent plays from this position with the same seed.
    state = brass.State.from_json(client.get(f"/api/games/{view['id']}/state").text)
    assert brass.agents.MCTS(300).choose(state, seed=0) == body["moves"][0]["id"]
    for bad in ({"engine": "mcts", "iterations": 0}, {"engine": "alpha"}):
        assert client.post(f"/api/games/{view['id']}/analyse", json=bad).status_code == 400
    # The network's analysis where no network was trained for the configuration (a game with an option).
    intro = new_game(client, game="lancashire", players=2, options={"intro": True}, seats=["human"] * 2)
    r = client.post(f"/api/games/{intro['id']}/analyse", json={"engine": "network"})
    assert r.status_code == 400 and "network" in r.json()["error"]


def test_mcts_analyse_is_the_search_that_choose_runs() -> None:
    state = brass.Game("lancashire", players=2).new_state(4)
    rng = random.Random(4)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.legal_actions()) > 1
    mcts = brass.agents.MCTS(200)
    visits = mcts.analyse(state, seed=3)
    assert visits == mcts.analyse(state, seed=3)  # deterministic for a seed
    assert sum(n for _, n, _ in visits) == 200  # every iteration passes through one root move
    assert all(0 <= v <= 1 for _, _, v in visits)
    assert [n for _, n, _ in visits] == sorted((n for _, n, _ in visits), reverse=True)
    assert {a for a, _, _ in visits} <= set(state.legal_actions())
    assert mcts.choose(state, seed=3) == visits[0][0]
    finished = state.clone()
    while not finished.is_terminal:
        finished.apply(finished.legal_actions()[0])
    with pytest.raises(brass.IllegalActionError, match="nothing to analyse"):
        mcts.analyse(finished)


def test_the_trained_network_analyses_birmingham_two_player_positions(client: ApiClient) -> None:
    r = client.post("/api/games", json={"game": "birmingham", "players": 2, "seed": 1, "seats": ["human", "human"]})
    assert r.json()["network"] == "birmingham-2p"
    body = client.post(f"/api/games/{r.json()['id']}/analyse", json={"engine": "network", "simulations": 32}).json()
    assert body["method"].startswith("network search (birmingham-2p")
    assert abs(sum(m["share"] for m in body["moves"]) - 1) < 1e-9
    assert -1 <= body["value"] <= 1


def test_many_games_at_once_through_the_http_api_each_matching_a_replay_of_its_record() -> None:
    """Twelve games of three rule sets, agents in every seat, played to the end at once over real HTTP (uvicorn
    on a local port): every final state is the replay of the game's saved record."""
    app = serve.App(max_games=32)

    async def one(client: httpx.AsyncClient, k: int) -> None:
        game = ["lancashire", "birmingham", "brass"][k % 3]
        players = 2 + k % 2 if game != "brass" else 3
        seats = ["random"] * players if k % 2 else ["greedy"] + ["random"] * (players - 1)
        r = await client.post("api/games", json={"game": game, "players": players, "seed": k, "seats": seats})
        view = r.json()
        while not view["over"]:
            view = (await client.post(f"api/games/{view['id']}/agent")).json()["view"]
        record = (await client.get(f"api/games/{view['id']}/record")).text
        state = (await client.get(f"api/games/{view['id']}/state")).text
        replayed = brass.replay(record)
        assert replayed.to_json() == state
        assert brass.text.result(replayed) == view["result"]

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120, headers=JSON) as client:
            await asyncio.gather(*(one(client, k) for k in range(12)))

    with serve.start(app) as server:
        assert server.url.startswith("http://127.0.0.1:")
        asyncio.run(main(server.url))
    assert len(app.store) == 12


def test_brass_serve_warns_when_it_listens_beyond_this_machine(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from brass import cli

    calls = []
    monkeypatch.setattr(serve, "run", lambda *args: calls.append(args))
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert calls == [("127.0.0.1", 8123, 64, {}, None)] and "anyone" not in capsys.readouterr().err
    assert cli.main(["serve", "--host", "0.0.0.0", "--game", "birmingham", "--agents", "human", "greedy"]) == 0
    assert calls[1] == ("0.0.0.0", 8000, 64, {"game": "birmingham", "players": 2, "seats": ["human", "greedy"]}, None)
    assert "anyone who can reach this machine can use the server" in capsys.readouterr().err


def test_without_the_extra_the_server_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "starlette" or m.startswith("starlette.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "brass.serve")
    monkeypatch.setattr(brass, "serve", serve)  # put back afterwards, with sys.modules, for the other tests
    without = importlib.import_module("brass.serve")
    with pytest.raises(
        brass.MissingExtraError,
        match=r"brass serve needs starlette.*pip install starlette uvicorn \(or, from a clone, pip install '\.\[serve\]'\)",
    ):
        without.App()


@pytest.mark.parametrize("missing", ["starlette", "uvicorn"])
def test_brass_serve_without_the_extra_prints_no_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    from brass import cli

    if missing == "starlette":
        monkeypatch.setattr(serve, "Starlette", None)  # as brass.serve is when its import of starlette failed
    else:
        monkeypatch.setitem(sys.modules, "uvicorn", None)  # a None entry makes `import uvicorn` fail
    listened = []
    monkeypatch.setattr(serve, "run", lambda *args: listened.append(args))
    assert cli.main(["serve", "--port", "8123"]) == 2
    out, err = capsys.readouterr()
    assert "http" not in out and not listened
    assert f"brass serve needs {missing}, which is not installed" in err
    assert "pip install starlette uvicorn (or, from a clone, pip install '.[serve]')" in err


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("", "--host is empty"),  # would listen on every address, as 0.0.0.0 does
        ("no-such-host.invalid", "cannot listen on --host no-such-host.invalid: "),
    ],
)
def test_brass_serve_refuses_a_host_it_cannot_listen_on_before_it_prints_the_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], host: str, message: str
) -> None:
    import socket

    from brass import cli

    def no_such_host(host: str, *args: object, **kwargs: object) -> object:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)  # no name server asked
    listened = []
    monkeypatch.setattr(serve, "run", lambda *args: listened.append(args))
    assert cli.main(["serve", "--host", host]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not listened
    assert err.startswith(f"brass: {message}") and err.count("\n") == 1


def test_brass_serve_refuses_a_bad_seat_before_it_listens(capsys: pytest.CaptureFixture[str]) -> None:
    from brass import cli

    assert cli.main(["serve", "--agents", "human", "wizard"]) == 2
    assert "seat 1" in capsys.readouterr().err


def test_the_docs_example_plays_a_game_through_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    document = (Path(__file__).resolve().parents[1] / "docs" / "serve.md").read_text(encoding="utf-8")
    start, api = re.findall(r"^```python\n(.*?)^```", document, re.DOTALL | re.MULTILINE)
    exec(compile(start, "docs/serve.md", "exec"), {"__name__": "docs_serve"})
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\n", capsys.readouterr().out)
    exec(compile(api, "docs/serve.md", "exec"), {"__name__": "docs_serve"})
    assert "wins" in capsys.readouterr().out


class RecordingLock:
    """A game's lock that notes the thread of every acquisition."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def acquire(self, blocking: bool = True) -> bool:
        self.threads.append(threading.current_thread())
        return self.lock.acquire(blocking)

    def release(self) -> None:
        self.lock.release()

    def locked(self) -> bool:
        return self.lock.locked()


def test_no_request_waits_for_a_games_lock_on_the_event_loop(app: serve.App, client: ApiClient) -> None:
    """An agent thinks with its game's lock held; were any handler to take a lock on the event loop, a request
    to that game would stop every game of the server until the agent is done. Every acquisition must be in a
    worker thread (the ASGI client runs the event loop in this thread)."""
    view = new_game(client, seats=["human", "greedy"])
    session = app.store.get(view["id"])
    lock = RecordingLock()
    session.lock = lock  # type: ignore[assignment]
    url = f"/api/games/{view['id']}"
    client.get(url)
    agent_first = view["agent_to_move"]
    if agent_first:
        client.post(f"{url}/agent")
    client.post(f"{url}/move", json={"move": "pass"})
    client.post(f"{url}/move", json={"move": "link bolton-bury"})
    client.post(f"{url}/undo")
    client.post(f"{url}/analyse", json={"iterations": 10})
    client.get(f"{url}/positions/0")
    client.get(f"{url}/record")
    client.get(f"{url}/state")
    assert len(lock.threads) == 8 + agent_first  # every request above took the game's lock
    assert threading.current_thread() not in lock.threads


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ("net:/etc/passwd", "unknown agent"),  # the server reads no file a request names
        ("netmcts:64:/dev/zero", "unknown agent"),
        ("net:birmingham-2p", "plays birmingham 2p, not lancashire at 2 players"),
        ("mcts:1000000000", "iterations must be from 1 to"),
        ("mcts@100000000", "the time per move must be from 1 to"),
        ("mcts:ten", "unknown agent"),
        ("mcts:²", "unknown agent"),
        ("mcts:" + "9" * 5000, "unknown agent"),
    ],
)
def test_seats_are_agents_the_server_can_run(client: ApiClient, seat: str, message: str) -> None:
    r = client.post("/api/games", json={"game": "lancashire", "players": 2, "seats": ["human", seat]})
    assert r.status_code == 400 and message in r.json()["error"] and "seat 1" in r.json()["error"]


def test_the_trained_network_plays_its_own_configuration(client: ApiClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert catalog["networks"] == {
        "birmingham-2p": {"game": "birmingham", "players": 2},
        "birmingham-3p": {"game": "birmingham", "players": 3},
        "birmingham-4p": {"game": "birmingham", "players": 4},
        "brass-3p": {"game": "brass", "players": 3},
        "brass-4p": {"game": "brass", "players": 4},
        "lancashire-2p": {"game": "lancashire", "players": 2},
        "lancashire-3p": {"game": "lancashire", "players": 3},
        "lancashire-4p": {"game": "lancashire", "players": 4},
    }
    seats = ["netmcts:8:birmingham-2p", "net:birmingham-2p"]
    view = client.post("/api/games", json={"game": "birmingham", "players": 2, "seed": 2, "seats": seats}).json()
    for _ in range(4):
        view = client.post(f"/api/games/{view['id']}/agent").json()["view"]
    assert len(view["history"]) == 4


@pytest.mark.parametrize(
    ("headers", "content", "status"),
    [
        ({"content-type": "text/plain"}, b"{}", 415),  # what a form of another site could send unasked
        ({"origin": "http://evil.example"}, b"{}", 403),
        ({"content-length": "abc"}, b"{}", 400),
        ({}, b"[" * 50_000, 400),
        ({}, b'{"seed": ' + b"9" * 5000 + b"}", 400),
    ],
)
def test_requests_from_elsewhere_or_unreadable_are_refused(
    client: ApiClient, headers: dict[str, str], content: bytes, status: int
) -> None:
    r = client.post("/api/games", content=content, headers=headers)
    assert r.status_code == status and r.json()["error"]


def test_a_host_name_of_another_site_is_refused(app: serve.App) -> None:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app.asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://evil.example:8000") as c:
            return await c.get("/api/catalog")

    assert asyncio.run(send()).status_code == 400  # DNS rebinding: a page of evil.example reading our answers


def test_a_busy_game_answers_at_once_and_analyses_are_limited(app: serve.App, client: ApiClient) -> None:
    view = new_game(client, seats=["human", "human"])
    url = f"/api/games/{view['id']}"
    session = app.store.get(view["id"])
    assert session.lock.acquire(blocking=False)  # as while its agent thinks
    try:
        r = client.post(f"{url}/move", json={"move": "pass"})
        assert r.status_code == 409 and "busy" in r.json()["error"]
        assert client.get(url).status_code == 409
        other = new_game(client, seats=["human", "human"])
        assert client.get(f"/api/games/{other['id']}").status_code == 200  # other games go on
    finally:
        session.lock.release()
    for _ in range(serve.MAX_ANALYSES):
        assert app._analyses.acquire(blocking=False)
    try:
        r = client.post(f"{url}/analyse", json={"iterations": 10})
        assert r.status_code == 429 and "analyses are running" in r.json()["error"]
    finally:
        for _ in range(serve.MAX_ANALYSES):
            app._analyses.release()
    both = client.post(f"{url}/analyse", json={"iterations": 10, "time_ms": 10})
    assert both.status_code == 400 and "not both" in both.json()["error"]
    assert client.post(f"{url}/analyse", json={"iterations": 10}).status_code == 200
    assert client.get(url).json()["history"] == []


def test_unknown_routes_and_methods_answer_json(client: ApiClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"].startswith("GET /api/nothing")
    r = client.request("PUT", "/api/games")
    assert r.status_code == 405 and "PUT" in r.json()["error"]


# --- what a person sees at the table (the page's hand, mats, players, history in words, guided turn) --------------

CONFIGURATIONS = [("birmingham", 2), ("birmingham", 3), ("birmingham", 4), ("lancashire", 2), ("lancashire", 3)]
CONFIGURATIONS += [("lancashire", 4), ("brass", 3), ("brass", 4)]


def session_of(state: brass.State, seats: list[str]) -> serve.Session:
    names, made = serve.parse_seats(seats, state.game)
    return serve.Session("table", state, names, made)


def actions_of(state: brass.State) -> list[tuple[int, list[str]]]:
    """The decisions of a game grouped into actions, replayed here: one begins at each `action` decision and at the
    first `remove` of a debt; every other decision belongs to the action before it."""
    replay = state.clone()
    for _ in state.history:
        replay.undo()
    out: list[tuple[int, list[str]]] = []
    for action in state.history:
        player, decision, notation = replay.current_player, replay.decision, replay.game.action_name(action)
        starts = decision == "action" or (decision == "remove" and out and not out[-1][1][-1].startswith("remove"))
        if starts or not out or out[-1][0] != player:
            out.append((player, []))
        out[-1][1].append(notation)
        replay.apply(action)
    return out


def check_table(view: dict, state: brass.State, rng: random.Random) -> None:
    """The table view against the engine's own views of the position."""
    me = view["viewer"]
    assert Counter(c["card"] for c in view["hand"]) == Counter(state.player(me).hand)
    assert [p["player"] for p in view["players"]] == list(state.turn_order)
    for facts in view["players"]:
        mine = state.player(facts["player"])
        assert (facts["money"], facts["income"], facts["vp"], facts["cards"]) == (
            mine.money,
            mine.income_level,
            mine.vp,
            len(mine.hand),
        )
        assert (facts["spent"], facts["links_left"], facts["tiles_left"]) == (
            mine.money_spent,
            mine.links_left,
            mine.mat,
        )
        assert facts["to_move"] == (facts["player"] == state.current_player)
        mat = view["mats"][facts["player"]]
        for industry in mat["industries"]:
            assert (
                sum(s["left"] for s in industry["stack"]) == industry["left"] == mine.mat.get(industry["industry"], 0)
            )
            assert industry["next"] is None or industry["next"]["level"] == industry["stack"][0]["level"]
    for resource in ("coal", "iron"):
        market = view["supply"][resource]
        assert market["cubes"] == sum(s["cube"] for s in market["spaces"]) == getattr(state, f"{resource}_market")
    turn = view["turn"]
    if turn is None:
        return
    legal = state.legal_actions()
    assert [o["id"] for o in turn["options"]] == legal
    assert {k["kind"] for k in turn["kinds"]} == (
        {state.game.action_name(a).split()[0] for a in legal} if state.decision == "action" else set()
    )
    for o in turn["options"]:
        assert o["text"] and set(o["places"]) <= set(turn["places"])
        if state.decision == "action":
            assert o["cost"] >= 0 and set(o["cards"]) <= set(state.player(me).hand)
    # A card chosen first is one the engine then offers, whatever is answered on the way (random answers here,
    # where the server answered its first choices).
    for o in rng.sample(turn["options"], min(3, len(turn["options"]))):
        for card in o["cards"] if o.get("card_asked") else []:
            child = state.child(o["id"])
            while child.current_player == me and child.decision not in ("card", "action"):
                child.apply(rng.choice(child.legal_actions()))
            assert child.decision == "card" and f"card {card}" in [
                child.game.action_name(a) for a in child.legal_actions()
            ]


def check_history(view: dict, state: brass.State) -> None:
    """One line per action (and per era ended), each marking every place its moves name; each player's last."""
    actions = actions_of(state)
    lines = [line for line in view["log"] if line["kind"] != "era"]
    assert [(line["player"], line["moves"]) for line in lines] == actions
    for line in lines:
        assert line["text"].startswith(f"Player {line['player']} ")
        marked = {m["place"] for m in line["marks"]}
        named = {w for move in line["moves"] for w in move.split()[1:] if "/" in w or move.startswith("link ")}
        assert named - {"distant"} <= marked, line
    for p in range(state.game.players):
        mine = [i for i, line in enumerate(view["log"]) if line["player"] == p]
        assert view["last"][p] == (mine[-1] if mine else None)


@pytest.mark.parametrize(("name", "players"), CONFIGURATIONS)
def test_the_table_view_is_the_engines_in_every_game_and_player_count(name: str, players: int) -> None:
    state = brass.Game(name, players=players).new_state(11)
    session = session_of(state, ["human"] + ["greedy"] * (players - 1))
    greedy, rng = brass.agents.Greedy(), random.Random(players)
    k = 0
    while not state.is_terminal:
        if state.current_player == 0 or k % 9 == 0:
            check_table(serve.table_view(session), state, rng)
        action = greedy.choose(state, seed=k) if rng.random() < 0.6 else rng.choice(state.legal_actions())
        state.apply(action)
        k += 1
    view = serve.table_view(session)
    check_history(view, state)
    eras = [line["text"] for line in view["log"] if line["kind"] == "era"]
    assert len(eras) == 2 and eras[0].startswith("End of the Canal Era: player 0 ")
    assert eras[1].endswith(f"The game is over: {brass.text.result(state)}.")
    state.undo()  # the last decision taken back: the history in words follows, as if told afresh
    undone = serve.table_view(session)["log"]
    assert undone == serve.table_view(session_of(state.clone(), ["human"] * players))["log"]
    assert [line["kind"] for line in undone].count("era") == 1 and undone[-1]["player"] == actions_of(state)[-1][0]


def test_the_history_says_what_an_action_did_even_when_it_ends_the_round() -> None:
    """Birmingham's first round has one action each: the second player's ends the round, whose end resets the
    money spent and pays income; the line still says what the build cost."""
    state = brass.Game("birmingham", players=2).new_state(4)
    session = session_of(state, ["human", "human"])
    state.apply("pass")
    state.apply("card stafford")
    state.apply("build coal_mine belper/2")
    assert state.round == 2
    view = serve.table_view(session)
    assert [line["text"] for line in view["log"]] == [
        "Player 0 passed, discarding the Stafford card.",
        "Player 1 built a coal mine in Belper (level 1), paid £5, discarding the coal mine card.",
    ]
    assert view["log"][1]["marks"] == [{"place": "belper/2", "role": "built"}] and view["last"] == [0, 1]
    assert [p["discard_top"]["card"] for p in sorted(view["players"], key=lambda p: p["player"])] == [
        "stafford",
        "coal_mine",
    ]
    loan = brass.Game("lancashire", players=2).new_state(1)
    session = session_of(loan, ["human", "human"])
    loan.apply("loan 20")
    assert serve.table_view(session)["log"][0]["text"].startswith("Player 1 took a loan of £20, income −2")


def test_the_hand_shown_is_the_human_seats_and_nobodys_when_agents_play_every_seat() -> None:
    state = brass.Game("lancashire", players=3).new_state(2)
    session = session_of(state, ["greedy", "human", "random"])
    for k in range(12):
        view = serve.table_view(session)
        assert view["viewer"] == 1 and Counter(c["card"] for c in view["hand"]) == Counter(state.player(1).hand)
        assert (view["turn"] is not None) == (state.current_player == 1)
        state.apply(brass.agents.Greedy().choose(state, seed=k))
    watched = session_of(brass.Game("brass", players=3).new_state(2), ["random"] * 3)
    view = serve.table_view(watched)
    assert view["viewer"] is None and view["hand"] == [] and view["turn"] is None


def test_the_guided_turn_words_every_decision_and_the_views_carry_it(client: ApiClient) -> None:
    view = new_game(client, seats=["human", "human"])
    assert {"hand", "mats", "players", "supply", "log", "last", "turn", "viewer"} <= set(view)
    turn = view["turn"]
    assert turn["decision"] == "action" and turn["prompt"] == "Choose an action"
    build = next(o for o in turn["options"] if o["kind"] == "build")
    assert build["text"].startswith(build["industry"].replace("_", " ").capitalize()) and build["places"]
    analysis = client.post(f"/api/games/{view['id']}/analyse", json={"iterations": 20}).json()
    assert all(m["text"] for m in analysis["moves"])
    played = client.post(f"/api/games/{view['id']}/move", json={"move": build["id"]}).json()
    assert played["log"][0]["player"] == view["to_move"] and played["log"][0]["moves"][0] == build["notation"]
    position = client.get(f"/api/games/{view['id']}/positions/0").json()
    assert position["played_text"].startswith("Build a ")


def test_a_stored_game_is_served_again_by_a_restarted_server(tmp_path: Path) -> None:
    store = str(tmp_path / "games")
    Path(store).mkdir()
    first = ApiClient(serve.App(max_games=8, store=store).asgi)
    game = new_game(first, seats=["human", "greedy"])
    for _ in range(2):  # the agent's move and the human's, whichever opens
        if game["agent_to_move"]:
            answered = first.post(f"/api/games/{game['id']}/agent")
            assert answered.status_code == 200, answered.text
            game = answered.json()["view"]
        else:
            moved = first.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["moves"][0]["id"]})
            assert moved.status_code == 200, moved.text
            game = moved.json()
    other = new_game(first)
    assert first.delete(f"/api/games/{other['id']}").status_code == 200
    record = first.get(f"/api/games/{game['id']}/record").json()
    assert sorted(p.name for p in Path(store).iterdir()) == [f"{game['id']}.json"]  # no other file, none partial
    # A new server on the same folder: the same game under the same id, its moves, its seats, and undo.
    again = ApiClient(serve.App(max_games=8, store=store).asgi)
    assert again.get(f"/api/games/{game['id']}/record").json() == record
    assert again.get(f"/api/games/{other['id']}").status_code == 404
    undone = again.post(f"/api/games/{game['id']}/undo")
    assert undone.status_code == 200, undone.text
    # The undo is on the disk too, and a game dropped from memory (max_games 1) is read back when asked for.
    third = ApiClient(serve.App(max_games=1, store=store).asgi)
    new_game(third)
    reread = third.get(f"/api/games/{game['id']}/record")
    assert reread.status_code == 200, reread.text
    assert reread.json()["moves"] == record["moves"][:-1]


def test_a_store_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from brass import cli

    with pytest.raises(serve.StoreError, match="there is no such folder"):
        serve.App(store=str(tmp_path / "missing"))

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serve.saved, "write_whole", full)
    with pytest.raises(serve.StoreError, match=r"games cannot be written there \(No space left on device\)"):
        serve.App(store=str(tmp_path))
    listened = []
    monkeypatch.setattr(serve, "run", lambda *args: listened.append(args))
    assert cli.main(["serve", "--store", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "http" not in out and not listened and "No space left on device" in err
    monkeypatch.undo()
    monkeypatch.setattr(serve, "run", lambda *args: listened.append(args))
    (tmp_path / "0123456789abcdef.json").write_text('{"format": "something else"}')
    assert cli.main(["serve", "--store", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "http" not in out and not listened and "0123456789abcdef.json: not a game of brass serve" in err


def test_a_move_the_store_cannot_write_is_taken_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = ApiClient(serve.App(max_games=8, store=str(tmp_path)).asgi)
    game = new_game(client, seats=["human", "human"])

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serve.saved, "write_whole", full)
    refused = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["moves"][0]["id"]})
    assert refused.status_code == 507 and "nothing was changed" in refused.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["history"] == game["history"] == []
    assert client.post("/api/games", json={"game": "lancashire", "players": 2}).status_code == 507
    monkeypatch.undo()
    assert client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["moves"][0]["id"]}).is_success
