"""The host's pages, the phones' endpoints, the TV and QR codes, as a browser sees them."""

import html
import json
import random
import re
import uuid

import pytest

from bunco.host.auth import host_secret
from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


@pytest.mark.django_db
def test_host_pages_are_closed_without_the_secret(client):
    assert client.get("/host/").status_code == 403
    assert client.get("/host/wrong-secret/").status_code == 403
    assert client.post("/host/demo/").status_code == 403
    assert Night.objects.count() == 0


TAP_AT_START = {"set": 1, "round": 1, "table": 1, "pos": 0}  # what a phone shows first

# The bell button names the set (when there is more than one) and the round it starts.
BELL_BUTTON = r'Ring the bell: start <span data-fill="next-round"[^>]*>(set 1, )?round 1<'


def test_the_host_link_opens_the_dashboard(host_client):
    response = host_client.get("/host/", follow=True)
    assert "Start a night" in response.content.decode()
    assert host_client.get("/").url == "/host/"  # the host's home is the dashboard


def test_creating_a_night_with_players_and_a_fee(host_client):
    response = host_client.post("/host/nights/", {
        "name": "March", "rules_id": "babz", "entry_fee": "$12.50",
        "players": "Ann\nBo\n\nCy\nDi\n"}, follow=True)
    night = Night.objects.get()
    assert night.entry_fee_cents == 1250 and night.players.count() == 4
    assert "Seat everyone" in response.content.decode()


@pytest.mark.parametrize("fee, message", [("ten", "not an amount"), ("-3", "positive amount"),
                                          ("1.234", "to the cent"),
                                          ("1e26", "more than $1,000,000"),
                                          ("1e-30", "to the cent")])
def test_a_bad_entry_fee_is_explained_and_nothing_is_created(host_client, fee, message):
    response = host_client.post("/host/nights/", {"name": "X", "rules_id": "babz",
                                                  "entry_fee": fee}, follow=True)
    assert message in response.content.decode()
    assert Night.objects.count() == 0


def test_a_refused_night_comes_back_as_the_host_typed_it(host_client):
    response = host_client.post("/host/nights/", {
        "name": "March", "rules_id": "head-table", "entry_fee": "12.50",
        "players": "Ann\nBo\nann\nCy"})
    assert response.status_code == 200 and not Night.objects.exists()
    page = html.unescape(response.content.decode())
    assert "“ann” looks just like “Ann”" in page  # the refusal says why
    assert 'name="name" required maxlength="80" placeholder="March Bunco" value="March"' in page
    assert '<option value="head-table" selected>' in page
    assert 'value="12.50"' in page
    assert ">Ann\nBo\nann\nCy</textarea>" in page


def test_the_demo_night_is_one_click(host_client):
    response = host_client.post("/host/demo/", follow=True)
    html = response.content.decode()
    assert re.search(BELL_BUTTON, html)
    assert html.count("scorekeeping link") == 3


def test_the_rules_editor_explains_and_saves_every_dimension(host_client):
    night = services.night_create(name="R", rules_id="clockwise")
    page = host_client.get(f"/host/nights/{night.pk}/rules/").content.decode()
    for label in ("Points per die", "When the bell rings", "Ties at a table",
                  "Moving after a round", "Wipeout"):
        assert label in page
    form = {"night_name": "R", "entry_fee": "5", "team_target": "23", "wipeout": "on",
            "after_bell": "stop", "tie_break": "one_die", "sets": "2"}
    host_client.post(f"/host/nights/{night.pk}/rules/", form)
    night.refresh_from_db()
    rules = night.rules
    assert (rules.team_target, rules.wipeout, rules.after_bell.value, rules.sets) == (
        23, True, "stop", 2)
    assert night.entry_fee_cents == 500


def test_starting_from_a_preset_says_so(host_client):
    night = services.night_create(name="R", rules_id="clockwise")
    response = host_client.post(f"/host/nights/{night.pk}/rules/preset/",
                                {"rules_id": "babz"}, follow=True)
    night.refresh_from_db()
    assert night.rules_id == "babz"
    assert f"Tonight plays by {PRESETS['babz'].name} now." in html.unescape(
        response.content.decode())


def test_bad_rules_are_explained_and_change_nothing(host_client):
    night = services.night_create(name="R", rules_id="clockwise")
    response = host_client.post(f"/host/nights/{night.pk}/rules/",
                                {"night_name": "R", "entry_fee": "0", "team_target": "0"})
    assert "Points that win a round (teams)" in response.content.decode()
    assert "between 1 and 200" in response.content.decode()
    night.refresh_from_db()
    assert night.rules.team_target == 21


def test_rules_are_fixed_once_play_starts(host_client, seated_night):
    services.round_start(night=seated_night)
    response = host_client.post(f"/host/nights/{seated_night.pk}/rules/",
                                {"night_name": "R", "entry_fee": "0", "team_target": "30"},
                                follow=True)
    assert "fixed once the first round has started" in response.content.decode()


