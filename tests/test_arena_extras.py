"""`brass arena` with the `arena` extra: OpenSkill ratings and the PNG chart."""

from __future__ import annotations

import pathlib
import statistics
import sys

import pytest

import brass
from brass import arena
from brass.cli import main

models = pytest.importorskip("openskill.models")

PNG = b"\x89PNG\r\n\x1a\n"


def test_greedy_is_rated_above_random() -> None:
    report = arena.run(brass.Game("birmingham", players=2), ["random", "greedy"], deals=6, seed=1)
    assert report.rated and report.to_dict()["rating_model"] == "openskill PlackettLuce"
    assert [s.agent for s in report.standings] == ["greedy", "random"]
    greedy, rnd = (s.rating for s in report.standings)
    assert greedy is not None and rnd is not None
    assert greedy.mu > 25 > rnd.mu and greedy.ordinal > rnd.ordinal
    assert greedy.sigma < 25 / 3 and rnd.sigma < 25 / 3  # twelve games made them surer
    assert greedy.ordinal == pytest.approx(greedy.mu - 3 * greedy.sigma)
    assert "ordinal" in report.table() and "ratings need" not in report.table()


def test_ratings_follow_the_games_in_schedule_order() -> None:
    """The ratings are OpenSkill's own Plackett–Luce updates, one game after the other."""
    report = arena.run(brass.Game("lancashire", players=3), ["random", "greedy", "random"], deals=1, seed=2)
    model = models.PlackettLuce()
    current = {name: model.rating(name=name) for name in report.agents}
    for o in report.outcomes:
        teams = [[current[n]] for n in o.seats]
        for (r,), n in zip(model.rate(teams, ranks=o.placings), o.seats, strict=True):
            current[n] = r
    for s in report.standings:
        assert s.rating is not None
        assert (s.rating.mu, s.rating.sigma) == pytest.approx((current[s.agent].mu, current[s.agent].sigma))


def test_an_agent_in_two_seats_keeps_the_mean_of_its_updates() -> None:
    outcome = arena.Outcome(0, 0, 1, ["a", "b", "a", "b"], [30, 20, 10, 0], [0, 1, 2, 3], 100)
    rated = arena.rate(["a", "b"], [outcome])
    assert rated is not None
    model = models.PlackettLuce()
    updated = [r for (r,) in model.rate([[model.rating()] for _ in range(4)], ranks=[0, 1, 2, 3])]
    assert rated["a"].mu == pytest.approx(statistics.mean([updated[0].mu, updated[2].mu]))
    assert rated["b"].sigma == pytest.approx(statistics.mean([updated[1].sigma, updated[3].sigma]))
    assert rated["a"].mu > rated["b"].mu


def test_plot_writes_a_png_with_and_without_ratings(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    game = brass.Game("birmingham", players=2)
    rated = arena.run(game, ["random", "greedy"], deals=1, seed=1)
    rated.plot(tmp_path / "ratings.png")
    assert (tmp_path / "ratings.png").read_bytes()[:8] == PNG
    for name in ("openskill", "openskill.models"):
        monkeypatch.setitem(sys.modules, name, None)
    unrated = arena.run(game, ["random", "greedy"], deals=1, seed=1)
    assert not unrated.rated
    unrated.plot(tmp_path / "win-rates.png")
    assert (tmp_path / "win-rates.png").read_bytes()[:8] == PNG


def test_the_command_line_writes_the_chart(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "arena.png"
    args = ["arena", "--players", "2", "--agents", "random", "greedy", "--deals", "1", "--plot", str(chart)]
    assert main([*args, "--quiet"]) == 0
    assert f"chart: {chart}" in capsys.readouterr().out
    assert chart.read_bytes()[:8] == PNG
