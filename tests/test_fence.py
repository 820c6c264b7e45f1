"""The fence around the server's tuning: what leans on a library's own working lives in
``bunco/runtime/``, each piece checked at start and switchable (``BUNCO_STOCK``). Outside it,
the project reaches no library's private name, neither as an attribute nor through a string
(``getattr(obj, "_name")``), asks no tuned piece for its own methods by name (the runtime asks
for it, behind a function that also serves the stock path), and overrides a library's method
only where the library documents it as a place to extend."""

import ast
import fnmatch
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bunco", "tables", "scoring", "bench", "deploy")
RUNTIME = ROOT / "bunco" / "runtime"
#: The functions that reach an attribute by a name given as a string.
BY_NAME = {"getattr", "hasattr", "setattr", "delattr"}


def project_files():
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def in_runtime(path: Path) -> bool:
    return RUNTIME in path.parents


@pytest.fixture(scope="module")
def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text()) for path in project_files()}


def defined(tree: ast.AST) -> set[str]:
    """The attributes a file defines: its functions and classes, what it sets on ``self`` or
    ``cls``, and its module's and classes' own names (not a function's local variables)."""
    names = set()
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]
    for scope in scopes:
        for node in scope.body:
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                if isinstance(target, ast.Name):
                    names.add(target.id)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            names.add(node.attr)
    return names


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def reached_by_name(tree: ast.AST, ours: set[str], runtimes: set[str]) -> list[tuple[int, str]]:
    """Where ``tree`` reaches an attribute through a string that is a library's private name
    or one only the runtime defines (``ours``: the names defined outside the runtime;
    ``runtimes``: those defined in it). A name built at run time counts by its fixed start
    (``f"_on_{kind}"``: some name of ours must start so)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in BY_NAME and len(node.args) >= 2):
            continue
        name = node.args[1]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            if (private(name.value) or name.value in runtimes) and name.value not in ours:
                found.append((node.lineno, name.value))
        elif (isinstance(name, ast.JoinedStr) and name.values
              and isinstance(name.values[0], ast.Constant)):
            start = name.values[0].value
            if private(start) and not any(n.startswith(start) for n in ours):
                found.append((node.lineno, start + "..."))
    return sorted(found)


def test_nothing_outside_the_runtime_reaches_a_librarys_name_through_a_string(trees):
    ours, runtimes = set(), set()
    for path, tree in trees.items():
        (runtimes if in_runtime(path) else ours).update(defined(tree))
    found = [f"{path.relative_to(ROOT)}:{line} {name!r}"
             for path, tree in trees.items() if not in_runtime(path)
             for line, name in reached_by_name(tree, ours, runtimes)]
    assert not found, f"names reached by string outside bunco/runtime/: {found}"


def test_the_string_check_finds_a_private_name_and_a_pieces_own_method():
    made_up = ast.parse(
        "def connect(self, kind):\n"
        "    getattr(self.channel_layer, 'direct', None)(self.channel_name, None)\n"
        "    if hasattr(layer, '_clean_expired'):\n"
        "        setattr(layer, '_swept', 0)\n"
        "    getattr(self, f'_on_{kind}')\n"
        "    getattr(self, 'joined', [])\n"
        "    getattr(self, '_planned', None)\n"
        "    getattr(settings, 'BUNCO_COPY_TO', None)\n")
    ours = {"connect", "joined", "_planned", "BUNCO_COPY_TO"}
    assert reached_by_name(made_up, ours, {"direct", "pending"}) == [
        (2, "direct"), (3, "_clean_expired"), (4, "_swept"), (5, "_on_...")]
    assert reached_by_name(made_up, ours | {"_on_roll"}, set())[-1] == (4, "_swept")
