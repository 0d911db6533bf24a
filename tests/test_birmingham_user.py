"""Brass: Birmingham as a new user meets it: the terminal game, the text picture, the CLI's help, errors."""

from __future__ import annotations

import pathlib
import re

import pytest

import brass
from brass import text
from brass.cli import main
from brass.cli import play as cli  # the terminal game: how a typed move is read, what a decision asks


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], answers: list[str]
) -> str:
    lines = iter([*answers, "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    seed = [] if "--seed" in argv else ["--seed", "1"]  # without one, every game is a fresh deal
    assert main(["play", *seed, *argv]) == 0
    return capsys.readouterr().out


def _beer_choice() -> brass.State:
    """Player 0 sells a cotton mill to Oxford/1: the barrel can come from Oxford or from their own brewery."""
    pos = brass.Position("birmingham", players=2, era="rail", round=2)
    pos.merchant("oxford/1", "any", beer=True)
    pos.tile("birmingham/1", owner=0, industry="cotton_mill", level=2)
    pos.tile("burton/2", owner=0, industry="brewery", level=2)
    pos.link("birmingham-oxford", owner=0)
    pos.hand(0, "coventry", "walsall")
    state = pos.state()
    state.apply("sell birmingham/1 oxford/1")
    assert state.decision == "beer"
    return state


def test_play_birmingham_shows_the_position_with_merchants_and_its_market_sizes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It crashed with KeyError: 'dcm' at the first position shown: Birmingham has no Distant Cotton Market.
    out = _play(monkeypatch, capsys, ["--game", "birmingham", "--players", "2", "--agents", "random"], ["board"])
    assert "Traceback" not in out and "distant market" not in out
    assert re.search(r"coal market \d+ cubes \(14 spaces\), iron market \d+ cubes? \(10 spaces\)", out)
    assert "round 1 of 10" in out
    assert out.count("\n  merchants: ") == 2  # at the turn and for `board`
    merchants = brass.Game("birmingham", players=2).new_state(seed=1).merchants
    shown = out.split("\n  merchants: ", 1)[1].splitlines()[0]
    assert shown == ", ".join(f"{s} {m['tile']}{' (beer)' if m['beer'] else ''}" for s, m in merchants.items())


def test_play_lancashire_still_shows_the_distant_cotton_market(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, ["--players", "2", "--agents", "random", "--seed", "3"], [])
    assert "distant market marker 0 (X at 8)" in out and "coal market 8 cubes (8 spaces)" in out
    assert "merchants:" not in out


def test_play_help_gives_examples_from_the_game_being_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, ["--game", "birmingham", "--players", "2", "--agents", "random"], ["help"])
    assert "manchester" not in out and "bolton" not in out  # Lancashire's towns, not in this game
    game = brass.Game("birmingham", players=2)
    assert out.count(f"`{game.action_name(0)}`") == 2 and f"`card {game.card_kinds[0]}`" in out


def test_play_scout_says_which_of_the_three_cards_is_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "birmingham", "--players", "2", "--agents", "random", "--seed", "1"]
    out = _play(monkeypatch, capsys, argv, ["scout", "0", "0", "0"])
    assert "player 0 (you): scout\n" in out
    for n in (1, 2, 3):
        assert f"Your decision (card): the card to discard, {n} of 3 for Scout\n" in out
    hand = out.rsplit("your hand: ", 1)[1].splitlines()[0].split(", ")
    assert "wild_location" in hand and "wild_industry" in hand  # Scout's wild cards, in the hand shown next


