"""The app's version, from one place: pyproject.toml's ``version``.

A checkout (and the single-file app, whose build puts pyproject.toml beside the package) reads
the file itself, so a version changed there shows at once; an installed wheel reads its own
metadata, which the build took from the same line.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@functools.cache
def version() -> str:
    """``0.1.0``; ``unknown`` if neither pyproject.toml nor the metadata can be read."""
    try:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
        if project.get("name") == "bunco":
            return str(project["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    try:
        return metadata.version("bunco")
    except metadata.PackageNotFoundError:
        return "unknown"
