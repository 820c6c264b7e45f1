"""python manage.py restore_night FILE (``bunco restore-night FILE``): open a night file.

The laptop that ran the night died: on another one (Bunco installed, not running yet) open the
night's latest file, from the copy folder (``--copy-to``) or saved from the host's browser. A
night whose links are free here keeps them, so the phones and the TV carry on once Bunco is
started on the same address.
"""

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from bunco.laptop import backup
from bunco.management.commands.restore import Command as Restore


class Command(BaseCommand):
    help = "Open a night file (downloaded, saved from the host's page or in the copy folder)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the night's .json file")

    def handle(self, *args, file, **options):
        path = Path(file)
        if path.is_dir():
            raise CommandError(f"{path} is a folder: name the night's .json file in it")
        call_command("migrate", interactive=False, verbosity=0)  # a fresh install is ready
        restore = Restore(stdout=self.stdout, stderr=self.stderr)
        restore.style = self.style
        restore.open_night(path)
        backup.copy_wait()  # with a copy folder set, the night's file is there before exit
