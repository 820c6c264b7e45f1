"""What a room-wide event costs the phones: a bell or a pause changes nobody's own seat, so
each phone hears it through its table's group (the banner and its table) and no phone's own
"me" fragment (nor the TV's standings) is drawn again; the round's close changes every
phone's result and next seat, so each phone gets its own. A phone whose player has no seat
still gets the banner. A room-wide event reaches every screen in two steps: the banner alone
first, then the parts it changed, drawn once the banners are on their way."""

import pytest

from bunco.live import groups
from bunco.models import Player
from bunco.night import services
from bunco.runtime import pushes
from scoring import sample_names
from tests.playing import play_round, roll


@pytest.fixture
def pushed(monkeypatch):
    monkeypatch.setattr(groups, "watching", lambda group: True)
    sent = []  # each push's messages, in order (a room-wide event makes two)

    # each push's messages as they are sent (bunco/runtime/pushes.py)
    monkeypatch.setattr(pushes, "_send_now", sent.append)
    return sent


@pytest.fixture
def night(db):
    """Twelve players seated at three tables (no ghosts)."""
    night = services.night_create(name="Gala", rules_id="clockwise",
                                  player_names=sample_names(12))
    services.night_seat(night=night)
    return night


def to_phones(messages, night):
    """The messages to players' own phones (their "player" groups)."""
    phones = {groups.player(p.pk) for p in Player.objects.filter(night=night)}
    return [m for g, m in messages if g in phones]


def test_a_bell_its_take_back_and_a_pause_reach_the_phones_through_their_tables_only(
        night, pushed, django_capture_on_commit_callbacks):
    services.round_start(night=night)

    def take_back_the_bell(night):
        services.event_void(night=night, seq="bell")

    for command in (services.bell_ring, take_back_the_bell, services.game_pause,
                    services.game_resume):
        pushed.clear()
        with django_capture_on_commit_callbacks(execute=True):
            command(night=night)
        banners, parts = pushed
        # First every screen hears it: the banner alone, to each table, the TV and the host.
        assert {g for g, _ in banners} == {groups.table(night.pk, n) for n in (1, 2, 3)} | {
            groups.tv(night.pk), groups.host(night.pk)}, command.__name__
        assert all(m["html"].startswith('<header id="banner"') and 'id="table-' not in m["html"]
                   for _, m in banners)
        mine = to_phones(banners + parts, night)
        assert mine == [], command.__name__  # no phone's own fragment drawn again
        tables = [m for g, m in parts if g == groups.table(night.pk, 2)]
        assert len(tables) == 1 and 'id="table-2"' in tables[0]["html"]
        # Then the TV gets the tables; its standings and races are as they were.
        (tv,) = [m for g, m in parts if g == groups.tv(night.pk)]
        assert 'id="tv-tables"' in tv["html"] and 'id="tv-standings"' not in tv["html"]
        # The host's page likewise: its tables, not its standings and next seats.
        (host,) = [m for g, m in parts if g == groups.host(night.pk)]
        assert 'id="table-2"' in host["html"] and 'id="host-room"' not in host["html"]
        assert all(m["seq"] == banners[0][1]["seq"] for _, m in banners + parts)


def test_the_rounds_close_draws_every_phone_its_own_result_and_next_seat(
        night, pushed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play_round(night)
    mine = to_phones(pushed[-1], night)  # the tap that closed the round
    assert len(mine) == 12
    assert all('id="me"' in m["html"] and "final tally" in m["html"] for m in mine)
    (host,) = [m for g, m in pushed[-1] if g == groups.host(night.pk)]
    assert 'id="host-room"' in host["html"] and "Standings" in host["html"]


def test_the_layer_read_once_still_follows_a_changed_setting(settings):
    """Whether pushes may reach another process is read from the settings once, and read
    again when they change: with a shared layer every group counts as watched."""
    party = {"default": {"BACKEND": "bunco.runtime.layer.PartyChannelLayer"}}
    settings.CHANNEL_LAYERS = party
    assert not groups.watching("table_999_1")
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer"}}
    assert groups.watching("table_999_1")
    settings.CHANNEL_LAYERS = party
    assert not groups.watching("table_999_1")


def test_a_phone_without_a_seat_still_hears_the_bell(night, pushed,
                                                     django_capture_on_commit_callbacks):
    answer = services.walk_in_check_in(night=night, name="Late Lou")  # no ghost's chair: waits
    late = answer.player
    services.round_start(night=night)
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.bell_ring(night=night)
    banners, parts = pushed
    lou = [m for g, m in banners + parts if g == groups.player(late.pk)]
    assert len(lou) == 1 and 'id="banner"' in lou[0]["html"] and 'id="me"' not in lou[0]["html"]


def test_a_tap_reaches_the_tv_and_host_as_the_tables_latest_and_its_phones_as_every_tap(
        night, pushed, django_capture_on_commit_callbacks):
    services.round_start(night=night)
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        roll(night, 2, quick="miss")
    (messages,) = pushed
    by_group = {g: m for g, m in messages}
    # The TV and the host get every table's every tap: one still unread is replaced by the
    # table's next (bunco.live.layers); the table's own screens get each one.
    assert by_group[groups.tv(night.pk)]["replaces"] == "table-2"
    assert by_group[groups.host(night.pk)]["replaces"] == "table-2"
    assert "replaces" not in by_group[groups.table(night.pk, 2)]


@pytest.fixture
def held_back(monkeypatch):
    """A room-wide event's second step kept back, as the server keeps it until the taps that
    waited for its banner have gone."""
    kept = []

    def send(out):
        pushes._send_now(out.messages)
        kept.append(out.rest)

    monkeypatch.setattr(pushes, "push", send)
    return kept


def test_a_bells_tables_drawn_after_a_tap_show_that_tap(
        night, pushed, held_back, django_capture_on_commit_callbacks):
    services.round_start(night=night)
    with django_capture_on_commit_callbacks(execute=True):
        services.bell_ring(night=night)
        tapped = roll(night, 2, quick="hit1")
    parts = held_back[0]()
    (table,) = [m["html"] for g, m in parts.messages if g == groups.table(night.pk, 2)]
    # The roll made after the bell, with its own seq: a screen that has the tap keeps it.
    assert f'data-seq="{tapped.row.seq}"' in table and f'data-takeback="{tapped.row.seq}"' in table


def test_a_bells_tables_are_not_drawn_once_a_later_bell_or_take_back_drew_the_room(
        night, pushed, held_back, django_capture_on_commit_callbacks):
    services.round_start(night=night)
    with django_capture_on_commit_callbacks(execute=True):
        services.bell_ring(night=night)
        services.event_void(night=night, seq="bell")
    bell, take_back = held_back[-2:]
    assert bell() is None  # the take-back's own parts show every screen the room as it is
    assert take_back() is not None


def test_a_phone_picking_its_name_shows_on_the_hosts_player_list_at_once(
        night, pushed, django_capture_on_commit_callbacks):
    player = Player.objects.filter(night=night).order_by("pk")[3]
    with django_capture_on_commit_callbacks(execute=True):
        services.player_claim(night=night, player=player, device="a-phone")
    (messages,) = pushed
    assert [g for g, _ in messages] == [groups.host(night.pk)]
    html = messages[0][1]["html"]
    assert html.startswith(f'<span id="claim-{player.pk}"') and 'hx-swap-oob="true"' in html
    assert "on a phone" in html and f"Release phone: {player.name}" in html
    assert "data-seq" not in html  # a sync never asks for it
