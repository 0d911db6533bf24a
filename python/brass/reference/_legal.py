"""Which action ids are legal now (docs/actions.md, "Decisions" and "When each action id is legal").

Every `*_problem` function returns None when the action is legal, else a sentence saying why not; the
sentence becomes the IllegalActionError message. Everything is recomputed from the position each time.
The game module decides what only its game has: where a sale may go (`sale_problem`), which cards build where
(`location_cards`, `industry_cards`, `industry_card_reaches`), when loans close (`loan_period_problem`), when Scout
is allowed (`scout_problem`) and the Gloucester bonus (`bonus_choices`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._actions import ActionSpace
from ._cards import card_choices
from ._data import TileRow
from ._network import connected_to_trade_icon, has_anything_on_board, network
from ._position import Action, Position, SaleTarget
from ._resources import (
    beer_barrels,
    beer_sources,
    closest_coal_mines,
    connected_coal_cubes,
    income_level,
    iron_cubes_on_board,
    market_cost,
    market_cubes,
    market_price,
    tiles_with_cubes,
)
from ._turns import current_player, own_tiles

if TYPE_CHECKING:
    from ._rules import Rules

# L-30: the resources whose producing tiles another player may overbuild once that resource is gone.
OVERBUILD_RESOURCES = ("coal", "iron")


# --- Build (L-21 … L-33) ---------------------------------------------------------------------------


def lowest_tile(data: Rules, pos: Position, player: int, industry: str) -> TileRow | None:
    """L-23: the lowest-level tile of an industry on the player's mat (None if the stack is empty)."""
    level = data.lowest_level(industry, pos["players"][player]["mat"][industry])
    return None if level is None else data.tile(industry, level)


def next_tile(data: Rules, pos: Position, player: int, industry: str) -> TileRow:
    """The tile a build of `industry` places: the lowest on the mat (the build was checked to have one)."""
    tile = lowest_tile(data, pos, player, industry)
    assert tile is not None, industry
    return tile


def tile_era_problem(data: Rules, pos: Position, player: int, industry: str) -> str | None:
    """L-23: the lowest tile must exist and be buildable in this era (level 1 Canal only, shipyard 2 Rail
    only, shipyard 0 never)."""
    tile = lowest_tile(data, pos, player, industry)
    if tile is None:
        return f"you have no {industry} tile left on your mat"
    if pos["era"] not in tile["eras"]:
        when = " and ".join(tile["eras"]) + " era" if tile["eras"] else "no era (develop it away)"
        return f"your lowest {industry} tile is level {tile['level']}, which can be built only in the {when}"
    return None


def canonical_spaces(data: Rules, pos: Position, location: str, industry: str) -> list[int]:
    """L-24 (R-1), B-10: the undeveloped spaces of `location` a new `industry` tile may go to: the first space
    showing only that icon if any is free; else a free space showing the icon with another — the player chooses,
    and spaces showing the same icons are interchangeable, so the first free space of each icon set
    (docs/actions.md "One undeveloped space per location and icon set"; the Lancashire map never has two different
    such sets in a location, Birmingham's does: Uttoxeter's breweries, Derby's cotton mills)."""
    free = [s for s in data.location_spaces[location] if industry in data.spaces[s].icons and s not in pos["board"]]
    only = [s for s in free if data.spaces[s].icons == (industry,)]
    if only:
        return only[:1]
    firsts: dict[tuple[str, ...], int] = {}
    for s in free:
        firsts.setdefault(data.spaces[s].icons, s)
    return list(firsts.values())


