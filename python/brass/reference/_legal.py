"""Which action ids are legal now (docs/actions.md, "Decisions" and "When each action id is legal").

Every `*_problem` function returns None when the action is legal, else a sentence saying why not; the
sentence becomes the IllegalActionError message. Everything is recomputed from the position each time.
"""

from __future__ import annotations

from ._actions import ActionSpace
from ._network import (
    are_connected,
    connected_to_trade_icon,
    has_anything_on_board,
    network,
)
from ._resources import (
    closest_coal_mines,
    connected_coal_cubes,
    income_level,
    iron_cubes_on_board,
    market_cost,
    market_price,
    tiles_with_cubes,
)
from ._rules import Rules

# A fact of the rules text that the data file does not carry.
LOAN_BAN_ROUNDS = 4  # L-46: no loans in the final 4 rounds of the Rail Era


# --- whose decision --------------------------------------------------------------------------------


def current_player(data: Rules, pos: dict) -> int | None:
    """The player to decide: the turn's player; during `remove` the first player in turn order who owes
    money (L-11); None when the game is over."""
    if pos["decision"] == "over":
        return None
    if pos["decision"] == "remove":
        for p in pos["turn_order"]:
            if pos["players"][p]["money"] < 0:
                return p
        return None
    return pos["turn_order"][pos["turn"]]


def actions_per_turn(data: Rules, pos: dict) -> int:
    """L-8: 1 action per turn in the first Canal round, else 2."""
    if pos["era"] == "canal" and pos["round"] == 1:
        return data.first_round_actions
    return data.actions_per_turn


# --- Build (L-21 … L-33) ---------------------------------------------------------------------------


def lowest_tile(data: Rules, pos: dict, player: int, industry: str) -> dict | None:
    """L-23: the lowest-level tile of an industry on the player's mat (None if the stack is empty)."""
    level = data.lowest_level(industry, pos["players"][player]["mat"][industry])
    return None if level is None else data.tile(industry, level)


def tile_era_problem(data: Rules, pos: dict, player: int, industry: str) -> str | None:
    """L-23: the lowest tile must exist and be buildable in this era (level 1 Canal only, shipyard 2 Rail
    only, shipyard 0 never)."""
    tile = lowest_tile(data, pos, player, industry)
    if tile is None:
        return f"you have no {industry} tile left on your mat"
    if pos["era"] not in tile["eras"]:
        when = " and ".join(tile["eras"]) + " era" if tile["eras"] else "no era (develop it away)"
        return f"your lowest {industry} tile is level {tile['level']}, which can be built only in the {when}"
    return None


def canonical_space(data: Rules, pos: dict, location: str, industry: str) -> int | None:
    """L-24 (R-1): the undeveloped space of `location` a new `industry` tile goes to: the first space showing
    only that icon if any is free, else the first free space showing the icon with another."""
    free = [s for s in data.location_spaces[location] if industry in data.spaces[s].icons and s not in pos["board"]]
    only = [s for s in free if data.spaces[s].icons == (industry,)]
    return (only or free or [None])[0]


def overbuild_problem(data: Rules, pos: dict, player: int, space: int, industry: str) -> str | None:
    """L-29, L-30: may the player's lowest `industry` tile replace the tile on `space`?"""
    old = pos["board"][space]
    name = data.spaces[space].name
    if old["industry"] != industry:
        return f"{name} holds a {old['industry']}, not a {industry}"
    new_level = lowest_tile(data, pos, player, industry)["level"]
    if old["level"] >= new_level:
        return f"the level {old['level']} {industry} on {name} is not lower than your level {new_level} tile"
    if old["owner"] == player:
        return None
    resource = data.produces.get(industry)
    if resource not in ("coal", "iron"):
        return f"only coal mines and iron works of another player can be overbuilt, not a {industry} (L-30)"
    if tiles_with_cubes(data, pos, resource) or pos[f"{resource}_market"] > 0:
        return f"{resource} is still left on the board or in the {resource} market (L-30)"
    return None


