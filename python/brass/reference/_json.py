"""Canonical state JSON and its validation (docs/state-format.md).

`to_obj` turns a position into the documented object; `from_obj` checks every field (types, ranges, names,
counts against the configuration, rule invariants, decision consistency) and raises InvalidStateError
naming the first problem.
"""

from __future__ import annotations

import json

from brass._errors import ArgumentTypeError, InvalidStateError

from ._legal import (
    actions_per_turn,
    card_choices,
    coal_choices,
    current_player,
    further_developments,
    iron_choices,
    own_tiles,
    sales,
    second_links,
)
from ._rules import Rules

STATE_FORMAT = "brass-state/1"
DECISIONS = ("action", "coal", "iron", "link", "develop", "sell", "card", "remove", "over")
ACTION_KINDS = ("build", "link", "develop", "sell", "loan", "pass")
TOP_KEYS = {
    "format",
    "game",
    "rng",
    "era",
    "round",
    "turn_order",
    "turn",
    "actions_left",
    "decision",
    "action",
    "players",
    "board",
    "links",
    "coal_market",
    "iron_market",
    "dcm",
    "deck",
    "deck_tile",
    "removed",
}
# Sanity bounds on the unbounded counters, the same as the Rust loader's (found by a differential fuzz of
# from_json, docs/verification.md): no game comes near them, and a state outside them is rejected by both engines.
MONEY_MIN = -1000
COUNTER_MAX = 100_000
PLAYER_KEYS = {"money", "money_spent", "income_space", "vp", "hand", "discards", "mat", "links_left"}
TILE_KEYS = {"owner", "industry", "level", "flipped", "cubes"}
ACTION_KEYS = {"kind", "double", "target", "coal", "iron", "count", "cards", "first_card"}
GAME_KEYS = {"name", "players", "options", "data"}


