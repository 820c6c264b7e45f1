"""Writes for the night: one function per command. Each validates against the rules engine,
appends to the score log inside one transaction, and broadcasts after commit."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Sequence

from django.db import IntegrityError, transaction

from bunco.live import (
    ARRIVED,
    BELL,
    LEFT,
    NIGHT_ENDED,
    PAUSED,
    RENAMED,
    RESUMED,
    ROLL,
    ROUND_STARTED,
    SEATED,
    VOID,
    Event,
    LiveNight,
    cache,
    fold,
    tables_to_data,
)
from bunco.models import Night, Person, Player
from bunco.selectors import live_state, log_events, stamp
from scoring import PRESETS, HouseRules, IllegalMove, RulesError, sample_names, seat_night
from scoring.seating import clean_names
from tables.models import ScoreEvent, TableLink


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
    if key is None:
        return uuid.uuid4()
    try:
        return key if isinstance(key, uuid.UUID) else uuid.UUID(str(key))
    except ValueError:
        raise CommandRefused("this tap carried a broken id; reload the page") from None


def event_append(
    *,
    night: Night,
    kind: str,
    key: str | uuid.UUID | None,
    actor: str,
    table: int | None = None,
    data: dict | None = None,
    check: Callable[[LiveNight], None] | None = None,
) -> tuple[ScoreEvent, bool]:
    """Append one event to the log. Returns (event, applied); a repeated idempotency key is
    acknowledged with the first event and ``applied`` False. Raises CommandRefused when the
    command does not fit the night's state: then nothing is written."""
    key = _key(key)
    data = data or {}
    with transaction.atomic():
        locked = Night.objects.select_for_update().get(pk=night.pk)
        existing = ScoreEvent.objects.filter(night=locked, key=key).first()
        if existing is not None:
            return existing, False
        state = live_state(locked)
        event = Event(seq=locked.last_seq + 1, kind=kind, table=table, data=data, actor=actor)
        try:
            if check is not None:
                check(state)
            if kind == VOID:
                refolded = fold(locked.rules, [*log_events(locked), event])
            else:
                state.apply(event)
        except (IllegalMove, ValueError) as exc:
            raise CommandRefused(str(exc)) from None
        try:
            row = ScoreEvent.objects.create(
                night=locked, seq=event.seq, key=key, kind=kind, table=table, data=data,
                actor=actor[:60],
            )
            locked.last_seq = event.seq
            locked.save(update_fields=["last_seq"])
        except IntegrityError:
            cache.drop(night.pk)
            raise CommandRefused("that tap crossed another one; please try again") from None
        except Exception:
            cache.drop(night.pk)
            raise
        if kind == VOID:
            cache.put(night.pk, stamp(refolded, locked))
        night.last_seq = locked.last_seq
        transaction.on_commit(lambda: _broadcast(night.pk, kind, table))
    return row, True


def _broadcast(night_id: int, kind: str, table: int | None) -> None:
    from bunco.broadcast import night_changed

    night_changed(night_id, kind=kind, table=table)


# -- setting up ---------------------------------------------------------------------------------

@_refuse_on_domain_errors
def night_create(
    *,
    name: str,
    rules_id: str,
    rules: HouseRules | None = None,
    entry_fee_cents: int = 0,
    player_names: Sequence[str] = (),
) -> Night:
    name = " ".join((name or "").split())
    if not name:
        raise CommandRefused("give the night a name, e.g. \"March Bunco\"")
    if rules_id not in PRESETS:
        raise CommandRefused(f"unknown house rules {rules_id!r}")
    if entry_fee_cents < 0:
        raise CommandRefused("the entry fee cannot be negative")
    rules = rules or PRESETS[rules_id]
    with transaction.atomic():
        night = Night.objects.create(
            name=name[:80], rules_id=rules_id, rules_json=rules.to_dict(),
            entry_fee_cents=entry_fee_cents,
        )
        if player_names:
            players_add(night=night, names=player_names)
    return night


@_refuse_on_domain_errors
def night_update_rules(*, night: Night, rules: HouseRules, entry_fee_cents: int | None = None,
                       name: str | None = None) -> Night:
    if live_state(night).started:
        raise CommandRefused("the house rules are fixed once the first round has started")
    night.rules_json = rules.to_dict()
    if entry_fee_cents is not None:
        if entry_fee_cents < 0:
            raise CommandRefused("the entry fee cannot be negative")
        night.entry_fee_cents = entry_fee_cents
    if name is not None and name.strip():
        night.name = " ".join(name.split())[:80]
    night.save()
    cache.drop(night.pk)
    return night