def space_problem(data: Rules, pos: dict, player: int, space: int, industry: str) -> str | None:
    """Condition 2 of BUILD: the canonical free space (L-24) or an overbuildable tile (L-29, L-30)."""
    s = data.spaces[space]
    if industry not in s.icons:
        return f"{s.name} does not show {industry}"
    if space in pos["board"]:
        return overbuild_problem(data, pos, player, space, industry)
    canon = canonical_space(data, pos, s.location, industry)
    if canon != space:
        return f"a new {industry} in {s.location} goes on {data.spaces[canon].name} first (L-24)"
    return None


def canal_location_problem(data: Rules, pos: dict, player: int, space: int) -> str | None:
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


def paying_cards(data: Rules, pos: dict, player: int, space: int, industry: str, net=None) -> list[str]:
    """L-21, L-22: card kinds in hand that pay for a single build of `industry` on `space`, in card order:
    the location card; the industry card if the location is in the network (or reached by the virtual link,
    `industry_card_reaches`), or as a first build on an undeveloped space (`is_first_build`)."""
    hand = pos["players"][player]["hand"]
    location = data.spaces[space].location
    kinds = []
    if hand.get(location):
        kinds.append(location)
    if hand.get(industry):
        if net is None:
            net = network(data, pos, player)
        first_build = is_first_build(data, pos, player) and space not in pos["board"]
        if industry_card_reaches(data, net, location) or first_build:
            kinds.append(industry)
    return sorted(kinds, key=data.card_order.__getitem__)


def is_first_build(data: Rules, pos: dict, player: int) -> bool:
    """Would the player's next build be their first, so that an industry card may build anywhere?
    L-22 (Lancashire): the player has no industry tile and no link on the board (R-2).
    C-6 (classic Brass, R-14): the player has not yet built an industry tile in this game; having nothing on the
    board again after the Canal Era removed the level-1 tiles does not count."""
    if data.first_build_once_per_game:
        return not pos["players"][player]["built_industry"]
    return not has_anything_on_board(pos, player)


def industry_card_reaches(data: Rules, net: set[str], location: str) -> bool:
    """L-21: an industry card builds in the player's network. C-7 (classic Brass) and L-55 (option): with the
    virtual link, Birkenhead counts as in the network when Liverpool is, and vice versa (R-9: both directions).
    Only this card condition sees it: it is not a link (no coal, no sale, no link placement, no scoring) and not
    presence for the first-build exception."""
    if location in net:
        return True
    ends = data.virtual_link
    if ends is not None and location in ends:
        other = ends[1] if location == ends[0] else ends[0]
        return other in net
    return False


def build_resources_problem(data: Rules, pos: dict, player: int, space: int, industry: str) -> str | None:
    """L-16 … L-19, L-26, L-33: with the tile placed (an overbuilt tile and its cubes removed first), every coal
    comes from a connected mine or the market (market needs a trade-icon connection, L-15), every iron from a
    works or the market, and the player's money covers the cost plus all market purchases."""
    tile = lowest_tile(data, pos, player, industry)
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


def build_problem(data: Rules, pos: dict, player: int, space: int, industry: str, double: bool, net=None):
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


def link_problem(data: Rules, pos: dict, player: int, line_index: int, price: int, net=None) -> str | None:
    """L-34 … L-37: a link tile left, an empty line of the era's kind, an end in the network, money for the
    price and (rail) one coal measured from both ends of the new link (L-16, L-17)."""
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
    if net.isdisjoint(line.ends):
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


def first_link_price(data: Rules, pos: dict) -> int:
    """L-35, L-36: a canal, or the first rail of the action (data `link_costs`)."""
    return data.link_costs["canal"] if pos["era"] == "canal" else data.link_costs["rail"]


# --- Develop (L-39) --------------------------------------------------------------------------------


def develop_problem(data: Rules, pos: dict, player: int, industry: str) -> str | None:
    """L-39, L-18: a tile of the industry on the mat (any level) and one iron from a works or the market."""
    me = pos["players"][player]
    if me["mat"][industry] <= 0:
        return f"you have no {industry} tile left on your mat"
    if iron_cubes_on_board(data, pos) == 0 and me["money"] < market_price(data, pos, "iron"):
        return f"iron costs £{market_price(data, pos, 'iron')} and you have £{me['money']}"
    return None