def overbuild_problem(data: Rules, pos: Position, player: int, space: int, industry: str) -> str | None:
    """L-29, L-30: may the player's lowest `industry` tile replace the tile on `space`?"""
    old = pos["board"][space]
    name = data.spaces[space].name
    if old["industry"] != industry:
        return f"{name} holds a {old['industry']}, not a {industry}"
    new_level = next_tile(data, pos, player, industry)["level"]
    if old["level"] >= new_level:
        return f"the level {old['level']} {industry} on {name} is not lower than your level {new_level} tile"
    if old["owner"] == player:
        return None
    resource = data.produces.get(industry)
    if resource not in OVERBUILD_RESOURCES:
        return f"only coal mines and iron works of another player can be overbuilt, not a {industry} (L-30)"
    if tiles_with_cubes(data, pos, resource) or market_cubes(pos, resource) > 0:
        return f"{resource} is still left on the board or in the {resource} market (L-30)"
    return None


def space_problem(data: Rules, pos: Position, player: int, space: int, industry: str) -> str | None:
    """Condition 2 of BUILD: the canonical free space (L-24) or an overbuildable tile (L-29, L-30)."""
    s = data.spaces[space]
    if industry not in s.icons:
        return f"{s.name} does not show {industry}"
    if space in pos["board"]:
        return overbuild_problem(data, pos, player, space, industry)
    canon = canonical_spaces(data, pos, s.location, industry)
    if space not in canon:
        return f"a new {industry} in {s.location} goes on {data.spaces[canon[0]].name} first (L-24)"
    return None


def canal_location_problem(data: Rules, pos: Position, player: int, space: int) -> str | None:
    """L-25, L-31: in the Canal Era at most one of your industry tiles per location (overbuilding your own
    tile there is the exception; overbuilding another player's tile there is not)."""
    if pos["era"] != "canal":
        return None
    old = pos["board"].get(space)
    if old is not None and old["owner"] == player:
        return None
    location = data.spaces[space].location
    for s in data.location_spaces[location]:
        tile = pos["board"].get(s)
        if tile is not None and tile["owner"] == player:
            return f"in the Canal Era you may have only one industry tile in {location} (L-25)"
    return None


def paying_cards(
    data: Rules, pos: Position, player: int, space: int, industry: str, net: set[str] | None = None
) -> list[str]:
    """L-21, L-22, B-10, B-12: card kinds in hand that pay for a single build of `industry` on `space`, in card
    order: the location card (the game's `location_cards`: Birmingham adds the wild location card); the industry
    card (`industry_cards`: Birmingham's cotton mill / manufacturer card and the wild industry card) if the location
    is in the network (or reached otherwise, `industry_card_reaches`), or as a first build on an undeveloped space
    (`is_first_build`)."""
    hand = pos["players"][player]["hand"]
    location = data.spaces[space].location
    kinds = [k for k in data.game.location_cards(location) if hand.get(k)]
    industry_kinds = [k for k in data.game.industry_cards(industry) if hand.get(k)]
    if industry_kinds:
        if net is None:
            net = network(data, pos, player)
        if industry_card_reaches(data, net, location) or (
            space not in pos["board"] and is_first_build(data, pos, player)
        ):
            kinds.extend(industry_kinds)
    return sorted(set(kinds), key=data.card_order.__getitem__)


def is_first_build(data: Rules, pos: Position, player: int) -> bool:
    """Would the player's next build be their first, so that an industry card may build anywhere?
    L-22 (Lancashire): the player has no industry tile and no link on the board (R-2).
    C-6 (classic Brass, R-14): the player has not yet built an industry tile in this game; having nothing on the
    board again after the Canal Era removed the level-1 tiles does not count."""
    if data.first_build_once_per_game:
        return not pos["players"][player]["built_industry"]
    return not has_anything_on_board(pos, player)


def industry_card_reaches(data: Rules, net: set[str], location: str) -> bool:
    """L-21: an industry card builds in the player's network; the game may let it reach further (C-7 and L-55:
    the Lancashire virtual link, `_lancashire.py`)."""
    return location in net or data.game.industry_card_reaches(net, location)


