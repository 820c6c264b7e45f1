"""Build the single-file app a host double-clicks: ``dist/onefile/bunco`` (``bunco.exe`` on
Windows, the app bundle ``Bunco.app`` on macOS), with Python and every dependency inside. The
same script on Windows, macOS and Linux; each system builds its own (PyInstaller makes no file
for another system).

    python -m pip install -c constraints.txt ".[onefile]"    # once, in a virtual environment
    python deploy/onefile/build.py                            # or: make onefile

Run it from a checkout (templates/ and static/ are read from its top folder). The result
starts the night exactly as ``bunco`` does (bunco/laptop/cli.py); its data goes in the user's data
folder (bunco/laptop/__init__.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def app_path(outdir: Path) -> Path:
    """What the build makes: the one file ``bunco`` (``bunco.exe`` on Windows); on macOS the
    one-folder app bundle ``Bunco.app`` (bunco.spec says why)."""
    if sys.platform == "darwin":
        return outdir / "Bunco.app"
    return outdir / ("bunco.exe" if sys.platform == "win32" else "bunco")


def build(outdir: Path, workdir: Path) -> Path:
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", str(outdir), "--workpath", str(workdir), str(HERE / "bunco.spec")],
        cwd=ROOT, check=True,
        # The build imports nothing of the app's settings, but a variable meant for a running
        # Bunco must not change what is collected.
        env={k: v for k, v in os.environ.items() if not k.startswith(("BUNCO_", "DJANGO_"))})
    binary = app_path(outdir)
    if not binary.exists():
        raise SystemExit(f"PyInstaller made no {binary}")
    size = sum(f.stat().st_size for f in [binary, *binary.rglob("*")] if f.is_file()) / 1e6
    print(f"{binary}: {size:.1f} MB, built in {time.monotonic() - started:.0f} s")
    return binary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist" / "onefile",
                        help="where the app is written (dist/onefile)")
    parser.add_argument("--workdir", type=Path, default=ROOT / "build" / "onefile",
                        help="PyInstaller's own working folder (build/onefile)")
    args = parser.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        raise SystemExit("PyInstaller is not installed here: python -m pip install "
                         "-c constraints.txt \".[onefile]\"") from None
    build(args.outdir.resolve(), args.workdir.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
