"""Issue 8's rules as the live night shows them: the fuzzy die on the TV and the phones, each
set's winner on the master sheet and the TV, and ties the tied players settle their own way."""

import html
import random
import re

import pytest

from bunco.host.auth import host_secret
from bunco.live import broadcast, room_frames, screens
from bunco.night import services
from bunco.night.cache import live_state
from scoring import how_we_play, sample_names
from tests.playing import finish_night, play_round, roll


@pytest.fixture
def host_client(client, db):
    client.get(f"/host/{host_secret()}/")
    return client


def night_of(rules_id, count=12, seed=1):
    night = services.night_create(name="Issue 8", rules_id=rules_id, entry_fee_cents=1000,
                                  player_names=sample_names(count))
    services.night_seat(night=night, rng=random.Random(seed))
    return night


@pytest.mark.django_db
def test_the_fuzzy_die_starts_at_the_head_table_and_the_phones_and_tv_follow_it():
    """Seed 000: "The head table holds the bell and fuzzy die." and "If any player rolls 3
    ones, she will shout "bunco", and receive the fuzzy die\""""
    night = night_of("fuzzy-die")
    services.round_start(night=night)
    state = live_state(night)
    assert screens.table_context(state, 1)["fuzzy_die"] == "the head table"
    assert screens.table_context(state, 2)["fuzzy_die"] is None
    assert screens.tv_bunco(state)["fuzzy"] == "the head table"
    roller = state.room.tables[1].spec.seats[0].name
    ack = roll(night, 2, quick="bunco")  # table 2's scorekeeper: a bunco
    state = live_state(night)
    assert state.fuzzy_die_holder == roller
    assert screens.table_context(state, 2)["fuzzy_die"] == roller
    assert screens.table_context(state, 1)["fuzzy_die"] is None
    # The tap re-renders both tables: the one the die left and the one it reached.
    event = next(e for e in state.round_events if e.seq == ack.row.seq)
    assert broadcast.touched_tables(state, event) == [1, 2]
    assert state.versions.tables[1] == ack.row.seq
    html = screens.render_table(state, 2)
    assert "fuzzy die is here" in html and roller in html
    assert roller in room_frames.tv_bunco_html(state)
    services.event_void(night=night, seq=ack.row.seq)  # taken back: the die goes back
    state = live_state(night)
    assert state.fuzzy_die_holder is None
    assert screens.table_context(state, 1)["fuzzy_die"] == "the head table"
    assert 1 in state.versions.changed and 2 in state.versions.changed


@pytest.mark.django_db
def test_rules_without_a_fuzzy_die_show_none():
    night = night_of("clockwise")
    services.round_start(night=night)
    roll(night, 2, quick="bunco")
    state = live_state(night)
    assert state.fuzzy_die_holder is None and state.versions.changed == (2,)  # its own
    assert screens.table_context(state, 1)["fuzzy_die"] is None
    assert screens.tv_bunco(state)["fuzzy"] is None


@pytest.mark.django_db
def test_each_set_has_its_winner_on_the_master_sheet_and_the_tv(host_client):
    """Seed 000: "Continue playing until a full Set is completed. The winner of the Set is the
    player with the most "W's."" and "For a longer party, take a break, serve some food, and
    then play a second Set.\""""
    night = night_of("winning-moves")
    finish_night(night, rng=random.Random(3), sets=2, end=False)
    state = live_state(night)
    sets = screens.set_winners(state)
    assert [s["number"] for s in sets] == [1, 2]
    for s in sets:
        (award,) = s["awards"]
        assert award["label"] == "Set winner" and award["category"] == f"set{s['number']}:most_wins"
        for key, tie in screens.pending_ties(night, state).items():
            services.prize_roll_off(night=night, category=key, contenders=tie["contenders"],
                                    winner=None, rng=random.Random(1))
    state = live_state(night)
    sets = screens.set_winners(state)
    assert all(len(s["awards"][0]["winners"]) == 1 for s in sets)
    page = host_client.get(f"/host/nights/{night.pk}/sheet/").content.decode()
    for s in sets:
        assert f"Set winner: <b>{s['winner']}</b>" in page
    tv = screens.tv_room(night, state)
    assert [s["winner"] for s in tv["sets"]] == [s["winner"] for s in sets]
    assert 'data-testid="tv-sets"' in room_frames.tv_room_html(night, state)
    # How it was decided, from the rules' own award: on the TV and the sheet.
    rule = ("The most wins (W's) in the set. Ties: the most buncos among them, then a "
            "roll-off to 5 points.")
    assert all(s["awards"][0]["rule"] == rule for s in sets)
    assert html.unescape(room_frames.tv_room_html(night, state)).count(rule) == 2
    assert html.unescape(page).count(rule) == 2


