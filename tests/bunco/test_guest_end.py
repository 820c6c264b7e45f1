"""The end of the night on a guest's own phone, and the page they keep: their place, their
totals as the standings count them, their prizes with the money, the night's winners."""

import html
import random
import re

import pytest

from bunco.host.auth import host_secret
from bunco.live import screens
from bunco.models import Night
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from tables.views import results_key
from tests.playing import finish_night, roll


@pytest.fixture
def ended(db):
    """Thirteen guests on babz ($10 each, a ghost in play), every round played, ended."""
    night = services.night_create(name="Gus's birthday", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(13))
    services.night_seat(night=night, rng=random.Random(3))
    state = finish_night(night, rng=random.Random(5), sets=1)
    # settle every tie as the host would: split where the players may, else a roll-off
    for key, tie in screens.pending_ties(night, state).items():
        if tie["can_split"]:
            services.prize_split(night=night, category=key, can_split=True)
        else:
            services.prize_roll_off(night=night, category=key, contenders=tie["contenders"],
                                    winner=tie["contenders"][0])
    return night


def text(page: str) -> str:
    """A page's words as a guest reads them."""
    words = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"\s+", " ", words).replace("\u2068", "").replace("\u2069", "")


def test_every_guest_sees_their_place_and_totals_as_the_standings_count_them(client, ended):
    state = live_state(ended)
    standings = {s["name"]: s for s in screens.standings(state)}
    for player in ended.players.all():
        page = text(client.get(f"/p/{player.token}/").content.decode())
        mine = standings[player.name]
        place = screens.my_night(state, player.name)["place_text"]
        assert f"{place} of {len(standings)} in the standings" in page
        assert place.startswith(str(mine["place"]))
        assert f"{mine['wins']} win" in page and f"{mine['buncos']} bunco" in page
        assert f"{mine['points']} point" in page
        assert "Tonight's winners" in page
        # the last round's tally no longer stands in for the night
        assert "final tally" not in page


def test_a_prize_winner_reads_each_prize_and_its_money_on_their_own_phone(client, ended):
    state = live_state(ended)
    paid: dict[str, list[tuple[str, str]]] = {}
    for a in screens.final_awards(state):
        for p in a["payouts"]:
            paid.setdefault(p["name"], []).append((a["label"], p["amount"]))
    assert paid, "somebody wins a prize on babz"
    for player in ended.players.filter(name__in=list(paid)):
        page = text(client.get(f"/p/{player.token}/").content.decode())
        assert "Your prize" in page
        for label, amount in paid[player.name]:
            assert label in page
            if amount and amount != "$0.00":
                assert amount in page


def test_a_guest_with_no_prize_still_gets_a_true_summary(client, ended):
    state = live_state(ended)
    winners = {p["name"] for a in screens.final_awards(state) for p in a["payouts"]}
    others = ended.players.exclude(name__in=winners)
    assert others.exists()
    player = others.first()
    night = screens.my_night(state, player.name)
    card = state.night.scorecard(player.name)
    won = sum(r["result"] == "W" for r in card)
    assert night["prizes"] == []
    assert night["summary"].startswith(f"You won {won} of {len(card)} round")
    assert night["summary"].endswith("Thanks for playing!")
    page = text(client.get(f"/p/{player.token}/").content.decode())
    assert night["summary"] in page and "Your prize" not in page


def test_a_split_prize_and_a_roll_off_are_said_as_such(db):
    night = services.night_create(name="Ties", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12),
                                  rules=PRESETS["babz"].replace(award_ties="ask"))
    services.night_seat(night=night, rng=random.Random(1))
    state = finish_night(night, sets=1)  # every round the same few taps: ties everywhere
    ties = screens.pending_ties(night, state)
    assert ties
    key, tie = next((k, t) for k, t in ties.items() if t["can_split"])
    one = tie["contenders"][0]
    pending = next(p for p in screens.my_night(state, one)["prizes"] if p["pending"])
    assert set(pending["with"]) == set(tie["contenders"]) - {one}
    assert "split it or roll off" in pending["text"]
    services.prize_split(night=night, category=key, can_split=True)
    state = live_state(night)
    split = next(p for p in screens.my_night(state, one)["prizes"] if p["with"])
    assert split["text"].startswith("Split with") or split["text"].startswith("Shared with")


def test_the_page_a_guest_keeps_opens_for_anyone_with_the_link_and_saves_as_one_file(
        client, ended):
    player = ended.players.order_by("name").first()
    url = f"/r/{results_key(player)}/"
    page = client.get(url)
    assert page.status_code == 200
    assert f"{screens.my_night(live_state(ended), player.name)['place_text']} of" in text(
        page.content.decode())
    saved = client.get(url + "?save=1")
    assert saved.status_code == 200
    assert saved["Content-Disposition"].startswith('attachment; filename="bunco-Gus-s-birthday')
    body = saved.content.decode()
    assert "<style>" in body and ".my-night" in body
    # one file: nothing it needs is left on the laptop
    assert not re.search(r'(src|href)="/', body)
    # the player's own link (which taps for them) is never on it
    assert player.token not in body


def test_a_results_link_cannot_be_guessed_nor_read_before_the_night_ends(client, seated_night):
    player = seated_night.players.first()
    key = results_key(player)
    assert client.get(f"/r/{key}/").status_code == 404
    assert "once it has" in client.get(f"/r/{key}/").content.decode()
    forged = f"{player.pk + 1}:{key.split(':')[1]}"
    assert client.get(f"/r/{forged}/").status_code == 404
    assert client.get("/r/nonsense/").status_code == 404


