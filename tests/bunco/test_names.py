"""Names: kept as typed but safe to show, told apart as a person would, safe in a spreadsheet."""

import csv
import io

import pytest

from bunco.models import Player, ScoreEvent
from bunco.night import names, services
from bunco.night.services import CommandRefused
from tests.playing import finish_night


@pytest.mark.parametrize("typed, kept", [
    ("Zoe\u0301", "Zoé"),                       # composed: one letter, as the keyboard makes it
    ("Ann\u202eevil", "Annevil"),               # a right-to-left override cannot flip the TV
    ("\u2066Bo\u2069", "Bo"),                   # isolates and marks go too
    ("Cy\u200b", "Cy"),                         # a zero-width space
    ("  Di \t  Lee\n", "Di Lee"),
    ("Ed\x07", "Ed"),                           # a control character
    ("می\u200cخواهم", "می\u200cخواهم"),          # a joiner a script needs stays
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),       # and an emoji sequence
])
def test_a_name_is_kept_as_typed_but_safe_to_show(typed, kept):
    assert names.normalise(typed) == kept


@pytest.mark.parametrize("typed, message", [
    ("Ghost 2", "what the app calls an empty chair"),
    ("ghost3", "what the app calls an empty chair"),
    ("ANN", "looks just like “Ann”"),
    ("Ann\u200b", "is already on the list"),
    ("Ａｎｎ", "looks just like “Ann”"),          # full-width letters
])
def test_a_name_that_looks_like_another_or_a_ghost_is_refused(seated_night, typed, message):
    services.round_start(night=seated_night)
    Player.objects.filter(night=seated_night, position=0).update(name="Ann")
    seated_night = type(seated_night).objects.get(pk=seated_night.pk)
    before = ScoreEvent.objects.filter(night=seated_night).count()
    with pytest.raises(CommandRefused, match=message):
        services.player_arrive(night=seated_night, name=typed)
    assert ScoreEvent.objects.filter(night=seated_night).count() == before
    assert not Player.objects.filter(night=seated_night, name=names.normalise(typed)).exclude(
        name="Ann").exists()


def test_a_pasted_list_with_two_lookalikes_is_refused_whole(db):
    with pytest.raises(CommandRefused, match="“bo” looks just like “Bo”"):
        services.night_create(name="N", rules_id="babz", player_names=["Ann", "Bo", "bo"])
    assert not Player.objects.exists()


def test_a_name_is_stored_normalised(db):
    night = services.night_create(name="N", rules_id="babz",
                                  player_names=["Zoe\u0301", "Ann\u202e", "Bo", "Cy"])
    assert [p.name for p in night.players.order_by("position")] == ["Zoé", "Ann", "Bo", "Cy"]


def test_the_score_sheet_download_never_runs_a_formula(db, client):
    from bunco.host.auth import host_secret

    hostile = ["=HYPERLINK(\"http://x\",\"hi\")", "+SUM(1,2)", "-1+2", "@SUM(1)", "Plain"]
    night = services.night_create(name="N", rules_id="fuzzy-die",
                                  player_names=hostile + ["A", "B", "C", "D", "E", "F", "G"])
    import random
    services.night_seat(night=night, rng=random.Random(2))
    finish_night(night, sets=1)
    client.get(f"/host/{host_secret()}/")
    body = client.get(f"/host/nights/{night.pk}/sheet.csv").content.decode()
    cells = [row[0] for row in csv.reader(io.StringIO(body))][1:]
    assert {c for c in cells if c.startswith("'")} == {"'" + h for h in hostile[:4]}
    assert not any(c[0] in "=+-@\t\r" for c in cells)
    assert "Plain" in cells


@pytest.mark.parametrize("cell, safe", [
    ("\tTab", "'\tTab"), ("\rCR", "'\rCR"), ("=1", "'=1"), ("Ann", "Ann"), (-3, -3),
])
def test_a_cell_that_would_start_a_formula_is_quoted(cell, safe):
    from bunco.live.sheets import safe_cell

    assert safe_cell(cell) == safe


def test_a_name_with_markup_shows_as_text_on_every_tables_screen(db):
    """The table's tally (rendered for every tap) shows a name as typed, never as markup."""
    from bunco.live import screens
    from bunco.night.cache import live_state

    night = services.night_create(name="N", rules_id="babz", player_names=[
        "<b>Bo</b>", "Al & Co", 'Cy "the dice"', "Di"])
    services.night_seat(night=night)
    services.round_start(night=night)
    html = screens.render_table(live_state(night), 1)
    assert "&lt;b&gt;Bo&lt;/b&gt;" in html and "<b>Bo</b>" not in html
    assert "Al &amp; Co" in html
    assert "Cy &#34;the dice&#34;" in html
    assert 'Cy "the dice"' not in html
