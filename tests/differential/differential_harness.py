"""The same game in both engines, compared decision by decision (docs/verification.md).

`Pair` holds one state of the Rust-backed engine (`brass`) and one of the pure-Python reference
(`brass.reference`). Every comparison goes through the public API only:

- `Pair.check()`: canonical state JSON, sorted legal actions, current player, decision, terminal flag;
  at the end also scores and winners.
- `Pair.apply(x)`: the same decision in both; both must accept it, or both reject it with the same exception class.
- `Pair.reject(x)`: an illegal id / bad notation / wrong type: both must raise the same `BrassError` subclass
  and neither state (JSON, history) may change.

A disagreement raises `Divergence` (an AssertionError) whose message names the first differing JSON paths,
the legal actions only one engine allows (in notation) and the game record that reproduces it. The record is
also written to `target/divergences/` (or `$BRASS_DIVERGENCE_DIR`) so that `tests/vectors/make_vectors.py
record …` can turn it into a regression vector once the faulty engine is fixed.

`STATS` counts what was compared in this pytest session; tests/differential/conftest.py prints it.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

import brass
from brass import reference

ENGINES = {"rust": brass, "reference": reference}
ROOT = Path(__file__).resolve().parents[2]
RECORD_FORMAT = "brass-record/1"

# Complete games the main differential test must compare per player count in one run of a profile
# (max_examples is 80 / 800 there; test_zz_enough_complete_games_were_compared checks it).
MIN_GAMES_PER_PLAYER_COUNT = {"brass-ci": 70, "brass-long": 700}
# Complete games per configuration of docs/classic.md (classic Brass, the Lancashire options) in one run
# (max_examples is a quarter of the profile's there: 20 / 200, plus what Hypothesis adds).
MIN_GAMES_PER_CONFIGURATION = {"brass-ci": 20, "brass-long": 200}
# Brass: Birmingham (docs/birmingham.md) has its own main test: games per player count (max_examples) and the
# minimum of complete games per count it must compare in one run of a profile. With the introductory game's test
# (a configuration test, above) a brass-ci run compares over 100 complete Birmingham games, brass-long over 2,000.
BIRMINGHAM_GAMES_PER_PLAYER_COUNT = {"brass-ci": 30, "brass-long": 700}
MIN_BIRMINGHAM_GAMES_PER_PLAYER_COUNT = {"brass-ci": 26, "brass-long": 630}


@dataclass(frozen=True)
class Config:
    """A configuration of docs/classic.md: a game name, the player counts it is compared at, its options."""

    name: str
    players: tuple
    options: tuple = ()  # sorted (option, True) pairs

    @property
    def kwargs(self) -> dict:
        return dict(self.options)

    @property
    def label(self) -> str:
        """e.g. `brass 3p`, `lancashire 2/3/4p intro+virtual_link`."""
        counts = "/".join(str(p) for p in self.players)
        return f"{self.name} {counts}p" + (f" {self.option_text}" if self.options else "")

    @property
    def option_text(self) -> str:
        return "+".join(k for k, _ in self.options)

    def at(self, players: int) -> str:
        """e.g. `brass 3p`, `lancashire 4p intro+virtual_link`."""
        return f"{self.name} {players}p" + (f" {self.option_text}" if self.options else "")

    def game(self, engine, players: int):
        return engine.Game(self.name, players=players, **self.kwargs)


def config(name: str, players, *options: str) -> Config:
    return Config(name, tuple(players), tuple((o, True) for o in sorted(options)))


LANCASHIRE = config("lancashire", (2, 3, 4))
BIRMINGHAM = config("birmingham", (2, 3, 4))
# The configurations added by docs/classic.md, each compared in its own parametrized test.
NEW_CONFIGS = (
    config("brass", (3,)),
    config("brass", (4,)),
    config("lancashire", (3, 4), "classic_deck"),
    config("lancashire", (2, 3, 4), "virtual_link"),
    config("lancashire", (2, 3, 4), "intro"),
    config("lancashire", (3, 4), "classic_deck", "virtual_link"),
    config("lancashire", (2, 3, 4), "intro", "virtual_link"),
    config("birmingham", (2, 3, 4), "intro"),
)


def rust_refuses(cfg: Config) -> str | None:
    """None when the Rust engine plays the configuration at every player count, else why not (its error)."""
    for players in cfg.players:
        try:
            cfg.game(brass, players)
        except brass.ConfigError as e:
            return f"the Rust engine does not play {cfg.label} yet: {e}"
    return None


# What the cross-loading, edited-state and state-machine tests draw from: every configuration the Rust engine
# plays (Lancashire with its default rules first; Hypothesis shrinks toward it).
COMPARABLE_CONFIGS = (LANCASHIRE,) + tuple(c for c in (*NEW_CONFIGS, BIRMINGHAM) if rust_refuses(c) is None)


@dataclass(frozen=True)
class IdTable:
    """The action ids of one game (the same for every player count and option of the game, docs/actions.md and
    docs/birmingham.md): their notation, their kind (the first word) and the sets the playing styles prefer."""

    game: object  # a brass.Game of this game, for parse_action
    names: tuple
    kind: tuple  # build, link, develop, sell, loan, scout, pass, coal, iron, beer, stop, card, remove
    passive: frozenset  # pass and loan
    trade_builds: frozenset  # builds of what sells (Lancashire cotton mills and ports; Birmingham's sold industries
    # and breweries), the `seller` style's second tier
    mersey_builds: frozenset  # the `mersey` style's tiers (configurations with the virtual link, C-7 / L-55)
    mersey_links: frozenset
    mersey_develops: frozenset

    @property
    def num_actions(self) -> int:
        return len(self.names)


TRADE_INDUSTRIES = ("cotton_mill", "port", "manufacturer", "pottery", "brewery")


@cache
def ids_of(name: str) -> IdTable:
    game = brass.Game(name, players=brass.games()[name]["players"][-1])
    names = tuple(game.action_name(i) for i in range(game.num_actions))
    kind = tuple(n.split()[0] for n in names)
    mersey = ("liverpool", "birkenhead", "ellesmere_port")
    return IdTable(
        game=game,
        names=names,
        kind=kind,
        passive=frozenset(i for i, k in enumerate(kind) if k in ("pass", "loan")),
        trade_builds=frozenset(
            i for i, n in enumerate(names) if kind[i] == "build" and n.split()[1] in TRADE_INDUSTRIES
        ),
        mersey_builds=frozenset(
            i for i, n in enumerate(names) if kind[i] == "build" and n.split()[2].split("/")[0] in mersey
        ),
        mersey_links=frozenset(
            i
            for i, n in enumerate(names)
            if kind[i] == "link" and set(n.split()[1].split("-")) & {"birkenhead", "ellesmere_port"}
        ),
        mersey_develops=frozenset(i for i, n in enumerate(names) if n in ("develop port", "develop shipyard")),
    )


class Stats:
    """What the differential tests compared in this session (printed by the session-finish hook)."""

    def __init__(self) -> None:
        self.games = Counter()  # complete games (played to `over`, every decision compared), by player count
        self.decisions = 0  # decisions compared
        self.rejections = 0  # illegal inputs both engines rejected identically
        self.cross_loads = 0  # states exported by one engine and continued in the other
        self.decision_kinds = Counter()  # state.decision at each compared decision
        self.action_kinds = Counter()  # first word of each applied action's notation
        self.events = Counter()  # rarer rule paths taken (Pair.note_events): evidence of what was compared
        self.tests = Counter()  # complete games per test function
        self.started = Counter()  # games started per test function
        self.configs = Counter()  # complete games per configuration label (docs/classic.md)

    def game_started(self, test: str) -> None:
        self.started[test] += 1

    def game_done(self, test: str, players: int, config: Config | None = None) -> None:
        self.games[players] += 1
        self.tests[test] += 1
        self.configs[(config or LANCASHIRE).at(players)] += 1

    def summary(self) -> list[str]:
        total = sum(self.games.values())
        if not total and not self.decisions:
            return []
        per = ", ".join(f"{p}p: {self.games[p]}" for p in sorted(self.games))
        lines = [
            (
                f"differential: {total} complete games compared decision by decision ({per}); "
                f"{self.decisions} decisions, {self.rejections} illegal inputs rejected alike, "
                f"{self.cross_loads} cross-engine loads"
            ),
            "differential: decisions seen: " + ", ".join(f"{k} {v}" for k, v in sorted(self.decision_kinds.items())),
            "differential: actions applied: " + ", ".join(f"{k} {v}" for k, v in sorted(self.action_kinds.items())),
            "differential: rule paths taken: " + ", ".join(f"{k} {v}" for k, v in sorted(self.events.items())),
            "differential: complete games per test: " + ", ".join(f"{k} {v}" for k, v in sorted(self.tests.items())),
            "differential: complete games per configuration: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.configs.items())),
        ]
        refused = [reason for reason in map(rust_refuses, (*NEW_CONFIGS, BIRMINGHAM)) if reason]
        if refused:
            lines.append("differential: NOT compared: " + "; ".join(refused))
        return lines


STATS = Stats()


# Paths uniform random play seldom takes; each game's count of them is a Hypothesis `target`.
RARE = frozenset(
    {
        "overbuild opponent L-30",
        "DCM reaches X L-42",
        "coal_market emptied L-17",
        "iron_market emptied L-18",
        "income track top L-48",
        "VP lost to a shortfall L-11",
        "shared win L-53",
        "second rail L-36",
        "virtual link build C-7/L-55",
        "virtual link build legal C-7/L-55",
        "next turn order decides C-15",
        "shortfall before a classic round C-4",
        "Gloucester develop B-26",
        "Gloucester develop declined R-17",
        "an opponent's brewery gives beer B-8",
        "beer choice B-25",
        "second rail's beer B-13",
    }
)


class Divergence(AssertionError):
    """The two engines disagree: a bug in one of them (decide which with the rule text)."""


def json_diff(a, b, path: str = "", out: list | None = None, limit: int = 12) -> list[str]:
    """The first `limit` paths where two JSON values differ, with both values."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b or a[k] != b[k]:
                json_diff(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                json_diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path or '.'}: rust {json.dumps(a)} / reference {json.dumps(b)}")
    return out


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


