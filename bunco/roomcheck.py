"""The room check: can the guests' phones reach this laptop, and if not, what is in the way.

Three things, kept in this process's memory (a party is one process; docs/roomcheck.md):

- **Who reached the laptop**: every page and socket from an address that is not the laptop's
  own (``note``), counted by address, with when the last one came.
- **The host's own check**: a one-off link shown as a QR code on the host's page; her phone
  opens it, measures a round trip and says so (``Check``).
- **Tables whose phones struggle** during the night: the phones tell their reconnects and a
  measured round trip now and then (``net_report``).

When no phone has come ``after_seconds()`` after the start (or the host says her phone cannot
open the check), the host's page and the terminal say the likely causes on this laptop's
system and the fix, in plain words. The system is read with its own tools (``read_system``:
only where the tool exists, with a short timeout, never raising); what they print is judged by
pure functions (``advise``), tested with their outputs faked.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import secrets
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.core.signals import request_started
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import timezone

from bunco import lan

log = logging.getLogger(__name__)

#: The Channels group of every host page that shows the room check (the dashboard too).
GROUP = "roomcheck"
#: Seconds after the start with no phone before the advice shows (``BUNCO_ROOMCHECK_AFTER``).
AFTER_SECONDS = 180
#: A table struggles with this many reconnects of its phones within WINDOW seconds ...
RECONNECTS, WINDOW = 3, 600
#: ... or a round trip over this many milliseconds, told within WINDOW.
SLOW_MS = 1000
#: How long each reading of the system may take.
READ_TIMEOUT = 4.0
#: At most this many addresses and devices kept (a flood of addresses costs bounded memory).
MAX_KEPT = 5000


def after_seconds() -> float:
    """How long the room may stay without a phone before the advice shows, read when asked."""
    try:
        return max(0.0, float(os.environ.get("BUNCO_ROOMCHECK_AFTER", "") or AFTER_SECONDS))
    except ValueError:
        return float(AFTER_SECONDS)


# -- who reached the laptop ----------------------------------------------------------------------

@dataclass
class Room:
    started: float = field(default_factory=time.time)
    seen: dict[str, float] = field(default_factory=dict)  # address -> last time it came
    pushed: float = 0.0  # when the card was last pushed for an arrival
    cannot: bool = False  # the host said her phone cannot open the check
    port: int | None = None  # the port pages are served on (for the check's link)


room = Room()
_lock = threading.Lock()
_own: tuple[float, frozenset[str]] = (0.0, frozenset())


def own_addresses() -> frozenset[str]:
    """The laptop's own addresses, read again at most once a minute."""
    global _own
    when, found = _own
    if time.monotonic() - when > 60 or not found:
        try:
            found = frozenset(lan.local_addresses())
        except Exception:  # an adapter the library cannot read: the server's own address counts
            found = frozenset()
        _own = (time.monotonic(), found)
    return found


def from_elsewhere(client: str | None, server: str | None) -> bool:
    """Whether a connection from ``client`` to the laptop's ``server`` address came from
    another device: not loopback, not the address it arrived at, not any of the laptop's."""
    if not client or client == server:
        return False
    try:
        ip = ipaddress.ip_address(client.split("%")[0])
    except ValueError:
        return False
    if getattr(ip, "ipv4_mapped", None):
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified:
        return False
    return str(ip) not in own_addresses()


def note(client: str | None, server: str | None, now: float | None = None) -> bool:
    """A page or socket from ``client``: True when the host's card is worth pushing (a new
    device, or the last arrival's time shown is a minute old)."""
    if not from_elsewhere(client, server):
        return False
    now = time.time() if now is None else now
    with _lock:
        new = client not in room.seen
        if new and len(room.seen) >= MAX_KEPT:
            return False
        room.seen[client] = now
        if new or now - room.pushed >= 60:
            room.pushed = now
            return True
    return False


def note_scope(scope: dict) -> bool:
    """``note`` for an ASGI scope (a request or a websocket)."""
    client, server = scope.get("client") or (None, None), scope.get("server") or (None, None)
    if server[1] and room.port is None:
        room.port = server[1]
    return note(client[0], server[0])


def reached() -> tuple[int, float | None]:
    """How many devices reached the laptop, and when the last one did (epoch seconds)."""
    with _lock:
        return len(room.seen), max(room.seen.values(), default=None)


def due(now: float | None = None) -> bool:
    """Whether the host should see the advice now."""
    now = time.time() if now is None else now
    return room.cannot or (not room.seen and now - room.started >= after_seconds())


