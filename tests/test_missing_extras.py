"""A feature whose optional extra is not installed says which extra to install (issue 21, item 9): the
adapters of `brass.env` and the arena's chart raise `brass.MissingExtraError`, a `BrassError` and an
`ImportError`, naming the module and the extra, installed from the clone."""

from __future__ import annotations

import importlib
import pathlib
import sys

import pytest

import brass
from brass import arena


@pytest.mark.parametrize(
    ("adapter", "missing"),
    [("gymnasium", "gymnasium"), ("pettingzoo", "gymnasium"), ("openspiel", "pyspiel")],
)
def test_an_adapter_without_its_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, adapter: str, missing: str
) -> None:
    monkeypatch.delitem(sys.modules, f"brass.env.{adapter}", raising=False)
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now fails as if it were not installed
    with pytest.raises(brass.MissingExtraError) as caught:
        importlib.import_module(f"brass.env.{adapter}")
    message = str(caught.value)
    assert f"brass.env.{adapter} needs {missing}" in message
    assert "pip install '.[env]'" in message
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, brass.BrassError)
    assert caught.value.extra == "env"


def test_the_arena_chart_without_matplotlib_names_the_arena_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(arena.MissingExtraError, match=r"the chart needs matplotlib.*pip install '\.\[arena\]'"):
        arena.chart_tools()


def test_install_advice_installs_extras_from_the_clone_in_a_venv() -> None:
    """Issue 21, item 4: a package index has no `brass`, so no hint says `pip install 'brass[...]'`; the README
    sets up a venv first (Debian's system Python refuses `pip install .`)."""
    root = pathlib.Path(__file__).resolve().parent.parent
    texts = [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "python").rglob("*.py"))]
    offenders = [str(p.relative_to(root)) for p in texts if "brass[" in p.read_text(encoding="utf-8")]
    assert offenders == []
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "python3 -m venv .venv" in readme and "externally-managed-environment" in readme
