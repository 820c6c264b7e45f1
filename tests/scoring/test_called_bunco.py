"""Seeds 001 and 003: "the player has to yell it out to get credit for it". Under those rules
a bunco nobody called earns nothing (no points, no bunco, nothing rung) and the turn goes on;
a called one is a bunco as ever. Elsewhere a bunco counts whether or not it is called."""

import pytest

from scoring import PRESETS, IllegalMove, how_we_play
from scoring.roll import dice_for

from .helpers import spec
from .test_table import table


@pytest.mark.parametrize("preset_id", ["head-table", "clockwise"])
def test_an_uncalled_bunco_earns_nothing_and_the_turn_goes_on(preset_id):
    rules = PRESETS[preset_id]
    assert rules.bunco_must_be_called
    t = table(rules)
    score = t.roll((1, 1, 1), called=False)
    assert score.points == 0 and score.kind == "uncalled"
    assert t.team_scores == [0, 0] and t.seat_buncos == [0, 0, 0, 0]
    assert t.current == 0 and not t.bell_rung  # still A's turn, nothing rung
    called = t.roll((1, 1, 1))
    assert called.kind == "bunco" and t.seat_buncos[0] == 1 and t.team_scores[0] == 21
    said = dict(how_we_play(rules))["What scores"]
    assert "a bunco nobody called earns nothing, and the turn goes on" in said


def test_where_the_rules_do_not_ask_a_bunco_counts_called_or_not():
    rules = PRESETS["babz"]
    t = table(rules, head=False)
    assert t.roll((1, 1, 1), called=False).kind == "bunco"
    with pytest.raises(IllegalMove, match="whether or not it is called"):
        dice_for(rules, 1, "uncalled")
    assert "call it out" not in dict(how_we_play(rules))["What scores"]
    assert spec("ABCD")  # the helpers this file builds on
