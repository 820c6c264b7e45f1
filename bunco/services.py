"""Writes: one function per command, for the host and the tables alike.

Every command that changes a night goes through ``_command``: under the night's own lock it
catches the fold up with the log, builds one event (refusing, with a message a guest can read,
when it does not fit), applies it to the fold, writes the log row and any projection rows in
one short transaction, renders what changed once, and pushes it after the commit. A repeated
idempotency key is answered with the first acknowledgment, at any later time.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bunco import backup, broadcast
from bunco.fold import (
    CORRECTABLE,
    PRACTICE_SET,
    Event,
    Kind,
    LiveNight,
    fold,
    tables_to_data,
)
from bunco.models import Night, Person, Player, ScoreEvent, TableLink
from bunco.names import find, new_names
from bunco.selectors import CheckIn, as_event, caught_up, check_in_status, folds, live_state
from scoring import PRESETS, HouseRules, IllegalMove, RulesError, sample_names, seat_night
from scoring.roll import check_dice, dice_for
from scoring.seating import clean_names, draw_table, draws_tables, seat_drawn


class CommandRefused(Exception):
    """A command that does not fit: the message is shown to the user as is."""


def _refuse_on_domain_errors(func):
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (IllegalMove, RulesError, ValueError) as exc:
            raise CommandRefused(str(exc)) from None

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


def _key(key: str | uuid.UUID | None) -> uuid.UUID:
    if key is None or key == "":
        return uuid.uuid4()
    try:
        return key if isinstance(key, uuid.UUID) else uuid.UUID(str(key))
    except ValueError:
        raise CommandRefused("this tap carried a broken id; reload the page") from None


@dataclass
class Ack:
    """A command's answer: the log row that records it; ``applied`` is False when the key was
    seen before (the row is the original one) or the tap was for a position already recorded
    (``duplicate``; then there is no row)."""

    row: ScoreEvent | None
    applied: bool
    state: LiveNight
    duplicate: bool = False
    message: str = ""
    frames: list = field(default_factory=list)


class _Raced(Exception):
    """Another worker wrote to this night's log first."""


#: Night columns that mirror the fold, written in the same transaction as the event.
def _projection(kind: str, state: LiveNight) -> dict:
    if kind == Kind.ROUND_STARTED:
        return {"status": Night.Status.PLAYING}
    if kind == Kind.NIGHT_ENDED:
        return {"status": Night.Status.FINISHED}
    if kind in (Kind.RULES, Kind.PRIZES):
        return {"rules_json": state.rules.to_dict(), "rules_id": state.rules_id,
                "name": state.name, "entry_fee_cents": state.entry_fee_cents,
                "pot_cents": state.pot_cents}
    if kind == Kind.ROLL_OFF:
        return {"roll_offs": state.roll_offs}
    if kind == Kind.REVEALED:
        return {"revealed": state.revealed}
    if kind == Kind.DESK:
        return {"check_in_closes_at": _when(state.check_in_closes)}
    return {}


def _command(
    *,
    night: Night,
    key,
    actor: str,
    build: Callable[[LiveNight], dict | Ack],
    also: Callable[[ScoreEvent], None] | None = None,
) -> Ack:
    """Run one command against the night. ``build`` looks at the caught-up fold and returns
    the new event's fields (or an Ack to answer without writing, or raises to refuse);
    ``also`` writes projection rows in the same transaction as the log row."""
    key = _key(key)
    for _attempt in range(3):
        with folds.lock(night.pk):
            state = caught_up(night, known_seq=night.last_seq)
            # A resend of a command already in the log gets its first answer. The log is only
            # asked when the command would not be written anew (refused, or a position already
            # passed) or the write hits the key's unique constraint: a tap's common path
            # costs no lookup.
            try:
                spec = build(state)
                if isinstance(spec, Ack):
                    return _earlier(night, key) or spec
                event = Event(seq=state.seq + 1, actor=actor[:60], **spec)
                was_playing = state.room is not None
                before = state.shape()
                after = state.apply(event)
            except (IllegalMove, ValueError, RulesError) as exc:
                earlier = _earlier(night, key)
                if earlier is not None:
                    return earlier
                raise CommandRefused(str(exc)) from None
            # ``state`` may have moved in place: from here on only the log can vouch for it.
            try:
                with transaction.atomic():
                    row = ScoreEvent.objects.create(
                        night_id=night.pk, seq=event.seq, key=key, kind=event.kind,
                        table=event.table, set_number=event.set_number,
                        round_number=event.round_number, player=event.player,
                        ghost=event.ghost, position=event.position, data=dict(event.data),
                        actor=event.actor,
                    )
                    columns = {"last_seq": event.seq, **_projection(event.kind, after)}
                    if not Night.objects.filter(pk=night.pk, last_seq=event.seq - 1).update(
                            **columns):
                        raise _Raced
                    if also is not None:
                        also(row)
                    for name, value in columns.items():
                        setattr(night, name, value)
                    after.created_at = night.created_at
                    folds.put(night.pk, after)
                    frames = broadcast.frames(night, after, event, before)
                    transaction.on_commit(lambda frames=frames: broadcast.send(frames))
                    if (was_playing and after.room is None) or event.kind == Kind.NIGHT_ENDED:
                        transaction.on_commit(
                            lambda seq=event.seq: backup.snapshot_soon(f"seq{seq}"))
            except (_Raced, IntegrityError):
                # Another worker wrote first: step the fold back (one round's replay, not the
                # night's) and read the log again before building the command anew.
                rewound = after.rewound() if after is state else state  # a void: untouched
                if rewound is None:
                    folds.drop(night.pk)
                else:
                    rewound.created_at = night.created_at
                    folds.put(night.pk, rewound)
                night.last_seq = None  # unknown now: ask the log
                earlier = _earlier(night, key)
                if earlier is not None:
                    return earlier
                continue
            except Exception:
                folds.drop(night.pk)
                raise
            return Ack(row, applied=True, state=after, frames=frames)
    raise CommandRefused("that tap crossed another one; please try again")


