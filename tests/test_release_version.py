"""The version comes from one place, pyproject.toml: the `bunco` command prints it first when
it starts (and with --version), and the host's page shows it, so a host asking for help can
say which Bunco she runs."""

import tomllib
from pathlib import Path

import pytest

from bunco import version as version_module
from bunco.host.auth import host_secret
from bunco.laptop import cli

ROOT = Path(__file__).resolve().parent.parent
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_checkout_reads_pyprojects_version():
    assert version_module.version() == DECLARED


def test_without_pyproject_the_installed_metadata_is_read(monkeypatch, tmp_path):
    monkeypatch.setattr(version_module, "PYPROJECT", tmp_path / "pyproject.toml")
    monkeypatch.setattr(version_module.metadata, "version", lambda name: "9.8.7")
    version_module.version.cache_clear()
    try:
        assert version_module.version() == "9.8.7"
    finally:
        version_module.version.cache_clear()


def test_bunco_version_prints_it(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"bunco {DECLARED}\n"


def test_a_busy_port_prints_no_version_line_only_its_sentence(monkeypatch, capsys):
    """The version is said with "is running" (tests/bunco/test_serve.py), once serving: a
    start that cannot serve prints its one sentence and nothing else."""
    monkeypatch.setattr("bunco.laptop.lan.port_problem", lambda bind, port: "That port is busy.")
    assert cli.main(["--no-browser"]) == 1
    printed = capsys.readouterr()
    assert printed.out == "" and printed.err == "That port is busy.\n"


def test_the_host_page_shows_the_version(client, db):
    page = client.get(f"/host/{host_secret()}/", follow=True)
    assert f"Bunco {DECLARED}</small>" in page.content.decode()
