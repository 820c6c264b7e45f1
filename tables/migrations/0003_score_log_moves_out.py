"""The score log and the table links now belong to the core app (bunco 0006); their database
tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0002_roster"),
        ("bunco", "0006_score_log_moves_in"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="ScoreEvent"),
                migrations.DeleteModel(name="TableLink"),
            ],
        ),
    ]