def _earlier(night: Night, key: uuid.UUID) -> Ack | None:
    row = ScoreEvent.objects.filter(night_id=night.pk, key=key).first()
    return Ack(row, applied=False, state=caught_up(night)) if row is not None else None


def event_ack(*, night: Night, key) -> Ack | None:
    """The acknowledgment of a command already in the log under ``key``, if any."""
    try:
        return _earlier(night, uuid.UUID(str(key)))
    except ValueError:
        return None


def _simple(kind: str, **fields) -> Callable[[LiveNight], dict]:
    return lambda state: {"kind": kind, **fields}


def _where(state: LiveNight) -> dict:
    return {"set_number": state.set_number, "round_number": state.round_number}


# -- setting up ---------------------------------------------------------------------------------

def _clean_night_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise CommandRefused("give the night a name, e.g. \"March Bunco\"")
    return name[:80]


@_refuse_on_domain_errors
def night_create(
    *,
    name: str,
    rules_id: str,
    rules: HouseRules | None = None,
    entry_fee_cents: int = 0,
    player_names: Sequence[str] = (),
) -> Night:
    name = _clean_night_name(name)
    if rules_id not in PRESETS:
        raise CommandRefused(f"unknown house rules {rules_id!r}")
    if entry_fee_cents < 0:
        raise CommandRefused("the entry fee cannot be negative")
    rules = rules or PRESETS[rules_id]
    names = _new_names([], player_names) if player_names else []
    with transaction.atomic():
        night = Night.objects.create(
            name=name, rules_id=rules_id, rules_json=rules.to_dict(),
            entry_fee_cents=entry_fee_cents,
        )
        _command(night=night, key=None, actor="host", build=_simple(
            Kind.CREATED, data={"name": name, "rules_id": rules_id, "rules": rules.to_dict(),
                                "entry_fee_cents": entry_fee_cents}))
        if names:
            players_add(night=night, names=names)
    return night


@_refuse_on_domain_errors
def night_update_rules(*, night: Night, rules: HouseRules, entry_fee_cents: int | None = None,
                       name: str | None = None, rules_id: str | None = None) -> Night:
    data = {"rules": rules.to_dict()}
    if entry_fee_cents is not None:
        if entry_fee_cents < 0:
            raise CommandRefused("the entry fee cannot be negative")
        data["entry_fee_cents"] = entry_fee_cents
    if name is not None and name.strip():
        data["name"] = _clean_night_name(name)
    if rules_id is not None:
        data["rules_id"] = rules_id
    _command(night=night, key=None, actor="host", build=_simple(Kind.RULES, data=data))
    return night


@_refuse_on_domain_errors
def awards_update(*, night: Night, awards: list[dict], award_ties: str,
                  one_prize_per_person: bool, pot_cents: int | None) -> Night:
    """The prize list, before or during the night (play does not depend on it)."""
    if pot_cents is not None and pot_cents < 0:
        raise CommandRefused("the pot cannot be negative")
    night.rules.replace(awards=awards, award_ties=award_ties,
                        one_prize_per_person=one_prize_per_person)  # validates
    _command(night=night, key=None, actor="host", build=_simple(Kind.PRIZES, data={
        "awards": awards, "award_ties": award_ties,
        "one_prize_per_person": one_prize_per_person, "pot_cents": pot_cents}))
    return night


@_refuse_on_domain_errors
def night_again(*, night: Night) -> Night:
    """A new night with the last one's players and rules."""
    names = [p.name for p in night.players.here()]
    return night_create(name=f"{night.name} (next)", rules_id=night.rules_id,
                        rules=night.rules, entry_fee_cents=night.entry_fee_cents,
                        player_names=names)


def _new_names(existing: Sequence[str], names: Sequence[str]) -> list[str]:
    names = new_names(existing, (n for n in names if n.strip()))
    if not any(names):
        raise CommandRefused("type at least one name")
    return clean_names([*existing, *names])[len(existing):]


#: The most names one paste checks in (a charity night's whole roster).
MAX_PASTE = 2000
#: Names written per transaction, so a long paste never holds the write lock for long.
PASTE_CHUNK = 250


