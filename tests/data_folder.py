"""Each test run keeps its data in a folder of its own, never the checkout's ``var/`` (the
folder ``make run`` uses, which a second run at the same time would share too).

Loaded with ``-p tests.data_folder`` (pyproject's addopts), so it runs before pytest-django
reads the settings: the settings read ``BUNCO_DATA_DIR`` once, at import. The xdist workers
inherit the folder from the run that started them; the run that made it removes it at the end.
"""

import os
import shutil
import tempfile

MADE_HERE = "BUNCO_DATA_DIR" not in os.environ
if MADE_HERE:
    os.environ["BUNCO_DATA_DIR"] = tempfile.mkdtemp(prefix="bunco-tests-")


def pytest_unconfigure(config):
    if MADE_HERE and not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ["BUNCO_DATA_DIR"], ignore_errors=True)
