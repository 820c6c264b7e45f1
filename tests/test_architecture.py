"""One core and three faces: imports run faces -> core -> scoring, never back and never between
faces; the fold is pure; rules live only in scoring."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACES = {"host": "bunco.host", "tv": "bunco.tv", "phones": "tables"}
WIRING = {"bunco.urls", "bunco.routing", "bunco.asgi", "bunco.settings"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def sources(package: str):
    base = ROOT.joinpath(*package.split("."))
    for path in base.rglob("*.py"):
        if "migrations" not in path.parts:
            yield module_name(path), path


def face_of(module: str) -> str | None:
    for face, prefix in FACES.items():
        if module == prefix or module.startswith(prefix + "."):
            return face
    return None


def is_wiring(module: str) -> bool:
    return module in WIRING or module.startswith("bunco.management")


def test_the_core_never_imports_a_face():
    for module, path in sources("bunco"):
        if face_of(module) or is_wiring(module):
            continue
        bad = sorted(i for i in imports(path) if face_of(i))
        assert not bad, f"{module} (core) imports the face(s) {bad}"


def test_faces_never_import_each_other():
    for package in FACES.values():
        for module, path in sources(package):
            mine = face_of(module)
            bad = sorted(i for i in imports(path) if face_of(i) not in (None, mine))
            assert not bad, f"{module} ({mine}) imports another face: {bad}"


def test_scoring_and_the_fold_are_pure():
    for module, path in [*sources("scoring"), ("bunco.fold", ROOT / "bunco" / "fold.py")]:
        bad = sorted(i for i in imports(path)
                     if i.split(".")[0] in ("django", "channels", "bunco", "tables")
                     and not i.startswith("bunco.fold"))
        assert not bad, f"{module} must be pure Python but imports {bad}"


def test_rules_are_not_reimplemented_outside_scoring():
    """Standings order, set/round numbering, the pot rule and who rolls for a ghost are
    asked of scoring, not re-derived in the web layers."""
    for package in ("bunco", "tables"):
        for module, path in sources(package):
            text = path.read_text()
            assert "divmod(" not in text, f"{module} numbers sets and rounds itself"
            assert "-s.wins, -s.buncos" not in text and '-r["wins"]' not in text, (
                f"{module} orders the standings itself")
            assert "entry_fee_cents * " not in text, (
                f"{module} computes the pot itself")
            assert "partner_of(playing.current)" not in text, (
                f"{module} decides who rolls for a ghost itself")