@_refuse_on_domain_errors
def players_add(*, night: Night, names: Sequence[str], expected: bool = False) -> list[Player]:
    """Check players in (a pasted list, one name a line), or with ``expected`` list
    pre-registered guests who check in at the desk when they come. Before the seating only.
    The whole list is checked first; then the rows are written in bulk, a few hundred a
    transaction, so even a charity night's roster holds the write lock only briefly at a
    time."""
    typed = [n for n in names if n.strip()]
    if len(typed) > MAX_PASTE:
        raise CommandRefused(f"that is {len(typed):,} names; paste at most {MAX_PASTE:,} at a "
                             "time")
    existing = list(night.players.values_list("name", flat=True))
    cleaned = _new_names(existing, typed)
    most = night.rules.player_limits[1]
    if len(existing) + len(cleaned) > most:
        raise CommandRefused(
            f"these house rules seat at most {most:,} players: {len(existing):,} are checked "
            f"in, so {len(cleaned):,} more is too many; nothing was added")
    known = known_people(cleaned)  # read before the write lock is taken
    arrived_at = None if expected else timezone.now()
    created: list[Player] = []
    for start in range(0, len(cleaned), PASTE_CHUNK):
        chunk = cleaned[start:start + PASTE_CHUNK]
        offset = len(existing) + start

        def rows(_event, chunk=chunk, offset=offset):
            people = {**known, **new_people([n for n in chunk if n not in known])}
            created.extend(Player.objects.bulk_create([
                Player(night=night, name=n, position=offset + i, person=people[n],
                       expected=expected, arrived_at=arrived_at)
                for i, n in enumerate(chunk)]))

        data = {"names": chunk, "expected": True} if expected else {"names": chunk}
        _command(night=night, key=None, actor="host", build=_simple(Kind.ADDED, data=data),
                 also=rows)
    return created


def known_people(names: Sequence[str]) -> dict[str, Person]:
    """The person each name belongs to, for names played under before: the one who last
    played under that name (case aside). A few queries for any number of names."""
    latest: dict[str, Person] = {}
    lowered = sorted({n.lower() for n in names})
    for start in range(0, len(lowered), 500):
        earlier = (Player.objects.filter(person__isnull=False)
                   .annotate(low=Lower("name")).filter(low__in=lowered[start:start + 500])
                   .select_related("person").order_by("night__created_at", "pk"))
        latest.update({p.low: p.person for p in earlier})
    return {n: latest[n.lower()] for n in names if n.lower() in latest}


def new_people(names: Sequence[str]) -> dict[str, Person]:
    return {p.name: p for p in Person.objects.bulk_create([Person(name=n) for n in names])}


def person_for(name: str) -> Person:
    return known_people([name]).get(name) or new_people([name])[name]


@_refuse_on_domain_errors
def people_merge(*, keep: Person, other: Person) -> Person:
    """Two records of one person ("Kathy" and "Katherine"): everything moves to ``keep``."""
    if keep.pk == other.pk:
        raise CommandRefused("pick two different people to merge")
    with transaction.atomic():
        other.players.update(person=keep)
        other.delete()
    return keep


@_refuse_on_domain_errors
def player_split(*, player: Player) -> Person:
    """This player was someone else who shares the name: give them a person of their own."""
    with transaction.atomic():
        person = Person.objects.create(name=player.name)
        player.person = person
        player.save(update_fields=["person"])
    return person


@_refuse_on_domain_errors
def player_remove(*, night: Night, player: Player) -> None:
    _command(night=night, key=None, actor="host",
             build=_simple(Kind.REMOVED, data={"name": player.name}),
             also=lambda _row: player.delete())


@_refuse_on_domain_errors
def player_rename(*, night: Night, player: Player, name: str, key=None) -> Player:
    """Fix a typo in a name: before seating, or at any time after (fixed in the rounds
    already played too)."""
    others = list(night.players.exclude(pk=player.pk).values_list("name", flat=True))
    (clean,) = _new_names(others, [name])
    if clean == player.name:
        return player
    old = player.name

    def rename(_row):
        player.name = clean
        player.save(update_fields=["name"])

    _command(night=night, key=key, actor="host",
             build=_simple(Kind.RENAMED, data={"old": old, "new": clean}), also=rename)
    return player


@_refuse_on_domain_errors
def player_claim(*, night: Night, player: Player, device: str, key=None) -> Player:
    """A guest's phone picks their name: the player is bound to that phone (``device``, the
    hash of its secret) until the host releases it. Picking it again from the same phone is
    fine; from another phone it is refused."""
    if not device:
        raise CommandRefused("this phone did not keep its cookie: allow cookies and try again")

    def build(state: LiveNight) -> dict | Ack:
        holder = Player.objects.filter(pk=player.pk, night=night).values_list(
            "device", flat=True).first()
        if holder is None:
            raise IllegalMove("that name is not on tonight's list")
        if holder == device:
            return Ack(None, applied=False, state=state, duplicate=True)
        if holder:
            raise IllegalMove(f"{player.name} is already on another phone. If that is yours "
                              "and it died, ask the host to release it.")
        return {"kind": Kind.CLAIMED, "data": {"name": player.name, "device": device}}

    def bind(_row):
        if not Player.objects.filter(pk=player.pk, device="").update(device=device):
            raise IllegalMove(f"{player.name} was just picked on another phone")
        player.device = device

    _command(night=night, key=key, actor=f"{player.name}'s phone"[:60], build=build,
             also=bind)
    player.device = device
    return player


@_refuse_on_domain_errors
def player_release(*, night: Night, player: Player, device: str | None = None,
                   key=None) -> Player:
    """Free a player's name for another phone: the host's (a guest's phone died), or the
    phone's own (``device``: it picked the wrong name)."""

    def build(state: LiveNight) -> dict:
        holder = Player.objects.filter(pk=player.pk).values_list("device", flat=True).first()
        if not holder:
            raise IllegalMove(f"{player.name} is not on any phone")
        if device is not None and holder != device:
            raise IllegalMove(f"{player.name} is on another phone")
        return {"kind": Kind.RELEASED, "data": {"name": player.name}}

    def free(_row):
        Player.objects.filter(pk=player.pk).update(device="")
        player.device = ""

    _command(night=night, key=key, actor="host" if device is None else f"{player.name}'s phone",
             build=build, also=free)
    return player