# --- Sell (L-40 … L-44) ----------------------------------------------------------------------------


def sell_problem(data: Rules, pos: dict, player: int, mill: int, target: int | None) -> str | None:
    """L-40 … L-42: your unflipped mill, and an unflipped connected port (any owner), or the Distant Cotton
    Market when its marker is not on X, a DCM tile exists and the mill connects to a trade icon."""
    tile = pos["board"].get(mill)
    mill_name = data.spaces[mill].name
    if tile is None or tile["industry"] not in data.sold or tile["owner"] != player:
        return f"{mill_name} does not hold a cotton mill of yours"
    if tile["flipped"]:
        return f"the cotton mill on {mill_name} is already sold"
    mill_loc = data.spaces[mill].location
    if target is None:
        dcm = pos["dcm"]
        if dcm["marker"] >= data.dcm_x:
            return "the Distant Cotton Market marker is on X for the rest of the era (L-42)"
        if not dcm["pile"] and not dcm["discards"]:
            return "there is no Distant Cotton Market tile"
        if not connected_to_trade_icon(data, pos, [mill_loc]):
            return f"{mill_loc} is not connected to a market trade icon (L-42, L-15)"
        return None
    port = pos["board"].get(target)
    port_name = data.spaces[target].name
    if port is None or port["industry"] not in data.port_industries:
        return f"{port_name} does not hold a port"
    if port["flipped"]:
        return f"the port on {port_name} is already used"
    if not are_connected(data, pos, mill_loc, data.spaces[target].location):
        return f"{mill_loc} is not connected to {data.spaces[target].location} (L-41)"
    return None


# --- Loan (L-45, L-46) -----------------------------------------------------------------------------


def loan_problem(data: Rules, pos: dict, player: int, amount: int) -> str | None:
    """L-45: the income level may not go below -10; then `loan_period_problem` (L-46 / C-5)."""
    level = income_level(data, pos, player)
    lowest = data.lowest_income_level
    if level - amount // 10 < lowest:
        return f"a £{amount} loan would take your income level from {level} below {lowest} (L-45)"
    return loan_period_problem(data, pos)


def loan_period_problem(data: Rules, pos: dict) -> str | None:
    """L-46: no loans in the last 4 rounds of the Rail Era (Lancashire). C-5: no loans in the Rail Era once the
    draw pile is empty (classic Brass)."""
    if pos["era"] != "rail":
        return None
    if data.loans_end_with_the_deck:
        if not pos["deck"]:
            return "no loans in the Rail Era once the draw pile is empty (C-5)"
        return None
    if pos["round"] > data.rounds - LOAN_BAN_ROUNDS:
        return f"no loans in the last {LOAN_BAN_ROUNDS} rounds of the Rail Era (L-46)"
    return None


# --- choices of the follow-up decisions ------------------------------------------------------------


def coal_consumers(data: Rules, pos: dict) -> list[str]:
    """L-16: where the coal of the action under way goes: the build location, or both ends of the link."""
    action = pos["action"]
    if action["kind"] == "build":
        return [data.spaces[action["target"]].location]
    line = data.lines[action["target"]]
    return list(line.ends)


def coal_choices(data: Rules, pos: dict) -> list[int]:
    """L-16: the closest connected coal mines with coal (a decision only when two or more are tied).
    C-14 (classic Brass, R-15): a rail's coal goes to the end the player chooses, and the closest source to *that*
    end applies; so every mine that is closest to one of the two ends is a possible source."""
    consumers = coal_consumers(data, pos)
    if pos["action"]["kind"] == "link" and data.rail_coal_to_chosen_end:
        choices = set()
        for end in consumers:
            choices.update(closest_coal_mines(data, pos, [end]))
        return sorted(choices)
    return closest_coal_mines(data, pos, consumers)


def iron_choices(data: Rules, pos: dict) -> list[int]:
    """L-18: every iron works with iron (a decision only when there are two or more)."""
    return tiles_with_cubes(data, pos, "iron")


