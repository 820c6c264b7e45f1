"""The "How we play tonight" card reads the rules: presets that differ read differently."""

import pytest

from scoring import PRESETS, how_we_play, preset

HEADINGS = ["The night", "What scores", "What ends your turn", "What ends the round",
            "After the bell", "Ties", "How you move", "Ghosts", "Who wins", "Tonight's prizes"]


def card(rules) -> dict[str, str]:
    return dict(how_we_play(rules))


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_every_preset_explains_every_part(preset_id):
    parts = how_we_play(PRESETS[preset_id])
    assert [h for h, _ in parts if h != "The fuzzy die"] == HEADINGS
    for heading, text in parts:
        assert text.strip() and text.endswith("."), heading
        assert text.isascii(), heading  # plain text: no emoji


def test_the_presets_all_read_differently():
    texts = {tuple(how_we_play(r)) for r in PRESETS.values()}
    assert len(texts) == len(PRESETS)


def test_babz():
    c = card(preset("babz"))
    assert ("A baby bunco (three of a kind of another number) scores 5 and ends your turn."
            in c["What scores"])
    assert "or a baby bunco" in c["What ends your turn"]
    assert "one player's own points reach 21 or someone rolls a bunco" in c["What ends the round"]
    assert "Play stops the moment the bell rings." in c["After the bell"]
    assert "the team that ended the round wins, even with fewer points" in c["After the bell"]
    assert "losers go to the last table" in c["How you move"]
    assert "at the head table its 21 points reach the 21 and end the round" in c["Ghosts"]
    assert c["The night"].startswith("We play 2 sets of 6 rounds.")


def test_ladder():
    c = card(preset("ladder"))
    assert "Each die showing the round's number scores that number" in c["What scores"]
    assert ("A mini bunco (three of a kind of another number) scores 5 and you keep rolling."
            in c["What scores"])
    assert "one die" in c["Ties"]
    assert "losers go to table 2" in c["How you move"]
    assert "a team's points together reach 21" in c["What ends the round"]
    assert "finishes their turn" in c["After the bell"]


def test_winning_moves():
    c = card(preset("winning-moves"))
    assert "ends the round at every table" in c["What scores"]
    assert "A bunco at any table ends the round at every table at once." in c[
        "What ends the round"]
    assert "Each table plays its own game until a team's points together reach 21" in c[
        "What ends the round"]
    assert "low bunco (7 points) and above it a high bunco (5 points)" in c["What scores"]
    assert "a bunco (it ends the round)" in c["What ends your turn"]
    assert "first to 5 points" in c["Ties"] and "highest total of three dice" in c["Ties"]
    assert "With more than 12 players" in c["Ghosts"]


def test_winning_moves_solo_is_one_table_without_ghosts():
    c = card(preset("winning-moves-solo"))
    assert "one player's points reach 21" in c["What ends the round"]
    assert "nobody moves" in c["How you move"]
    assert c["Ghosts"].startswith("No ghosts")


def test_head_table_fuzzy_die_and_clockwise():
    head, fuzzy, clock = (card(preset(p)) for p in ("head-table", "fuzzy-die", "clockwise"))
    assert "finishes that one roll" in head["After the bell"]
    assert "one whole turn" in head["After the bell"]
    assert "ends your turn" in fuzzy["What scores"]  # a funko holds no target die
    assert "Play stops the moment the bell rings." in fuzzy["After the bell"]
    assert "first to roll the round's number wins" in clock["Ties"]
    assert clock["The night"].startswith("We play 1 set of 6 rounds.")
    assert "last table's losers move to the head table" in clock["How you move"]