@_refuse_on_domain_errors
def awards_update(*, night: Night, awards: list[dict], award_ties: str,
                  one_prize_per_person: bool, pot_cents: int | None) -> Night:
    """The prize list, before or during the night (play does not depend on it)."""
    if live_state(night).ended:
        raise CommandRefused("the night has ended: its prizes are settled")
    if pot_cents is not None and pot_cents < 0:
        raise CommandRefused("the pot cannot be negative")
    rules = night.rules.replace(awards=awards, award_ties=award_ties,
                                one_prize_per_person=one_prize_per_person)
    night.rules_json = rules.to_dict()
    night.pot_cents = pot_cents
    night.save(update_fields=["rules_json", "pot_cents"])
    return night


@_refuse_on_domain_errors
def night_again(*, night: Night) -> Night:
    """A new night with the last one's players and rules."""
    names = [p.name for p in night.players.all()]
    again = night_create(name=f"{night.name} (next)", rules_id=night.rules_id,
                         rules=night.rules, entry_fee_cents=night.entry_fee_cents,
                         player_names=names)
    return again


@_refuse_on_domain_errors
def players_add(*, night: Night, names: Sequence[str]) -> list[Player]:
    """Check players in (a pasted list, one name a line). Before the seating only."""
    if live_state(night).seated:
        raise CommandRefused("players are already seated; clear the seating to add players")
    names = [n for n in names if n.strip()]
    if not names:
        raise CommandRefused("type at least one name")
    existing = list(night.players.values_list("name", flat=True))
    cleaned = clean_names([*existing, *names])[len(existing):]
    start = len(existing)
    with transaction.atomic():
        return [Player.objects.create(night=night, name=n, position=start + i,
                                      person=person_for(n))
                for i, n in enumerate(cleaned)]


def person_for(name: str) -> Person:
    """The person a checked-in name belongs to: the one who last played under that name."""
    earlier = (Player.objects.filter(name__iexact=name, person__isnull=False)
               .select_related("person").order_by("-night__created_at").first())
    return earlier.person if earlier else Person.objects.create(name=name)


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
    if live_state(night).seated:
        raise CommandRefused("players are already seated")
    player.delete()


@_refuse_on_domain_errors
def player_rename(*, night: Night, player: Player, name: str, key=None) -> Player:
    """Fix a typo in a name: before seating, or at any time after (logged, and fixed in the
    rounds already played too)."""
    others = list(night.players.exclude(pk=player.pk).values_list("name", flat=True))
    (clean,) = clean_names([*others, name])[len(others):]
    if clean == player.name:
        return player
    with transaction.atomic():
        old = player.name
        player.name = clean
        player.save(update_fields=["name"])
        if live_state(night).seated:
            event_append(night=night, kind=RENAMED, key=key, actor="host",
                         data={"old": old, "new": clean})
    return player


@_refuse_on_domain_errors
def player_arrive(*, night: Night, name: str, key=None) -> Player:
    """A late arrival takes a ghost's chair from the next round on."""
    state = live_state(night)
    if not state.seated:
        (player,) = players_add(night=night, names=[name])
        return player
    ghost = state.next_ghost()
    if ghost is None:
        raise CommandRefused("there is no ghost's chair to take: every seat has a player")
    existing = list(night.players.values_list("name", flat=True))
    (clean,) = clean_names([*existing, name])[len(existing):]
    with transaction.atomic():
        player = Player.objects.create(night=night, name=clean, position=len(existing),
                                       person=person_for(clean))
        event_append(night=night, kind=ARRIVED, key=key, actor="host",
                     data={"name": clean, "ghost": ghost})
    return player


@_refuse_on_domain_errors
def player_leave(*, night: Night, player: Player, key=None) -> None:
    """A player goes home: a ghost takes their chair from the next round; what they earned
    stays theirs."""
    state = live_state(night)
    if not state.seated:
        player_remove(night=night, player=player)
        return
    if player.left_early:
        raise CommandRefused(f"{player.name} has already left")
    with transaction.atomic():
        event_append(night=night, kind=LEFT, key=key, actor="host",
                     data={"name": player.name, "ghost": state.new_ghost_name()})
        player.left_early = True
        player.save(update_fields=["left_early"])


@_refuse_on_domain_errors
def game_pause(*, night: Night, key=None) -> ScoreEvent:
    row, _ = event_append(night=night, kind=PAUSED, key=key, actor="host")
    return row