def second_links(data: Rules, pos: dict, player: int) -> list[int]:
    """L-36: the lines a second rail of this action may go on (£10 more, and its own coal)."""
    if pos["era"] != "rail":
        return []
    net = network(data, pos, player)
    price = data.link_costs["second_rail"]
    return [line.index for line in data.lines if link_problem(data, pos, player, line.index, price, net) is None]


def further_developments(data: Rules, pos: dict, player: int) -> list[str]:
    """L-39: the industries a second tile of this Develop may come from."""
    return [i for i in data.industries if develop_problem(data, pos, player, i) is None]


def sales(data: Rules, pos: dict, player: int) -> list[tuple[int, int | None]]:
    """L-40 … L-42: every legal (mill, target) sale now; target None is the Distant Cotton Market."""
    board = pos["board"]
    mills = sorted(
        s for s, t in board.items() if t["industry"] in data.sold and t["owner"] == player and not t["flipped"]
    )
    ports = sorted(s for s, t in board.items() if t["industry"] in data.port_industries and not t["flipped"])
    return [(m, t) for m in mills for t in ports + [None] if sell_problem(data, pos, player, m, t) is None]


def legal_sales(data: Rules, acts: ActionSpace, pos: dict, player: int) -> list[int]:
    """The SELL ids legal now."""
    return [acts.id("sell", m, t) for m, t in sales(data, pos, player)]


def card_choices(data: Rules, pos: dict, player: int) -> list[str]:
    """L-21 and docs/actions.md "Cards": single build — the kinds that could pay when it was chosen; double
    build — an unordered pair, lower kind first; any other action — any kind in hand."""
    hand = pos["players"][player]["hand"]
    kinds = [k for k in data.card_kinds if hand.get(k)]
    action = pos["action"]
    if action["kind"] == "build" and not action["double"]:
        return [k for k in action["cards"] if hand.get(k)]
    if action["kind"] == "build" and action["double"]:
        if action["first_card"] is None:
            return [k for i, k in enumerate(kinds) if hand[k] >= 2 or i + 1 < len(kinds)]
        first = data.card_order[action["first_card"]]
        return [k for k in kinds if data.card_order[k] >= first]
    return kinds


def own_tiles(pos: dict, player: int) -> list[int]:
    """L-11: the spaces of the player's industry tiles on the board."""
    return sorted(s for s, t in pos["board"].items() if t["owner"] == player)


# --- the legal ids ----------------------------------------------------------------------------------


def action_problem(data: Rules, acts: ActionSpace, pos: dict, player: int, action: tuple, net=None):
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
    if kind == "pass":
        return None
    return f"a `{kind}` id is not an answer to the decision `action`"


def legal_actions(data: Rules, acts: ActionSpace, pos: dict) -> list[int]:
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
            if action[0] in ("coal", "iron", "stop", "card", "remove"):
                break
            if action_problem(data, acts, pos, player, action, net) is None:
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
    if decision == "card":
        return sorted(acts.id("card", k) for k in card_choices(data, pos, player))
    if decision == "remove":
        return sorted(acts.id("remove", s) for s in own_tiles(pos, player))
    raise AssertionError(decision)


def why_illegal(data: Rules, acts: ActionSpace, pos: dict, aid: int) -> str:
    """A sentence for the IllegalActionError of an id that is not in legal_actions()."""
    name = acts.names[aid]
    decision = pos["decision"]
    if decision == "over":
        return f"`{name}` is not legal: the game is over"
    player = current_player(data, pos)
    action = acts.actions[aid]
    if decision == "action":
        problem = action_problem(data, acts, pos, player, action)
        if problem:
            return f"`{name}` is not legal now: {problem}"
    elif decision in ("link", "develop", "sell") and action[0] == decision:
        if decision == "link":
            problem = link_problem(data, pos, player, action[1], data.link_costs["second_rail"])
        elif decision == "develop":
            problem = develop_problem(data, pos, player, action[1])
        else:
            problem = sell_problem(data, pos, player, action[1], action[2])
        if problem:
            return f"`{name}` is not legal now: {problem}"
    legal = [acts.names[i] for i in legal_actions(data, acts, pos)]
    shown = ", ".join(legal[:12]) + (", …" if len(legal) > 12 else "")
    return f"`{name}` is not legal at this `{decision}` decision of player {player}; legal: {shown}"
