"""Make and check the golden game vectors of tests/vectors/ (docs/verification.md, "Golden vectors").

A vector is one JSON file:

    {"description": "...", "rule_ids": ["L-16", ...],
     "record": <game record, docs/state-format.md "Game records">,
     "legal_counts": [number of legal actions before each action of record.actions],
     "final_state": <canonical state object after the last action>}

`tests/test_vectors.py` (both engines, via the `engine` fixture) and `rust/brass-core/tests/vectors.rs`
(cargo test) replay every vector: each action must be legal, the legal-action counts and the final state must
match. This script writes a vector only when the Rust engine and the reference agree on the whole game
(canonical JSON and sorted legal actions at every decision), so a vector is never one engine's opinion.

Usage (from the repository root, with `brass` installed):

    python tests/vectors/make_vectors.py random
        (Re)write the complete random games random_{2,3,4}p_seed_*.json and random_3p_loaded_start.json, and one
        or two complete random games of every other configuration of docs/classic.md (random_<config>_seed_*.json:
        classic Brass, the Lancashire options) and of Brass: Birmingham (docs/birmingham.md: 2, 3 and 4 players
        and the introductory game). A configuration the Rust engine does not play yet is skipped with a message and
        the exit status is 1.
    python tests/vectors/make_vectors.py record RECORD.json --name NAME --description TEXT --rule-id L-16 [...]
        Turn a game record (e.g. one a differential test saved to target/divergences/ when the engines
        diverged, after the faulty engine is fixed) into tests/vectors/divergence_NAME.json.
    python tests/vectors/make_vectors.py check
        Replay every vector in both engines and report (exit status 1 on any mismatch).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import brass
from brass import reference

HERE = Path(__file__).resolve().parent
RANDOM_GAMES = {2: [201, 202], 3: [301, 302], 4: [401, 402]}  # player count -> seeds
LOADED_START = (3, 303, 120)  # players, seed, decisions before the state is exported and the record starts
# The other configurations (docs/classic.md): (game, players, options, seed).
CONFIG_GAMES = [
    ("brass", 3, {}, 501),
    ("brass", 4, {}, 502),
    ("lancashire", 3, {"classic_deck": True}, 601),
    ("lancashire", 4, {"classic_deck": True, "virtual_link": True}, 602),
    ("lancashire", 2, {"virtual_link": True}, 603),
    ("lancashire", 3, {"intro": True}, 604),
    ("lancashire", 4, {"intro": True, "virtual_link": True}, 605),
    # Brass: Birmingham (docs/birmingham.md), with `trader_choice`; each seed is the one of 701-740 whose game has
    # the most sales and beer decisions.
    ("birmingham", 2, {}, 737),
    ("birmingham", 3, {}, 730),
    ("birmingham", 4, {}, 732),
    ("birmingham", 3, {"intro": True}, 733),
]
# Rules a configuration's game shows besides those its decisions derive (docs/classic.md, docs/birmingham.md ids).
CONFIG_RULES = {
    "brass": ["C-2", "C-3", "C-4", "C-5", "C-6", "C-7", "C-11", "C-14", "C-15", "C-17", "R-11", "R-14", "R-15", "R-16"],
    "classic_deck": ["L-56"],
    "virtual_link": ["L-55"],
    "intro": ["L-54"],
    # Birmingham: the set-up (B-1 … B-5), industries and beer (B-6 … B-9), what the game does not have (B-23, B-24).
    "birmingham": ["B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-23", "B-24"],
    "birmingham intro": ["B-22"],
}


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def start_pair(record: dict):
    """Both engines at the start of a record (from its seed or its start state)."""
    game = record["game"]
    if "seed" in record:
        return (
            brass.Game(game["name"], players=game["players"], **game["options"]).new_state(seed=record["seed"]),
            reference.Game(game["name"], players=game["players"], **game["options"]).new_state(record["seed"]),
        )
    text = dumps(record["start"])
    return brass.State.from_json(text), reference.State.from_json(text)


class Disagreement(Exception):
    pass


def replay_both(record: dict) -> tuple[list[int], dict, list[str]]:
    """Replay in both engines, requiring agreement at every decision. Returns the legal counts, the final state
    object and the decisions seen (for rule ids)."""
    a, b = start_pair(record)
    counts, seen = [], []
    for i, aid in enumerate(record["actions"]):
        if a.era != b.era:
            raise Disagreement(f"era differs before action {i}")
        era = a.era
        if a.to_json() != b.to_json():
            raise Disagreement(f"state JSON differs before action {i}")
        legal = a.legal_actions()
        if legal != b.legal_actions():
            raise Disagreement(f"legal actions differ before action {i}")
        if aid not in legal:
            raise Disagreement(f"action {i} ({aid}) is not legal")
        counts.append(len(legal))
        seen.append(a.decision)
        seen.append(a.game.action_name(aid).split()[0])
        a.apply(aid)
        b.apply(aid)
        if a.era != era or a.is_terminal:
            seen.append(f"end of {era}")
    if a.to_json() != b.to_json() or a.legal_actions() != b.legal_actions():
        raise Disagreement("engines differ after the last action")
    return counts, json.loads(a.to_json()), seen


# What a game exercised -> the rules it shows (docs/rules.md ids).
RULES_BY_EVENT = {
    "build": ["L-21", "L-23", "L-24", "L-26"],
    "link": ["L-34", "L-35", "L-36"],
    "develop": ["L-39"],
    "sell": ["L-40", "L-41", "L-42"],
    "loan": ["L-45"],
    "pass": ["L-47"],
    "coal": ["L-16"],
    "iron": ["L-18"],
    "remove": ["L-11"],
    "card": ["L-8"],
    "end of canal": ["L-12", "L-49", "L-50", "L-51"],
    "end of rail": ["L-12", "L-49", "L-50", "L-52", "L-53"],
}


# The same for Brass: Birmingham (docs/birmingham.md ids, and the Lancashire rules it shares).
RULES_BY_EVENT_BIRMINGHAM = {
    "build": ["B-10", "B-11", "L-24", "L-26"],
    "link": ["B-12", "B-13", "L-35"],
    "develop": ["B-14"],
    "sell": ["B-15"],
    "loan": ["B-16"],
    "scout": ["B-17", "B-31"],
    "pass": ["B-18"],
    "coal": ["L-16"],
    "iron": ["L-18"],
    "beer": ["B-25"],
    "bonus": ["B-26", "R-17"],
    "remove": ["L-11"],
    "card": ["L-8"],
    "end of canal": ["L-12", "B-19", "B-20", "B-30"],
    "end of rail": ["L-12", "B-19", "B-21"],
}


def rule_ids_of(seen: list[str], extra=(), game: str = "lancashire") -> list[str]:
    ids = set(extra)
    by_event = RULES_BY_EVENT_BIRMINGHAM if game == "birmingham" else RULES_BY_EVENT
    for event in seen:
        ids.update(by_event.get(event, []))
    if "L-54" in ids:
        ids.discard("L-51")  # the introductory game ends with the Canal Era: no Rail set-up
    if "B-22" in ids:
        ids -= {"B-20", "B-30"}  # the introductory game ends with the Canal Era: no Rail set-up
    return sorted(ids, key=lambda r: ("BCLR".index(r[0]), int(r.split("-")[1])))


def make_vector(record: dict, description: str, rule_ids=(), derive_rules=False) -> dict:
    counts, final, seen = replay_both(record)
    game = record["game"]["name"]
    return {
        "description": description,
        "rule_ids": rule_ids_of(seen, rule_ids, game) if derive_rules else list(rule_ids),
        "record": record,
        "legal_counts": counts,
        "final_state": final,
    }


def vector_text(vector: dict) -> str:
    """One top-level key per line (readable descriptions and diffs), the values in canonical JSON."""
    keys = ["description", "rule_ids", "record", "legal_counts", "final_state"]
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {dumps(vector[k])}" for k in keys) + "\n}\n"


def write(name: str, vector: dict) -> Path:
    path = HERE / f"{name}.json"
    path.write_text(vector_text(vector))
    print(f"wrote {path.relative_to(HERE.parent.parent)} ({len(vector['record']['actions'])} actions)")
    return path


def busy_choice(rng: random.Random, state, legal: list[int]) -> int:
    """The policy of the random vectors: mostly something other than pass / loan when that is legal."""
    busy = [a for a in legal if not state.game.action_name(a).startswith(("pass", "loan"))]
    return rng.choice(busy if busy and rng.random() < 0.85 else legal)


TRADE_BUILDS = ("build cotton_mill", "build manufacturer", "build pottery", "build brewery")


def trader_choice(rng: random.Random, state, legal: list[int]) -> int:
    """The policy of the Birmingham vectors (random play seldom has the money, the beer and the merchant connection
    a sale needs): at an `action` decision a sale with probability 0.9 when one is legal, else a loan with
    probability 0.6 when money is below £12, else a build of a sold industry or a brewery with probability 0.7,
    else a link with probability 0.7; otherwise the busy policy."""
    if state.decision == "action":
        names = {a: state.game.action_name(a) for a in legal}
        money = state.player(state.current_player).money
        sells = [a for a in legal if names[a].startswith("sell")]
        if sells and rng.random() < 0.9:
            return rng.choice(sells)
        loans = [a for a in legal if names[a].startswith("loan")]
        if loans and money < 12 and rng.random() < 0.6:
            return rng.choice(loans)
        for tier in (TRADE_BUILDS, ("link",)):
            ids = [a for a in legal if names[a].startswith(tier)]
            if ids and rng.random() < 0.7:
                return rng.choice(ids)
    return busy_choice(rng, state, legal)


def play_random(state, rng: random.Random, max_decisions: int | None = None, choice=busy_choice):
    n = 0
    while not state.is_terminal and (max_decisions is None or n < max_decisions):
        state.apply(choice(rng, state, state.legal_actions()))
        n += 1
    return state


def config_name(game: str, players: int, options: dict) -> str:
    """e.g. brass_3p, lancashire_4p_intro_virtual_link."""
    return "_".join([game, f"{players}p"] + sorted(options))


def cmd_random(_args) -> int:
    status = 0
    for game, players, options, seed in CONFIG_GAMES:
        label = config_name(game, players, options)
        try:
            state = brass.Game(game, players=players, **options).new_state(seed=seed)
        except brass.ConfigError as e:
            print(f"skipped {label}: the Rust engine does not play it yet ({e})")
            status = 1
            continue
        policy = trader_choice if game == "birmingham" else busy_choice
        state = play_random(state, random.Random(f"vector {label} {seed}"), choice=policy)
        if game in ("brass", "birmingham"):
            extra = CONFIG_RULES[game] + [r for o in options for r in CONFIG_RULES[f"{game} {o}"]]
        else:
            extra = [r for o in options for r in CONFIG_RULES[o]]
        shown = ", ".join(f"{k}=True" for k in sorted(options))
        if game == "birmingham":
            doc = "docs/birmingham.md"
            how = (
                "a sale (0.9), a loan below £12 (0.6), a build of a sold industry or a brewery (0.7), a link (0.7), "
                "else an action other than pass or loan with probability 0.85 when one is legal"
            )
        else:
            doc, how = "docs/classic.md", "an action other than pass or loan with probability 0.85 when one is legal"
        vec = make_vector(
            json.loads(state.record()),
            f"A complete random game of Game({game!r}, players={players}{', ' if shown else ''}{shown}) "
            f"({doc}; seed {seed}; policy: {how}). Made by tests/vectors/make_vectors.py random with both engines "
            "agreeing at every decision.",
            extra,
            derive_rules=True,
        )
        write(f"random_{label}_seed_{seed}", vec)
    for players, seeds in RANDOM_GAMES.items():
        for seed in seeds:
            state = play_random(
                brass.Game("lancashire", players=players).new_state(seed=seed),
                random.Random(f"vector {players} {seed}"),
            )
            vec = make_vector(
                json.loads(state.record()),
                f"A complete random {players}-player game (seed {seed}; policy: an action other than "
                "pass or loan with probability 0.85 when one is legal). Made by "
                "tests/vectors/make_vectors.py random with both engines agreeing at every decision.",
                derive_rules=True,
            )
            write(f"random_{players}p_seed_{seed}", vec)
    players, seed, before = LOADED_START
    rng = random.Random(f"vector {players} {seed} loaded")
    state = play_random(brass.Game("lancashire", players=players).new_state(seed=seed), rng, before)
    while state.decision == "action":  # start the record inside an action (coal / iron / card / … decision)
        state.apply(busy_choice(rng, state, state.legal_actions()))
    loaded = play_random(brass.State.from_json(state.to_json()), rng)
    vec = make_vector(
        json.loads(loaded.record()),
        f"A {players}-player game loaded from a state exported at a `{state.decision}` decision "
        f"(seed {seed}, after {len(state.history)} decisions) and played to the end: the record "
        "has `start` instead of `seed`.",
        ["L-11"],
        derive_rules=True,
    )
    write(f"random_{players}p_loaded_start", vec)
    return status


def cmd_record(args) -> int:
    record = json.loads(Path(args.file).read_text())
    if args.stop is not None:
        record["actions"] = record["actions"][: args.stop]
    if not re.fullmatch(r"[a-z0-9_]+", args.name):
        sys.exit("--name: lower-case letters, digits and _ only")
    for r in args.rule_id:
        if not re.fullmatch(r"[BCLR]-\d+", r):
            sys.exit(f"--rule-id {r}: expected B-<n>, C-<n>, L-<n> or R-<n>")
    try:
        vec = make_vector(record, args.description, args.rule_id)
    except Disagreement as e:
        sys.exit(f"the engines still disagree on this record ({e}): fix the faulty engine first")
    write(f"divergence_{args.name}", vec)
    return 0


def cmd_check(_args) -> int:
    bad = 0
    paths = sorted(HERE.glob("*.json"))
    for path in paths:
        vec = json.loads(path.read_text())
        try:
            counts, final, _ = replay_both(vec["record"])
            if counts != vec["legal_counts"]:
                raise Disagreement("legal counts differ from the vector's")
            if final != vec["final_state"]:
                raise Disagreement("final state differs from the vector's")
        except (Disagreement, brass.BrassError) as e:
            bad += 1
            print(f"FAIL {path.name}: {e}")
        else:
            print(f"ok   {path.name}")
    print(f"{len(paths) - bad} passed, {bad} failed")
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("random", help="(re)write the random complete-game vectors").set_defaults(run=cmd_random)
    rec = sub.add_parser("record", help="make divergence_NAME.json from a game record")
    rec.add_argument("file")
    rec.add_argument("--name", required=True)
    rec.add_argument("--description", required=True)
    rec.add_argument("--rule-id", action="append", default=[], required=True)
    rec.add_argument("--stop", type=int, help="keep only the first STOP actions of the record")
    rec.set_defaults(run=cmd_record)
    sub.add_parser("check", help="replay every vector in both engines").set_defaults(run=cmd_check)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
