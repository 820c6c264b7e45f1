"""python -m bunco: the ``bunco`` command (bunco/cli.py)."""

import sys

from bunco.cli import main

sys.exit(main())
