"""The core and the package in one direction (docs/architecture.md, "Layers").

Reads every `crate::` / `super::` path of `rust/brass-core/src` and every relative import of
`python/brass/reference` (type-checking and function-local imports included) and checks them against the
layer tables of docs/architecture.md: every file is in exactly one layer, no import goes to a higher layer, no
import circle closes (within a layer either), no path goes through the crate root, and no function is longer
than 120 lines. The Python package `python/brass` is read the same way, every import of every module (absolute
and relative, module-level, function-local, under `TYPE_CHECKING`, and string imports through `importlib`), and
checked against its own table, with the rules of its shape: `argparse` and `brass.cli` only in the command line,
the subpackages behind an extra imported only by their command, nothing of `brass.reference` but its public names
outside it, and the reference engine reaching out only to the error family, the RNG and its one display seam.
The analysers are tested on small hand-made trees first, so a check that cannot fail would show.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUST_SRC = ROOT / "rust" / "brass-core" / "src"
REFERENCE = ROOT / "python" / "brass" / "reference"
PACKAGE = ROOT / "python" / "brass"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_FUNCTION_LINES = 120

Module = tuple[str, ...]


# --- the layer tables ----------------------------------------------------------------------------------------


def layer_tables(text: str) -> dict[str, dict[str, int]]:
    """The tables of the "Layers" section: tree ("rust", "python" for the reference engine, "package" for the
    Python package) -> file -> layer number."""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, dict[str, int]] = {}
    engine = None
    for line in section.splitlines():
        if line.startswith("Rust core"):
            engine = "rust"
        elif line.startswith("Reference engine"):
            engine = "python"
        elif line.startswith("Python package"):
            engine = "package"
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


# --- Python: the package's import graph ----------------------------------------------------------------------

#: The one place the reference engine reaches the package above it: its display hooks (`_repr_svg_`, `str`) draw
#: through the satellites, imported inside the hooks, as python-chess's `Board` draws itself through `chess.svg`.
#: An allowed arrow up, so neither the up-arrow nor the circle check counts it.
DISPLAY_SEAM = "reference/_display.py"
DISPLAY_MODULES = {"brass.svg", "brass.text"}
#: What the reference engine may import of `brass` outside itself (besides the seam).
REFERENCE_FOUNDATIONS = {"brass._errors", "brass._rng"}
#: The subpackages behind an extra, and the command that may import each, inside a function (`env/` has none).
EXTRA_COMMANDS = {"learn/": "cli/learn.py", "serve/": "cli/serve.py", "env/": None}
#: Where the command line may be imported (`argparse`, `brass.cli`).
COMMAND_LINE = ("cli/", "__main__.py")


@dataclass(frozen=True)
class Import:
    """One module named by a file of the package: `source` the file (`cli/arena.py`), `target` the dotted module
    (`brass.arena`, `argparse`), `lazy` when the import is inside a function (it runs only when called)."""

    source: str
    target: str
    lazy: bool
    line: int


def package_modules(package: Path) -> dict[str, str]:
    """Dotted module name -> its file, relative to the package (`brass.cli.arena` -> `cli/arena.py`, `brass` ->
    `__init__.py`); the compiled module `brass._brass` -> `_brass` when its stubs are there (`_brass/*.pyi`, or
    one `_brass.pyi`)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path.relative_to(package).as_posix()
    if (package / "_brass.pyi").exists() or (package / "_brass" / "__init__.pyi").exists():
        modules[f"{package.name}._brass"] = "_brass"
    return modules


