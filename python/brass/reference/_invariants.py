"""The invariants a loaded state must satisfy beyond its fields' types and ranges (docs/state-format.md "Validation",
docs/reference-notes.md items 18-24 and 37-40): cards, tiles and links, and a decision consistent with the rest of
the position that is a real choice. Each raises InvalidStateError naming the first problem."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cards import card_choices
from ._checks import fail
from ._legal import beer_choices, coal_choices, further_developments, iron_choices, sales, second_links
from ._position import Position
from ._turns import actions_per_turn, current_player, own_tiles

if TYPE_CHECKING:
    from ._rules import Rules


def check_cards(data: Rules, pos: Position) -> None:
    """Hands, discards, draw pile, the cards the game module holds (Lancashire: the deck tile) and the removed
    cards hold exactly the configuration's deck (L-2, C-3, L-56); then the game module's own counts
    (`check_held_cards`: the deck tile, L-3, L-56; Birmingham's wild cards, B-31); then the cards removed unseen
    number those of the era (C-3: classic Brass 9 / 6 in the Canal Era; C-3 and L-56: 6 / 2 in the Rail Era; B-1: one
    per player in the Birmingham Canal Era; none otherwise). Wild cards in hands are not in the deck (B-17)."""
    held = {k: 0 for k in data.card_kinds}
    for p in pos["players"]:
        for k, n in p["hand"].items():
            if k not in data.wild_cards:
                held[k] += n
        for k, n in p["discards"].items():
            held[k] += n
    for k in pos["deck"]:
        held[k] += 1
    game_held = data.game.held_cards(pos)
    for part in [counts for _, counts in game_held] + [pos["removed"]]:
        for k, n in part.items():
            held[k] += n
    places = ["hands", "discards", "deck"] + [name for name, _ in game_held] + ["removed"]
    where = ", ".join(places[:-1]) + " and " + places[-1]
    deck = data.deck()
    for k in data.card_kinds:
        if held[k] != deck.get(k, 0):
            fail(f"cards: {held[k]} `{k}` cards in {where}; the deck of this game has {deck.get(k, 0)}")
    data.game.check_held_cards(pos)
    gone = sum(pos["removed"].values())
    expected = data.removed_canal if pos["era"] == "canal" else data.removed_rail
    if gone != expected:
        era = pos["era"].capitalize()
        fail(f"removed must hold {expected} cards in the {era} Era (C-3, L-56; B-1 in Birmingham), not {gone}")


def check_tiles(data: Rules, pos: Position) -> None:
    """Board tiles within the mats' taken tiles; cubes and flips consistent (L-20, L-28); one tile per player
    and location in the Canal Era (L-25); link tiles counted (L-37)."""
    under_construction = None
    action = pos["action"]
    if pos["decision"] in ("coal", "iron") and action is not None and action["kind"] == "build":
        under_construction = action["target"]  # placed, its cubes / flip come after coal and iron
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
    for p in range(data.players):
        mat = pos["players"][p]["mat"]
        for ind in data.industries:
            taken = data.stack[ind][: data.stack_size(ind) - mat[ind]]
            for level in sorted(
                {t["level"] for t in pos["board"].values() if t["owner"] == p and t["industry"] == ind}
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


def check_decision(data: Rules, pos: Position) -> None:
    """`decision` consistent with `turn`, `actions_left` and `action`, and it has a real choice."""
    players = data.players
    decision = pos["decision"]
    turn, left, action = pos["turn"], pos["actions_left"], pos["action"]
    for i, p in enumerate(pos["players"]):
        if p["money"] < 0 and decision != "remove":
            fail(f"players[{i}].money is negative outside a `remove` decision")
    if decision in ("remove", "over"):
        if turn != players or left != 0:
            fail(f"at decision {decision!r} turn must be {players} and actions_left 0")
        if decision == "over":
            if pos["era"] != data.last_era or pos["round"] != data.rounds:
                fail(f"the game is over only after the last {data.last_era.capitalize()} round (L-12, L-54)")
            return
        debtor = current_player(data, pos)
        if debtor is None:
            fail("decision `remove` but no player owes money")
        if len(own_tiles(pos, debtor)) < 2:
            fail(f"decision `remove` but player {debtor} has fewer than 2 tiles to choose from")
        return
    if turn >= players:
        fail(f"turn must be below {players} at decision {decision!r}")
    if not 1 <= left <= actions_per_turn(data, pos):
        fail(f"actions_left is {left}; this round has {actions_per_turn(data, pos)} actions per turn")
    player = pos["turn_order"][turn]
    if decision == "action":
        if not any(pos["players"][player]["hand"].values()):
            fail(f"player {player} holds no card, so cannot take an action (L-8: one card per action)")
        return
    assert action is not None  # read_action: an action is under way at every other decision
    kind = action["kind"]
    if not card_choices(data, pos, player):
        fail("no card in the current player's hand can pay for the action under way")
    if action["double"] and left != 2:
        fail("a double build uses both actions of the turn, so actions_left must be 2")
    if kind == "build":
        tile = None if action["target"] is None else pos["board"].get(action["target"])
        if tile is None or tile["owner"] != player:
            fail("action.target must hold the tile the current player is building")
    if kind == "link" and (action["target"] is None or pos["links"].get(action["target"]) != player):
        fail("action.target must hold the link the current player just placed")
    check_sale_under_way(data, pos, player)
    rail_beer = data.second_rail_beer if kind == "link" and action["count"] == 2 else 0
    if decision != "beer" and action["beer"] != (rail_beer if decision == "coal" else 0):
        fail(f"action.beer is {action['beer']}, impossible at decision {decision!r}")
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
    elif decision == "beer":
        if kind not in ("sell", "link") or action["beer"] < 1 or action["coal"] or action["iron"]:
            fail("decision `beer` needs a sale or a second rail with beer (and no coal or iron) still to take")
        if kind == "link" and (action["count"] != 2 or action["beer"] > data.second_rail_beer):
            fail("decision `beer` in a Network action is the second rail's barrel (B-13)")
        if len(beer_choices(data, pos, player)) < 2:
            fail("decision `beer` needs two or more sources of beer")
    elif decision == "bonus":
        if kind != "sell" or not action["merchant_beer"]:
            fail("decision `bonus` follows a sale that took a merchant's barrel (B-26)")
        if not data.game.bonus_choices(pos, player):
            fail("decision `bonus` but no industry's lowest tile may leave the mat (B-26)")
    elif decision == "card":
        if action["coal"] or action["iron"]:
            fail("decision `card` comes after all coal and iron are taken")
        if len(card_choices(data, pos, player)) < 2:
            fail("decision `card` needs two or more card kinds that can pay")


def check_sale_under_way(data: Rules, pos: Position, player: int) -> None:
    """docs/birmingham.md "The state": a sale is under way (its tile in `action.target`, its target in
    `action.merchant`) exactly at its own decisions, `beer` and `bonus`: the tile is the current player's, of a sold
    industry, unflipped while its beer is taken and flipped at `bonus`; the game checks the target (`check_sale`). A
    Lancashire sale has no decision of its own, so its `target` is always null."""
    action = pos["action"]
    assert action is not None
    decision = pos["decision"]
    under_way = action["kind"] == "sell" and decision in ("beer", "bonus")
    if not under_way:
        if action["kind"] == "sell" and action["target"] is not None:
            fail(f"action.target of a sell action is null at decision {decision!r}")
        if action["merchant"] is not None or action["merchant_beer"]:
            fail(f"no sale is under way at decision {decision!r}: action.merchant is null, merchant_beer false")
        return
    space = action["target"]
    if space is None or action["merchant"] is None:
        fail(f"a sale under way at decision {decision!r} names its tile (action.target) and action.merchant")
    tile = pos["board"].get(space)
    if tile is None or tile["owner"] != player or tile["industry"] not in data.sold:
        fail("action.target must hold the current player's tile being sold")
    if tile["flipped"] != (decision == "bonus"):
        fail("the tile being sold flips after its beer, before the bonus (B-15)")
    if action["beer"] > data.tile(tile["industry"], tile["level"]).get("beer", 0):
        fail("action.beer is more than the beer printed on the tile being sold (B-15)")
    data.game.check_sale(pos, player, space, action["merchant"])
