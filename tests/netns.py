"""A phone on the laptop's LAN, for real: a Linux network namespace joined to this machine by a
veth pair (this machine 10.77.N.1/24, the phone 10.77.N.2/24), and an nftables table to drop
what the phone sends, as a firewall would. Everything made is deleted on the way out, the test
passed or not. Needs root and ``ip`` (and ``nft`` for the firewall): CI runs as root, so there
a missing tool fails the test with a message instead of skipping it."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass

import pytest


def _run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    if check and done.returncode != 0:
        pytest.fail(f"`{' '.join(args)}` failed ({done.stderr.strip()}): the room check's LAN "
                    "tests need root with the network capability (CAP_NET_ADMIN)")
    return done


def need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.fail(f"the room check's LAN tests need `{tool}` (apt-get install -y "
                    f"{'iproute2' if tool == 'ip' else 'nftables'}) and root")
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("the room check's LAN tests need root (a network namespace)")
        pytest.skip("needs root: a network namespace stands for a phone on the Wi-Fi")


@dataclass
class Phone:
    namespace: str
    laptop: str  # this machine's address on the phone's LAN
    address: str  # the phone's

    def run(self, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
        """``args`` run on the phone (in its namespace)."""
        return subprocess.run(["ip", "netns", "exec", self.namespace, *args],
                              capture_output=True, text=True, timeout=timeout, check=False)


def _free_subnet() -> int:
    used = _run("ip", "-4", "-o", "addr", "show").stdout
    for n in range(os.getpid() % 200, os.getpid() % 200 + 250):
        if f" 10.77.{n % 250}.1/" not in used:
            return n % 250
    raise RuntimeError("no free 10.77.N.0/24")


@contextlib.contextmanager
def phone_on_the_lan():
    """A phone in its own namespace on a LAN of its own with this machine."""
    need("ip")
    n = _free_subnet()
    tag = f"{os.getpid() % 100000}{n}"
    namespace, laptop_side, phone_side = f"bunco-phone-{tag}", f"bch{tag}"[:15], f"bcp{tag}"[:15]
    try:
        _run("ip", "netns", "add", namespace)
        _run("ip", "link", "add", laptop_side, "type", "veth", "peer", "name", phone_side)
        _run("ip", "link", "set", phone_side, "netns", namespace)
        _run("ip", "addr", "add", f"10.77.{n}.1/24", "dev", laptop_side)
        _run("ip", "link", "set", laptop_side, "up")
        inside = ("ip", "netns", "exec", namespace)
        _run(*inside, "ip", "addr", "add", f"10.77.{n}.2/24", "dev", phone_side)
        _run(*inside, "ip", "link", "set", phone_side, "up")
        _run(*inside, "ip", "link", "set", "lo", "up")
        yield Phone(namespace, f"10.77.{n}.1", f"10.77.{n}.2")
    finally:
        _run("ip", "netns", "del", namespace, check=False)  # takes its end of the pair along
        _run("ip", "link", "del", laptop_side, check=False)


@contextlib.contextmanager
def firewall_dropping(phone: Phone, port: int):
    """An nftables table on this machine that drops the phone's connections to ``port``."""
    need("nft")
    table = f"bunco_roomcheck_{phone.namespace.rsplit('-', 1)[1]}"
    try:
        _run("nft", "add", "table", "inet", table)
        _run("nft", "add", "chain", "inet", table, "input",
             "{ type filter hook input priority 0; policy accept; }")
        _run("nft", "add", "rule", "inet", table, "input", "ip", "saddr", phone.address,
             "tcp", "dport", str(port), "drop")
        yield table
    finally:
        _run("nft", "delete", "table", "inet", table, check=False)
