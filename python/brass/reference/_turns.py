"""Turns, rounds and eras (L-8 … L-12, L-49 … L-54, C-4, R-5): whose decision it is, the end of an action, of a
turn, of a round (turn order, income, shortfall) and of an era (scoring, then the next era or the end)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cards import refill
from ._position import Position
from ._resources import income_level
from ._scoring import score_links, score_tiles
from ._setup import start_rail_era

if TYPE_CHECKING:
    from ._rules import Rules


# --- whose decision --------------------------------------------------------------------------------


def current_player(data: Rules, pos: Position) -> int | None:
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


def actions_per_turn(data: Rules, pos: Position) -> int:
    """L-8: 1 action per turn in the first Canal round, else 2."""
    if pos["era"] == "canal" and pos["round"] == 1:
        return data.first_round_actions
    return data.actions_per_turn


def own_tiles(pos: Position, player: int) -> list[int]:
    """L-11: the spaces of the player's industry tiles on the board."""
    return sorted(s for s, t in pos["board"].items() if t["owner"] == player)


# --- end of action and turn ------------------------------------------------------------------------


def end_action(data: Rules, pos: Position, player: int) -> None:
    """L-8, L-21: the action uses one action of the turn (a double build both); then the next action, or the
    end of the turn."""
    action = pos["action"]
    assert action is not None
    pos["actions_left"] -= 2 if action["double"] else 1
    pos["action"] = None
    pos["decision"] = "action"
    if pos["actions_left"] <= 0 or not any(pos["players"][player]["hand"].values()):
        end_turn(data, pos, player)


def end_turn(data: Rules, pos: Position, player: int) -> None:
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


def begin_turn(data: Rules, pos: Position) -> None:
    """L-8: every action discards a card, so a player who holds no card takes no action and their turn ends at
    once. (Never the case in a game dealt by the rules; it keeps hand-built positions playable.)"""
    player = pos["turn_order"][pos["turn"]]
    if not any(pos["players"][player]["hand"].values()):
        end_turn(data, pos, player)


# --- end of round (L-11, C-4) ------------------------------------------------------------------------


def is_last_round_of_game(data: Rules, pos: Position) -> bool:
    """L-11, L-54: the last round of the last era (Rail; Canal in the introductory game)."""
    return pos["era"] == data.last_era and pos["round"] == data.rounds


def end_round(data: Rules, pos: Position) -> None:
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
        for player in pos["turn_order"]:
            refill(data, pos, player)
        if not next_round_or_era(data, pos):
            return
        collect_income(data, pos)
    elif not is_last_round_of_game(data, pos):
        collect_income(data, pos)
    continue_shortfall(data, pos)


def collect_income(data: Rules, pos: Position) -> None:
    """L-11 step 2, C-4: each player in turn order receives their income level in £ (pays it when negative)."""
    for p in pos["turn_order"]:
        pos["players"][p]["money"] += income_level(data, pos, p)


def continue_shortfall(data: Rules, pos: Position) -> None:
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


def remove_for_shortfall(data: Rules, pos: Position, player: int, space: int) -> None:
    """L-11: remove one own tile (its cubes go back to the supply), receive floor(cost / 2)."""
    tile = pos["board"].pop(space)
    pos["players"][player]["money"] += data.tile(tile["industry"], tile["level"])["cost"] // 2


def finish_round(data: Rules, pos: Position) -> None:
    """After the shortfalls. Lancashire (L-12, R-5): after the era's last round, era scoring; else the next
    round. Classic Brass (C-4): the shortfalls opened the round (its number and era are already set), which now
    starts with its first turn."""
    if not data.income_at_round_start and not next_round_or_era(data, pos):
        return
    start_round(data, pos)


def next_round_or_era(data: Rules, pos: Position) -> bool:
    """L-12, C-4: after the era's last round the era is scored (and the next one set up); otherwise the round
    number advances. False when that ended the game."""
    if pos["round"] >= data.rounds:
        end_era(data, pos)
        return pos["decision"] != "over"
    pos["round"] += 1
    return True


def start_round(data: Rules, pos: Position) -> None:
    """The first turn of the round `pos["round"]` of `pos["era"]` (L-8: one action in the first Canal round)."""
    pos["turn"] = 0
    pos["decision"] = "action"
    pos["action"] = None
    pos["actions_left"] = actions_per_turn(data, pos)
    begin_turn(data, pos)


# --- end of era (L-49 … L-52, L-54) ----------------------------------------------------------------


def end_era(data: Rules, pos: Position) -> None:
    """L-49, L-50; then, after the last era of the game, the game's final scoring (Lancashire: L-52, and L-54 for
    the introductory game) and the end; otherwise the Rail set-up (L-51, C-3, L-56)."""
    score_links(data, pos)
    score_tiles(data, pos)
    if pos["era"] != data.last_era:
        start_rail_era(data, pos)
        return
    data.game.final_scoring(pos)
    pos["decision"] = "over"
    pos["turn"] = len(pos["players"])
    pos["actions_left"] = 0
    pos["action"] = None
