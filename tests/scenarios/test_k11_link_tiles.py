"""K11 / L-37 (issue 25, item 4): a player with 14 links on the board has no link tile left, so no link action
is offered, in Lancashire and in Birmingham, by both engines; with 13 on the board one link is still possible.
(Records of another engine place a 15th link; ours rightly refuses them.)"""

from __future__ import annotations

from types import ModuleType

import pytest

import brass
from brass import reference


def _links_offered(engine: ModuleType, name: str, placed: int) -> list[str]:
    game = brass.Game(name, players=2)
    pos = brass.Position(name, players=2, era="rail", round=2, engine=engine).to_move(0).money(0, 150)
    pos.markets(coal=8, iron=8)
    lines = [line for line in game.lines if "virtual" not in line]
    for line in lines[:placed]:
        pos.link(line, owner=0)
    state = pos.state()
    assert state.player(0).links_left == 14 - placed
    return [n for n in (state.game.action_name(a) for a in state.legal_actions()) if n.split()[0] == "link"]


@pytest.mark.parametrize("engine", [brass, reference], ids=["native", "reference"])
@pytest.mark.parametrize("name", ["lancashire", "birmingham"])
def test_k11_l37_fourteen_links_on_the_board_leave_no_link_action(engine: ModuleType, name: str) -> None:
    assert _links_offered(engine, name, 13), "a 14th link is possible: the test would not show the limit"
    assert _links_offered(engine, name, 14) == []
    pos = brass.Position(name, players=2, era="rail", round=2, engine=engine)
    game = brass.Game(name, players=2)
    lines = [line for line in game.lines if "virtual" not in line]
    for line in lines[:14]:
        pos.link(line, owner=0)
    with pytest.raises(brass.ConfigError, match="no link tile left"):
        pos.link(lines[14], owner=0)  # the builder refuses a 15th as well
