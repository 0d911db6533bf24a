"""The browser tests drive a real headless Chromium (tests/browser/cdp.py). They are collected only when this
directory (or a file in it) is named on the command line, as `nox -s browser` does (`pytest tests/browser`),
so the default `pytest` run (and `nox -s tests`) leaves them out. BRASS_BROWSER_TESTS=1 collects them always."""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _named(config) -> bool:
    for arg in config.args:
        path = (Path(config.invocation_params.dir) / str(arg).split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if os.environ.get("BRASS_BROWSER_TESTS") == "1" or _named(config):
        return None
    return True