@receiver(request_started)
def _page_loaded(sender, scope=None, environ=None, **kwargs) -> None:
    """Every page, file and post served (on the sync thread, with Django's other
    request-started work): one look at its address."""
    try:
        if scope is not None:
            fresh = note_scope(scope)
        elif environ is not None:
            fresh = note(environ.get("REMOTE_ADDR"), environ.get("SERVER_NAME"))
        else:
            return
        if fresh:
            push_card()
    except Exception:  # never in a page's way
        return


# -- the host's own check ------------------------------------------------------------------------

@dataclass
class Check:
    token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    opened: float | None = None
    address: str | None = None
    rtt_ms: int | None = None
    live: bool | None = None  # whether its websocket opened (else the fetch's round trip)
    asked: bool = False  # made by "Check again": its QR code shows at once


check = Check()


def new_check() -> Check:
    global check
    with _lock:
        check = Check(asked=True)
        room.cannot = False
    return check


def check_opened(token: str, client: str | None, server: str | None) -> str:
    """The check page was opened: "ok", "laptop" (opened on the laptop itself: proves
    nothing) or "old" (not the link the host's page shows now)."""
    if token != check.token:
        return "old"
    if not from_elsewhere(client, server):
        return "laptop"
    with _lock:
        if check.opened is None:
            check.opened, check.address = time.time(), client
        room.cannot = False
    return "ok"


def check_result(token: str, client: str | None, rtt_ms: int, live: bool) -> bool:
    """The phone's measured round trip (from the phone that opened the check)."""
    if token != check.token or check.address is None or client != check.address:
        return False
    with _lock:
        check.rtt_ms, check.live = rtt_ms, live
    return True


def cannot_open() -> None:
    room.cannot = True


# -- tables whose phones struggle ----------------------------------------------------------------

@dataclass
class Phone:
    reconnects: int = 0  # as the page last said (since it loaded)
    lost: deque = field(default_factory=deque)  # (when, how many) reconnects
    rtt_ms: int | None = None
    rtt_at: float = 0.0


_tables: dict[tuple[int, int], dict[str, Phone]] = {}
_weak: dict[int, tuple] = {}  # night -> the weak tables as last pushed


def table_of(joined: list[str], night_id: int) -> int | None:
    """The table a screen's groups put it at (a table's device, a seated player's phone)."""
    prefix = f"table_{night_id}_"
    for group in joined:
        if group.startswith(prefix) and group[len(prefix):].isdigit():
            return int(group[len(prefix):])
    return None