VIRTUAL_ENDS = {"liverpool": "birkenhead", "birkenhead": "liverpool"}  # C-7, L-55


def virtual_link_builds(state: dict, legal_names: list[str]) -> list[str]:
    """The legal single builds that only the virtual link pays for (C-7, L-55): in Liverpool or Birkenhead, outside
    the mover's network while the other end is in it, the mover holding no card of that location (so an industry
    card pays; a player with something on the board has no first-build exception)."""
    if state["decision"] != "action":
        return []
    mover = state["turn_order"][state["turn"]]
    net = network_of(state, mover)
    hand = state["players"][mover]["hand"]
    out = []
    for name in legal_names:
        parts = name.split()
        if parts[0] != "build" or parts[-1] == "double":
            continue
        location = parts[2].split("/")[0]
        if (
            location in VIRTUAL_ENDS
            and location not in net
            and VIRTUAL_ENDS[location] in net
            and not hand.get(location)
        ):
            out.append(name)
    return out


def network_of(state: dict, player: int) -> set[str]:
    """L-13 on a state object: the locations of the player's tiles and of the ends of their links."""
    net = {space.split("/")[0] for space, tile in state["board"].items() if tile["owner"] == player}
    for line, owner in state["links"].items():
        if owner == player:
            net.update(line.split("-"))
    return net


