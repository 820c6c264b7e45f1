"""What a tap reads by its link's token (bunco/night/tap_reads.py): a form post's night is this
process's own instance of it while that is as current as the night's row, and read again when
another worker moved the night on, when the night was made anew, or not at all when it is gone."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from bunco.models import Night, TableLink
from bunco.night import services
from bunco.night.tap_reads import player_by_token, table_link_by_token


def _started(night):
    services.round_start(night=night)
    return TableLink.objects.get(night=night, number=1).token


def test_a_form_posts_night_is_read_once_while_current(seated_night):
    token = _started(seated_night)
    first = table_link_by_token(token)
    with CaptureQueriesContext(connection) as queries:
        again = table_link_by_token(token)
    assert again.night is first.night and again.number == 1
    assert len(queries) == 1  # the link's row alone: the night's rules are not parsed again
    player = seated_night.players.first()
    assert player_by_token(player.token).night is first.night


def test_a_night_another_worker_moved_on_is_read_again(seated_night):
    token = _started(seated_night)
    seq = table_link_by_token(token).night.last_seq
    # Another worker renames the night as it writes an event (its row's last_seq moves).
    Night.objects.filter(pk=seated_night.pk).update(name="Renamed", last_seq=seq + 1)
    night = table_link_by_token(token).night
    assert night.name == "Renamed" and night.last_seq == seq + 1
    player = seated_night.players.first()
    assert player_by_token(player.token).night.name == "Renamed"


def test_a_night_made_anew_under_its_key_is_another(seated_night):
    token = _started(seated_night)
    old = table_link_by_token(token).night
    made = seated_night.created_at.replace(year=seated_night.created_at.year - 1)
    Night.objects.filter(pk=seated_night.pk).update(created_at=made, name="Restored")
    night = table_link_by_token(token).night
    assert night is not old and night.name == "Restored"


def test_a_deleted_nights_links_find_nothing(seated_night):
    token = _started(seated_night)
    player_token = seated_night.players.first().token
    assert table_link_by_token(token) is not None
    Night.objects.filter(pk=seated_night.pk).delete()
    assert table_link_by_token(token) is None
    assert player_by_token(player_token) is None
