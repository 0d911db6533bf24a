"""Resolving decisions and running the game forward (docs/actions.md "How each action resolves",
"After the action"; L-8 … L-12, L-20 … L-53).

`apply_decision` performs one legal id, then `advance`-style helpers take every automatic step (a step with
exactly one possible choice) until the next real decision or the end of the game.
"""

from __future__ import annotations

from bisect import insort

from ._actions import ActionSpace
from ._legal import (
    actions_per_turn,
    card_choices,
    coal_choices,
    current_player,
    first_link_price,
    further_developments,
    iron_choices,
    lowest_tile,
    own_tiles,
    paying_cards,
    sales,
    second_links,
)
from ._network import connected_to_trade_icon
from ._resources import (
    advance_income,
    buy_from_market,
    flip,
    income_level,
    sell_cubes_to_market,
    spend,
    take_cube,
)
from ._rng import SplitMix64
from ._rules import Rules

# --- setup -----------------------------------------------------------------------------------------


def new_position(data: Rules, seed: int) -> dict:
    """L-1 … L-6 and C-3 / L-56, in the RNG order of docs/state-format.md and docs/classic.md: shuffle the deck
    (the bottom cards go under the deck tile: `players` for Roxley, 9 / 6 with the classic deck, none in classic
    Brass); deal 8 to each seat; classic Brass: the next 9 / 6 cards from the top are removed unseen; shuffle the
    DCM tiles; then the first turn order (`first_turn_order`)."""
    players = data.players
    rng = SplitMix64(seed)
    deck = data.deck_list()
    rng.shuffle(deck)
    under = deck[len(deck) - data.deck_tile_cards :]
    deck = deck[: len(deck) - data.deck_tile_cards]
    hands = []
    for _ in range(players):
        hands.append(count_cards(deck[: data.hand_size]))
        deck = deck[data.hand_size :]
    removed = deck[: data.removed_canal]  # C-3
    deck = deck[data.removed_canal :]
    pile = data.dcm_tiles()
    rng.shuffle(pile)
    order = first_turn_order(data, rng)
    position = {
        "rng": rng.state,
        "era": "canal",
        "round": 1,
        "turn_order": order,
        "turn": 0,
        "actions_left": data.first_round_actions,
        "decision": "action",
        "action": None,
        "players": [
            {
                "money": data.money,
                "money_spent": 0,
                "income_space": data.start_space,
                "vp": 0,
                "hand": hands[p],
                "discards": {},
                "mat": {i: data.stack_size(i) for i in data.industries},
                "links_left": data.links,
            }
            for p in range(players)
        ],
        "board": {},
        "links": {},
        "coal_market": data.market_start["coal"],
        "iron_market": data.market_start["iron"],
        "dcm": {"marker": 0, "pile": pile, "discards": []},
        "deck": deck,
        "deck_tile": count_cards(under),
        "removed": count_cards(removed),
    }
    if data.first_build_once_per_game:
        for p in position["players"]:
            p["built_industry"] = False  # C-6, R-14
    return position


def first_turn_order(data: Rules, rng: SplitMix64) -> list[int]:
    """L-6: the players in a random order (Roxley's character tiles). C-17 (R-16): classic Brass draws a start
    player at random, and play goes clockwise from them, i.e. in seat order."""
    seats = list(range(data.players))
    if data.first_order_clockwise:
        first = rng.below(data.players)
        return seats[first:] + seats[:first]
    rng.shuffle(seats)
    return seats


