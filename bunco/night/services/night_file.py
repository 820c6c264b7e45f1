"""A night file checked as the forms check what made it: every name as typing it would be
(composed, no direction overrides, control or invisible characters, at most 40 characters,
no ghost's name, none that looks like another), money as the host types it (none below zero,
at most $1,000,000), the rules as the rules form saves them (``HouseRules.from_dict``), and
every other field of the right type and size for its column. A file from anyone's stick is
refused with a sentence saying what is wrong (``FileError``), before anything is written.
"""

from __future__ import annotations

import uuid

from django.utils.dateparse import parse_datetime

from bunco.forms import MAX_CENTS
from bunco.night.events import Kind
from bunco.night.names import GHOST, looks, new_names, normalise
from bunco.night.services.setup import _clean_night_name
from scoring import IllegalMove, RulesError
from scoring.awards import check_agreed
from scoring.presets import PRESETS

#: A name's most characters (``scoring.seating.clean_names``).
NAME_CHARS = 40
#: The night's name as the new-night form takes it (then kept to its first 80 characters).
NIGHT_NAME_CHARS = 200
#: A whole number a column holds (a table, a set, a round, a position).
MAX_INT = 2**31 - 1
#: Keys of a log entry's data that name a player, per kind (the night's own name is not one).
NAME_KEYS = ("name", "old", "new", "winner")
NOT_NAMES = frozenset({Kind.CREATED, Kind.RULES, Kind.PRIZES, Kind.DESK, Kind.BREAK})


class FileError(Exception):
    pass


def shown(text: str) -> str:
    """A name as the refusal quotes it: without what makes it unsafe, cut short."""
    clean = normalise(text)
    return clean if len(clean) <= NAME_CHARS else clean[:NAME_CHARS] + "\u2026"


def check_name(raw, what: str = "a player's name") -> str:
    """``raw`` if it is a name typing it would have made as it stands, else a FileError."""
    if not isinstance(raw, str):
        raise FileError(f"{what} is not text")
    if normalise(raw) != raw:
        raise FileError(f"{what} \u201c{shown(raw)}\u201d has characters a name cannot have "
                        "(direction overrides, control or invisible characters)")
    if not raw:
        raise FileError(f"{what} is empty")
    if len(raw) > NAME_CHARS:
        raise FileError(f"{what} \u201c{shown(raw)}\u201d is longer than {NAME_CHARS} "
                        "characters")
    if GHOST.fullmatch(looks(raw)):
        raise FileError(f"{what} \u201c{raw}\u201d is what the app calls an empty chair")
    return raw


def check_names(names: list) -> list[str]:
    for name in names:
        check_name(name)
    try:
        new_names([], names)  # none that looks like another
    except RulesError as exc:
        raise FileError(str(exc).removeprefix("players: ")) from None
    return names


def cents(value, what: str, empty: bool = False) -> int | None:
    if value is None and empty:
        return None
    if not _whole(value, 0, MAX_CENTS):
        raise FileError(f"the {what} must be an amount from $0 to $1,000,000 (in cents), "
                        f"not {str(value)[:20]}")
    return value


def _whole(value, low: int = 0, high: int = MAX_INT) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _text(value, most: int) -> bool:
    return isinstance(value, str) and len(value) <= most


def check_night(info: dict) -> None:
    """The night's own fields, as the new-night, rules and prize forms take them."""
    name = info.get("name")
    if not _text(name, NIGHT_NAME_CHARS) or _clean_night_name(name) != name:
        raise FileError("the night's name must be text of at most 80 characters")
    if info.get("rules_id") not in PRESETS:
        raise FileError("the night's rules do not start from one of the app's house rules")
    cents(info.get("entry_fee_cents"), "entry fee")
    cents(info.get("pot_cents"), "pot", empty=True)
    roll_offs = info.get("roll_offs", {})
    if not isinstance(roll_offs, dict) or not all(
            _text(k, 80) and isinstance(v, str) for k, v in roll_offs.items()):
        raise FileError("the night's roll-offs are damaged")
    for winner in roll_offs.values():
        check_name(winner, "a roll-off's winner")
    if not _whole(info.get("revealed", 0), 0, 999) or not isinstance(info.get("demo", False),
                                                                        bool):
        raise FileError("the night's prizes shown or its demo mark are damaged")
    if not isinstance(info.get("created_at"), (str, type(None))):
        raise FileError("the night's date is damaged")
    if not _date(info.get("created_at")):
        raise FileError("the night's date is not a date")


