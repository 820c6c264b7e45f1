"""What may keep the phones from the laptop, read from this laptop's own tools and judged.

The readings (``read_system``) run each tool only where it exists, with a short timeout, and
never raise. What they printed is judged by pure functions (``advise`` and the parsers), so
each system's outputs are tested as its tools print them: the network's profile and the
firewall's rules on Windows, the application firewall on macOS, nftables, ufw and firewalld
on Linux; and on any system a VPN, a second network, or none (``bunco/laptop/lan.py``'s interfaces).
The advice is plain words: what may be in the way, and the fix.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from bunco.laptop import lan

#: How long each reading of the system may take.
READ_TIMEOUT = 4.0


@dataclass(frozen=True)
class Advice:
    cause: str  # what may be in the way, in plain words
    fix: str  # what to do about it
    found: bool = False  # read on this laptop (not only a common cause)


SOCKETFILTERFW = "/usr/libexec/ApplicationFirewall/socketfilterfw"
#: The Linux firewalls' services, as ``systemctl is-active`` names them.
LINUX_UNITS = ("ufw", "firewalld", "nftables")


def program() -> str:
    """The program a firewall sees listening: the Python that runs (a virtual environment's
    python.exe starts its base one on Windows; a symlink's target on macOS)."""
    if sys.platform == "win32" and sys.prefix != sys.base_prefix:
        return os.path.join(sys.base_prefix, os.path.basename(sys.executable))
    return os.path.realpath(sys.executable)


def commands(system: str, executable: str) -> dict[str, list[str]]:
    """The readings taken on ``system`` (``sys.platform``), by name."""
    if system == "win32":
        return {
            "profiles": ["powershell", "-NoProfile", "-NonInteractive", "-Command",
                         "Get-NetConnectionProfile | Format-List "
                         "Name,InterfaceAlias,NetworkCategory"],
            "current": ["netsh", "advfirewall", "show", "currentprofile"],
            "rules": ["netsh", "advfirewall", "firewall", "show", "rule", "name=all",
                      "dir=in", "verbose"],
        }
    if system == "darwin":
        return {"global": [SOCKETFILTERFW, "--getglobalstate"],
                "blockall": [SOCKETFILTERFW, "--getblockall"],
                "app": [SOCKETFILTERFW, "--getappblocked", executable]}
    return {"nft": ["nft", "list", "ruleset"], "ufw": ["ufw", "status"],
            "firewalld": ["firewall-cmd", "--state"],
            # which firewall's service is running: anyone may ask, no root needed
            "units": ["systemctl", "is-active", *LINUX_UNITS]}


def run_command(args: list[str], timeout: float = READ_TIMEOUT) -> str | None:
    """What ``args`` prints, or None: the tool missing, too slow, or failing to start."""
    if shutil.which(args[0]) is None:
        return None
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, errors="replace", check=False,
                              creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return (done.stdout or "") + (done.stderr or "")


def read_system(system: str | None = None, run=run_command,
                executable: str | None = None) -> dict[str, str | None]:
    """Every reading of this system, each None where it could not be taken. Never raises."""
    out: dict[str, str | None] = {}
    system = system or sys.platform
    for name, args in commands(system, executable or program()).items():
        try:
            out[name] = run(args)
        except Exception:
            out[name] = None
    if system.startswith("linux"):
        # ufw's own word needs root; whether it is enabled is in a file anyone may read.
        out["ufw_conf"] = read_file(UFW_CONF)
    return out


UFW_CONF = "/etc/ufw/ufw.conf"


def read_file(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(100_000)
    except (OSError, ValueError):
        return None


def _blocks(text: str) -> list[dict[str, str]]:
    """``Key : value`` lines in blank-line separated blocks (PowerShell's Format-List and
    netsh's listings), keys lowercased."""
    out, block = [], {}
    for line in text.splitlines():
        if not line.strip() or set(line.strip()) == {"-"}:
            if block and not line.strip():
                out.append(block)
                block = {}
            continue
        key, sep, value = line.partition(":")
        if sep:
            block[key.strip().lower()] = value.strip()
    if block:
        out.append(block)
    return out


def windows_profiles(text: str | None) -> list[tuple[str, str, str]]:
    """(network name, adapter, Public/Private/DomainAuthenticated) from
    ``Get-NetConnectionProfile``."""
    return [(b.get("name", ""), b.get("interfacealias", ""), b.get("networkcategory", ""))
            for b in _blocks(text or "") if "networkcategory" in b]


def windows_current_profile(text: str | None) -> tuple[str, bool | None, bool | None]:
    """(the firewall profile in use: Domain/Private/Public, whether the firewall is on, whether
    it blocks every incoming connection) from ``netsh advfirewall show currentprofile``."""
    text = text or ""
    name = re.search(r"^\s*(Domain|Private|Public)\s+Profile", text, re.I | re.M)
    state = re.search(r"^\s*State\s+(ON|OFF)\s*$", text, re.I | re.M)
    policy = re.search(r"^\s*Firewall Policy\s+(\S+)", text, re.I | re.M)
    return (name.group(1).capitalize() if name else "",
            state.group(1).upper() == "ON" if state else None,
            "blockinboundalways" in policy.group(1).lower() if policy else None)


def windows_rules_for(text: str | None, executable: str) -> list[dict[str, str]]:
    """The inbound rules of ``netsh advfirewall firewall show rule ... verbose`` for this
    program: those naming its very path, else any naming a Python (or ``bunco.exe``)."""
    program_path = executable.replace("/", "\\").lower()
    rules = [(block, block.get("program", "").replace("/", "\\").lower())
             for block in _blocks(text or "") if block.get("program")]
    exact = [block for block, path in rules if path == program_path]
    return exact or [block for block, path in rules
                     if path.rsplit("\\", 1)[-1] in {"python.exe", "pythonw.exe", "bunco.exe",
                                                     program_path.rsplit("\\", 1)[-1]}]


def _on(value: str) -> bool:
    return value.strip().lower() in {"yes", "ja", "oui", "sí", "si"}


def mac_state(text: str | None) -> bool | None:
    """On or off, from a line of ``socketfilterfw`` (``Firewall is enabled. (State = 1)``,
    ``Block all DISABLED!``, ``Firewall has block all state set to enabled.``)."""
    low = (text or "").lower()
    if re.search(r"disabled|state = 0|\boff\b", low):
        return False
    if re.search(r"enabled|state = [12]|\bon\b", low):
        return True
    return None


def mac_app_blocked(text: str | None) -> bool | None:
    low = (text or "").lower()
    if "block" in low:
        return True
    if "permit" in low or "allow" in low:
        return False
    return None


def linux_nft(text: str | None, port: int | None) -> str | None:
    """What an nftables ruleset does to incoming connections: "port" (a rule drops or
    rejects this port), "drop" (its incoming chain drops by default or has dropping rules),
    or None."""
    if not text:
        return None
    found = None
    for chain in re.finditer(r"chain\s+\S+\s*\{(.*?)\n\s*\}", text, re.S):
        body = chain.group(1)
        if not re.search(r"hook\s+input\b", body):
            continue
        for line in body.splitlines():
            if not re.search(r"\b(drop|reject)\b", line):
                continue
            if port and re.search(rf"dport\s+(\{{[^}}]*\b{port}\b[^}}]*\}}|{port}\b)", line):
                return "port"
            found = "drop"
    return found


def is_vpn(interface: lan.Interface) -> bool:
    words = " ".join((interface.name, *interface.labels))
    return bool(re.match(r"^(utun|tun|tap|wg|ppp|ipsec|tailscale|nordlynx|zt|gpd)",
                         interface.name, re.I)
                or re.search(r"\bvpn\b|wireguard|openvpn|anyconnect|globalprotect|fortinet"
                             r"|tailscale|zerotier|wintun|tap-windows|nordvpn|proton",
                             words, re.I))


def _join(names: list[str]) -> str:
    return ", ".join(dict.fromkeys(n for n in names if n))


def advise(system: str, readings: dict[str, str | None], interfaces: list[lan.Interface],
           lan_address: str, port: int | None, executable: str = "") -> list[Advice]:
    """The likely causes, those read on this laptop first, then the common ones, each with
    its fix in plain words. Pure: everything it looks at is passed in."""
    port_text = str(port or 8000)
    found: list[Advice] = []
    if system == "win32":
        found += _windows(readings, interfaces, executable or program())
    elif system == "darwin":
        found += _mac(readings)
    else:
        found += _linux(readings, port_text)
    found += _networks(interfaces, lan_address)
    found.append(Advice(
        "A guest Wi-Fi (or a hotel's, an office's, some mesh routers') often keeps the "
        "devices on it from reaching each other.",
        "Put the laptop and the phones on the main Wi-Fi, not the guest one; or turn off "
        "\"client isolation\" (\"AP isolation\") in the router's settings; or make the laptop "
        "or a spare phone a hotspot and have everyone join it."))
    found.append(Advice(
        "The phone may be on mobile data, or on another Wi-Fi than the laptop.",
        "On the phone, turn mobile data off for a moment and check that it shows the same "
        "Wi-Fi name as the laptop."))
    return found


def _networks(interfaces: list[lan.Interface], lan_address: str) -> list[Advice]:
    """A VPN up; the phones sent to an address no longer the laptop's; no network; more
    than one."""
    found: list[Advice] = []
    vpns = [i for i in interfaces if is_vpn(i)]
    if vpns:
        found.append(Advice(
            f"A VPN is on ({_join([i.labels[0] if i.labels else i.name for i in vpns])}). "
            "It can take the answers meant for the phones, or block the local network.",
            "Turn the VPN off for the night (or turn on its \"allow local network\" option), "
            "then try the check on your phone again.", True))
    addresses = lan.ranked(interfaces)
    mine = [i for i in addresses if i.address == lan_address]
    others = [i for i in addresses if i.address != lan_address and lan.kind(i) != lan.VIRTUAL]
    if not mine and lan_address not in ("", "127.0.0.1"):
        found.append(Advice(
            f"The phones are sent to {lan_address}, which is not an address of this laptop "
            "now (the laptop changed networks?).",
            "Stop Bunco and start it again: it shows the laptop's address on this network.",
            True))
    elif not addresses or lan_address == "127.0.0.1":
        found.append(Advice(
            "This laptop is on no network the phones could use.",
            "Join the Wi-Fi the guests use (or plug in the router's cable), then start "
            "Bunco again.", True))
    elif others:
        found.append(Advice(
            f"This laptop is on more than one network: the phones are sent to {lan_address} "
            f"({_adapter(mine[0])}), and it is also on "
            f"{_join([f'{i.address} ({_adapter(i)})' for i in others])}. The wrong one may "
            "have been picked.",
            "On the host page, under \"The phones are sent to\", pick the address of the "
            "guests' Wi-Fi (every link and QR code follows); or make sure the phones join the "
            "network that address is on.", True))
    return found


def _adapter(interface: lan.Interface) -> str:
    kinds = {lan.WIFI: "Wi-Fi", lan.WIRED: "cable", lan.OTHER: "other adapter",
             lan.VIRTUAL: "virtual adapter"}
    return interface.labels[0] if interface.labels else \
        f"{interface.name}, {kinds[lan.kind(interface)]}"


def _windows(readings, interfaces, executable) -> list[Advice]:
    out = []
    public = [(name, alias) for name, alias, category in windows_profiles(readings.get("profiles"))
              if category.lower() == "public" and not _virtual_alias(alias)]
    if public:
        names = _join([f"\"{name}\"" if name else alias for name, alias in public])
        out.append(Advice(
            f"Windows treats the network {names} as a Public network, and its firewall "
            "turns the phones away on Public networks.",
            "Open Settings > Network & internet > Wi-Fi (or Ethernet) > the network's "
            "properties, and set \"Network profile type\" to Private network. Then try the "
            "check on your phone again.", True))
    profile, on, block_all = windows_current_profile(readings.get("current"))
    if block_all:
        out.append(Advice(
            f"The Windows firewall blocks every incoming connection on {profile or 'this'} "
            "networks (\"Block all incoming connections\" is ticked).",
            "Open Windows Security > Firewall & network protection > the network marked "
            "(active), and untick \"Blocks all incoming connections\".", True))
    rules = windows_rules_for(readings.get("rules"), executable)
    here = [r for r in rules if _on(r.get("enabled", "")) and (
        not profile or profile.lower() in r.get("profiles", "").lower()
        or r.get("profiles", "").lower() in ("any", "all", ""))]
    blocked = [r for r in here if r.get("action", "").lower() == "block"]
    allowed = [r for r in here if r.get("action", "").lower() == "allow"]
    if blocked:
        out.append(Advice(
            f"The Windows firewall has a rule that blocks Python on {profile or 'this'} "
            "networks (someone answered Cancel, or ticked only one box, when Windows asked).",
            "Open Windows Security > Firewall & network protection > Allow an app through "
            "firewall > Change settings, find Python, and tick both Private and Public. "
            "Then try the check on your phone again.", True))
    elif on and not allowed and readings.get("rules") is not None:
        out.append(Advice(
            f"The Windows firewall is on and no rule lets Python accept connections on "
            f"{profile or 'this'} networks.",
            "Stop Bunco and start it again: when Windows asks whether Python may use "
            "networks, tick Private networks and click Allow. Or add it in Windows Security "
            "> Firewall & network protection > Allow an app through firewall.", True))
    return out


def _virtual_alias(alias: str) -> bool:
    """A Windows connection of a virtual adapter ("vEthernet (WSL)"): no phone is there."""
    return lan.kind(lan.Interface(alias, "0.0.0.0", (alias,))) == lan.VIRTUAL


def _mac(readings) -> list[Advice]:
    out = []
    on = mac_state(readings.get("global"))
    block_all = mac_state(readings.get("blockall"))
    app_blocked = mac_app_blocked(readings.get("app"))
    if on and block_all:
        out.append(Advice(
            "The Mac's firewall blocks all incoming connections.",
            "Open System Settings > Network > Firewall > Options, and turn off \"Block all "
            "incoming connections\". Then try the check on your phone again.", True))
    elif on and app_blocked:
        out.append(Advice(
            "The Mac's firewall blocks Python (someone clicked Deny when the Mac asked "
            "whether Python may accept incoming connections).",
            "Open System Settings > Network > Firewall > Options, find Python and set it to "
            "\"Allow incoming connections\". Then try the check on your phone again.", True))
    elif on:
        out.append(Advice(
            "The Mac's firewall is on: it asks once whether \"Python\" may accept incoming "
            "network connections, and Deny (or no answer) turns the phones away.",
            "If the Mac asks, click Allow. If the question was missed, open System Settings > "
            "Network > Firewall > Options, find Python and set it to \"Allow incoming "
            "connections\".", True))
    return out


def linux_units(text: str | None) -> dict[str, bool]:
    """Which of ``LINUX_UNITS`` runs, from ``systemctl is-active``'s one line for each."""
    lines = [line.strip().lower() for line in (text or "").splitlines() if line.strip()]
    if len(lines) != len(LINUX_UNITS):
        return {}
    return {unit: state == "active" for unit, state in zip(LINUX_UNITS, lines, strict=True)}


def _ufw_on(readings) -> bool:
    """ufw's own word (root only), else its settings file (anyone may read it): the ufw
    service counts as running even when ufw is off, so it is not asked."""
    status = readings.get("ufw") or ""
    if re.search(r"status:", status, re.I):
        return bool(re.search(r"status:\s*active", status, re.I))
    return bool(re.search(r"^\s*ENABLED\s*=\s*yes\b", readings.get("ufw_conf") or "", re.M))


_TERMINAL = "Open a Terminal and type: {command} (it asks for your password). Then try the " \
            "check on your phone again."


def _linux(readings, port: str) -> list[Advice]:
    out = []
    units = linux_units(readings.get("units"))
    nft = linux_nft(readings.get("nft"), int(port))
    nft_fix = _TERMINAL.format(command=f"sudo nft insert rule inet filter input tcp dport "
                                       f"{port} accept")
    if nft == "port":
        out.append(Advice(
            f"This laptop's firewall (nftables) has a rule that drops connections to port "
            f"{port}, the one Bunco uses.", nft_fix, True))
    elif nft == "drop":
        out.append(Advice(
            "This laptop's firewall (nftables) drops some incoming connections.",
            nft_fix, True))
    if _ufw_on(readings):
        out.append(Advice("This laptop's firewall (ufw) is on.",
                          _TERMINAL.format(command=f"sudo ufw allow {port}/tcp"), True))
    if (readings.get("firewalld") or "").strip().lower() == "running" or units.get("firewalld"):
        out.append(Advice(
            "This laptop's firewall (firewalld) is on.",
            _TERMINAL.format(command=f"sudo firewall-cmd --add-port={port}/tcp"), True))
    if not out and units.get("nftables") and "table " not in (readings.get("nft") or ""):
        out.append(Advice(
            "This laptop's firewall (nftables) is on; its rules can only be read with your "
            "password, so whether it lets the phones in is not known.", nft_fix, True))
    if not out and not units:
        out.append(Advice(
            "This laptop's firewall may turn the phones away (ufw on Ubuntu and Mint, "
            "firewalld on Fedora, nftables); its settings could not be read here.",
            _TERMINAL.format(command=f"sudo ufw allow {port}/tcp (Ubuntu, Mint) or sudo "
                                     f"firewall-cmd --add-port={port}/tcp (Fedora)")))
    return out
