"""A night made again from its downloaded file.

Not a command through the runner: the file's log is written as it stands, not rebuilt event by
event, so the night folds to the identical night on any install and keeps when things
happened. The whole file is checked (and its log replayed) before anything is written; a file
that is not a whole night is refused and leaves nothing behind.

A file of version 2 holds the night's links (the TV's, the join link, each table's and each
player's) and its short codes (the TV's, and the join code: an older file has none). Where no
link is taken on this install (a fresh laptop after the host's died) the night keeps them, and
each code unless another night here has it: the phones' and the TV's pages carry on, and a
phone's claim still matches the hash the file keeps. Where one is taken (the same night opened
twice here) the night gets new links, as a version 1 file always does, and ``night.links``
says which.
"""

from __future__ import annotations

import re
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from bunco.models import (
    Night,
    Player,
    ScoreEvent,
    TableLink,
    new_join_code,
    new_token,
    new_tv_code,
)
from bunco.night import document, hooks
from bunco.night.cache import as_event
from bunco.night.fold import Kind
from bunco.night.payloads import Released
from bunco.night.services import night_file as checks
from bunco.night.services.night_file import FileError as _FileError
from bunco.night.services.roster import known_people, new_people
from bunco.night.services.runner import CommandRefused, _key, _projection, _when
from bunco.night.versions import fold
from scoring import HouseRules, RulesError

KINDS = frozenset(k.value for k in Kind)


def _need(data, key: str, kind, where: str = "the file"):
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _FileError(f"{where} has no valid {key!r}")
    return value


_TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
_CODE = re.compile(r"^[0-9a-f]{1,12}$")
_JOIN_CODE = re.compile(r"^[0-9]{1,12}$")


def _links_of(data: dict, players: list, tables: int) -> dict | None:
    """The file's links, when they are all there and well formed (None: make new ones)."""
    links = data.get("links")
    if not isinstance(links, dict):
        return None
    table_tokens = links.get("tables") if isinstance(links.get("tables"), dict) else {}
    found = {"tv": links.get("tv"), "join": links.get("join"), "tv_code": links.get("tv_code"),
             "tables": [table_tokens.get(str(n)) for n in range(1, tables + 1)],
             "players": [p.get("token") for p in players]}
    tokens = [found["tv"], found["join"], *found["tables"], *found["players"]]
    if not all(isinstance(t, str) and _TOKEN.match(t) for t in tokens) \
            or len(set(tokens)) != len(tokens) \
            or not (isinstance(found["tv_code"], str) and _CODE.match(found["tv_code"])):
        return None
    code = links.get("join_code")  # an older file has none: the night gets a new one
    found["join_code"] = code if isinstance(code, str) and _JOIN_CODE.match(code) else None
    return found


def _taken(links: dict) -> bool:
    """Whether any of the links is already some night's on this install. The short codes
    are not links (a TV's page keeps its token): one another night has here is made anew
    (the TV's page is told its new join code when it connects)."""
    night_tokens = [links["tv"], links["join"]]
    if Night.objects.filter(tv_code=links["tv_code"]).exists():
        links["tv_code"] = new_tv_code()
    if not links["join_code"] or Night.objects.filter(join_code=links["join_code"]).exists():
        links["join_code"] = new_join_code()
    return (Night.objects.filter(tv_token__in=night_tokens).exists()
            or Night.objects.filter(join_token__in=night_tokens).exists()
            or TableLink.objects.filter(token__in=links["tables"]).exists()
            or Player.objects.filter(token__in=links["players"]).exists())


def night_restore(*, data) -> Night:
    """A night downloaded from any install, made again here: the same rules, roster and log,
    so it folds to the identical night (master sheet, tally history, prizes), with the same
    links when the file has them and they are free here. ``night.links`` says which: "kept",
    "taken" (new links: the file's are another night's here) or "new" (a file without them).
    A file that is not a whole night is refused and nothing is written."""
    info, players, rows, rules, names = _read(data)
    players, freed = _claims_at(data.get("address"), players, rows)
    logged = [
        ScoreEvent(seq=e["seq"], key=_key(e.get("key")), kind=e["kind"], table=e.get("table"),
                   set_number=e.get("set_number"), round_number=e.get("round_number"),
                   player=e.get("player") or "", ghost=e.get("ghost") or "",
                   position=e.get("position"), data=e.get("data") or {},
                   actor=(e.get("actor") or "")[:60])
        for e in rows]
    night = _night_row(info, rules)
    try:
        state = fold(rules, [as_event(row) for row in logged], name=night.name,
                     rules_id=night.rules_id, entry_fee_cents=night.entry_fee_cents,
                     pot_cents=night.pot_cents)
    except Exception as exc:  # a damaged log: say so, write nothing
        raise CommandRefused(f"this night's log does not replay ({str(exc)[:200]})") from None
    try:
        checks.check_replayed(state)
    except _FileError as exc:
        raise CommandRefused(str(exc)) from None
    # The night's columns as the commands that wrote the log left them.
    for row in logged:
        for name, value in _projection(row.kind, state).items():
            setattr(night, name, value)
    night.last_seq = len(logged)
    links = _links_of(data, players, len(state.tables)) if data["version"] >= 2 else None
    made_with = "new" if links is None else "taken" if _taken(links) else "kept"
    try:
        _write(night, logged, rows, info, names, players, len(state.tables),
               links if made_with == "kept" else None)
    except IntegrityError:
        if made_with != "kept":
            raise CommandRefused("this night file does not fit together (its links or "
                                 "names are repeated)") from None
        made_with = "taken"  # taken meanwhile (the same file opened twice at once)
        night.pk = None
        for row in logged:
            row.pk = None
        _write(night, logged, rows, info, names, players, len(state.tables), None)
    hooks.opened(night)
    night.refresh_from_db()
    night.links, night.freed = made_with, freed
    return night


