"""The type stub of the extension (`python/brass/_brass.pyi`) matches the compiled module (docs/api.md;
checked by stubtest)."""

from __future__ import annotations

import subprocess
import sys


def test_stubtest_finds_the_stub_consistent_with_the_extension() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "brass._brass"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "Success" in run.stdout
