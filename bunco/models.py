"""The night and its players. Play itself lives in the score log (tables.models.ScoreEvent)."""

import secrets

from django.db import models

from scoring import HouseRules


def new_token() -> str:
    return secrets.token_urlsafe(12)


class NightQuerySet(models.QuerySet):
    def open(self):
        return self.exclude(status=Night.Status.FINISHED)


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
    last_seq = models.PositiveIntegerField(default=0, help_text="the log's last sequence number")
    roll_offs = models.JSONField(default=dict, blank=True,
                                 help_text="prize category -> winner of its roll-off")
    revealed = models.PositiveSmallIntegerField(default=0, help_text="prizes shown on the TV")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules_json)

    @property
    def pot(self) -> int:
        """The pot in cents: the amount the host typed, or the entry fee of every player."""
        if self.pot_cents is not None:
            return self.pot_cents
        return self.entry_fee_cents * self.players.count()


class Person(models.Model):
    """Someone who comes back night after night. Players are matched to a person by name when
    they check in; the host can merge two people or split a player off."""

    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="players")
    person = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="players")
    name = models.CharField(max_length=40)
    token = models.CharField(max_length=32, unique=True, default=new_token)
    position = models.PositiveIntegerField(default=0, help_text="order of check-in")
    left_early = models.BooleanField(default=False, help_text="a ghost took their chair")

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "name"], name="unique_player_name_per_night"),
        ]

    def __str__(self) -> str:
        return self.name
