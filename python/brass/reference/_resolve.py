"""Resolving decisions (docs/actions.md "How each action resolves", "After the action"; L-8, L-16 … L-47).

`apply_decision` performs one legal id, then takes every automatic step (a step with exactly one possible choice)
until the next real decision; the end of the turn, the round and the era are `_turns.py`'s. A sale's target is the
game module's to resolve (`sell` of `Rules.game`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._actions import ActionSpace
from ._cards import card_choices, move_to_discards
from ._legal import (
    coal_choices,
    first_link_price,
    further_developments,
    iron_choices,
    next_tile,
    paying_cards,
    sales,
    second_link_price,
    second_links,
)
from ._network import connected_to_trade_icon
from ._position import Action, ActionPos, Position, SaleTarget, new_action
from ._resources import (
    buy_from_market,
    flip,
    income_level,
    sell_cubes_to_market,
    spend,
    take_cube,
)
from ._turns import continue_shortfall, current_player, end_action, remove_for_shortfall

if TYPE_CHECKING:
    from ._rules import Rules

# --- one decision ----------------------------------------------------------------------------------


def apply_decision(data: Rules, acts: ActionSpace, pos: Position, aid: int) -> None:
    """Resolve one legal id at the current decision, then run every automatic step."""
    action = acts.actions[aid]
    decision = pos["decision"]
    player = current_player(data, pos)
    assert player is not None
    if decision == "action":
        start_action(data, pos, player, action)
    elif decision == "coal":
        take_cube(data, pos, action[1])
        action_under_way(pos)["coal"] -= 1
        continue_consumption(data, pos, player)
    elif decision == "iron":
        take_cube(data, pos, action[1])
        action_under_way(pos)["iron"] -= 1
        continue_consumption(data, pos, player)
    elif decision == "link":
        if action[0] == "stop":
            start_card_phase(data, pos, player)
        else:
            place_link(data, pos, player, action[1], second_link_price(data))
            continue_consumption(data, pos, player)
    elif decision == "develop":
        if action[0] == "stop":
            start_card_phase(data, pos, player)
        else:
            develop_tile(data, pos, player, action[1])
            continue_consumption(data, pos, player)
    elif decision == "sell":
        if action[0] == "stop":
            start_card_phase(data, pos, player)
        else:
            sell(data, pos, player, action[1], action[2])
    elif decision == "card":
        discard_card(data, pos, player, action[1])
    elif decision == "remove":
        remove_for_shortfall(data, pos, player, action[1])
        continue_shortfall(data, pos)
    else:
        raise AssertionError(decision)


def action_under_way(pos: Position) -> ActionPos:
    """The action under way (every decision but `action`, `remove` and `over` has one)."""
    action = pos["action"]
    assert action is not None
    return action


def start_action(data: Rules, pos: Position, player: int, action: Action) -> None:
    """Begin the chosen action (decision `action`)."""
    kind = action[0]
    if kind == "build":
        build(data, pos, player, action[1], action[2], action[3])
        continue_consumption(data, pos, player)
    elif kind == "link":
        pos["action"] = new_action("link")
        place_link(data, pos, player, action[1], first_link_price(data, pos))
        continue_consumption(data, pos, player)
    elif kind == "develop":
        pos["action"] = new_action("develop")
        develop_tile(data, pos, player, action[1])
        continue_consumption(data, pos, player)
    elif kind == "sell":
        pos["action"] = new_action("sell")
        sell(data, pos, player, action[1], action[2])
    elif kind == "loan":
        take_loan(data, pos, player, action[1])
        pos["action"] = new_action("loan")
        start_card_phase(data, pos, player)
    elif kind == "pass":
        pos["action"] = new_action("pass")  # L-47
        start_card_phase(data, pos, player)
    else:
        raise AssertionError(kind)


# --- Build -----------------------------------------------------------------------------------------


def build(data: Rules, pos: Position, player: int, space: int, industry: str, double: bool) -> None:
    """L-26, L-29: note the paying cards, remove an overbuilt tile (its cubes go back to the supply), pay the
    cost, place the lowest mat tile unflipped; coal and iron follow (continue_consumption)."""
    tile = next_tile(data, pos, player, industry)
    cards = None if double else paying_cards(data, pos, player, space, industry)
    pos["action"] = new_action("build", double=double, target=space, coal=tile["coal"], iron=tile["iron"], cards=cards)
    pos["board"].pop(space, None)
    if data.first_build_once_per_game:
        pos["players"][player]["built_industry"] = True  # C-6, R-14: the first build of the game is behind them
    spend(pos, player, tile["cost"])
    pos["players"][player]["mat"][industry] -= 1
    pos["board"][space] = {"owner": player, "industry": industry, "level": tile["level"], "flipped": False, "cubes": 0}


def finish_build(data: Rules, pos: Position) -> None:
    """L-27, L-28: after coal and iron, a coal mine gets its cubes and sells what fits to the coal market if
    connected to a trade icon; an iron works always does so with the iron market; a shipyard flips (data
    `industry_roles`: `produces`, `flips_when_built`)."""
    space = action_under_way(pos)["target"]
    assert space is not None
    tile = pos["board"][space]
    row = data.tile(tile["industry"], tile["level"])
    location = data.spaces[space].location
    resource = data.produces.get(tile["industry"])
    if resource is not None:
        tile["cubes"] = row["cubes"]
        if resource == "iron" or (resource == "coal" and connected_to_trade_icon(data, pos, [location])):
            sell_cubes_to_market(data, pos, space, resource)
    elif tile["industry"] in data.flips_when_built:
        flip(data, pos, space)


# --- coal and iron for the action under way ---------------------------------------------------------


def continue_consumption(data: Rules, pos: Position, player: int) -> None:
    """L-16 … L-18: take each coal (closest mine; a tie is decision `coal`; none connected -> market), then each
    iron (two or more works -> decision `iron`; one -> it; none -> market); then what follows the action."""
    action = action_under_way(pos)
    while action["coal"] > 0:
        choices = coal_choices(data, pos)
        if len(choices) >= 2:
            pos["decision"] = "coal"
            return
        if choices:
            take_cube(data, pos, choices[0])
        else:
            buy_from_market(data, pos, player, "coal")
        action["coal"] -= 1
    while action["iron"] > 0:
        choices = iron_choices(data, pos)
        if len(choices) >= 2:
            pos["decision"] = "iron"
            return
        if choices:
            take_cube(data, pos, choices[0])
        else:
            buy_from_market(data, pos, player, "iron")
        action["iron"] -= 1
    if action["kind"] == "build":
        finish_build(data, pos)
        start_card_phase(data, pos, player)
    elif action["kind"] == "link":
        if pos["era"] == "rail" and action["count"] == 1 and second_links(data, pos, player):
            pos["decision"] = "link"
        else:
            start_card_phase(data, pos, player)
    elif action["kind"] == "develop":
        if action["count"] == 1 and further_developments(data, pos, player):
            pos["decision"] = "develop"
        else:
            start_card_phase(data, pos, player)
    else:
        raise AssertionError(action["kind"])


# --- Network ---------------------------------------------------------------------------------------


def place_link(data: Rules, pos: Position, player: int, line: int, price: int) -> None:
    """L-35, L-36: pay, place the link tile; a rail then needs one coal from its ends (continue_consumption)."""
    spend(pos, player, price)
    pos["links"][line] = player
    pos["players"][player]["links_left"] -= 1
    action = action_under_way(pos)
    action["target"] = line
    action["count"] += 1
    action["coal"] = 1 if pos["era"] == "rail" else 0


# --- Develop ---------------------------------------------------------------------------------------


def develop_tile(data: Rules, pos: Position, player: int, industry: str) -> None:
    """L-39: the lowest tile of the industry leaves the mat (and the game); one iron is then taken."""
    pos["players"][player]["mat"][industry] -= 1
    action = action_under_way(pos)
    action["count"] += 1
    action["iron"] = 1


# --- Sell ------------------------------------------------------------------------------------------


def sell(data: Rules, pos: Position, player: int, mill: int, target: SaleTarget) -> None:
    """L-40: one sale, resolved by the game module (Lancashire: a port, L-41, or the Distant Cotton Market,
    L-42); after a success another sale may follow (decision `sell`); a failed sale ends the whole action."""
    ok = data.game.sell(pos, player, mill, target)
    if ok:
        action_under_way(pos)["count"] += 1
    if ok and has_further_sale(data, pos, player):
        pos["decision"] = "sell"
    else:
        start_card_phase(data, pos, player)


def has_further_sale(data: Rules, pos: Position, player: int) -> bool:
    """docs/actions.md: decision `sell` comes only when another sale is legal."""
    return bool(sales(data, pos, player))


# --- Loan ------------------------------------------------------------------------------------------


def take_loan(data: Rules, pos: Position, player: int, amount: int) -> None:
    """L-45: money + amount (not money spent); the income marker goes back amount/10 levels, to the highest
    space of the new level."""
    me = pos["players"][player]
    me["money"] += amount
    me["income_space"] = data.highest_space_of_level(income_level(data, pos, player) - amount // 10)


# --- cards and the end of the action ---------------------------------------------------------------


def start_card_phase(data: Rules, pos: Position, player: int) -> None:
    """The card is discarded last (docs/actions.md): asked when two or more kinds could pay, else automatic."""
    while True:
        choices = card_choices(data, pos, player)
        if len(choices) >= 2:
            pos["decision"] = "card"
            return
        if not discard_one(data, pos, player, choices[0]):
            return


def discard_card(data: Rules, pos: Position, player: int, kind: str) -> None:
    """Decision `card`: discard the chosen card, then continue (a double build's second card, or the end)."""
    if discard_one(data, pos, player, kind):
        start_card_phase(data, pos, player)


def discard_one(data: Rules, pos: Position, player: int, kind: str) -> bool:
    """L-8, L-21: move one card from hand to discards. Returns True when another card is still owed (the
    second card of a double build); otherwise ends the action."""
    move_to_discards(pos, player, kind)
    action = action_under_way(pos)
    if action["double"] and action["first_card"] is None:
        action["first_card"] = kind
        return True
    end_action(data, pos, player)
    return False