PLAYER_FIELDS = {"position": lambda v: _whole(v), "left_early": lambda v: isinstance(v, bool),
                 "expected": lambda v: isinstance(v, bool),
                 "device": lambda v: _text(v, 64), "token": lambda v: _text(v, 64),
                 "arrived_at": lambda v: v is None or _text(v, 40),
                 "drawn_table": lambda v: v is None or _whole(v, 1, 9_999)}


def check_players(players: list) -> list[str]:
    for player in players:
        if not isinstance(player, dict):
            raise FileError("a player in the file is damaged")
    names = check_names([p.get("name") for p in players])
    for player, name in zip(players, names, strict=True):
        bad = [k for k, ok in PLAYER_FIELDS.items() if k in player and not ok(player[k])]
        if bad:
            raise FileError(f"{name}'s {bad[0].replace('_', ' ')} is damaged")
        if not _date(player.get("arrived_at")):
            raise FileError(f"{name}'s time of arrival is not a date")
    return names


EVENT_FIELDS = {
    **{k: lambda v: v is None or _whole(v) for k in
       ("table", "set_number", "round_number", "position")},
    "ghost": lambda v: v is None or _text(v, NAME_CHARS),
    "actor": lambda v: v is None or _text(v, 60) and normalise(v) == v,
    "data": lambda v: v is None or isinstance(v, dict),
    "created_at": lambda v: _date(v),
    "key": lambda v: v is None or v == "" or _uuid(v),
}
#: How a refusal names a field of a log entry (else its name, "_" a space).
EVENT_WORDS = {"created_at": "time"}


def _date(value) -> bool:
    """None, or a date and time as the app writes them (ISO 8601): never text that only
    looks like one ("2026-02-30"), which would be taken as the moment the file is opened."""
    if value is None:
        return True
    try:
        return _text(value, 40) and parse_datetime(value) is not None
    except ValueError:
        return False


def _uuid(value) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def check_event(i: int, entry: dict) -> None:
    """One entry of the log: each field the type and size of its column; every name in it
    (who rolled, who came, left, was renamed, won a roll-off) a name as typed."""
    bad = [k for k, ok in EVENT_FIELDS.items() if k in entry and not ok(entry[k])]
    if bad:
        what = EVENT_WORDS.get(bad[0], bad[0].replace("_", " "))
        raise FileError(f"entry {i} of the log is damaged (its {what})")
    if entry.get("player"):
        check_name(entry["player"], f"the player in entry {i} of the log")
    data = entry.get("data") or {}
    if entry["kind"] in NOT_NAMES:
        return
    for key in NAME_KEYS:
        if key in data and not (key == "winner" and data.get("split")):
            check_name(data[key], f"a name in entry {i} of the log")
    names = data.get("names", [])
    if entry["kind"] == Kind.SEATED:  # every chair's, but a ghost's
        names = [seat.get("name") for table in _dicts(data.get("tables"))
                 for seat in _dicts(table.get("seats")) if not seat.get("ghost")]
    if not isinstance(names, list):
        raise FileError(f"entry {i} of the log is damaged (its names)")
    for name in names:
        check_name(name, f"a name in entry {i} of the log")
    shares = data.get("shares", {})  # a prize split as the tied players agreed
    try:
        if not isinstance(shares, dict):
            raise IllegalMove("not a list of shares")
        if shares:
            check_agreed(shares, list(shares))  # as the host's split was checked
    except IllegalMove:
        raise FileError(f"entry {i} of the log is damaged (its shares)") from None
    for name in shares:
        check_name(name, f"a name in entry {i} of the log")


def _dicts(items) -> list[dict]:
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise FileError("the seating in the log is damaged")
    return items


def check_replayed(state) -> None:
    """What the log's own entries made of the night (its name, fee, pot and prizes, which
    the night's row takes from them) checked as the night's fields are."""
    check_night({"name": state.name, "rules_id": state.rules_id,
                 "entry_fee_cents": state.entry_fee_cents, "pot_cents": state.pot_cents,
                 "roll_offs": state.roll_offs, "revealed": state.revealed})