def build_resources_problem(data: Rules, pos: Position, player: int, space: int, industry: str) -> str | None:
    """L-16 … L-19, L-26, L-33: with the tile placed (an overbuilt tile and its cubes removed first), every coal
    comes from a connected mine or the market (market needs a trade-icon connection, L-15), every iron from a
    works or the market, and the player's money covers the cost plus all market purchases."""
    tile = next_tile(data, pos, player, industry)
    location = data.spaces[space].location
    coal_from_market = 0
    if tile["coal"]:
        free = connected_coal_cubes(data, pos, [location], exclude=space)
        coal_from_market = max(0, tile["coal"] - free)
        if coal_from_market and not connected_to_trade_icon(data, pos, [location]):
            return (
                f"no coal reaches {location}: no connected coal mine has coal and {location} is not "
                "connected to a market trade icon (L-17)"
            )
    iron_from_market = max(0, tile["iron"] - iron_cubes_on_board(data, pos, exclude=space)) if tile["iron"] else 0
    cost = (
        tile["cost"]
        + market_cost(data, pos, "coal", coal_from_market)
        + market_cost(data, pos, "iron", iron_from_market)
    )
    money = pos["players"][player]["money"]
    if money < cost:
        return f"the build costs £{cost} with its coal and iron, and you have £{money} (L-19)"
    return None


def build_problem(
    data: Rules,
    pos: Position,
    player: int,
    space: int,
    industry: str,
    double: bool,
    net: set[str] | None = None,
) -> str | None:
    """BUILD / BUILD_DOUBLE conditions 1-5 of docs/actions.md (L-21 … L-33)."""
    problem = (
        tile_era_problem(data, pos, player, industry)
        or space_problem(data, pos, player, space, industry)
        or canal_location_problem(data, pos, player, space)
    )
    if problem:
        return problem
    if double:
        if pos["actions_left"] < 2:
            return "a double build needs both actions of a turn (L-21)"
        if sum(pos["players"][player]["hand"].values()) < 2:
            return "a double build needs two cards in hand (L-21)"
    elif not paying_cards(data, pos, player, space, industry, net):
        location = data.spaces[space].location
        return (
            f"no card in hand pays for it: it needs the {location} card, or the {industry} card with "
            f"{location} in your network (L-21, L-22)"
        )
    return build_resources_problem(data, pos, player, space, industry)


# --- Network (L-34 … L-38) -------------------------------------------------------------------------


def link_problem(
    data: Rules, pos: Position, player: int, line_index: int, price: int, net: set[str] | None = None
) -> str | None:
    """L-34 … L-37: a link tile left, an empty line of the era's kind, an end in the network (B-12: any line for a
    player with nothing on the board, in a game where a first link goes anywhere), money for the price and (rail)
    one coal measured from all ends of the new link together (L-16, L-17)."""
    me = pos["players"][player]
    line = data.lines[line_index]
    if me["links_left"] <= 0:
        return "you have no link tile left (L-37)"
    if line_index in pos["links"]:
        return f"{line.name} already holds a link"
    if pos["era"] == "canal" and not line.canal:
        return f"{line.name} is not a canal line (L-35)"
    if pos["era"] == "rail" and not line.rail:
        return f"{line.name} is not a rail line (L-36)"
    if net is None:
        net = network(data, pos, player)
    # A player with nothing on the board has an empty network (L-13).
    if net.isdisjoint(line.ends) and not (data.first_link_anywhere and not net):
        return f"neither {' nor '.join(line.ends)} is in your network (L-34, R-2)"
    cost = price
    if pos["era"] == "rail":
        ends = list(line.ends)
        if connected_coal_cubes(data, pos, ends, extra_lines=[line_index]) == 0:
            if not connected_to_trade_icon(data, pos, ends, extra_lines=[line_index]):
                return f"no coal reaches {line.name}: no connected coal mine has coal and no trade icon is connected"
            cost += market_price(data, pos, "coal")
    if me["money"] < cost:
        return f"the link costs £{cost} and you have £{me['money']}"
    return None