@_refuse_on_domain_errors
def player_arrive(*, night: Night, name: str, key=None) -> Player:
    """A late arrival takes a ghost's chair from the next round on. A pre-registered guest's
    name checks them in, as the desk does."""
    state = live_state(night)
    expected = find(state.expected, name or "")
    if expected is not None:
        guest = night.players.get(name=expected)
        player_check_in(night=night, player=guest)
        return guest
    if not state.seated:
        (player,) = players_add(night=night, names=[name])
        return player
    existing = list(night.players.values_list("name", flat=True))
    (clean,) = _new_names(existing, [name])
    made: list[Player] = []

    def build(state: LiveNight) -> dict:
        ghost = state.next_ghost()
        if ghost is None:
            raise IllegalMove("there is no ghost's chair to take: every seat has a player")
        return {"kind": Kind.ARRIVED, "data": {"name": clean, "ghost": ghost}}

    _command(night=night, key=key, actor="host", build=build, also=lambda _row: made.append(
        Player.objects.create(night=night, name=clean, position=len(existing),
                              person=person_for(clean))))
    return made[0]


@_refuse_on_domain_errors
def player_leave(*, night: Night, player: Player, key=None) -> None:
    """A player goes home: a ghost takes their chair from the next round; what they earned
    stays theirs."""
    if not live_state(night).seated:
        player_remove(night=night, player=player)
        return
    if player.left_early:
        raise CommandRefused(f"{player.name} has already left")

    def left(_row):
        player.left_early = True
        player.save(update_fields=["left_early"])

    _command(night=night, key=key, actor="host", also=left, build=lambda state: {
        "kind": Kind.LEFT, "data": {"name": player.name, "ghost": state.new_ghost_name()}})


@_refuse_on_domain_errors
def game_pause(*, night: Night, key=None, now: float | None = None) -> ScoreEvent:
    """Pause play; the clock (if the rules run one) stands still until play resumes."""
    return _command(night=night, key=key, actor="host", build=lambda s: {
        "kind": Kind.PAUSED, **_where(s), "data": {"at": _epoch_ms(now)}}).row


@_refuse_on_domain_errors
def game_resume(*, night: Night, key=None, now: float | None = None) -> ScoreEvent:
    return _command(night=night, key=key, actor="host", build=lambda s: {
        "kind": Kind.RESUMED, **_where(s), "data": {"at": _epoch_ms(now)}}).row


def _epoch_ms(now: float | None = None) -> int:
    return round((time.time() if now is None else now) * 1000)


def _clock(rules, now: float | None) -> dict:
    """A round's clock, written into its start: when the horn ends play and when the next
    round starts by itself (epoch ms); nothing when the rules run no clock."""
    if not rules.play_seconds:
        return {}
    play_ends = _epoch_ms(now) + rules.play_seconds * 1000
    clock = {"play_ends": play_ends}
    if rules.move_seconds:
        clock["next_at"] = play_ends + rules.move_seconds * 1000
    return clock


#: How early a screen's "time's up" is taken (its clock may run a little ahead of ours).
CLOCK_SLACK_MS = 1000


@_refuse_on_domain_errors
def clock_due(*, night: Night, what: str, set_number: int | None, round_number: int | None,
              now: float | None = None) -> Ack:
    """A screen's countdown reached zero: ``what`` is "horn" (play is over: a bell at every
    table) or "next" (the move time is over: the next round starts). Many screens say so at
    once; the first one does it, the rest are answered "already done". Early, or for another
    round, it changes nothing."""
    if what not in ("horn", "next"):
        raise CommandRefused("the clock only sounds the horn or starts the next round")
    now_ms = _epoch_ms(now)

    def build(state: LiveNight) -> dict | Ack:
        claimed = (_claimed_set(state, set_number), round_number)
        done = Ack(None, applied=False, state=state, duplicate=True, message="Already done")
        if state.ended or state.paused:
            return done
        room = state.room
        if what == "horn":
            if room is None:
                return done
            if claimed != (state.room_set, room.round_number) or room.bell_rung \
                    or state.play_ends is None:
                return done
            if now_ms + CLOCK_SLACK_MS < state.play_ends:
                raise IllegalMove("the clock has not run out yet")
            return {"kind": Kind.BELL, **_where(state), "data": {"horn": True}}
        if (state.next_at is None or state.phase != "between_rounds"
                or state.break_ends is not None  # the host called a break: the bell ends it
                or claimed != (state.set_number, state.round_number)):
            return done
        if now_ms + CLOCK_SLACK_MS < state.next_at:
            raise IllegalMove("the move time is not over yet")
        return {"kind": Kind.ROUND_STARTED, **_where(state), "data": _clock(state.rules, now)}

    # One key per round and deed: screens racing each other (or two workers) write it once.
    # The round is named by its start in the log (two practice rounds share a number).
    seen = live_state(night)
    start = seen.round_events[0].seq if seen.round_events else 0
    key = uuid.uuid5(uuid.NAMESPACE_URL, f"bunco:{night.pk}:clock:{what}:{start}")
    return _command(night=night, key=key, actor="the clock", build=build)


