"""The project's wiring: migrations, settings, the home page, static assets."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_is_missing_a_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migrations:\n{out.getvalue()} ({exc})")


def test_hosts_are_listed_never_a_wildcard():
    assert "*" not in settings.ALLOWED_HOSTS
    assert "localhost" in settings.ALLOWED_HOSTS


def test_debug_is_off_unless_asked_for():
    assert settings.DEBUG is False


@pytest.mark.django_db
def test_the_hosts_dashboard_offers_every_preset(client):
    """The presets are the host's choice when starting a night (the home page is for
    guests)."""
    from bunco.host.auth import host_secret
    from scoring import PRESETS

    response = client.get(f"/host/{host_secret()}/", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    for rules_id, rules in PRESETS.items():
        assert f'value="{rules_id}"' in html and rules.name in html


def test_home_page_refuses_a_post(client):
    assert client.post("/").status_code == 405


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout():
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert "journal_mode=WAL" in options["init_command"]
        assert options["timeout"] >= 5


@pytest.mark.sqlite_only("PostgreSQL has no journal mode")
@pytest.mark.django_db
def test_the_database_really_is_in_wal_mode():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0].lower() == "wal"


#: What a host reads before her night, and each page a newcomer opens after it: the docs are
#: kept short enough to be read (words, as `wc -w` counts them).
README_WORDS, PAGE_WORDS, ALL_WORDS = 3000, 3000, 18000


def test_the_docs_stay_short_enough_to_read():
    root = Path(__file__).resolve().parent.parent
    counts = {path.relative_to(root).as_posix(): len(path.read_text().split())
              for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]}
    assert counts["README.md"] <= README_WORDS, counts["README.md"]
    long = {page: n for page, n in counts.items() if n > PAGE_WORDS}
    assert not long, f"pages over {PAGE_WORDS} words: {long}"
    assert sum(counts.values()) <= ALL_WORDS, counts


def test_every_link_between_the_docs_leads_somewhere():
    root = Path(__file__).resolve().parent.parent
    for page in [root / "README.md", *(root / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+?)(?:#[^)]*)?\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_a_test_run_keeps_its_data_in_a_folder_of_its_own():
    """The suite never writes into the checkout's ``var/`` (``make run``'s night lives there,
    and two runs at once would share it): the run's database, keys and collected files are in
    a folder made for it."""
    root = Path(__file__).resolve().parent.parent
    data = Path(settings.DATA_DIR).resolve()
    assert data != (root / "var").resolve() and root not in data.parents
    assert Path(settings.STATIC_ROOT).resolve().parent == data