def dumps(obj) -> str:
    """Canonical text: keys sorted, no insignificant white space."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_obj(data: Rules, players: int, options: dict) -> dict:
    """The configuration: the game's name (`brass` or `lancashire`), the options set (only those given as True,
    docs/classic.md) and the data tag (`lancashire/1` for both games: classic Brass plays on the same file)."""
    return {"name": data.game_name, "players": players, "options": dict(sorted(options.items())), "data": data.tag}


# --- writing ---------------------------------------------------------------------------------------


def to_obj(data: Rules, players: int, options: dict, pos: dict) -> dict:
    """The state object of docs/state-format.md."""
    action = pos["action"]
    if action is not None:
        target = action["target"]
        if target is not None:
            target = data.spaces[target].name if action["kind"] == "build" else data.lines[target].name
        action = {
            "kind": action["kind"],
            "double": action["double"],
            "target": target,
            "coal": action["coal"],
            "iron": action["iron"],
            "count": action["count"],
            "cards": None if action["cards"] is None else list(action["cards"]),
            "first_card": action["first_card"],
        }
    obj = {
        "format": STATE_FORMAT,
        "game": game_obj(data, players, options),
        "rng": str(pos["rng"]),
        "era": pos["era"],
        "round": pos["round"],
        "turn_order": list(pos["turn_order"]),
        "turn": pos["turn"],
        "actions_left": pos["actions_left"],
        "decision": pos["decision"],
        "action": action,
        "players": [
            {
                "money": p["money"],
                "money_spent": p["money_spent"],
                "income_space": p["income_space"],
                "vp": p["vp"],
                "hand": dict(p["hand"]),
                "discards": dict(p["discards"]),
                "mat": dict(p["mat"]),
                "links_left": p["links_left"],
            }
            for p in pos["players"]
        ],
        "board": {data.spaces[s].name: dict(t) for s, t in pos["board"].items()},
        "links": {data.lines[i].name: owner for i, owner in pos["links"].items()},
        "coal_market": pos["coal_market"],
        "iron_market": pos["iron_market"],
        "dcm": {
            "marker": pos["dcm"]["marker"],
            "pile": list(pos["dcm"]["pile"]),
            "discards": list(pos["dcm"]["discards"]),
        },
        "deck": list(pos["deck"]),
        "deck_tile": dict(pos["deck_tile"]),
        "removed": dict(pos["removed"]),
    }
    if data.first_build_once_per_game:  # C-6, R-14: classic Brass states only
        for p, written in zip(pos["players"], obj["players"], strict=True):
            written["built_industry"] = p["built_industry"]
    return obj


# --- reading ---------------------------------------------------------------------------------------


def fail(message: str):
    raise InvalidStateError(message)


def check_int(value, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        fail(f"{path} must be an integer, not {json.dumps(value)[:40]}")
    if lo is not None and value < lo:
        fail(f"{path} is {value}, below the minimum {lo}")
    if hi is not None and value > hi:
        fail(f"{path} is {value}, above the maximum {hi}")
    return value


def check_bool(value, path: str) -> bool:
    if not isinstance(value, bool):
        fail(f"{path} must be true or false")
    return value


def check_str(value, path: str, allowed=None) -> str:
    if not isinstance(value, str):
        fail(f"{path} must be a string")
    if allowed is not None and value not in allowed:
        shown = ", ".join(list(allowed)[:8]) + (", …" if len(allowed) > 8 else "")
        fail(f"{path} is {value!r}, expected one of: {shown}")
    return value


def check_dict(value, path: str, keys: set | None = None) -> dict:
    if not isinstance(value, dict):
        fail(f"{path} must be an object")
    if keys is not None:
        missing = sorted(keys - set(value))
        if missing:
            fail(f"{path} lacks the key {missing[0]!r}")
        extra = sorted(set(value) - keys)
        if extra:
            fail(f"{path} has an unknown key {extra[0]!r}")
    return value


def check_list(value, path: str) -> list:
    if not isinstance(value, list):
        fail(f"{path} must be a list")
    return value


def check_counts(value, path: str, kinds: list[str]) -> dict[str, int]:
    """A card-kind -> count object, zero counts omitted."""
    check_dict(value, path)
    for kind, count in value.items():
        check_str(kind, f"{path} key", kinds)
        check_int(count, f"{path}.{kind}", 1)
    return {k: value[k] for k in kinds if k in value}


def parse_text(text, what: str = "state JSON") -> object:
    """JSON from a str, UTF-8 bytes or an already parsed dict (written back to text first, so both engines read
    exactly the same thing); ArgumentTypeError for any other type."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            fail(f"{what}: the bytes are not UTF-8")
    elif isinstance(text, dict):
        try:
            text = json.dumps(text)
        except (TypeError, ValueError):
            fail(f"{what}: the dict is not a JSON object")
    elif not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be a str, bytes or dict, not {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=lambda c: fail(f"{c} is not allowed in a state"))
    except json.JSONDecodeError as e:
        fail(f"the state is not valid JSON: {e}")
    except RecursionError:
        fail("the state is nested too deeply")


def check_game(value, path: str = "game") -> tuple[str, int, dict]:
    """The configuration object: a known name, a supported player count, known options set to true (an option
    that is not set is not written, docs/classic.md), the data tag of the game's data file."""
    from brass._errors import ConfigError

    from ._catalog import check_options, data_file, names, player_counts
    from ._data import load

    check_dict(value, path, GAME_KEYS)
    name = check_str(value["name"], f"{path}.name", names())
    counts = player_counts(name)
    players = check_int(value["players"], f"{path}.players", min(counts), max(counts))
    if players not in counts:
        fail(f"{path}.players: {name} is played by {counts[0]}-{counts[-1]} players, not {players}")
    options = check_dict(value["options"], f"{path}.options")
    for key in sorted(options):
        if options[key] is not True:
            fail(f"{path}.options.{key} must be true: a state lists only the options that are set")
    try:
        options = check_options(name, players, options)
    except ConfigError as e:
        fail(f"{path}.options: {e}")
    check_str(value["data"], f"{path}.data", [load(data_file(name)).tag])
    return name, players, options


