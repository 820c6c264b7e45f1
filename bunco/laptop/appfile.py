"""The app itself, as one more laptop would start it: what this running copy of Bunco is, as a
file that goes on the USB stick beside the night's file and that the host's page offers.

- **The single-file app** (``sys.frozen``, PyInstaller): the very file the host runs; on macOS
  its ``Bunco.app`` zipped.
- **Installed from a wheel** (pipx): pipx keeps no wheel, and the running install cannot be
  downloaded again offline. Its files are the wheel's, listed in its ``RECORD``: the wheel is
  made again from them, and so is every package it needs (``wheels/``), so a laptop with the
  same system and Python installs it from the stick with no internet (``pip install
  --no-index --find-links``). Only the standard library is used: nothing to download, no
  build tools, the same bytes each time.
- **A checkout**: ``make dist``'s wheel when there is one (with the packages it needs);
  otherwise the text says where to get Bunco.

Each comes with ``HOW-TO-START.txt``: how to start it on each system and open the night.
"""

from __future__ import annotations

import base64
import hashlib
import platform
import re
import sys
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from bunco.laptop import CHECKOUT, from_checkout
from bunco.version import version

HOW_TO = "HOW-TO-START.txt"
WHEELS = "wheels"
RELEASES = "https://github.com/bunco-night/bunco/releases/latest"
#: Never part of the app: the installer's own tools.
NOT_THE_APP = {"pip", "setuptools", "wheel", "pipx", "distribute"}
#: What an installer wrote into a package's .dist-info, not what its wheel held.
INSTALLERS_OWN = {"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"}


@dataclass(frozen=True)
class App:
    """What this copy of Bunco is. ``kind``: "onefile", "bundle" (macOS), "wheel" (installed
    from one), "checkout"; ``path``: the file or bundle that runs, the installed package's
    metadata, or the checkout's wheel (None: no wheel made)."""

    kind: str
    path: Path | None

    @property
    def download_name(self) -> str | None:
        """The name of the one file a host downloads for another laptop."""
        if self.kind == "onefile":
            return self.path.name
        if self.kind == "bundle":
            return f"bunco-{version()}-{system_name()}.zip"
        if self.path is None:
            return None
        return f"bunco-{version()}-{system_name()}-python{python()}-wheels.zip"


def system_name() -> str:
    """``linux-x86_64``, ``windows-x86_64``, ``macos-arm64`` (as the release's files)."""
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


def python() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def this_app() -> App:
    """What is running: a quick look, nothing built."""
    if getattr(sys, "frozen", False):
        exe = Path(sys.executable).resolve()
        bundle = next((p for p in exe.parents if p.suffix == ".app"), None)
        return App("bundle", bundle) if bundle else App("onefile", exe)
    dist = installed()
    if dist is not None:
        return App("wheel", Path(str(dist.locate_file(""))))
    if from_checkout():
        made = sorted((CHECKOUT / "dist").glob(f"bunco-{version()}-py3-none-any.whl"))
        return App("checkout", made[-1] if made else None)
    return App("checkout", None)


def installed() -> metadata.Distribution | None:
    """The ``bunco`` distribution this module was installed from as a wheel, or None (a
    checkout, an editable install)."""
    try:
        dist = metadata.distribution("bunco")
    except metadata.PackageNotFoundError:
        return None
    if dist.read_text("WHEEL") is None or not dist.files:
        return None
    here = Path(__file__).resolve()
    mine = Path(str(dist.locate_file("bunco/laptop/appfile.py")))
    return dist if mine.is_file() and mine.resolve() == here else None


# -- wheels made again from what is installed ---------------------------------------------------

def needed(root: str = "bunco") -> list[metadata.Distribution]:
    """``root`` and every package it needs, as installed here (extras and markers followed);
    without ``packaging`` to read them, everything installed beside ``root``."""
    try:
        from packaging.requirements import Requirement
    except ImportError:
        try:
            from pip._vendor.packaging.requirements import Requirement
        except ImportError:
            return _beside(root)
    found: dict[str, tuple[metadata.Distribution, frozenset]] = {}
    todo = [(root, frozenset())]
    while todo:
        name, extras = todo.pop()
        key = canonical(name)
        if key in NOT_THE_APP or (key in found and extras <= found[key][1]):
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        extras = extras | (found[key][1] if key in found else frozenset())
        found[key] = (dist, extras)
        for line in dist.requires or []:
            wanted = Requirement(line)
            envs = [{"extra": e} for e in extras] or [{"extra": ""}]
            if wanted.marker is None or any(wanted.marker.evaluate(env) for env in envs):
                todo.append((wanted.name, frozenset(wanted.extras)))
    return [dist for dist, _ in found.values()]


def _beside(root: str) -> list[metadata.Distribution]:
    site = Path(str(metadata.distribution(root).locate_file("")))
    return [d for d in metadata.distributions(path=[str(site)])
            if canonical(d.metadata["Name"]) not in NOT_THE_APP]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_name(dist: metadata.Distribution) -> str | None:
    """The wheel file's name, with the tags the install's WHEEL file records (``py2.py3``)."""
    tags = re.findall(r"^Tag:\s*(\S+)-(\S+)-(\S+)", dist.read_text("WHEEL") or "", re.MULTILINE)
    if not tags:
        return None  # not installed from a wheel (an egg, a distro's package)
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    tag = "-".join(".".join(dict.fromkeys(part)) for part in zip(*tags, strict=True))
    return f"{name}-{dist.version}-{tag}.whl"


