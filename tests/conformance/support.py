"""The configurations of the conformance suite, the engines it runs on, and the random games it plays.

Everything is driven by the catalog (`brass.games()`): each game × each of its player counts × every
combination of the `bool` options the catalog allows at that player count is one configuration, with a test id
such as `lancashire-3p-intro-virtual_link` (options in the order `brass.games()` lists them). A game added to the catalog gets the
whole suite without a change here.

Each engine has a budget (`BUDGETS`): how many random games per configuration are played to the end, how many
of them are sampled for the position checks, and how many positions of each are sampled. The pure-Python
reference is about 30 times slower than the native engine, so its share is small. `BRASS_TEST_ENGINES`
(comma-separated module names, as for the rest of the suite, tests/conftest.py) picks the engines of one run.
"""

from __future__ import annotations

import importlib
import itertools
import os
import random
import zlib
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

import brass

ENGINE_NAMES = ["brass", "brass.reference"]
if os.environ.get("BRASS_TEST_ENGINES"):
    ENGINE_NAMES = [name.strip() for name in os.environ["BRASS_TEST_ENGINES"].split(",") if name.strip()]

# Short test ids of the engines.
ENGINE_IDS = {"brass": "native", "brass.reference": "reference"}


@dataclass(frozen=True)
class Budget:
    end_games: int  # random games played to the end per configuration (the sampled games are among them)
    sampled_games: int  # of those, games whose positions are sampled for the position checks
    random_positions: int  # positions drawn uniformly from each sampled game, besides the stratified ones
    by_era: bool  # stratify by (era, decision) rather than by decision only
    replays: int | None  # sampled positions of each sampled game whose records are replayed (None: all; the
    # final one always)


BUDGETS = {
    "brass": Budget(end_games=20, sampled_games=2, random_positions=6, by_era=True, replays=None),
    "brass.reference": Budget(end_games=2, sampled_games=1, random_positions=3, by_era=False, replays=2),
}
DEFAULT_BUDGET = BUDGETS["brass.reference"]  # an engine not listed here is assumed slow


def budget(engine: ModuleType) -> Budget:
    return BUDGETS.get(engine.__name__, DEFAULT_BUDGET)


@dataclass(frozen=True)
class Config:
    name: str
    players: int
    options: tuple[tuple[str, bool], ...]  # the options set to True, in the order brass.games() lists them

    @property
    def id(self) -> str:
        return "-".join([self.name, f"{self.players}p", *(key for key, _ in self.options)])

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)

    def game(self, engine: ModuleType) -> Any:
        return engine.Game(self.name, players=self.players, **self.kwargs)


def configurations(catalog: dict[str, dict[str, Any]]) -> list[Config]:
    """Every configuration of the catalog: game × player count × every combination of its bool options that
    the catalog allows at that player count (an option's `players` list)."""
    out = []
    for name, entry in catalog.items():
        for players in entry["players"]:
            flags = [
                key
                for key, option in entry["options"].items()
                if option["type"] == "bool" and players in option.get("players", entry["players"])
            ]
            for values in itertools.product((False, True), repeat=len(flags)):
                chosen = tuple((key, True) for key, on in zip(flags, values, strict=True) if on)
                out.append(Config(name, players, chosen))
    return out


CONFIGS = configurations(brass.games())


@cache
def plays(engine_name: str, game: str) -> bool:
    """Whether the engine plays the game: every engine registers the whole catalog, but an engine may refuse a
    game it does not play yet (`ConfigError` naming that), and then the game's configurations are not run on
    it (the run's summary names them)."""
    engine = importlib.import_module(engine_name)
    players = brass.games()[game]["players"][0]
    try:
        engine.Game(game, players=players)
    except brass.ConfigError as e:
        if "does not play" in str(e):
            return False
        raise
    return True


# --- Random games -------------------------------------------------------------------------------------------


@dataclass
class Played:
    """One random game: its configuration, seed, the actions chosen, the final state and (for a sampled game)
    some positions along the way as `(decision number, state)`. The states are shared between tests: copy
    before changing them."""

    game: Any
    seed: int
    actions: list[int]
    final: Any
    positions: list[tuple[int, Any]] = field(default_factory=list)


def seed_of(engine_name: str, config: Config, index: int) -> int:
    """A fixed seed per engine, configuration and game: the engines play different games, for coverage."""
    return zlib.crc32(f"{engine_name}/{config.id}/{index}".encode())


@cache
def play(engine_name: str, config: Config, index: int) -> Played:
    """Game `index` of the configuration on the engine: uniformly random legal actions from a seeded RNG, at
    most `game.max_decisions` of them. A sampled game (index < `sampled_games`) keeps its first position,
    the first position of each decision (per era when `by_era`), `random_positions` drawn uniformly
    (reservoir sampling) and the final position."""
    engine = importlib.import_module(engine_name)
    plan = budget(engine)
    game = config.game(engine)
    seed = seed_of(engine_name, config, index)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    sampled = index < plan.sampled_games
    firsts: dict[tuple[str, ...], tuple[int, Any]] = {}
    reservoir: list[tuple[int, Any]] = []
    actions: list[int] = []
    while not state.is_terminal and len(actions) < game.max_decisions:
        step = len(actions)
        if sampled:
            kind = (state.era, state.decision) if plan.by_era else (state.decision,)
            if kind not in firsts:
                firsts[kind] = (step, state.clone())
            elif len(reservoir) < plan.random_positions:
                reservoir.append((step, state.clone()))
            else:
                slot = rng.randrange(step + 1)
                if slot < plan.random_positions:
                    reservoir[slot] = (step, state.clone())
        action = rng.choice(state.legal_actions())
        state.apply(action)
        actions.append(action)
    positions: list[tuple[int, Any]] = []
    if sampled:
        chosen = {step: s for step, s in [*firsts.values(), *reservoir]}
        chosen[len(actions)] = state.clone()
        positions = sorted(chosen.items(), key=lambda item: item[0])
    return Played(game=game, seed=seed, actions=actions, final=state, positions=positions)


def sampled_games(engine: ModuleType, config: Config) -> list[Played]:
    return [play(engine.__name__, config, i) for i in range(budget(engine).sampled_games)]


def positions(engine: ModuleType, config: Config) -> list[tuple[Played, int, Any]]:
    """Every sampled position of the configuration on the engine: (game, decision number, state)."""
    return [(played, step, state) for played in sampled_games(engine, config) for step, state in played.positions]
