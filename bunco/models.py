"""The night's data: the night, its players, the tables' join links and the score log.

The score log (``ScoreEvent``) is the truth; the other rows are projections of it written in
the same transaction as the log row (see ``bunco.night.services``)."""

import secrets

from django.db import models

from bunco.night.fold import Kind
from scoring import HouseRules


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def new_tv_code() -> str:
    """A short code a person types on a TV's browser: digits, for a remote's number keys.
    Unique among nights; four digits while they last."""
    for digits in (4,) * 8 + (6,) * 8:
        code = "".join(secrets.choice("0123456789") for _ in range(digits))
        if not Night.objects.filter(tv_code=code).exists():
            return code
    return secrets.token_hex(5)


def new_join_code() -> str:
    """A short code a guest types on the home page when their camera will not scan the QR
    code: digits, for a phone's number pad, one more than the TV's so the two are not mixed
    up. Unique among nights; five digits while they last."""
    for digits in (5,) * 8 + (7,) * 8:
        code = "".join(secrets.choice("0123456789") for _ in range(digits))
        if not Night.objects.filter(join_code=code).exists():
            return code
    return str(secrets.randbelow(10**12)).zfill(12)


class NightQuerySet(models.QuerySet):
    def open(self):
        return self.exclude(status=Night.Status.FINISHED).filter(archived_at__isnull=True)

    def listed(self):
        """The host's list of nights: the archived ones are under "Archived"."""
        return self.filter(archived_at__isnull=True)

    def archived(self):
        return self.filter(archived_at__isnull=False)

    def in_season(self):
        """The nights the season counts: every real night, archived or not; never a demo."""
        return self.filter(demo=False)


class Night(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=80)
    rules_id = models.CharField(max_length=40, help_text="the preset the rules started from")
    rules_json = models.JSONField(help_text="HouseRules.to_dict(), validated by scoring")
    entry_fee_cents = models.PositiveIntegerField(default=0)
    pot_cents = models.PositiveIntegerField(
        null=True, blank=True, help_text="a pot the host typed; otherwise entry fee x players")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    tv_token = models.CharField(max_length=32, unique=True, default=new_token)
    join_token = models.CharField(max_length=32, unique=True, default=new_token)
    tv_code = models.CharField(max_length=12, unique=True, default=new_tv_code,
                               help_text="typed on a TV's browser at /tv/ to open the TV page")
    join_code = models.CharField(
        max_length=12, unique=True, default=new_join_code,
        help_text="typed by a guest on the home page to open the night's find-your-seat page")
    last_seq = models.PositiveIntegerField(default=0, help_text="the log's last sequence number")
    roll_offs = models.JSONField(default=dict, blank=True,
                                 help_text="prize category -> winner of its roll-off")
    revealed = models.PositiveSmallIntegerField(default=0, help_text="prizes shown on the TV")
    check_in_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="after this the desk checks nobody in (the log's copy)")
    demo = models.BooleanField(
        default=False, help_text="a demo night of sample players: never in the season")
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="archived: off the host's main list, still in the season")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules_json)


class Person(models.Model):
    """Someone who comes back night after night. Players are matched to a person by name when
    they check in; the host can merge two people or split a player off."""

    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def here(self):
        """Players who have arrived (everyone but pre-registered guests not checked in)."""
        return self.filter(arrived_at__isnull=False)

    def not_here(self):
        return self.filter(arrived_at__isnull=True)


class Player(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="players")
    person = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="players")
    name = models.CharField(max_length=40)
    token = models.CharField(max_length=32, unique=True, default=new_token)
    position = models.PositiveIntegerField(default=0, help_text="order of check-in")
    left_early = models.BooleanField(default=False, help_text="a ghost took their chair")
    device = models.CharField(max_length=64, blank=True,
                              help_text="the phone that claimed this player (its secret's hash)")
    expected = models.BooleanField(
        default=False, help_text="pre-registered: checks in at the desk with a printed card")
    arrived_at = models.DateTimeField(
        null=True, blank=True, help_text="when they checked in; empty: expected, not here yet")
    drawn_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the table drawn at the desk before the seating")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "name"], name="unique_player_name_per_night"),
        ]

    def __str__(self) -> str:
        return self.name


class TableLink(models.Model):
    """The capability a table's own device (or QR code) uses to score that table."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="table_links")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True, default=new_token)

    class Meta:
        db_table = "tables_tablelink"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="unique_table_per_night"),
        ]

    def __str__(self) -> str:
        return f"{self.night} table {self.number}"


class ScoreEventQuerySet(models.QuerySet):
    def after(self, seq: int):
        return self.filter(seq__gt=seq).order_by("seq")


class ScoreEvent(models.Model):
    """One appended, never edited change of the night. Tallies, turns, W/L, rotation and
    prizes are all derived by folding these rows, in ``seq`` order (``bunco.night.fold``)."""

    Kind = models.TextChoices("Kind", [(k.name, (k.value, k.name.replace("_", " ").lower()))
                                       for k in Kind])

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="per-night, gap-free, given inside the write")
    key = models.UUIDField(help_text="client-made idempotency key")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    set_number = models.PositiveSmallIntegerField(null=True, blank=True)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.CharField(max_length=40, blank=True, help_text="who rolled")
    ghost = models.CharField(max_length=40, blank=True, help_text="the ghost rolled for")
    position = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="the table's position the tap was made at")
    data = models.JSONField(default=dict, blank=True)
    actor = models.CharField(max_length=60, blank=True, help_text="who entered it")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ScoreEventQuerySet.as_manager()

    class Meta:
        db_table = "tables_scoreevent"
        ordering = ["night", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["night", "seq"], name="unique_seq_per_night"),
            models.UniqueConstraint(fields=["night", "key"], name="unique_key_per_night"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class HostCall(models.Model):
    """A table asking the host to come over ("Host, please come to table 4": a dispute, a
    spilled drink). Not an event of the score log: it changes nothing of the game, is never
    replayed or taken back, and a finished night's file does not need it. It is kept in the
    database (a page reload or a server restart still shows it) until the host answers: "On
    my way" or dismissed. A table has at most one call waiting: pressing again is the same
    call."""

    class Answer(models.TextChoices):
        COMING = "coming", "On my way"
        DISMISSED = "dismissed", "Dismissed"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="host_calls")
    table = models.PositiveSmallIntegerField()
    by = models.CharField(max_length=60, help_text="the phone that called: the table's or a "
                                                   "player's")
    answer = models.CharField(max_length=10, choices=Answer.choices, blank=True)
    created_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(help_text="the call's last change: its screens' data-seq")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "table"],
                                    condition=models.Q(answered_at__isnull=True),
                                    name="one_waiting_call_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.night} table {self.table} calls the host"
