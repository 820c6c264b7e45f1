"""A night file from anyone's stick goes through the checks the forms apply to what made it:
every name, the money, the rules, every field. A damaged or hostile file is refused with a
sentence saying what is wrong, and nothing is made."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bunco.host.auth import host_secret
from bunco.laptop import backup
from bunco.models import Night, Person, Player, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import folds
from tests.playing import roll

LONG = "A" * 10_240
RLO = "\u202eeiznuB"  # shows as "Bunzie" backwards: the text around it reversed too


@pytest.fixture
def night_file(client, seated_night):
    """A night in its first round, downloaded; then a fresh install with the host signed in."""
    services.round_start(night=seated_night)
    roll(seated_night, 1, quick="hit1")
    data = backup.night_file(seated_night)
    Night.objects.all().delete()
    Person.objects.all().delete()
    folds.drop(seated_night.pk)
    client.get(f"/host/{host_secret()}/")
    return data


def opened(client, content: bytes) -> str:
    response = client.post("/host/restore/", {"file": SimpleUploadedFile("n.json", content)},
                           follow=True)
    assert response.status_code == 200
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


def nothing_made() -> bool:
    return not any(m.objects.exists() for m in (Night, Player, ScoreEvent, TableLink, Person))


def rename(data: dict, old: str, new: str) -> None:
    """A name changed everywhere the file has it, as a file made with that name would be."""
    text = json.dumps(data).replace(json.dumps(old), json.dumps(new))
    data.clear()
    data.update(json.loads(text))


def player_named(new):
    return lambda d: rename(d, d["players"][0]["name"], new)


def in_the_log_only(new):
    return lambda d: d["events"][1]["data"]["names"].__setitem__(0, new)


def night(key, value):
    return lambda d: d["night"].__setitem__(key, value)


def first_event(key, value):
    return lambda d: d["events"][-1].__setitem__(key, value)


HOSTILE = {
    "a 10,240-character name": (player_named(LONG), "is longer than 40 characters"),
    "a right-to-left override": (player_named(RLO), "has characters a name cannot have"),
    "a control character": (player_named("Ann\x07"), "has characters a name cannot have"),
    "a zero-width space": (player_named("An\u200bn"), "has characters a name cannot have"),
    "an empty name": (player_named(""), "a name in entry 2 of the log is empty"),
    "a ghost's name": (player_named("Ghost 3"), "what the app calls an empty chair"),
    "a name not text": (lambda d: d["players"][0].__setitem__("name", 7), "no valid 'name'"),
    "two names alike": (lambda d: rename(d, d["players"][1]["name"],
                                         d["players"][0]["name"].upper()), "looks just like"),
    "a long name in the log only": (in_the_log_only(LONG), "a name in entry 2 of the log"),
    "an override in the log only": (in_the_log_only(RLO), "has characters a name cannot"),
    "an override in a seat": (lambda d: d["events"][2]["data"]["tables"][0]["seats"][0]
                              .__setitem__("name", RLO), "a name in entry 3 of the log"),
    "an override as who rolled": (first_event("player", RLO), "the player in entry 5"),
    "a negative entry fee": (night("entry_fee_cents", -500), "the entry fee must be"),
    "an absurd entry fee": (night("entry_fee_cents", 10**30), "the entry fee must be"),
    "an entry fee as text": (night("entry_fee_cents", "10"), "the entry fee must be"),
    "an entry fee of infinity": (night("entry_fee_cents", float("inf")), "the entry fee"),
    "a negative fee in the log": (lambda d: d["events"][0]["data"].__setitem__(
        "entry_fee_cents", -1), "the entry fee must be"),
    "a negative pot": (night("pot_cents", -1), "the pot must be"),
    "an unknown rule": (lambda d: d["night"]["rules"].__setitem__("free_money", True),
                        "free_money: is not a house-rules setting"),
    "a rule of the wrong type": (lambda d: d["night"]["rules"].__setitem__("sets", "many"),
                                 "sets"),
    "rules that are a list": (night("rules", []), "the night has no valid 'rules'"),
    "an unknown preset": (night("rules_id", "x" * 500), "one of the app's house rules"),
    "a 10,000-character night name": (night("name", "N" * 10_000), "the night's name"),
    "an override in a roll-off": (night("roll_offs", {"most_buncos": RLO}),
                                  "a roll-off's winner"),
    "an absurd table number": (first_event("table", 2**70), "entry 5 of the log is damaged"),
    "a broken entry id": (first_event("key", "not-an-id"), "entry 5 of the log is damaged"),
    "an entry that is a list": (lambda d: d["events"].__setitem__(0, []), "entry 1 of the log"),
    "an absurd position": (lambda d: d["players"][0].__setitem__("position", 2**70),
                           "position is damaged"),
    "players that are a dict": (lambda d: d.__setitem__("players", {}), "no valid 'players'"),
    "a player that is a number": (lambda d: d["players"].__setitem__(0, 5), "no valid 'name'"),
    "an address of 10,000 characters": (lambda d: d.__setitem__("address", "a" * 10_000),
                                        "the file's address is damaged"),
    "an override in an agreed split": (lambda d: d["events"][-1]["data"].__setitem__(
        "shares", {RLO: 100}), "a name in entry 5 of the log"),
    "an agreed split of 1,000%": (lambda d: d["events"][-1]["data"].__setitem__(
        "shares", {"Ava": 1000}), "entry 5 of the log is damaged (its shares)"),
    "a night's date that is no date": (night("created_at", "yesterday-ish"),
                                       "the night's date is not a date"),
    "a night's date of month 13": (night("created_at", "2026-13-01T20:00:00+00:00"),
                                   "the night's date is not a date"),
    "an arrival that is no date": (lambda d: d["players"][0].__setitem__("arrived_at", "soon"),
                                   "time of arrival is not a date"),
    "an entry's time that is no date": (first_event("created_at", "2026-02-30T25:61:00"),
                                        "entry 5 of the log is damaged (its time)"),
}


@pytest.mark.parametrize("damage", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_night_file_is_refused_by_what_is_wrong_and_nothing_is_made(
        client, night_file, damage):
    change, message = HOSTILE[damage]
    data = copy.deepcopy(night_file)
    change(data)
    page = opened(client, json.dumps(data).encode())
    assert "That night could not be opened" in page
    assert message in page, page[page.find("could not be opened"):][:300]
    assert LONG not in page and "\u202e" not in page  # the refusal quotes it safely
    assert nothing_made()


@pytest.mark.parametrize("content, message", [
    (lambda text: text[: len(text) // 2], "that is not a night file"),
    (lambda text: "[]", "this is not a night downloaded from Bunco"),
    (lambda text: '"bunco-night"', "this is not a night downloaded from Bunco"),
    (lambda text: "12", "this is not a night downloaded from Bunco"),
    (lambda text: "null", "this is not a night downloaded from Bunco"),
    (lambda text: "[" * 100_000, "that is not a night file"),
], ids=["truncated", "a list", "a string", "a number", "null", "nested too deep"])
def test_a_file_that_is_not_a_whole_night_is_refused(client, night_file, content, message):
    page = opened(client, content(json.dumps(night_file)).encode())
    assert message in page, page[page.find("could not be opened"):][:300]
    assert nothing_made()


def test_a_night_file_starting_with_a_byte_order_mark_opens(client, night_file):
    """Notepad on Windows saves UTF-8 with a BOM: the file is the same night."""
    page = opened(client, b"\xef\xbb\xbf" + json.dumps(night_file).encode())
    assert "is back, exactly as it was" in page
    assert Night.objects.count() == 1


def test_the_same_file_undamaged_opens(client, night_file):
    page = opened(client, json.dumps(night_file).encode())
    assert "is back, exactly as it was" in page
    assert Night.objects.count() == 1


def test_a_night_name_with_an_override_is_made_safe_by_the_form_too(client, db):
    client.get(f"/host/{host_secret()}/")
    client.post("/host/nights/", {"name": f"March {RLO}", "rules_id": "babz",
                                  "entry_fee": "5", "players": "Ann\nBob"})
    (made,) = Night.objects.all()
    assert made.name == "March eiznuB"
