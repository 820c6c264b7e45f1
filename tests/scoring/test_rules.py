"""House rules: presets, JSON round trips, and validation that names the bad field."""

import json

import pytest

from scoring import PRESETS, HouseRules, RulesError
from scoring.prize_rules import Category

EXPECTED_IDS = {
    "fuzzy-die", "winning-moves", "winning-moves-solo", "head-table", "ladder", "clockwise", "babz",
}


def test_presets_have_exactly_the_documented_ids():
    assert set(PRESETS) == EXPECTED_IDS


@pytest.mark.parametrize("rules_id", sorted(EXPECTED_IDS))
def test_every_preset_survives_a_json_round_trip(rules_id):
    rules = PRESETS[rules_id]
    assert HouseRules.from_json(rules.to_json()) == rules
    assert json.loads(rules.to_json())["name"] == rules.name


def test_babz_pot_is_40_20_15_15_10_plus_the_doormat():
    awards = PRESETS["babz"].awards
    shares = {a.category: a.share_percent for a in awards}
    assert [int(v) for v in shares.values() if v is not None] == [40, 20, 15, 15, 10]
    assert shares[Category.LOWEST_POINTS] is None
    assert "doormat" in awards[-1].prize


def test_a_custom_rule_set_starts_from_a_preset_and_changes_one_dimension():
    custom = PRESETS["babz"].replace(team_target=23, wipeout=True)
    assert (custom.team_target, custom.wipeout) == (23, True)
    assert custom.rotation == PRESETS["babz"].rotation


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"team_target": 0}, "team_target"),
        ({"team_target": "21"}, "team_target"),
        ({"bunco_points": True}, "bunco_points"),
        ({"rotation": "sideways"}, "rotation"),
        ({"wipeout": "yes"}, "wipeout"),
        ({"sets": 11}, "sets"),
        ({"name": "  "}, "name"),
        ({"colour": "red"}, "colour"),
        ({"awards": [{"category": "most_buncos", "share_percent": "60"}]}, "awards"),
        ({"awards": [{"category": "tallest"}]}, "awards[0].category"),
        ({"awards": [{"category": "most_wins"}]}, "awards[0]"),
        ({"awards": [{"category": "most_wins", "share_percent": "-5"},
                     {"category": "most_buncos", "share_percent": "105"}]},
         "awards[0].share_percent"),
        ({"awards": [{"category": "most_wins", "prize": "x"},
                     {"category": "most_wins", "prize": "y"}]}, "awards[1].category"),
    ],
)
def test_bad_values_name_the_field(changes, field):
    data = {**PRESETS["clockwise"].to_dict(), **changes}
    with pytest.raises(RulesError) as caught:
        HouseRules.from_dict(data)
    assert caught.value.field == field
    assert str(caught.value).startswith(field)


def test_shares_that_do_not_add_to_100_are_refused_with_the_total():
    data = PRESETS["babz"].to_dict()
    data["awards"][0]["share_percent"] = "35"
    with pytest.raises(RulesError, match="add up to 95%"):
        HouseRules.from_dict(data)


def test_invalid_json_is_a_rules_error():
    with pytest.raises(RulesError, match="not valid JSON"):
        HouseRules.from_json("{nope")


def test_player_limits():
    assert PRESETS["winning-moves-solo"].player_limits == (2, 4)
    assert PRESETS["babz"].player_limits == (4, 2000)
    with pytest.raises(RulesError, match="2 to 4 players, not 5"):
        PRESETS["winning-moves-solo"].check_player_count(5)
