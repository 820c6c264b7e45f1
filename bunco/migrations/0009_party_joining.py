"""A short code the TV is opened with (typed at /tv/); the phone that claimed a player."""

from django.db import migrations, models

import bunco.models


def give_codes(apps, schema_editor):
    Night = apps.get_model("bunco", "Night")
    used = set()
    for night in Night.objects.all():
        code = bunco.models.new_tv_code()
        while code in used:
            code = bunco.models.new_tv_code()
        used.add(code)
        night.tv_code = code
        night.save(update_fields=["tv_code"])


class Migration(migrations.Migration):

    dependencies = [
        ("bunco", "0008_backfill_people"),
    ]

    operations = [
        migrations.AddField(
            model_name="night",
            name="tv_code",
            field=models.CharField(max_length=12, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="night",
            name="tv_code",
            field=models.CharField(default=bunco.models.new_tv_code,
                                   help_text="typed on a TV's browser at /tv/ to open the TV page",
                                   max_length=12, unique=True),
        ),
        migrations.AddField(
            model_name="player",
            name="device",
            field=models.CharField(blank=True, max_length=64,
                                   help_text="the phone that claimed this player (its secret's hash)"),
        ),
        migrations.AlterField(
            model_name="scoreevent",
            name="kind",
            field=models.CharField(choices=[
                ("created", "created"), ("rules", "rules"), ("prizes", "prizes"),
                ("added", "added"), ("removed", "removed"), ("seated", "seated"),
                ("round_started", "round started"), ("roll", "roll"), ("finish", "finish"),
                ("bell", "bell"), ("void", "void"), ("arrived", "arrived"), ("left", "left"),
                ("renamed", "renamed"), ("paused", "paused"), ("resumed", "resumed"),
                ("night_ended", "night ended"), ("roll_off", "roll off"),
                ("revealed", "revealed"), ("claimed", "claimed"), ("released", "released"),
            ], max_length=16),
        ),
    ]