def from_obj(data: Rules, players: int, obj: dict) -> dict:
    """Validate a state object (its `game` already checked) and return the position."""
    check_dict(obj, "state", TOP_KEYS)
    check_str(obj["format"], "format", [STATE_FORMAT])
    rng_text = check_str(obj["rng"], "rng")
    if not rng_text.isascii() or not rng_text.isdigit() or (len(rng_text) > 1 and rng_text[0] == "0"):
        fail("rng must be a u64 written in decimal digits")
    rng = int(rng_text)
    if rng >= 1 << 64:
        fail("rng is above 2^64 - 1")
    rounds = data.rounds
    era = check_str(obj["era"], "era", ["canal", "rail"])
    if data.intro and era != "canal":
        fail("the introductory game has only the Canal Era (L-54)")
    rnd = check_int(obj["round"], "round", 1, rounds)
    order = check_list(obj["turn_order"], "turn_order")
    for i, p in enumerate(order):
        check_int(p, f"turn_order[{i}]", 0, players - 1)
    if sorted(order) != list(range(players)):
        fail(f"turn_order must list each of the {players} players once")
    turn = check_int(obj["turn"], "turn", 0, players)
    actions_left = check_int(obj["actions_left"], "actions_left", 0, data.actions_per_turn)
    decision = check_str(obj["decision"], "decision", DECISIONS)

    # players
    plist = check_list(obj["players"], "players")
    if len(plist) != players:
        fail(f"players has {len(plist)} entries, the game has {players} players")
    pos_players = []
    for i, p in enumerate(plist):
        path = f"players[{i}]"
        # C-6, R-14: classic Brass states may say whether the player has built an industry tile in this game.
        # States written before that key existed leave it out; it then reads as "has a tile on the board".
        optional_key = data.first_build_once_per_game and isinstance(p, dict) and "built_industry" in p
        check_dict(p, path, PLAYER_KEYS | {"built_industry"} if optional_key else PLAYER_KEYS)
        mat = check_dict(p["mat"], f"{path}.mat", set(data.industries))
        for ind in data.industries:
            check_int(mat[ind], f"{path}.mat.{ind}", 0, data.stack_size(ind))
        hand = check_counts(p["hand"], f"{path}.hand", data.card_kinds)
        if sum(hand.values()) > data.hand_size:
            fail(f"{path}.hand holds {sum(hand.values())} cards, more than {data.hand_size}")
        pos_players.append(
            {
                "money": check_int(p["money"], f"{path}.money", MONEY_MIN, COUNTER_MAX),
                "money_spent": check_int(p["money_spent"], f"{path}.money_spent", 0, COUNTER_MAX),
                "income_space": check_int(p["income_space"], f"{path}.income_space", 0, len(data.levels) - 1),
                "vp": check_int(p["vp"], f"{path}.vp", 0, COUNTER_MAX),
                "hand": hand,
                "discards": check_counts(p["discards"], f"{path}.discards", data.card_kinds),
                "mat": {ind: mat[ind] for ind in data.industries},
                "links_left": check_int(p["links_left"], f"{path}.links_left", 0, data.links),
            }
        )
        if data.first_build_once_per_game:
            pos_players[-1]["built_industry"] = (
                check_bool(p["built_industry"], f"{path}.built_industry") if optional_key else None
            )

    # board
    board = {}
    check_dict(obj["board"], "board")
    for name, t in obj["board"].items():
        check_str(name, "board key", data.space_by_name)
        path = f"board.{name}"
        space = data.space_by_name[name]
        check_dict(t, path, TILE_KEYS)
        owner = check_int(t["owner"], f"{path}.owner", 0, players - 1)
        industry = check_str(t["industry"], f"{path}.industry", data.industries)
        if industry not in data.spaces[space].icons:
            fail(f"{path}: {name} does not show {industry}")
        level = check_int(t["level"], f"{path}.level")
        if level not in data.tiles[industry] or not data.tiles[industry][level]["eras"]:
            fail(f"{path}: there is no buildable level {level} {industry} tile")
        if era == "rail" and level == 1:
            fail(f"{path}: level-1 tiles leave the board at the end of the Canal Era (L-51)")
        flipped = check_bool(t["flipped"], f"{path}.flipped")
        cubes = check_int(t["cubes"], f"{path}.cubes", 0, data.tile(industry, level)["cubes"])
        board[space] = {"owner": owner, "industry": industry, "level": level, "flipped": flipped, "cubes": cubes}

    # links
    links = {}
    check_dict(obj["links"], "links")
    for name, owner in obj["links"].items():
        check_str(name, "links key", data.line_by_name)
        line = data.lines[data.line_by_name[name]]
        links[line.index] = check_int(owner, f"links.{name}", 0, players - 1)
        if not (line.canal if era == "canal" else line.rail):
            fail(f"links.{name}: {name} is not a {era} line")

    market_size = len(data.market_prices["coal"])
    coal_market = check_int(obj["coal_market"], "coal_market", 0, market_size)
    iron_market = check_int(obj["iron_market"], "iron_market", 0, len(data.market_prices["iron"]))

    dcm = check_dict(obj["dcm"], "dcm", {"marker", "pile", "discards"})
    marker = check_int(dcm["marker"], "dcm.marker", 0, data.dcm_x)
    pile = [check_int(v, f"dcm.pile[{i}]", 0) for i, v in enumerate(check_list(dcm["pile"], "dcm.pile"))]
    discards = [
        check_int(v, f"dcm.discards[{i}]", 0) for i, v in enumerate(check_list(dcm["discards"], "dcm.discards"))
    ]
    if discards != sorted(discards):
        fail("dcm.discards must be sorted ascending")
    if sorted(pile + discards) != data.dcm_tiles():
        fail(f"dcm.pile and dcm.discards must hold exactly the DCM tiles {data.dcm_tiles()}")
    if data.dcm_recycles and discards:
        fail("dcm.discards stays empty in classic Brass: drawn tiles go to the bottom of the pile (C-11)")

    deck = [check_str(c, f"deck[{i}]", data.card_kinds) for i, c in enumerate(check_list(obj["deck"], "deck"))]
    deck_tile = check_counts(obj["deck_tile"], "deck_tile", data.card_kinds)
    removed = check_counts(obj["removed"], "removed", data.card_kinds)

    pos = {
        "rng": rng,
        "era": era,
        "round": rnd,
        "turn_order": list(order),
        "turn": turn,
        "actions_left": actions_left,
        "decision": decision,
        "action": None,
        "players": pos_players,
        "board": board,
        "links": links,
        "coal_market": coal_market,
        "iron_market": iron_market,
        "dcm": {"marker": marker, "pile": pile, "discards": discards},
        "deck": deck,
        "deck_tile": deck_tile,
        "removed": removed,
    }
    if data.first_build_once_per_game:
        for p, me in enumerate(pos_players):
            if me["built_industry"] is None:  # the documented default of an older state
                me["built_industry"] = any(t["owner"] == p for t in board.values())
            elif not me["built_industry"] and any(t["owner"] == p for t in board.values()):
                fail(f"players[{p}].built_industry is false, but the player has an industry tile on the board (C-6)")
    pos["action"] = check_action(data, pos, obj["action"])
    check_cards(data, players, pos)
    check_tiles(data, players, pos)
    check_decision(data, players, pos)
    return pos


