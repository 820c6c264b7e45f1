"""python manage.py backup: a consistent snapshot of the database now (SQLite's online
backup, safe while the app is running). The app also takes one after every round."""

from django.core.management.base import BaseCommand, CommandError

from bunco.laptop import backup


class Command(BaseCommand):
    help = "Take a snapshot of the database now (safe while the app is running)."

    def handle(self, *args, **options):
        path = backup.snapshot("manual")
        if path is None:
            database = backup.database_file()
            if database is not None:
                raise CommandError(f"there is no database to snapshot yet ({database}): it is "
                                   "made when Bunco first starts")
            raise CommandError("snapshots are for the built-in SQLite database; on PostgreSQL "
                               "use pg_dump")
        self.stdout.write(self.style.SUCCESS(f"Saved {path}"))
