"""The build: pyproject.toml says everything but this.

templates/ and static/ live at the top of the checkout, where the app reads them when it runs
from one. A wheel holds only packages, so the build copies them into the package, as
bunco/_data/templates and bunco/_data/static, where an installed copy reads them
(bunco/laptop/__init__.py). MANIFEST.in puts them in the sdist, so a wheel built from it has
them too.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ASSETS = ("templates", "static")


class BuildWithAssets(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, which has the folders
        for name in ASSETS:
            source = ROOT / name
            if not source.is_dir():
                raise SystemExit(f"{source} is missing: build from a checkout or its sdist")
            shutil.copytree(source, Path(self.build_lib, "bunco", "_data", name),
                            dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]"))


setup(cmdclass={"build_py": BuildWithAssets})
