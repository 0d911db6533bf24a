"""Canonical state JSON and its loader (docs/state-format.md): the shared sections.

`to_obj` turns a position into the documented object; `from_obj` checks every field of the shared sections (types,
ranges, names, counts against the configuration), lets the game module read its own sections (Lancashire: `dcm`,
`deck_tile`, `_lancashire.py`), then checks the invariants (`_invariants.py`), and raises InvalidStateError naming
the first problem.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from brass._errors import ArgumentTypeError, ConfigError

from ._catalog import check_options, counts_text, data_file, names, player_counts
from ._checks import check_bool, check_counts, check_dict, check_int, check_list, check_str, fail
from ._data import load
from ._invariants import check_cards, check_decision, check_tiles
from ._position import ActionPos, PlayerPos, Position, TilePos

if TYPE_CHECKING:
    from ._rules import Rules

STATE_FORMAT = "brass-state/1"
# The top-level keys every game's state has; the game module adds its own (`state_keys`).
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
    "deck",
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


def dumps(obj: object) -> str:
    """Canonical text: keys sorted, no insignificant white space."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_obj(data: Rules, players: int, options: dict[str, bool]) -> dict[str, Any]:
    """The configuration: the game's name (`brass` or `lancashire`), the options set (only those given as True,
    docs/classic.md) and the data tag (`lancashire/1` for both games: classic Brass plays on the same file)."""
    return {"name": data.game_name, "players": players, "options": dict(sorted(options.items())), "data": data.tag}


# --- writing ---------------------------------------------------------------------------------------


def to_obj(data: Rules, players: int, options: dict[str, bool], pos: Position) -> dict[str, Any]:
    """The state object of docs/state-format.md."""
    action: dict[str, Any] | None = None
    under_way = pos["action"]
    if under_way is not None:
        index = under_way["target"]
        target = None
        if index is not None:  # a line for a link, else a space (a build's, the tile of a sale under way)
            target = data.lines[index].name if under_way["kind"] == "link" else data.spaces[index].name
        action = {
            "kind": under_way["kind"],
            "double": under_way["double"],
            "target": target,
            "coal": under_way["coal"],
            "iron": under_way["iron"],
            "count": under_way["count"],
            "cards": None if under_way["cards"] is None else list(under_way["cards"]),
            "first_card": under_way["first_card"],
        }
        # The game's own keys (Birmingham, docs/birmingham.md: beer, merchant, merchant_beer).
        keys = data.game.action_keys
        if "beer" in keys:
            action["beer"] = under_way["beer"]
        if "merchant" in keys:
            merchant = under_way["merchant"]
            action["merchant"] = None if merchant is None else sale_target_words(data)[merchant]
        if "merchant_beer" in keys:
            action["merchant_beer"] = under_way["merchant_beer"]
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
        "players": [write_player(data, p) for p in pos["players"]],
        "board": {data.spaces[s].name: dict(t) for s, t in pos["board"].items()},
        "links": {data.lines[i].name: owner for i, owner in pos["links"].items()},
        "coal_market": pos["coal_market"],
        "iron_market": pos["iron_market"],
        "deck": list(pos["deck"]),
        "removed": dict(pos["removed"]),
    }
    obj.update(data.game.write_sections(pos))
    return obj


def sale_target_words(data: Rules) -> dict[Any, str]:
    """Sale target -> its word in the notation (`oxford/2`)."""
    return dict(data.game.sale_targets())


def write_player(data: Rules, p: PlayerPos) -> dict[str, Any]:
    written = {
        "money": p["money"],
        "money_spent": p["money_spent"],
        "income_space": p["income_space"],
        "vp": p["vp"],
        "hand": dict(p["hand"]),
        "discards": dict(p["discards"]),
        "mat": dict(p["mat"]),
        "links_left": p["links_left"],
    }
    if data.first_build_once_per_game:  # C-6, R-14: classic Brass states only
        written["built_industry"] = p["built_industry"]
    return written


# --- reading ---------------------------------------------------------------------------------------