#: How long a break may be, in minutes.
BREAK_MINUTES = (1, 60)


@_refuse_on_domain_errors
def break_start(*, night: Night, minutes: int, key=None, now: float | None = None) -> Ack:
    """A break between rounds (between sets, say): every screen counts down ``minutes`` and
    says what comes next. The next bell ends it, or ``break_end``."""
    low, high = BREAK_MINUTES
    if not low <= minutes <= high:
        raise CommandRefused(f"a break lasts {low} to {high} minutes")
    ends_at = round(((time.time() if now is None else now) + minutes * 60) * 1000)
    return _command(night=night, key=key, actor="host", build=lambda s: {
        "kind": Kind.BREAK, **_where(s), "data": {"minutes": minutes, "ends_at": ends_at}})


@_refuse_on_domain_errors
def break_end(*, night: Night, key=None) -> Ack:
    """End the break early: the screens go back to the next round's seats."""
    return _command(night=night, key=key, actor="host", build=lambda s: {
        "kind": Kind.BREAK, **_where(s), "data": {"minutes": 0}})


@_refuse_on_domain_errors
def night_seat(*, night: Night, key=None, actor: str = "host",
               rng: random.Random | None = None) -> ScoreEvent:
    """Seat everyone who is here at random (or by the starred-sheets draw); ghosts fill the
    gaps. Guests who drew a table at the desk keep it where they can (``seat_drawn``);
    pre-registered guests who have not come are left out (they can still check in later and
    take a ghost's chair)."""
    rng = rng or random.Random()
    made: list = []

    def build(state: LiveNight) -> dict:
        names = state.here()
        state.rules.check_player_count(len(names))
        here = set(names)
        drawn = {n: t for n, t in state.drawn.items() if n in here}
        tables = (seat_drawn(state.rules, names, drawn, rng) if drawn
                  else seat_night(state.rules, names, rng))
        made[:] = tables
        return {"kind": Kind.SEATED, "data": {"tables": tables_to_data(tables)}}

    def links(_row):  # the links exist before anyone is told about the seating
        for number in range(1, len(made) + 1):
            TableLink.objects.get_or_create(night=night, number=number)

    return _command(night=night, key=key, actor=actor, also=links, build=build).row


@_refuse_on_domain_errors
def seats_swap(*, night: Night, first: str, second: str, key=None,
               actor: str = "host") -> ScoreEvent:
    """Swap two people's chairs before the first round."""

    def build(state: LiveNight) -> dict:
        if not state.seated:
            raise IllegalMove("seat the players first")
        data = tables_to_data(state.tables)
        chairs = {s["name"]: s for t in data for s in t["seats"]}
        # In a big room the host types the names: as they look on a screen will do.
        names = [find(chairs, n or "") or n for n in (first, second)]
        for name in names:
            if name not in chairs:
                raise IllegalMove(f"nobody called “{name}” is seated tonight")
        if names[0] == names[1]:
            raise IllegalMove("pick two different seated people to swap")
        a, b = chairs[names[0]], chairs[names[1]]
        a["name"], b["name"] = b["name"], a["name"]
        a["ghost"], b["ghost"] = b["ghost"], a["ghost"]
        for table in data:  # a ghost may not end up partnering a ghost
            seats = table["seats"]
            if (len(seats) == 4 and not table["individuals"]
                    and any(seats[i]["ghost"] and seats[i + 2]["ghost"] for i in range(2))):
                raise IllegalMove("that swap would make two ghosts partners")
        return {"kind": Kind.SEATED, "data": {"tables": data}}

    return _command(night=night, key=key, actor=actor, build=build).row


# -- the desk: guests checking in at the door ---------------------------------------------------

def _closes(state: LiveNight):
    return _when(state.check_in_closes)


def check_in_closed_message(closes_at) -> str:
    at = timezone.localtime(closes_at).strftime("%H:%M")
    return (f"Check-in closed at {at}: nobody more is checked in. To let guests in again, "
            "press “Reopen check-in” on the desk page (or set a later closing time).")


def _desk_event(state: LiveNight, name: str, now, rng: random.Random, *,
                new: bool = False) -> dict:
    """A guest's check-in: before the seating they draw a table (when the rules seat tables
    of four at random); after it they take the first ghost's chair, or wait for one."""
    closes = _closes(state)
    if closes is not None and now >= closes:
        raise IllegalMove(check_in_closed_message(closes))
    if state.ended:
        raise IllegalMove("the night has ended: nobody more is checked in")
    data: dict = {"name": name, "at": now.isoformat()}
    if new:
        data["new"] = True
    if not state.seated:
        listed = len(state.roster) + (1 if new else 0)
        if draws_tables(state.rules, listed):
            data["table"] = draw_table(list(state.drawn.values()), listed, rng)
    elif state.room is None:
        ghost = state.next_ghost()
        if ghost is not None:
            data["ghost"] = ghost
    return {"kind": Kind.CHECKED_IN, "data": data}