def _count(value, most: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if 0 <= value <= most else None


def net_report(night_id: int, table: int, device: str, net, now: float | None = None) -> bool:
    """A phone at ``table`` says how its connection fares (``{"re": reconnects since the page
    loaded, "rtt": its last round trip in ms}``). True when the night's weak tables changed."""
    if not isinstance(net, dict):
        return False
    now = time.time() if now is None else now
    reconnects, rtt = _count(net.get("re"), 100_000), _count(net.get("rtt"), 600_000)
    with _lock:
        phones = _tables.setdefault((night_id, table), {})
        if device not in phones and (len(phones) >= 50 or len(_tables) > MAX_KEPT):
            return False
        phone = phones.setdefault(device, Phone())
        if reconnects is not None:
            more = reconnects - phone.reconnects if reconnects >= phone.reconnects else reconnects
            if more > 0:
                phone.lost.append((now, more))
            phone.reconnects = reconnects
        if rtt is not None:
            phone.rtt_ms, phone.rtt_at = rtt, now
    weak = tuple(weak_tables(night_id, now))
    if weak == _weak.get(night_id, ()):
        return False
    _weak[night_id] = weak
    return True


@dataclass(frozen=True)
class WeakTable:
    table: int
    reconnects: int
    rtt_ms: int | None  # the slowest recent round trip, when over SLOW_MS


def weak_tables(night_id: int, now: float | None = None) -> list[WeakTable]:
    now = time.time() if now is None else now
    out = []
    with _lock:
        for (night, table), phones in sorted(_tables.items()):
            if night != night_id:
                continue
            lost, slow = 0, None
            for phone in phones.values():
                while phone.lost and phone.lost[0][0] < now - WINDOW:
                    phone.lost.popleft()
                lost += sum(n for _, n in phone.lost)
                if phone.rtt_ms is not None and phone.rtt_ms > SLOW_MS \
                        and now - phone.rtt_at < WINDOW:
                    slow = max(slow or 0, phone.rtt_ms)
            if lost >= RECONNECTS or slow:
                out.append(WeakTable(table, lost, slow))
    return out


# -- what is in the way: the system's readings, judged -------------------------------------------

@dataclass(frozen=True)
class Advice:
    cause: str  # what may be in the way, in plain words
    fix: str  # what to do about it
    found: bool = False  # read on this laptop (not only a common cause)


SOCKETFILTERFW = "/usr/libexec/ApplicationFirewall/socketfilterfw"


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
            "firewalld": ["firewall-cmd", "--state"]}


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
    for name, args in commands(system or sys.platform, executable or sys.executable).items():
        try:
            out[name] = run(args)
        except Exception:
            out[name] = None
    return out


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
    program (Python), each as its fields."""
    program = os.path.normcase(executable).lower()
    stem = os.path.basename(program)
    out = []
    for block in _blocks(text or ""):
        path = os.path.normcase(block.get("program", "")).lower()
        if path and (path == program or os.path.basename(path) in {stem, "python.exe",
                                                                   "pythonw.exe", "bunco.exe"}):
            out.append(block)
    return out


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
           lan_address: str, port: int | None, executable: str) -> list[Advice]:
    """The likely causes, those read on this laptop first, then the common ones, each with
    its fix in plain words. Pure: everything it looks at is passed in."""
    port_text = str(port or 8000)
    found: list[Advice] = []
    if system == "win32":
        found += _windows(readings, interfaces, executable)
    elif system == "darwin":
        found += _mac(readings)
    else:
        found += _linux(readings, port_text)
    vpns = [i for i in interfaces if is_vpn(i)]
    if vpns:
        found.append(Advice(
            f"A VPN is on ({_join([i.labels[0] if i.labels else i.name for i in vpns])}). "
            "It can take the answers meant for the phones, or block the local network.",
            "Turn the VPN off for the night (or turn on its \"allow local network\" option), "
            "then reload the check.", True))
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
            "Make sure the phones join the same Wi-Fi as the network the QR code's address "
            "is on; or unplug the other network and start Bunco again.", True))
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
            "properties, and set \"Network profile type\" to Private network. Then reload "
            "the check.", True))
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
            "Then reload the check.", True))
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
            "incoming connections\". Then reload the check.", True))
    elif on and app_blocked:
        out.append(Advice(
            "The Mac's firewall blocks Python (someone clicked Deny when the Mac asked "
            "whether Python may accept incoming connections).",
            "Open System Settings > Network > Firewall > Options, find Python and set it to "
            "\"Allow incoming connections\". Then reload the check.", True))
    elif on:
        out.append(Advice(
            "The Mac's firewall is on: it asks once whether \"Python\" may accept incoming "
            "network connections, and Deny (or no answer) turns the phones away.",
            "If the Mac asks, click Allow. If the question was missed, open System Settings > "
            "Network > Firewall > Options, find Python and set it to \"Allow incoming "
            "connections\".", True))
    return out


def _linux(readings, port: str) -> list[Advice]:
    out = []
    nft = linux_nft(readings.get("nft"), int(port))
    if nft == "port":
        out.append(Advice(
            f"This computer's firewall (nftables) has a rule that drops connections to port "
            f"{port}, the one Bunco uses.",
            f"Remove that rule, or allow the port: sudo nft insert rule inet filter input "
            f"tcp dport {port} accept (the table and chain names may differ). Then reload "
            "the check.", True))
    elif nft == "drop":
        out.append(Advice(
            "This computer's firewall (nftables) drops some incoming connections.",
            f"Allow Bunco's port {port}: for example sudo nft insert rule inet filter input "
            f"tcp dport {port} accept (the table and chain names may differ).", True))
    if re.search(r"status:\s*active", readings.get("ufw") or "", re.I):
        out.append(Advice(
            "This computer's firewall (ufw) is on.",
            f"Allow Bunco's port: sudo ufw allow {port}/tcp", True))
    if (readings.get("firewalld") or "").strip().lower() == "running":
        out.append(Advice(
            "This computer's firewall (firewalld) is on.",
            f"Allow Bunco's port: sudo firewall-cmd --add-port={port}/tcp", True))
    return out


_readings: dict[str, str | None] | None = None
_reading = threading.Lock()


def system_readings(fresh: bool = False) -> dict[str, str | None] | None:
    """This laptop's readings, taken once (slow tools: at most a few seconds each) on the
    caller's thread; None if another thread is taking them right now."""
    global _readings
    if _readings is not None and not fresh:
        return _readings
    if not _reading.acquire(blocking=False):
        return _readings
    try:
        _readings = read_system()
    finally:
        _reading.release()
    return _readings


def advice_now(readings: dict[str, str | None] | None = None) -> list[Advice]:
    """The advice for this laptop as it is now (with no readings: the common causes only)."""
    from django.conf import settings

    try:
        interfaces = lan.read_interfaces()
    except Exception:
        interfaces = []
    return advise(sys.platform, readings or {}, interfaces, settings.LAN_ADDRESS, room.port,
                  sys.executable)


def waited_text(seconds: float) -> str:
    """"3 minutes", "1 minute", "5 seconds"."""
    n, unit = (round(seconds / 60), "minute") if seconds >= 60 else (round(seconds), "second")
    return f"{n} {unit}{'' if n == 1 else 's'}"


