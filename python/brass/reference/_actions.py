"""The fixed action id space and its notation (docs/actions.md, "The id space" and "Names").

Blocks in this order, each in data order: BUILD, BUILD_DOUBLE, LINK, DEVELOP, SELL, LOAN, SCOUT, PASS, COAL, IRON,
BEER, STOP, CARD, REMOVE. A block the game does not have is empty (Lancashire: no SCOUT, no BEER; Birmingham: no
BUILD_DOUBLE, docs/birmingham.md). An action is described by a tuple whose first item is its kind
(`_position.Action`); a sale target is the game module's (Lancashire: a port space, or None for the Distant Cotton
Market; Birmingham: a merchant space):

    ("build", space, industry, double)   ("link", line)     ("develop", industry)
    ("sell", mill_space, sale_target)    ("loan", amount)   ("scout",)          ("pass",)
    ("coal", space)   ("iron", space)    ("beer", space)    ("merchant_beer", sale_target)
    ("stop",)         ("card", kind)     ("remove", space)
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, Any

from brass._errors import ArgumentTypeError, NotationError

from ._position import Action

if TYPE_CHECKING:
    from ._rules import Rules


def as_index(value: Any, error: type[Exception], what: str) -> int:
    """An integer argument: an int or anything with `__index__` (numpy integers), but never a bool."""
    if isinstance(value, bool | str):
        raise error(f"{what}, not {type(value).__name__}")
    try:
        return operator.index(value)
    except TypeError:
        raise error(f"{what}, not {type(value).__name__}") from None


# Notation input limits shared with the Rust parser (found by the differential tests, docs/verification.md):
# white space is Unicode's White_Space property, as Rust's `str::split_whitespace` reads it (Python's
# `str.split()` would also split at the ASCII separators U+001C..U+001F, which are not white space), and a
# notation longer than 200 bytes of UTF-8 is rejected before it is read.
WHITE_SPACE = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
MAX_NOTATION_BYTES = 200


class ActionSpace:
    """Every (kind, parameters) pair that can ever be legal, numbered once per configuration. The SELL block's
    targets are the game module's (`sale_targets`: Lancashire's ports, then the Distant Cotton Market; Birmingham's
    merchant spaces), and so are the targets that give beer (`beer_targets`) after the breweries in the BEER block."""

    def __init__(self, data: Rules) -> None:
        self.data = data
        self.actions: list[Action] = []
        self.names: list[str] = []
        self.ids: dict[Action, int] = {}

        builds = [(s.index, i) for s in data.spaces for i in data.industries if i in s.icons]
        for space, industry in builds:
            self._add(("build", space, industry, False), f"build {industry} {data.spaces[space].name}")
        if data.double_build:  # L-21 (B-23: not in Birmingham)
            for space, industry in builds:
                self._add(("build", space, industry, True), f"build {industry} {data.spaces[space].name} double")
        for line in data.lines:
            self._add(("link", line.index), f"link {line.name}")
        for industry in data.industries:
            self._add(("develop", industry), f"develop {industry}")
        mills = [s for s in data.spaces if any(i in data.sold for i in s.icons)]
        targets = data.game.sale_targets()
        for m in mills:
            for target, word in targets:
                self._add(("sell", m.index, target), f"sell {m.name} {word}")
        for amount in data.loan_amounts:
            self._add(("loan", amount), f"loan {amount}")
        if data.scout_cards:  # B-17
            self._add(("scout",), "scout")
        self._add(("pass",), "pass")
        for s in data.spaces:
            if any(data.produces.get(i) == "coal" for i in s.icons):
                self._add(("coal", s.index), f"coal {s.name}")
        for s in data.spaces:
            if any(data.produces.get(i) == "iron" for i in s.icons):
                self._add(("iron", s.index), f"iron {s.name}")
        for s in data.spaces:
            if any(data.produces.get(i) == "beer" for i in s.icons):
                self._add(("beer", s.index), f"beer {s.name}")
        for target, word in data.game.beer_targets():
            self._add(("merchant_beer", target), f"beer {word}")
        self._add(("stop",), "stop")
        for kind in data.card_kinds:
            self._add(("card", kind), f"card {kind}")
        for s in data.spaces:
            self._add(("remove", s.index), f"remove {s.name}")

        self.by_name = {name: i for i, name in enumerate(self.names)}
        # The parser also accepts a line written with its ends swapped (docs/actions.md, "Names").
        for line in data.lines:
            first, second = line.ends[0], line.ends[1]
            self.by_name.setdefault(f"link {second}-{first}", self.ids[("link", line.index)])

    def _add(self, action: Action, name: str) -> None:
        assert action not in self.ids and name not in self.names, name
        self.ids[action] = len(self.actions)
        self.actions.append(action)
        self.names.append(name)

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, *action: object) -> int:
        return self.ids[tuple(action)]

    def parse(self, text: object) -> int:
        """Lower-case, collapse white space, then look the notation up; anything else is a NotationError (a value that
        is not a str an ArgumentTypeError)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"notation must be a str, not {type(text).__name__}")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_NOTATION_BYTES:
            raise NotationError(
                f"notation too long ({len(text.encode('utf-8', 'surrogatepass'))} bytes; at most {MAX_NOTATION_BYTES})"
            )
        norm = " ".join(w for w in WHITE_SPACE.split(text.lower()) if w)
        try:
            return self.by_name[norm]
        except KeyError:
            raise NotationError(
                f"{text!r} is not an action of {self.data.name}: expected e.g. {self.data.game.notation_examples}"
            ) from None
