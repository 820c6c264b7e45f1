"""Demo nights out of the season, and archived nights.

A demo night ("Try a demo night": twelve sample players) was a night like any other, so its
sample players were people of the season, and a real guest called Ava shared a person with the
demo's Ava. Nights made that way (the demo's name and exactly its sample players) are marked
``demo``; their players belong to no person, and a person left with no player is removed."""

from django.db import migrations, models

from scoring import sample_names

DEMO_NAME = "Demo night"


def mark_demo_nights(apps, schema_editor):
    Night = apps.get_model("bunco", "Night")
    Player = apps.get_model("bunco", "Player")
    Person = apps.get_model("bunco", "Person")
    sample = sorted(sample_names(12))
    for night in Night.objects.filter(name=DEMO_NAME):
        players = Player.objects.filter(night=night)
        if sorted(players.values_list("name", flat=True)) != sample:
            continue
        Night.objects.filter(pk=night.pk).update(demo=True)
        people = set(players.exclude(person=None).values_list("person_id", flat=True))
        players.update(person=None)
        Person.objects.filter(pk__in=people, players__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('bunco', '0013_late_arrivals_are_here'),
    ]

    operations = [
        migrations.AddField(
            model_name='night',
            name='archived_at',
            field=models.DateTimeField(blank=True, help_text="archived: off the host's main list, still in the season", null=True),
        ),
        migrations.AddField(
            model_name='night',
            name='demo',
            field=models.BooleanField(default=False, help_text='a demo night of sample players: never in the season'),
        ),
        migrations.RunPython(mark_demo_nights, migrations.RunPython.noop),
    ]