def terminal_text(advice: list[Advice], waited: float) -> str:
    """The advice as the terminal prints it: plain ASCII lines."""
    lines = [f"No phone has reached this laptop in {waited_text(waited)}. What may be in the "
             "way, most likely first:"]
    for n, item in enumerate(advice, 1):
        lines.append(f"  {n}. {item.cause}")
        lines.append(f"     Fix: {item.fix}")
    lines.append("The host page's room check says more, and shows when a phone gets through.")
    return "\n".join(lines).encode("ascii", "replace").decode("ascii") + "\n"


# -- the terminal and the deadline --------------------------------------------------------------

def watch_terminal(write, after_seconds_: float | None = None) -> threading.Thread:
    """Start a daemon thread that, ``after_seconds_`` from now (default ``after_seconds()``),
    prints the advice once through ``write`` if no phone has reached the laptop by then, and
    pushes the host's card (now with the advice)."""
    wait = after_seconds() if after_seconds_ is None else after_seconds_

    def run() -> None:
        time.sleep(wait)
        try:
            if reached()[0] or not in_use():
                return
            readings = system_readings()
            if reached()[0]:
                return
            write(terminal_text(advice_now(readings), wait))
            push_card()
        except Exception:  # the party goes on without the advice
            return

    thread = threading.Thread(target=run, name="bunco-roomcheck", daemon=True)
    thread.start()
    return thread


_armed = False


def arm() -> None:
    """Once per process: at the deadline, read the system and push the host's card, so a host
    page open at that moment shows the advice without a reload."""
    global _armed
    if _armed:
        return
    _armed = True

    def run() -> None:
        time.sleep(max(0.0, room.started + after_seconds() - time.time()))
        try:
            if not reached()[0]:
                push_card()  # the common causes at once ...
                if system_readings() is not None:
                    push_card()  # ... then this laptop's
        except Exception:
            return

    threading.Thread(target=run, name="bunco-roomcheck-deadline", daemon=True).start()


def read_soon() -> None:
    """The advice is due but the system not read yet: read it in the background, then push."""
    if _readings is not None:
        return

    def run() -> None:
        try:
            if system_readings() is not None:
                push_card()
        except Exception:
            return

    threading.Thread(target=run, name="bunco-roomcheck-read", daemon=True).start()


# -- what the host's pages show -----------------------------------------------------------------

def _clock(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return timezone.localtime(datetime.fromtimestamp(epoch, tz=UTC)).strftime("%H:%M")


def in_use() -> bool:
    """Whether the room check means anything here: not behind a proxy (``BUNCO_PUBLIC_URL``),
    where every page comes from the proxy's address and the phones reach a server, not a
    laptop on the room's Wi-Fi."""
    from django.conf import settings

    return not settings.PUBLIC_URL


def card_context() -> dict:
    from django.urls import reverse

    if not in_use():
        return {"off": True}
    arm()
    count, last = reached()
    show_advice = due()
    if show_advice:
        read_soon()
    path = reverse("roomcheck_phone", args=[check.token])
    return {
        "count": count, "last": _clock(last), "check": check, "check_path": path,
        "check_url": lan.public_url(path, port=room.port),
        "advice": advice_now(_readings) if show_advice else [],
        "read": _readings is not None, "cannot": room.cannot,
        "waited": waited_text(after_seconds()),
    }


def card_html() -> str:
    """The host's room check card (``#roomcheck``): the same for every host page."""
    return render_to_string("bunco/host/_roomcheck.html", card_context())


def weak_html(night_id: int) -> str:
    """The night's tables whose phones struggle (``#weak-tables``), for the host."""
    weak = weak_tables(night_id)
    return render_to_string("bunco/host/_weak_tables.html", {
        "weak": weak, "slow_s": [(w, f"{w.rtt_ms / 1000:.1f}" if w.rtt_ms else "")
                                 for w in weak],
        "minutes": WINDOW // 60})


def push_card() -> None:
    """Push the card to every host page that shows it (from any thread but the loop's)."""
    from bunco import broadcast, presence

    if not presence.watching(GROUP):
        return
    try:
        out = broadcast.Frames()
        out.add(GROUP, 0, card_html())
        broadcast.send(out)
    except Exception:  # a page reloaded shows it anyway; never in a page's or socket's way
        log.exception("the room check's card could not be pushed")


def reset(now: float | None = None) -> None:
    """A fresh start (tests): nobody reached, a new check, the clock started now."""
    global room, check, _readings, _weak
    room = Room(started=time.time() if now is None else now)
    check = Check()
    _readings = None
    _tables.clear()
    _weak = {}
