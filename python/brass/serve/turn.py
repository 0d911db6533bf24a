"""The guided turn of the page of `brass serve`: every legal move of the player to move, in words and taken apart
(its kind, industry, places on the board, card), so the page can let a person choose an action, then a card or a
place, the options narrowing as they choose, without a copy of the rules in the page.

The engine asks for the card that pays for an action last (docs/actions.md), and only when more than one kind
in hand could pay; a person at the table picks the card first. So each move of an `action` decision is tried
on a copy of the position, its follow-up questions answered (the first choice, or stopping), up to the card: the
cards the engine then offers (or the one it took itself) are the cards that pay for it, and the money spent on
the way is its cost. The page holds a card chosen first and plays it when the engine asks."""

from __future__ import annotations

from typing import Any

import brass
from brass.serve.journal import no_round_end
from brass.serve.table import Names, discarded, mat, names

#: What the engine asks at each kind of decision, as the page says it.
PROMPTS = {
    "action": "Choose an action",
    "coal": "Take the coal from which mine? They are equally close",
    "iron": "Take the iron from which iron works?",
    "beer": "Take the beer from which brewery or merchant?",
    "link": "Lay a second rail link, or stop",
    "develop": "Develop a second tile, or stop",
    "sell": "Sell another tile, or stop",
    "card": "Discard which card for this action?",
    "remove": "You are in debt: remove which of your tiles?",
    "bonus": "The merchant's bonus: develop a tile for free, or not",
}

#: The action kinds as the page offers them, in this order.
KINDS = {
    "build": "Build",
    "link": "Link",
    "develop": "Develop",
    "sell": "Sell",
    "loan": "Loan",
    "scout": "Scout",
    "pass": "Pass",
}

STOPS = {
    "link": "No second link",
    "develop": "No second tile",
    "sell": "Stop selling",
    "bonus": "No free develop",
}


def source_words(words: Names, state: brass.State, space: str, resource: str) -> str:
    """Where a coal, iron or beer would come from: a tile (whose, how many left) or a merchant."""
    tile = state.board.get(space)
    if tile is None:
        return f"{resource.capitalize()} from the merchant in {words.location(space)}"
    whose = "your" if tile["owner"] == state.current_player else f"player {tile['owner']}'s"
    what = {"coal": "cubes", "iron": "cubes", "beer": "barrels"}.get(resource, "cubes")
    return (
        f"{resource.capitalize()} from {whose} {words.industry(tile['industry'])} in {words.location(space)} "
        f"({tile['cubes']} {what} left)"
    )


def option(words: Names, state: brass.State, action: int) -> dict[str, Any]:
    """One legal move taken apart: `kind` (its first word), the `industry`, the `places` of the board it names
    (spaces and lines, as the picture's `data-space` / `data-line`), the `card`, and `text` in words."""
    notation = state.game.action_name(action)
    kind, *args = notation.split()
    out: dict[str, Any] = {"id": action, "notation": notation, "kind": kind, "places": []}
    board = state.board
    if kind == "build":
        industry, space = args[0], args[1]
        out.update(industry=industry, places=[space], double="double" in args)
        out["text"] = f"{words.industry(industry).capitalize()} in {words.location(space)}"
        if "double" in args:
            out["text"] += ", paid with any two cards"
    elif kind == "link":
        out.update(places=[args[0]], text=f"{words.line(args[0])} ({state.era})")
    elif kind in ("develop",) and state.decision in ("action", "develop", "bonus"):
        out.update(industry=args[0], text=f"{words.industry(args[0]).capitalize()}")
        if state.decision == "bonus":
            out["text"] = f"Develop {words.a(args[0])} for free"
    elif kind == "sell":
        space, target = args
        tile = board.get(space, {})
        out.update(industry=tile.get("industry"), places=[space] + ([target] if target != "distant" else []))
        where = "the Distant Cotton Market" if target == "distant" else None
        if where is None and target.split("/")[0] in words.merchant_bonus:
            where = f"the merchant in {words.location(target)}"
        elif where is None:
            owner = board.get(target, {}).get("owner")
            where = f"the port in {words.location(target)}" + (
                "" if owner == state.current_player else f" (player {owner}'s)"
            )
        out["text"] = (
            f"{words.industry(tile.get('industry', 'tile')).capitalize()} in {words.location(space)} to {where}"
        )
    elif kind == "loan":
        out.update(amount=int(args[0]), text=f"Take a loan of £{args[0]}")
    elif kind == "scout":
        out["text"] = "Scout: discard cards for a wild location and a wild industry card"
    elif kind == "pass":
        out["text"] = "Pass"
    elif kind in ("coal", "iron", "beer"):
        out.update(places=[args[0]], text=source_words(words, state, args[0], kind))
    elif kind == "stop":
        out["text"] = STOPS.get(state.decision, "Stop")
    elif kind == "card":
        out.update(card=args[0], text=words.card(args[0]))
    elif kind == "remove":
        tile = board.get(args[0], {})
        out.update(places=[args[0]], industry=tile.get("industry"))
        what = f"{words.industry(tile.get('industry', 'tile'))} (level {tile.get('level')})"
        out["text"] = f"Your {what} in {words.location(args[0])}"
    else:
        out["text"] = notation
    return out