WILD_CARDS = ("wild_location", "wild_industry")


def birmingham_events(name: str, kind: str, before: dict, after: dict) -> list[str]:
    """The Birmingham rule paths (docs/birmingham.md) one decision took."""
    events = []
    mover = before["turn_order"][before["turn"]] if before["turn"] < len(before["turn_order"]) else None
    nothing_on_board = mover is not None and not network_of(before, mover)
    if kind == "sell":
        events.append("sale to a merchant B-15")
    if kind in ("build", "link") and before["decision"] == "action" and nothing_on_board:
        events.append(f"first {kind} anywhere B-12")
    if kind == "build" and before["decision"] == "action":
        space = name.split()[2]
        tile = after["board"].get(space)
        if tile is not None and tile["industry"] == "pottery" and tile["level"] == 1 and after["era"] == "rail":
            events.append("Pottery I built in the Rail Era K6")
        if tile is not None and tile["industry"] == "brewery" and tile["cubes"] == 2:
            events.append("brewery with 2 barrels B-7")
    if kind == "scout":
        events.append("scout B-17")
    if before["decision"] == "beer":
        events.append("beer choice B-25")
    if before["decision"] == "bonus":
        events.append("Gloucester develop declined R-17" if kind == "stop" else "Gloucester develop B-26")
    if before["decision"] == "link" and kind == "link":
        events.append("second rail's beer B-13")
    for space, tile in before["board"].items():
        new = after["board"].get(space)
        if (
            tile["industry"] == "brewery"
            and new is not None
            and new["cubes"] < tile["cubes"]
            and tile["owner"] != mover
        ):
            events.append("an opponent's brewery gives beer B-8")
    for space, merchant in before["merchants"].items():
        if merchant["beer"] and not after["merchants"][space]["beer"]:
            events.append(f"merchant barrel taken B-26 ({space.split('/')[0]})")
        if not merchant["beer"] and after["merchants"][space]["beer"]:
            events.append("merchant barrels refilled B-20")
    if mover is not None:
        for wild in WILD_CARDS:
            if after["players"][mover]["hand"].get(wild, 0) < before["players"][mover]["hand"].get(wild, 0):
                events.append("wild card played B-17")
    return events