def test_the_host_rings_the_bell_and_takes_back_a_roll(host_client, seated_night):
    host_client.post(f"/host/nights/{seated_night.pk}/start/", {"set": 1, "round": 1})
    link = TableLink.objects.get(night=seated_night, number=2)
    host_client.post(f"/t/{link.token}/roll/", {"quick": "hit2", "key": str(uuid.uuid4()),
                                                 **TAP_AT_START, "table": 2})
    roll = ScoreEvent.objects.filter(kind="roll").get()
    page = host_client.get(f"/host/nights/{seated_night.pk}/").content.decode()
    assert f'data-takeback="{roll.seq}"' in page and "by <bdi>table 2</bdi>" in page
    preview = host_client.get(f"/host/nights/{seated_night.pk}/takeback/",
                              {"what": roll.seq}).content.decode()
    assert "Table 2" in preview and "2 → <b>0</b>" in preview
    host_client.post(f"/host/nights/{seated_night.pk}/void/", {"what": roll.seq})
    assert live_state(seated_night).room.tables[1].team_scores == [0, 0]


def test_a_table_phone_taps_and_gets_its_table_back(client, seated_night):
    services.round_start(night=seated_night)
    link = TableLink.objects.get(night=seated_night, number=1)
    page = client.get(f"/t/{link.token}/").content.decode()
    assert "I keep score at this table" in page and "BUNCO!" in page
    assert 'data-round="1" data-pos="0"' in page
    key = str(uuid.uuid4())
    for _ in range(2):  # the outbox resends the same tap
        answer = client.post(f"/t/{link.token}/roll/", {"dice": "1,1,5", "key": key,
                                                        **TAP_AT_START})
        assert answer.status_code == 200 and answer.json()["ok"]
    assert live_state(seated_night).room.tables[0].team_scores == [2, 0]
    assert 'data-testid="score">2<' in answer.json()["html"]
    assert answer.json()["message"] == "Already recorded"


def test_a_refused_tap_says_why(client, seated_night):
    link = TableLink.objects.get(night=seated_night, number=1)
    answer = client.post(f"/t/{link.token}/roll/", {"quick": "hit1", "key": str(uuid.uuid4()),
                                                    **TAP_AT_START})
    assert answer.status_code == 409
    assert "has not started yet: wait for the bell" in json.loads(answer.content)["error"]
    assert client.post("/t/not-a-table/roll/", {"quick": "hit1"}).status_code == 404


def test_find_my_seat_lists_the_players_and_their_phone_shows_the_seat(client, seated_night):
    page = client.get(f"/j/{seated_night.join_token}/").content.decode()
    ava = seated_night.players.get(name="Ava")
    assert f'<button name="player" value="{ava.pk}">' in page
    picked = client.post(f"/j/{seated_night.join_token}/", {"player": ava.pk})
    assert picked.url == f"/p/{ava.token}/"
    mine = client.get(picked.url).content.decode()
    table, _ = live_state(seated_night).seat_of("Ava")
    assert f"<strong>table {table}</strong>" in mine and "Partner:" in mine


def test_the_tv_is_read_only(client, seated_night):
    page = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert "Standings" in page and "<form" not in page
    assert client.get("/tv/wrong/").status_code == 404


def test_qr_codes_are_svg_for_links_into_the_app_only(client):
    svg = client.get("/qr.svg", {"u": "/j/abc/"})
    assert svg["Content-Type"] == "image/svg+xml"
    assert b'xmlns="http://www.w3.org/2000/svg"' in svg.content
    assert client.get("/qr.svg", {"u": "https://evil.example/"}).status_code == 400
    assert client.get("/qr.svg", {"u": "//evil.example/"}).status_code == 400


def test_the_host_pauses_and_resumes_and_phones_see_it(host_client, seated_night):
    host_client.post(f"/host/nights/{seated_night.pk}/start/")
    host_client.post(f"/host/nights/{seated_night.pk}/pause/")
    link = TableLink.objects.get(night=seated_night, number=1)
    page = host_client.get(f"/t/{link.token}/").content.decode()
    assert "Paused" in page and 'data-can-roll=""' in page  # the pad stays hidden
    host_client.post(f"/host/nights/{seated_night.pk}/pause/")
    assert 'data-can-roll="1"' in host_client.get(f"/t/{link.token}/").content.decode()


