"""The reveal belongs to the host: with a TV showing the night, End the night keeps the prizes
off the guests' phones until the TV reveals them (in what is pushed, in a phone's snapshot,
on its page and on the page a guest keeps), each shown the moment the TV shows it, and every
one after the last or when the host shows them all; with no TV the phones show everything at
the end. The log says which, so a night opened again reveals alike."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from bunco.asgi import application
from bunco.host.auth import host_secret
from bunco.live import groups, screens
from bunco.models import Night, Person, ScoreEvent
from bunco.night import devices, services
from bunco.night.cache import folds, live_state
from tables.views import results_key
from tests.playing import finale_night
from tests.screens import Screen


def host_client() -> Client:
    host = Client()
    host.get(f"/host/{host_secret()}/")
    return host


def end(host: Client, night: Night, *, tv: bool) -> None:
    """The host presses End the night, a TV showing the night or none."""
    if tv:
        groups.join(groups.tv(night.pk))
    try:
        assert host.post(f"/host/nights/{night.pk}/end/").status_code == 302
    finally:
        if tv:
            groups.leave(groups.tv(night.pk))


def reveal(host: Client, night: Night, every: bool = False) -> None:
    data = {"every": "1"} if every else {}
    assert host.post(f"/host/nights/{night.pk}/reveal/", data).status_code == 302


def winners_shown(html: str) -> str:
    """The night's winners as a phone lists them ("" for none)."""
    found = re.search(r'data-testid="night-winners">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


def labels(night: Night) -> list[str]:
    return [a["label"] for a in screens.final_awards(live_state(night))]


def first_winner(night: Night):
    award = screens.final_awards(live_state(night))[0]
    paid = award["payouts"][0]
    return night.players.get(name=paid["name"]), paid["amount"]


def pages(night: Night, player) -> list[str]:
    """The guest's phone page and the page they keep."""
    phone = Client().get(f"/p/{player.token}/").content.decode()
    kept = Client().get(f"/r/{results_key(player)}/").content.decode()
    return [phone, kept]


@pytest.fixture
def played(db):
    return finale_night()


def test_with_a_tv_each_prize_reaches_the_phones_only_once_the_tv_reveals_it(played):
    host = host_client()
    end(host, played, tv=True)
    assert ScoreEvent.objects.filter(night=played).last().data == {"tv_reveals": True}
    names = labels(played)
    player, amount = first_winner(played)
    for page in pages(played, player):
        assert 'data-testid="my-night"' in page
        assert not winners_shown(page) and 'data-testid="my-prizes"' not in page
        # Their place and totals would give the prizes away: they wait too.
        assert 'data-testid="my-place"' not in page and 'data-testid="my-totals"' not in page
        assert f"{len(names)} prizes still to be revealed on the TV" in page

    reveal(host, played)
    for page in pages(played, player):
        shown = winners_shown(page)
        assert f"<b>{names[0]}</b>" in shown and player.name in shown and amount in shown
        assert not any(label in shown for label in names[1:])
        assert names[0] in page.split('data-testid="my-prizes"')[1]  # their own win
        assert f"{len(names) - 1} prizes still to be revealed" in page

    page = host.get(f"/host/nights/{played.pk}/").content.decode()
    assert "Show every prize now" in page and "Reveal prize 2 of" in page
    reveal(host, played, every=True)  # the host shows the rest at once
    assert live_state(played).revealed == len(names)
    for page in pages(played, player):
        assert all(f"<b>{label}" in winners_shown(page) for label in names)
        assert 'data-testid="my-place"' in page and "still to be revealed" not in page


def test_after_the_last_reveal_the_phones_keep_every_prize_when_the_tv_starts_over(played):
    host = host_client()
    end(host, played, tv=True)
    names = labels(played)
    for _ in names:
        reveal(host, played)
    reveal(host, played)  # "All prizes are on the TV — start over"
    assert live_state(played).revealed == 0
    page = pages(played, first_winner(played)[0])[0]
    assert all(f"<b>{label}" in winners_shown(page) for label in names)


@pytest.mark.sqlite_only("one process knows no TV is open; with several workers a TV may be "
                         "on another, so the prizes wait for it (Show every prize now)")
def test_with_no_tv_the_phones_show_everything_at_the_end(played):
    host = host_client()
    end(host, played, tv=False)
    assert ScoreEvent.objects.filter(night=played).last().data == {}
    player, amount = first_winner(played)
    for page in pages(played, player):
        assert all(f"<b>{label}" in winners_shown(page) for label in labels(played))
        assert amount in winners_shown(page) and 'data-testid="my-place"' in page


def test_a_night_opened_again_from_its_log_or_its_file_reveals_alike(played):
    from bunco.laptop import backup

    host = host_client()
    end(host, played, tv=True)
    reveal(host, played)
    folds.drop(played.pk)  # the fold made again from the log
    assert live_state(played).prizes_out == 1
    data = json.loads(json.dumps(backup.night_file(played)))
    Night.objects.all().delete()
    Person.objects.all().delete()
    folds.drop(played.pk)
    restored = services.night_restore(data=data)
    assert live_state(restored).prizes_out == 1
    names = labels(restored)
    shown = winners_shown(pages(restored, first_winner(restored)[0])[0])
    assert names[0] in shown and not any(label in shown for label in names[1:])


# -- over the sockets ---------------------------------------------------------------------------

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def screen(path: str, secret: str | None = None) -> Screen:
    cookie = [(b"cookie", f"{devices.COOKIE}={secret}".encode())] if secret else []
    ws = Screen(application, path, headers=HEADERS + cookie)
    assert (await ws.connect())[0], path
    return ws


async def my_part(ws: Screen) -> str:
    """The phone's own part, from the frames pushed to it (the banner and table come first)."""
    while True:
        frame = await ws.receive_from()
        if 'id="me"' in frame:
            return frame


@pytest.mark.django_db(transaction=True)
async def test_a_phone_is_pushed_a_prize_only_when_the_tv_reveals_it_and_its_snapshot_agrees():
    def setup():
        night = finale_night()
        player, amount = first_winner(night)
        secret = devices.new_secret()
        services.player_claim(night=night, player=player, device=devices.fingerprint(secret))
        return night, player, amount, secret, labels(night), host_client()

    night, player, amount, secret, names, host = await database_sync_to_async(setup)()
    tv = await screen(f"/ws/tv/{night.tv_token}/")  # the TV shows the night
    phone = await screen(f"/ws/player/{player.token}/", secret)
    await tv.receive_from()
    assert 'id="me"' in await phone.receive_from()

    await database_sync_to_async(host.post)(f"/host/nights/{night.pk}/end/")
    pushed = await my_part(phone)
    assert 'data-testid="my-night"' in pushed and not winners_shown(pushed)
    assert player.name not in pushed.split('data-testid="my-night"')[1].split("Best round")[0]
    assert amount not in pushed

    await database_sync_to_async(reveal)(host, night)
    pushed = await my_part(phone)
    shown = winners_shown(pushed)
    assert f"<b>{names[0]}</b>" in shown and amount in shown
    assert not any(label in shown for label in names[1:])

    again = await screen(f"/ws/player/{player.token}/", secret)  # a phone reconnecting
    snapshot = await again.receive_from()
    assert winners_shown(snapshot) == shown
    for ws in (tv, phone, again):
        await ws.disconnect()