def first_link_price(data: Rules, pos: Position) -> int:
    """L-35, L-36: a canal, or the first rail of an action (data `link_costs`)."""
    return data.link_costs["canal"] if pos["era"] == "canal" else data.link_costs["rail"]


def second_link_price(data: Rules) -> int:
    """L-36: the second rail of an action (two rails cost £15, i.e. £10 more; data `link_costs`)."""
    return data.link_costs["second_rail"]


def second_link_problem(
    data: Rules, pos: Position, player: int, line_index: int, net: set[str] | None = None
) -> str | None:
    """L-36, B-13: the second rail of an action: a link for £10 more with its own coal and, in a game where it takes
    beer, a barrel from a brewery — the player's own anywhere, another player's connected to the rail's ends once it
    is placed (B-25; never a merchant's)."""
    problem = link_problem(data, pos, player, line_index, second_link_price(data), net)
    if problem:
        return problem
    needed = data.second_rail_beer
    if needed and beer_barrels(data, pos, player, data.lines[line_index].ends, [line_index]) < needed:
        return "a second rail needs a barrel of beer from a brewery you may use (B-13, B-25)"
    return None


# --- Develop (L-39) --------------------------------------------------------------------------------


def develop_problem(data: Rules, pos: Position, player: int, industry: str) -> str | None:
    """L-39, L-18: a tile of the industry on the mat (any level) and one iron from a works or the market; B-14: not
    a tile that can never be developed (the lightbulb potteries, data `developable: false`)."""
    me = pos["players"][player]
    if me["mat"][industry] <= 0:
        return f"you have no {industry} tile left on your mat"
    tile = next_tile(data, pos, player, industry)
    if not tile.get("developable", True):
        return f"your lowest {industry} tile (level {tile['level']}) can never be developed (B-14)"
    if iron_cubes_on_board(data, pos) == 0 and me["money"] < market_price(data, pos, "iron"):
        return f"iron costs £{market_price(data, pos, 'iron')} and you have £{me['money']}"
    return None


# --- Sell (L-40 … L-44) ----------------------------------------------------------------------------


def sold_industry_name(data: Rules, space: int) -> str:
    """The sold industry a SELL id's first space shows, in words ("cotton mill")."""
    return " or ".join(i.replace("_", " ") for i in data.spaces[space].icons if i in data.sold)


def sell_problem(data: Rules, pos: Position, player: int, mill: int, target: SaleTarget) -> str | None:
    """L-40: your unflipped tile of a sold industry (a cotton mill) on `mill`; then where it goes is the game's
    `sale_problem` (Lancashire: a port or the Distant Cotton Market, L-41, L-42)."""
    tile = pos["board"].get(mill)
    mill_name = data.spaces[mill].name
    if tile is None or tile["industry"] not in data.sold or tile["owner"] != player:
        return f"{mill_name} does not hold a {sold_industry_name(data, mill)} of yours"
    if tile["flipped"]:
        return f"the {tile['industry'].replace('_', ' ')} on {mill_name} is already sold"
    return data.game.sale_problem(pos, player, mill, target)


def sales(data: Rules, pos: Position, player: int) -> list[tuple[int, SaleTarget]]:
    """L-40 … L-42: every legal (mill, target) sale now."""
    board = pos["board"]
    mills = sorted(
        s for s, t in board.items() if t["industry"] in data.sold and t["owner"] == player and not t["flipped"]
    )
    targets = data.game.open_sale_targets(pos)
    return [(m, t) for m in mills for t in targets if sell_problem(data, pos, player, m, t) is None]


def legal_sales(data: Rules, acts: ActionSpace, pos: Position, player: int) -> list[int]:
    """The SELL ids legal now."""
    return [acts.id("sell", m, t) for m, t in sales(data, pos, player)]


# --- Loan (L-45, L-46) -----------------------------------------------------------------------------