def count_cards(cards: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def new_action(kind: str, **fields) -> dict:
    """The `action` object of docs/state-format.md for the action under way."""
    action = {
        "kind": kind,
        "double": False,
        "target": None,
        "coal": 0,
        "iron": 0,
        "count": 0,
        "cards": None,
        "first_card": None,
    }
    action.update(fields)
    return action


# --- one decision ----------------------------------------------------------------------------------


def apply_decision(data: Rules, acts: ActionSpace, pos: dict, aid: int) -> None:
    """Resolve one legal id at the current decision, then run every automatic step."""
    action = acts.actions[aid]
    decision = pos["decision"]
    player = current_player(data, pos)
    if decision == "action":
        start_action(data, pos, player, action)
    elif decision == "coal":
        take_cube(data, pos, action[1])
        pos["action"]["coal"] -= 1
        continue_consumption(data, pos, player)
    elif decision == "iron":
        take_cube(data, pos, action[1])
        pos["action"]["iron"] -= 1
        continue_consumption(data, pos, player)
    elif decision == "link":
        if action[0] == "stop":
            start_card_phase(data, pos, player)
        else:
            place_link(data, pos, player, action[1], data.link_costs["second_rail"])
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


def start_action(data: Rules, pos: dict, player: int, action: tuple) -> None:
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


def build(data: Rules, pos: dict, player: int, space: int, industry: str, double: bool) -> None:
    """L-26, L-29: note the paying cards, remove an overbuilt tile (its cubes go back to the supply), pay the
    cost, place the lowest mat tile unflipped; coal and iron follow (continue_consumption)."""
    tile = lowest_tile(data, pos, player, industry)
    cards = None if double else paying_cards(data, pos, player, space, industry)
    pos["action"] = new_action("build", double=double, target=space, coal=tile["coal"], iron=tile["iron"], cards=cards)
    pos["board"].pop(space, None)
    if data.first_build_once_per_game:
        pos["players"][player]["built_industry"] = True  # C-6, R-14: the first build of the game is behind them
    spend(pos, player, tile["cost"])
    pos["players"][player]["mat"][industry] -= 1
    pos["board"][space] = {"owner": player, "industry": industry, "level": tile["level"], "flipped": False, "cubes": 0}


def finish_build(data: Rules, pos: dict) -> None:
    """L-27, L-28: after coal and iron, a coal mine gets its cubes and sells what fits to the coal market if
    connected to a trade icon; an iron works always does so with the iron market; a shipyard flips."""
    space = pos["action"]["target"]
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


def continue_consumption(data: Rules, pos: dict, player: int) -> None:
    """L-16 … L-18: take each coal (closest mine; a tie is decision `coal`; none connected -> market), then each
    iron (two or more works -> decision `iron`; one -> it; none -> market); then what follows the action."""
    action = pos["action"]
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


def place_link(data: Rules, pos: dict, player: int, line: int, price: int) -> None:
    """L-35, L-36: pay, place the link tile; a rail then needs one coal from either end (continue_consumption)."""
    spend(pos, player, price)
    pos["links"][line] = player
    pos["players"][player]["links_left"] -= 1
    action = pos["action"]
    action["target"] = line
    action["count"] += 1
    action["coal"] = 1 if pos["era"] == "rail" else 0


# --- Develop ---------------------------------------------------------------------------------------


def develop_tile(data: Rules, pos: dict, player: int, industry: str) -> None:
    """L-39: the lowest tile of the industry leaves the mat (and the game); one iron is then taken."""
    pos["players"][player]["mat"][industry] -= 1
    pos["action"]["count"] += 1
    pos["action"]["iron"] = 1


# --- Sell ------------------------------------------------------------------------------------------


def sell(data: Rules, pos: dict, player: int, mill: int, target: int | None) -> None:
    """L-40 … L-44: one sale; after a success another sale may follow (decision `sell`); a DCM sale that
    reaches X ends the whole action with the mill unflipped."""
    if target is not None:
        flip(data, pos, target)  # L-41: the port first (its owner's income), then the mill
        flip(data, pos, mill)
        ok = True
    else:
        ok = sell_distant(data, pos, player, mill)
    if ok:
        pos["action"]["count"] += 1
    if ok and has_further_sale(data, pos, player):
        pos["decision"] = "sell"
    else:
        start_card_phase(data, pos, player)


def has_further_sale(data: Rules, pos: dict, player: int) -> bool:
    """docs/actions.md: decision `sell` comes only when another sale is legal."""
    return bool(sales(data, pos, player))


def sell_distant(data: Rules, pos: dict, player: int, mill: int) -> bool:
    """L-42, L-44 (R-3): draw the top DCM tile (reshuffling the discards into a new pile when the pile is empty),
    move the marker down; on X the sale fails; else gain the income beside the new space, then flip the mill.
    Where the drawn tile goes is `dcm_tile_drawn`."""
    dcm = pos["dcm"]
    if not dcm["pile"]:
        pile = sorted(dcm["discards"])
        rng = SplitMix64(pos["rng"])
        rng.shuffle(pile)
        pos["rng"] = rng.state
        dcm["pile"] = pile
        dcm["discards"] = []
    value = dcm["pile"].pop(0)
    dcm_tile_drawn(data, dcm, value)
    dcm["marker"] = min(data.dcm_x, dcm["marker"] + value)
    if dcm["marker"] >= data.dcm_x:
        return False
    advance_income(data, pos, player, data.dcm_income[dcm["marker"]])
    flip(data, pos, mill)
    return True


def dcm_tile_drawn(data: Rules, dcm: dict, value: int) -> None:
    """L-42: a drawn DCM tile is discarded (Lancashire); C-11: it goes to the bottom of the pile (classic Brass,
    so the discards stay empty and the pile always holds all 12 tiles)."""
    if data.dcm_recycles:
        dcm["pile"].append(value)
    else:
        insort(dcm["discards"], value)


# --- Loan ------------------------------------------------------------------------------------------


def take_loan(data: Rules, pos: dict, player: int, amount: int) -> None:
    """L-45: money + amount (not money spent); the income marker goes back amount/10 levels, to the highest
    space of the new level."""
    me = pos["players"][player]
    me["money"] += amount
    me["income_space"] = data.highest_space_of_level(income_level(data, pos, player) - amount // 10)


# --- cards and the end of the action ---------------------------------------------------------------


def start_card_phase(data: Rules, pos: dict, player: int) -> None:
    """The card is discarded last (docs/actions.md): asked when two or more kinds could pay, else automatic."""
    while True:
        choices = card_choices(data, pos, player)
        if len(choices) >= 2:
            pos["decision"] = "card"
            return
        if not discard_one(data, pos, player, choices[0]):
            return


def discard_card(data: Rules, pos: dict, player: int, kind: str) -> None:
    """Decision `card`: discard the chosen card, then continue (a double build's second card, or the end)."""
    if discard_one(data, pos, player, kind):
        start_card_phase(data, pos, player)


def discard_one(data: Rules, pos: dict, player: int, kind: str) -> bool:
    """L-8, L-21: move one card from hand to discards. Returns True when another card is still owed (the
    second card of a double build); otherwise ends the action."""
    me = pos["players"][player]
    me["hand"][kind] -= 1
    if me["hand"][kind] == 0:
        del me["hand"][kind]
    me["discards"][kind] = me["discards"].get(kind, 0) + 1
    action = pos["action"]
    if action["double"] and action["first_card"] is None:
        action["first_card"] = kind
        return True
    end_action(data, pos, player)
    return False


def end_action(data: Rules, pos: dict, player: int) -> None:
    """L-8, L-21: the action uses one action of the turn (a double build both); then the next action, or the
    end of the turn."""
    pos["actions_left"] -= 2 if pos["action"]["double"] else 1
    pos["action"] = None
    pos["decision"] = "action"
    if pos["actions_left"] <= 0 or not any(pos["players"][player]["hand"].values()):
        end_turn(data, pos, player)


def end_turn(data: Rules, pos: dict, player: int) -> None:
    """L-9: refill the hand after the turn (Lancashire; classic Brass refills at the end of the round, C-4); then
    the next player in turn order, or the end of the round."""
    if not data.income_at_round_start:
        refill(data, pos, player)
    pos["turn"] += 1
    pos["actions_left"] = 0
    if pos["turn"] >= len(pos["players"]):
        end_round(data, pos)
    else:
        pos["actions_left"] = actions_per_turn(data, pos)
        begin_turn(data, pos)


def refill(data: Rules, pos: dict, player: int) -> None:
    """L-9, C-4: draw from the top of the draw pile until the hand holds 8 cards or the pile is empty."""
    me = pos["players"][player]
    while pos["deck"] and sum(me["hand"].values()) < data.hand_size:
        card = pos["deck"].pop(0)
        me["hand"][card] = me["hand"].get(card, 0) + 1


def begin_turn(data: Rules, pos: dict) -> None:
    """L-8: every action discards a card, so a player who holds no card takes no action and their turn ends at
    once. (Never the case in a game dealt by the rules; it keeps hand-built positions playable.)"""
    player = pos["turn_order"][pos["turn"]]
    if not any(pos["players"][player]["hand"].values()):
        end_turn(data, pos, player)


# --- end of round (L-11, C-4) ------------------------------------------------------------------------


def is_last_round_of_game(data: Rules, pos: dict) -> bool:
    """L-11, L-54: the last round of the last era (Rail; Canal in the introductory game)."""
    return pos["era"] == data.last_era and pos["round"] == data.rounds


def end_round(data: Rules, pos: dict) -> None:
    """After the last turn of a round.

    Lancashire (L-11): 1. new turn order (least money spent first, ties keep their order; spent resets); 2. income
    in the new order, not after the last round of the game (L-54: the last Canal round in the introductory game);
    3. shortfalls (continue_shortfall); then era scoring after the era's last round (finish_round, R-5).

    Classic Brass (C-4, docs/classic.md "Round structure"): 1. new turn order; 2. every player refills to 8 in the
    new turn order; 3. after the era's last round, era scoring (and the Rail set-up after the Canal Era); 4. unless
    the game is over, the next round begins: income in the new turn order, then shortfalls, then its first turn."""
    pos["turn_order"] = sorted(pos["turn_order"], key=lambda p: pos["players"][p]["money_spent"])
    for p in pos["players"]:
        p["money_spent"] = 0
    pos["decision"] = "remove"
    pos["action"] = None
    if data.income_at_round_start:
        for p in pos["turn_order"]:
            refill(data, pos, p)
        if not next_round_or_era(data, pos):
            return
        collect_income(data, pos)
    elif not is_last_round_of_game(data, pos):
        collect_income(data, pos)
    continue_shortfall(data, pos)


def collect_income(data: Rules, pos: dict) -> None:
    """L-11 step 2, C-4: each player in turn order receives their income level in £ (pays it when negative)."""
    for p in pos["turn_order"]:
        pos["players"][p]["money"] += income_level(data, pos, p)


def continue_shortfall(data: Rules, pos: dict) -> None:
    """L-11 step 3: each player (turn order) who owes money removes own tiles worth floor(cost/2) each until the
    debt is covered (decision `remove` when two or more tiles; one is removed automatically); with no tile
    left, 1 VP per £1 still owed (never below 0). Then the round finishes."""
    for p in pos["turn_order"]:
        me = pos["players"][p]
        while me["money"] < 0:
            tiles = own_tiles(pos, p)
            if len(tiles) >= 2:
                pos["decision"] = "remove"
                return
            if tiles:
                remove_for_shortfall(data, pos, p, tiles[0])
            else:
                me["vp"] = max(0, me["vp"] + me["money"])
                me["money"] = 0
    finish_round(data, pos)


def remove_for_shortfall(data: Rules, pos: dict, player: int, space: int) -> None:
    """L-11: remove one own tile (its cubes go back to the supply), receive floor(cost / 2)."""
    tile = pos["board"].pop(space)
    pos["players"][player]["money"] += data.tile(tile["industry"], tile["level"])["cost"] // 2


def finish_round(data: Rules, pos: dict) -> None:
    """After the shortfalls. Lancashire (L-12, R-5): after the era's last round, era scoring; else the next
    round. Classic Brass (C-4): the shortfalls opened the round (its number and era are already set), which now
    starts with its first turn."""
    if not data.income_at_round_start and not next_round_or_era(data, pos):
        return
    start_round(data, pos)


def next_round_or_era(data: Rules, pos: dict) -> bool:
    """L-12, C-4: after the era's last round the era is scored (and the next one set up); otherwise the round
    number advances. False when that ended the game."""
    if pos["round"] >= data.rounds:
        end_era(data, pos)
        return pos["decision"] != "over"
    pos["round"] += 1
    return True


def start_round(data: Rules, pos: dict) -> None:
    """The first turn of the round `pos["round"]` of `pos["era"]` (L-8: one action in the first Canal round)."""
    pos["turn"] = 0
    pos["decision"] = "action"
    pos["action"] = None
    pos["actions_left"] = actions_per_turn(data, pos)
    begin_turn(data, pos)


# --- end of era (L-49 … L-52, L-54) ----------------------------------------------------------------


def link_icons(data: Rules, pos: dict, location: str) -> int:
    """L-49: link icons of a location: the printed ones plus one per flipped industry tile (any owner)."""
    flipped = sum(1 for s in data.location_spaces[location] if s in pos["board"] and pos["board"][s]["flipped"])
    return data.printed_link_icons[location] + flipped


def score_links(data: Rules, pos: dict) -> None:
    """L-49: each link scores its owner 1 VP per link icon at its two ends; all links are removed and the
    link tiles go back to their owners (lead's ruling, Romanian seed)."""
    for line_index, owner in sorted(pos["links"].items()):
        pos["players"][owner]["vp"] += sum(link_icons(data, pos, end) for end in data.lines[line_index].ends)
    for owner in pos["links"].values():
        pos["players"][owner]["links_left"] += 1
    pos["links"] = {}


def score_tiles(data: Rules, pos: dict) -> None:
    """L-50: each flipped industry tile scores its VP to its owner (R-11: classic values in classic Brass);
    unflipped tiles score nothing."""
    for tile in pos["board"].values():
        if tile["flipped"]:
            pos["players"][tile["owner"]]["vp"] += data.tile_vp(tile["industry"], tile["level"])


def end_era(data: Rules, pos: dict) -> None:
    """L-49, L-50; then, after the last era of the game, the final scoring and the end (L-52 for the Rail Era;
    L-54 for the introductory game); otherwise the Rail set-up (L-51, C-3, L-56)."""
    score_links(data, pos)
    score_tiles(data, pos)
    if pos["era"] != data.last_era:
        start_rail_era(data, pos)
        return
    if pos["era"] == "rail":
        for p in pos["players"]:
            p["vp"] += p["money"] // 10  # L-52
    if data.intro:
        intro_scoring(data, pos)
    pos["decision"] = "over"
    pos["turn"] = len(pos["players"])
    pos["actions_left"] = 0
    pos["action"] = None


INTRO_MONEY_PER_VP = 4  # L-54: 1 VP per full £4 …
INTRO_MONEY_VP_MAX = 15  # … at most 15
INTRO_DOUBLE_FROM_LEVEL = 2  # L-54: flipped tiles of level 2 or more score a second time


def intro_scoring(data: Rules, pos: dict) -> None:
    """L-54, after Canal scoring: each player gains, in this order, 1 VP per full £4 (at most 15); VP equal to the
    income level (a negative level subtracts; never below 0, R-8); the VP of each of their flipped tiles of level
    2 or more a second time."""
    for player, me in enumerate(pos["players"]):
        me["vp"] += min(INTRO_MONEY_VP_MAX, me["money"] // INTRO_MONEY_PER_VP)
        me["vp"] = max(0, me["vp"] + income_level(data, pos, player))
        for tile in pos["board"].values():
            if tile["owner"] == player and tile["flipped"] and tile["level"] >= INTRO_DOUBLE_FROM_LEVEL:
                me["vp"] += data.tile_vp(tile["industry"], tile["level"])


def start_rail_era(data: Rules, pos: dict) -> None:
    """L-51 in the RNG order of docs/state-format.md and docs/classic.md: remove level-1 tiles (cubes to the
    supply); new DCM pile, marker to the top; the whole deck shuffled (deck tile, discards and removed cards: every
    card); 8 cards to each seat; then the next `removed_rail` cards from the top are removed unseen (C-3, L-56).
    The turn order carries over. The round itself is started by the caller (Lancashire at once; classic Brass
    after the income of Rail round 1, C-4)."""
    pos["board"] = {s: t for s, t in pos["board"].items() if t["level"] != 1}
    rng = SplitMix64(pos["rng"])
    pile = data.dcm_tiles()
    rng.shuffle(pile)
    pos["dcm"] = {"marker": 0, "pile": pile, "discards": []}
    deck = data.deck_list()
    rng.shuffle(deck)
    for p in pos["players"]:
        p["hand"] = count_cards(deck[: data.hand_size])
        p["discards"] = {}
        deck = deck[data.hand_size :]
    pos["rng"] = rng.state
    pos["removed"] = count_cards(deck[: data.removed_rail])
    pos["deck"] = deck[data.removed_rail :]
    pos["deck_tile"] = {}
    pos["era"] = "rail"
    pos["round"] = 1


# --- the winners (L-53) ----------------------------------------------------------------------------


def ranking_key(data: Rules, pos: dict, player: int) -> tuple:
    """L-53, R-4: VP, then income level, then money; players equal on all three share the win. Two markers on
    different spaces of the same income level are equal: the space is not a tie-break (seed 004).
    C-15 (classic Brass): VP, then income level, then money, then the earlier place in the next turn order (the
    final state's `turn_order`), so there is always one winner."""
    p = pos["players"][player]
    key = (p["vp"], income_level(data, pos, player), p["money"])
    if data.classic_tie_break:
        return key + (-pos["turn_order"].index(player),)
    return key


def winners(data: Rules, pos: dict) -> list[int]:
    """L-53, C-15: the players with the best ranking key; several when still tied (shared win, Lancashire only);
    [] before the end."""
    if pos["decision"] != "over":
        return []
    keys = [ranking_key(data, pos, p) for p in range(len(pos["players"]))]
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]