def _nodes(tree: ast.AST, lazy: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every node, and whether it is inside a function."""
    for child in ast.iter_child_nodes(tree):
        yield child, lazy
        inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        yield from _nodes(child, inner)


def _named(node: ast.AST, here: list[str], modules: dict[str, str]) -> list[str]:
    """The modules an import statement or a string import names (`here`: the importing module's package)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = here[: len(here) - node.level + 1] if node.level else []
        start = ".".join(base + (node.module.split(".") if node.module else []))
        return list(dict.fromkeys(f"{start}.{a.name}" if f"{start}.{a.name}" in modules else start for a in node.names))
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__"):
            return [c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return []


def package_imports(package: Path) -> list[Import]:
    """Every import of every file of the package: statements at module level, in functions and under
    `TYPE_CHECKING`, relative ones resolved, and string imports (`importlib.import_module("...")`, `__import__`:
    every string constant of the first argument)."""
    modules = package_modules(package)
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        here = [package.name, *rel.parent.parts]  # the package a relative import starts from
        for node, lazy in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _named(node, here, modules):
                found.append(Import(rel.as_posix(), target, lazy, getattr(node, "lineno", 0)))
    return found


def unit_of(file: str, table: dict[str, int]) -> str | None:
    """The entry of the table a file belongs to: the file itself, or the folder (`cli/`) it is in."""
    if file in table:
        return file
    folders = [entry for entry in table if entry.endswith("/") and file.startswith(entry)]
    return max(folders, key=len) if folders else None


def unplaced(package: Path, table: dict[str, int]) -> list[str]:
    """Files in no layer or in two (a file and its folder both listed), and entries that name no file."""
    files = sorted(package_modules(package).values())
    found = []
    for file in files:
        entries = [e for e in table if e == file or (e.endswith("/") and file.startswith(e))]
        if len(entries) != 1:
            found.append(f"{file} is in {len(entries)} layers")
    for entry in table:
        if not any(f == entry or (entry.endswith("/") and f.startswith(entry)) for f in files):
            found.append(f"{entry} names no file")
    return found


def is_display_seam(imp: Import) -> bool:
    return imp.source == DISPLAY_SEAM and imp.target in DISPLAY_MODULES and imp.lazy


def package_graph(package: Path, imports: list[Import]) -> dict[str, set[str]]:
    """File -> the files of the package it imports (the display seam left out: the one allowed arrow up)."""
    modules = package_modules(package)
    edges: dict[str, set[str]] = {file: set() for file in modules.values()}
    for imp in imports:
        target = modules.get(imp.target)
        if target is not None and target != imp.source and not is_display_seam(imp):
            edges[imp.source].add(target)
    return edges


def package_upward(package: Path, imports: list[Import], table: dict[str, int]) -> list[str]:
    """Imports from an entry of the table to an entry of a higher layer (the display seam allowed)."""
    modules = package_modules(package)
    found = []
    for imp in imports:
        target = modules.get(imp.target)
        a, b = unit_of(imp.source, table), unit_of(target, table) if target else None
        if a and b and a != b and table[b] > table[a] and not is_display_seam(imp):
            found.append(
                f"{imp.source}:{imp.line} ({a}, layer {table[a]}) imports {imp.target} ({b}, layer {table[b]})"
            )
    return found


def misplaced_imports(imports: list[Import]) -> list[str]:
    """Imports the package's shape forbids: the command line outside it, an extra's subpackage outside its
    command (or at its module level), a private module of the reference engine outside it, and anything of
    `brass` the reference engine imports beyond its foundations and its display seam."""
    found = []
    for imp in imports:
        where = f"{imp.source}:{imp.line} imports {imp.target}"
        parts = imp.target.split(".")
        in_reference = imp.source.startswith("reference/")
        command_line = parts[0] == "argparse" or parts[:2] == ["brass", "cli"]
        if command_line and not imp.source.startswith(COMMAND_LINE):
            found.append(f"{where}: the command line, outside cli/")
        for extra, command in EXTRA_COMMANDS.items():
            behind = parts[:2] == ["brass", extra.rstrip("/")] and not imp.source.startswith(extra)
            if behind and not (imp.source == command and imp.lazy):
                found.append(f"{where}: {extra} is behind an extra, imported only by its command, in a function")
        private = parts[:2] == ["brass", "reference"] and len(parts) > 2 and parts[2].startswith("_")
        if private and not in_reference:
            found.append(f"{where}: a private module of the reference engine")
        outside = parts[0] == "brass" and parts[:2] != ["brass", "reference"]
        allowed = imp.target in REFERENCE_FOUNDATIONS or is_display_seam(imp)
        if in_reference and outside and not allowed:
            found.append(f"{where}: the reference engine imports only the error family and the RNG")
    return found


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


def long_python_functions(package: Path, limit: int, files: str = "*.py") -> list[str]:
    """Functions over `limit` lines in the modules `files` names (`**/*.py`: subpackages too)."""
    found = []
    for path in sorted(package.glob(files)):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(package).as_posix()}:{node.lineno} {node.name} ({length} lines)")
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


def test_the_package_analyser_reads_absolute_relative_local_type_checking_and_string_imports(tmp_path: Path) -> None:
    package = write(
        tmp_path / "brass",
        {
            "__init__.py": "from brass.low import x\n",
            "low.py": "import json\ndef g():\n    from brass import mid\n",
            "mid.py": "from .sub import leaf\n__import__('brass')\n",
            "high.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import brass.mid\n"
                "def f():\n    from . import low\n    import importlib\n"
                "    importlib.import_module('brass.sub.leaf' if f else 'brass')\n"
            ),
            "sub/__init__.py": "",
            "sub/leaf.py": "from ..low import x\nfrom . import other\n",
            "sub/other.py": "",
        },
    )
    found = {(i.source, i.target, i.lazy) for i in package_imports(package)}
    assert found == {
        ("__init__.py", "brass.low", False),
        ("low.py", "json", False),
        ("low.py", "brass.mid", True),
        ("mid.py", "brass.sub.leaf", False),
        ("mid.py", "brass", False),
        ("high.py", "typing", False),
        ("high.py", "brass.mid", False),  # under TYPE_CHECKING, still at module level
        ("high.py", "brass.low", True),
        ("high.py", "importlib", True),
        ("high.py", "brass.sub.leaf", True),
        ("high.py", "brass", True),
        ("sub/leaf.py", "brass.low", False),
        ("sub/leaf.py", "brass.sub.other", False),
    }
    edges = package_graph(package, package_imports(package))
    assert edges["high.py"] == {"__init__.py", "low.py", "mid.py", "sub/leaf.py"}
    assert circles(edges) == [["__init__.py", "low.py", "mid.py", "sub/leaf.py"]]  # a function-local import closes it


def test_the_package_checks_fail_on_an_unplaced_file_an_upward_import_and_a_long_function(tmp_path: Path) -> None:
    body = "\n".join("    x = 1" for _ in range(MAX_FUNCTION_LINES))
    package = write(
        tmp_path / "brass",
        {
            "__init__.py": "",
            "low.py": "def f():\n    import brass.high\n",
            "high.py": f"import brass.low\ndef long():\n{body}\n",
            "loose.py": "",
            "sub/__init__.py": "",
            "sub/a.py": "",
        },
    )
    table = {"__init__.py": 1, "low.py": 1, "high.py": 2, "sub/": 1, "sub/a.py": 1, "gone.py": 1}
    assert unplaced(package, table) == ["loose.py is in 0 layers", "sub/a.py is in 2 layers", "gone.py names no file"]
    imports = package_imports(package)
    assert package_upward(package, imports, table) == [
        "low.py:2 (low.py, layer 1) imports brass.high (high.py, layer 2)"
    ]
    assert circles(package_graph(package, imports)) == [["high.py", "low.py"]]
    assert long_python_functions(package, MAX_FUNCTION_LINES, "**/*.py") == [
        f"high.py:2 long ({MAX_FUNCTION_LINES + 1} lines)"
    ]


def test_the_package_shape_checks_fail_on_each_forbidden_import(tmp_path: Path) -> None:
    package = write(
        tmp_path / "brass",
        {
            "__init__.py": "",
            "_errors.py": "",
            "svg.py": "",
            "agents.py": "import argparse\nfrom brass.cli import main\nfrom brass.reference._state import State\n",
            "viewer.py": "def f():\n    from brass import serve\n",
            "cli/__init__.py": "import argparse\nfrom brass.cli import learn\n",
            "cli/learn.py": "import brass.learn\ndef run():\n    import brass.learn\n",
            "cli/serve.py": "def run():\n    from brass.serve import app\n",
            "learn/__init__.py": "from brass.learn import trainer\n",
            "learn/trainer.py": "",
            "serve/__init__.py": "",
            "serve/app.py": "",
            "reference/__init__.py": "from ._state import State\nfrom brass._errors import BrassError\n",
            "reference/_state.py": "import brass.svg\nfrom brass import agents\nfrom . import _display\n",
            "reference/_display.py": "import brass.text\ndef svg():\n    import brass.svg\n",
        },
    )
    assert misplaced_imports(package_imports(package)) == [
        "agents.py:1 imports argparse: the command line, outside cli/",
        "agents.py:2 imports brass.cli: the command line, outside cli/",
        "agents.py:3 imports brass.reference._state: a private module of the reference engine",
        "cli/learn.py:1 imports brass.learn: learn/ is behind an extra, imported only by its command, in a function",
        "reference/_display.py:1 imports brass.text: the reference engine imports only the error family and the RNG",
        "reference/_state.py:1 imports brass.svg: the reference engine imports only the error family and the RNG",
        "reference/_state.py:2 imports brass.agents: the reference engine imports only the error family and the RNG",
        "viewer.py:2 imports brass.serve: serve/ is behind an extra, imported only by its command, in a function",
    ]


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


# --- the package ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return package_imports(PACKAGE)


def test_the_package_table_is_read_from_the_section(tables: dict[str, dict[str, int]]) -> None:
    package = tables["package"]
    assert package["_errors.py"] == 1 and package["reference/"] < package["agents.py"] < package["cli/"]


def test_every_module_of_the_package_is_in_one_layer(tables: dict[str, dict[str, int]]) -> None:
    assert unplaced(PACKAGE, tables["package"]) == []


def test_the_package_has_no_import_circle_and_no_import_up(
    tables: dict[str, dict[str, int]], imports: list[Import]
) -> None:
    assert circles(package_graph(PACKAGE, imports)) == []
    assert package_upward(PACKAGE, imports, tables["package"]) == []


def test_the_package_keeps_its_shape(imports: list[Import]) -> None:
    assert misplaced_imports(imports) == []
    assert any(is_display_seam(i) for i in imports)  # the seam is where the table says


def test_no_function_of_the_package_is_longer_than_120_lines() -> None:
    assert long_python_functions(PACKAGE, MAX_FUNCTION_LINES, "**/*.py") == []


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