class Pair:
    """One game position held by both engines."""

    def __init__(
        self,
        players: int,
        seed: int | None = None,
        *,
        rust=None,
        ref=None,
        start: dict | None = None,
        test: str = "?",
        config: Config = LANCASHIRE,
    ) -> None:
        """A new seeded game of `config` in both engines, or (`rust`, `ref`, `start`) two states that hold the
        same position `start` (a state object) now; decisions are counted from here."""
        if rust is None:
            rust = config.game(brass, players).new_state(seed=seed)
            ref = config.game(reference, players).new_state(seed)
        self.config = config
        self.ids = ids_of(config.name)
        self.players = players
        self.seed = seed
        self.test = test
        self.start = start  # the record that reproduces this pair: from the seed, or from `start`
        self.actions: list[int] = []
        self.legal: list[int] = []
        self.rare = 0  # rarer rule paths taken in this game (a Hypothesis target)
        self.rust = self.ref = None
        self.attach(rust=rust, ref=ref)

    def attach(self, rust=None, ref=None) -> list[int]:
        """Put a state (a clone, a pickle copy, one loaded from the other engine's JSON) in place of an
        engine's state; it must hold the same position. Its history is checked from here on."""
        if rust is not None:
            self.rust = rust
            self._rust_base = (len(rust.history), len(self.actions))
        if ref is not None:
            self.ref = ref
            self._ref_base = (len(ref.history), len(self.actions))
        return self.check()

    # --- records and reports ------------------------------------------------------------------------
    def record(self) -> dict:
        rec = {"format": RECORD_FORMAT, "game": json.loads(self.rust.to_json())["game"], "actions": list(self.actions)}
        if self.start is not None:
            rec["start"] = self.start
        else:
            rec["seed"] = self.seed
        return rec

    def diverged(self, what: str, details: list[str]) -> Divergence:
        rec = self.record()
        text = dumps(rec)
        where = os.environ.get("BRASS_DIVERGENCE_DIR") or str(ROOT / "target" / "divergences")
        saved = ""
        try:
            Path(where).mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.test)[:80] or "divergence"
            path = Path(where) / f"{name}-latest.json"
            path.write_text(text + "\n")
            saved = f"\nrecord saved to {path} (tests/vectors/make_vectors.py record {path} …)"
        except OSError:
            pass
        body = "\n  ".join(details)
        return Divergence(
            f"engines diverge ({what}) after {len(self.actions)} decisions of a {self.players}-player game:\n  {body}"
            f"{saved}\nrecord: {text}"
        )

    # --- comparison ---------------------------------------------------------------------------------
    @staticmethod
    def views(state) -> tuple:
        """The read-only position views (docs/state-format.md), in the order each engine gives them."""
        return (
            list(state.board.items()),
            list(state.links.items()),
            state.coal_market,
            state.iron_market,
            state.dcm_marker,
            state.dcm_tiles_left,
            state.deck_tile_size,
            state.merchants,
        )

    def check(self) -> list[int]:
        """Both engines agree on everything observable here; returns the legal ids."""
        a, b = self.rust, self.ref
        ja, jb = a.to_json(), b.to_json()
        if ja != jb:
            raise self.diverged("state JSON", json_diff(json.loads(ja), json.loads(jb)))
        la, lb = a.legal_actions(), b.legal_actions()
        if la != lb:
            only_a = sorted(set(la) - set(lb))
            only_b = sorted(set(lb) - set(la))
            details = [f"decision {a.decision}, player {a.current_player}"]
            details += [
                f"legal only in rust: {[self.ids.names[i] for i in only_a]}",
                f"legal only in reference: {[self.ids.names[i] for i in only_b]}",
            ]
            if la == sorted(set(la)) and lb == sorted(set(lb)) and not only_a and not only_b:
                details.append(f"same sets, different lists: {la} / {lb}")
            raise self.diverged("legal actions", details)
        facts_a = (a.current_player, a.decision, a.is_terminal, a.round, a.era, a.actions_left, a.deck_size)
        facts_b = (b.current_player, b.decision, b.is_terminal, b.round, b.era, b.actions_left, b.deck_size)
        if facts_a != facts_b:
            raise self.diverged(
                "properties",
                [
                    (
                        f"(player, decision, terminal, round, era, actions_left, deck) "
                        f"rust {facts_a} / reference {facts_b}"
                    )
                ],
            )
        views_a, views_b = self.views(a), self.views(b)
        if views_a != views_b:
            raise self.diverged(
                "position views",
                [
                    "(board, links, coal, iron, dcm marker, dcm tiles, deck tile, merchants) "
                    f"rust {views_a} / reference {views_b}"
                ],
            )
        if a.is_terminal and (a.scores, a.winners) != (b.scores, b.winners):
            raise self.diverged(
                "final scores",
                [f"scores rust {a.scores} / reference {b.scores}", f"winners rust {a.winners} / reference {b.winners}"],
            )
        for name, state, (h0, a0) in (("rust", a, self._rust_base), ("reference", b, self._ref_base)):
            if state.history[h0:] != self.actions[a0:]:
                raise self.diverged(
                    "history", [f"{name} history {state.history[h0:]}", f"decisions taken {self.actions[a0:]}"]
                )
        self.legal = la
        self._json = ja
        return la

    @property
    def over(self) -> bool:
        return not self.legal

    def apply(self, action) -> list[int]:
        """Take one decision in both engines and compare; returns the new legal ids."""
        aid = action if isinstance(action, int) else self.ids.game.parse_action(action)
        if aid not in self.legal:
            raise ValueError(f"test bug: {action!r} is not legal here")
        STATS.decision_kinds[self.rust.decision] += 1
        errors = []
        for state in (self.rust, self.ref):
            try:
                state.apply(action)
                errors.append(None)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # noqa: BLE001 - any exception, a PanicException too, is a finding
                errors.append(e)
        if errors != [None, None]:
            self.actions.append(aid)
            raise self.diverged(
                f"apply {self.ids.names[aid]!r} (legal in both)",
                [f"rust: {errors[0]!r}", f"reference: {errors[1]!r}"],
            )
        self.actions.append(aid)
        STATS.decisions += 1
        STATS.action_kinds[self.ids.kind[aid]] += 1
        before = self._json
        legal = self.check()
        self.note_events(aid, json.loads(before), json.loads(self._json))
        return legal

    def note_events(self, aid: int, before: dict, after: dict) -> None:
        """Count the rarer rule paths a decision took (they show what the comparison covered)."""
        events = []
        name, kind = self.ids.names[aid], self.ids.kind[aid]
        birmingham = before["game"]["name"] == "birmingham"
        if kind == "build" and before["decision"] == "action":
            held = before["board"].get(name.split()[2])
            if held is not None:
                mover = before["turn_order"][before["turn"]]
                events.append("overbuild own L-29" if held["owner"] == mover else "overbuild opponent L-30")
        build = kind == "build" and before["decision"] == "action" and not name.endswith("double")
        if build and virtual_link_builds(before, [name]):
            events.append("virtual link build C-7/L-55")
        if not birmingham and virtual_link_builds(after, [self.ids.names[a] for a in self.legal]):
            events.append("virtual link build legal C-7/L-55")
        if kind == "sell" and name.endswith("distant"):
            events.append("distant sale L-42")
            if after["dcm"]["marker"] == 8:
                events.append("DCM reaches X L-42")
            if before["game"]["name"] == "brass":
                events.append("DCM tile to the bottom C-11")
        if kind == "sell" and not name.endswith("distant") and not birmingham:
            port = before["board"][name.split()[2]]
            mover = before["turn_order"][before["turn"]]
            events.append("sale to own port L-41" if port["owner"] == mover else "sale to opponent's port L-41")
        if kind == "link" and before["decision"] == "link":
            events.append("second rail L-36")
        if before["decision"] in ("coal", "iron", "remove"):
            events.append(f"{before['decision']} choice")
        for key, rule in (("coal_market", "L-17"), ("iron_market", "L-18")):
            if after[key] == 0 < before[key]:
                events.append(f"{key} emptied {rule}")
        for x, y in zip(before["players"], after["players"], strict=True):
            if y["vp"] < x["vp"]:
                events.append("VP lost to a shortfall L-11")
            if y["income_space"] == 99 != x["income_space"]:
                events.append("income track top L-48")
        if before["era"] == "canal" and after["era"] == "rail":
            events.append("canal era end L-51")
        if after["decision"] == "over" and after["era"] == "canal":
            events.append("introductory game end L-54")
        if birmingham:
            events += birmingham_events(name, kind, before, after)
        classic = before["game"]["name"] == "brass"
        if classic and before["decision"] == "action" and before["era"] == "rail" and not before["deck"]:
            events.append("loans closed with the deck C-5")
        if classic and after["decision"] == "remove" and before["decision"] != "remove":
            events.append("shortfall before a classic round C-4")
        if classic and after["decision"] == "over":
            levels = [self.rust.player(i).income_level for i in range(self.players)]
            top = sorted(
                ((p["vp"], lv, p["money"]) for p, lv in zip(after["players"], levels, strict=True)), reverse=True
            )
            if top[0] == top[1]:
                events.append("next turn order decides C-15")
        if after["decision"] == "over" and len(self.rust.winners) > 1:
            events.append("shared win L-53")
        if after["decision"] == "over":
            top = sorted(p["vp"] for p in after["players"])
            if top[-1] == top[-2]:
                events.append("VP tie at the top L-53")
        STATS.events.update(events)
        self.rare += sum(e in RARE for e in events)

    def reject(self, bad) -> str:
        """`bad` is not a legal decision: both engines must raise the same exception class and change nothing.
        Returns the exception class name."""
        before = [(s.to_json(), s.history) for s in (self.rust, self.ref)]
        raised = []
        for state in (self.rust, self.ref):
            try:
                state.apply(bad)
                raised.append(None)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # noqa: BLE001 - a PanicException is a finding too
                raised.append(e)
        after = [(s.to_json(), s.history) for s in (self.rust, self.ref)]
        kinds = [type(e) if e is not None else None for e in raised]
        if kinds[0] is None or kinds[0] is not kinds[1] or not isinstance(raised[0], brass.BrassError):
            raise self.diverged(f"rejecting {bad!r}", [f"rust: {raised[0]!r}", f"reference: {raised[1]!r}"])
        if after != before:
            raise self.diverged(
                f"state changed by rejected {bad!r}",
                json_diff(json.loads(before[0][0]), json.loads(after[0][0]))
                + json_diff(json.loads(before[1][0]), json.loads(after[1][0])),
            )
        STATS.rejections += 1
        return kinds[0].__name__

    def parse_agrees(self, text) -> int | None:
        """Both engines' `Game.parse_action` give the same id or the same exception class."""
        out = []
        for state in (self.rust, self.ref):
            try:
                out.append(state.game.parse_action(text))
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # noqa: BLE001
                out.append(e)
        if isinstance(out[0], int) and isinstance(out[1], int):
            if out[0] != out[1]:
                raise self.diverged(f"parse_action({text!r})", [f"rust {out[0]} / reference {out[1]}"])
            return out[0]
        if type(out[0]) is not type(out[1]) or not isinstance(out[0], brass.NotationError):
            raise self.diverged(f"parse_action({text!r})", [f"rust: {out[0]!r}", f"reference: {out[1]!r}"])
        return None