def loan_problem(data: Rules, pos: Position, player: int, amount: int) -> str | None:
    """L-45: a loan of £10 per level may not take the income level below the lowest (data `loans`: -10); then the
    game's `loan_period_problem` (Lancashire L-46, classic Brass C-5)."""
    level = income_level(data, pos, player)
    lowest = data.lowest_income_level
    if level - amount // 10 < lowest:
        return f"a £{amount} loan would take your income level from {level} below {lowest} (L-45)"
    return data.game.loan_period_problem(pos)


# --- Scout (B-17) ----------------------------------------------------------------------------------------------


def scout_problem(data: Rules, pos: Position, player: int) -> str | None:
    """B-17: Scout discards `scout_cards` cards (3), so the hand must hold them; the game says the rest (B-31: no
    wild card in hand)."""
    held = sum(pos["players"][player]["hand"].values())
    if held < data.scout_cards:
        return f"Scout discards {data.scout_cards} cards and you hold {held} (B-17)"
    return data.game.scout_problem(pos, player)


# --- choices of the follow-up decisions ------------------------------------------------------------


def coal_consumers(data: Rules, pos: Position) -> list[str]:
    """L-16: where the coal of the action under way goes: the build location, or the ends of the link."""
    action = pos["action"]
    assert action is not None and action["target"] is not None
    if action["kind"] == "build":
        return [data.spaces[action["target"]].location]
    return list(data.lines[action["target"]].ends)


def coal_choices(data: Rules, pos: Position) -> list[int]:
    """L-16: the closest connected coal mines with coal (a decision only when two or more are tied).
    C-14 (classic Brass, R-15): a rail's coal goes to the end the player chooses, and the closest source to *that*
    end applies; so every mine that is closest to one of the ends is a possible source."""
    consumers = coal_consumers(data, pos)
    action = pos["action"]
    assert action is not None
    if action["kind"] == "link" and data.rail_coal_to_chosen_end:
        choices: set[int] = set()
        for end in consumers:
            choices.update(closest_coal_mines(data, pos, [end]))
        return sorted(choices)
    return closest_coal_mines(data, pos, consumers)


def iron_choices(data: Rules, pos: Position) -> list[int]:
    """L-18: every iron works with iron (a decision only when there are two or more)."""
    return tiles_with_cubes(data, pos, "iron")


def beer_consumers(data: Rules, pos: Position) -> list[str]:
    """B-25: where the beer of the action under way is used: the location of the tile being sold, or the ends of the
    rail just placed."""
    action = pos["action"]
    assert action is not None and action["target"] is not None
    if action["kind"] == "sell":
        return [data.spaces[action["target"]].location]
    return list(data.lines[action["target"]].ends)


def beer_choices(data: Rules, pos: Position, player: int) -> list[Action]:
    """B-8, B-25: where the next barrel may come from: breweries (`beer_sources`), then — in a sale — the barrel
    beside the sale target if it is still there (the game's `target_beer`). A decision only when two or more."""
    action = pos["action"]
    assert action is not None
    choices: list[Action] = [("beer", s) for s in beer_sources(data, pos, player, beer_consumers(data, pos))]
    if action["kind"] == "sell" and data.game.target_beer(pos, action["merchant"]):
        choices.append(("merchant_beer", action["merchant"]))
    return choices


def second_links(data: Rules, pos: Position, player: int) -> list[int]:
    """L-36, B-13: the lines a second rail of this action may go on (£10 more, its own coal, and its beer)."""
    if pos["era"] != "rail":
        return []
    net = network(data, pos, player)
    return [line.index for line in data.lines if second_link_problem(data, pos, player, line.index, net) is None]


def further_developments(data: Rules, pos: Position, player: int) -> list[str]:
    """L-39: the industries a second tile of this Develop may come from."""
    return [i for i in data.industries if develop_problem(data, pos, player, i) is None]


