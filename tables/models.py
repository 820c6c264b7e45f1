"""The score log (the truth of play) and the join links of the tables."""

from django.db import models

from bunco.models import Night, new_token


class TableLink(models.Model):
    """The capability a table's own device (or QR code) uses to score that table."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="table_links")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True, default=new_token)

    class Meta:
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
    """One appended, never edited change of play. Tallies, turns, W/L and rotation are all
    derived by folding these rows, in ``seq`` order, through the rules engine."""

    class Kind(models.TextChoices):
        SEATED = "seated", "Seated"
        ROUND_STARTED = "round_started", "Round started"
        ROLL = "roll", "Roll"
        FINISH = "finish", "Finished after the bell"
        BELL = "bell", "Host's bell"
        VOID = "void", "Correction (void)"
        ARRIVED = "arrived", "Late arrival"
        LEFT = "left", "Left early"
        RENAMED = "renamed", "Name fixed"
        PAUSED = "paused", "Paused"
        RESUMED = "resumed", "Resumed"
        NIGHT_ENDED = "night_ended", "Night ended"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="per-night, gap-free, given inside the write")
    key = models.UUIDField(help_text="client-made idempotency key")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    actor = models.CharField(max_length=60, blank=True, help_text="who entered it")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ScoreEventQuerySet.as_manager()

    class Meta:
        ordering = ["night", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["night", "seq"], name="unique_seq_per_night"),
            models.UniqueConstraint(fields=["night", "key"], name="unique_key_per_night"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"