# --- Hypothesis side: choosing decisions and illegal inputs ----------------------------------------------

SEEDS = st.integers(0, 2**64 - 1)
PLAYERS = st.sampled_from([2, 3, 4])

# How a game picks among the legal ids at an `action` decision (follow-up decisions are always uniform):
#   uniform - any legal id;
#   active  - anything but pass while something else is legal (loans stay in);
#   busy    - no pass and no loan while a build / link / develop / sell is legal (busy boards: sales,
#             shortfalls of the builders, coal and iron choices, overbuilding);
#   builder - builds and sales only while one is legal (mills, ports, coal and iron use, sales);
#   seller  - a sale if one is legal, else a mill or port build, else a link, else anything busy (each tier
#             skipped on a drawn 1-in-8 coin): reaches the Distant Cotton Market's X, empties the markets;
#   mixed   - a drawn coin at each action decision: busy or uniform.
#   mersey  - (configurations with the virtual link, C-7 / L-55) a build only the virtual link pays for if one is
#             legal, else a link at Birkenhead or Ellesmere Port, else a build in Ellesmere Port, Liverpool or
#             Birkenhead, else a port or shipyard develop, else anything busy (each tier skipped on a drawn 1-in-8
#             coin). Random play seldom reaches the virtual link's card condition: the usual way is a rail to
#             Birkenhead, then a port card for Liverpool.
#   trader  - (Birmingham) like `seller`, with a loan tier before the builds while the player has less than £12:
#             Birmingham's £17 and dear tiles leave random players broke, so sales (beer, merchant barrels, the
#             bonuses) come late and seldom otherwise.
#   (The sets of ids each style prefers are the game's, `IdTable`: in Birmingham the `seller` style's builds are the
#   sold industries and breweries.)
STYLES = ("uniform", "active", "busy", "builder", "seller", "mixed")
STYLE = st.sampled_from(STYLES)