# --- the legal ids ----------------------------------------------------------------------------------


def action_problem(data: Rules, pos: Position, player: int, action: Action, net: set[str] | None = None) -> str | None:
    """Why an id of the `action` decision is illegal now (None when legal)."""
    kind = action[0]
    if kind == "build":
        return build_problem(data, pos, player, action[1], action[2], action[3], net)
    if kind == "link":
        return link_problem(data, pos, player, action[1], first_link_price(data, pos), net)
    if kind == "develop":
        return develop_problem(data, pos, player, action[1])
    if kind == "sell":
        return sell_problem(data, pos, player, action[1], action[2])
    if kind == "loan":
        return loan_problem(data, pos, player, action[1])
    if kind == "scout":
        return scout_problem(data, pos, player)
    if kind == "pass":
        return None
    return f"a `{kind}` id is not an answer to the decision `action`"


def legal_actions(data: Rules, acts: ActionSpace, pos: Position) -> list[int]:
    """The sorted, duplicate-free legal ids of the current decision (docs/actions.md, "Decisions")."""
    decision = pos["decision"]
    player = current_player(data, pos)
    if decision == "over" or player is None:
        return []
    if decision == "action":
        net = network(data, pos, player)
        ids = []
        for aid, action in enumerate(acts.actions):
            if action[0] == "sell":
                continue
            if action[0] in ("coal", "iron", "beer", "merchant_beer", "stop", "card", "remove"):
                break
            if action_problem(data, pos, player, action, net) is None:
                ids.append(aid)
        ids.extend(legal_sales(data, acts, pos, player))
        return sorted(ids)
    if decision == "coal":
        return sorted(acts.id("coal", s) for s in coal_choices(data, pos))
    if decision == "iron":
        return sorted(acts.id("iron", s) for s in iron_choices(data, pos))
    if decision == "link":
        return sorted([acts.id("link", i) for i in second_links(data, pos, player)] + [acts.id("stop")])
    if decision == "develop":
        ids = [acts.id("develop", i) for i in further_developments(data, pos, player)]
        return sorted(ids + [acts.id("stop")])
    if decision == "sell":
        return sorted(legal_sales(data, acts, pos, player) + [acts.id("stop")])
    if decision == "beer":
        return sorted(acts.id(*choice) for choice in beer_choices(data, pos, player))
    if decision == "bonus":
        ids = [acts.id("develop", i) for i in data.game.bonus_choices(pos, player)]
        return sorted(ids + [acts.id("stop")])
    if decision == "card":
        return sorted(acts.id("card", k) for k in card_choices(data, pos, player))
    if decision == "remove":
        return sorted(acts.id("remove", s) for s in own_tiles(pos, player))
    raise AssertionError(decision)


def why_illegal(data: Rules, acts: ActionSpace, pos: Position, aid: int) -> str:
    """A sentence for the IllegalActionError of an id that is not in legal_actions()."""
    name = acts.names[aid]
    decision = pos["decision"]
    if decision == "over":
        return f"`{name}` is not legal: the game is over"
    player = current_player(data, pos)
    action = acts.actions[aid]
    problem = None
    if player is not None and decision == "action":
        problem = action_problem(data, pos, player, action)
    elif player is not None and decision in ("link", "develop", "sell") and action[0] == decision:
        if decision == "link":
            problem = second_link_problem(data, pos, player, action[1])
        elif decision == "develop":
            problem = develop_problem(data, pos, player, action[1])
        else:
            problem = sell_problem(data, pos, player, action[1], action[2])
    if problem:
        return f"`{name}` is not legal now: {problem}"
    legal = [acts.names[i] for i in legal_actions(data, acts, pos)]
    shown = ", ".join(legal[:12]) + (", …" if len(legal) > 12 else "")
    return f"`{name}` is not legal at this `{decision}` decision of player {player}; legal: {shown}"
