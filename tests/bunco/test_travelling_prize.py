"""Seed 004's doormat "must stay at the front door ... bring back the doormat": a named prize
that goes home with its winner is asked back at the group's next night, by the host's page
and on its holder's own phone."""

import random
import re

from bunco.host.auth import host_secret
from bunco.live import screens
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, how_we_play, sample_names
from tests.playing import finish_night


def settled(night):
    for key, tie in screens.pending_ties(night, live_state(night)).items():
        if tie["can_split"]:
            services.prize_split(night=night, category=key, can_split=True)
        else:
            services.prize_roll_off(night=night, category=key, contenders=tie["contenders"],
                                    winner=tie["contenders"][0])


def doormat_holder(night) -> str:
    award = next(a for a in screens.final_awards(live_state(night))
                 if a["category"] == "lowest_points")
    return award["payouts"][0]["name"]


def test_the_doormat_comes_back_to_the_next_night(client, db):
    first = services.night_create(name="March", rules_id="babz", player_names=sample_names(12))
    services.night_seat(night=first, rng=random.Random(2))
    finish_night(first, rng=random.Random(3), sets=1)
    settled(first)
    holder = doormat_holder(first)

    second = services.night_create(name="April", rules_id="babz",
                                   player_names=sample_names(12))
    client.get(f"/host/{host_secret()}/")
    page = client.get(f"/host/nights/{second.pk}/").content.decode()
    said = re.sub(r"<[^>]+>", "", page).replace("\u2068", "").replace("\u2069", "")
    assert f"Bring back: the Upside-down pineapple doormat. {holder} took it home from March." \
        in said
    mine = second.players.get(name=holder)
    other = second.players.exclude(name=holder).first()
    assert "bring it back tonight!" in client.get(f"/p/{mine.token}/").content.decode()
    assert "bring it back tonight!" not in client.get(f"/p/{other.token}/").content.decode()


def test_the_card_says_the_doormat_comes_back_and_the_prize_form_keeps_it(client, db):
    prizes = dict(how_we_play(PRESETS["babz"]))["Tonight's prizes"]
    assert ("Upside-down pineapple doormat (it goes home with its winner, who brings it back "
            "to the next night) for the lowest score") in prizes
    night = services.night_create(name="May", rules_id="babz", player_names=sample_names(12))
    client.get(f"/host/{host_secret()}/")
    form = client.get(f"/host/nights/{night.pk}/awards/").content.decode()
    fields = dict(re.findall(r'name="((?:order|category|share|prize|ties)_\d+)" value="([^"]*)"',
                             form))
    rows = len(PRESETS["babz"].awards)
    posted = {"rows": rows + 2, "award_ties": "ask", **fields,
              f"travels_{rows - 1}": "on"}
    for i, a in enumerate(PRESETS["babz"].awards):
        posted[f"category_{i}"] = str(a.category)
    client.post(f"/host/nights/{night.pk}/awards/", posted)
    night.refresh_from_db()
    assert night.rules.awards[-1].travels and not night.rules.awards[0].travels