@_refuse_on_domain_errors
def player_check_in(*, night: Night, player: Player, now=None, key=None,
                    rng: random.Random | None = None) -> CheckIn:
    """A pre-registered guest at the desk. Checking in twice is harmless: the second time is
    answered with the first (``already``) and changes nothing."""
    now = now or timezone.now()
    rng = rng or random.SystemRandom()

    def build(state: LiveNight) -> dict | Ack:
        name = Player.objects.filter(pk=player.pk, night=night).values_list(
            "name", flat=True).first()
        if name is None:
            raise IllegalMove("that guest is not on tonight's list")
        if name not in state.expected:
            return Ack(None, applied=False, state=state, duplicate=True)
        return _desk_event(state, name, now, rng)

    def arrived(row):
        player.arrived_at, player.drawn_table = now, row.data.get("table")
        Player.objects.filter(pk=player.pk).update(arrived_at=now,
                                                   drawn_table=player.drawn_table)

    ack = _command(night=night, key=key, actor="the desk", build=build, also=arrived)
    player.refresh_from_db()
    return check_in_status(player, ack.state, already=not ack.applied)


@_refuse_on_domain_errors
def walk_in_check_in(*, night: Night, name: str, now=None, key=None,
                     rng: random.Random | None = None) -> CheckIn:
    """A guest who is not on the list, added and checked in at the desk at once."""
    now = now or timezone.now()
    rng = rng or random.SystemRandom()
    existing = list(night.players.values_list("name", flat=True))
    try:
        (clean,) = _new_names(existing, [name])
    except RulesError as exc:
        raise CommandRefused(str(exc).removeprefix("players: ")) from None
    most = night.rules.player_limits[1]
    if len(existing) + 1 > most:
        raise CommandRefused(f"these house rules seat at most {most:,} players, and "
                             f"{len(existing):,} are on the list")
    person = person_for(clean)
    made: list[Player] = []

    def add(row):
        made.append(Player.objects.create(
            night=night, name=clean, position=len(existing), person=person, arrived_at=now,
            drawn_table=row.data.get("table")))

    ack = _command(night=night, key=key, actor="the desk", also=add,
                   build=lambda state: _desk_event(state, clean, now, rng, new=True))
    return check_in_status(made[0], ack.state, already=False)


@_refuse_on_domain_errors
def waiting_seat(*, night: Night) -> list[str]:
    """Guests who checked in after the seating and wait for a chair take the free ghosts'
    chairs, in the order they came (between rounds). Returns who was seated."""
    seated: list[str] = []
    while True:
        def build(state: LiveNight) -> dict | Ack:
            if not state.waiting:
                return Ack(None, applied=False, state=state, duplicate=True)
            if state.room is not None:
                raise IllegalMove("wait for this round to end: guests take a ghost's chair "
                                  "between rounds")
            ghost = state.next_ghost()
            if ghost is None:
                return Ack(None, applied=False, state=state, duplicate=True)
            return {"kind": Kind.ARRIVED, "data": {"name": state.waiting[0], "ghost": ghost}}

        ack = _command(night=night, key=None, actor="host", build=build)
        if not ack.applied:
            break
        seated.append(ack.row.data["name"])
    if not seated:
        state = live_state(night)
        if state.waiting:
            raise CommandRefused("no ghost's chair is free: every chair has a player. A chair "
                                 "frees up when a player goes home.")
        raise CommandRefused("nobody is waiting for a chair")
    return seated


@_refuse_on_domain_errors
def check_in_close(*, night: Night, closes_at, key=None) -> Night:
    """When the desk stops checking guests in (an aware datetime), or None to reopen it."""
    _command(night=night, key=key, actor="host", build=_simple(Kind.DESK, data={
        "closes_at": closes_at.isoformat() if closes_at is not None else None}))
    return night


# -- running the night --------------------------------------------------------------------------

def _round_name(set_number: int | None, round_number: int | None, sets: int) -> str:
    if set_number == PRACTICE_SET:
        return "the practice round"
    if sets > 1 and set_number:
        return f"round {round_number} of set {set_number}"
    return f"round {round_number}"


@_refuse_on_domain_errors
def round_start(*, night: Night, key=None, actor: str = "host",
                round_number: int | None = None, set_number: int | None = None,
                practice: bool = False, now: float | None = None) -> Ack:
    """The head table's bell that starts a round. ``round_number``/``set_number`` name the
    round the host's page offered: a second press for a round that has started is answered,
    not applied. A ``practice`` round, before round 1, is played like round 1 and counts for
    nothing (the night is as it was before it)."""

    def build(state: LiveNight) -> dict | Ack:
        if practice:
            if state.practice:
                return Ack(None, applied=False, state=state, duplicate=True,
                           message="The practice round has already started")
            if state.phase != "ready":
                raise IllegalMove("a practice round comes before round 1 starts")
            return {"kind": Kind.ROUND_STARTED, "set_number": PRACTICE_SET,
                    "round_number": state.round_number,
                    "data": {"practice": True, **_clock(state.rules, now)}}
        if state.practice:
            raise IllegalMove("the practice round is still being played: ring the bell to "
                              "end it, then start round 1")
        claimed = (_claimed_set(state, set_number), round_number)
        if (round_number is not None and state.room is not None
                and claimed == (state.room_set, state.room.round_number)):
            return Ack(None, applied=False, state=state, duplicate=True,
                       message=f"{_round_name(*claimed, state.rules.sets).capitalize()} has "
                               "already started")
        if round_number is not None and state.night is not None and claimed != (
                state.set_number, state.round_number):
            raise IllegalMove(f"that bell was for {_round_name(*claimed, state.rules.sets)}, "
                              "which has been played")
        return {"kind": Kind.ROUND_STARTED, **_where(state), "data": _clock(state.rules, now)}

    return _command(night=night, key=key, actor=actor, build=build)


