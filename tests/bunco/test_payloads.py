"""Each kind's data as a typed value: written back, it is the very JSON the log stores (keys in
the same order), so the log, night files and older databases read as before; older shapes
still read."""

import json
from dataclasses import fields

import pytest

from bunco.night import payloads as p
from bunco.night.events import Kind, payload
from scoring import PRESETS, Seat, TableSpec

TABLES = [{"number": 1, "individuals": False,
           "seats": [{"name": "Ann", "ghost": False}, {"name": "Ghost 1", "ghost": True},
                     {"name": "Bo", "ghost": False}, {"name": "Cy", "ghost": False}]}]
RULES = PRESETS["babz"].to_dict()
AWARDS = [{"category": "most_buncos", "share_percent": "100", "prize": ""}]

#: Every shape the commands write today.
WRITTEN = [
    (p.Created, {"name": "N", "rules_id": "babz", "rules": RULES, "entry_fee_cents": 500}),
    (p.RulesChanged, {"rules": RULES}),
    (p.RulesChanged, {"rules": RULES, "entry_fee_cents": 0, "name": "M", "rules_id": "babz"}),
    (p.Prizes, {"awards": AWARDS, "award_ties": "split", "one_prize_per_person": True,
                "pot_cents": None}),
    (p.Prizes, {"awards": [], "award_ties": "roll_off", "one_prize_per_person": False,
                "pot_cents": 12_000}),
    (p.Added, {"names": ["Ann", "Bo"]}),
    (p.Added, {"names": ["Ann"], "expected": True}),
    (p.Removed, {"name": "Ann"}),
    (p.Seated, {"tables": TABLES}),
    (p.RoundStarted, {}),
    (p.RoundStarted, {"play_ends": 180_000}),
    (p.RoundStarted, {"play_ends": 180_000, "next_at": 300_000}),
    (p.RoundStarted, {"practice": True, "play_ends": 180_000, "next_at": 300_000}),
    (p.Roll, {"dice": [1, 2, 3]}),
    (p.Roll, {"dice": [1, 1, 2], "quick": "hit2", "tapped_at": 1_800_000_000.5}),
    (p.Roll, {"dice": [4, 5, 6], "tapped_at": 1_800_000_000}),
    (p.Bell, {}),
    (p.Bell, {"horn": True}),
    (p.Void, {"seqs": [4, 7]}),
    (p.Arrived, {"name": "Di", "ghost": "Ghost 1"}),
    (p.Left, {"name": "Di", "ghost": "Ghost 2"}),
    (p.Renamed, {"old": "Fay", "new": "Faye"}),
    (p.Paused, {"at": 60_000}),
    (p.Resumed, {"at": 90_000}),
    (p.RollOff, {"category": "most_buncos", "winner": "Ann"}),
    (p.RollOff, {"category": "most_buncos", "split": True}),
    (p.RollOff, {"category": "most_buncos", "split": True, "shares": {"Ann": 60, "Bo": 40}}),
    (p.Revealed, {"count": 2}),
    (p.Claimed, {"name": "Ann", "device": "ab12"}),
    (p.Released, {"name": "Ann"}),
    (p.Released, {"name": "Ann", "moved": "192.168.1.5 to 192.168.1.57"}),
    (p.Break, {"minutes": 10, "ends_at": 1_600_000}),
    (p.Break, {"minutes": 0}),
    (p.CheckedIn, {"name": "Ann", "at": "2026-03-01T19:00:00+00:00"}),
    (p.CheckedIn, {"name": "Ann", "at": "2026-03-01T19:00:00+00:00", "new": True, "table": 3}),
    (p.CheckedIn, {"name": "Ann", "at": "2026-03-01T19:00:00+00:00", "ghost": "Ghost 1"}),
    (p.Desk, {"closes_at": "2026-03-01T20:00:00+00:00"}),
    (p.Desk, {"closes_at": None}),
    (p.Finish, {}),
    (p.NightEnded, {}),
    (p.NightEnded, {"tv_reveals": True}),
]


@pytest.mark.parametrize(("cls", "data"), WRITTEN)
def test_what_is_written_reads_back_and_writes_the_same_json(cls, data):
    payload = cls.from_data(json.loads(json.dumps(data)))
    assert type(payload) is cls
    assert json.dumps(payload.to_data()) == json.dumps(data)  # the same keys, in order
    assert cls.from_data(payload.to_data()) == payload


def test_older_shapes_still_read():
    assert p.Void.from_data({"seq": 3}).seqs == (3,)  # a void of one entry
    old = p.Roll.from_data({})  # a roll that did not record its dice
    assert (old.dice, old.quick, old.tapped_at) == ((), "", None)
    assert p.Roll.from_data({"dice": [1, 2, 3], "quick": None}).quick == ""
    assert p.Roll.from_data({"dice": [1, 2, 3], "tapped_at": "soon"}).tapped_at is None
    assert p.Break.from_data({"minutes": 0, "ends_at": 5}) == p.Break(0, None)
    assert p.Break.from_data({"minutes": 5, "ends_at": 300_000.0}).ends_at == 300_000
    assert p.Prizes.from_data({"awards": [], "award_ties": "split",
                               "one_prize_per_person": True}).pot_cents is None
    assert p.Created.from_data({"name": "N"}) == p.Created(name="N")
    assert p.Desk.from_data({}).closes_at is None
    assert p.CheckedIn.from_data({"name": "Ann", "ghost": ""}).ghost is None
    assert p.CheckedIn.from_data({"name": "Ann", "table": "2"}).table == 2
    assert p.Paused.from_data({}).at is None
    assert p.Claimed.from_data({}).name == ""
    with pytest.raises(KeyError):  # a roll-off with neither a winner nor a split is damaged
        p.RollOff.from_data({"category": "most_buncos"})


def test_a_seating_reads_as_table_specs():
    seated = p.Seated.from_data({"tables": TABLES})
    assert seated.tables == (TableSpec(1, (Seat("Ann"), Seat("Ghost 1", ghost=True), Seat("Bo"),
                                           Seat("Cy"))),)


def test_every_kind_but_a_finish_carries_typed_data():
    assert {k for k in Kind if not fields(k.cls)} == {Kind.FINISH}
    assert payload(Kind.FINISH, {}) == p.Finish() and payload(Kind.FINISH, None).to_data() == {}
    assert p.NO_DATA.to_data() == {}  # what a command gives a finish
    assert payload("teleport", {"to": "Mars"}) is p.NO_DATA  # the fold refuses a kind unknown
    for cls, data in WRITTEN:
        assert payload(cls.kind, data) == cls.from_data(data)
