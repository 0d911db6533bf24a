"""Resolving decisions (docs/actions.md "How each action resolves", "After the action"; L-8, L-16 … L-47; the
Birmingham additions of docs/birmingham.md: beer, Scout, the merchant bonus).

`apply_decision` performs one legal id, then takes every automatic step (a step with exactly one possible choice)
until the next real decision; the end of the turn, the round and the era are `_turns.py`'s. An action takes its
coal, then its iron, then its beer (`continue_consumption`), each unit from the sources the rules allow. A sale's
target is the game module's to resolve (`sell` of `Rules.game`, after the sale's beer), and so are the Scout's
gain and the merchant bonus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._actions import ActionSpace
from ._cards import card_choices, move_to_discards
from ._legal import (
    beer_choices,
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
    elif decision == "beer":
        take_beer(data, pos, action)
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
    elif decision == "bonus":
        data.game.bonus(pos, player, None if action[0] == "stop" else action[1])
        sale_done(data, pos, player, True)
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
    elif kind == "scout":
        pos["action"] = new_action("scout")  # B-17: its cards are asked as decision `card`
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
    """L-27, L-28, B-7, B-11: after coal and iron, a coal mine gets its cubes and sells what fits to the coal market
    if connected to a trade icon; an iron works always does so with the iron market; a brewery gets its barrels; a
    shipyard flips (data `industry_roles`: `produces`, `flips_when_built`)."""
    space = action_under_way(pos)["target"]
    assert space is not None
    tile = pos["board"][space]
    location = data.spaces[space].location
    resource = data.produces.get(tile["industry"])
    if resource is not None:
        tile["cubes"] = data.new_tile_cubes(tile["industry"], tile["level"], pos["era"])  # B-7: barrels by era
        if resource == "iron" or (resource == "coal" and connected_to_trade_icon(data, pos, [location])):
            sell_cubes_to_market(data, pos, space, resource)
    elif tile["industry"] in data.flips_when_built:
        flip(data, pos, space)


# --- coal and iron for the action under way ---------------------------------------------------------


def continue_consumption(data: Rules, pos: Position, player: int) -> None:
    """L-16 … L-18: take each coal (closest mine; a tie is decision `coal`; none connected -> market), then each
    iron (two or more works -> decision `iron`; one -> it; none -> market), then each barrel of beer (B-8, B-25:
    two or more sources -> decision `beer`; one -> it); then what follows the action."""
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
    while action["beer"] > 0:
        beer = beer_choices(data, pos, player)
        if len(beer) >= 2:
            pos["decision"] = "beer"
            return
        take_beer(data, pos, beer[0])
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
    elif action["kind"] == "sell":
        complete_sale(data, pos, player)
    else:
        raise AssertionError(action["kind"])


def take_beer(data: Rules, pos: Position, source: Action) -> None:
    """B-8, B-28: one barrel from a brewery (which flips when its last barrel leaves, its owner's income at once) or
    from beside the sale target (the game's `take_target_beer`; the sale then gets the target's bonus, B-26)."""
    action = action_under_way(pos)
    if source[0] == "beer":
        take_cube(data, pos, source[1])
    else:
        data.game.take_target_beer(pos, source[1])
        action["merchant_beer"] = True
    action["beer"] -= 1


# --- Network ---------------------------------------------------------------------------------------


def place_link(data: Rules, pos: Position, player: int, line: int, price: int) -> None:
    """L-35, L-36: pay, place the link tile; a rail then needs one coal from its ends, and a second rail the game's
    beer (B-13: one barrel) (continue_consumption)."""
    spend(pos, player, price)
    pos["links"][line] = player
    pos["players"][player]["links_left"] -= 1
    action = action_under_way(pos)
    action["target"] = line
    action["count"] += 1
    action["coal"] = 1 if pos["era"] == "rail" else 0
    action["beer"] = data.second_rail_beer if action["count"] == 2 else 0


# --- Develop ---------------------------------------------------------------------------------------


def develop_tile(data: Rules, pos: Position, player: int, industry: str) -> None:
    """L-39: the lowest tile of the industry leaves the mat (and the game); one iron is then taken."""
    pos["players"][player]["mat"][industry] -= 1
    action = action_under_way(pos)
    action["count"] += 1
    action["iron"] = 1


# --- Sell ------------------------------------------------------------------------------------------


def sell(data: Rules, pos: Position, player: int, mill: int, target: SaleTarget) -> None:
    """L-40, B-15: one sale: the tile (`target`) and where it goes (`merchant`) are noted while the sale is under
    way; the beer printed on the tile is taken (none in Lancashire); then the game module resolves the sale
    (`complete_sale`)."""
    action = action_under_way(pos)
    tile = pos["board"][mill]
    action["target"] = mill
    action["merchant"] = target
    action["beer"] = data.tile(tile["industry"], tile["level"]).get("beer", 0)
    continue_consumption(data, pos, player)


def complete_sale(data: Rules, pos: Position, player: int) -> None:
    """The sale under way, its beer taken, is resolved by the game module (Lancashire: a port, L-41, or the Distant
    Cotton Market, L-42; Birmingham: the flip and the merchant bonus, B-15, B-26, which may ask decision `bonus`).
    A sale that flipped its tile counts as successful at once (`count`), also while its bonus is asked."""
    action = action_under_way(pos)
    mill = action["target"]
    assert mill is not None
    ok = data.game.sell(pos, player, mill, action["merchant"])
    if ok is not False:
        action["count"] += 1
    if ok is not None:
        sale_done(data, pos, player, ok)


def sale_done(data: Rules, pos: Position, player: int, ok: bool) -> None:
    """The end of one sale: after a success another sale may follow (decision `sell`); a failed sale ends the whole
    action."""
    action = action_under_way(pos)
    action["target"] = None
    action["merchant"] = None
    action["merchant_beer"] = False
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
    """L-8, L-21, B-17: move one card from hand to discards (a wild card to its pile). Returns True when another
    card is still owed (the second card of a double build; Scout's second and third); otherwise ends the action
    (Scout: after its gain, the wild cards)."""
    move_to_discards(data, pos, player, kind)
    action = action_under_way(pos)
    if action["double"] and action["first_card"] is None:
        action["first_card"] = kind
        return True
    if action["kind"] == "scout":
        action["count"] += 1
        action["first_card"] = kind
        if action["count"] < data.scout_cards:
            return True
        data.game.scout_gain(pos, player)
    end_action(data, pos, player)
    return False
