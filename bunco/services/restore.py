"""A night made again from its downloaded file.

Not a command through the runner: the file's log is written as it stands, not rebuilt event by
event, so the night folds to the identical night on any install and keeps when things
happened. The whole file is checked (and its log replayed) before anything is written; a file
that is not a whole night is refused and leaves nothing behind.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from bunco import backup
from bunco.fold import Kind, fold
from bunco.models import Night, Player, ScoreEvent, TableLink
from bunco.names import new_names
from bunco.selectors import as_event
from bunco.services.roster import known_people, new_people
from bunco.services.runner import CommandRefused, _key, _projection, _when
from bunco.services.setup import _clean_night_name
from scoring import HouseRules, RulesError


class _FileError(Exception):
    pass


KINDS = frozenset(k.value for k in Kind)


def _need(data, key: str, kind, where: str = "the file"):
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _FileError(f"{where} has no valid {key!r}")
    return value


def night_restore(*, data) -> Night:
    """A night downloaded from any install, made again here: the same rules, roster and log,
    so it folds to the identical night (master sheet, tally history, prizes). It gets new
    links. A file that is not a whole night is refused and nothing is written."""
    try:
        if not isinstance(data, dict) or data.get("format") != backup.FORMAT:
            raise _FileError("this is not a night downloaded from Bunco")
        if data.get("version") != backup.VERSION:
            raise _FileError("this night file comes from a newer version of Bunco")
        info = _need(data, "night", dict)
        players = _need(data, "players", list)
        events = _need(data, "events", list)
        rules = HouseRules.from_dict(_need(info, "rules", dict, "the night"))
        rows = []
        for i, e in enumerate(events, 1):
            if not isinstance(e, dict) or e.get("seq") != i or e.get("kind") not in KINDS:
                raise _FileError(f"entry {i} of the log is damaged")
            rows.append(e)
        names = [_need(p, "name", str, "a player") for p in players]
        new_names([], names)  # the same checks as typing them
    except (_FileError, RulesError) as exc:
        raise CommandRefused(str(exc).removeprefix("players: ")) from None
    logged = [
        ScoreEvent(seq=e["seq"], key=_key(e.get("key")), kind=e["kind"], table=e.get("table"),
                   set_number=e.get("set_number"), round_number=e.get("round_number"),
                   player=e.get("player") or "", ghost=e.get("ghost") or "",
                   position=e.get("position"), data=e.get("data") or {},
                   actor=(e.get("actor") or "")[:60])
        for e in rows]
    night = Night(name=_clean_night_name(str(info.get("name", "")))[:80],
                  rules_id=str(info.get("rules_id", ""))[:40], rules_json=rules.to_dict(),
                  entry_fee_cents=max(0, int(info.get("entry_fee_cents") or 0)),
                  pot_cents=info.get("pot_cents") if isinstance(info.get("pot_cents"), int)
                  else None,
                  roll_offs=info.get("roll_offs") if isinstance(info.get("roll_offs"), dict)
                  else {},
                  revealed=info["revealed"] if isinstance(info.get("revealed"), int)
                  and 0 <= info["revealed"] < 1000 else 0)
    try:
        state = fold(rules, [as_event(row) for row in logged], name=night.name,
                     rules_id=night.rules_id, entry_fee_cents=night.entry_fee_cents,
                     pot_cents=night.pot_cents)
    except Exception as exc:  # a damaged log: say so, write nothing
        raise CommandRefused(f"this night's log does not replay ({exc})") from None
    # The night's columns as the commands that wrote the log left them.
    for row in logged:
        for name, value in _projection(row.kind, state).items():
            setattr(night, name, value)
    night.last_seq = len(logged)
    known = known_people(names)
    with transaction.atomic():
        night.save()
        people = {**known, **new_people([n for n in names if n not in known])}
        Player.objects.bulk_create([
            Player(night=night, name=n, person=people[n],
                   position=p["position"] if isinstance(p.get("position"), int) else i,
                   left_early=bool(p.get("left_early")),
                   # the phone that claimed the player (a hash), as the log's claims say
                   device=p["device"] if isinstance(p.get("device"), str)
                   and len(p["device"]) <= 64 else "",
                   # the desk: a file from before it had every player here
                   expected=p.get("expected") is True,
                   arrived_at=_when(p.get("arrived_at")) if "arrived_at" in p
                   else timezone.now(),
                   drawn_table=p["drawn_table"] if isinstance(p.get("drawn_table"), int)
                   and 0 < p["drawn_table"] < 10_000 else None)
            for i, (n, p) in enumerate(zip(names, players, strict=True))])
        TableLink.objects.bulk_create([TableLink(night=night, number=n)
                                       for n in range(1, len(state.tables) + 1)])
        for row in logged:
            row.night = night
        made = ScoreEvent.objects.bulk_create(logged)
        # When things happened is part of the night (the tally history shows it).
        for row, e in zip(made, rows, strict=True):
            row.created_at = _when(e.get("created_at")) or row.created_at
        ScoreEvent.objects.bulk_update(made, ["created_at"], batch_size=500)
        Night.objects.filter(pk=night.pk).update(
            created_at=_when(info.get("created_at")) or night.created_at)
    night.refresh_from_db()
    return night
