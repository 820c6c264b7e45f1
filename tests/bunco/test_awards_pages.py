"""The host edits the prize list and the pot; the TV shows the prize races; a new night from
the last one in two clicks."""

import re

import pytest

from bunco.host.auth import host_secret
from bunco.live.screens import night_pot
from bunco.models import Night
from bunco.night import services
from bunco.night.cache import live_state
from tests.playing import finish_night, play_round, roll


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client

# The bell button names the set (when there is more than one) and the round it starts.
BELL_BUTTON = r'Ring the bell: start <span data-fill="next-round"[^>]*>(set 1, )?round 1<'


def form(rows, **extra):
    data = {"rows": str(len(rows)), "award_ties": "split", **extra}
    for i, (order, category, share, prize) in enumerate(rows):
        data.update({f"order_{i}": order, f"category_{i}": category, f"share_{i}": share,
                     f"prize_{i}": prize})
    return data


def test_the_host_adds_removes_reorders_and_prices_the_prizes(host_client, seated_night):
    url = f"/host/nights/{seated_night.pk}/awards/"
    page = host_client.get(url).content.decode()
    assert "Most buncos" in page and "must add up to 100%" in page
    rows = [("2", "most_buncos", "60", ""), ("1", "most_wins", "40", ""),
            ("3", "lowest_points", "", "Pineapple doormat"), ("4", "fuzzy_die", "", "x")]
    data = form(rows, pot="150", one_prize_per_person="on")
    data["remove_3"] = "on"
    host_client.post(url, data)
    seated_night.refresh_from_db()
    awards = seated_night.rules.awards
    assert [str(a.category) for a in awards] == ["most_wins", "most_buncos", "lowest_points"]
    assert [a.share_percent for a in awards][:2] == [40, 60]
    assert awards[2].prize == "Pineapple doormat"
    assert seated_night.rules.one_prize_per_person
    assert night_pot(live_state(seated_night)) == 15_000


def test_shares_that_do_not_add_up_are_refused_at_setup(host_client, seated_night):
    url = f"/host/nights/{seated_night.pk}/awards/"
    before = seated_night.rules_json
    response = host_client.post(url, form([("1", "most_wins", "40", ""),
                                           ("2", "most_buncos", "55", "")]), follow=True)
    assert "the shares of the pot add up to 95%, not 100%" in response.content.decode()
    seated_night.refresh_from_db()
    assert seated_night.rules_json == before


def test_a_refused_prize_list_comes_back_as_the_host_typed_it(host_client, seated_night):
    url = f"/host/nights/{seated_night.pk}/awards/"
    data = form([("2", "most_wins", "50", ""), ("1", "most_buncos", "40", ""),
                 ("3", "lowest_points", "", "Pineapple doormat")], pot="90.50",
                award_ties="roll_off")
    response = host_client.post(url, data)
    page = response.content.decode()
    assert "add up to 90%, not 100%" in page
    assert re.search(r'name="order_0" value="2"', page)
    assert re.search(r'name="share_0" value="50"', page)
    assert re.search(r'name="share_1" value="40"', page)
    assert re.search(r'name="prize_2" value="Pineapple doormat"', page)
    assert re.search(r'<option value="most_buncos" selected>', page)
    assert re.search(r'name="pot" value="90.50"', page)
    assert re.search(r'<option value="roll_off" selected>Roll off', page)


def test_the_pot_defaults_to_the_entry_fee_of_every_player(seated_night):
    assert night_pot(live_state(seated_night)) == 1000 * 12


def test_the_tv_shows_who_leads_each_prize_during_the_night(client, seated_night):
    services.round_start(night=seated_night)
    html = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert "Prize races" in html and "Most buncos · 40%" in html
    assert "Lowest score · Upside-down pineapple doormat" in html
    # Nobody has scored yet: the races say so, not "12 tied (0)".
    assert "No buncos yet" in html and "Nobody has scored yet" in html
    assert "12 tied" not in html
    # They count finished rounds, and say so: a bunco in the round in play joins at its end.
    assert "from the first round&#x27;s end" in html or "from the first round's end" in html
    roll(seated_night, 1, dice=[1, 1, 1])
    html = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert "No buncos yet" in html
    play_round(seated_night, start=False)
    services.round_start(night=seated_night)
    html = client.get(f"/tv/{seated_night.tv_token}/").content.decode()
    assert "after 1 round<" in html and "No buncos yet" not in html


