"""`brass arena` and `brass.arena`: the schedule, the two drivers, Python policies and forfeits, the report and the
command line. None of these needs openskill or matplotlib (tests/test_arena_extras.py has those that do)."""

from __future__ import annotations

import collections
import json
import pathlib
import sys
import threading
from typing import Any

import pytest

import brass
from brass import agents, arena
from brass.cli import main

HERE = pathlib.Path(__file__)


def policy(state: brass.State) -> str:
    """A Python policy: a legal move by its notation, after trying it on the copy of the state it was handed."""
    legal = state.legal_actions()
    choice = legal[len(state.history) % len(legal)]
    state.apply(choice)  # the arena hands over a copy: the game itself does not move
    return state.game.action_name(choice)


def gives_up(state: brass.State) -> int:
    """Plays a few moves, then raises."""
    if len(state.history) >= 6:
        raise RuntimeError("policy gave up")
    return state.legal_actions()[0]


def illegal(state: brass.State) -> int:
    """An action id that is not legal now."""
    legal = set(state.legal_actions())
    return next(a for a in range(state.game.num_actions) if a not in legal)


def no_openskill(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("openskill", "openskill.models"):
        monkeypatch.setitem(sys.modules, name, None)  # `import openskill` now raises ImportError


@pytest.mark.parametrize("agents_count, players", [(2, 2), (3, 2), (5, 4), (4, 3), (2, 4), (3, 4), (2, 3)])
def test_every_agent_sits_in_every_seat_equally_often_and_a_deal_shares_its_seeds(
    agents_count: int, players: int
) -> None:
    games = arena.schedule(agents_count, players, deals=3, seed=7)
    assert [g.index for g in games] == list(range(len(games)))
    seats = collections.Counter((a, p) for g in games for p, a in enumerate(g.seats))
    assert len(set(seats.values())) == 1 and len(seats) == agents_count * players
    by_deal: dict[int, set[tuple[int, int]]] = collections.defaultdict(set)
    for g in games:
        by_deal[g.deal].add((g.deal_seed, g.agents_seed))
    assert sorted(by_deal) == [0, 1, 2]
    assert all(len(s) == 1 for s in by_deal.values())  # every game of a deal: one deal seed, one agents seed
    assert len({s for d in by_deal.values() for s in d}) == 3  # and the deals differ
    for d in by_deal:  # no game is played twice (A B A B has two rotations, not four)
        seatings = [g.seats for g in games if g.deal == d]
        assert len(seatings) == len(set(seatings))
    # Deal d is game d of a self-play run with the same seed.
    assert games[0].deal_seed == agents.selfplay_seeds(7, 0)[0]


def test_lineups() -> None:
    assert arena.lineups(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert arena.lineups(2, 4) == [(0, 1, 0, 1)]
    assert arena.lineups(3, 4) == [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)]


@pytest.mark.parametrize(
    "name, specs",
    [("lancashire", ["random", "greedy", "mcts:5"]), ("brass", ["greedy", "random"])],  # the second: A B A, B A B
)
def test_native_games_stream_and_replay_exactly_in_the_python_driver(
    monkeypatch: pytest.MonkeyPatch, name: str, specs: list[str]
) -> None:
    game = brass.Game(name, players=3)
    entered = arena.entrants(specs)
    real_play = arena.play

    def not_here(*args: Any) -> arena.Outcome:
        raise AssertionError("a game between native agents went through the Python driver")

    monkeypatch.setattr(arena, "play", not_here)
    report = arena.run(game, entered, deals=1, seed=4)
    games = arena.schedule(len(specs), 3, deals=1, seed=4)
    assert len(report.outcomes) == len(games) == 3 * len(arena.lineups(len(specs), 3))
    for outcome, seating in zip(report.outcomes, games, strict=True):
        assert outcome.scores is not None and outcome.forfeit is None
        assert real_play(game, entered, seating) == outcome


def test_the_same_seed_gives_the_same_report_on_any_number_of_threads() -> None:
    game = brass.Game("birmingham", players=2)

    def played(seed: int, threads: int) -> dict[str, Any]:
        d = arena.run(game, ["random", "greedy", "random"], deals=2, seed=seed, threads=threads).to_dict()
        del d["seconds"]
        return d

    first = played(3, 1)
    assert first == played(3, 2)
    assert first["results"] != played(4, 2)["results"]
    assert first["agents"] == ["random", "greedy", "random#2"] and first["games"] == 12


def test_a_python_policy_takes_part_by_file_or_module(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = brass.Game("birmingham", players=2)
    by_file = f"{HERE}:policy"
    (tmp_path / "my_policies.py").write_text("def first(state):\n    return state.legal_actions()[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    done: list[tuple[int, int]] = []
    report = arena.run(
        game, [by_file, "my_policies:first", "greedy"], deals=1, seed=2, progress=lambda d, n: done.append((d, n))
    )
    assert done == [(i, 6) for i in range(1, 7)]
    assert not report.forfeits
    assert all(o.scores is not None and o.decisions > 50 for o in report.outcomes)
    names = {s.agent: s for s in report.standings}
    assert names[by_file].games == names["my_policies:first"].games == 4
    assert names[by_file].mean_vp is not None
    # Games with a policy in them are reproducible too.
    again = arena.run(game, [by_file, "my_policies:first", "greedy"], deals=1, seed=2)
    assert [o.scores for o in again.outcomes] == [o.scores for o in report.outcomes]


def test_a_policy_that_raises_or_plays_illegally_forfeits_and_the_tournament_goes_on() -> None:
    game = brass.Game("birmingham", players=2)
    report = arena.run(game, ["greedy", "random", gives_up, illegal], deals=1, seed=5)
    assert len(report.outcomes) == 12  # 6 lineups × 2 rotations, every one played
    forfeits = report.forfeits
    assert len(forfeits) == 10  # every game with a bad policy; in theirs, whoever decides first
    raised = [f for f in forfeits if f.agent == "gives_up"]
    assert raised and all(f.error == "RuntimeError: policy gave up" and f.decision >= 6 for f in raised)
    wrong = [f for f in forfeits if f.agent == "illegal"]
    assert wrong and all("IllegalActionError" in f.error and f.error.startswith("returned ") for f in wrong)
    for o in report.outcomes:
        if o.forfeit is not None:
            assert o.scores is None and o.seats[o.forfeit.player] == o.forfeit.agent
            assert o.placings == [1 if p == o.forfeit.player else 0 for p in range(2)]
        else:
            assert sorted(o.seats) == ["greedy", "random"] and o.scores is not None
    greedy = next(s for s in report.standings if s.agent == "greedy")
    assert greedy.games == 6 and greedy.wins >= 4  # 4 won by forfeit
    assert greedy.forfeits == 0 and next(s for s in report.standings if s.agent == "illegal").forfeits == len(wrong)
    table = report.table()
    assert "forfeits: 10 games" in table and "policy gave up" in table
    assert report.to_dict()["forfeits"][0].keys() == {"game", "deal", "player", "agent", "decision", "error"}


def test_a_policy_that_returns_no_move_forfeits() -> None:
    game = brass.Game("lancashire", players=2)
    entered = arena.entrants(["random", lambda state: "build castle"])
    outcome = arena.play(game, entered, arena.schedule(2, 2, deals=1)[0])
    assert outcome.forfeit is not None and outcome.forfeit.agent == "<lambda>"
    assert "NotationError" in outcome.forfeit.error and "'build castle'" in outcome.forfeit.error


def test_the_report_without_openskill(monkeypatch: pytest.MonkeyPatch) -> None:
    no_openskill(monkeypatch)
    report = arena.run(brass.Game("birmingham", players=2), ["random", "greedy"], deals=2, seed=1)
    assert not report.rated and all(s.rating is None for s in report.standings)
    assert report.to_dict()["rating_model"] is None
    assert "ratings need openskill: pip install openskill matplotlib (or, from a clone, pip install '.[arena]')" in (
        report.table()
    )
    rates = [s.win_rate for s in report.standings]
    assert rates == sorted(rates, reverse=True)
    for s in report.standings:
        assert s.games == 4 and s.interval[0] <= s.win_rate <= s.interval[1]
    g, r = report.pairwise["greedy"]["random"], report.pairwise["random"]["greedy"]
    assert g.games == r.games == 4 and g.ahead + r.ahead == 4
    assert sum(report.seat_wins) == pytest.approx(1)


def test_the_chart_without_matplotlib_names_the_extra(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = arena.run(brass.Game("lancashire", players=2), ["random", "greedy"], deals=1)
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    chart = tmp_path / "chart.png"
    with pytest.raises(arena.MissingExtraError, match=r"pip install '\.\[arena\]'"):
        report.plot(chart)
    # The command line says so before playing.
    code, out, err = run_cli(capsys, "--players", "2", "--agents", "random", "greedy", "--plot", str(chart), "--quiet")
    assert (
        code == 2
        and out == ""
        and err
        == (
            "brass: the chart needs matplotlib, which is not installed: "
            "pip install openskill matplotlib (or, from a clone, pip install '.[arena]')\n"
        )
    )
    assert not chart.exists()


def test_agents_by_object_and_bad_arguments() -> None:
    assert [e.name for e in arena.entrants([agents.Greedy(), "greedy", agents.MCTS(5), policy])] == [
        "greedy",
        "greedy#2",
        "mcts(5)",
        "policy",
    ]
    game = brass.Game("lancashire", players=2)
    with pytest.raises(brass.ConfigError, match="at least 2 agents"):
        arena.run(game, ["greedy"], deals=1)
    with pytest.raises(brass.ConfigError, match="deals"):
        arena.run(game, ["greedy", "random"], deals=0)
    with pytest.raises(brass.ConfigError, match="unknown agent `greedier`"):
        arena.run(game, ["greedy", "greedier"], deals=1)
    with pytest.raises(brass.ArgumentTypeError):
        arena.entrant(3)  # type: ignore[arg-type]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["arena", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    "agents_given, message",
    [
        (["greedy", "nonsense"], "unknown agent `nonsense`"),
        (["greedy", "no_such_module_here:f"], "No module named 'no_such_module_here'"),
        (["greedy", f"{HERE}:no_such_function"], "has no `no_such_function`"),
        (["greedy"], "at least 2 agents"),
    ],
)
def test_the_command_line_refuses_bad_agents_in_one_line(
    capsys: pytest.CaptureFixture[str], agents_given: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, "--players", "2", "--agents", *agents_given, "--quiet")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("brass: ") and message in err


def test_the_command_line_prints_the_table_and_writes_json(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "arena.json"
    code, out, _ = run_cli(
        capsys,
        "--game",
        "birmingham",
        "--players",
        "2",
        "--agents",
        "random",
        "greedy",
        f"{HERE}:gives_up",
        "--deals",
        "1",
        "--seed",
        "3",
        "--json",
        str(out_file),
        "--quiet",
    )
    assert code == 0
    assert "6 games of birmingham, 2 players" in out and "95% interval" in out and "placed ahead" in out
    assert "forfeits: 4 games" in out and f"report: {out_file}" in out
    data = json.loads(out_file.read_text())
    assert data["games"] == 6 and data["seed"] == 3 and data["game"]["name"] == "birmingham"
    assert {s["agent"] for s in data["standings"]} == {"random", "greedy", f"{HERE}:gives_up"}
    assert len(data["forfeits"]) == 4 and len(data["results"]) == 6
    # `--json -` prints the JSON alone.
    code, out, _ = run_cli(
        capsys, "--players", "2", "--agents", "random", "greedy", "--deals", "1", "--json", "-", "--quiet"
    )
    assert code == 0 and json.loads(out)["games"] == 2


def test_records_replay_every_game_with_headers_naming_its_agents(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21, item 7: `brass arena --records FILE` writes each game's record with PGN-like headers; a forfeited
    game's record stops where the forfeit happened."""
    records, report_file = tmp_path / "games.jsonl", tmp_path / "arena.json"
    argv = ["--game", "birmingham", "--players", "2", "--agents", "random", "greedy", f"{HERE}:gives_up"]
    code, out, _ = run_cli(
        capsys, *argv, "--deals", "1", "--seed", "3", "--records", str(records), "--json", str(report_file), "--quiet"
    )
    assert code == 0 and f"records: {records}" in out
    lines = records.read_text().splitlines()
    results = json.loads(report_file.read_text())["results"]
    assert len(lines) == len(results) == 6
    for line, result in zip(lines, results, strict=True):
        record = json.loads(line)
        headers = record["headers"]
        assert headers["event"] == "brass arena" and headers["round"] == f"deal {result['deal']}"
        assert [headers[f"player_{p}"] for p in range(2)] == result["seats"]
        state = brass.replay(line)
        assert len(state.history) == result["decisions"] and record["seed"] == result["seed"]
        if result["forfeit"]:
            assert not state.is_terminal and headers["forfeit"].endswith("RuntimeError: policy gave up")
        else:
            assert state.is_terminal and state.scores == result["scores"]


def test_a_policy_over_the_time_limit_forfeits_and_the_tournament_finishes() -> None:
    never = threading.Event()  # set only after the tournament: the policy hangs until then

    def hangs(state: brass.State) -> int:
        if len(state.history) >= 4:
            never.wait()
        return state.legal_actions()[0]

    game = brass.Game("birmingham", players=2)
    try:
        report = arena.run(game, ["greedy", hangs], deals=1, seed=3, move_time_limit=0.2)
    finally:
        never.set()
    assert len(report.outcomes) == 2  # both seatings played
    assert [f.agent for f in report.forfeits] == ["hangs", "hangs"]
    assert all(f.error == "took longer than the time limit of 0.2 s to decide" for f in report.forfeits)
    assert all(f.decision >= 4 for f in report.forfeits)
    for o in report.outcomes:  # scored as any forfeit: the forfeiting seat last, the other first
        assert o.scores is None and o.placings == [1 if s == "hangs" else 0 for s in o.seats]
    assert "took longer than the time limit of 0.2 s" in report.table()
    for bad in (0, -1, float("nan"), "1", True):
        with pytest.raises(brass.ConfigError, match="move_time_limit must be a number of seconds above 0"):
            arena.run(game, ["greedy", hangs], deals=1, move_time_limit=bad)


def test_brass_arena_takes_a_move_time_limit(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The wait is bounded only so that the abandoned thread ends some time after the test.
    (tmp_path / "slow.py").write_text("import threading\n\ndef stuck(state):\n    threading.Event().wait(60)\n")
    report = tmp_path / "report.json"
    args = ["arena", "--game", "birmingham", "--players", "2", "--agents", "greedy", f"{tmp_path}/slow.py:stuck"]
    args += ["--deals", "1", "--quiet", "--move-time-limit", "0.2", "--json", str(report)]
    assert main(args) == 0
    forfeits = json.loads(report.read_text())["forfeits"]
    assert [f["error"] for f in forfeits] == ["took longer than the time limit of 0.2 s to decide"] * 2
    assert main([*args[:-4], "--move-time-limit", "0"]) == 2
    assert "--move-time-limit must be a number of seconds above 0" in capsys.readouterr().err
