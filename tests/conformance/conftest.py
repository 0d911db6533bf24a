"""Fixtures of the conformance suite: `engine` (each engine of the run) × `config` (each configuration of the
catalog, `support.CONFIGS`)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from .support import CONFIGS, ENGINE_IDS, ENGINE_NAMES, Config


@pytest.fixture(params=ENGINE_NAMES, ids=[ENGINE_IDS.get(name, name) for name in ENGINE_NAMES])
def engine(request: pytest.FixtureRequest) -> ModuleType:
    return importlib.import_module(request.param)


@pytest.fixture(params=CONFIGS, ids=[config.id for config in CONFIGS])
def config(request: pytest.FixtureRequest) -> Config:
    return request.param
