"""`brass learn --recipe`: the settings that trained each shipped network, and a help line for every option of
every command. Nothing here trains (no JAX needed): a run's configuration is read with `--dry-run`."""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import re

import pytest

from brass import agents
from brass.cli import build_parser, main
from brass.learn import RECIPES, LearnConfig, LearnError, recipe

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_option_of_every_command_says_what_it_is() -> None:
    """`brass COMMAND --help` explains each option, not only its default."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    bare = []
    for name, command in commands.items():
        for action in command._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            text = (action.help or "").strip()
            if not text or re.fullmatch(r"\(default[^)]*\)", text):
                bare.append(f"{name} {action.option_strings[0]}")
    assert not bare, bare


@pytest.mark.parametrize("name", RECIPES)
def test_a_recipe_is_the_run_that_trained_its_shipped_network(name: str) -> None:
    """A recipe holds its run's saved configuration (`docs/runs/NAME/config.json`) but for the budget: up to the
    iteration the shipped network is (its file says which), with no time limit."""
    assert sorted(RECIPES) == sorted(agents.PRETRAINED)
    config = dataclasses.asdict(recipe(name))
    run = json.loads((ROOT / "docs" / "runs" / name / "config.json").read_text())
    budget = ("iterations", "minutes", "ray")
    assert {k: v for k, v in config.items() if k not in budget} == {k: v for k, v in run.items() if k not in budget}
    shipped = agents.Net.pretrained(name)
    assert config["iterations"] == int(shipped.metadata["iteration"])
    assert config["minutes"] is None and config["ray"] is None
    game = json.loads(shipped.metadata["game"])
    assert (config["game"], config["players"], config["options"]) == (game["name"], game["players"], game["options"])
    assert float(shipped.metadata["gumbel_c_scale"]) == config["c_scale"]


def test_a_recipe_takes_changes_and_is_not_changed_by_them() -> None:
    changed = recipe("birmingham-4p", players=3, seed=7, widths=[64])
    assert (changed.game, changed.players, changed.seed, changed.widths) == ("birmingham", 3, 7, [64])
    changed.eval_anchors.append("random")
    again = recipe("birmingham-4p")
    assert (again.players, again.seed, again.widths, again.eval_anchors) == (4, 1, [256, 128], ["greedy"])
    with pytest.raises(LearnError, match="no recipe 'birmingham-5p': .*birmingham-2p, birmingham-3p"):
        recipe("birmingham-5p")
    with pytest.raises(LearnError, match="recipe brass-3p: no setting speed, warp"):
        recipe("brass-3p", warp=9, speed=1)


def _dry_run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["learn", *argv, "--dry-run"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_command_starts_from_a_recipe_and_what_is_given_overrides_it(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    base = dataclasses.asdict(recipe("lancashire-3p"))
    assert _dry_run(["--out", str(out), "--recipe", "lancashire-3p"], capsys) == base
    given = [
        *("--out", str(out), "--recipe", "lancashire-3p", "--players", "4", "--option", "virtual_link"),
        *("--seed", "9", "--minutes", "30", "--c-puct", "1.1", "--widths", "64", "32", "--no-rescale"),
    ]
    config = _dry_run(given, capsys)
    changes = {"players": 4, "options": {"virtual_link": True}, "seed": 9, "minutes": 30.0, "c_puct": 1.1}
    assert config == {**base, **changes, "widths": [64, 32]}
    # Another game: the recipe's settings for it, its options checked against that game.
    assert _dry_run(["--out", str(out), "--recipe", "brass-3p", "--game", "birmingham"], capsys)["game"] == "birmingham"
    assert main(["learn", "--out", str(out), "--recipe", "brass-3p", "--option", "intro", "--dry-run"]) == 2
    assert "unknown option `intro` for brass" in capsys.readouterr().err
    # Without a recipe: the defaults, lancashire at 2 players.
    assert _dry_run(["--out", str(out)], capsys) == dataclasses.asdict(LearnConfig(game="lancashire", players=2))
    assert not out.exists(), "a dry run makes no folder"


def test_a_recipe_or_a_dry_run_with_resume_is_refused_in_one_line(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for flag in (["--recipe", "brass-4p"], ["--dry-run"]):
        assert main(["learn", "--out", str(tmp_path), "--resume", *flag]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"brass: {flag[0]} is for a new run; --resume goes on with the run's own settings")
        assert err.count("\n") == 1
    assert main(["learn", "--out", str(tmp_path), "--recipe", "brass-3p", "--simulations", "0", "--dry-run"]) == 2
    assert "simulations must be a whole number of at least 1, not 0" in capsys.readouterr().err