def check_cards(data: Rules, players: int, pos: dict) -> None:
    """Hands, discards, draw pile, deck tile and removed cards hold exactly the configuration's deck (L-2, C-3,
    L-56); the deck tile holds its cards in the Canal Era only (L-3: `players` cards; L-56: 9 / 6; classic Brass:
    none); the cards removed unseen number those of the era (C-3: classic Brass 9 / 6 in the Canal Era; C-3 and
    L-56: 6 / 2 in the Rail Era; none otherwise)."""
    held = {k: 0 for k in data.card_kinds}
    for p in pos["players"]:
        for part in (p["hand"], p["discards"]):
            for k, n in part.items():
                held[k] += n
    for k in pos["deck"]:
        held[k] += 1
    for part in (pos["deck_tile"], pos["removed"]):
        for k, n in part.items():
            held[k] += n
    deck = data.deck()
    for k in data.card_kinds:
        if held[k] != deck.get(k, 0):
            fail(
                f"cards: {held[k]} `{k}` cards in hands, discards, deck, deck tile and removed; "
                f"the deck of this game has {deck.get(k, 0)}"
            )
    canal = pos["era"] == "canal"
    under = sum(pos["deck_tile"].values())
    expected = data.deck_tile_cards if canal else 0
    if under != expected:
        fail(
            f"deck_tile must hold {expected} cards in the {pos['era'].capitalize()} Era (L-3, L-51, L-56), not {under}"
        )
    gone = sum(pos["removed"].values())
    expected = data.removed_canal if canal else data.removed_rail
    if gone != expected:
        fail(f"removed must hold {expected} cards in the {pos['era'].capitalize()} Era (C-3, L-56), not {gone}")