def style_for(cfg: Config):
    """The playing styles drawn for a configuration: with the virtual link, `mersey` is drawn a third of the time;
    in Birmingham `seller` is (random play seldom has the beer and the merchant connection a sale needs)."""
    if cfg.name == "brass" or dict(cfg.options).get("virtual_link"):
        return st.sampled_from(STYLES + ("mersey",) * 3)
    if cfg.name == "birmingham":
        return st.sampled_from(STYLES + ("seller", "trader", "trader"))
    return STYLE


def tiers(pair: Pair, style: str) -> list[list[int]]:
    """The preference tiers of the `seller` and `mersey` styles at an action decision."""
    legal, ids = pair.legal, pair.ids
    if style in ("seller", "trader"):
        poor = style == "trader" and pair.rust.player(pair.rust.current_player).money < 12
        return [
            [a for a in legal if ids.kind[a] == "sell"],
            [a for a in legal if ids.kind[a] == "loan"] if poor else [],
            [a for a in legal if a in ids.trade_builds],
            [a for a in legal if ids.kind[a] == "link"],
            [a for a in legal if a not in ids.passive],
        ]
    virtual = set(virtual_link_builds(json.loads(pair.rust.to_json()), [ids.names[a] for a in legal]))
    return [
        [a for a in legal if ids.names[a] in virtual],
        [a for a in legal if a in ids.mersey_links],
        [a for a in legal if a in ids.mersey_builds],
        [a for a in legal if a in ids.mersey_develops],
        [a for a in legal if a not in ids.passive],
    ]


