"""Any body, any header, any content type, at every route and every websocket, through the
server's own ASGI application (its handler, its middleware, CSRF enforced): never a 5xx,
never an error logged, never a change to the night. Hypothesis draws the requests;
BUNCO_FUZZ_EXAMPLES runs more of them."""

import json
import logging
import os
import re

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.apps import apps
from django.conf import settings
from django.urls import get_resolver
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from bunco import inputs, limits
from bunco.asgi import application
from bunco.host.auth import host_secret
from bunco.models import Night, TableLink
from bunco.night import services
from bunco.routing import websocket_urlpatterns
from tests.asgi_http import asgi_request
from tests.screens import PATIENCE, PONG, Screen

pytestmark = pytest.mark.django_db(transaction=True)
EXAMPLES = max(40, int(os.environ.get("BUNCO_FUZZ_EXAMPLES", "60")))
FUZZ = hsettings(max_examples=EXAMPLES, deadline=None,
                 derandomize=not os.environ.get("BUNCO_EXPLORE"),
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow, HealthCheck.data_too_large])
CSRF = "k" * 32
PLACEHOLDER = re.compile(r"<(?:(\w+):)?(\w+)>")


def routes() -> list[str]:
    """Every route of the URLconf, as written (``host/nights/<int:pk>/pause/``)."""
    return [str(p.pattern) for p in get_resolver().url_patterns]


def state() -> dict:
    """Every row of the app's own tables: the night, its log, its people, links and calls."""
    return {model.__name__: list(model.objects.order_by("pk").values_list())
            for app in ("bunco", "tables") for model in apps.get_app_config(app).get_models()}


@pytest.fixture
def night(seated_night):
    services.round_start(night=seated_night)
    return seated_night


def values(night: Night) -> dict[str, list[str]]:
    from tables.views import results_key

    link = TableLink.objects.filter(night=night).first()
    player = night.players.first()
    junk = ["x", "0", "99999999999999999999", "%00", "..", "\u202e"]
    return {
        "pk": [str(night.pk), "99999"], "player_pk": [str(player.pk), "0"],
        "token": [link.token, player.token, night.tv_token, night.join_token, *junk],
        "secret": [host_secret(), *junk],
        "action": ["roll", "undo", "finish", "release", "ping", "start", *junk],
        "key": [results_key(player), f"{player.pk}:forged", *junk],
    }


CHARSETS = ["utf-8", "UTF8", "utf-16", "utf-16-le", "utf-32", "latin-1", "cp037", "utf-7",
            "shift_jis", "nope", "", "base64", "rot13", "zlib", "hex", "idna", "punycode",
            "x" * 300, "utf-8\x00"]
TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "application/json",
         "text/plain", "application/octet-stream", "", "*/*", "multipart/mixed", "\x00\xff"]
FIELDS = ["csrfmiddlewaretoken", "name", "code", "key", "set", "round", "table", "pos",
          "quick", "dice", "players", "file", "what", "rules_id"]


@st.composite
def content_types(draw) -> bytes:
    kind = draw(st.sampled_from([*TYPES[:2] * 3, *TYPES]) | st.text(max_size=20))
    params = draw(st.lists(st.sampled_from([
        f"charset={draw(st.sampled_from(CHARSETS) | st.text(max_size=12))}",
        f"boundary={draw(st.sampled_from(['x', 'x', '', '-' * 80, 'b' * 200]))}",
        draw(st.text(max_size=12))]), max_size=2))
    return "; ".join([kind, *params]).encode("utf-8", "surrogatepass")