def check_tiles(data: Rules, players: int, pos: dict) -> None:
    """Board tiles within the mats' taken tiles; cubes and flips consistent (L-20, L-28); one tile per player
    and location in the Canal Era (L-25); link tiles counted (L-37)."""
    under_construction = None
    if pos["decision"] in ("coal", "iron") and pos["action"]["kind"] == "build":
        under_construction = pos["action"]["target"]  # placed, its cubes / flip come after coal and iron
    for space, t in sorted(pos["board"].items()):
        name = f"board.{data.spaces[space].name}"
        if space == under_construction:
            if t["flipped"] or t["cubes"]:
                fail(f"{name}: the tile being built gets its cubes and flips only after its coal and iron")
            continue
        if t["industry"] in data.produces:
            if t["flipped"] != (t["cubes"] == 0):
                fail(f"{name}: a {t['industry']} is flipped exactly when it has no cube (L-20)")
        elif t["cubes"]:
            fail(f"{name}: a {t['industry']} holds no cubes")
        if t["industry"] in data.flips_when_built and not t["flipped"]:
            fail(f"{name}: a {t['industry']} flips as soon as it is built (L-28)")
    for p in range(players):
        mat = pos["players"][p]["mat"]
        for ind in data.industries:
            taken = data.stack[ind][: data.stack_size(ind) - mat[ind]]
            for level in sorted(
                set(t["level"] for t in pos["board"].values() if t["owner"] == p and t["industry"] == ind)
            ):
                on_board = sum(
                    1 for t in pos["board"].values() if t["owner"] == p and t["industry"] == ind and t["level"] == level
                )
                if on_board > taken.count(level):
                    fail(
                        f"board: player {p} has {on_board} level {level} {ind} tiles on the board, but only "
                        f"{taken.count(level)} have left the mat"
                    )
        placed = sum(1 for owner in pos["links"].values() if owner == p)
        if placed + pos["players"][p]["links_left"] != data.links:
            fail(
                f"players[{p}].links_left is {pos['players'][p]['links_left']} with {placed} links on the board; "
                f"they must add up to {data.links}"
            )
        if pos["era"] == "canal":
            for loc in data.locations:
                own = [s for s in data.location_spaces[loc] if s in pos["board"] and pos["board"][s]["owner"] == p]
                if len(own) > 1:
                    fail(f"board: player {p} has {len(own)} tiles in {loc} in the Canal Era (L-25)")


def check_action(data: Rules, pos: dict, value) -> dict | None:
    """The `action` object: null exactly at decisions action, remove and over; fields typed and consistent."""
    decision = pos["decision"]
    if decision in ("action", "remove", "over"):
        if value is not None:
            fail(f"action must be null at decision {decision!r}")
        return None
    if value is None:
        fail(f"action must describe the action under way at decision {decision!r}")
    check_dict(value, "action", ACTION_KEYS)
    kind = check_str(value["kind"], "action.kind", ACTION_KINDS)
    double = check_bool(value["double"], "action.double")
    coal = check_int(value["coal"], "action.coal", 0)
    iron = check_int(value["iron"], "action.iron", 0)
    count = check_int(value["count"], "action.count", 0)
    target = value["target"]
    if kind == "build":
        target = data.space_by_name[check_str(target, "action.target", data.space_by_name)]
    elif kind == "link":
        target = data.line_by_name[check_str(target, "action.target", data.line_by_name)]
    elif target is not None:
        fail(f"action.target must be null for a {kind} action")
    cards = value["cards"]
    if kind == "build" and not double:
        check_list(cards, "action.cards")
        cards = [check_str(c, f"action.cards[{i}]", data.card_kinds) for i, c in enumerate(cards)]
        if not cards or [data.card_order[c] for c in cards] != sorted({data.card_order[c] for c in cards}):
            fail("action.cards must list one or more distinct card kinds in card-kind order")
    elif cards is not None:
        fail("action.cards must be null except for a single build")
    first_card = value["first_card"]
    if first_card is not None:
        check_str(first_card, "action.first_card", data.card_kinds)
        if not (kind == "build" and double and decision == "card"):
            fail("action.first_card is set only while a double build's second card is asked")
    if double and kind != "build":
        fail("action.double is true only for a build")
    if coal and kind not in ("build", "link"):
        fail(f"a {kind} action takes no coal")
    if iron and kind not in ("build", "develop"):
        fail(f"a {kind} action takes no iron")
    limits = {"build": (0, 0), "link": (1, 2), "develop": (1, 2), "sell": (0, None), "loan": (0, 0), "pass": (0, 0)}
    lo, hi = limits[kind]
    if count < lo or (hi is not None and count > hi):
        fail(f"action.count is {count}, impossible for a {kind} action")
    if kind == "link" and pos["era"] == "canal" and count != 1:
        fail("only one canal is built per action (L-35)")
    return {
        "kind": kind,
        "double": double,
        "target": target,
        "coal": coal,
        "iron": iron,
        "count": count,
        "cards": cards,
        "first_card": first_card,
    }