def make_wheel(dist: metadata.Distribution, into: Path) -> Path | None:
    """The wheel ``dist`` was installed from, made again from its installed files (those its
    RECORD lists, but the compiled caches, the scripts pip wrote and the installer's own
    notes), with a RECORD of their hashes. None when it was not installed from a wheel."""
    name = wheel_name(dist)
    if name is None or not dist.files:
        return None
    target = into / name
    if target.is_file():
        return target  # the same name is the same version: made before
    files = [str(f).replace("\\", "/") for f in dist.files]
    info = next((f.rsplit("/", 1)[0] for f in files if f.endswith(".dist-info/METADATA")), None)
    if info is None:
        return None
    keep = [f for f in files if not f.startswith("../") and "__pycache__/" not in f
            and not f.endswith(".pyc") and f not in {f"{info}/{n}" for n in INSTALLERS_OWN}]
    keep.sort(key=lambda f: f.startswith(info + "/"))  # the .dist-info last, as wheels have it
    partial = into / f".{name}.partial"
    record = []
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for arcname in keep:
            source = Path(str(dist.locate_file(arcname)))
            if not source.is_file():
                continue
            data = source.read_bytes()
            entry = zipfile.ZipInfo.from_file(source, arcname)
            entry.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(entry, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{arcname},sha256={digest.decode()},{len(data)}")
        record.append(f"{info}/RECORD,,")
        out.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    partial.replace(target)
    return target


# -- the text beside it -------------------------------------------------------------------------

INTRO = """\
Bunco {version}: how to start it on another laptop
{rule}

This folder keeps a Bunco night's file as the night goes
(<night name>-<date and time>-night.json) and Bunco itself. If the laptop running the night
dies:

1. Start Bunco on another laptop on the same Wi-Fi, from this folder (below), on the same
   port as before (8000 unless you chose another: add --port and the number).
2. Open the host link it prints (it opens the host page by itself). Under
   "Open a saved night", choose the night's file from this folder, click "Open the night".
   (Or, before starting it, in a terminal: {command} restore-night <the night's file>)
3. The night goes on where it stopped. At the same address the phones and the TV carry on by
   themselves, and the rolls they kept count, each once.

"""

ONEFILE = {
    "windows": """\
Start it (Windows): double-click {name}. It is not signed yet: SmartScreen says "Windows
protected your PC": click More info, then Run anyway. When Windows asks about the network,
allow Bunco on private networks.
""",
    "macos": """\
Start it (macOS): open {name}, move Bunco.app to Applications, double-click it. It is not
signed yet: macOS says it "cannot be opened". Click Done, open System Settings > Privacy &
Security, scroll down, click Open Anyway and confirm. Allow it to accept incoming connections
and to find devices on your local network.
""",
    "linux": """\
Start it (Linux): in a terminal, in this folder: chmod +x ./{name} then ./{name}
(copy it to the laptop first if the stick does not allow running programs).
""",
}

OTHER_SYSTEMS = """
This copy of Bunco is for {system} only. For another system, download Bunco from
{releases} (needs the internet).
"""

WHEEL = """\
Start it (Windows, macOS or Linux, with Python {python} and pipx: the README's "Or with
Python and pipx" says how to get them). In a terminal, go to this folder (cd E:\\bunco on
Windows, cd /Volumes/STICK/bunco on macOS), then type:

  With no internet (on {system} with Python {python}: the packages here were made for it):
    pipx install ./{wheels}/{name} --pip-args="--no-index --find-links=./{wheels}"
  With the internet, on any system:
    pipx install ./{wheels}/{name}

Then type: bunco
"""

NONE = """\
This laptop runs Bunco from a checkout without a wheel made, so Bunco itself is not here.
Download Bunco for the other laptop from {releases} (a file per system), or run `make dist`
in the checkout and start Bunco again: it then puts Bunco here too.
"""


def how_to_start(app: App, wheel: str | None = None) -> str:
    """HOW-TO-START.txt for ``app`` (``wheel``: the name of Bunco's own wheel)."""
    title = f"Bunco {version()}: how to start it on another laptop"
    system = system_name().split("-")[0]
    command = "bunco"
    if app.kind == "onefile":
        command = f".\\{app.path.name}" if system == "windows" else f"./{app.path.name}"
    elif app.kind == "bundle":
        command = "/Applications/Bunco.app/Contents/MacOS/bunco"
    text = INTRO.format(version=version(), rule="=" * len(title), command=command)
    if app.kind in ("onefile", "bundle"):
        text += ONEFILE.get(system, ONEFILE["linux"]).format(name=app.download_name)
        text += OTHER_SYSTEMS.format(system=system_name(), releases=RELEASES)
    elif wheel:
        text += WHEEL.format(python=python(), system=system_name(), wheels=WHEELS, name=wheel)
    else:
        text += NONE.format(releases=RELEASES)
    return text
