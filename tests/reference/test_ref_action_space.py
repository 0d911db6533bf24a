"""The id space and notation (docs/actions.md)."""

import pytest

from brass import reference as ref


@pytest.fixture(scope="module")
def game():
    return ref.Game("lancashire", players=4)


def test_523_ids_same_for_every_player_count(game):
    assert game.num_actions == 523
    names4 = [game.action_name(i) for i in range(523)]
    for n in (2, 3):
        g = ref.Game("lancashire", players=n)
        assert [g.action_name(i) for i in range(523)] == names4


def test_every_name_parses_back_and_names_are_unique(game):
    names = [game.action_name(i) for i in range(game.num_actions)]
    assert len(set(names)) == len(names)
    for i, name in enumerate(names):
        assert game.parse_action(name) == i


def test_block_layout(game):
    """Blocks in order BUILD 61, BUILD_DOUBLE 61, LINK 36, DEVELOP 5, SELL 264, LOAN 3, PASS, COAL 18, IRON 6,
    STOP, CARD 24, REMOVE 43."""
    blocks = [
        ("build", 61),
        ("build_double", 61),
        ("link", 36),
        ("develop", 5),
        ("sell", 264),
        ("loan", 3),
        ("pass", 1),
        ("coal", 18),
        ("iron", 6),
        ("stop", 1),
        ("card", 24),
        ("remove", 43),
    ]
    i = 0
    for kind, size in blocks:
        for k in range(size):
            name = game.action_name(i + k)
            if kind == "build_double":
                assert name.startswith("build ") and name.endswith(" double"), name
            elif kind == "build":
                assert name.startswith("build ") and not name.endswith(" double"), name
            else:
                assert name.split()[0] == kind, name
        i += size
    assert i == 523
    assert game.action_name(0) == "build shipyard barrow_in_furness/1"
    assert game.action_name(122) == "link lancaster-preston"
    assert game.action_name(158) == "develop cotton_mill"
    assert game.parse_action("loan 10") == 427
    assert game.parse_action("pass") == 430
    assert game.parse_action("coal blackburn/1") == 431
    assert game.parse_action("stop") == 455
    assert game.parse_action("card barrow_in_furness") == 456
    assert game.action_name(522) == "remove wigan/2"


def test_sell_block_is_mill_major_with_distant_last(game):
    first = game.parse_action("sell blackburn/1 ellesmere_port/1")
    assert game.action_name(first + 10) == "sell blackburn/1 distant"
    assert game.action_name(first + 11) == "sell blackburn/2 ellesmere_port/1"


def test_parser_normalises_case_and_white_space(game):
    assert game.parse_action("  BUILD  Cotton_Mill\tmanchester/1 ") == game.parse_action(
        "build cotton_mill manchester/1"
    )
    assert game.parse_action("link preston-lancaster") == game.parse_action("link lancaster-preston")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "build",
        "build cotton_mill manchester/9",
        "build port manchester/1",
        "loan 40",
        "pass now",
        "link bolton-colne",
        "sell bolton/3 distant",
        "card joker",
        "remove manchester/5",
        "buildcotton_mill manchester/1",
    ],
)
def test_bad_notation_raises(game, text):
    with pytest.raises(ref.NotationError):
        game.parse_action(text)


def test_parse_non_string_raises_argument_type_error(game):
    with pytest.raises(ref.ArgumentTypeError):
        game.parse_action(5)


@pytest.mark.parametrize("bad", [-1, 523, 10**20])
def test_action_name_out_of_range(game, bad):
    with pytest.raises(ref.IllegalActionError, match="out of range"):
        game.action_name(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "3", None])
def test_action_name_of_a_value_that_is_not_an_int(game, bad):
    with pytest.raises(ref.ArgumentTypeError, match="an action is an int id or a notation str"):
        game.action_name(bad)
