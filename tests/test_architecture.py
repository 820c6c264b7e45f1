"""One core and three faces: imports run one way, scoring < night < live < faces, with the
runtime and the laptop beside (docs/architecture.md); the fold is pure; rules live only in
scoring."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACES = {"host": "bunco.host", "tv": "bunco.tv", "phones": "tables"}
WIRING = {"bunco.urls", "bunco.routing", "bunco.asgi", "bunco.settings", "bunco.apps"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, deferred imports inside functions included and relative
    ones resolved; ``from a import b`` counts as ``a`` and ``a.b``."""
    return {name for _, name in imports_by_line(path.read_text(), module_name(path),
                                                path.name == "__init__.py")}


def imports_by_line(source: str, module: str, package: bool = False):
    """(line, module imported) for each import in ``source``, the code of ``module``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".") if package else module.split(".")[:-1]
            if node.level:
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"


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


def inside(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


#: The layers, each with what it may never import: scoring < night < live < faces, the runtime
#: (how a push leaves) and the laptop beside, neither importing the live layer or a face; the
#: night imports nothing of live, the laptop or the runtime; no face imports another.
LAYERS = {
    "scoring": ("bunco", "tables"),
    "bunco.night": ("bunco.live", "bunco.laptop", "bunco.runtime", *FACES.values()),
    "bunco.live": ("bunco.laptop", *FACES.values()),
    "bunco.runtime": ("bunco.night", "bunco.live", "bunco.laptop", *FACES.values()),
    "bunco.laptop": ("bunco.live", *FACES.values()),
    "tables": ("bunco.host", "bunco.tv"),
    "bunco.host": ("tables", "bunco.tv"),
    "bunco.tv": ("tables", "bunco.host"),
}


def against_the_order(module: str, source: str, package: bool = False) -> list[str]:
    """The imports of ``module`` (its code ``source``) that run against the layers' order,
    one "line: module imported" per import statement."""
    layer = max((name for name in LAYERS if inside(module, name)), key=len, default=None)
    if layer is None or is_wiring(module):
        return []
    bad: dict[int, str] = {}
    for line, name in imports_by_line(source, module, package):
        if not inside(name, layer) and any(inside(name, banned) for banned in LAYERS[layer]):
            bad[line] = max(bad.get(line, ""), name, key=len)
    return [f"{line}: {name}" for line, name in sorted(bad.items())]


def test_imports_run_one_way_between_the_layers():
    """No module imports a layer above it or beside it (docs/architecture.md): the night's
    runner hands what it wrote to hooks the live layer and the laptop register at start-up
    (``bunco/apps.py``), and the runtime and the laptop take callbacks."""
    found = []
    for package in ("scoring", "bunco", "tables"):
        for module, path in sources(package):
            found += [f"{path.relative_to(ROOT)}:{bad}" for bad in against_the_order(
                module, path.read_text(), path.name == "__init__.py")]
    assert not found, f"{len(found)} imports against the layers' order: {found}"


def test_the_layer_check_finds_an_import_against_the_order():
    """The check above can fail: a deferred import, a relative one and one between faces, each
    against the order, are found; the wiring and an import down the order are not."""
    night = """
from bunco.night.fold import LiveNight
def run():
    from bunco.live import broadcast