def parse_text(text: object, what: str = "state JSON") -> Any:
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
    assert isinstance(text, str)
    try:
        return json.loads(text, parse_constant=lambda c: fail(f"{c} is not allowed in a state"))
    except json.JSONDecodeError as e:
        fail(f"the state is not valid JSON: {e}")
    except ValueError as e:
        # Python refuses to read an integer of more than 4,300 digits (a guard against slow conversions).
        fail(f"not valid JSON ({what}): a number out of range: {e}")
    except RecursionError:
        fail("the state is nested too deeply")


def check_game(value: object, path: str = "game") -> tuple[str, int, dict[str, bool]]:
    """The configuration object: a known name, a supported player count, known options set to true (an option
    that is not set is not written, docs/classic.md), the data tag of the game's data file."""
    game = check_dict(value, path, GAME_KEYS)
    name = check_str(game["name"], f"{path}.name", names())
    counts = player_counts(name)
    players = check_int(game["players"], f"{path}.players", min(counts), max(counts))
    if players not in counts:
        fail(f"{path}.players: {name} is played by {counts_text(counts)} players, not {players}")
    options = check_dict(game["options"], f"{path}.options")
    for key in sorted(options):
        if options[key] is not True:
            fail(f"{path}.options.{key} must be true: a state lists only the options that are set")
    try:
        chosen = check_options(name, players, options)
    except ConfigError as e:
        fail(f"{path}.options: {e}")
    check_str(game["data"], f"{path}.data", [load(data_file(name)).tag])
    return name, players, chosen


def from_obj(data: Rules, players: int, obj: dict[str, Any]) -> Position:
    """Validate a state object (its `game` already checked) and return the position."""
    check_dict(obj, "state", TOP_KEYS | data.game.state_keys)
    check_str(obj["format"], "format", [STATE_FORMAT])
    rng_text = check_str(obj["rng"], "rng")
    if not rng_text.isascii() or not rng_text.isdigit() or (len(rng_text) > 1 and rng_text[0] == "0"):
        fail("rng must be a u64 written in decimal digits")
    rng = int(rng_text)
    if rng >= 1 << 64:
        fail("rng is above 2^64 - 1")
    era = check_str(obj["era"], "era", ["canal", "rail"])
    if data.last_era == "canal" and era != "canal":
        fail("the introductory game has only the Canal Era (L-54)")
    rnd = check_int(obj["round"], "round", 1, data.rounds)
    order = check_list(obj["turn_order"], "turn_order")
    for i, p in enumerate(order):
        check_int(p, f"turn_order[{i}]", 0, players - 1)
    if sorted(order) != list(range(players)):
        fail(f"turn_order must list each of the {players} players once")
    turn = check_int(obj["turn"], "turn", 0, players)
    actions_left = check_int(obj["actions_left"], "actions_left", 0, data.actions_per_turn)
    decision = check_str(obj["decision"], "decision", data.game.decisions)

    plist = check_list(obj["players"], "players")
    if len(plist) != players:
        fail(f"players has {len(plist)} entries, the game has {players} players")
    pos_players = [read_player(data, p, f"players[{i}]") for i, p in enumerate(plist)]

    board: dict[int, TilePos] = {}
    check_dict(obj["board"], "board")
    for name, t in obj["board"].items():
        space, tile = read_tile(data, name, t, players, era)
        board[space] = tile

    links: dict[int, int] = {}
    check_dict(obj["links"], "links")
    for name, owner in obj["links"].items():
        check_str(name, "links key", data.line_by_name)
        line = data.lines[data.line_by_name[name]]
        links[line.index] = check_int(owner, f"links.{name}", 0, players - 1)
        if not (line.canal if era == "canal" else line.rail):
            fail(f"links.{name}: {name} is not a {era} line")

    coal_market = check_int(obj["coal_market"], "coal_market", 0, len(data.market_prices["coal"]))
    iron_market = check_int(obj["iron_market"], "iron_market", 0, len(data.market_prices["iron"]))
    deck = [check_str(c, f"deck[{i}]", data.card_kinds) for i, c in enumerate(check_list(obj["deck"], "deck"))]
    removed = check_counts(obj["removed"], "removed", data.card_kinds)

    pos: Position = {
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
        "deck": deck,
        "removed": removed,
    }
    data.game.read_sections(obj, pos)
    if data.first_build_once_per_game:
        for p, me in enumerate(pos_players):
            has_tile = any(t["owner"] == p for t in board.values())
            if "built_industry" not in me:  # the documented default of an older state
                me["built_industry"] = has_tile
            elif not me["built_industry"] and has_tile:
                fail(f"players[{p}].built_industry is false, but the player has an industry tile on the board (C-6)")
    pos["action"] = read_action(data, pos, obj["action"])
    check_cards(data, pos)
    check_tiles(data, pos)
    check_decision(data, pos)
    return pos