def test_a_new_night_from_the_last_one_in_two_clicks(host_client, seated_night):
    response = host_client.post(f"/host/nights/{seated_night.pk}/again/", follow=True)
    again = Night.objects.exclude(pk=seated_night.pk).get()
    assert response.request["PATH_INFO"] == f"/host/nights/{again.pk}/"
    assert again.rules == seated_night.rules and again.entry_fee_cents == 1000
    assert list(again.players.values_list("name", flat=True)) == list(
        seated_night.players.values_list("name", flat=True))
    host_client.post(f"/host/nights/{again.pk}/seat/")  # the second click
    html = host_client.get(f"/host/nights/{again.pk}/").content.decode()
    assert re.search(BELL_BUTTON, html)


def test_a_tied_prize_is_rolled_off_by_the_app_or_entered_by_the_host(host_client, db):
    from scoring import sample_names

    night = services.night_create(name="Ties", rules_id="fuzzy-die",
                                  player_names=sample_names(8))
    night.rules_json = night.rules.replace(award_ties="roll_off").to_dict()
    night.save()
    services.night_seat(night=night)
    finish_night(night)
    page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    from bunco.live import screens
    from bunco.night.cache import live_state

    tied = [a for a in screens.final_awards(live_state(night)) if a["roll_off"]]
    assert tied, "eight players over six rounds always tie somewhere"
    assert "Roll the dice for them" in page
    first = tied[0]
    host_client.post(f"/host/nights/{night.pk}/roll-off/",
                     {"category": first["category"], "winner": first["roll_off"][-1]})
    night.refresh_from_db()
    assert night.roll_offs[first["category"]] == first["roll_off"][-1]
    response = host_client.post(f"/host/nights/{night.pk}/roll-off/",
                                {"category": first["category"], "winner": "Nobody"},
                                follow=True)
    assert "no tie to roll off" in response.content.decode()
    for other in tied[1:]:
        host_client.post(f"/host/nights/{night.pk}/roll-off/", {"category": other["category"]})
    night.refresh_from_db()
    assert all(a["category"] in night.roll_offs for a in tied)
    assert not [a for a in screens.final_awards(live_state(night)) if a["roll_off"]]


def test_the_tv_reveals_the_prizes_one_by_one(host_client, client, seated_night):
    finish_night(seated_night)
    tv = f"/tv/{seated_night.tv_token}/"
    assert client.get(tv).content.decode().count('class="hidden"') == 6
    host_client.post(f"/host/nights/{seated_night.pk}/reveal/")
    html = client.get(tv).content.decode()
    assert html.count('class="hidden"') == 5 and 'data-category="most_buncos"' in html


def test_each_prize_can_have_its_own_tie_policy(host_client, seated_night):
    """Seed 004: "For ties on the Final Score Sheet, we let them decide" -- a policy per prize,
    not one for the night. A bad policy is refused by name and changes nothing."""
    url = f"/host/nights/{seated_night.pk}/awards/"
    data = form([("1", "most_buncos", "50", ""), ("2", "most_wins", "50", "")])
    data.update(award_ties="ask", ties_0="roll_off")
    host_client.post(url, data)
    seated_night.refresh_from_db()
    rules = seated_night.rules
    assert rules.award_ties.value == "ask"
    assert [a.ties.value if a.ties else None for a in rules.awards] == ["roll_off", None]
    assert 'value="roll_off" selected' in host_client.get(url).content.decode()
    before = seated_night.rules_json
    data["ties_1"] = "coin_toss"
    response = host_client.post(url, data, follow=True).content.decode()
    assert "coin_toss" in response and "is not one of" in response
    seated_night.refresh_from_db()
    assert seated_night.rules_json == before
