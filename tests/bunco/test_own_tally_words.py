"""A player's own points at a table that counts them (seed 004, babz) read as a person would
say them: "1 pt", "0 pts", "2 pts"."""

import re

from bunco.live import screens
from bunco.night.cache import live_state
from tests.playing import roll, started_night


def own_tallies(night) -> list[str]:
    html = screens.render_table(live_state(night), 1)
    return re.findall(r'data-testid="own-tally"[^>]*>([^<]*)</small>', html)


def test_one_point_is_one_pt_and_the_rest_are_pts(db):
    night = started_night("Babz", 8, seed=4)
    roll(night, 1, quick="hit1")  # the first roller's own point
    assert sorted(own_tallies(night)) == ["0 pts", "0 pts", "0 pts", "1 pt"]
    roll(night, 1, quick="hit1")
    assert sorted(own_tallies(night)) == ["0 pts", "0 pts", "0 pts", "2 pts"]
