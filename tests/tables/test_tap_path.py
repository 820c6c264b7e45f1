"""The road a tap travels, function by function: one tap over a table's websocket and one as a
form post, run under a profiler, from the face's consumer or view to the last frame written to
the table's screens and the TV. What a reader following it must open is held to a size: no
stop that only passes the call on, no file on the road that is mostly about something else,
and a bound on the lines of the files it runs through (the ASGI and middleware plumbing
included). The files it runs through are listed here too, so the road cannot grow quietly: a
new stop on it is a change to this list, made on purpose (docs/architecture.md)."""

import ast
import sys
import uuid
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import CodeType

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator

from bunco import runtime
from bunco.asgi import application
from bunco.live import groups
from bunco.night.cache import live_state
from bunco.night.services import claim_for
from tests.tables.test_consumers import HOST, ORIGIN, connect, make_night

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)

#: Above the consumer and the view: the ASGI application and handler, the origin check and
#: Django's middleware, which run for every message and request whatever it is (the collector
#: told the server's loop too). Counted in the lines a reader opens, not listed as stops.
PLUMBING = {"bunco/asgi.py", "bunco/runtime/door.py", "bunco/runtime/handler.py", "bunco/origin.py",
            "bunco/middleware.py", "bunco/inputs.py", "bunco/proxies.py", "bunco/stick.py",
            "bunco/laptop/roomcheck/arrivals.py", "bunco/runtime/collector.py"}

#: The server's own timers tick whatever happens: what they run is not the tap's work.
TIMERS = {("bunco/runtime/collector.py", "tick"), ("bunco/runtime/watch.py", "tick"),
          ("bunco/runtime/watch.py", "round")}

#: Every stop of a tap's road, both ways in.
ROAD = {
    # the face: its consumer or view, the tap and its fields
    "tables/consumers.py", "tables/posts.py", "tables/tap.py",
    # the core: the link's share, one command through the one runner, the log folded
    "bunco/buckets.py", "bunco/night/services/table.py", "bunco/night/cache.py",
    "bunco/night/services/runner.py", "bunco/runtime/statements.py", "bunco/night/tap_reads.py",
    "bunco/night/fold.py",
    "bunco/night/events.py", "bunco/night/payloads/base.py", "bunco/night/versions.py",
    # what was written, handed to the layers above and beside (drawn and pushed, then copied)
    "bunco/night/hooks.py", "bunco/laptop/keeping.py",
    # the rules
    "scoring/round.py", "scoring/table.py", "scoring/table_spec.py", "scoring/roll.py",
    # what the table's screens show, drawn once, and whom it goes to
    "bunco/live/broadcast.py", "bunco/live/screens/table.py", "bunco/runtime/jinja.py",
    "bunco/live/groups.py",
    # how a push leaves: the push, the layer, the screens' consumers
    "bunco/runtime/pushes.py", "bunco/runtime/layer.py",
    "bunco/runtime/consumer.py",
}

#: Stops only with several workers: the counts every worker shares.
SHARED = {"bunco/shared_counts.py"}

#: What a reader may open for one tap, in lines, both ways in.
MOST_LINES = {"socket": 4_500, "form post": 5_000}
#: A file the tap runs under this share of is mostly about something else.
LEAST_SHARE = 0.10
#: Files on the road exempt from the share, and why.
SHARE_EXEMPT: dict[str, str] = {}


def relative(filename: str) -> str | None:
    """A project file's path from the checkout (None: a library's, a test's, generated)."""
    if not filename.startswith(str(ROOT)) or not filename.endswith(".py"):
        return None
    name = filename[len(str(ROOT)) + 1:]
    return None if name.startswith((".venv/", "tests/")) else name


def on_a_timer(frame) -> bool:
    while frame is not None:
        if (relative(frame.f_code.co_filename), frame.f_code.co_name) in TIMERS:
            return True
        frame = frame.f_back
    return False


class Road:
    """The project's functions run while it is open, in every thread it is opened in."""

    def __init__(self):
        self.codes: set[CodeType] = set()

    def profile(self, frame, event, arg):
        if event == "call" and relative(frame.f_code.co_filename) and not on_a_timer(frame):
            self.codes.add(frame.f_code)

    async def __aenter__(self):
        await database_sync_to_async(sys.setprofile)(self.profile)  # the one sync thread
        sys.setprofile(self.profile)
        return self

    async def __aexit__(self, *exc):
        sys.setprofile(None)
        await database_sync_to_async(sys.setprofile)(None)


@cache
def file_lines(name: str) -> int:
    return len((ROOT / name).read_text().splitlines())


