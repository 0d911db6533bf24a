"""Hypothesis profiles for the differential tests, and the session summary of what was compared.

Profiles (docs/verification.md), chosen with the environment variable HYPOTHESIS_PROFILE (default `brass-ci`):

- `brass-ci`   fits the CI budget: 80 complete games per player count in the main test, plus the cross-loading
               and state-machine tests (about 300 complete games in all, 2-3 minutes on 2 cores).
- `brass-long` the deep local run behind `nox -s differential`: ten times as many.

Both take Hypothesis's built-in `ci` profile as their parent when it is active (it is loaded when `CI` is set:
derandomized, no example database), so CI stays reproducible; `deadline=None` because one example is a whole game.
"""

from __future__ import annotations

import os

from differential_harness import STATS
from hypothesis import HealthCheck, settings

_parent = settings.get_profile("ci") if settings.get_current_profile_name() == "ci" else settings.get_profile("default")
_common = {
    "deadline": None,
    # One example is a whole game of 150-300 decisions: slow by design, and even the simplest example is large.
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.large_base_example],
    "stateful_step_count": 120,
    "print_blob": True,
}
settings.register_profile("brass-ci", parent=_parent, max_examples=80, **_common)
settings.register_profile("brass-long", parent=_parent, max_examples=800, **_common)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "brass-ci")
settings.load_profile(PROFILE)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = STATS.summary()
    if not lines:
        return
    failed = [r.nodeid for r in terminalreporter.stats.get("failed", []) if "differential" in r.nodeid]
    s = settings.default
    terminalreporter.write_line(
        f"differential: Hypothesis profile {PROFILE!r} (max_examples={s.max_examples}, derandomize={s.derandomize}); "
        f"{len(failed)} differential test(s) failed"
    )
    for line in lines:
        terminalreporter.write_line(line)
