"""`brass play` saves its game, says who won and by which tie-break, and says when a game is left (issue 21,
item 7); `brass.text.result` words the result for the terminal, the pictures and the viewer (L-53, C-15)."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import pytest

import brass
from brass import agents
from brass.cli import main
from brass.text import result


@dataclass
class _Player:
    vp: int
    income_level: int
    money: int


@dataclass
class _Game:
    name: str
    players: int


class _Finished:
    """A finished game as `result` reads it: the winners the engine named and each player's VP, level, money."""

    def __init__(self, name: str, players: list[_Player], winners: list[int]) -> None:
        self.game, self._players, self.winners = _Game(name, len(players)), players, winners

    def player(self, p: int) -> _Player:
        return self._players[p]


@pytest.mark.parametrize(
    ("name", "players", "winners", "said"),
    [
        ("lancashire", [(120, 10, 5), (133, 8, 0)], [1], "player 1 wins with 133 VP"),
        (
            "lancashire",
            [(120, 12, 5), (120, 10, 50)],
            [0],
            "player 0 wins on the tie-break: 120 VP each, income level 12 against 10 (L-53)",
        ),
        (
            "birmingham",
            [(90, 7, 5), (90, 7, 9), (80, 20, 90)],
            [1],
            "player 1 wins on the tie-break: 90 VP and income level 7 each, £9 against £5 (L-53)",
        ),
        (
            "lancashire",
            [(90, 7, 9), (90, 7, 9)],
            [0, 1],
            "player 0 and player 1 share the win: 90 VP and income level 7 each, £9 each (L-53)",
        ),
        (
            "brass",
            [(90, 7, 9), (90, 7, 9), (70, 1, 1)],
            [1],
            "player 1 wins on the tie-break: 90 VP and income level 7 each, £9 each; earlier in the next turn order (C-15)",
        ),
    ],
)
def test_the_result_names_the_tie_break_that_decided_L53_C15(
    name: str, players: list[tuple[int, int, int]], winners: list[int], said: str
) -> None:
    assert result(_Finished(name, [_Player(*p) for p in players], winners)) == said


def test_the_result_of_real_games_names_the_engine_winners() -> None:
    game = brass.Game("lancashire", players=3)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(state.legal_actions()[seed % 2 - 1])
        said = result(state)
        assert said.startswith(" and ".join(f"player {p}" for p in state.winners))
        assert f"game over: {said}" in str(state)
    assert result(game.new_state(seed=1)) == "the game is not over"


def test_play_saves_the_finished_game_and_says_who_won(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["0"] * 1000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    out = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--agents", "greedy", "--seed", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    state = brass.replay(out.read_text())
    assert state.is_terminal
    assert f"Game over: {result(state)}. VP: {state.scores}" in printed
    assert f"record saved to {out}" in printed


@pytest.mark.parametrize("leave", ["quit", None])
def test_leaving_a_game_says_so_and_saves_it(
    leave: str | None, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["0", "0", leave])

    def answer(prompt: str = "") -> str:
        a = next(answers)
        if a is None:
            raise EOFError  # end of input
        return a

    monkeypatch.setattr("builtins.input", answer)
    out = tmp_path / "left.json"
    assert main(["play", "--players", "2", "--agents", "random", "--seed", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    state = brass.replay(out.read_text())
    assert not state.is_terminal
    assert f"Game left unfinished after {len(state.history)} decisions." in printed


def test_play_refuses_an_out_file_it_could_not_write_before_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "2", "--out", "/nonexistent/folder/game.json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "there is no folder /nonexistent/folder" in captured.err


def test_the_final_picture_and_viewer_name_the_winner(tmp_path: pathlib.Path) -> None:
    """Issue 21, item 8: the SVG of a finished game and the viewer's status line say who won."""
    from brass import svg, viewer

    state = brass.Game("birmingham", players=2).new_state(seed=5)
    greedy = agents.Greedy()
    while not state.is_terminal:
        state.apply(greedy.choose(state, seed=len(state.history)))
    said = result(state)
    picture = svg.board(state)
    assert 'class="result"' in picture and said.split(": ")[0] in picture
    page = viewer.render_html(state.record())
    assert said.replace("£", "\\u00a3") in page or said in page
    assert 'class="result"' not in svg.board(brass.Game("birmingham", players=2).new_state(seed=5))
