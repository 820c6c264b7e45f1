"""Junk in every field of every endpoint: never a server error, and junk that cannot be valid
changes nothing. Hypothesis draws the junk; BUNCO_FUZZ_EXAMPLES runs more of it (see
docs/reliability.md)."""

import os
import uuid
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco import limits
from bunco.host.auth import host_secret
from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from tests.playing import roll

EXAMPLES = int(os.environ.get("BUNCO_FUZZ_EXAMPLES", "60"))

#: Values that are never valid for a number, a die, an id, a choice or money.
NEVER_VALID = [
    "²,1,1", "٣", "Ⅻ", "9" * 5000, "99999999999999999999", "-99999999999999999999",
    "NaN", "nan", "inf", "-inf", "1e400", "0x10", "\x00", "💥", "1.5.5", "[]", "{}",
    "null", "../../etc", "<script>", "\u202e1", "die²", "die0", "die7", "quick",
    "bunco bunco", "1,1", "1,1,1,1", "7,7,7", "0,0,0", "-1,-1,-1",
]
#: Values that are valid somewhere, so the fuzz reaches past the first check.
SOMETIMES_VALID = [
    "", " ", "0", "1", "2", "3", "6", "-1", "1000000", "bunco", "hit1", "miss", "die3",
    "1,1,1", "6,6,6", "bell", "close", "split", "roll_off", "on", "Ann", "=SUM(1,2)",
    "00000000-0000-0000-0000-000000000000", "10", "$7.50", "babz", "ladder",
]
#: Digits of several scripts (ASCII, Arabic-Indic, Devanagari, fullwidth): Python turns any
#: of them into an int, but none past 4,300 of them.
DIGITS = ["9", "1", "\u0663", "\u0967", "\uff19"]
huge_numbers = st.builds(lambda digit, n: digit * n, st.sampled_from(DIGITS),
                         st.integers(4301, 6000))
junk = st.one_of(st.sampled_from(NEVER_VALID), st.sampled_from(SOMETIMES_VALID),
                 st.text(max_size=30), st.integers(-10**30, 10**30).map(str), huge_numbers)

TAP_FIELDS = ["key", "set", "round", "table", "pos", "quick", "dice"]
NUMBER_FIELDS = ["set", "round", "table", "pos", "tapped"]
#: The charsets a form may say it is in (``bunco/inputs.py`` reads each).
CHARSETS = ["utf-8", "utf-16", "utf-32", "latin-1", "cp1252", "shift_jis"]
HOST_POSTS = {
    "": ["name", "rules_id", "entry_fee", "players"],  # /host/nights/ (a new night)
    "rules/": ["night_name", "entry_fee", "team_target", "rotation", "wipeout", "sets"],
    "rules/preset/": ["rules_id"],
    "players/": ["players"],
    "arrive/": ["name"],
    "swap/": ["first", "second"],
    "start/": ["key", "set", "round"],
    "bell/": ["key", "set", "round"],
    "takeback/": ["what", "key"],
    "void/": ["what", "key"],
    "awards/": ["rows", "award_ties", "pot", "category_0", "share_0", "order_0", "prize_0"],
    "roll-off/": ["category", "winner"],
}
HOST_GETS = ["", "sheet/", "sheet.csv", "log/", "rules/", "awards/", "desk/"]


@pytest.fixture
def live(client, seated_night):
    """A night in play (two rolls at table 1), and a host browser."""
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    roll(seated_night, 1, quick="miss")
    client.get(f"/host/{host_secret()}/")
    return seated_night, client


def log_of(night):
    return list(ScoreEvent.objects.filter(night=night).values_list("seq", flat=True))


def fields_for(names, data):
    return {name: data.draw(junk, label=name) for name in data.draw(
        st.lists(st.sampled_from(names), unique=True, max_size=len(names)), label="fields")}


FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                derandomize=not os.environ.get("BUNCO_EXPLORE"),
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
def test_a_phone_tap_with_junk_is_answered_and_changes_nothing(live, data):
    night, client = live
    limits.TAPS.clear()  # every example reaches the checks, not the fair-use limit
    link = TableLink.objects.get(night=night, number=1)
    player = night.players.first()
    base = data.draw(st.sampled_from([f"/t/{link.token}/", f"/p/{player.token}/"]))
    action = data.draw(st.sampled_from(["roll", "undo", "finish", "roll", "x", "..", "%00"]))
    fields = fields_for(TAP_FIELDS, data)
    fields["round"] = data.draw(st.sampled_from(NEVER_VALID), label="round")  # never valid
    before = log_of(night)
    response = client.post(f"{base}{action}/", fields)
    assert response.status_code < 500
    assert 400 <= response.status_code != 429
    assert response.json()["error"]
    assert log_of(night) == before


@FUZZ
@given(data=st.data())
def test_a_host_form_with_junk_never_fails_the_server(live, data):
    night, client = live
    where = data.draw(st.sampled_from(sorted(HOST_POSTS)))
    url = "/host/nights/" if where == "" else f"/host/nights/{night.pk}/{where}"
    response = client.post(url, fields_for(HOST_POSTS[where], data))
    assert response.status_code < 500


@FUZZ
@given(data=st.data())
def test_host_pages_and_links_with_junk_never_fail_the_server(live, data):
    night, client = live
    where = data.draw(st.sampled_from(HOST_GETS))
    query = fields_for(["page", "seq", "what", "round", "set", "url", "guest"], data)
    assert client.get(f"/host/nights/{night.pk}/{where}", query).status_code < 500
    token = data.draw(junk.filter(lambda s: "/" not in s and "\x00" not in s))
    for prefix in ("/j/", "/p/", "/t/", "/tv/", "/host/"):
        assert client.get(f"{prefix}{token}/").status_code < 500
    assert client.get("/qr.svg", {"url": data.draw(junk)}).status_code < 500
    assert client.post("/host/season/merge/", fields_for(["keep", "other"], data)).status_code \
        < 500


@pytest.mark.parametrize("fields, message", [
    ({"key": "not-a-uuid"}, "broken id"),
    ({"dice": "²,1,1"}, "each die shows 1-6"),
    ({"dice": "9" * 5000}, "at most"),
    ({"quick": "die²"}, "unknown quick button"),
])
def test_the_junk_a_fuzzer_found_is_explained(live, fields, message):
    night, client = live
    link = TableLink.objects.get(night=night, number=1)
    before = log_of(night)
    response = client.post(f"/t/{link.token}/roll/",
                           {"set": 1, "round": 1, "table": 1, "pos": 2, **fields})
    assert response.status_code == 409
    assert message in response.json()["error"]
    assert log_of(night) == before


def good_tap() -> dict:
    return {"key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1", "pos": "2",
            "quick": "miss"}


@pytest.mark.parametrize("digit", ["9", "\u0663"])
@pytest.mark.parametrize("name", NUMBER_FIELDS)
def test_a_tap_naming_a_number_of_4301_digits_is_refused_with_a_sentence(live, name, digit):
    night, client = live
    link = TableLink.objects.get(night=night, number=1)
    before = log_of(night)
    response = client.post(f"/t/{link.token}/roll/", {**good_tap(), name: digit * 4301})
    assert response.status_code == 409
    body = response.json()
    assert body["refused"] is True and f"that tap's {name} is not a number" in body["error"]
    assert log_of(night) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", NUMBER_FIELDS)
