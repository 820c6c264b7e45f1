"""A late arrival the host added after the seating was written without ``arrived_at``, so the
pot (entry fee x players here) left their fee out and the host's list called them "not here
yet". Every such player took a ghost's chair: they arrived when their ``arrived`` event was
written."""

from django.db import migrations


def late_arrivals_here(apps, schema_editor):
    Player = apps.get_model("bunco", "Player")
    ScoreEvent = apps.get_model("bunco", "ScoreEvent")
    for player in Player.objects.filter(arrived_at__isnull=True, expected=False):
        event = ScoreEvent.objects.filter(
            night_id=player.night_id, kind="arrived", data__name=player.name).first()
        if event is not None:
            Player.objects.filter(pk=player.pk).update(arrived_at=event.created_at)


class Migration(migrations.Migration):

    dependencies = [
        ('bunco', '0012_night_join_code'),
    ]

    operations = [
        migrations.RunPython(late_arrivals_here, migrations.RunPython.noop),
    ]