@st.composite
def bodies(draw, charset: str) -> bytes:
    fields = draw(st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8),
                                  st.text(max_size=40), max_size=6))
    fields.setdefault("csrfmiddlewaretoken", CSRF)
    text = "&".join(f"{k}={v}" for k, v in fields.items())
    shape = draw(st.sampled_from(["form"] * 4 + ["multipart"] * 2 + ["raw", "many", "long"]))
    if shape == "raw":
        return draw(st.binary(max_size=600))
    if shape == "multipart":
        parts = "".join(f'--x\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                        for k, v in fields.items())
        return (parts + draw(st.sampled_from(["--x--\r\n", "", "--x"]))).encode(
            "utf-8", "surrogatepass")
    if shape == "many":  # past DATA_UPLOAD_MAX_NUMBER_FIELDS
        return ("&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 5))
                ).encode()
    if shape == "long":
        text += "&name=" + "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    try:
        return text.encode(charset)
    except (LookupError, UnicodeError, TypeError, ValueError):
        return text.encode("utf-8", "surrogatepass")


async def http(scope_headers, method: str, path: str, body: bytes,
               query: bytes = b"") -> tuple[int, bytes]:
    return await asgi_request(application, method, path, body, headers=scope_headers,
                              query=query, timeout=20)


def test_every_route_is_drawn(night):
    """A new route is fuzzed without anyone listing it: each placeholder has values."""
    known = values(night)
    for route in routes():
        for _, name in PLACEHOLDER.findall(route):
            assert name in known, f"{route}: no values for <{name}>"


@FUZZ
@given(data=st.data())
def test_any_request_at_any_route_is_never_a_server_error_and_changes_nothing(
        night, client, data, caplog):
    if "sessionid" not in client.cookies:  # signed in once, for every example
        client.get(f"/host/{host_secret()}/")
    host_cookie = f"sessionid={client.cookies['sessionid'].value}; "
    known = values(night)
    route = data.draw(st.sampled_from(routes()), label="route")
    path = "/" + PLACEHOLDER.sub(lambda m: data.draw(st.sampled_from(known[m.group(2)])),
                                 route)
    method = data.draw(st.sampled_from(["POST", "POST", "POST", "GET", "PUT", "DELETE",
                                        "HEAD", "OPTIONS", "BREW"]), label="method")
    ctype = data.draw(content_types(), label="content-type")
    charset = data.draw(st.sampled_from(CHARSETS), label="body charset")
    body = data.draw(bodies(charset), label="body")
    # As the host, the body is never readable as a form (or every command with no field,
    # the pause, would be a change the host asked for); as a stranger, anything.
    as_host = data.draw(st.booleans(), label="as the host")
    if as_host:
        ctype = b"application/x-www-form-urlencoded; charset=" + data.draw(
            st.sampled_from([b"nope", b"base64", b"utf-16"]))
        body = data.draw(st.sampled_from([b"\xff", b"a=\x00\xd8", b"\x00a\x00=\x00\x00\xdc"]))
    headers = [(b"host", data.draw(st.sampled_from([b"127.0.0.1", b"localhost", b"evil.example",
                                                   b"", b"\xff\xfe", b"[::1"]))),
               (b"content-type", ctype),
               (b"cookie", f"{host_cookie if as_host else ''}csrftoken={CSRF}".encode()),
               (b"x-csrftoken", CSRF.encode())]
    length = data.draw(st.sampled_from([len(body)] * 6 + [None, 0, 10**12, -1, "x"]),
                       label="content-length")
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    for name in data.draw(st.lists(st.sampled_from([
            b"origin", b"accept", b"x-forwarded-for", b"hx-request", b"if-none-match",
            b"referer", b"user-agent", b"accept-encoding"]), max_size=4, unique=True)):
        headers.append((name, data.draw(st.binary(max_size=40))))
    limits.TAPS.clear()
    before = state()
    with caplog.at_level(logging.ERROR):
        status, answer = async_to_sync(http)(headers, method, path, body, data.draw(
            st.sampled_from([b"", b"page=2", b"q=%FF%FE&page=\xff", b"seq=\x00&&=="]),
            label="query"))
    assert status < 500, (status, answer[:300])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR
                and not r.name.startswith("django.security")]  # a bad Host: Django says so
    assert state() == before


def form(night_path: str):
    return lambda night: night_path.format(night=night.pk)


