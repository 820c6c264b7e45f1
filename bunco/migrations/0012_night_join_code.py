"""Every night gets a short join code, which a guest types on the home page; the nights
already there get theirs here, each unique."""

import secrets

from django.db import migrations, models

import bunco.models


def give_codes(apps, schema_editor):
    Night = apps.get_model("bunco", "Night")
    taken = set()
    for night in Night.objects.filter(join_code__isnull=True).only("pk"):
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice("0123456789") for _ in range(5 if len(taken) < 50_000
                                                                        else 7))
        taken.add(code)
        Night.objects.filter(pk=night.pk).update(join_code=code)


class Migration(migrations.Migration):

    dependencies = [
        ("bunco", "0011_desk"),
    ]

    operations = [
        migrations.AddField(
            model_name="night",
            name="join_code",
            field=models.CharField(max_length=12, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="night",
            name="join_code",
            field=models.CharField(
                default=bunco.models.new_join_code,
                help_text="typed by a guest on the home page to open the night's "
                          "find-your-seat page",
                max_length=12, unique=True),
        ),
    ]