@cache
def functions(name: str) -> dict[int, ast.FunctionDef | ast.AsyncFunctionDef]:
    """A file's functions by their code's first line (a decorator's, if decorated)."""
    found = {}
    for node in ast.walk(ast.parse((ROOT / name).read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[min([node.lineno, *(d.lineno for d in node.decorator_list)])] = node
    return found


def named(func) -> bool:
    """A function or method called by its name (``f``, ``module.f``, ``self.f``,
    ``super().f``): another stop, rather than an operation on a value (``self.seen.get``)."""
    if isinstance(func, ast.Attribute):
        func = func.value
        if isinstance(func, ast.Call):
            return isinstance(func.func, ast.Name) and func.func.id == "super"
    return isinstance(func, ast.Name)


def passes_the_call_on(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body that, its docstring aside, is one call (or the return of one) handing on only
    the function's own parameters or constants."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Expr | ast.Return):
        return False
    call = body[0].value
    if isinstance(call, ast.Await):
        call = call.value
    if not isinstance(call, ast.Call) or not named(call.func):
        return False
    given = node.args
    params = {a.arg for a in (*given.posonlyargs, *given.args, *given.kwonlyargs,
                              *(a for a in (given.vararg, given.kwarg) if a))}

    def handed_on(expr) -> bool:
        if isinstance(expr, ast.Starred):
            expr = expr.value
        return isinstance(expr, ast.Constant) or (isinstance(expr, ast.Name)
                                                  and expr.id in params)

    return all(map(handed_on, call.args)) and all(handed_on(k.value) for k in call.keywords)


@dataclass
class Figures:
    """What a reader following one tap opens."""

    ran: dict[str, set[int]] = field(default_factory=dict)  # file -> lines of functions run
    forwarders: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, road: Road) -> "Figures":
        out = cls()
        for code in road.codes:
            name = relative(code.co_filename)
            lines = [line for _, _, line in code.co_lines() if line is not None]
            out.ran.setdefault(name, set()).update(
                range(code.co_firstlineno, max(lines, default=code.co_firstlineno) + 1))
            node = functions(name).get(code.co_firstlineno)
            if node is not None and node.name == code.co_name and passes_the_call_on(node):
                out.forwarders.append(f"{name}:{code.co_qualname}")
        return out

    @property
    def files(self) -> set[str]:
        return set(self.ran)

    @property
    def stops(self) -> set[str]:
        return self.files - PLUMBING

    @property
    def lines(self) -> int:
        return sum(file_lines(name) for name in self.ran)

    def share(self, name: str) -> float:
        return len(self.ran[name]) / file_lines(name)

    @property
    def thin(self) -> dict[str, str]:
        return {name: f"{self.share(name):.0%} of {file_lines(name)}" for name in self.ran
                if self.share(name) < LEAST_SHARE and name not in SHARE_EXEMPT}


def tap_fields(night, table: int) -> dict:
    claim = claim_for(live_state(night), table)
    return {"key": str(uuid.uuid4()), "set": str(claim.set_number),
            "round": str(claim.round_number), "table": str(table),
            "pos": str(claim.position), "quick": "miss"}


async def tap_over_the_socket(table_ws, tv, night):
    fields = await database_sync_to_async(tap_fields)(night, 1)
    await table_ws.send_json_to({"type": "tap", "action": "roll", "fields": fields})
    got = [await table_ws.receive_from(), await table_ws.receive_from()]  # the answer, the push
    await tv.receive_from()  # the last frame: the TV's
    assert any('"recorded"' in text for text in got)


async def tap_as_a_form_post(token, table_ws, tv, night):
    fields = await database_sync_to_async(tap_fields)(night, 1)
    body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
    post = HttpCommunicator(application, "POST", f"/t/{token}/roll/", body=body, headers=[
        ORIGIN, HOST, (b"content-type", b"application/x-www-form-urlencoded"),
        (b"cookie", b"csrftoken=" + b"x" * 32), (b"x-csrftoken", b"x" * 32)])
    answer = await post.get_response()
    assert answer["status"] == 200, answer["body"][:300]
    await table_ws.receive_from()  # the table's push
    await tv.receive_from()


async def roads() -> dict[str, Figures]:
    """One tap each way, followed (each way's first pays for its imports, unfollowed)."""
    night, links, _ = await database_sync_to_async(make_night)()
    table_ws = await connect(f"/ws/table/{links[1]}/")
    tv = await connect(f"/ws/tv/{night.tv_token}/")
    await table_ws.receive_from()
    await tv.receive_from()
    await tap_over_the_socket(table_ws, tv, night)
    await tap_as_a_form_post(links[1], table_ws, tv, night)
    async with Road() as socket_road:
        await tap_over_the_socket(table_ws, tv, night)
    async with Road() as post_road:
        await tap_as_a_form_post(links[1], table_ws, tv, night)
    for ws in (table_ws, tv):
        await ws.disconnect()
    found = {"socket": Figures.of(socket_road), "form post": Figures.of(post_road)}
    for way, figures in found.items():
        print(f"{way}: {len(figures.files)} files, {figures.lines} lines, "
              f"{len(figures.thin)} under {LEAST_SHARE:.0%} {figures.thin}, "
              f"{len(figures.forwarders)} passing the call on {sorted(figures.forwarders)}")
    return found


@pytest.mark.tuned("dispatch")  # stock, the consumer's own dispatch is off the road
async def test_a_taps_road_has_no_stop_that_only_passes_the_call_on_and_its_files_are_listed():
    found = await roads()
    for way, figures in found.items():
        assert not figures.forwarders, f"by {way}, stops that only pass the call on"
    # With several workers the channel layer is Redis's (channels_redis), not the party's, and
    # a link's share of taps is counted in Redis too.
    road = ROAD - {"bunco/runtime/layer.py"} | SHARED if groups.shared_layer() else ROAD
    if runtime.stock("statements"):  # the runner writes by the ORM's own statements
        road = road - {"bunco/runtime/statements.py"}
    for way, figures in found.items():
        assert figures.stops <= road, f"a tap by {way} runs through files off its road: " \
                                      f"{figures.stops - road}"
    both = found["socket"].stops | found["form post"].stops
    assert both == road, road - both


@pytest.mark.tuned("dispatch")
async def test_a_taps_road_is_about_the_tap_and_short_to_read():
    for way, figures in (await roads()).items():
        assert not figures.thin, f"by {way}, files mostly about something else"
        assert figures.lines <= MOST_LINES[way], f"by {way}, {figures.lines} lines to read"