"""
    assert against_the_order("bunco.night.services.runner", night) == [
        "4: bunco.live.broadcast"]
    assert against_the_order("bunco.runtime.pushes", "from ..live import layers\n") == [
        "1: bunco.live.layers"]
    assert against_the_order("bunco.laptop", "from ..live import groups\n", package=True) == [
        "1: bunco.live.groups"]
    assert against_the_order("bunco.laptop", "from .live import groups\n", package=True) == []
    assert against_the_order("tables.views", "import bunco.host.views\n") == [
        "1: bunco.host.views"]
    assert against_the_order("scoring.table", "from bunco.night import fold\n")
    assert against_the_order("bunco.apps", "from bunco.live import broadcast\n") == []
    assert against_the_order("bunco.live.broadcast", "from bunco.night import hooks\n") == []


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


#: The fold of the log and the rows it reads: pure Python, like scoring/.
FOLD = ("bunco.night.fold", "bunco.night.fold_people", "bunco.night.fold_corrections",
        "bunco.night.events", "bunco.night.payloads")


def files_of(name: str):
    """A module's file, or each of a package's."""
    path = ROOT.joinpath(*name.split("."))
    return sources(name) if path.is_dir() else [(name, path.with_suffix(".py"))]


def test_scoring_and_the_fold_are_pure():
    fold = [found for name in FOLD for found in files_of(name)]
    for module, path in [*sources("scoring"), *fold]:
        bad = sorted(i for i in imports(path)
                     if i.split(".")[0] in ("django", "channels", "bunco", "tables")
                     and not i.startswith(FOLD))
        assert not bad, f"{module} must be pure Python but imports {bad}"


def _name(node) -> str:
    """The last name of ``x``, ``a.x``, ``a["x"]`` ("" for anything else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    return ""


def _rule_logic(tree: ast.AST):
    """Where code re-derives a rule scoring owns, as (line, what scoring function it should
    have asked)."""
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and _name(node.func) == "divmod":
            yield line, "round_of (set and round numbering)"
        if isinstance(node, ast.Call) and _name(node.func) == "partner_of" and any(
                _name(a) == "current" for a in node.args):  # the chair now rolling
            yield line, "TableSpec.roller_of (who rolls for a ghost)"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _name(
                node.operand) in ("wins", "buncos"):
            yield line, "standing_key (the standings order)"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
                "entry_fee_cents" in (_name(node.left), _name(node.right))):
            yield line, "pot_for (the pot)"
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and sum(
                _name(v) == "ghost" for v in node.values) > 1:
            yield line, "ghosts_partnered (ghosts may not be partners)"
        if isinstance(node, ast.Subscript) and _name(node.value) in (
                "bunco_order", "order") and isinstance(node.slice, ast.UnaryOp):
            yield line, "fuzzy_die_holder (who holds the fuzzy die)"
        if isinstance(node, ast.Compare) and _name(node.left) == "result" and any(
                isinstance(c, ast.Constant) and c.value in ("W", "L") for c in node.comparators):
            yield line, "totals (a scorecard's wins and losses)"
        if isinstance(node, ast.keyword) and node.arg == "max_value" and isinstance(
                node.value, ast.Constant) and node.value.value == 6:
            yield line, "ROUNDS_PER_SET (six rounds a set)"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                node.value.startswith("die") and node.value[3:].isdigit()):
            yield line, "DIE_BUTTONS / tapped_dice (a one-die tie-break's buttons)"
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(
                node.values[0], ast.Constant) and node.values[0].value == "die":
            yield line, "DIE_BUTTONS (a one-die tie-break's buttons)"
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and any(
                isinstance(v, ast.Compare) and any(isinstance(c, ast.Constant)
                                                   and c.value == "bunco" for c in v.comparators)
                for v in node.values) and any(
                isinstance(v, ast.UnaryOp) and _name(v.operand) == "ghost" for v in node.values):
            yield line, "bunco_log (which buncos the rules credit: they pass the fuzzy die)"
        if isinstance(node, ast.Call) and _name(node.func) == "count" and isinstance(
                node.func, ast.Attribute) and isinstance(node.func.value, ast.Call) and _name(
                node.func.value.func) == "here":
            yield line, "LiveNight.here (whose fees make the pot, for pot_for)"


def test_the_rule_checks_find_a_rule_reimplemented():
    """The check below can fail: each rule, written out the way it once was outside scoring,
    is caught."""
    old = """
set_number, round_number = divmod(n - 1, 6)
roller = spec.seats[spec.partner_of(playing.current)]
rows.sort(key=lambda s: (-s.wins, -s.buncos))
pot = night.entry_fee_cents * players
two = seats[0]["ghost"] and seats[2]["ghost"]
holder = bunco_order[-1] if bunco_order else None
wins = sum(r["result"] == "W" for r in rows)
round = forms.IntegerField(min_value=1, max_value=6)
QUICK_CHOICES = [(f"die{n}", f"die{n}") for n in range(1, 7)]
if entry.kind == "bunco" and not entry.ghost: holder = entry
fees = night.players.here().count()
"""
    found = {what.split(" ")[0] for _, what in _rule_logic(ast.parse(old))}
    assert found == {"round_of", "TableSpec.roller_of", "standing_key", "pot_for",
                     "ghosts_partnered",
                     "fuzzy_die_holder", "totals", "ROUNDS_PER_SET", "DIE_BUTTONS",
                     "bunco_log", "LiveNight.here"}


def test_rules_are_not_reimplemented_outside_scoring():
    """Set/round numbering, the standings order, the pot and whose fees make it, who rolls for
    a ghost, ghosts never partners, the fuzzy die's holder and which buncos pass it, win/loss
    totals, six rounds a set and the one-die buttons are asked of scoring (or the fold), never
    worked out again in the core or a face."""
    for package in ("bunco", "tables"):
        for module, path in sources(package):
            if module.startswith("bunco.management"):
                continue  # the benchmarks' own arithmetic, no rules
            for line, what in _rule_logic(ast.parse(path.read_text())):
                raise AssertionError(f"{module}:{line} works out a rule itself: ask scoring's "
                                     f"{what}")


def test_each_tie_break_is_named_once():
    """The rules form's choices and a tied table's status line both name a tie-break from
    scoring's TIE_BREAKS: nowhere else spells one out."""
    from scoring.explain import TIE_BREAKS

    for package in ("bunco", "tables"):
        for module, path in sources(package):
            text = path.read_text()
            for name in TIE_BREAKS.values():
                assert name not in text, f"{module} names the tie-break {name!r} itself"


#: A file and a function a newcomer can hold in mind (tests and migrations aside).
FILE_LINES, FUNCTION_LINES = 450, 50


def test_no_code_file_or_function_grows_past_what_a_newcomer_can_read():
    too_long = []
    for package in ("bunco", "tables", "scoring", "bench", "deploy"):
        for module, path in sources(package):
            text = path.read_text()
            if len(text.splitlines()) > FILE_LINES:
                too_long.append(f"{module}: {len(text.splitlines())} lines")
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = node.end_lineno - node.lineno + 1
                    if length > FUNCTION_LINES:
                        too_long.append(f"{module}.{node.name}: {length} lines")
    assert not too_long, too_long
