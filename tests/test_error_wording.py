"""The same mistake is worded the same way everywhere (issue 21, item 9): the native engine, the reference
engine and the adapters name player counts alike; the command line counts agents with the right plural and
offers only the options `--option` can set."""

from __future__ import annotations

import json
import pathlib

import pytest

import brass
from brass import agents, reference
from brass.cli import main
from brass.env._common import check_config


@pytest.mark.parametrize(("name", "players", "allowed"), [("lancashire", 5, "2, 3 or 4"), ("brass", 2, "3 or 4")])
def test_player_counts_are_worded_alike_by_every_engine(name: str, players: int, allowed: str) -> None:
    said = f"{name} is played by {allowed} players, not {players}"
    for make in (brass.Game, reference.Game, lambda n, players: check_config(n, players)):
        with pytest.raises(brass.ConfigError) as caught:
            make(name, players=players)
        assert str(caught.value) == said


@pytest.mark.parametrize("players", [2**70, -(2**70), 2**63 - 1])
def test_a_player_count_past_64_bits_is_named_as_given(players: int) -> None:
    with pytest.raises(brass.ConfigError) as caught:
        brass.Game("birmingham", players=players)
    assert str(caught.value) == f"birmingham is played by 2, 3 or 4 players, not {players}"


def test_an_agent_count_is_counted_with_the_right_plural(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "3", "--agents", "random"]) == 2
    assert capsys.readouterr().err == "brass: 1 agent given for 3 players: give one agent per seat\n"


def test_option_offers_only_what_it_can_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--option", "foo"]) == 2
    err = capsys.readouterr().err
    assert err == "brass: unknown option `foo` for lancashire; --option takes: classic_deck, intro, virtual_link\n"
    assert main(["selfplay", "--option", "variant"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brass: `variant` is not a true/false option") and "unknown variant" not in err
    assert main(["selfplay", "--game", "birmingham", "--option", "virtual_link"]) == 2
    assert capsys.readouterr().err.endswith("--option takes: intro\n")


@pytest.mark.parametrize("as_text", [True, False])
def test_a_record_given_for_a_state_points_to_replay(as_text: bool) -> None:
    from brass import svg

    record = brass.Game("lancashire", players=2).new_state(seed=1).record()
    with pytest.raises(brass.InvalidStateError, match=r"a game record .* not a state: draw `brass\.replay\(record\)`"):
        svg.board(record if as_text else json.loads(record))


@pytest.mark.parametrize("command", [["selfplay"], ["arena"]])
def test_jobs_zero_is_documented(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    assert "0 (the default) uses every core" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("name", ["x.jpg", "x"])
def test_svg_save_refuses_a_name_it_cannot_write(name: str, tmp_path: pathlib.Path) -> None:
    """Issue 21, item 8: `save(state, "x.png")` wrote SVG text into a .png; now .png is a real PNG (below)
    and any other name is refused."""
    from brass import svg

    state = brass.Game("lancashire", players=2).new_state(seed=1)
    with pytest.raises(brass.ConfigError, match=r"writes \*\.svg \(SVG\) or \*\.png \(PNG\) files"):
        svg.save(state, tmp_path / name)
    assert not (tmp_path / name).exists()
    svg.save(state, tmp_path / "x.SVG")
    assert (tmp_path / "x.SVG").read_text().startswith("<svg")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("build cotton mill birmingham/1", "`build <industry> <space>`"),
        ("build cotton mill birmingham/1", "`cotton mill` is `cotton_mill`"),
        ("sell birmingham/1", "`sell <space> <target>`"),
    ],
)
def test_a_notation_that_starts_right_is_told_what_is_wrong_after_its_first_word(text: str, says: str) -> None:
    """Issue 34, item 8: `build cotton mill ...` was answered "expected one of build, link, ..."."""
    state = brass.Game("birmingham", players=2).new_state(seed=1)
    with pytest.raises(brass.NotationError) as caught:
        state.apply(text)
    assert says in str(caught.value) and "expected one of" not in str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: brass.Game("\ud800", players=2),
        lambda: brass.Game("birmingham", players=2, **{"\ud800": True}),
        lambda: agents.Random(sampler="\ud800"),
        lambda: agents.Net.pretrained("\ud800"),
        lambda: brass.Game("birmingham", players=2).new_state(seed=1).record(headers={"event": "\ud800"}),
    ],
)
def test_a_str_with_a_lone_surrogate_is_named_as_such_not_as_a_wrong_type(call) -> None:
    """A str that has no UTF-8 (a lone surrogate) was worded "must be a str, not str"."""
    with pytest.raises(brass.ConfigError, match="lone surrogate") as caught:
        call()
    assert "not str" not in str(caught.value)


def test_a_network_whose_file_name_is_not_utf8_is_read(tmp_path: pathlib.Path) -> None:
    import os
    import shutil

    shipped = pathlib.Path(brass.__file__).with_name("nets") / "birmingham-2p.safetensors"
    name = os.fsdecode(b"net-\xff.safetensors")  # a surrogate escape: no UTF-8 for this name
    shutil.copy(shipped, tmp_path / name)
    net = agents.Net(tmp_path / name)
    state = brass.Game("birmingham", players=2).new_state(seed=1)
    assert net.choose(state) == agents.Net.pretrained("birmingham-2p").choose(state)
