"""A short code the TV is opened with (typed at /tv/)."""

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
        ("bunco", "0007_where_events_belong"),
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
    ]
