"""python manage.py restore: put back a database snapshot, or open a night file.

  manage.py restore --list                 the snapshots kept (newest first)
  manage.py restore latest                 the newest snapshot over the database
  manage.py restore var/backups/X.sqlite3  that snapshot over the database
  manage.py restore March-night.json       a downloaded night, added as a new night (also
                                           ``manage.py restore_night``)

Stop the app (Ctrl+C on ``make run``) before putting a snapshot back; the database as it was
is kept as a snapshot of its own first, so a restore can be undone.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bunco.laptop import backup
from bunco.night import services


class Command(BaseCommand):
    help = "Put back a database snapshot (taken after every round) or open a night file."

    def add_arguments(self, parser):
        parser.add_argument("source", nargs="?", help="'latest', a .sqlite3 snapshot or a "
                            "night .json file")
        parser.add_argument("--list", action="store_true", dest="show_list",
                            help="list the snapshots kept")

    def handle(self, *args, source=None, show_list=False, **options):
        if show_list or not source:
            for path in backup.snapshots():
                self.stdout.write(f"{path}  ({path.stat().st_size // 1024} KiB)")
            if not source:
                return
        if source.endswith(".json"):
            self.open_night(Path(source))
            return
        database = backup.database_file()
        if database is None:
            raise CommandError("snapshots are for the built-in SQLite database; on PostgreSQL "
                               "use its own backups (pg_dump / pg_restore)")
        if source == "latest":
            kept = backup.snapshots()
            if not kept:
                raise CommandError(f"no snapshots yet in {backup.folder()}")
            path = kept[0]
        else:
            path = Path(source)
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        undo = backup.snapshot("before-restore")
        try:
            backup.restore(path, database)
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {path.name}."))
        if undo:
            self.stdout.write(f"The database as it was is kept in {undo}")

    def open_night(self, path: Path) -> None:
        try:
            data = backup.read_night_file(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CommandError(f"{path} is not a night file ({exc})") from None
        try:
            night = services.night_restore(data=data)
        except services.CommandRefused as exc:
            raise CommandError(f"{path} could not be opened: {exc}") from None
        self.stdout.write(self.style.SUCCESS(
            f"Opened {night.name!r} as night {night.pk}: /host/nights/{night.pk}/"))
        self.stdout.write(LINKS[night.links])
        if night.freed:
            self.stdout.write("This laptop's address is not the one the phones knew: every "
                              "guest scans the new code and taps their name again.")


LINKS = {
    "kept": "Same links as before: start Bunco and the phones and the TV carry on.",
    "taken": "This night is already on this laptop, so this copy has new links: phones and "
             "the TV scan its new codes (on its host page).",
    "new": "Its links are new (an older night file has none): phones and the TV scan its new "
           "codes (on its host page).",
}
