"""The history of a game in words, for the page of `brass serve`: each action as a sentence a person would say at
the table ("Player 1 built a coal mine in Belper (level 1), paid £5, discarding Belper"), the places on the board
it touched (to mark each player's last move), the cards it cost, and the end of each era.

An action is the decisions one player makes from choosing it to paying its card (docs/actions.md: the action,
then coal, iron, beer, a second link or develop, further sales, the card). What it did is read from the engine's
views before and after it: the tiles, links, cubes and markets that changed, the money spent (`money_spent`) and
received, the income and the cards given up. The end of a round resets the money spent and pays income, so an
action that ends a round is read on a copy of the position in which its player acts first in turn order, where
the same decisions end no round (`no_round_end`)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import brass
from brass.serve.table import Names, discarded, names
from brass.text import result

#: The kinds of decision that belong to the action under way (every other kind starts an entry of its own).
FOLLOW_UPS = frozenset({"coal", "iron", "beer", "link", "develop", "sell", "card", "bonus"})


@dataclass
class Group:
    """One player's decisions that make one action (or the tiles they removed for a debt)."""

    player: int | None
    before: brass.State
    steps: list[tuple[str, str]] = field(default_factory=list)  # (decision, notation)
    first: int = 0
    after: brass.State | None = None  # the position after it, with no round ended by it


