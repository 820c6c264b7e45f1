"""python manage.py simulate: the readable summary, the JSON contract, and clear errors."""

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring import PRESETS


def simulate(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_json_output_has_the_public_shape():
    data = json.loads(simulate("--rules", "babz", "--players", "13", "--seed", "7", "--json"))
    assert set(data) == {"rules", "seed", "players", "rounds", "awards", "sets"}
    assert (data["rules"], data["seed"]) == ("babz", 7)
    ghosts = [p for p in data["players"] if p["ghost"]]
    assert len(data["players"]) == 16 and len(ghosts) == 3
    for player in data["players"]:
        assert set(player) == {"name", "ghost", "wins", "losses", "buncos", "mini_buncos",
                               "points"}
    assert len(data["rounds"]) == 6 * PRESETS["babz"].sets
    first = data["rounds"][0]
    assert (first["set"], first["round"]) == (1, 1)
    head = first["tables"][0]
    assert head["table"] == 1
    assert set(head) == {"table", "seats", "teams", "scores", "winners", "losers"}
    a, b, c, d = head["seats"]
    assert head["teams"] == [[a, c], [b, d]]
    assert head["winners"] in head["teams"] and len(head["scores"]) == 2
    ghost_names = {g["name"] for g in ghosts}
    categories = [a["category"] for a in data["awards"]]
    assert categories == [str(a.category) for a in PRESETS["babz"].awards]
    assert data["awards"][0]["share"] == "40%"
    assert not ghost_names & {w for a in data["awards"] for w in a["winners"]}


def test_individual_tables_list_each_player_as_a_team_of_one():
    data = json.loads(simulate("--rules", "winning-moves", "--players", "5", "--seed", "1",
                               "--json"))
    sizes = [len(t["seats"]) for t in data["rounds"][0]["tables"]]
    assert sizes == [3, 2]
    three = data["rounds"][0]["tables"][0]
    assert three["teams"] == [[n] for n in three["seats"]]
    assert len(three["scores"]) == 3 and len(three["winners"]) == 1


def test_the_same_seed_gives_the_same_output_byte_for_byte():
    args = ["--rules", "ladder", "--players", "12", "--seed", "42"]
    assert simulate(*args) == simulate(*args)
    assert simulate(*args, "--json") == simulate(*args, "--json")
    assert simulate(*args, "--json") != simulate("--rules", "ladder", "--players", "12",
                                                 "--seed", "43", "--json")


def test_the_summary_shows_length_buncos_standings_and_awards():
    text = simulate("--rules", "babz", "--players", "12", "--seed", "3",
                    "--seconds-per-roll", "4")
    assert "Estimated length:" in text and "assuming 4 s per roll" in text
    assert "Buncos tonight:" in text and "Standings:" in text and "Awards:" in text
    assert "most buncos [40%]" in text


def test_sets_option_changes_the_number_of_rounds():
    data = json.loads(simulate("--rules", "clockwise", "--players", "8", "--sets", "2",
                               "--seed", "1", "--json"))
    assert len(data["rounds"]) == 12


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rules", "poker", "--players", "12"], "unknown rules 'poker'"),
        (["--rules", "winning-moves-solo", "--players", "5"], "2 to 4 players, not 5"),
        (["--rules", "babz", "--players", "3"], "4 to 2000 players, not 3"),
        (["--rules", "babz", "--players", "2001"], "4 to 2000 players, not 2001"),
    ],
)
def test_bad_arguments_give_a_clear_error(args, message):
    with pytest.raises(CommandError, match=message):
        simulate(*args)


def test_bad_arguments_exit_non_zero_from_the_shell():
    result = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--rules", "nope", "--players", "12"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode != 0
    assert "unknown rules 'nope'" in result.stderr
    result = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--rules", "babz", "--players", "12",
         "--sets", "0"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode != 0 and "--sets" in result.stderr


def test_json_mode_prints_exactly_one_json_object_from_the_shell():
    result = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--rules", "fuzzy-die", "--players", "9",
         "--seed", "5", "--json"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(result.stdout)["rules"] == "fuzzy-die"


def test_benchmark_prints_nights_per_second_against_a_baseline():
    out = StringIO()
    call_command("benchmark", "--nights", "3", "--rules", "babz", stdout=out)
    text = out.getvalue()
    assert "nights/s" in text and "baseline" in text
    assert text.splitlines()[-1].startswith("babz")


def test_benchmark_measures_a_two_thousand_player_night_and_prints_the_figures():
    """Seating, every round, rotation and awards of 2,000 players, printed (not asserted: the
    figures depend on the machine)."""
    out = StringIO()
    call_command("benchmark", "--nights", "1", "--players", "2000", "--sets", "1",
                 "--rules", "clockwise", stdout=out)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("clockwise") and "a night in" in last and "s of CPU" in last
