"""The tally history tells a tap as it was made: a button's name (not dice it only stands for)
and, for a tap kept on an offline phone and sent late, when the phone took it."""

import time
import uuid

from bunco.host.auth import host_secret
from bunco.models import ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state


def post_roll(client, token, night, **fields):
    where = services.claim_for(live_state(night), 1)
    return client.post(f"/t/{token}/roll/", {
        "key": str(uuid.uuid4()), "set": where.set_number, "round": where.round_number,
        "table": 1, "pos": where.position, **fields})


def test_the_history_names_the_button_and_keeps_an_offline_taps_own_time(client, seated_night):
    night = seated_night
    services.round_start(night=night)
    token = TableLink.objects.get(night=night, number=1).token
    ten_minutes_ago = int((time.time() - 600) * 1000)
    assert post_roll(client, token, night, quick="miss", tapped=ten_minutes_ago).json()["ok"]
    assert post_roll(client, token, night, dice="1,1,2",
                     tapped=int(time.time() * 1000)).json()["ok"]
    late, now = ScoreEvent.objects.filter(night=night, kind="roll").order_by("seq")
    assert abs(late.data["tapped_at"] - ten_minutes_ago / 1000) < 0.2

    client.get(f"/host/{host_secret()}/")
    log = client.get(f"/host/nights/{night.pk}/log/").content.decode()
    assert "Miss <small>(button)</small>" in log
    assert "2-3-" not in log and "1-1-2" in log  # the dice only for the tap that had them
    assert log.count("(the phone was offline)") == 1


def test_a_phone_clock_days_off_is_not_believed(client, seated_night):
    night = seated_night
    services.round_start(night=night)
    token = TableLink.objects.get(night=night, number=1).token
    days_ago = int((time.time() - 3 * 86400) * 1000)
    assert post_roll(client, token, night, quick="miss", tapped=days_ago).json()["ok"]
    (row,) = ScoreEvent.objects.filter(night=night, kind="roll")
    assert "tapped_at" not in row.data