@_refuse_on_domain_errors
def bell_ring(*, night: Night, key=None, actor: str = "host",
              round_number: int | None = None, set_number: int | None = None) -> Ack:
    """The host's bell (or horn) that ends the round in play at every table."""

    def build(state: LiveNight) -> dict:
        _check_round(state, set_number, round_number, what="that bell")
        return {"kind": Kind.BELL, **_where(state)}

    return _command(night=night, key=key, actor=actor, build=build)


def _claimed_set(state: LiveNight, set_number: int | None) -> int | None:
    """The set a command names (0: the practice round), or the night's when it names none."""
    return state.set_number if set_number is None else set_number


def _check_round(state: LiveNight, set_number, round_number, what: str) -> None:
    """A command made for a round that is not the one in play is refused, naming it."""
    if state.ended:
        raise IllegalMove(f"the night has ended; {what} was not counted")
    if round_number is None:
        return
    claimed = (_claimed_set(state, set_number), round_number)
    name = _round_name(*claimed, state.rules.sets)
    if state.room is None:
        if state.night is not None and claimed == (state.set_number, state.round_number):
            raise IllegalMove(f"{name.capitalize()} has not started yet: wait for the bell")
        raise IllegalMove(f"{what} was for {name}, which is over")
    if claimed != (state.room_set, state.room.round_number):
        raise IllegalMove(f"{what} was for {name}, which is over")


@dataclass(frozen=True)
class Claim:
    """Where a tap was made, as the screen showed it: the round, the table and the table's
    position (how many commands had been entered there this round)."""

    set_number: int | None
    round_number: int
    table: int
    position: int


def claim_for(state: LiveNight, table: int) -> Claim:
    """The claim a screen showing ``table`` right now would make."""
    return Claim(state.room_set if state.room else state.set_number, state.round_number, table,
                 state.position(table))


def _table_claim(state: LiveNight, claim: Claim, what: str) -> Ack | None:
    """Check a table's tap against the night; a tap for a position already passed is answered
    "already recorded" (an Ack without a row), anything else that does not fit is refused."""
    _check_round(state, claim.set_number, claim.round_number, what)
    if state.paused:
        raise IllegalMove("the host has paused the game; that tap was not counted")
    if not 1 <= claim.table <= len(state.room.tables):
        raise IllegalMove(f"there is no table {claim.table} tonight")
    now = state.position(claim.table)
    if claim.position < now:
        return Ack(None, applied=False, state=state, duplicate=True,
                   message="Already recorded: the table has moved on since that tap")
    if claim.position > now:
        raise IllegalMove("this screen is ahead of the table; reload the page")
    return None


def roll_record(
    *,
    night: Night,
    claim: Claim,
    key,
    actor: str,
    dice: Sequence[int] | None = None,
    quick: str | None = None,
) -> Ack:
    """Score one roll at the claimed table and position: three tapped dice, a quick button
    (miss, hit1, hit2, mini, low, high, bunco, wipeout), or a single die (``die1``..``die6``)
    during a one-die tie-break. The roll is recorded with who rolled it (and the ghost's chair
    when a partner rolls for a ghost); quick buttons are read in the claimed round."""

    def build(state: LiveNight) -> dict | Ack:
        answered = _table_claim(state, claim, "that roll")
        if answered is not None:
            return answered
        table = state.room.tables[claim.table - 1]
        if table.done:
            raise IllegalMove(f"table {claim.table} has finished this round")
        rolled = dice
        if quick is not None:
            if quick.startswith("die") and quick[3:].isdigit() and len(quick) == 4:
                rolled = (int(quick[3:]),)
            else:
                rolled = dice_for(state.rules, claim.round_number, quick)
        if rolled is None:
            raise IllegalMove("tap three dice or a button")
        rolled = check_dice(list(rolled), count=table.dice_expected or 3)
        spec = table.spec
        chair = spec.seats[table.current]
        player = spec.seats[spec.roller_of(table.current)].name
        return {"kind": Kind.ROLL, "table": claim.table, **_where(state),
                "player": player, "ghost": chair.name if chair.ghost else "",
                "position": claim.position, "data": {"dice": list(rolled)}}

    return _command(night=night, key=key, actor=actor, build=build)


def roll_undo(*, night: Night, claim: Claim, key, actor: str) -> Ack:
    """Take back this table's last roll (or its "done") of the round in play. Only this
    table's own entries: if taking it back would undo another table's too, the host decides."""

    def build(state: LiveNight) -> dict | Ack:
        answered = _table_claim(state, claim, "that undo")
        if answered is not None:
            return answered
        last = state.latest((Kind.ROLL, Kind.FINISH), table=claim.table)
        if last is None:
            raise IllegalMove("there is nothing to undo at this table this round")
        seqs, _ = state.plan_void(last.seq)
        others = [s for s in seqs if state.event(s).table != claim.table]
        if others:
            raise IllegalMove("undoing that roll would also undo another table's entries "
                              "(it rang the bell): ask the host to take it back")
        return {"kind": Kind.VOID, "table": claim.table, **_where(state),
                "position": claim.position, "data": {"seqs": seqs}}

    return _command(night=night, key=key, actor=actor, build=build)


