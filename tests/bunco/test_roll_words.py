"""A roll has one name a night, the seed's own word, on every screen that names it; and a
table's roll lines read as sentences ("Faye: miss")."""

import html
import random
import re

import pytest

from bunco.live import screens
from bunco.models import TableLink
from bunco.night import services
from bunco.night.cache import live_state
from scoring import PRESETS, sample_names
from scoring.rules import Triples
from tests.playing import play_round, roll

#: Each seed's word for three of a kind of another number (seeds 001 and 002 give it none).
SEED_WORDS = {"fuzzy-die": "funko", "clockwise": "mini-bunco", "babz": "baby bunco",
              "head-table": "mini bunco", "ladder": "mini bunco"}
#: Every name the nights' screens could give it.
NAMES = re.compile(r"\b(?:mini|baby)[- ]?bunco|\bfunko|>\s*mini\s*<", re.I)


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", page))


def _roll_lines(page: str) -> list[str]:
    """A table's roll lines as a guest reads them (tags and the take-back button left out)."""
    lines = re.findall(r'<li data-seq="\d+">(.*?)<button', page, re.S)
    return [_text(re.sub(r"<[^>]+>", "", line)).strip() for line in lines]


@pytest.mark.parametrize("rules_id", sorted(PRESETS))
def test_each_roll_kind_has_one_name_a_night_the_seeds_own(client, db, rules_id):
    rules = PRESETS[rules_id]
    players = 4 if rules_id == "winning-moves-solo" else 12  # one table
    night = services.night_create(name="Words", rules_id=rules_id, entry_fee_cents=1000,
                                  player_names=sample_names(players))
    services.night_seat(night=night, rng=random.Random(3))
    minis = rules.triples is Triples.MINI
    if minis:
        play_round(night)  # a round on every guest's scorecard
    services.round_start(night=night)
    if minis:
        roll(night, 1, quick="mini")
    link = TableLink.objects.get(night=night, number=1)
    table = client.get(f"/t/{link.token}/").content.decode()
    tv = client.get(f"/tv/{night.tv_token}/").content.decode()
    guest = night.players.order_by("pk").first()
    phone = client.get(f"/p/{guest.token}/").content.decode()  # with their scorecard
    state = live_state(night)
    prizes = " ".join(a["label"] for a in screens.final_awards(state))
    said = {m.group(0).lower().strip("<> ") for page in (table, tv, phone, prizes)
            for m in NAMES.finditer(re.sub(r"<[^>]*>", "<>", page))}  # words, not attributes
    if not minis:
        assert said == set(), f"{rules_id} has no such roll, yet its screens say {said}"
        return
    word = SEED_WORDS[rules_id]
    assert said == {word}, f"{rules_id} calls one roll {said}"
    assert f">{word[0].upper()}{word[1:]}</button>" in table  # the pad's button
    assert f"A {word} (three of a kind of another number)" in _text(table)  # the card
    assert any(line.endswith(f": {word}, +{rules.mini_bunco_points} by table 1")
               for line in _roll_lines(table)), _roll_lines(table)
    assert f"<th>{word}s</th>" in tv and f"<th>{word}s</th>" in phone  # standings, scorecard
    if any(a.category == "most_mini_buncos" for a in rules.awards):
        assert f"Most {word}s" in prizes and f"Most {word}s" in tv  # the prizes, the races


def test_a_tables_rolls_read_as_sentences(client, seated_night):
    services.round_start(night=seated_night)
    first = live_state(seated_night).room.tables[0].spec.seats[0].name
    roll(seated_night, 1, quick="miss")
    second = live_state(seated_night).room.tables[0].spec.seats[1].name
    roll(seated_night, 1, dice=[1, 1, 4])  # round 1: two hits
    roll(seated_night, 1, quick="hit1")
    link = TableLink.objects.get(night=seated_night, number=1)
    lines = _roll_lines(client.get(f"/t/{link.token}/").content.decode())
    assert lines == [f"{second}: 1 hit, +1 by table 1", f"{second}: +2 by table 1",
                     f"{first}: miss by table 1"]
