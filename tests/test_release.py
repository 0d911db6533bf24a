"""One version, set in one place, everywhere it shows; complete package metadata (issue 21, item 2)."""

from __future__ import annotations

import importlib.metadata
import pathlib
import re
import tomllib

import pytest

import brass
from brass.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _cargo_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        version: str = tomllib.load(f)["workspace"]["package"]["version"]
    return version


def test_the_version_is_the_cargo_workspace_s_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    version = _cargo_version()
    assert brass.__version__ == version
    assert importlib.metadata.version("brass") == version
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"brass {version}"
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    assert "version" not in project and project["dynamic"] == ["version"]  # set nowhere else


def test_the_changelog_keeps_a_changelog_and_knows_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "keepachangelog.com" in text and "## [Unreleased]" in text
    assert re.search(rf"^## \[{re.escape(_cargo_version())}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.MULTILINE)


def test_the_package_metadata_is_complete() -> None:
    meta = importlib.metadata.metadata("brass")
    assert meta["License-Expression"] == "MIT" or meta["License"] == "MIT"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Repository", "Changelog", "Issues"} <= set(urls)
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Programming Language :: Python :: 3.11" in classifiers
    assert (pathlib.Path(brass.__file__).parent / "py.typed").exists()
