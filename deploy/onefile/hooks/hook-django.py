"""Django for the single-file app, in place of PyInstaller's own hook: that one looks for a
``manage.py`` project next to the entry script (there is none: bunco_app.py) and collects
every submodule, GIS and the other databases' backends included, each of which it then warns
is missing. Here: the submodules a party laptop can reach, and Django's data files (the
admin's templates and static files, its English messages; bunco.spec drops the other
languages')."""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules

LEFT_OUT = ("django.contrib.gis", "django.contrib.postgres", "django.db.backends.postgresql",
            "django.db.backends.mysql", "django.db.backends.oracle")

hiddenimports = collect_submodules("django", filter=lambda name: not name.startswith(LEFT_OUT),
                                   on_error="ignore")
datas = collect_data_files("django", excludes=["**/__pycache__", "**/*.py[co]"])
