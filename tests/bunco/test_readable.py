"""Readable everywhere: no page depends on an emoji or symbol font, names are isolated from
their neighbours, there is a favicon, and pages and static files go out compressed."""

import re
import uuid

import pytest

from bunco.host.auth import host_secret
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state

NO_FONT = re.compile("[\u2196-\u21ff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")


@pytest.fixture
def playing(db):
    night = services.night_create(name="Names", rules_id="babz", player_names=[
        "محمد", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"])
    services.night_seat(night=night)
    services.round_start(night=night)
    return night


def pages(client, night):
    client.get(f"/host/{host_secret()}/")
    link = TableLink.objects.get(night=night, number=1)
    ann = night.players.get(name="محمد")
    return {
        "host": client.get(f"/host/nights/{night.pk}/").content.decode(),
        "table": client.get(f"/t/{link.token}/").content.decode(),
        "player": client.get(f"/p/{ann.token}/").content.decode(),
        "tv": client.get(f"/tv/{night.tv_token}/").content.decode(),
        "join": client.get(f"/j/{night.join_token}/").content.decode(),
    }


def test_icons_are_svg_and_no_page_needs_an_emoji_or_symbol_font(client, playing):
    for name, html in pages(client, playing).items():
        assert not NO_FONT.findall(html), (name, NO_FONT.findall(html))
        assert '<symbol id="i-bell"' in html and '<symbol id="d6"' in html, name
    host = pages(client, playing)["host"]
    assert '<use href="#i-bell"></use></svg> Ring the bell now' in host
    assert '<use href="#i-pause"></use></svg> Pause' in host


def test_every_name_is_isolated_from_its_neighbours(client, playing):
    for name, html in pages(client, playing).items():
        if name == "host":
            continue  # the host's inputs carry dir="auto"; the pushed parts are checked below
        bare = re.sub(r"<bdi[^>]*>محمد</bdi>", "", html)
        bare = re.sub(r'value="محمد"|aria-label="[^"]*"|data-[a-z-]+="[^"]*"', "", bare)
        bare = bare.replace("<title>&#x2068;محمد&#x2069;", "")  # isolated in the tab title
        assert "محمد" not in bare, name


def test_the_favicon_is_served_and_browsers_asking_for_favicon_ico_get_it(client, db):
    page = client.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert re.search(r"/static/bunco/favicon\.[0-9a-f]{12}\.svg$", icon)  # hashed: cached
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url == icon


def test_pages_are_compressed_for_browsers_that_accept_it(client, playing):
    link = TableLink.objects.get(night=playing, number=1)
    response = client.get(f"/t/{link.token}/", HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert response["Content-Encoding"] == "gzip"


def test_a_taps_answer_is_not_compressed_and_still_carries_the_table(client, playing):
    """The table it carries reaches the same phone uncompressed over the websocket anyway."""
    link = TableLink.objects.get(night=playing, number=1)
    state = live_state(playing)
    response = client.post(f"/t/{link.token}/roll/", {
        "key": str(uuid.uuid4()), "set": "1", "round": "1", "table": "1",
        "pos": str(state.position(1)), "quick": "hit2"}, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    answer = response.json()
    assert answer["ok"] and 'id="table-1"' in answer["html"]