@_refuse_on_domain_errors
def game_resume(*, night: Night, key=None) -> ScoreEvent:
    row, _ = event_append(night=night, kind=RESUMED, key=key, actor="host")
    return row


@_refuse_on_domain_errors
def night_seat(*, night: Night, key=None, actor: str = "host",
               rng: random.Random | None = None) -> ScoreEvent:
    """Seat everyone at random (or by the starred-sheets draw); ghosts fill the gaps."""
    names = list(night.players.values_list("name", flat=True))
    rules = night.rules
    rules.check_player_count(len(names))
    tables = seat_night(rules, names, rng or random.Random())
    with transaction.atomic():  # the links exist before anyone is told about the seating
        _ensure_table_links(night, len(tables))
        row, _ = event_append(night=night, kind=SEATED, key=key, actor=actor,
                              data={"tables": tables_to_data(tables)})
    return row


@_refuse_on_domain_errors
def seats_swap(*, night: Night, first: str, second: str, key=None,
               actor: str = "host") -> ScoreEvent:
    """Swap two people's chairs before the first round."""
    state = live_state(night)
    if not state.seated:
        raise CommandRefused("seat the players first")
    data = tables_to_data(state.tables)
    chairs = {s["name"]: s for t in data for s in t["seats"]}
    if first not in chairs or second not in chairs or first == second:
        raise CommandRefused("pick two different seated people to swap")
    a, b = chairs[first], chairs[second]
    a["name"], b["name"] = b["name"], a["name"]
    a["ghost"], b["ghost"] = b["ghost"], a["ghost"]
    for table in data:  # a ghost may not end up partnering a ghost
        seats = table["seats"]
        if (len(seats) == 4 and not table["individuals"]
                and any(seats[i]["ghost"] and seats[i + 2]["ghost"] for i in range(2))):
            raise CommandRefused("that swap would make two ghosts partners")
    row, _ = event_append(night=night, kind=SEATED, key=key, actor=actor, data={"tables": data})
    return row


def _ensure_table_links(night: Night, count: int) -> None:
    for number in range(1, count + 1):
        TableLink.objects.get_or_create(night=night, number=number)


# -- running the night --------------------------------------------------------------------------

@_refuse_on_domain_errors
def round_start(*, night: Night, key=None, actor: str = "host") -> ScoreEvent:
    """The head table's bell that starts a round."""
    row, applied = event_append(night=night, kind=ROUND_STARTED, key=key, actor=actor)
    if applied and night.status != Night.Status.PLAYING:
        Night.objects.filter(pk=night.pk).update(status=Night.Status.PLAYING)
        night.status = Night.Status.PLAYING
    return row


@_refuse_on_domain_errors
def bell_ring(*, night: Night, key=None, actor: str = "host") -> ScoreEvent:
    """The host's bell (or horn) that ends the round in play at every table."""
    row, _ = event_append(night=night, kind=BELL, key=key, actor=actor)
    return row


@_refuse_on_domain_errors
def event_void(*, night: Night, seq: int, key=None, actor: str = "host") -> ScoreEvent:
    """A correction: the roll ``seq`` no longer counts. Only rolls of the round in play can be
    voided, and only if every later tap still fits without it."""
    target = ScoreEvent.objects.filter(night=night, seq=seq).first()
    if target is None or target.kind != ROLL:
        raise CommandRefused(f"there is no roll #{seq} to correct")

    def check(state: LiveNight) -> None:
        if seq in state.voided:
            raise IllegalMove(f"roll #{seq} was already taken back")
        if state.room is None or seq <= state.round_start_seq:
            raise IllegalMove("that round is closed; only the round in play can be corrected")

    row, _ = event_append(night=night, kind=VOID, key=key, actor=actor, table=target.table,
                          data={"seq": seq}, check=check)
    return row


@_refuse_on_domain_errors
def night_end(*, night: Night, key=None, actor: str = "host") -> ScoreEvent:
    row, _ = event_append(night=night, kind=NIGHT_ENDED, key=key, actor=actor)
    Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
    night.status = Night.Status.FINISHED
    return row


def demo_night_create(*, rules_id: str = "babz") -> Night:
    """Twelve sample players, seated, ready for the first bell."""
    night = night_create(name="Demo night", rules_id=rules_id, entry_fee_cents=1000,
                         player_names=sample_names(12))
    night_seat(night=night)
    return night