def no_round_end(state: brass.State) -> brass.State:
    """A copy of `state` in which nothing the player to move does this turn ends the round (whose end would
    reset the money spent and pay income): they act first in turn order, and the player after them holds a
    card (lent from a discard pile when their hand is empty, as at the end of an era, when a player with no
    card would be skipped). Everything the player to move has and sees is unchanged."""
    p = state.current_player
    obj = json.loads(state.to_json())
    order = obj["turn_order"]
    if p is None or len(order) < 2:
        return state.clone()
    if obj["turn"] == len(order) - 1:
        order = obj["turn_order"] = [p] + [q for q in order if q != p]
        obj["turn"] = 0
    after = obj["players"][order[obj["turn"] + 1]]
    if not after["hand"]:
        for q in [order[obj["turn"] + 1]] + [q for q in order if q != p]:
            pile = obj["players"][q]["discards"]
            if pile:
                kind = next(iter(pile))
                pile[kind] -= 1
                if not pile[kind]:
                    del pile[kind]
                after["hand"][kind] = 1
                break
    return brass.State.from_json(obj)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def listed(items: list[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


class Change:
    """What one action changed, read from the engine's views before and after it."""

    def __init__(self, words: Names, group: Group, after: brass.State, before: brass.State | None = None) -> None:
        p = group.player
        assert p is not None
        before = before or group.before
        #: Whether the money and VP are the action's own (not mixed with a round's end that could not be kept out).
        self.own = (after.round, after.era, after.is_terminal) == (before.round, before.era, False)
        self.words, self.before, self.after, self.player = words, before, after, p
        pb, pa = before.player(p), after.player(p)
        self.spent = pa.money_spent - pb.money_spent
        self.gained = pa.money - pb.money + self.spent
        self.income = pa.income_level - pb.income_level
        self.vp = pa.vp - pb.vp
        self.cards = discarded(pb, pa)
        self.took = [k for k in (Counter(pa.hand) - Counter(pb.hand)).elements() if words.card_kind(k) == "wild"]
        self.developed = {i: pb.mat.get(i, 0) - pa.mat.get(i, 0) for i in pb.mat if pb.mat.get(i, 0) > pa.mat.get(i, 0)}
        self.board_before, self.board_after = before.board, after.board
        self.markets = {r: getattr(after, f"{r}_market") - getattr(before, f"{r}_market") for r in ("coal", "iron")}

    def sources(self) -> list[tuple[str, str, int]]:
        """(space, resource, count) of every coal, iron and beer taken from a tile or a merchant."""
        roles = self.words.data.get("industry_roles", {})
        out = []
        for space, tile in self.board_before.items():
            now = self.board_after.get(space)
            if now is not None and now["industry"] == tile["industry"] and now["cubes"] < tile["cubes"]:
                resource = roles.get(tile["industry"], {}).get("produces", "coal")
                out.append((space, resource, tile["cubes"] - now["cubes"]))
        merchants_after = self.after.merchants
        for space, merchant in self.before.merchants.items():
            if merchant["beer"] and not merchants_after.get(space, {}).get("beer", False):
                out.append((space, "beer", 1))
        return out

    def resources(self) -> str:
        """`using 1 coal from Wigan and 1 iron from the market`, or empty."""
        parts = [
            f"the merchant's beer in {self.words.location(space)}"
            if space not in self.board_before
            else f"{n} {resource} from {self.words.location(space)}"
            for space, resource, n in self.sources()
        ]
        parts += [f"{-n} {r} from the market" for r, n in self.markets.items() if n < 0]
        return f"using {listed(parts)}" if parts else ""

    def flips(self, group: Group) -> str:
        """`flipping their coal mine in Wigan`: the tiles the action flipped by emptying them, or empty (a tile
        built flipped, a tile sold and the port it went to need no saying)."""
        said = {m["place"] for m in marks(None, group) if m["role"] in ("built", "sold", "to")}
        parts = []
        for space, tile in self.board_before.items():
            now = self.board_after.get(space)
            if space in said or now is None or tile["flipped"] or not now["flipped"]:
                continue
            whose = "their" if tile["owner"] == self.player else f"player {tile['owner']}'s"
            parts.append(f"{whose} {self.words.industry(tile['industry'])} in {self.words.location(space)}")
        return f"flipping {listed(parts)}" if parts else ""

    def money(self, kind: str) -> list[str]:
        """The money paid, the cubes sold to the markets and other money received, the income and VP changed."""
        if not self.own:
            return []
        parts = [f"paid £{self.spent}"] if self.spent else []
        sold = [f"{n} {r}" for r, n in self.markets.items() if n > 0]
        if sold and self.gained > 0:
            parts.append(f"sold {listed(sold)} to the market for £{self.gained}")
        elif self.gained > 0 and kind != "loan":
            parts.append(f"received £{self.gained}")
        if self.income:
            parts.append(f"income {signed(self.income)}")
        if self.vp:
            parts.append(f"{signed(self.vp)} VP")
        return parts

    def tile(self, space: str, board: dict[str, dict[str, Any]] | None = None) -> str:
        """`coal mine (level 2)` on a space, as it is after the action (or on `board`)."""
        tile = (board or self.board_after).get(space)
        if tile is None:
            return "tile"
        return f"{self.words.industry(tile['industry'])} (level {tile['level']})"

    def owner(self, space: str) -> str:
        tile = self.board_before.get(space) or self.board_after.get(space)
        if tile is None or tile["owner"] == self.player:
            return ""
        return f" (player {tile['owner']}'s)"


def target_words(change: Change, target: str) -> str:
    """Where a sale went: a port, the Distant Cotton Market, a merchant."""
    words = change.words
    if target == "distant":
        return "the Distant Cotton Market"
    if target.split("/")[0] in words.merchant_bonus:
        return f"the merchant in {words.location(target)}"
    return f"the port in {words.location(target)}{change.owner(target)}"


def action_words(change: Change, group: Group) -> tuple[str, str]:
    """The kind of an action and what it did, as a clause (`built a coal mine in Belper (level 1)`)."""
    words = change.words
    kind, *args = group.steps[0][1].split()
    if kind == "build":
        industry, space = args[0], args[1]
        text = f"built {words.a(industry)} in {words.location(space)} (level {change.board_after[space]['level']})"
        over = change.board_before.get(space)
        if over is not None:
            whose = "their" if over["owner"] == change.player else f"player {over['owner']}'s"
            text += f" over {whose} {words.industry(over['industry'])} (level {over['level']})"
        return kind, text + (" with two cards" if "double" in args else "")
    if kind == "link":
        lines = [n.split()[1] for d, n in group.steps if n.startswith("link ")]
        era = "canal" if change.before.era == "canal" else "rail"
        what = f"a {era} link" if len(lines) == 1 else f"{era} links"
        return kind, f"laid {what} {listed([words.line(line) for line in lines])}"
    if kind == "develop" and group.steps[0][0] == "action":
        return kind, f"developed {developed_words(change)}"
    if kind == "sell":
        sales = [n.split()[1:] for d, n in group.steps if d in ("action", "sell") and n.startswith("sell ")]
        parts = []
        for mill, target in sales:
            sold = change.tile(mill, change.board_before)
            part = f"the {sold} in {words.location(mill)} to {target_words(change, target)}"
            if not change.board_after.get(mill, {}).get("flipped", False):
                part += " (the sale failed)"
            parts.append(part)
        text = f"sold {listed(parts)}"
        if change.developed:  # a merchant's bonus (Birmingham: Gloucester develops a tile for free)
            text += f", then developed {developed_words(change)} for free"
        return kind, text
    if kind == "loan":
        return kind, f"took a loan of £{args[0]}"
    if kind == "scout":
        took = [words.card(k) for k in change.took]
        return kind, "scouted" + (f" for the {listed(took)} cards" if took else "")
    if kind == "pass":
        return kind, "passed"
    return kind, "; ".join(n for _, n in group.steps)


def developed_words(change: Change) -> str:
    """`a cotton mill (level 1) and a pottery (level 1)`: the tiles that left the mat."""
    gone = []
    for industry, n in change.developed.items():
        gone += [f"{change.words.a(industry)} (level {level})" for level in _levels_taken(change, industry, n)]
    return listed(gone) or "a tile"


def _levels_taken(change: Change, industry: str, n: int) -> list[int]:
    """The levels of the `n` tiles of an industry that left the mat, lowest first."""
    rows = change.words.tiles.get(industry, [])
    left = change.before.player(change.player).mat.get(industry, 0)
    gone = sum(row["count"] for row in rows) - left
    levels = [row["level"] for row in rows for _ in range(row["count"])][gone : gone + n]
    return levels


def marks(change: Change | None, group: Group) -> list[dict[str, str]]:
    """The places of the board an action touched, each with its role: `built`, `link`, `sold` (the tile sold),
    `to` (the port or merchant it went to), `coal`, `iron`, `beer` (where they came from), `removed`."""
    out: dict[str, str] = {}
    for _, notation in group.steps:
        kind, *args = notation.split()
        if kind == "build":
            out.setdefault(args[1], "built")
        elif kind == "link":
            out.setdefault(args[0], "link")
        elif kind == "sell":
            out.setdefault(args[0], "sold")
            if args[1] != "distant":
                out.setdefault(args[1], "to")
        elif kind in ("coal", "iron", "beer", "remove"):
            out.setdefault(args[0], "removed" if kind == "remove" else kind)
    if change is not None:
        for space, resource, _ in change.sources():
            out.setdefault(space, resource)
    return [{"place": place, "role": role} for place, role in out.items()]


def remove_words(words: Names, group: Group) -> str:
    board = group.before.board
    parts = []
    for _, notation in group.steps:
        space = notation.split()[1]
        tile = board.get(space)
        what = f"{words.industry(tile['industry'])} (level {tile['level']})" if tile else "tile"
        parts.append(f"their {what} in {words.location(space)}")
    return f"removed {listed(parts)} to pay a debt"


def entry(
    words: Names, group: Group, after: brass.State, done: bool, before: brass.State | None = None
) -> dict[str, Any]:
    """One line of the history: who, what in words, the places it touched, the cards it cost. `before` and
    `after`: the positions it is read on, when not the real ones (`no_round_end`)."""
    change = None if group.steps[0][0] == "remove" else Change(words, group, after, before)
    cards: list[str] = []
    if change is None:
        kind, text = "remove", remove_words(words, group)
    else:
        kind, text = action_words(change, group)
        extra = [part for part in (change.resources(), change.flips(group)) if part]
        parts = [text, *extra, *change.money(kind)]
        cards = change.cards
        if cards:
            parts.append(f"discarding the {listed([words.card(c) for c in cards])} card{'s' if len(cards) > 1 else ''}")
        text = ", ".join(parts)
        if group.steps[0][0] != "action":
            text += " (finishing an action begun earlier)"
    return {
        "player": group.player,
        "kind": kind,
        "text": f"Player {group.player} {text}{'.' if done else ' …'}",
        "first": group.first,
        "decisions": len(group.steps),
        "moves": [n for _, n in group.steps],
        "marks": marks(change, group),
        "cards": cards,
        "done": done,
    }


def era_entry(words: Names, before: brass.State, after: brass.State, first: int) -> dict[str, Any]:
    """The end of an era (its scoring) or of the game."""
    n = before.game.players
    scored = [f"player {q} {signed(after.player(q).vp - before.player(q).vp)} VP" for q in range(n)]
    era = before.era.capitalize()
    text = f"End of the {era} Era: {listed(scored)}."
    if after.is_terminal:
        text += f" The game is over: {result(after)}."
    return {
        "player": None,
        "kind": "era",
        "text": text,
        "first": first,
        "decisions": 0,
        "moves": [],
        "marks": [],
        "cards": [],
        "done": True,
    }


class Journal:
    """The history in words of one game, kept in step with its state: `update(state)` reads the decisions played
    since the last call (and starts again from the first position when decisions were taken back)."""

    def __init__(self, start: brass.State) -> None:
        self.start = start.clone()
        self.words = names(start.game.name)
        self._reset()

    def _reset(self) -> None:
        self.ids: list[int] = []
        self.cursor = self.start.clone()
        self.entries: list[dict[str, Any]] = []
        self.open: Group | None = None

    def update(self, state: brass.State) -> list[dict[str, Any]]:
        """The entries of the game as `state` has it: every finished action and era, then the action under way."""
        history = state.history
        if history[: len(self.ids)] != self.ids:
            self._reset()
        for action in history[len(self.ids) :]:
            self._play(action)
        entries = list(self.entries)
        group = self.open
        if group is not None:
            # Done unless its player is still answering its questions.
            removing = group.steps[0][0] == "remove"
            asked = self.cursor.decision
            under_way = self.cursor.current_player == group.player and (
                asked == "remove" if removing else asked in FOLLOW_UPS
            )
            entries.append(entry(self.words, group, self.cursor, done=not under_way))
        return entries

    def _play(self, action: int) -> None:
        state = self.cursor
        p, decision = state.current_player, state.decision
        notation = state.game.action_name(action)
        group = self.open
        new = (
            group is None
            or group.player != p
            or decision == "action"
            or (decision == "remove") != (group.steps[0][0] == "remove")
            or (decision not in FOLLOW_UPS and decision != "remove")
        )
        if new:
            self._close()
            group = self.open = Group(p, state.clone(), first=len(self.ids))
        assert group is not None
        group.steps.append((decision, notation))
        before = state.clone()
        state.apply(action)
        self.ids.append(action)
        if state.era != before.era or state.is_terminal:
            self._close(ended_round=True)
            self.entries.append(era_entry(self.words, before, state, len(self.ids) - 1))
        elif (state.round, state.turn_order) != (before.round, before.turn_order) or (
            state.decision == "remove" and decision != "remove"
        ):
            self._close(ended_round=True)

    def _close(self, ended_round: bool = False) -> None:
        """Finish the action under way: read it on the position after it, or, when its last decision ended the
        round, on a copy where it ends none (`no_round_end`)."""
        group, self.open = self.open, None
        if group is None:
            return
        after, before = self.cursor, None
        if ended_round and group.steps[0][0] != "remove":
            before = no_round_end(group.before)
            after = before.clone()
            for _, notation in group.steps:
                after.apply(notation)
        self.entries.append(entry(self.words, group, after, done=True, before=before))

    def tops(self) -> dict[int, str | None]:
        """The last card each player discarded (the top of their discard pile, while it has cards)."""
        out: dict[int, str | None] = {}
        for line in self.entries:
            if line["player"] is not None and line["cards"]:
                out[line["player"]] = line["cards"][-1]
        return out