def test_a_whole_birmingham_game_can_be_played_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")  # always the first move listed
    assert main(["play", "--game", "birmingham", "--players", "2", "--agents", "greedy", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Game over: player 1 wins with 135 VP. VP: [" in out and "Rail Era, round 10 of 10" in out


def test_a_bare_source_name_is_enough_at_a_beer_decision() -> None:
    state = _beer_choice()
    legal = state.legal_actions()
    assert sorted(state.game.action_name(a) for a in legal) == ["beer burton/2", "beer oxford/1"]
    assert cli._read_move(state.game, state, legal, "oxford/1") == state.game.parse_action("beer oxford/1")
    assert cli._read_move(state.game, state, legal, "burton/2") == state.game.parse_action("beer burton/2")
    assert cli.decision_text(state) == "(beer): where the beer comes from, 1 barrel still to take"


def test_a_bare_name_is_not_completed_where_the_moves_are_of_different_kinds() -> None:
    state = brass.Game("birmingham", players=2).new_state(seed=1)  # an action: build, link, develop, ...
    with pytest.raises(brass.NotationError, match="`worcester/1` is not an action"):
        cli._read_move(state.game, state, state.legal_actions(), "worcester/1")
    assert cli._read_move(state.game, state, state.legal_actions(), "scout") == state.game.parse_action("scout")


def test_play_names_the_agents_needed_for_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "birmingham", "--players", "2", "--agents", "greedy", "greedy"]) == 2
    assert capsys.readouterr().err == "brass: 2 agents given: give 1 agent for the other seat\n"


@pytest.mark.parametrize("command", ["selfplay", "play", "bench"])
def test_option_help_names_the_games_each_option_belongs_to(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "intro (birmingham, lancashire)" in help_text and "virtual_link (lancashire)" in help_text


def test_text_board_counts_a_breweries_barrels_not_cubes() -> None:
    state = _beer_choice()
    board = text.board(state)
    assert re.search(r"\n  burton/2 +brewery 2, player 0, unflipped, 2 barrels\n", board)
    assert "cubes" not in board
    one = brass.Position("birmingham", players=2, era="rail", round=2)
    one.tile("dudley/1", owner=1, industry="coal_mine", level=2, cubes=1)
    assert "coal_mine 2, player 1, unflipped, 1 cube\n" in text.board(one.state()) + "\n"


def test_text_board_header_names_the_games_options(engine) -> None:
    intro = str(engine.Game("birmingham", players=2, intro=True).new_state(seed=1))
    assert intro.startswith("birmingham (intro), 2 players · canal era, round 1 of 10 · ")
    assert str(engine.Game("birmingham", players=2).new_state(seed=1)).startswith("birmingham, 2 players · ")


def test_the_readme_birmingham_example_prints_what_its_comments_say(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    (code,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL) if '"birmingham"' in b]
    exec(compile(code, "README.md", "exec"), {"brass": brass})
    printed = capsys.readouterr().out.splitlines()
    said = [m.group(1) for line in code.splitlines() if line.startswith("print(") for m in [re.search(r"# (.*)", line)]]
    assert len(printed) == len(said) == 3
    for out, comment in zip(printed, said, strict=True):
        assert comment.startswith(out), (out, comment)  # the comment shows the output, then may explain it


def test_bench_of_an_introductory_game_runs_and_names_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    # It crashed (IndexError) placing the State.clone() timing 120 moves into a game that ends sooner.
    assert main(["bench", "--quick", "--game", "birmingham", "--option", "intro", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("; random games of birmingham (intro)")
    assert re.search(r"\n  same final scores +yes\n", out + "\n")


def test_the_native_only_names_the_readme_lists_are_exactly_missing_from_the_reference() -> None:
    from brass import reference

    state, ref_state = (e.Game("birmingham", players=2).new_state(seed=1) for e in (brass, reference))
    for name in ("observation", "resample_hidden"):
        assert hasattr(state, name) and not hasattr(ref_state, name)
    for name in ("rollouts", "VecEnv"):
        assert hasattr(brass, name) and not hasattr(reference, name)
    for name in ("merchants", "board", "links", "record", "to_json", "child", "legal_action_mask"):
        assert hasattr(ref_state, name)  # the rest of the README's names are there