def _read(data) -> tuple[dict, list, list, HouseRules, list[str]]:
    """The file's night, players, log rows, rules and names, or a refusal saying what is
    wrong with it (the names checked as typing them would check them)."""
    try:
        if not isinstance(data, dict) or data.get("format") != document.FORMAT:
            raise _FileError("this is not a night downloaded from Bunco")
        if data.get("version") not in document.READS:
            raise _FileError("this night file comes from a newer version of Bunco")
        info = _need(data, "night", dict)
        if not (data.get("address") is None or isinstance(data["address"], str)
                and len(data["address"]) <= 253):
            raise _FileError("the file's address is damaged")
        players = _need(data, "players", list)
        events = _need(data, "events", list)
        rules = HouseRules.from_dict(_need(info, "rules", dict, "the night"))
        checks.check_night(info)
        rows = []
        for i, e in enumerate(events, 1):
            if not isinstance(e, dict) or e.get("seq") != i or e.get("kind") not in KINDS:
                raise _FileError(f"entry {i} of the log is damaged")
            checks.check_event(i, e)
            rows.append(e)
        for p in players:
            _need(p, "name", str, "a player")
        names = checks.check_players(players)  # the same checks as typing them
    except (_FileError, RulesError) as exc:
        raise CommandRefused(str(exc).removeprefix("players: ")) from None
    return info, players, rows, rules, names


def _night_row(info: dict, rules: HouseRules) -> Night:
    """The night's row as the file describes it, each field checked."""
    return Night(name=info["name"], rules_id=info["rules_id"], rules_json=rules.to_dict(),
                  entry_fee_cents=info["entry_fee_cents"], pot_cents=info.get("pot_cents"),
                  roll_offs=info.get("roll_offs") or {}, revealed=info.get("revealed", 0),
                  demo=info.get("demo") is True)  # a demo stays out of the season


def _claims_at(address, players: list, rows: list) -> tuple[list, list[str]]:
    """A phone keeps its claim in a cookie of the address it opened the night at: a night
    opened where phones reach another address (the new laptop got another one) has no phone
    that could show its claim, so every claim is released, in the log as the host's, and each
    guest picks their name again at the new address. At the same address (or one not known:
    a laptop on no network yet) the claims stay."""
    here = document.phones_address()
    if not (isinstance(address, str) and address and here and address != here):
        return players, []
    freed = [p["name"] for p in players if isinstance(p.get("device"), str) and p["device"]]
    now = timezone.now().isoformat()
    for name in freed:
        rows.append({"seq": len(rows) + 1, "key": str(uuid.uuid4()), "kind": Kind.RELEASED.value,
                     "data": Released(name, moved=f"{address} to {here}").to_data(),
                     "actor": "host", "created_at": now})
    return [{**p, "device": ""} for p in players], freed


def _write(night: Night, logged: list, rows: list, info: dict, names: list, players: list,
           tables: int, links: dict | None) -> None:
    """The night's rows in one transaction: with the file's links, or new ones."""
    if links:
        night.tv_token, night.join_token = links["tv"], links["join"]
        night.tv_code, night.join_code = links["tv_code"], links["join_code"]
    else:
        night.tv_token, night.join_token = new_token(), new_token()
        night.tv_code = new_tv_code()
    known = {} if night.demo else known_people(names)
    with transaction.atomic():
        night.save(force_insert=True)
        people = ({n: None for n in names} if night.demo
                  else {**known, **new_people([n for n in names if n not in known])})
        Player.objects.bulk_create([
            Player(night=night, name=n, person=people[n],
                   token=links["players"][i] if links else new_token(),
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
        TableLink.objects.bulk_create([
            TableLink(night=night, number=n,
                      token=links["tables"][n - 1] if links else new_token())
            for n in range(1, tables + 1)])
        for row in logged:
            row.night = night
        made = ScoreEvent.objects.bulk_create(logged)
        # When things happened is part of the night (the tally history shows it).
        for row, e in zip(made, rows, strict=True):
            row.created_at = _when(e.get("created_at")) or row.created_at
        ScoreEvent.objects.bulk_update(made, ["created_at"], batch_size=500)
        Night.objects.filter(pk=night.pk).update(
            created_at=_when(info.get("created_at")) or night.created_at)
