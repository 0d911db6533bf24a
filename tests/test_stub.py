"""The type stubs of the extension (`python/brass/_brass/`: the module and its submodules `agents` and
`search`) match the compiled module (docs/api.md; checked by stubtest)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import brass._brass as native

STUBS = Path(__file__).resolve().parents[1] / "python" / "brass" / "_brass"


def test_stubtest_finds_the_stub_consistent_with_the_extension() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "brass._brass"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "Success" in run.stdout
    assert "in 3 modules" in run.stdout  # the submodules' stubs too


def test_every_name_of_the_extension_is_in_its_stub() -> None:
    """stubtest misses a name absent from a stub when the name's `__module__` is another (the classes name the
    public module that re-exports them, `brass` or `brass.agents`): each stub's `__all__` lists every name."""
    for module, stub in ((native, "__init__.pyi"), (native.agents, "agents.pyi"), (native.search, "search.pyi")):
        tree = ast.parse((STUBS / stub).read_text(encoding="utf-8"))
        listed = next(
            ast.literal_eval(node.value)
            for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets)
        )
        runtime = {n for n in dir(module) if not n.startswith("__") or n == "__version__"}
        assert set(listed) == runtime, stub