#: The ten forms a body in UTF-16 took to a 500 (issue 36), and the host's restore.
FORMS = ["/t/{link}/roll/", "/t/{link}/undo/", "/t/{link}/finish/", "/p/{player}/roll/",
         "/j/{join}/", "/host/nights/{night}/pause/", "/host/nights/{night}/start/",
         "/host/nights/{night}/players/", "/host/nights/", "/host/restore/"]


def fill(path: str, night: Night) -> str:
    return path.format(night=night.pk, link=TableLink.objects.filter(night=night).first().token,
                       player=night.players.first().token, join=night.join_token)


def post(path: str, body: bytes, ctype: bytes, cookie: str = "") -> tuple[int, bytes]:
    headers = [(b"host", b"127.0.0.1"), (b"content-type", ctype),
               (b"cookie", f"{cookie}csrftoken={CSRF}".encode()),
               (b"x-csrftoken", CSRF.encode()), (b"content-length", str(len(body)).encode())]
    return async_to_sync(http)(headers, "POST", path, body)


@pytest.fixture
def host_cookie(client):
    client.get(f"/host/{host_secret()}/")
    return f"sessionid={client.cookies['sessionid'].value}; "


@pytest.mark.parametrize("path", FORMS)
@pytest.mark.parametrize("charset, status, says", [
    (b"nope", 400, "cannot read text sent as \u201cnope\u201d"),
    (b"base64", 400, "cannot read text sent as \u201cbase64\u201d"),
])
def test_a_form_in_a_charset_no_one_reads_is_refused_with_a_sentence(
        night, host_cookie, path, charset, status, says):
    before = state()
    answer_status, answer = post(fill(path, night), "name=Zo\u00eb".encode("utf-16"),
                                 b"application/x-www-form-urlencoded; charset=" + charset,
                                 host_cookie)
    assert answer_status == status
    text = answer.decode()
    assert says in (json.loads(text)["error"] if path.startswith(("/t/", "/p/")) else text)
    assert "nothing was changed" in text
    assert state() == before


@pytest.mark.parametrize("path", FORMS)
def test_a_form_in_utf16_is_read_as_the_form_it_is_never_a_server_error(
        night, host_cookie, path):
    status, answer = post(fill(path, night), "name=Zo\u00eb&round=x".encode("utf-16"),
                          b"application/x-www-form-urlencoded; charset=utf-16", host_cookie)
    assert status < 500, answer[:300]


def test_names_added_in_utf16_or_latin1_arrive_as_typed(db, host_cookie):
    night = services.night_create(name="Test night", rules_id="babz", entry_fee_cents=1000,
                                  player_names=["Ann", "Bob"])
    url = f"/host/nights/{night.pk}/players/"
    for charset, name in (("utf-16", "Zo\u00eb"), ("latin-1", "Ren\u00e9e")):
        body = f"players={name}".encode(charset)
        status, _ = post(url, body, b"application/x-www-form-urlencoded; charset="
                         + charset.encode(), host_cookie)
        assert status in (200, 302)
    # escapes are read in the form's own charset too: %E9 in latin-1 is an e with an accent
    post(url, b"players=Andr%E9", b"application/x-www-form-urlencoded; charset=latin-1",
         host_cookie)
    names = set(night.players.values_list("name", flat=True))
    assert {"Zo\u00eb", "Ren\u00e9e", "Andr\u00e9"} <= names


def test_a_utf16_body_that_is_not_utf16_is_refused(night, host_cookie):
    before = state()
    status, answer = post(f"/host/nights/{night.pk}/pause/", b"a=\x00\xd8",
                          b"application/x-www-form-urlencoded; charset=utf-16", host_cookie)
    assert status == 400 and "not the \u201cutf-16\u201d text it says" in answer.decode()
    assert state() == before


