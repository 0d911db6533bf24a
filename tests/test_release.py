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


def test_the_wheel_check_runs_the_readme_example_in_a_folder_of_its_own(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 4: `nox -s wheel` ran the README's example in the repository root, which left
    `position.svg` there; the check runs it in a temporary folder and leaves the working folder as it was."""
    import importlib.util

    root = pathlib.Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("wheel_check", root / "tools" / "wheel_check.py")
    assert spec is not None and spec.loader is not None
    wheel_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wheel_check)
    monkeypatch.chdir(tmp_path)
    wheel_check.run_readme_example(str(root / "README.md"))
    assert list(tmp_path.iterdir()) == []
    assert pathlib.Path.cwd() == tmp_path


def test_the_readme_says_how_long_the_first_build_takes_and_who_needs_rust() -> None:
    """Issue 34, item 4: `pip install .` shows only a spinner for minutes while cargo builds; and "Without Rust:
    `nox -s wheel` builds ..." read as if building needed no Rust."""
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "pip install -v ." in readme and "3–6 minutes on 2 cores" in readme
    assert "Without Rust:" not in readme
    assert "building it needs Rust, installing it does not" in readme