def test_a_tap_over_the_socket_naming_a_huge_number_is_refused_not_kept(seated_night, name):
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from bunco.asgi import application

    services.round_start(night=seated_night)
    link = TableLink.objects.get(night=seated_night, number=1)
    before = log_of(seated_night)

    async def exchange():
        ws = WebsocketCommunicator(application, f"/ws/table/{link.token}/", headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost")])
        assert (await ws.connect())[0]
        await ws.receive_from()  # the snapshot
        await ws.send_json_to({"type": "tap", "action": "roll",
                               "fields": {**good_tap(), name: "9" * 4301}})
        answer = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return answer

    ack = async_to_sync(exchange)()
    assert ack["type"] == "ack" and ack["status"] == 409 and ack["refused"] is True
    assert f"that tap's {name} is not a number" in ack["error"]
    assert log_of(seated_night) == before


@FUZZ
@given(data=st.data())
def test_a_tap_with_a_huge_number_in_any_field_and_charset_is_refused(live, data):
    night, client = live
    limits.TAPS.clear()
    link = TableLink.objects.get(night=night, number=1)
    charset = data.draw(st.sampled_from(CHARSETS), label="charset")
    fields = good_tap()
    for name in data.draw(st.lists(st.sampled_from(TAP_FIELDS + ["tapped"]), min_size=1,
                                   unique=True), label="huge"):
        number = data.draw(huge_numbers, label=name)
        try:
            number.encode(charset)
        except UnicodeEncodeError:
            number = "9" * len(number)
        fields[name] = number
    body = urlencode(fields, encoding=charset)  # the client sends it in ``charset``
    before = log_of(night)
    response = client.post(f"/t/{link.token}/roll/", body,
                           content_type=f"application/x-www-form-urlencoded; charset={charset}")
    assert 400 <= response.status_code < 500 and response.status_code != 429
    assert response.json()["error"]
    assert log_of(night) == before


def test_a_night_that_cannot_exist_is_a_404_not_an_error(live):
    _, client = live
    assert client.get("/host/nights/99999999999999999999/").status_code == 404
    assert Night.objects.count() == 1


def test_a_link_that_taps_too_fast_is_told_to_slow_down_and_nothing_is_recorded(live):
    night, client = live
    link = TableLink.objects.get(night=night, number=2)
    answers = [client.post(f"/t/{link.token}/roll/", {"round": "x"}) for _ in range(40)]
    statuses = [a.status_code for a in answers]
    assert 409 in statuses and 429 in statuses  # the first ones are answered on their merits
    slow = answers[statuses.index(429)].json()
    assert slow["retry"] is True and "Slow down" in slow["error"]
    before = log_of(night)
    other = TableLink.objects.get(night=night, number=3)  # another table is not slowed
    assert client.post(f"/t/{other.token}/roll/", {
        "set": 1, "round": 1, "table": 3, "pos": 0, "quick": "hit1"}).json()["ok"]
    assert len(log_of(night)) == len(before) + 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=20)
    | st.sampled_from(NEVER_VALID),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20)
ws_messages = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(["tap", "sync", "ping", "x"])},
                          optional={"action": json_values, "fields": json_values,
                                    "shows": json_values, "seq": json_values}),
    st.fixed_dictionaries({"type": st.just("tap"), "action": st.sampled_from(["roll", "undo"]),
                           "fields": st.fixed_dictionaries(
                               {"round": st.sampled_from(NEVER_VALID)},
                               optional={k: junk for k in TAP_FIELDS if k != "round"})}),
)


@pytest.mark.django_db(transaction=True)
@FUZZ
@given(message=ws_messages)
def test_a_websocket_message_with_junk_is_answered_and_changes_nothing(message):
    import json

    from asgiref.sync import async_to_sync

    from bunco.asgi import application
    from tests.screens import Screen

    night = Night.objects.first() or services.demo_night_create()
    if not night.events.filter(kind="round_started").exists():
        services.round_start(night=night)
    link = TableLink.objects.get(night=night, number=1)
    limits.TAPS.clear()
    before = log_of(night)

    async def exchange():
        ws = Screen(application, f"/ws/table/{link.token}/", headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost")])
        assert (await ws.connect())[0]
        await ws.receive_from()  # the snapshot
        await ws.send_to(text_data=json.dumps(message))
        # Whatever it said in answer (or nothing: a sync of a screen that is current), up to a
        # ping's pong: a close there fails receive_from. Then still open and served.
        said = await ws.said_so_far()
        await ws.send_json_to({"type": "sync", "shows": {}})
        assert await ws.told_nothing()
        await ws.disconnect()
        return said

    said = async_to_sync(exchange)()
    assert all(isinstance(text, str) for text in said)  # answers, never a close
    assert log_of(night) == before