def test_the_host_fixes_a_name_and_a_late_arrival_takes_a_ghost_chair(host_client, db):
    night = services.night_create(name="X", rules_id="babz", player_names=[
        "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gil"])
    services.night_seat(night=night)
    ann = night.players.get(name="Ann")
    host_client.post(f"/host/nights/{night.pk}/players/{ann.pk}/rename/", {"name": "Anne"})
    host_client.post(f"/host/nights/{night.pk}/arrive/", {"name": "Hal"})
    state = live_state(night)
    assert state.seat_of("Anne") and state.seat_of("Hal")
    response = host_client.post(f"/host/nights/{night.pk}/arrive/", {"name": "Ivy"},
                                follow=True)
    assert "no ghost&#x27;s chair" in response.content.decode()


def test_a_player_who_went_home_sees_a_goodbye(host_client, client, db):
    night = services.demo_night_create()
    ava = night.players.get(name="Ava")
    host_client.post(f"/host/nights/{night.pk}/players/{ava.pk}/leave/")
    assert "You left the game" in client.get(f"/p/{ava.token}/").content.decode()


@pytest.mark.parametrize("path, fields, message", [
    ("rules/", {"team_target": "abc", "entry_fee": "5"}, "must be a whole number"),
    ("rules/", {"entry_fee": "NaN"}, "positive amount, to the cent"),
    ("rules/preset/", {"rules_id": "nope"}, "pick one of the listed house rules"),
    ("awards/", {"rows": "abc"}, "the prize list was not sent whole"),
    ("awards/", {"rows": "99999999999999999999"}, "at most 50 prizes"),
    ("awards/", {"rows": "0", "pot": "inf"}, "positive amount"),
    ("void/", {"what": "x"}, "pick an entry to take back"),
    ("arrive/", {"name": ""}, "type a name"),
])
def test_junk_in_a_host_form_is_explained_and_changes_nothing(host_client, seated_night, path,
                                                               fields, message):
    before = list(ScoreEvent.objects.filter(night=seated_night).values_list("seq", flat=True))
    response = host_client.post(f"/host/nights/{seated_night.pk}/{path}", fields, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode().replace("&#x27;", "'")
    after = list(ScoreEvent.objects.filter(night=seated_night).values_list("seq", flat=True))
    assert after == before


def test_a_new_night_with_a_bad_fee_is_explained_and_not_made(host_client):
    response = host_client.post("/host/nights/", {"name": "X", "rules_id": "babz",
                                                  "entry_fee": "ten"}, follow=True)
    assert "is not an amount of money" in response.content.decode().replace("&#x27;", "'")
    assert not Night.objects.exists()


def _card(page: str) -> str:
    """The "How we play tonight" card of a page, as plain text (quotes unescaped)."""
    found = re.search(r'<details class="card how-we-play">(.*?)</details>', page, re.S)
    assert found, "the page has no How we play tonight card"
    return html.unescape(found.group(1))


def test_phones_and_table_devices_show_how_we_play_tonight(client, seated_night):
    link = TableLink.objects.get(night=seated_night, number=1)
    ava = seated_night.players.get(name="Ava")
    mine = client.get(client.post(f"/j/{seated_night.join_token}/", {"player": ava.pk}).url)
    for page in (mine.content.decode(), client.get(f"/t/{link.token}/").content.decode()):
        card = _card(page)
        assert "<summary>How we play tonight</summary>" in card
        assert "Babz (ghosts and the doormat)" in card
        assert ("A baby bunco (three of a kind of another number) scores 5 and ends "
                    "your turn.") in card
        assert "one player's own points reach 21 or someone rolls a bunco" in card
        assert "<dt>Ghosts</dt>" in card


def test_a_custom_rule_change_shows_in_the_card(client, db):
    night = services.night_create(name="Custom", rules_id="head-table", entry_fee_cents=0,
                                  rules=PRESETS["head-table"].replace(team_target=23),
                                  player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(1))
    link = TableLink.objects.get(night=night, number=1)
    card = _card(client.get(f"/t/{link.token}/").content.decode())
    assert "at the head table, a team's points together reach 23" in card
    assert "reach 21" not in card
    ava = night.players.get(name="Ava")
    mine = client.get(client.post(f"/j/{night.join_token}/", {"player": ava.pk}).url)
    assert "reach 23" in _card(mine.content.decode())


def test_swap_two_seats_preselects_nobody_and_a_blank_pick_is_explained(host_client, seated_night):
    night = seated_night
    page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    selects = re.findall(r'<select name="(first|second)"[^>]*>(.*?)</select>', page, re.S)
    assert [name for name, _ in selects] == ["first", "second"]
    for _, options in selects:
        # A browser shows the first option: a prompt, not a player (the same one twice).
        first = re.search(r"<option([^>]*)>([^<]*)</option>", options)
        assert first.group(1) == ' value=""' and first.group(2).endswith("player…")
        assert "selected" not in options
    before = live_state(night).tables
    refused = host_client.post(f"/host/nights/{night.pk}/swap/", {"first": "", "second": ""},
                               follow=True).content.decode()
    assert "pick the two seated people to swap" in html.unescape(refused)
    assert live_state(night).tables == before
