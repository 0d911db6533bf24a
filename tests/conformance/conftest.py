"""Fixtures of the conformance suite: `engine` (each engine of the run) × `config` (each configuration of the
catalog, `support.CONFIGS`, that the engine plays)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from .support import CONFIGS, ENGINE_IDS, ENGINE_NAMES, plays


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    fixtures = metafunc.fixturenames
    if "engine_name" in fixtures and "config" in fixtures:
        pairs = [(name, config) for name in ENGINE_NAMES for config in CONFIGS if plays(name, config.name)]
        ids = [f"{ENGINE_IDS.get(name, name)}-{config.id}" for name, config in pairs]
        metafunc.parametrize(("engine_name", "config"), pairs, ids=ids)
    elif "engine_name" in fixtures:
        metafunc.parametrize("engine_name", ENGINE_NAMES, ids=[ENGINE_IDS.get(name, name) for name in ENGINE_NAMES])
    elif "config" in fixtures:
        metafunc.parametrize("config", CONFIGS, ids=[config.id for config in CONFIGS])


@pytest.fixture
def engine(engine_name: str) -> ModuleType:
    return importlib.import_module(engine_name)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    missing = [
        f"{name} does not play {game} yet"
        for name in ENGINE_NAMES
        for game in sorted({config.name for config in CONFIGS})
        if not plays(name, game)
    ]
    if missing:
        terminalreporter.write_line("conformance: " + "; ".join(missing))
