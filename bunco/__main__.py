"""python -m bunco: the ``bunco`` command (bunco/laptop/cli.py)."""

import sys

from bunco.laptop.cli import main

sys.exit(main())
