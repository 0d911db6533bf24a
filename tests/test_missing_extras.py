"""A feature whose optional extra is not installed says which extra to install (issue 21, item 9): the
adapters of `brass.env` and the arena's chart raise `brass.MissingExtraError`, a `BrassError` and an
`ImportError`, naming the module and how to install it: its PyPI packages (what a wheel user runs), or the
extra by path from a clone (issue 34, item 3)."""

from __future__ import annotations

import importlib
import pathlib
import re
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
    assert "pip install '.[env]'" in message and "pip install pettingzoo gymnasium open_spiel" in message
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, brass.BrassError)
    assert caught.value.extra == "env"


def test_the_arena_chart_without_matplotlib_names_the_arena_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(
        arena.MissingExtraError,
        match=r"the chart needs matplotlib.*pip install openskill matplotlib \(or, from a clone, pip install '\.\[arena\]'\)",
    ):
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


def _extras_of_pyproject() -> dict[str, tuple[str, ...]]:
    import tomllib

    root = pathlib.Path(__file__).resolve().parent.parent
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    return {
        extra: tuple(re.split(r"[<>=!~; ]", requirement, maxsplit=1)[0] for requirement in requirements)
        for extra, requirements in table.items()
    }


def test_the_table_of_extras_is_the_one_of_pyproject() -> None:
    """The packages each hint names are the extra's own (`pyproject.toml`), so a wheel user can install them."""
    from brass import _errors

    assert {k: v for k, v in _errors.EXTRAS.items()} == _extras_of_pyproject()


@pytest.mark.parametrize("extra", ["ray", "samples", "zstd", "arena", "learn", "serve", "env"])
def test_every_hint_works_for_a_wheel_and_for_a_clone(extra: str) -> None:
    from brass import _errors

    hint = _errors.install_hint(extra)
    packages = " ".join(f"'{p}'" if "[" in p else p for p in _extras_of_pyproject()[extra])
    assert hint == f"pip install {packages} (or, from a clone, pip install '.[{extra}]')"


def test_no_hint_sends_a_wheel_user_to_a_clone_only() -> None:
    """Every `pip install '.[X]'` in the package's messages comes with the packages a wheel user installs."""
    root = pathlib.Path(__file__).resolve().parent.parent / "python" / "brass"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ("pip install '.[" in line and "from a clone" not in line) or "brass clone" in line:
                offenders.append(f"{path.relative_to(root)}:{number}")
    assert offenders == []


def test_the_readme_names_every_extra() -> None:
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for extra in _extras_of_pyproject():
        if extra != "test":
            assert re.search(rf"^\| `{extra}` \|", readme, re.MULTILINE), extra  # a row of the table of extras