def explore(base: brass.State, action: int) -> dict[str, Any]:
    """What the engine does with an action up to its card, on a copy: the cards that may pay for it (`cards`: those
    it then asks to choose from, `card_asked`, or those it takes itself), the money it spends (`cost`; its
    follow-ups answered with the first choice, or by stopping), the level of a tile it builds."""
    p = base.current_player
    assert p is not None
    child = base.child(action)
    for _ in range(64):  # each follow-up question is asked a bounded number of times (docs/actions.md)
        if child.is_terminal or child.current_player != p or child.decision in ("card", "action"):
            break
        legal = child.legal_actions()
        names_ = [child.game.action_name(a) for a in legal]
        child.apply(legal[names_.index("stop")] if "stop" in names_ else legal[0])
    asked = child.current_player == p and child.decision == "card"
    if asked:
        cards = sorted({child.game.action_name(a).split()[1] for a in child.legal_actions()})
    else:
        cards = sorted(set(discarded(base.player(p), child.player(p))))
    out: dict[str, Any] = {
        "cards": cards,
        "card_asked": asked,
        "cost": child.player(p).money_spent - base.player(p).money_spent,
    }
    notation = base.game.action_name(action).split()
    if notation[0] == "build" and notation[2] in child.board:
        out["level"] = child.board[notation[2]]["level"]
    return out


def move_words(state: brass.State, action: int) -> str:
    """A legal move of `state` in words, standing on its own (`Build a coal mine in Belper`): the guided turn's
    words with the verb its step leaves out."""
    words = names(state.game.name)
    o = option(words, state, action)
    text, kind = str(o["text"]), o["kind"]
    lower = text[:1].lower() + text[1:]
    if kind == "build":
        return f"Build {words.a(o['industry'])}{text[len(words.industry(o['industry'])) :]}"
    if kind == "develop" and state.decision != "bonus":
        return f"Develop {words.a(o['industry'])}"
    verbs = {"link": "Link ", "sell": "Sell the ", "card": "Discard "}
    return verbs.get(kind, "") + (lower if kind == "sell" else text)


def turn(state: brass.State) -> dict[str, Any] | None:
    """The decision of the player to move, for the guided turn: what is asked (`prompt`), the `options` (every
    legal move, taken apart, each with the cards that pay for it and its cost at an `action` decision) and the
    action `kinds` offered, and the `places` the options name, in words; None when the game is over."""
    p = state.current_player
    if p is None:
        return None
    words = names(state.game.name)
    options = [option(words, state, a) for a in state.legal_actions()]
    kinds = []
    if state.decision in ("action", "bonus"):
        levels = {i["industry"]: i["next"]["level"] for i in mat(state, p)["industries"] if i["next"]}
        for o in options:
            if o["kind"] == "develop" and o.get("industry") in levels:
                o["text"] += f" (level {levels[o['industry']]})"
    if state.decision == "action":
        base = no_round_end(state)  # the cost of an action that ends the round is read before it ends
        for o in options:
            o.update(explore(base, o["id"]))
            if o["kind"] == "build" and "level" in o:
                o["text"] = o["text"].replace(" in ", f" (level {o['level']}) in ", 1)
        for kind, label in KINDS.items():
            count = sum(o["kind"] == kind for o in options)
            if count:
                kinds.append({"kind": kind, "label": label, "count": count})
    places = {place: words.place(place) for o in options for place in o["places"]}
    return {
        "player": p,
        "decision": state.decision,
        "places": places,
        "prompt": PROMPTS.get(state.decision, state.decision),
        "actions_left": state.actions_left,
        "kinds": kinds,
        "options": options,
    }
