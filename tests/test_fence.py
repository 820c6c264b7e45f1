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


#: Underscored names that their libraries document for use: a model's ``_meta`` and ``_state``
#: (Django's Model _meta API; "Customizing model loading") and a named tuple's ``_replace``.
DOCUMENTED = {"_meta", "_state", "_replace"}


def owned(trees) -> set[str]:
    """Every name the project defines anywhere (its locals too), and ``DOCUMENTED``."""
    names = set(DOCUMENTED)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def private_attributes(tree: ast.AST, ours: set[str]) -> list[tuple[int, str]]:
    """Where ``tree`` reads a private attribute not among ``ours``, or imports a library's
    private name."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and private(node.attr)
                and node.attr not in ours):
            found.append((node.lineno, f".{node.attr}"))
        elif (isinstance(node, ast.ImportFrom) and node.level == 0
              and any(private(a.name) for a in node.names)
              and not node.module.startswith(PACKAGES)):
            found.append((node.lineno, f"from {node.module}"))
    return sorted(found)


def test_nothing_outside_the_runtime_touches_a_librarys_private_name(trees):
    """The tuning that leans on Django's, Channels', Daphne's, Twisted's or autobahn's
    internals lives in ``bunco/runtime/``, each piece checked at start: anywhere else, an
    underscored attribute is one the project defines itself."""
    ours = owned(trees.values())
    foreign = [f"{path.relative_to(ROOT)}:{line} {what}"
               for path, tree in trees.items() if not in_runtime(path)
               for line, what in private_attributes(tree, ours)]
    assert not foreign, f"private names of a library outside bunco/runtime/: {foreign}"


def test_the_private_name_check_finds_one():
    made_up = ast.parse("from channels.layers import _hidden\n"
                        "self._mine = layer._clean_expired()\n"
                        "self._mine, model._meta\n")
    ours = owned([made_up])
    assert private_attributes(made_up, ours) == [
        (1, "from channels.layers"), (2, "._clean_expired")]


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


WEBSOCKET = {"connect", "receive", "disconnect", "websocket_connect", "websocket_receive",
             "websocket_disconnect"}
#: The methods a library documents for a subclass to override, by the class that documents
#: them (a ``*`` stands for any letters). Anything else of a library's that a class outside
#: bunco/runtime/ redefines is the library's own working, which only the runtime changes.
EXTENSION_POINTS = {
    # Channels, "Consumers": the events a websocket consumer handles; a JSON one's coding.
    "channels.generic.websocket.WebsocketConsumer": WEBSOCKET,
    "channels.generic.websocket.AsyncWebsocketConsumer": WEBSOCKET,
    "channels.generic.websocket.JsonWebsocketConsumer": {
        *WEBSOCKET, "receive_json", "encode_json", "decode_json"},
    "channels.generic.websocket.AsyncJsonWebsocketConsumer": {
        *WEBSOCKET, "receive_json", "encode_json", "decode_json"},
    # Django, "Writing custom django-admin commands".
    "django.core.management.base.BaseCommand": {"add_arguments", "handle"},
    # Django, "Middleware": the hooks of a MiddlewareMixin.
    "django.utils.deprecation.MiddlewareMixin": {
        "process_request", "process_view", "process_exception", "process_template_response",
        "process_response"},
    # Django, "Form and field validation" (a field's clean_<name> is the form's own).
    "django.forms.forms.BaseForm": {"clean"},
    # Django, "Models": overriding predefined model methods.
    "django.db.models.base.Model": {"save", "delete", "clean", "get_absolute_url"},
    # Django, "The Django admin site": ModelAdmin's permission and get_ methods.
    "django.contrib.admin.options.BaseModelAdmin": {"has_*_permission", "get_*"},
    # Django, "Writing a custom storage system": _open and _save, and the storage's methods.
    "django.core.files.storage.base.Storage": {"_open", "_save", "get_*", "post_process"},
    # Django, "Applications": AppConfig.ready.
    "django.apps.config.AppConfig": {"ready"},
    # Django, class-based views: the HTTP methods, dispatch, setup and the get_ methods.
    "django.views.generic.base.View": {
        "get", "post", "put", "patch", "delete", "head", "options", "dispatch", "setup",
        "get_*", "form_valid", "form_invalid"},
    # websockets, "Extensions": an extension's coding, a client factory's negotiation.
    "websockets.extensions.base.Extension": {"decode", "encode"},
    "websockets.extensions.base.ClientExtensionFactory": {
        "get_request_params", "process_response_params"},
}
#: Python's own, whatever the class: making one and showing it.
ANY_CLASS = {"__init__", "__str__", "__repr__"}
#: Overrides still outside the runtime, each with where it goes.
KNOWN: set[str] = set()


def library(cls: type) -> bool:
    """A class of a library the project installs (not the project's, not Python's own)."""
    top = cls.__module__.split(".")[0]
    return top not in PACKAGES and top not in sys.stdlib_module_names and top != "builtins"


def qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def overrides(cls: type, methods: list[str]) -> list[str]:
    """Which of ``methods`` (defined by ``cls``) redefine a library class's own method where
    none of ``cls``'s library bases documents it as an extension point."""
    bases = [base for base in cls.__mro__[1:] if library(base)]
    allowed = set(ANY_CLASS)
    for base in bases:
        allowed |= EXTENSION_POINTS.get(qualified(base), set())
    found = []
    for name in methods:
        owners = [base for base in bases if name in vars(base)]
        if owners and not any(fnmatch.fnmatchcase(name, p) for p in allowed):
            found.append(f"{qualified(cls)}.{name} ({qualified(owners[0])}.{name})")
    return found


def classes(path: Path, tree: ast.Module):
    """The module's classes with bases, each with the methods its body defines."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.bases:
            module = importlib.import_module(module_name(path))
            yield getattr(module, node.name), [
                n.name for n in node.body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_nothing_outside_the_runtime_overrides_a_librarys_own_working(trees):
    found = [f for path, tree in trees.items() if not in_runtime(path)
             for cls, methods in classes(path, tree) for f in overrides(cls, methods)]
    unknown = [f for f in found if f.split(" ")[0] not in KNOWN]
    assert not unknown, f"library methods overridden outside bunco/runtime/: {unknown}"
    gone = KNOWN - {f.split(" ")[0] for f in found}
    assert not gone, f"no longer overridden (take them off KNOWN): {gone}"


def test_the_override_check_finds_an_undocumented_override():
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from django.core.management.base import BaseCommand

    class Screen(AsyncJsonWebsocketConsumer):
        async def connect(self): ...

        async def dispatch(self, message): ...  # Channels' own routing of a message

        async def join(self, group): ...  # the project's own

    class Deeper(Screen):
        async def receive_json(self, content, **kwargs): ...

        async def send(self, text_data=None, bytes_data=None, close=False): ...

    class Command(BaseCommand):
        def handle(self, *args, **options): ...

        def execute(self, *args, **options): ...

    assert overrides(Screen, ["connect", "dispatch", "join"]) == [
        f"{qualified(Screen)}.dispatch (channels.consumer.AsyncConsumer.dispatch)"]
    assert overrides(Deeper, ["receive_json", "send"]) == [
        f"{qualified(Deeper)}.send "
        "(channels.generic.websocket.AsyncWebsocketConsumer.send)"]
    assert [f.split(" ")[0].rsplit(".")[-1] for f in overrides(Command, ["handle", "execute"])
            ] == ["execute"]
