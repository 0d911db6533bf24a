"""The core in one direction (docs/architecture.md, "Layers").

Reads every `crate::` / `super::` path of `rust/brass-core/src` and every relative import of
`python/brass/reference` (type-checking and function-local imports included) and checks them against the
layer tables of docs/architecture.md: every file is in exactly one layer, no import goes to a higher layer, no
import circle closes (within a layer either), no path goes through the crate root, and no function is longer
than 120 lines. The analysers are tested on small hand-made trees first, so a check that cannot fail would show.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUST_SRC = ROOT / "rust" / "brass-core" / "src"
REFERENCE = ROOT / "python" / "brass" / "reference"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_FUNCTION_LINES = 120

Module = tuple[str, ...]


# --- the layer tables ----------------------------------------------------------------------------------------


def layer_tables(text: str) -> dict[str, dict[str, int]]:
    """The two tables of the "Layers" section: engine ("rust" / "python") -> file -> layer number."""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, dict[str, int]] = {}
    engine = None
    for line in section.splitlines():
        if line.startswith("Rust core"):
            engine = "rust"
        elif line.startswith("Reference engine"):
            engine = "python"
        elif line.startswith("Binding crate"):
            engine = "binding"
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if engine and line.startswith("|") and cells[0].isdigit():
            for name in re.findall(r"`([^`]+)`", cells[1]):
                assert name not in tables.setdefault(engine, {}), f"{name} is in two layers"
                tables[engine][name] = int(cells[0])
    return tables


# --- Rust: the module graph ------------------------------------------------------------------------------------


def rust_module(path: Path, src: Path) -> Module:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def strip_rust(text: str) -> str:
    """The code without comments, string and char literals (each replaced by an empty one); lines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == '"' or text.startswith('r"', i) or text.startswith('r#"', i):
            hashes = 0
            if c == "r":
                i += 1
                while text[i] == "#":
                    hashes += 1
                    i += 1
            end = '"' + "#" * hashes
            j = i + 1
            while j < n and not text.startswith(end, j):
                j += 2 if (text[j] == "\\" and hashes == 0) else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + len(end)
        elif c == "'" and re.match(r"'(\\.|[^'\\])'", text[i : i + 4]):
            m = re.match(r"'(\\.|[^'\\])'", text[i : i + 4])
            assert m
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def use_paths(tree: str, prefix: list[str]) -> list[list[str]]:
    """The paths a `use` tree names: `a::{b, c::{d, self}}` -> a::b, a::c::d, a::c."""
    tree = tree.strip()
    if "{" not in tree:
        head = tree.split(" as ")[0].strip()
        parts = [p for p in head.split("::") if p]
        if parts and parts[-1] == "self":
            parts.pop()
        return [prefix + parts] if parts != ["*"] else [prefix]
    head, _, rest = tree.partition("{")
    base = prefix + [p for p in head.split("::") if p]
    inner = rest[: rest.rindex("}")]
    items, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(inner[start:k])
            start = k + 1
    items.append(inner[start:])
    paths = []
    for item in items:
        if item.strip():
            paths += use_paths(item, base)
    return paths


def inline_module_spans(code: str) -> list[tuple[int, int]]:
    """Where the inline `mod name { ... }` blocks of a file are (their `super::` is the file itself)."""
    spans = []
    for m in re.finditer(r"\bmod\s+\w+\s*\{", code):
        depth = 0
        for k in range(m.end() - 1, len(code)):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    spans.append((m.end(), k))
                    break
    return spans