def test_a_form_past_the_size_limits_is_refused_413_and_one_with_too_many_fields_400(
        night, host_cookie):
    before = state()
    url = f"/host/nights/{night.pk}/players/"
    big = b"players=" + b"a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    status, answer = post(url, big, b"application/x-www-form-urlencoded", host_cookie)
    assert status == 413 and "at most 2.5 MB" in answer.decode()
    many = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    status, answer = post(url, many.encode(), b"application/x-www-form-urlencoded",
                          host_cookie)
    assert status == 400 and "more fields than any form" in answer.decode()
    assert state() == before


def test_a_body_bigger_than_any_file_is_refused_unread_or_cut_off(night):
    """Said by its length: 413 before a byte is read; sent without one: 413 the moment what
    came in passes the limit, while the client is still sending, the rest never read."""
    before = state()
    status, answer = async_to_sync(http)(
        [(b"host", b"127.0.0.1"), (b"content-length", str(inputs.MAX_BODY + 1).encode())],
        "POST", "/host/restore/", b"")
    assert status == 413 and "at most 21 MB" in answer.decode()

    async def unsized():
        scope = {"type": "http", "method": "POST", "path": "/host/restore/",
                 "raw_path": b"/host/restore/", "query_string": b"", "http_version": "1.1",
                 "headers": [(b"host", b"127.0.0.1")], "scheme": "http",
                 "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000)}
        talk = ApplicationCommunicator(application, scope)
        chunk = b"a" * (1024 * 1024)
        for _ in range(inputs.MAX_BODY // len(chunk) + 1):  # just past the limit, never ended
            await talk.send_input({"type": "http.request", "body": chunk, "more_body": True})
        start = await talk.receive_output(20)
        await talk.wait(20)
        return start["status"]

    assert async_to_sync(unsized)() == 413
    assert state() == before


WS_ROUTES = [str(p.pattern) for p in websocket_urlpatterns]


async def answered_or_closed(ws) -> bool:
    """Whatever the screen's last frame brought, read up to the pong of a ping said after it
    (True), or up to the socket's close (False)."""
    await ws.send_json_to({"type": "ping"})
    while (said := await ws.receive_output(PATIENCE))["type"] != "websocket.close":
        if said.get("text") == PONG:
            return True
    return False
frames = st.one_of(
    st.text(max_size=200).map(lambda t: {"text": t}),
    st.binary(max_size=200).map(lambda b: {"bytes": b}),
    st.sampled_from([
        {"text": "\ud800\udfff{"}, {"text": '{"type": "tap", "fields": "\ud800"}'},
        {"text": "x" * (limits.WS_MAX_BYTES + 1)},
        {"text": '{"type": "sync", "shows": ' + "[" * 10_000 + "]" * 10_000 + "}"},
        {"bytes": b"\xff" * (limits.WS_MAX_BYTES * 40)},
        {"bytes": json.dumps({"type": "tap", "action": "roll"}).encode()},
        {"text": json.dumps({"type": "tap", "action": "roll", "fields": {"round": "\x00"}})},
    ]),
)


@FUZZ
@given(data=st.data())
def test_any_frames_at_any_websocket_never_crash_it_and_change_nothing(night, data, caplog):
    known = values(night)
    route = data.draw(st.sampled_from(WS_ROUTES), label="route")
    path = "/" + PLACEHOLDER.sub(lambda m: data.draw(st.sampled_from(
        known.get(m.group(2)) or [str(night.pk), "0"])), route)
    sent = data.draw(st.lists(frames, min_size=1, max_size=4), label="frames")
    limits.clear_penalties()
    before = state()

    async def talk():
        ws = Screen(application, path, headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost")])
        connected, _ = await ws.connect(timeout=10)
        for frame in sent if connected else ():
            await ws.send_input({"type": "websocket.receive", **frame})
            if not await answered_or_closed(ws):
                break
        await ws.disconnect()  # and the consumer ended without an exception

    with caplog.at_level(logging.ERROR):
        async_to_sync(talk)()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR
                and not r.name.startswith("django.security")]  # a bad Host: Django says so
    assert state() == before