def read_player(data: Rules, p: object, path: str) -> PlayerPos:
    """One player's counters, hand, discards and mat."""
    # C-6, R-14: classic Brass states may say whether the player has built an industry tile in this game. States
    # written before that key existed leave it out; `from_obj` then reads it as "has a tile on the board".
    optional_key = data.first_build_once_per_game and isinstance(p, dict) and "built_industry" in p
    player = check_dict(p, path, PLAYER_KEYS | {"built_industry"} if optional_key else PLAYER_KEYS)
    mat = check_dict(player["mat"], f"{path}.mat", set(data.industries))
    for ind in data.industries:
        check_int(mat[ind], f"{path}.mat.{ind}", 0, data.stack_size(ind))
    hand = check_counts(player["hand"], f"{path}.hand", data.card_kinds)
    if sum(hand.values()) > data.hand_size:
        fail(f"{path}.hand holds {sum(hand.values())} cards, more than {data.hand_size}")
    read: PlayerPos = {
        "money": check_int(player["money"], f"{path}.money", MONEY_MIN, COUNTER_MAX),
        "money_spent": check_int(player["money_spent"], f"{path}.money_spent", 0, COUNTER_MAX),
        "income_space": check_int(player["income_space"], f"{path}.income_space", 0, len(data.levels) - 1),
        "vp": check_int(player["vp"], f"{path}.vp", 0, COUNTER_MAX),
        "hand": hand,
        "discards": check_counts(player["discards"], f"{path}.discards", data.card_kinds),
        "mat": {ind: mat[ind] for ind in data.industries},
        "links_left": check_int(player["links_left"], f"{path}.links_left", 0, data.links),
    }
    if optional_key:
        read["built_industry"] = check_bool(player["built_industry"], f"{path}.built_industry")
    return read


def read_tile(data: Rules, name: object, t: object, players: int, era: str) -> tuple[int, TilePos]:
    """One `board` entry: a known space showing the tile's industry, a buildable level (no level-1 tile in the Rail
    Era, L-51, unless it may be built then: Birmingham's Pottery I, K6; no rail-only tile in the Canal Era, L-23),
    cubes within the printed number (B-7: a brewery holds 1 barrel in the Canal Era, 2 if built in the Rail Era)."""
    name = check_str(name, "board key", data.space_by_name)
    path = f"board.{name}"
    space = data.space_by_name[name]
    tile = check_dict(t, path, TILE_KEYS)
    owner = check_int(tile["owner"], f"{path}.owner", 0, players - 1)
    industry = check_str(tile["industry"], f"{path}.industry", data.industries)
    if industry not in data.spaces[space].icons:
        fail(f"{path}: {name} does not show {industry}")
    level = check_int(tile["level"], f"{path}.level")
    if level not in data.tiles[industry] or not data.tiles[industry][level]["eras"]:
        fail(f"{path}: there is no buildable level {level} {industry} tile")
    if era == "rail" and level == 1 and "rail" not in data.tiles[industry][level]["eras"]:
        fail(f"{path}: level-1 tiles leave the board at the end of the Canal Era (L-51, B-20)")
    if era == "canal" and "canal" not in data.tiles[industry][level]["eras"]:
        # Every tile on the board in the Canal Era was built in it (L-23, B-10).
        fail(f"{path}: a level {level} {industry} is built only in the Rail Era, not in the Canal Era (L-23, B-10)")
    flipped = check_bool(tile["flipped"], f"{path}.flipped")
    # B-7: a brewery built in the Canal Era gets fewer barrels than one built in the Rail Era.
    most = data.tiles[industry][level]["cubes"] if era == "canal" else data.most_cubes(industry, level)
    cubes = check_int(tile["cubes"], f"{path}.cubes", 0, most)
    return space, {"owner": owner, "industry": industry, "level": level, "flipped": flipped, "cubes": cubes}