def choose(data, pair: Pair, style: str) -> int:
    """One legal id, drawn with `data` (an index into the legal ids or into the preferred subset)."""
    legal, ids = pair.legal, pair.ids
    if len(legal) == 1:
        return legal[0]
    pool = legal
    if style in ("seller", "trader", "mersey") and pair.rust.decision == "action":
        for tier in tiers(pair, style):
            if tier and data.draw(st.integers(0, 7), label="skip tier") != 0:
                pool = tier
                break
    elif style != "uniform" and pair.rust.decision == "action":
        if style == "active":
            preferred = [a for a in legal if ids.kind[a] != "pass"]
        elif style == "builder":
            preferred = [a for a in legal if ids.kind[a] in ("build", "sell")]
        else:
            preferred = [a for a in legal if a not in ids.passive]
        if preferred and (style != "mixed" or data.draw(st.booleans(), label="busy")):
            pool = preferred
    if len(pool) == 1:
        return pool[0]
    return pool[data.draw(st.integers(0, len(pool) - 1), label=f"index of {len(pool)}")]


def out_of_range(num_actions: int) -> list[int]:
    """Ids outside a game's id space (docs/reference-notes.md item 13)."""
    return [-1, -2, -(2**63), num_actions, num_actions + 1, 2**16, 2**63, 2**64, 2**70]


# Values that are not ids at all.
WRONG_TYPES = [None, 1.5, float("nan"), True, False, b"pass", bytearray(b"pass"), [0], (0,), {"id": 0}, 1j]
# Characters for random notation text: the notation's own, white space of several kinds (Unicode White_Space
# and the four ASCII separators that Python's str.isspace counts but Unicode does not), upper case, the Kelvin
# sign (lower-cases to `k`), lone surrogates (not valid Unicode: NotationError in both) and a few others.
TEXT_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyz_/-0123456789 "
    "ABCDELNPRSW"
    "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2003\u3000\u200b\u212a\x00é\ud800\udfff"
)
PROBES = ("illegal id", "out of range", "wrong type", "numpy id", "illegal notation", "random text", "mangled notation")


def mangle(data, text: str) -> str:
    """A variation of a notation: some stay valid (case, white space), most do not."""
    how = data.draw(
        st.sampled_from(["upper", "spaces", "drop", "insert", "swap ends", "renumber", "truncate"]), label="mangle"
    )
    if how == "upper":
        return text.upper()
    if how == "spaces":
        ws = data.draw(st.sampled_from([" ", "  ", "\t", "\n", "\xa0", "\x1f", "\u3000"]), label="ws")
        return ws + text.replace(" ", ws) + ws
    if how == "drop" and len(text) > 1:
        i = data.draw(st.integers(0, len(text) - 1), label="at")
        return text[:i] + text[i + 1 :]
    if how == "insert":
        i = data.draw(st.integers(0, len(text)), label="at")
        c = data.draw(st.sampled_from(TEXT_ALPHABET), label="char")
        return text[:i] + c + text[i:]
    if how == "swap ends" and "-" in text:
        head, _, line = text.rpartition(" ")
        a, _, b = line.partition("-")
        return f"{head} {b}-{a}"
    if how == "renumber" and "/" in text:
        n = data.draw(st.integers(0, 12), label="number")
        return re.sub(r"/\d+", f"/{n}", text, count=1)
    return text[: data.draw(st.integers(0, len(text)), label="cut")]