@pytest.mark.django_db
def test_a_sets_tie_cannot_be_settled_before_the_set_is_over():
    night = night_of("winning-moves")
    with pytest.raises(services.CommandRefused, match="set 1 is not over yet"):
        services.prize_roll_off(night=night, category="set1:most_wins", contenders=["Ava"],
                                winner="Ava")


@pytest.mark.django_db
def test_babz_ties_wait_for_the_tied_players_and_a_named_prize_is_never_split(host_client):
    """Seed 004: "For ties on the Final Score Sheet, we let them decide if they want a
    roll-off to see who wins it all. Or, they can decide how they would like to divvy up the
    prize money." The doormat "will go home with the person who had the lowest score\""""
    night = night_of("babz")
    services.night_end(night=night)  # nobody scored: everyone is tied for the scores
    state = live_state(night)
    ties = screens.pending_ties(night, state)
    assert ties["highest_points"]["can_split"] and len(ties["highest_points"]["contenders"]) == 12
    assert not ties["lowest_points"]["can_split"]
    page = host_client.get(f"/host/nights/{night.pk}/").content.decode()
    assert "Split the money" in page
    refused = host_client.post(f"/host/nights/{night.pk}/tie-split/",
                               {"category": "lowest_points"}, follow=True)
    assert "cannot be split" in refused.content.decode()
    host_client.post(f"/host/nights/{night.pk}/tie-split/", {"category": "highest_points"})
    awards = {a["category"]: a for a in screens.final_awards(live_state(night))}
    assert len(awards["highest_points"]["payouts"]) == 12  # shared, to the cent
    assert awards["lowest_points"]["roll_off"]
    host_client.post(f"/host/nights/{night.pk}/roll-off/", {"category": "lowest_points"})
    awards = {a["category"]: a for a in screens.final_awards(live_state(night))}
    assert len(awards["lowest_points"]["payouts"]) == 1 and not awards["lowest_points"]["roll_off"]
    junk = host_client.post(f"/host/nights/{night.pk}/tie-split/", {"category": "nonsense"},
                            follow=True)
    assert "no tie to settle" in junk.content.decode()


@pytest.mark.django_db
def test_the_rules_editor_shows_the_new_dimensions_in_plain_words(host_client):
    """The presets side by side: seed 004's "until someone at the head table ... reaches 21
    points" reads "One player's own points"; seed 001's "Each player gets a chance to roll at
    least once" reads "A whole turn"; Winning Moves' "High total will roll first"."""
    night = services.night_create(name="R", rules_id="babz")
    page = host_client.get(f"/host/nights/{night.pk}/rules/").content.decode()
    for words in ("Whose points reach the target", "One player&#x27;s own points",
                  "The team&#x27;s points together", "At least once means",
                  "A whole turn (rolling on while scoring)", "Who starts a roll-off",
                  "All roll three dice; the high total starts (not scored)",
                  "The tied players choose at the end: split or roll off",
                  "Players who went home early can win prizes", "Prizes for each set",
                  "Set winner", 'data-testid="presets-table"'):
        assert words in page, words
    form = {"night_name": "R", "entry_fee": "0", "target_reached_by": "team",
            "at_least_once": "turn", "award_ties": "split", "left_early_win_awards": "on"}
    host_client.post(f"/host/nights/{night.pk}/rules/", form)
    night.refresh_from_db()
    rules = night.rules
    assert (rules.target_reached_by.value, rules.at_least_once.value, rules.award_ties.value,
            rules.left_early_win_awards) == ("team", "turn", "split", True)


