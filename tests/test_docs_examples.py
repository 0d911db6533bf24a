"""Every ```python block of README.md and docs/*.md runs as written, in order.

Each document's blocks run in one namespace, in document order, in a fresh temporary working directory; the
README's blocks also run each on its own, in a fresh namespace (a reader may copy any one of them). Shell
blocks (```sh) are not run, except in docs/tutorial.md, whose `brass ...` command lines run through
`brass.cli.main` in the same directory and in the same order (so the Python blocks can read the files the
commands wrote). What is left out is listed here, with the reason and where it is tested instead:
"""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))

#: Python blocks not run here: (document, number of the python block from 1) -> why, and where they run.
EXCLUDED = {
    ("docs/env.md", 1): "needs pettingzoo (the env extra); run by tests/env/test_env_docs.py",
    ("docs/env.md", 2): "needs gymnasium (the env extra); run by tests/env/test_env_docs.py",
    ("docs/env.md", 3): "needs open_spiel (the env extra); run by tests/env/test_env_docs.py",
    ("docs/vecenv.md", 4): "needs gymnasium (the env extra); run by tests/env/test_env_vector.py",
    ("docs/selfplay.md", 3): "needs polars and pyarrow; run by tests/test_selfplay_extras.py",
    ("docs/selfplay.md", 4): "needs JAX and pyarrow; run by tests/test_selfplay_extras.py",
    ("docs/serve.md", 1): "needs starlette and uvicorn (the serve extra); run by tests/test_serve.py",
    ("docs/serve.md", 2): "needs starlette and httpx (the serve extra); run by tests/test_serve.py",
}
#: Modules of the optional extras: a block importing one of them must be in EXCLUDED (and only such blocks).
EXTRAS = (
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "ray",
    "brass.env",
    "polars",
    "jax",
    "pyarrow",
    "torch",
    "httpx",
    "starlette",
    "brass.serve",
    "brass import serve",  # `from brass import serve`
)
#: Documents whose `brass ...` shell lines run, and the commands among them that are not run.
CLI_DOCUMENTS = {"docs/tutorial.md"}
CLI_EXCLUDED = {"brass play": "interactive: it reads moves from the terminal (tests/test_cli.py drives it)"}
#: The whole run of the examples should stay quick.
BUDGET_SECONDS = 40.0  # about 10 s on the 2-core development machine; slack for a loaded one

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def blocks(document: str) -> list[tuple[str, int, str]]:
    """(language, number among the blocks of that language from 1, code) of every fenced block, in order."""
    text = (ROOT / document).read_text(encoding="utf-8")
    out, seen = [], {}
    for match in FENCE.finditer(text):
        language, code = match.group(1), match.group(2)
        seen[language] = seen.get(language, 0) + 1
        out.append((language, seen[language], code))
    return out


def needs_an_extra(code: str) -> bool:
    return any(re.search(rf"^\s*(import|from)\s+{re.escape(m)}\b", code, re.MULTILINE) for m in EXTRAS)


def cli_lines(code: str) -> list[str]:
    """The `brass ...` commands of a shell block (comments after `#` dropped) but those of CLI_EXCLUDED."""
    lines = []
    for line in code.splitlines():
        line = line.split(" #")[0].strip()
        if line.startswith("brass ") and not any(line.startswith(prefix) for prefix in CLI_EXCLUDED):
            lines.append(line)
    return lines


def runnable(document: str) -> int:
    """How many python blocks (and, for CLI_DOCUMENTS, `brass` command lines) of a document run here."""
    count = 0
    for language, number, code in blocks(document):
        if language == "python" and (document, number) not in EXCLUDED:
            count += 1
        elif language == "sh" and document in CLI_DOCUMENTS:
            count += len(cli_lines(code))
    return count


RUNNABLE = [d for d in DOCUMENTS if runnable(d)]


def test_the_documents_have_examples():
    for document in ("README.md", "docs/tutorial.md", "docs/vecenv.md", "docs/api.md"):
        assert document in RUNNABLE, document


def test_exclusions_are_exactly_the_blocks_that_need_an_extra():
    needing = {(d, n) for d in DOCUMENTS for lang, n, code in blocks(d) if lang == "python" and needs_an_extra(code)}
    assert needing == set(EXCLUDED)


TIMES: dict[str, float] = {}


@pytest.mark.parametrize("document", RUNNABLE)
def test_examples_run_in_order(document, tmp_path, monkeypatch, capsys):
    import brass.cli

    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__doc_example__"}
    started = time.perf_counter()
    ran = 0
    for language, number, code in blocks(document):
        if language == "python":
            if (document, number) in EXCLUDED:
                continue
            compiled = compile(code, f"{document} python block {number}", "exec")
            exec(compiled, namespace)  # noqa: S102 - running the documented examples is the point
            ran += 1
        elif language == "sh" and document in CLI_DOCUMENTS:
            for line in cli_lines(code):
                assert brass.cli.main(shlex.split(line)[1:]) == 0, line
                ran += 1
    capsys.readouterr()
    assert ran == runnable(document)
    TIMES[document] = time.perf_counter() - started


#: Documents whose every python block also runs on its own, in a fresh namespace and folder: a reader copies
#: one block, not the blocks above it (issue 34, item 9).
SELF_CONTAINED = ["README.md"]


@pytest.mark.parametrize(
    ("document", "number"),
    [(d, n) for d in SELF_CONTAINED for lang, n, _ in blocks(d) if lang == "python" and (d, n) not in EXCLUDED],
)
def test_each_block_runs_on_its_own(document, number, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = next(c for lang, n, c in blocks(document) if lang == "python" and n == number)
    exec(compile(code, f"{document} python block {number}", "exec"), {"__name__": "__doc_example__"})  # noqa: S102
    capsys.readouterr()


def test_the_examples_are_quick():
    if set(TIMES) != set(RUNNABLE):
        pytest.skip("only when every document's examples ran in this session")
    assert sum(TIMES.values()) < BUDGET_SECONDS, TIMES


def test_the_readme_lists_every_document_and_no_link_leaves_the_repository():
    """The README's table of documents names every file in docs/, and no document points to ../shared (a
    clone does not have it)."""
    root = ROOT
    readme = (root / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `docs/([\w.-]+\.md)` \|", readme, flags=re.MULTILINE))
    site_only = {"index.md", "reference.md"}  # the docs site's home page and generated API reference
    present = {p.name for p in (root / "docs").glob("*.md")} - site_only
    assert listed == present
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        assert "../shared" not in doc.read_text(encoding="utf-8"), doc.name


def test_the_sizes_in_docs_env_are_the_engines():
    """docs/env.md's table of action and observation sizes and `max_decisions` per game is what the engine says."""
    import brass

    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)`[^|]*\| (\d+) \| (\d+) \| ([^|]+) \|$", text, flags=re.MULTILINE)
    assert {name for name, *_ in rows} == set(brass.games())
    for name, actions, observation, decisions in rows:
        counts = brass.games()[name]["players"]
        for players, written in zip((2, 3, 4), decisions.split("/"), strict=True):
            if players not in counts:
                assert written.strip() == "—", (name, players)
                continue
            game = brass.Game(name, players=players)
            assert (game.num_actions, game.observation_size, game.max_decisions) == (
                int(actions),
                int(observation),
                int(written),
            ), (name, players)
