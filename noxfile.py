"""The one entry point for tests, lint, differential runs and benchmarks: `nox -s <session>`
(docs/reliability.md, "Test sessions and checks").

- `tests` (the default, the README's test command): the Rust tests of brass-core and the Python suite but the
  framework adapters, Ray and the browser; a few minutes on 2 cores.
- `integration`: the PettingZoo / Gymnasium / OpenSpiel adapters (tests/env), Ray (tests/test_ray.py) and the
  replay viewer in headless Chromium (tests/browser).
- `lint`: rustfmt, clippy, ruff (lint and format) and mypy.
- `browser`, `differential`, `bench`: the browser tests alone, the deep differential run, the benchmarks.

`.ci/run` runs `tests`, `lint` and `integration`.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

# Test builds use the dev profile (fast to compile) in the workspace's target directory, so `cargo nextest` /
# `cargo test` and the extension built by maturin share one profile and the dependencies they have in common.
# Benchmarks build release.
DEV_BUILD = {"MATURIN_PEP517_ARGS": "--profile=dev", "MATURIN_NO_INSTALL_RUST": "1"}

# The Python tests of the `integration` session: they need the optional extras (`env`, `ray`, `samples`, `zstd`,
# `arena`) or Chromium.
INTEGRATION_TESTS = [
    "tests/env",
    "tests/test_ray.py",
    "tests/browser",
    "tests/test_selfplay_extras.py",
    "tests/test_arena_extras.py",
    "tests/test_learn.py",
    "tests/test_serve.py",
]
INTEGRATION_EXTRAS = ".[test,env,ray,samples,zstd,arena,learn,serve]"
# Of the quick session's Python tests, these run in a process of their own beside the others (2 cores).
DIFFERENTIAL_TESTS = ["tests/differential"]
PYTEST = ["pytest", "-q", "-p", "no:cacheprovider"]


def _cargo_env() -> dict[str, str]:
    home = os.path.expanduser("~/.cargo/bin")
    env = {"PATH": home + os.pathsep + os.environ.get("PATH", "")}
    if os.environ.get("CI"):
        env["CARGO_INCREMENTAL"] = "0"  # a cold build only: incremental data would be written for nothing
    return env


def _install_package(session: nox.Session, spec: str) -> None:
    """Install the package (a maturin build of the Rust extension) with cargo's progress shown: the first build
    takes minutes, and a silent pip looks hung."""
    session.log(f"building and installing {spec} (Rust, dev profile: ~5 minutes on 2 cores the first time)")
    session.install("-v", "-e", spec, silent=False)


def _rust_test_commands(session: nox.Session) -> list[list[str]]:
    """The Rust tests of brass-core (unit and integration tests; the examples are built by `lint`'s clippy):
    cargo-nextest when it is installed (one summary line), else `cargo test`."""
    if shutil.which("cargo-nextest", path=session.env.get("PATH")):
        return [
            ["cargo", "nextest", "run", "--locked", "--lib", "--tests", "--cargo-quiet", "--show-progress", "none"]
            + ["--status-level", "fail", "--final-status-level", "fail"]
        ]
    return [["cargo", "test", "--locked", "--lib", "--tests", "-q"]]  # its output is summed up by _quiet_cargo_test


def _quiet_cargo_test(output: str) -> str:
    """`cargo test -q` prints a block per test binary, most of them empty: one line for them all instead."""
    passed = binaries = 0
    kept = []
    for line in output.splitlines():
        match = re.match(r"test result: ok\. (\d+) passed; 0 failed; (\d+) ignored", line)
        if match:
            passed, binaries = passed + int(match.group(1)), binaries + 1
        elif line.strip() and not re.fullmatch(r"running \d+ tests?|\.+", line.strip()):
            kept.append(line)
    return "\n".join([*kept, f"cargo test: {passed} passed, 0 failed ({binaries} test binaries)"]) + "\n"


class _Lane(threading.Thread):
    """Commands run one after another, their output kept (or shown as it comes when `live`)."""

    def __init__(self, commands: list[list[str]], env: dict[str, str], live: bool) -> None:
        super().__init__()
        self.commands, self.env, self.live = commands, env, live
        self.output = tempfile.TemporaryFile()  # noqa: SIM115 - kept until the lane is shown
        self.failed: list[str] | None = None

    def run(self) -> None:
        try:
            self._run()
        except BaseException as e:  # reported by _run_lanes, never lost in a thread
            self._write(f"nox > {e!r}\n")
            self.failed = self.failed or ["(the lane stopped)"]

    def _run(self) -> None:
        for command in self.commands:
            self._write(f"nox > {' '.join(command)}\n")
            if command[:2] == ["cargo", "test"]:
                done = subprocess.run(command, env=self.env, capture_output=True, text=True)
                text = _quiet_cargo_test(done.stdout) if done.returncode == 0 else done.stdout + done.stderr
                self._write(text)
                code = done.returncode
            else:
                out, err = (None, None) if self.live else (self.output, subprocess.STDOUT)
                code = subprocess.run(command, env=self.env, stdout=out, stderr=err).returncode
            if code != 0:
                self.failed = command
                return

    def _write(self, text: str) -> None:
        if self.live:
            print(text, end="", flush=True)
        else:
            self.output.write(text.encode())
            self.output.flush()

    def show(self) -> None:
        self.output.seek(0)
        sys.stdout.flush()
        shutil.copyfileobj(self.output, sys.stdout.buffer)
        sys.stdout.flush()


def _run_lanes(session: nox.Session, *lanes: list[list[str]]) -> None:
    """Run the lanes side by side, each a list of commands run in turn in the session's environment: the first
    shows its output as it comes, the others' is printed when the first is done. Fails if any command failed."""
    env = dict(os.environ)
    for key, value in session.env.items():  # as session.run does: None unsets a variable
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    env["PATH"] = os.pathsep.join([str(session.bin), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(session.virtualenv.location)
    running = [_Lane(commands, env, live=i == 0) for i, commands in enumerate(lanes)]
    for lane in running:
        lane.start()
    for lane in running:
        lane.join()
    for lane in running[1:]:
        lane.show()
    failed = [" ".join(lane.failed) for lane in running if lane.failed]
    if failed:
        session.error("failed: " + "; ".join(failed))


@nox.session
def tests(session: nox.Session) -> None:
    """The quick test command (README, CI): the Rust unit and rule tests of brass-core, then the Python API,
    rule-scenario, CLI and differential tests (Hypothesis profile `brass-ci`), the differential tests in a
    second process beside the others. Leaves out INTEGRATION_TESTS (the `integration` session).

    `nox -s tests -- ARGS` runs the Rust tests, then `pytest -q ARGS` in one process (e.g. `-- tests/test_cli.py`)."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    _install_package(session, ".[test]")
    rust = _rust_test_commands(session)
    if session.posargs:
        _run_lanes(session, [*rust, PYTEST + session.posargs])
        return
    leave_out = [f"--ignore={path}" for path in INTEGRATION_TESTS + DIFFERENTIAL_TESTS]
    _run_lanes(session, [*rust, PYTEST + leave_out], [PYTEST + DIFFERENTIAL_TESTS])


@nox.session
def integration(session: nox.Session) -> None:
    """The tests that need more than the `test` extra: the framework adapters (tests/env, the `env` extra:
    PettingZoo, Gymnasium, OpenSpiel), Ray (tests/test_ray.py, the `ray` extra), Parquet samples and Zstandard
    records (tests/test_selfplay_extras.py), ratings and charts (tests/test_arena_extras.py), the trainer
    (tests/test_learn.py, the `learn` extra: JAX on CPU), `brass serve` (tests/test_serve.py, the `serve` extra)
    and the replay viewer and `brass serve` in a real headless Chromium (tests/browser, the Debian package
    `chromium`; `.ci/run` installs it first)."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    _install_package(session, INTEGRATION_EXTRAS)
    # The sample-loading examples of docs/selfplay.md (tests/test_selfplay_extras.py); JAX comes with `learn`.
    session.install("polars>=1")
    session.run(*PYTEST, *(session.posargs or INTEGRATION_TESTS))


@nox.session
def browser(session: nox.Session) -> None:
    """The replay viewer and `brass serve` in a real headless Chromium alone (needs the Debian package
    `chromium`).

    tests/browser drives it over the DevTools pipe. The `tests` session leaves these tests out; `integration`
    runs them. `nox -s browser -- -k birmingham` with BRASS_SERVE_SCREENSHOTS=docs/images renews the
    screenshots of docs/serve.md (serve-first.png, serve-middle.png, serve-last.png)."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    _install_package(session, ".[test,serve]")
    session.run(*PYTEST, "tests/browser", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Formatting, lints and types: rustfmt, clippy (the workspace's [workspace.lints], warnings are errors),
    ruff check and ruff format --check, mypy on python/brass (both configured in pyproject.toml), and the GitHub
    workflows against their schema."""
    session.env.update(_cargo_env())
    session.run("cargo", "fmt", "--all", "--check", external=True)
    session.run(
        "cargo", "clippy", "--locked", "--workspace", "--all-targets", "-q", "--", "-D", "warnings", external=True
    )
    # mypy reads the extension through its stubs (python/brass/_brass/*.pyi): no build needed here.
    session.install(
        "ruff", "mypy>=1.10", "numpy>=1.24", "rich>=13", "gymnasium>=1.0", "starlette>=0.37", "uvicorn>=0.29"
    )
    session.run("ruff", "check", "python", "tests", "noxfile.py")
    session.run("ruff", "format", "--check", "python", "tests", "noxfile.py")
    session.run("mypy")
    # The release workflow, against SchemaStore's schema of GitHub workflows. (actionlint itself ships only
    # from GitHub releases, which this machine class cannot reach; its PyPI package downloads it at install.)
    session.install("check-jsonschema>=0.29")
    session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *sorted(_workflows()))


@nox.session
def wheel(session: nox.Session) -> None:
    """The release artefacts users install without Rust: one `abi3` wheel for this platform (CPython 3.11 and
    later) and the sdist, built by maturin (release profile) into dist/; then the wheel alone is installed into
    a fresh venv and tools/wheel_check.py runs there with no cargo or rustc on PATH (the README's example and
    `brass selfplay`)."""
    session.env.update(_cargo_env())
    session.install("maturin>=1.9.4,<2")
    dist = pathlib.Path("dist")
    shutil.rmtree(dist, ignore_errors=True)
    session.log("building the abi3 wheel and the sdist (release profile: several minutes on 2 cores)")
    session.run("maturin", "build", "--release", "--locked", "--sdist", "--out", str(dist))
    wheels = sorted(dist.glob("brass-*-cp311-abi3-*.whl"))
    if len(wheels) != 1 or not list(dist.glob("brass-*.tar.gz")):
        session.error(f"expected one abi3 wheel and one sdist in dist/, found {sorted(p.name for p in dist.iterdir())}")
    with tempfile.TemporaryDirectory() as folder:
        venv = pathlib.Path(folder) / "venv"
        session.run(sys.executable, "-m", "venv", str(venv), external=True)
        python = str(venv / ("Scripts" if sys.platform == "win32" else "bin") / "python")
        session.run(python, "-m", "pip", "install", "-q", str(wheels[0]), external=True)
        # No Rust for the user: PATH keeps only folders without cargo or rustc.
        rustless = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not _has_rust(d)]
        env = {"PATH": os.pathsep.join([str(pathlib.Path(python).parent), *rustless])}
        session.run(python, str(pathlib.Path("tools/wheel_check.py").resolve()), "README.md", env=env, external=True)


def _workflows() -> list[str]:
    return [str(p) for p in pathlib.Path(".github/workflows").glob("*.yml")]


def _has_rust(folder: str) -> bool:
    return any((pathlib.Path(folder) / name).exists() for name in ("cargo", "rustc", "cargo.exe", "rustc.exe"))


@nox.session
def verify(session: nox.Session) -> None:
    """The long differential run (tests/differential/verify_run.py, docs/verification.md): both engines in
    lock-step over every configuration, 10,000 complete games per game and player count by default, driven by a
    mix of policies; resumable (target/verify/done.jsonl). Not part of CI. `nox -s verify -- --minutes 60` runs an
    hour of it; `-- --games 100` a smaller target."""
    session.env.update(_cargo_env())
    session.env.update(DEV_BUILD)
    _install_package(session, ".[test]")
    session.run("python", "tests/differential/verify_run.py", *session.posargs)


MUTANTS_VERSION = "27.1.0"
# The full run's scope (issue: verification in depth): the rules, resolution and the games' own rules.
MUTANTS_SCOPE = ["rust/brass-core/src/games/**", "rust/brass-core/src/rules/**", "rust/brass-core/src/apply/**"]
# `--search`: the network, the search and self-play, tested by the library's own unit tests (the integration
# suite does not use them) ...
MUTANTS_SEARCH = ["net.rs", "puct.rs", "search_games.rs", "selfplay.rs"]
# ... and the drawing sampler, tested by the integration suite (it has no unit tests of its own).
MUTANTS_SAMPLER = ["sample.rs"]


@nox.session(venv_backend="none")
def mutants(session: nox.Session) -> None:
    """Mutation testing of the Rust core with cargo-mutants (docs/verification.md, "Mutation testing"): each
    mutant of the code is built and `cargo test -p brass-core` must fail on it.

    `nox -s mutants` mutates only the lines a change touches (`--in-diff` on `git diff BASE`, BASE `main`, or
    `HEAD~1` on main itself); `-- --base REV` picks another base. `-- --full` runs every mutant of games/, rules/
    and apply/ (hours on 2 cores; `-- --full --shard 1/8` runs one eighth). `-- --search` runs every mutant of
    the network, search and self-play code (net.rs, puct.rs, search_games.rs, selfplay.rs against the library's
    unit tests, then sample.rs against the integration suite; about 2 hours on 2 cores). Other arguments go to
    cargo-mutants. Results in target/mutants/ (`mutants.out/caught.txt`, `missed.txt`, ...; `--search`:
    target/mutants/search/ and target/mutants/sampler/)."""
    session.env.update(_cargo_env())
    args = list(session.posargs)
    full = "--full" in args
    if full:
        args.remove("--full")
    search = "--search" in args
    if search:
        args.remove("--search")
    base = None
    if "--base" in args:
        at = args.index("--base")
        base = args[at + 1]
        del args[at : at + 2]
    env = {**os.environ, **{k: v for k, v in session.env.items() if v is not None}}
    if subprocess.run(["cargo", "mutants", "--version"], capture_output=True, env=env).returncode:
        session.run("cargo", "install", "--locked", f"cargo-mutants@{MUTANTS_VERSION}", external=True)
    out = pathlib.Path("target/mutants")
    out.mkdir(parents=True, exist_ok=True)
    command = ["cargo", "mutants", "-p", "brass-core", "--profile", "mutants", "--output", str(out)]
    if search:
        for files, name, tests in (
            (MUTANTS_SEARCH, "search", ["--lib"]),
            (MUTANTS_SAMPLER, "sampler", ["--test", "suite"]),
        ):
            scope = [a for f in files for a in ("--file", f"rust/brass-core/src/{f}")]
            (out / name).mkdir(exist_ok=True)
            session.run(*command[:-2], "--output", str(out / name), *scope, *args, "--", *tests, external=True)
        return
    if full:
        for scope in MUTANTS_SCOPE:
            command += ["--file", scope]
        # Only the integration suite (tests/suite.rs, one binary): the library's own unit tests cover rng, the
        # market and the network code, none of the files mutated here, and skipping them halves each build.
        args += ["--", "--test", "suite"] if "--" not in args else []
    else:
        if base is None:
            branch = subprocess.run(["git", "branch", "--show-current"], capture_output=True, text=True).stdout
            branch = branch.strip()
            base = "HEAD~1" if branch in ("main", "") else "main"
        diff = subprocess.run(
            ["git", "diff", base, "--", "rust/brass-core/src"], capture_output=True, text=True, check=True
        )
        if not diff.stdout.strip():
            session.log(f"no change to rust/brass-core/src since {base}: nothing to mutate")
            return
        (out / "change.diff").write_text(diff.stdout, encoding="utf-8")
        command += ["--in-diff", str(out / "change.diff")]
    session.run(*command, *args, external=True)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site (mkdocs.yml: MkDocs Material, the API reference generated by mkdocstrings from
    the docstrings and the type stub) built into site/ with --strict: a broken link, anchor or reference fails.
    Needs no build of the package: mkdocstrings reads the sources and the stub."""
    session.install("mkdocs>=1.6,<2", "mkdocs-material>=9.5,<10", "mkdocstrings[python]>=0.26")
    session.env["NO_MKDOCS_2_WARNING"] = "1"
    session.run("mkdocs", "build", "--strict", *session.posargs)


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
    _install_package(session, ".[test]")
    session.run("pytest", "-q", "-p", "no:randomly", "tests/differential", "tests/test_vectors.py", *session.posargs)