@pytest.mark.django_db
def test_a_bad_value_for_a_new_dimension_is_explained_and_changes_nothing(host_client):
    night = services.night_create(name="R", rules_id="babz")
    response = host_client.post(f"/host/nights/{night.pk}/rules/", {
        "night_name": "R", "entry_fee": "0", "target_reached_by": "table"})
    assert "Whose points reach the target: pick one of the choices" in response.content.decode()
    night.refresh_from_db()
    assert night.rules.target_reached_by.value == "player"


@pytest.mark.django_db
def test_guests_level_on_everything_share_a_place_on_every_screen(client, host_client):
    """Two guests level on wins, buncos and points read "3=" on the TV and the host's page and
    "3rd=" on their own phones, as the card says (not "3rd" and "4th" by their names)."""
    night = night_of("babz", count=4)
    services.round_start(night=night)
    roll(night, 1, quick="bunco")  # the first roller's own 21: their team wins, 21-0
    state = live_state(night)
    winner = state.night.history[-1].tables[0].winners
    losers = [n for n in sample_names(4) if n not in winner]
    rows = {s["name"]: s for s in screens.standings(state)}
    assert [rows[n]["place_label"] for n in losers] == ["3=", "3="]
    assert sorted(rows[n]["place_label"] for n in winner) == ["1.", "2."]
    tv = html.unescape(room_frames.tv_room_html(night, state))
    host = html.unescape(host_client.get(f"/host/nights/{night.pk}/").content.decode())
    for page in (tv, host):
        for name in losers:
            assert f"3= <bdi>{name}</bdi>" in page
    services.night_end(night=night)
    for name in losers:
        token = night.players.get(name=name).token
        phone = html.unescape(client.get(f"/p/{token}/").content.decode())
        assert re.search(r"<strong>3rd=</strong>\s+of 4 in the standings", phone)
    card = dict(how_we_play(night.rules))["Who wins"]
    assert "players level on all three share a place (3rd=), listed by name" in card


@pytest.mark.django_db
def test_a_guest_at_a_table_with_two_ghosts_can_go_home(client, host_client):
    """Ten guests, two ghosts: one guest of a table with a ghost goes home, then their partner's
    tablemate too. The host is not refused ("would have only one real player"): a ghost changes
    chairs with a guest of another table, whose phone shows where to sit."""
    night = night_of("babz", count=10, seed=3)
    play_round(night)
    state = live_state(night)
    spec = next(t for t in state.tables if any(s.ghost for s in t.seats))
    real = [s.name for s in spec.seats if not s.ghost]
    services.player_leave(night=night, player=night.players.get(name=real[0]))
    before = {n: live_state(night).seat_of(n) for n in sample_names(10)}
    leaver = night.players.get(name=real[1])
    answer = host_client.post(f"/host/nights/{night.pk}/players/{leaver.pk}/leave/",
                              follow=True)
    assert "only one real player" not in answer.content.decode()
    state = live_state(night)
    assert real[1] in state.left and state.seat_of(real[1]) is None
    assert all(sum(s.ghost for s in t.seats) <= 2 for t in state.tables)
    moved = [n for n, seat in before.items()
             if n not in real[:2] and seat[0] != state.seat_of(n)[0]]
    assert len(moved) == 1 and state.seat_of(moved[0])[0] == spec.number
    phone = client.get(f"/p/{night.players.get(name=moved[0]).token}/").content.decode()
    seat = state.seat_of(moved[0])[1] + 1
    assert re.search(rf"Next round:</strong> (Stay at|Move from table \d+ to) <strong>table "
                     rf"{spec.number}</strong>, seat {seat}\.", phone)
    play_round(night)  # and the night plays on
    assert live_state(night).night.stats[moved[0]].wins + live_state(night).night.stats[
        moved[0]].losses == 2
