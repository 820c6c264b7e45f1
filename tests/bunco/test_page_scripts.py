"""Each face's script loads on its own pages only: a guest's phone carries no TV pager and no
host controls, the TV no scorekeeper's pad."""

import re

import pytest

from bunco.host.auth import host_secret
from bunco.models import TableLink
from bunco.night import services
from scoring import sample_names


def scripts(html: str) -> set[str]:
    """The project's own scripts a page loads, by name (their hashed suffix aside)."""
    return {re.sub(r"\.[0-9a-f]{12}\.js$", ".js", src.rsplit("/", 1)[1])
            for src in re.findall(r'<script src="([^"]+/bunco/[^"]+\.js)"', html)}


@pytest.mark.django_db
def test_each_face_loads_only_its_own_script(client):
    night = services.night_create(name="Scripts", rules_id="babz", player_names=sample_names(8))
    services.night_seat(night=night)
    table = TableLink.objects.filter(night=night).first()
    player = night.players.first()
    phone = scripts(client.get(f"/p/{player.token}/").content.decode())
    device = scripts(client.get(f"/t/{table.token}/").content.decode())
    tv = scripts(client.get(f"/tv/{night.tv_token}/").content.decode())
    client.get(f"/host/{host_secret()}/")
    host = scripts(client.get(f"/host/nights/{night.pk}/").content.decode())
    pad = {"outbox.js", "pad.js"}
    assert {"live.js", *pad} <= device and {"tv.js", "host.js"}.isdisjoint(device)
    assert "live.js" in tv and "tv.js" in tv and {*pad, "host.js"}.isdisjoint(tv)
    assert {"live.js", "host.js"} <= host and {*pad, "tv.js"}.isdisjoint(host)
    assert {"live.js", *pad} <= phone and {"tv.js", "host.js"}.isdisjoint(phone)
