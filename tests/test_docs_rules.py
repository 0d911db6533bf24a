"""docs/rules.md is the map from each rule to its code and its test; these checks keep the map true.

Every rule id from 1 to the highest of its family (L-, C-, B- and the rulings R-) has a row; every test the
document names exists in the Rust or Python tests (a name ending in `…`, `*` or `_` stands for the tests that
start with it); every source file it names exists; and every row of the 2018 rules' and Birmingham's tables (statement,
source, code, test) names at least one test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
ROWS = [line for line in RULES.splitlines() if re.match(r"\| [LCBR]-\d+", line)]
# `test_x`, `l12_x`, `b26_x`, `k7_x`, `c17_r16_x`, optionally `file.py::` before it and `…` / `*` after it.
TEST_NAME = re.compile(r"^(?:[\w/.]+::)?(test_\w+|[lcbkr]\d+_\w*)(…|\*)?$")
SOURCE_FILE = re.compile(r"^[\w/]+\.(?:rs|py)$")


def _defined_names() -> set[str]:
    names: set[str] = set()
    for folder, pattern in (("tests", "*.py"), ("rust", "*.rs"), ("python", "*.py"), ("fuzz", "*.rs")):
        for path in (ROOT / folder).rglob(pattern):
            if "target" not in path.parts:
                names |= set(re.findall(r"\b(?:def|fn)\s+(\w+)", path.read_text(encoding="utf-8")))
    return names


def _source_files() -> list[str]:
    return [
        path.relative_to(ROOT).as_posix()
        for folder in ("rust", "python", "tests", "fuzz", "tools")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".rs", ".py") and "target" not in path.parts
    ]


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _is_prefix(name: re.Match[str]) -> bool:
    """`l6_l7_…`, `test_C16_*` and `b15_` stand for every test that starts so."""
    return bool(name.group(2)) or name.group(1).endswith("_")


def _cited_tests(text: str) -> list[re.Match[str]]:
    return [m for m in map(TEST_NAME.match, _quoted(text)) if m]


@pytest.mark.parametrize("family", ["L", "C", "B", "R"])
def test_every_rule_id_of_a_family_has_a_row(family: str) -> None:
    ids = {int(n) for row in ROWS for n in re.findall(rf"\b{family}-(\d+)\b", row.split("|")[1])}
    assert ids, family
    assert sorted(ids) == list(range(1, max(ids) + 1)), f"{family}-ids without a row in docs/rules.md"


def test_every_test_the_map_names_exists() -> None:
    names = _defined_names()
    cited = _cited_tests(RULES)
    assert len(cited) > 100  # the map names its tests; a broken pattern would find none
    missing = [
        m.group(0)
        for m in cited
        if not (any(n.startswith(m.group(1)) for n in names) if _is_prefix(m) else m.group(1) in names)
    ]
    assert missing == [], "tests named in docs/rules.md that do not exist"


def test_every_source_file_the_map_names_exists() -> None:
    files = _source_files()
    cited = [q for q in _quoted(RULES) if SOURCE_FILE.match(q)]
    assert len(cited) > 20
    missing = [q for q in cited if not any(f == q or f.endswith("/" + q) for f in files)]
    assert missing == [], "source files named in docs/rules.md that do not exist"


def test_every_rule_of_the_five_column_tables_names_a_test() -> None:
    """The 2018 rules (L-) and Birmingham (B-) rows: statement | source | code | test."""
    rows = [row for row in ROWS if re.match(r"\| [LB]-\d+", row) and row.count("|") == 6]
    assert len(rows) > 60
    untested = [row.split("|")[1].strip() for row in rows if not _cited_tests(row.split("|")[5])]
    assert untested == [], "rules whose row names no test"


def test_every_code_name_of_the_five_column_tables_is_in_the_source() -> None:
    """The code column's names (`check_build_site`, `Game::from_data`, `FirstBuild::NothingOnBoard`) are words of
    the Rust core or the Python package, so a rename cannot leave the map pointing at nothing."""
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for folder, pattern in (("rust", "*.rs"), ("python", "*.py"))
        for path in (ROOT / folder).rglob(pattern)
        if "target" not in path.parts
    )
    words = set(re.findall(r"\w+", source))
    rows = [row for row in ROWS if re.match(r"\| [LB]-\d+", row) and row.count("|") == 6]
    names = [q for row in rows for q in _quoted(row.split("|")[4]) if re.fullmatch(r"\w+(?:::\w+)*", q)]
    assert len(names) > 100
    missing = sorted({q for q in names if q.split("::")[-1] not in words})
    assert missing == [], "names in the code column of docs/rules.md that the source does not have"
