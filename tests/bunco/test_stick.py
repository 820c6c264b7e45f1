"""Every page of a night names the night in a cookie, which a proxy in front of several
workers hashes on (deploy/nginx.conf), so the night's pages, websockets and taps reach one
worker; the cookie names the night of the page last opened."""

import pytest

from bunco.host.auth import host_secret
from bunco.models import TableLink
from bunco.night import services
from scoring import sample_names


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def test_every_page_of_a_night_names_it_for_the_proxy(host_client, seated_night):
    other = services.night_create(name="Other", rules_id="babz", player_names=sample_names(4))
    table = TableLink.objects.get(night=seated_night, number=1).token
    player = seated_night.players.first().token
    pages = [f"/t/{table}/", f"/p/{player}/", f"/tv/{seated_night.tv_token}/",
             f"/host/nights/{seated_night.pk}/"]
    for page in pages:
        host_client.get(f"/host/nights/{other.pk}/")  # the host's other night, last
        assert host_client.cookies["bunco_night"].value == str(other.pk)
        response = host_client.get(page)
        assert response.status_code == 200, page
        assert response.cookies["bunco_night"].value == str(seated_night.pk), page
        assert response.cookies["bunco_night"]["httponly"]


def test_the_proxy_hashes_on_that_cookie():
    from pathlib import Path

    conf = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
    upstream = conf.read_text().split("upstream bunco {", 1)[1].split("}", 1)[0]
    assert "hash $cookie_bunco_night consistent;" in upstream