def test_custom_changes_show():
    rules = preset("head-table").replace(team_target=23, bunco_points=25, wipeout=True,
                                         partners="fixed", triples="none", rotation="none",
                                         round_end="timer")
    c = card(rules)
    assert "bunco: 25 points" in c["What scores"]
    assert "wipeout" in c["What scores"] and "a wipeout" in c["What ends your turn"]
    assert "Three of a kind of another number scores nothing." in c["What scores"]
    assert "Teams stay together all night." in c["How you move"]
    assert "Nobody changes table." in c["How you move"]
    assert c["What ends the round"] == "Only the host's bell ends the round."
    assert "reach 23" in card(preset("babz").replace(team_target=23))["What ends the round"]


# -- what each card once left out -------------------------------------------------------------

def test_the_fuzzy_die_card_explains_the_fuzzy_die():
    """Seed 000: "The head table holds the bell and fuzzy die" and a bunco roller "receive[s]
    the fuzzy die"."""
    c = card(preset("fuzzy-die"))
    assert c["The fuzzy die"].startswith("The head table starts the night with the fuzzy die. "
                                         "Whoever rolls a bunco takes it")
    assert "The fuzzy die" not in card(preset("babz"))


def test_winning_moves_says_how_the_set_winner_is_decided():
    """Seed 000: "The winner of the Set is the player with the most W's", then the most B's
    among the tied, then a roll-off to 5 points, the high total rolling first."""
    assert card(preset("winning-moves"))["Who wins"].startswith(
        "Each set's winner is the player with the most wins; tied, the most buncos among "
        "them; still tied, a roll-off: the first to 5 points wins (the round's number and "
        "buncos count), and the highest total of three dice starts.")


def test_one_table_bunco_never_speaks_of_other_tables():
    c = card(preset("winning-moves-solo"))
    assert not [h for h, text in c.items() if "every table" in text or "any table" in text]
    assert "21 points, and it ends the round." in c["What scores"]


def test_no_card_names_a_nights_winner_the_standings_contradict():
    """The standings' order (wins first) is the app's, said as a house rule; no card names a
    "night's winner" by another count beside it."""
    for rules in PRESETS.values():
        c = card(rules)
        assert "night's winner" not in c["Who wins"]
        assert ("House rule: the standings on the TV and the phones put the most wins first"
                in c["Who wins"])


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_every_card_lists_tonights_prizes(preset_id):
    rules = PRESETS[preset_id]
    text = card(rules)["Tonight's prizes"]
    if not rules.awards:
        assert text == "No prizes are set for tonight."
    for a in rules.awards:
        assert (a.prize or f"{a.share_percent:g}% of the pot") in text


def test_the_prizes_card_follows_the_hosts_prize_list():
    rules = preset("babz")
    assert card(rules)["Tonight's prizes"].startswith(
        "Tonight's prizes: 40% of the pot for the most buncos; 20% of the pot for the highest "
        "score;")
    assert ("Upside-down pineapple doormat (it goes home with its winner, who brings it back to "
            "the next night) for the lowest score.") in card(rules)["Tonight's prizes"]
    assert "Players who go home early cannot win a prize." in card(rules)["Tonight's prizes"]
    mine = rules.replace(awards=[{"category": "fuzzy_die", "prize": "Pink flamingo"}],
                         one_prize_per_person=True)
    assert card(mine)["Tonight's prizes"].startswith(
        "Tonight's prizes: Pink flamingo for the fuzzy die at the end. A tie is settled by a "
        "roll-off")
    assert "Nobody wins more than one prize." in card(mine)["Tonight's prizes"]


def test_each_award_is_explained_in_one_line_with_its_tie_rule():
    from scoring.explain import award_rule

    wm = PRESETS["winning-moves"]
    assert award_rule(wm, wm.set_awards[0], "in the set") == (
        "The most wins (W's) in the set. Ties: the most buncos among them, then a roll-off "
        "to 5 points.")
    babz = PRESETS["babz"]
    most, doormat = babz.awards[0], babz.awards[-1]
    assert award_rule(babz, most) == ("The most buncos tonight. Ties: the tied players "
                                      "choose to share it or roll off.")
    assert award_rule(babz, doormat) == ("The lowest score tonight. Ties: a roll-off (three "
                                         "dice each, lowest total).")
