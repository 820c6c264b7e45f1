"""The score log and the table links move into the core app. Only Django's record of which app
owns them changes: the tables keep their names and rows."""

import django.db.models.deletion
from django.db import migrations, models

import bunco.models


class Migration(migrations.Migration):

    dependencies = [
        ("bunco", "0005_people"),
        ("tables", "0002_roster"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="ScoreEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("seq", models.PositiveIntegerField(
                            help_text="per-night, gap-free, given inside the write")),
                        ("key", models.UUIDField(help_text="client-made idempotency key")),
                        ("kind", models.CharField(max_length=16)),
                        ("table", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("data", models.JSONField(blank=True, default=dict)),
                        ("actor", models.CharField(blank=True, help_text="who entered it",
                                                   max_length=60)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("night", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE, related_name="events",
                            to="bunco.night")),
                    ],
                    options={
                        "db_table": "tables_scoreevent",
                        "ordering": ["night", "seq"],
                        "constraints": [
                            models.UniqueConstraint(fields=("night", "seq"),
                                                    name="unique_seq_per_night"),
                            models.UniqueConstraint(fields=("night", "key"),
                                                    name="unique_key_per_night"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="TableLink",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("number", models.PositiveSmallIntegerField()),
                        ("token", models.CharField(default=bunco.models.new_token,
                                                   max_length=32, unique=True)),
                        ("night", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="table_links", to="bunco.night")),
                    ],
                    options={
                        "db_table": "tables_tablelink",
                        "ordering": ["number"],
                        "constraints": [
                            models.UniqueConstraint(fields=("night", "number"),
                                                    name="unique_table_per_night"),
                        ],
                    },
                ),
            ],
        ),
    ]