def check_decision(data: Rules, players: int, pos: dict) -> None:
    """`decision` consistent with `turn`, `actions_left` and `action`, and it has a real choice."""
    decision = pos["decision"]
    turn, left, action = pos["turn"], pos["actions_left"], pos["action"]
    rounds = data.rounds
    for i, p in enumerate(pos["players"]):
        if p["money"] < 0 and decision != "remove":
            fail(f"players[{i}].money is negative outside a `remove` decision")
    if decision in ("remove", "over"):
        if turn != players or left != 0:
            fail(f"at decision {decision!r} turn must be {players} and actions_left 0")
        if decision == "over":
            if pos["era"] != data.last_era or pos["round"] != rounds:
                fail(f"the game is over only after the last {data.last_era.capitalize()} round (L-12, L-54)")
            return
        player = current_player(data, pos)
        if player is None:
            fail("decision `remove` but no player owes money")
        if len(own_tiles(pos, player)) < 2:
            fail(f"decision `remove` but player {player} has fewer than 2 tiles to choose from")
        return
    if turn >= players:
        fail(f"turn must be below {players} at decision {decision!r}")
    if not 1 <= left <= actions_per_turn(data, pos):
        fail(f"actions_left is {left}; this round has {actions_per_turn(data, pos)} actions per turn")
    player = current_player(data, pos)
    if decision == "action":
        if not any(pos["players"][player]["hand"].values()):
            fail(f"player {player} holds no card, so cannot take an action (L-8: one card per action)")
        return
    kind = action["kind"]
    if not card_choices(data, pos, player):
        fail("no card in the current player's hand can pay for the action under way")
    if action["double"] and left != 2:
        fail("a double build uses both actions of the turn, so actions_left must be 2")
    if kind == "build":
        tile = pos["board"].get(action["target"])
        if tile is None or tile["owner"] != player:
            fail("action.target must hold the tile the current player is building")
    if kind == "link" and pos["links"].get(action["target"]) != player:
        fail("action.target must hold the link the current player just placed")
    if decision == "coal":
        if kind not in ("build", "link") or action["coal"] < 1:
            fail("decision `coal` needs a build or link with coal still to take")
        if len(coal_choices(data, pos)) < 2:
            fail("decision `coal` needs two or more equally close coal mines")
    elif decision == "iron":
        if kind not in ("build", "develop") or action["iron"] < 1 or action["coal"]:
            fail("decision `iron` needs a build or develop with iron (and no coal) still to take")
        if len(iron_choices(data, pos)) < 2:
            fail("decision `iron` needs two or more iron works with iron")
    elif decision == "link":
        if kind != "link" or pos["era"] != "rail" or action["count"] != 1 or action["coal"]:
            fail("decision `link` follows the first rail of a Network action")
        if not second_links(data, pos, player):
            fail("decision `link` but no second rail is legal")
    elif decision == "develop":
        if kind != "develop" or action["count"] != 1 or action["iron"]:
            fail("decision `develop` follows the first tile of a Develop action")
        if not further_developments(data, pos, player):
            fail("decision `develop` but no second tile can be developed")
    elif decision == "sell":
        if kind != "sell" or action["count"] < 1:
            fail("decision `sell` follows a successful sale")
        if not sales(data, pos, player):
            fail("decision `sell` but no further sale is legal")
    elif decision == "card":
        if action["coal"] or action["iron"]:
            fail("decision `card` comes after all coal and iron are taken")
        if len(card_choices(data, pos, player)) < 2:
            fail("decision `card` needs two or more card kinds that can pay")