def rust_graph(src: Path) -> tuple[dict[Module, set[Module]], list[str]]:
    """Module -> the modules it names (the longest path prefix that is a file); and paths through the root."""
    files = {rust_module(p, src): p for p in sorted(src.rglob("*.rs"))}

    def resolve(parts: list[str]) -> Module | None:
        for k in range(len(parts), 0, -1):
            if tuple(parts[:k]) in files:
                return tuple(parts[:k])
        return None

    edges: dict[Module, set[Module]] = {}
    through_root: list[str] = []
    for module, path in files.items():
        code = strip_rust(path.read_text(encoding="utf-8"))
        is_dir_module = path.name in ("mod.rs", "lib.rs")
        inline = inline_module_spans(code)
        named: list[list[str]] = []

        def base(word: str, at: int, module: Module = module, inline: list[tuple[int, int]] = inline) -> list[str]:
            """Where a path starting with `crate`, `self` or `super` at offset `at` starts."""
            if word == "crate":
                return []
            if word == "self" or (word == "super" and any(a <= at < b for a, b in inline)):
                return list(module)
            return list(module[:-1])

        uses = list(re.finditer(r"\buse\s+((?:crate|super|self)\s*::[^;]*);", code))
        for m in uses:
            word = m.group(1).split("::")[0].strip()
            named += use_paths(m.group(1).split("::", 1)[1], base(word, m.start()))
        for m in re.finditer(r"(?<![\w:])(crate|super|self)((?:::\w+)+)", code):
            if any(u.start() <= m.start() < u.end() for u in uses):
                continue
            rest = [p for p in m.group(2).split("::") if p]
            if m.group(1) == "crate" and rest[0][:1].isupper():
                through_root.append(f"{path.relative_to(src)}: crate::{rest[0]}")
            named.append(base(m.group(1), m.start()) + rest)
        if is_dir_module:
            # A directory module reaches its own submodules by their bare names (`build::start_build`).
            for m in re.finditer(r"(?<![\w:])([a-z_]\w*)::", code):
                if module + (m.group(1),) in files:
                    named.append(list(module) + [m.group(1)])
        deps = {r for r in map(resolve, named) if r is not None and r != module and r != ()}
        edges[module] = deps
    edges.pop((), None)  # lib.rs: the root declares and re-exports every module
    return edges, through_root


# --- Python: the reference's import graph --------------------------------------------------------------------


def python_graph(package: Path) -> dict[str, set[str]]:
    modules = {p.stem for p in package.glob("*.py")}
    edges: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                deps |= {n.split(".")[0] for n in names if n and n.split(".")[0] in modules}
        edges[path.stem] = deps - {path.stem}
    return edges


# --- checks shared by both ---------------------------------------------------------------------------------------