def test_where_an_unwon_prizes_money_went_is_said(db):
    """Nobody rolls a mini bunco in a night of buncos and misses: its share moves on, and the
    host's page, the reveal and every phone say where."""
    night = services.night_create(name="Quiet", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(1))
    state = finish_night(night, sets=1)
    awards = {a["category"]: a for a in screens.final_awards(state)}
    assert not awards["most_mini_buncos"]["payouts"]
    moved = awards["most_mini_buncos"]["moved"]
    assert moved.startswith("Nobody won it: its $18.00 went to Most buncos")
    assert "from Most baby buncos, which nobody won" in awards["most_buncos"]["moved"]
    someone = sample_names(12)[0]
    winners = screens.my_night(state, someone)["winners"]
    assert any(w["moved"] == moved for w in winners)
    host = screens.host_room(night, state)
    assert any(a["moved"] == moved for a in host["awards"])


def test_a_fee_on_a_night_whose_prizes_pay_no_money_is_flagged_then_shown_at_the_end(client, db):
    client.get(f"/host/{host_secret()}/")
    answer = client.post("/host/nights/", {"name": "Office", "rules_id": "head-table",
                                           "entry_fee": "5", "players": "\n".join(
                                               sample_names(8))}, follow=True)
    page = text(answer.content.decode())
    assert page.count("These rules give no money prizes, so the $5.00 entry fees are paid out"
                      " to nobody") == 1  # said once, next to the rules
    # a night with money prizes is not flagged
    answer = client.post("/host/nights/", {"name": "Babz", "rules_id": "babz",
                                           "entry_fee": "5", "players": "\n".join(
                                               sample_names(12))}, follow=True)
    assert "no money prizes" not in answer.content.decode()

    night = Night.objects.get(name="Office")
    services.night_seat(night=night, rng=random.Random(2))
    state = finish_night(night, sets=1)
    unpaid = "$40.00 was taken in entry fees (8 fees), and tonight's prizes pay no money"
    assert unpaid in text(client.get(f"/host/nights/{night.pk}/").content.decode())
    guest = night.players.first()
    assert unpaid in text(client.get(f"/p/{guest.token}/").content.decode())
    assert state.ended


def test_a_head_table_phone_says_a_whole_turn_for_those_who_have_not_rolled(db):
    """Seed 001 gives everyone who has not rolled a whole turn after the bell: the table's own
    line says so (it said one roll), as the card does."""
    night = services.night_create(name="Seed 001", rules_id="head-table",
                                  player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(1))
    services.round_start(night=night)
    roll(night, 1, quick="bunco")  # the head table's first roller: 21, the bell
    table = text(screens.render_table(live_state(night), 1))
    assert "Everyone who hasn't rolled gets one whole turn" in table
    assert "Nobody was rolling" not in table


def test_the_host_records_a_split_as_the_tied_players_agreed_and_their_phones_show_it(
        client, db):
    night = services.night_create(name="Divvy", rules_id="babz", entry_fee_cents=1000,
                                  player_names=sample_names(12),
                                  rules=PRESETS["babz"].replace(award_ties="ask"))
    services.night_seat(night=night, rng=random.Random(1))
    state = finish_night(night, sets=1)
    key, tie = next((k, t) for k, t in screens.pending_ties(night, state).items()
                    if t["can_split"] and len(t["contenders"]) >= 2)
    first, *rest = tie["contenders"]
    client.get(f"/host/{host_secret()}/")
    url = f"/host/nights/{night.pk}/tie-split/"
    shares = {"category": key, "share_0": "70", **{f"share_{i + 1}": "0" for i in range(
        len(rest))}}
    wrong = client.post(url, {**shares, "share_0": "60"}, follow=True)
    assert "not 100%" in text(wrong.content.decode())
    assert key in screens.pending_ties(night, live_state(night))  # nothing changed
    if rest:
        shares["share_1"] = "30"
    answer = client.post(url, shares, follow=True)
    assert f"split the prize: {first} 70%" in text(answer.content.decode())
    award = next(a for a in screens.final_awards(live_state(night)) if a["category"] == key)
    paid = {p["name"]: p["cents"] for p in award["payouts"]}
    assert abs(paid[first] - round(sum(paid.values()) * 0.7)) <= 1
    phone = text(client.get(f"/p/{night.players.get(name=first).token}/").content.decode())
    assert f"your share of {award['amount']}" in phone


@pytest.mark.parametrize("rules_id", ["clockwise", "babz"])
def test_a_guests_mini_buncos_are_counted_in_the_nights_own_word(client, db, rules_id):
    """Seed 004 calls three of a kind a "baby bunco": a guest's totals say "2 baby buncos"
    (or "1 baby bunco"), the word on the card, the pad and the TV, never a bare "2 mini"."""
    night = services.night_create(name="Words", rules_id=rules_id, player_names=sample_names(8))
    services.night_seat(night=night, rng=random.Random(3))
    finish_night(night, rng=random.Random(5), sets=1)
    state = live_state(night)
    word = state.rules.mini_word or "mini bunco"
    seen = 0
    for s in screens.standings(state):
        if not s["mini_buncos"]:
            continue
        player = night.players.get(name=s["name"])
        page = text(client.get(f"/p/{player.token}/").content.decode())
        n = s["mini_buncos"]
        assert f"{n} {word}{'' if n == 1 else 's'} " in page, (n, word)
        assert f"{n} mini " not in page or word == "mini bunco"
        seen += 1
    assert seen, "nobody rolled one: another seed is needed"
