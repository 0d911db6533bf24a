"""The one entry point for tests, lint, differential runs and benchmarks: `nox -s <session>`."""

from __future__ import annotations

import os

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

# Test builds use the dev profile (fast to compile); benchmarks build release.
DEV_BUILD = {"MATURIN_PEP517_ARGS": "--profile=dev", "MATURIN_NO_INSTALL_RUST": "1"}


def _cargo_env() -> dict[str, str]:
    home = os.path.expanduser("~/.cargo/bin")
    return {"PATH": home + os.pathsep + os.environ.get("PATH", "")}


@nox.session
def tests(session: nox.Session) -> None:
    """Rust unit and rule tests, then the Python API, rule-scenario and differential tests."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    session.run("cargo", "test", "--locked", "-q", external=True)
    session.install("-e", ".[test,env,ray]")
    session.run("pytest", "-q", *session.posargs)


@nox.session
def browser(session: nox.Session) -> None:
    """The replay viewer in a real headless Chromium (needs the Debian package `chromium`).

    tests/browser drives it over the DevTools pipe; `.ci/run` installs Chromium first. The default pytest run
    (the `tests` session) leaves these tests out."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    session.install("-e", ".[test]")
    session.run("pytest", "-q", "tests/browser", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Formatting, lints and types: rustfmt, clippy (the workspace's [workspace.lints], warnings are errors),
    ruff check and ruff format --check (pyproject.toml), mypy on python/brass but brass.reference."""
    session.env.update(_cargo_env())
    session.run("cargo", "fmt", "--all", "--check", external=True)
    session.run(
        "cargo", "clippy", "--locked", "--workspace", "--all-targets", "-q", "--", "-D", "warnings", external=True
    )
    # mypy reads the extension through its stub (python/brass/_brass.pyi): no build needed here.
    session.install("ruff", "mypy>=1.10", "numpy>=1.24", "rich>=13", "gymnasium>=1.0")
    session.run("ruff", "check", "python", "tests", "noxfile.py")
    session.run("ruff", "format", "--check", "python", "tests", "noxfile.py")
    session.run("mypy")


@nox.session
def bench(session: nox.Session) -> None:
    """Release build, then the core benchmarks (cargo bench) and `brass bench` (figures for
    docs/performance.md). `nox -s bench -- --json` prints the Python figures as JSON."""
    session.env.update(_cargo_env())
    session.env["MATURIN_NO_INSTALL_RUST"] = "1"
    session.run("cargo", "bench", "--locked", "-q", "-p", "brass-core", external=True)
    session.install(".")
    session.run("brass", "bench", *session.posargs)


@nox.session
def differential(session: nox.Session) -> None:
    """Deep differential run (docs/verification.md): the Rust engine and brass.reference compared decision by
    decision over thousands of complete games, then the golden vectors. Hypothesis profile `brass-long` unless
    HYPOTHESIS_PROFILE says otherwise (e.g. `HYPOTHESIS_PROFILE=brass-ci nox -s differential`); posargs go to
    pytest (`nox -s differential -- -x`)."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    session.env["HYPOTHESIS_PROFILE"] = os.environ.get("HYPOTHESIS_PROFILE", "brass-long")
    session.install("-e", ".[test]")
    session.run("pytest", "-q", "-p", "no:randomly", "tests/differential", "tests/test_vectors.py", *session.posargs)
