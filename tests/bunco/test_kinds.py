"""Every kind of event is complete: its class (``bunco/night/payloads/``) is a ``Kind`` under
the name the log stores, has a handler in the fold, says which Night columns it mirrors (or
none), sets only flags there are, and has data shown to read back as written
(``test_payloads.WRITTEN``). A kind made up here and left incomplete is caught, part by part."""

from dataclasses import dataclass, fields

import pytest

from bunco.models import Night
from bunco.night import payloads as p
from bunco.night.events import Event, Kind, handlers, handles
from bunco.night.fold import HANDLERS, LiveNight
from scoring import PRESETS, IllegalMove
from tests.bunco.test_payloads import WRITTEN

#: The names older logs and night files hold, in the order the log's choices list them.
STORED = ["created", "rules", "prizes", "added", "removed", "seated", "round_started", "roll",
          "finish", "bell", "void", "arrived", "left", "renamed", "paused", "resumed",
          "night_ended", "roll_off", "revealed", "claimed", "released", "break", "checked_in",
          "desk"]


def lacks(cls: type[p.Payload]) -> list[str]:
    """What the kind ``cls`` lacks (nothing: it is complete)."""
    kind, found = cls.kind, []
    if p.KINDS.get(kind) is not cls or Kind.__members__.get(kind.upper()) != kind:
        found.append("not a Kind")
    if getattr(HANDLERS.get(kind), "handles", None) is not cls:
        found.append("no handler in the fold")
    if cls.mirrors is None:
        found.append("no mirrors (say () for none)")
    elif set(cls.mirrors) - set(p.COLUMNS):
        found.append(f"mirrors no column {sorted(set(cls.mirrors) - set(p.COLUMNS))}")
    own = {name for name in vars(cls) if not name.startswith("_")} - {f.name for f in fields(cls)}
    if unknown := sorted(own - {*p.FLAGS, "kind", "mirrors"}):
        found.append(f"no flag {unknown}")
    if cls.quiet and (cls.at_table or cls.seats_kept):
        found.append("quiet, yet shown")
    if not any(c is cls for c, _ in WRITTEN):
        found.append("no data shown to read back")
    return found


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_is_complete(kind):
    assert lacks(kind.cls) == []
    assert kind.cls.kind == kind and kind.cls is p.KINDS[kind]


def test_the_stored_names_are_those_older_logs_hold():
    assert [k.value for k in Kind][:len(STORED)] == STORED  # a new kind goes at the end
    assert all(k.name == k.value.upper() for k in Kind)


def test_each_projection_is_night_columns_a_write_can_hold():
    rules = PRESETS["babz"]
    state = LiveNight(rules, name="Friday", rules_id="babz", entry_fee_cents=500)
    state.check_in_closes = "2026-03-01T20:00:00+00:00"
    for kind in Kind:
        columns = kind.cls.projection(state)
        assert set(columns) == set(kind.cls.mirrors)
        for column, value in columns.items():
            Night._meta.get_field(column)  # raises for a column the night has not
            if column == "status":
                assert value in Night.Status.values
    assert p.Desk.projection(state)["check_in_closes_at"].hour == 20
    assert p.RulesChanged.projection(state)["rules_json"] == rules.to_dict()


@pytest.fixture
def kinds():
    """The kinds as they are, whatever a test makes up."""
    known = dict(p.KINDS)
    yield p.KINDS
    p.KINDS.clear()
    p.KINDS.update(known)


def test_a_kind_made_up_and_left_incomplete_is_caught(kinds):
    @dataclass(frozen=True, slots=True)
    class Teleport(p.Payload):
        kind = "teleport"
        corectable = True  # misspelt

        to: str

    assert kinds["teleport"] is Teleport
    assert lacks(Teleport) == [
        "not a Kind", "no handler in the fold", "no mirrors (say () for none)",
        "no flag ['corectable']", "no data shown to read back"]
    with pytest.raises(IllegalMove, match="unknown event"):  # the fold refuses it
        LiveNight(PRESETS["babz"]).apply(Event(1, "teleport", data=Teleport("Mars")))


def test_a_stored_name_is_one_kinds_and_a_kind_has_one_handler(kinds):
    with pytest.raises(TypeError, match="Reroll and Roll are both 'roll'"):
        @dataclass(frozen=True, slots=True)
        class Reroll(p.Payload):
            kind = "roll"

    assert kinds["roll"] is p.Roll

    class Twice:
        @handles(p.Roll)
        def first(self, event): ...

        @handles(p.Roll)
        def again(self, event): ...

    with pytest.raises(TypeError, match="two handlers for 'roll'"):
        handlers(Twice)