def circles(edges: dict) -> list[list]:
    """The strongly connected components with more than one member (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    found: list[list] = []
    counter = [0]

    def visit(v: object) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def upward(edges: dict, layer_of: dict) -> list[str]:
    return [
        f"{a} (layer {layer_of[a]}) imports {b} (layer {layer_of[b]})"
        for a, deps in sorted(edges.items())
        for b in sorted(deps)
        if a in layer_of and b in layer_of and layer_of[b] > layer_of[a]
    ]


def rust_name(module: Module, src: Path) -> str:
    path = src.joinpath(*module).with_suffix(".rs")
    return str(path.relative_to(src)) if path.exists() else "/".join(module) + "/mod.rs"


RUST_FN = re.compile(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")


def long_rust_functions(src: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(src.rglob("*.rs")):
        lines = strip_rust(path.read_text(encoding="utf-8")).split("\n")
        for i, line in enumerate(lines):
            m = RUST_FN.match(line)
            if not m:
                continue
            depth, opened = 0, False
            for j in range(i, len(lines)):
                if not opened and ";" in lines[j] and "{" not in lines[j]:
                    break  # a declaration without a body (a trait's)
                for ch in lines[j]:
                    if ch == "{":
                        depth, opened = depth + 1, True
                    elif ch == "}":
                        depth -= 1
                if opened and depth == 0:
                    if j - i + 1 > limit:
                        found.append(f"{path.relative_to(src)}:{i + 1} {m.group(1)} ({j - i + 1} lines)")
                    break
    return found


def long_python_functions(package: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    return found


# --- the analysers on hand-made trees ----------------------------------------------------------------------------


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_rust_analyser_sees_use_trees_inline_paths_children_and_test_modules(tmp_path: Path) -> None:
    src = write(
        tmp_path,
        {
            "lib.rs": "pub mod a; pub mod b; pub mod c; pub mod d;",
            "a.rs": "use crate::{b::{self, X}, c::Y as Z};\nfn f() { crate::d::g(); }",
            "b.rs": '// use crate::a;\nconst S: &str = "crate::a::x";\n#[cfg(test)]\nmod tests { use super::*; }',
            "c.rs": "",
            "d/mod.rs": "mod e;\npub use e::h;\npub fn g() {}",
            "d/e.rs": "use super::g;\npub fn h() { g() }",
        },
    )
    edges, through_root = rust_graph(src)
    assert edges[("a",)] == {("b",), ("c",), ("d",)}
    assert edges[("b",)] == set()  # comments, strings and a test module's `super::` name nothing else
    assert edges[("d",)] == {("d", "e")}
    assert edges[("d", "e")] == {("d",)}
    assert circles(edges) == [[("d",), ("d", "e")]]
    assert through_root == []


def test_the_rust_checks_fail_on_a_circle_an_upward_import_a_root_path_and_a_long_function(tmp_path: Path) -> None:
    body = "\n".join("    let _ = 1;" for _ in range(MAX_FUNCTION_LINES))
    src = write(
        tmp_path,
        {
            "lib.rs": "pub mod low; pub mod high;",
            "low.rs": f"use crate::high::X;\npub fn long() {{\n{body}\n}}",
            "high.rs": "use crate::low;\nfn f() -> crate::Game { todo!() }",
        },
    )
    edges, through_root = rust_graph(src)
    assert circles(edges) == [[("high",), ("low",)]]
    assert upward(edges, {("low",): 1, ("high",): 2}) == ["('low',) (layer 1) imports ('high',) (layer 2)"]
    assert through_root == ["high.rs: crate::Game"]
    assert long_rust_functions(src, MAX_FUNCTION_LINES) == [f"low.rs:2 long ({MAX_FUNCTION_LINES + 2} lines)"]


def test_the_python_analyser_counts_type_checking_and_local_imports(tmp_path: Path) -> None:
    package = write(
        tmp_path,
        {
            "_a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._b import B\n",
            "_b.py": "def f():\n    from . import _a\n",
            "_c.py": "import json\n",
        },
    )
    edges = python_graph(package)
    assert edges == {"_a": {"_b"}, "_b": {"_a"}, "_c": set()}
    assert circles(edges) == [["_a", "_b"]]


def test_the_layer_tables_are_read_from_the_section() -> None:
    tables = layer_tables(ARCHITECTURE.read_text(encoding="utf-8"))
    assert tables["rust"]["error.rs"] == 1
    assert tables["rust"]["games/mod.rs"] < tables["rust"]["rules/mod.rs"] < tables["rust"]["apply/mod.rs"]
    assert tables["python"]["_games.py"] > tables["python"]["_lancashire.py"] > tables["python"]["_rules.py"]


# --- the project --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, int]]:
    return layer_tables(ARCHITECTURE.read_text(encoding="utf-8"))


def test_every_core_file_is_in_one_layer(tables: dict[str, dict[str, int]]) -> None:
    on_disk = {str(p.relative_to(RUST_SRC)) for p in RUST_SRC.rglob("*.rs")} - {"lib.rs"}
    assert set(tables["rust"]) == on_disk
    assert set(tables["python"]) == {p.name for p in REFERENCE.glob("*.py")}


def test_the_rust_core_has_no_import_circle_and_no_import_up(tables: dict[str, dict[str, int]]) -> None:
    edges, through_root = rust_graph(RUST_SRC)
    named = {rust_name(m, RUST_SRC): {rust_name(d, RUST_SRC) for d in deps} for m, deps in edges.items()}
    assert circles(named) == []
    assert upward(named, tables["rust"]) == []
    assert through_root == []


def test_the_reference_engine_has_no_import_circle_and_no_import_up(tables: dict[str, dict[str, int]]) -> None:
    edges = {f"{m}.py": {f"{d}.py" for d in deps} for m, deps in python_graph(REFERENCE).items()}
    assert circles(edges) == []
    assert upward(edges, tables["python"]) == []


def test_no_core_function_is_longer_than_120_lines() -> None:
    assert long_rust_functions(RUST_SRC, MAX_FUNCTION_LINES) == []
    assert long_python_functions(REFERENCE, MAX_FUNCTION_LINES) == []


# --- the binding crate (docs/architecture.md, "Binding crate") --------------------------------------------------

BINDING_SRC = ROOT / "rust" / "brass-py" / "src"

#: The Python modules of the package a binding file may import, beyond the extension itself (`brass._brass`,
#: for pickling and the shipped networks' folder): the error family, and the display seam of `state.rs`
#: (`str(state)` and Jupyter's picture are drawn by `brass.text` and `brass.svg`).
BINDING_PYTHON_IMPORTS = {"errors.rs": {"brass._errors"}, "state.rs": {"brass.text", "brass.svg"}}

#: A dotted `brass` module name as a string literal, unless it is a class's `#[pyclass(module = "...")]`.
BRASS_MODULE = re.compile(r'(\bmodule\s*=\s*)?"(brass(?:\.\w+)*)"')


def binding_files(src: Path) -> set[str]:
    return {str(p.relative_to(src)) for p in src.rglob("*.rs")}


def python_modules_named(src: Path) -> dict[str, set[str]]:
    """File -> the modules of the Python package it names (imports), read from its code without comments."""
    named: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*.rs")):
        code = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("//"))
        modules = {m.group(2) for m in BRASS_MODULE.finditer(code) if not m.group(1)}
        named[str(path.relative_to(src))] = modules - {"brass._brass"}
    return named


def python_imports_not_allowed(named: dict[str, set[str]], allowed: dict[str, set[str]]) -> list[str]:
    return [
        f"{file} imports {module}"
        for file, modules in sorted(named.items())
        for module in sorted(modules - allowed.get(file, set()))
    ]


def test_the_binding_checks_fail_on_a_missing_file_a_circle_an_upward_import_and_a_python_import(
    tmp_path: Path,
) -> None:
    body = "\n".join("    let _ = 1;" for _ in range(MAX_FUNCTION_LINES))
    src = write(
        tmp_path,
        {
            "lib.rs": "mod errors; mod args; mod game; mod state; mod extra;",
            "errors.rs": 'fn f(py: Python) { cell.import(py, "brass._errors", "ConfigError"); }',
            "args.rs": "use crate::errors::raise;\nuse crate::game::Game;",
            "game.rs": "use crate::{errors::guard, state::State};",
            "state.rs": (
                'use crate::game::Game;\n#[pyclass(module = "brass.agents")]\nstruct S;\n'
                '// py.import("brass.cli")\n'
                f'fn f(py: Python) {{\n    py.import("brass._brass");\n    py.import("brass.agents");\n{body}\n}}'
            ),
            "extra.rs": "",
        },
    )
    text = "\n".join(
        [
            "# A doc",
            "## Layers",
            "Binding crate (`src`):",
            "| layer | files | what |",
            "|---|---|---|",
            "| 1 | `errors.rs` | |",
            "| 2 | `args.rs` | |",
            "| 3 | `game.rs`, `state.rs` | |",
            "| 4 | `lib.rs` | |",
            "## Next",
        ]
    )
    table = layer_tables(text)["binding"]
    assert binding_files(src) - set(table) == {"extra.rs"}
    edges, through_root = rust_graph(src)
    named = {rust_name(m, src): {rust_name(d, src) for d in deps} for m, deps in edges.items()}
    assert circles(named) == [["game.rs", "state.rs"]]
    assert upward(named, table) == ["args.rs (layer 2) imports game.rs (layer 3)"]
    assert python_imports_not_allowed(python_modules_named(src), {"errors.rs": {"brass._errors"}}) == [
        "state.rs imports brass.agents"
    ]
    assert long_rust_functions(src, MAX_FUNCTION_LINES) == [f"state.rs:5 f ({MAX_FUNCTION_LINES + 4} lines)"]


def test_the_binding_table_is_read_apart_from_the_others() -> None:
    tables = layer_tables(ARCHITECTURE.read_text(encoding="utf-8"))
    assert tables["binding"]["errors.rs"] == 1
    assert tables["binding"]["args.rs"] < tables["binding"]["game.rs"] == tables["binding"]["state.rs"]
    assert max(tables["binding"].values()) == tables["binding"]["lib.rs"]
    assert "args.rs" not in tables["python"] and "args.rs" not in tables["rust"]


def test_every_binding_file_is_in_one_layer(tables: dict[str, dict[str, int]]) -> None:
    assert set(tables["binding"]) == binding_files(BINDING_SRC)


def test_the_binding_has_no_import_circle_and_no_import_up(tables: dict[str, dict[str, int]]) -> None:
    edges, through_root = rust_graph(BINDING_SRC)
    named = {rust_name(m, BINDING_SRC): {rust_name(d, BINDING_SRC) for d in deps} for m, deps in edges.items()}
    assert circles(named) == []
    assert upward(named, tables["binding"]) == []
    assert through_root == []


def test_the_binding_imports_of_the_package_only_the_error_family_and_its_display_seam() -> None:
    assert python_imports_not_allowed(python_modules_named(BINDING_SRC), BINDING_PYTHON_IMPORTS) == []


def test_no_binding_function_is_longer_than_120_lines() -> None:
    assert long_rust_functions(BINDING_SRC, MAX_FUNCTION_LINES) == []
