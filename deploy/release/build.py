"""Build what a release offers, for the system this runs on, into ``dist/release/``:

- the sdist and the wheel (``python -m build``), checked as the package index would check them
  (``twine check --strict``) and for complete metadata (``check_metadata``);
- the app for this system (deploy/onefile/build.py): ``bunco-<version>-linux-x86_64`` and
  ``bunco-<version>-windows-x86_64.exe``, one file each; on macOS ``Bunco.app`` zipped,
  ``bunco-<version>-macos-arm64.zip``;
- ``SHA256SUMS-<system>.txt``, the SHA-256 of each, as ``sha256sum --check`` reads it.

    python deploy/release/build.py                    # or: make release
    python deploy/release/build.py --app dist/onefile/bunco   # an app already built, reused

The same script runs in each of the release workflow's jobs (.github/workflows/release.yml)
and in .ci/run; deploy/release/smoke.py then starts the app it made.
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import importlib.util
import platform
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VERSION = PROJECT["version"]
#: What the index shows of a package, and a host looks for there: each must be in the wheel.
REQUIRED = ("Name", "Version", "Summary", "Description-Content-Type", "License-Expression",
            "Project-URL", "Classifier", "Requires-Python")


def system_name() -> str:
    """``linux-x86_64``, ``windows-x86_64``, ``macos-arm64``: the part of a file's name that
    tells a host which to download."""
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


def run(command: list, **kwargs) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run([str(c) for c in command], check=True, cwd=ROOT, **kwargs)


def build_packages(out: Path) -> list[Path]:
    """The sdist, then the wheel from it, as `make dist` makes them; checked."""
    run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    made = sorted(out.glob("bunco-*.tar.gz")) + sorted(out.glob("bunco-*.whl"))
    names = sorted(p.name for p in made)
    wheel = f"bunco-{VERSION}-py3-none-any.whl"
    expected = sorted([f"bunco-{VERSION}.tar.gz", wheel])
    if names != expected:
        raise SystemExit(f"the build made {names}, not {expected}")
    run([sys.executable, "-m", "twine", "check", "--strict", *made])
    for problem in check_metadata(out / wheel):
        raise SystemExit(f"the wheel's metadata: {problem}")
    return made


def check_metadata(wheel: Path) -> list[str]:
    """What the index would show wrong or missing, from the wheel's METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(archive.read(name).decode())
    problems = [f"no {field}" for field in REQUIRED if not metadata.get_all(field)]
    if metadata.get("Version") != VERSION:
        problems.append(f"version {metadata.get('Version')}, pyproject.toml says {VERSION}")
    if metadata.get("Description-Content-Type", "").split(";")[0] != "text/markdown":
        problems.append("the long description is not Markdown")
    if "# Bunco" not in (metadata.get_payload() or ""):
        problems.append("the long description is not the README")
    return problems


def package_app(app: Path, out: Path) -> Path:
    """The app under the name a host downloads: one file, or on macOS the bundle zipped."""
    target = out / f"bunco-{VERSION}-{system_name()}"
    if app.suffix == ".app":
        target = target.with_suffix(".zip")
        # ditto keeps the bundle's symbolic links and permissions, as the Finder's own zip does
        run(["ditto", "-c", "-k", "--keepParent", app, target])
    else:
        target = target.with_name(target.name + app.suffix)  # .exe on Windows
        shutil.copy2(app, target)
    return target


def write_checksums(files: list[Path], out: Path) -> Path:
    sums = out / f"SHA256SUMS-{system_name()}.txt"
    lines = [f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n" for f in files]
    sums.write_text("".join(lines), encoding="utf-8", newline="\n")
    print(sums.read_text(), end="")
    return sums


def onefile_build():
    """deploy/onefile/build.py's build(), loaded by path (its name is also the `build`
    package's, which makes the sdist and the wheel)."""
    spec = importlib.util.spec_from_file_location(
        "onefile_build", ROOT / "deploy" / "onefile" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist" / "release")
    parser.add_argument("--app", type=Path,
                        help="an app deploy/onefile/build.py already made (not built again)")
    parser.add_argument("--no-app", action="store_true", help="the sdist and the wheel only")
    parser.add_argument("--no-packages", action="store_true", help="the app only")
    args = parser.parse_args(argv)
    out = args.outdir.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    made = [] if args.no_packages else build_packages(out)
    if not args.no_app:
        app = args.app
        if app is None:
            app = onefile_build()(ROOT / "dist" / "onefile", ROOT / "build" / "onefile")
        made.append(package_app(app.resolve(), out))
    write_checksums(made, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