def probe(data, pair: Pair) -> None:
    """Try one illegal input on both engines; they must reject it alike and change nothing."""
    legal = set(pair.legal)
    names = pair.ids.names
    num_actions = len(names)
    kind = data.draw(st.sampled_from(PROBES), label="probe")
    if kind == "illegal id":
        pair.reject(data.draw(st.integers(0, num_actions - 1).filter(lambda a: a not in legal), label="id"))
    elif kind == "out of range":
        pair.reject(data.draw(st.sampled_from(out_of_range(num_actions)), label="id"))
    elif kind == "wrong type":
        pair.reject(data.draw(st.sampled_from(WRONG_TYPES), label="value"))
    elif kind == "numpy id":
        import numpy as np

        aid = data.draw(st.integers(0, num_actions - 1).filter(lambda a: a not in legal), label="id")
        pair.reject(data.draw(st.sampled_from([np.int64, np.int32, np.uint16]), label="dtype")(aid))
    else:
        if kind == "random text":
            text = data.draw(st.text(TEXT_ALPHABET, max_size=40), label="text")
        else:
            aid = data.draw(st.integers(0, num_actions - 1), label="id")
            text = names[aid] if kind == "illegal notation" else mangle(data, names[aid])
        parsed = pair.parse_agrees(text)
        if parsed is not None and parsed in legal:
            return  # still a legal decision: nothing to reject
        pair.reject(text)


def play(data, pair: Pair, style: str, probe_every: int = 0, max_decisions: int | None = None) -> bool:
    """Play drawn decisions until the game is over (or `max_decisions` were taken), trying an illegal input
    every `probe_every` decisions (0: never). Returns True when the game is over."""
    taken = 0
    while not pair.over:
        if max_decisions is not None and taken >= max_decisions:
            return False
        if probe_every and taken % probe_every == probe_every - 1:
            probe(data, pair)
        pair.apply(choose(data, pair, style))
        taken += 1
    if probe_every:
        probe(data, pair)  # everything is illegal once the game is over
    return True


# --- Loading edited states: both loaders accept the same states, and reject the rest alike ------------------

EDIT_VALUES = [
    0,
    1,
    -1,
    2,
    3,
    7,
    8,
    9,
    14,
    99,
    100,
    100_000,
    100_001,
    -1001,
    2**31,
    2**63,
    2**64,
    None,
    True,
    False,
    1.5,
    "x",
    "",
    [],
    {},
    "canal",
    "rail",
    "over",
    "card",
    "build",
    "manchester/1",
    "port",
    "01",
]


def json_paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from json_paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from json_paths(v, (*path, i))


def edit_state(data, text: str) -> str:
    """One drawn edit of a state JSON: a value replaced (a neighbour of an integer, or something else), a key
    removed, or an unknown key added."""
    obj = json.loads(text)
    paths = [p for p in json_paths(obj) if p]
    path = paths[data.draw(st.integers(0, len(paths) - 1), label="edit path")]
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    old = parent[path[-1]]
    how = data.draw(st.sampled_from(["neighbour", "value", "remove", "add key"]), label="edit")
    if how == "neighbour" and isinstance(old, int) and not isinstance(old, bool):
        parent[path[-1]] = old + data.draw(st.sampled_from([-2, -1, 1, 2]), label="by")
    elif how == "remove" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "add key" and isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["extra", "hand", "board", "x"]), label="key")] = 1
    else:
        parent[path[-1]] = data.draw(st.sampled_from(EDIT_VALUES), label="value")
    return dumps(obj)


def loaders_agree(pair: Pair, text: str) -> bool:
    """Both engines' `State.from_json` accept `text` with identical results, or reject it with the same exception
    class. Returns True when it was accepted."""
    out = []
    for engine in (brass, reference):
        try:
            state = engine.State.from_json(text)
            out.append((state.to_json(), state.legal_actions()))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # noqa: BLE001
            out.append(e)
    ok = [not isinstance(o, BaseException) for o in out]
    if ok == [True, True] and out[0] == out[1]:
        return True
    if ok == [False, False] and type(out[0]) is type(out[1]) and isinstance(out[0], brass.InvalidStateError):
        STATS.rejections += 1
        return False
    details = [f"edited state: {text}"]
    for name, o in zip(("rust", "reference"), out, strict=True):
        details.append(f"{name}: {o!r}" if isinstance(o, BaseException) else f"{name}: loads it")
    if ok == [True, True]:
        details += json_diff(json.loads(out[0][0]), json.loads(out[1][0]))
    raise pair.diverged("State.from_json of an edited state", details)