def read_action(data: Rules, pos: Position, value: object) -> ActionPos | None:
    """The `action` object: null exactly at decisions action, remove and over; fields typed and consistent."""
    decision = pos["decision"]
    if decision in ("action", "remove", "over"):
        if value is not None:
            fail(f"action must be null at decision {decision!r}")
        return None
    if value is None:
        fail(f"action must describe the action under way at decision {decision!r}")
    action = check_dict(value, "action", ACTION_KEYS | data.game.action_keys)
    kind = check_str(action["kind"], "action.kind", data.game.action_kinds)
    double = check_bool(action["double"], "action.double")
    coal = check_int(action["coal"], "action.coal", 0)
    iron = check_int(action["iron"], "action.iron", 0)
    count = check_int(action["count"], "action.count", 0)
    target = None
    if kind == "build":
        target = data.space_by_name[check_str(action["target"], "action.target", data.space_by_name)]
    elif kind == "link":
        target = data.line_by_name[check_str(action["target"], "action.target", data.line_by_name)]
    elif kind == "sell" and action["target"] is not None:  # the tile of the sale under way (checked with the decision)
        target = data.space_by_name[check_str(action["target"], "action.target", data.space_by_name)]
    elif action["target"] is not None:
        fail(f"action.target must be null for a {kind} action")
    cards = action["cards"]
    if kind == "build" and not double:
        check_list(cards, "action.cards")
        cards = [check_str(c, f"action.cards[{i}]", data.card_kinds) for i, c in enumerate(cards)]
        if not cards or [data.card_order[c] for c in cards] != sorted({data.card_order[c] for c in cards}):
            fail("action.cards must list one or more distinct card kinds in card-kind order")
    elif cards is not None:
        fail("action.cards must be null except for a single build")
    first_card = action["first_card"]
    if first_card is not None:
        check_str(first_card, "action.first_card", data.card_kinds)
        if not (kind == "build" and double and decision == "card") and not (kind == "scout" and count >= 1):
            fail("action.first_card is set only while a double build's second card or Scout's later cards are asked")
    elif kind == "scout" and count >= 1:
        fail("action.first_card names the last card Scout discarded (B-17)")
    if double and (kind != "build" or not data.double_build):
        fail("action.double is true only for a double build (L-21; none in Birmingham, B-23)")
    if coal and kind not in ("build", "link"):
        fail(f"a {kind} action takes no coal")
    if iron and kind not in ("build", "develop"):
        fail(f"a {kind} action takes no iron")
    limits = {
        "build": (0, 0),
        "link": (1, 2),
        "develop": (1, 2),
        "sell": (0, None),
        "loan": (0, 0),
        "pass": (0, 0),
        "scout": (0, data.scout_cards - 1),  # cards discarded so far (B-17)
    }
    lo, hi = limits[kind]
    if count < lo or (hi is not None and count > hi):
        fail(f"action.count is {count}, impossible for a {kind} action")
    if kind == "link" and pos["era"] == "canal" and count != 1:
        fail("only one canal is built per action (L-35)")
    # The game's own keys (Birmingham): their consistency with the decision is checked by check_decision.
    keys = data.game.action_keys
    beer = check_int(action["beer"], "action.beer", 0) if "beer" in keys else 0
    merchant = None
    if "merchant" in keys and action["merchant"] is not None:
        words = {word: t for t, word in data.game.sale_targets()}
        merchant = words[check_str(action["merchant"], "action.merchant", words)]
    merchant_beer = check_bool(action["merchant_beer"], "action.merchant_beer") if "merchant_beer" in keys else False
    return {
        "kind": kind,
        "double": double,
        "target": target,
        "coal": coal,
        "iron": iron,
        "count": count,
        "cards": cards,
        "first_card": first_card,
        "beer": beer,
        "merchant": merchant,
        "merchant_beer": merchant_beer,
    }