def table_finish(*, night: Night, claim: Claim, key, actor: str) -> Ack:
    """After the bell: nobody was mid-roll, so this table stops rolling."""

    def build(state: LiveNight) -> dict | Ack:
        answered = _table_claim(state, claim, "that tap")
        if answered is not None:
            return answered
        return {"kind": Kind.FINISH, "table": claim.table, **_where(state),
                "position": claim.position}

    return _command(night=night, key=key, actor=actor, build=build)


# -- the host's take-backs ----------------------------------------------------------------------

def take_back_target(state: LiveNight, what: str | int) -> Event:
    """The event a take-back names: a sequence number, ``bell`` (the host's bell, or the roll
    that rang it) or ``close`` (the entry that closed the round)."""
    if what == "bell":
        if state.bell_by is None:
            raise IllegalMove("no bell has rung this round")
        return state.event(state.bell_by)
    if what == "close":
        if state.closed_by is None or state.room is not None:
            raise IllegalMove("no round has closed since the last bell")
        return state.event(state.closed_by)
    try:
        seq = int(what)
    except (TypeError, ValueError):
        raise IllegalMove("pick an entry to take back") from None
    event = state.event(seq)
    if event is None:
        raise IllegalMove(f"#{seq} is not in the round in play (or the one just closed); "
                          "earlier rounds can no longer be changed")
    if event.kind not in CORRECTABLE:
        raise IllegalMove(f"#{seq} is not a roll, a bell or a table's finish")
    if seq in state.voided:
        raise IllegalMove(f"#{seq} was already taken back")
    return event


@dataclass
class TakeBack:
    """What taking back an entry would change, for the host to confirm."""

    target: Event
    seqs: list[int]
    before: LiveNight
    after: LiveNight


def take_back_preview(*, night: Night, what: str | int) -> TakeBack:
    with folds.lock(night.pk):
        state = live_state(night)
        try:
            target = take_back_target(state, what)
            seqs, after = state.plan_void(target.seq)
        except IllegalMove as exc:
            raise CommandRefused(str(exc)) from None
    return TakeBack(target, seqs, state, after)


@_refuse_on_domain_errors
def event_void(*, night: Night, seq: int | str, key=None, actor: str = "host") -> Ack:
    """The host takes back an entry of the round in play (or of the round just closed, until
    the next round starts): a roll, the bell, a table's "done", or the entry that closed the
    round. Later bells, rolls and "done"s that no longer fit without it go with it, as the
    preview showed."""

    def build(state: LiveNight) -> dict:
        target = take_back_target(state, seq)
        seqs, _ = state.plan_void(target.seq)
        return {"kind": Kind.VOID, "table": target.table, **_where(state),
                "data": {"seqs": seqs}}

    return _command(night=night, key=key, actor=actor, build=build)


@_refuse_on_domain_errors
def night_end(*, night: Night, key=None, actor: str = "host") -> ScoreEvent:
    return _command(night=night, key=key, actor=actor,
                    build=lambda s: {"kind": Kind.NIGHT_ENDED, **_where(s)}).row


@_refuse_on_domain_errors
def prize_roll_off(*, night: Night, category: str, contenders: Sequence[str],
                   winner: str | None, rng: random.Random | None = None, key=None) -> str:
    """Settle a tied prize (or a set's): the host enters the roll-off's winner, or the app
    rolls the way the rules roll off a prize."""
    from scoring.awards import settle_roll_off

    if not contenders:
        raise CommandRefused("that prize has no tie to roll off")
    if winner is None:
        winner = settle_roll_off(night.rules, list(contenders), rng or random.SystemRandom(),
                                 category=category.rsplit(":", 1)[-1])
    elif winner not in contenders:
        raise CommandRefused(f"{winner} is not tied for that prize")
    _command(night=night, key=key, actor="host", build=_simple(
        Kind.ROLL_OFF, data={"category": category, "winner": winner}))
    return winner


@_refuse_on_domain_errors
def prize_split(*, night: Night, category: str, can_split: bool, key=None) -> None:
    """The players tied for a prize chose to share its money (seed 004: "they can decide how
    they would like to divvy up the prize money"). A named prize cannot be split."""
    if not can_split:
        raise CommandRefused("that prize cannot be split: it goes to one person, by a roll-off")
    _command(night=night, key=key, actor="host", build=_simple(
        Kind.ROLL_OFF, data={"category": category, "split": True}))


@_refuse_on_domain_errors
def prize_reveal(*, night: Night, key=None) -> int:
    """Show the next prize on the TV (after the last one, start the reveal over)."""

    def build(state: LiveNight) -> dict:
        total = len(state.rules.awards)
        count = state.revealed + 1 if state.revealed < total else 0
        return {"kind": Kind.REVEALED, "data": {"count": count}}

    return _command(night=night, key=key, actor="host", build=build).state.revealed


def demo_night_create(*, rules_id: str = "babz") -> Night:
    """Twelve sample players, seated, ready for the first bell."""
    night = night_create(name="Demo night", rules_id=rules_id, entry_fee_cents=1000,
                         player_names=sample_names(12))
    night_seat(night=night)
    return night


# -- a night from its file ----------------------------------------------------------------------

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
    except (_FileError, RulesError, ValueError) as exc:
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


def _when(text):
    try:
        return parse_datetime(text) if isinstance(text, str) else None
    except ValueError:
        return None
