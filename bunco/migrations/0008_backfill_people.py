"""Players checked in before people were kept (0005) get their person: the same person as an
earlier player of the same name (case aside), else a new one. Without this they would be
missing from the season."""

from django.db import migrations


def backfill(apps, schema_editor):
    Player = apps.get_model("bunco", "Player")
    Person = apps.get_model("bunco", "Person")
    by_name = {}
    for player in Player.objects.filter(person__isnull=False).order_by("night__created_at", "pk"):
        by_name[player.name.casefold()] = player.person_id
    for player in Player.objects.filter(person__isnull=True).order_by("night__created_at", "pk"):
        key = player.name.casefold()
        if key not in by_name:
            by_name[key] = Person.objects.create(name=player.name).pk
        player.person_id = by_name[key]
        player.save(update_fields=["person"])


class Migration(migrations.Migration):

    dependencies = [
        ("bunco", "0007_where_events_belong"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
