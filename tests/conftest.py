"""Shared fixtures.

`engine` is a module exposing `Game`, `State`, `replay` and the exception classes. Rule scenario tests run
once per engine listed in ENGINES; to add the Rust-backed engine, append "brass" to the list. The
environment variable BRASS_TEST_ENGINES (comma-separated module names) overrides the list for one run,
e.g. `BRASS_TEST_ENGINES=brass,brass.reference python -m pytest tests/scenarios`.
"""

from __future__ import annotations

import importlib
import os

import pytest

ENGINES = ["brass", "brass.reference"]

if os.environ.get("BRASS_TEST_ENGINES"):
    ENGINES = [name.strip() for name in os.environ["BRASS_TEST_ENGINES"].split(",") if name.strip()]


@pytest.fixture(params=ENGINES)
def engine(request):
    return importlib.import_module(request.param)
