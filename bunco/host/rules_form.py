"""The house-rules editor: every dimension of HouseRules, explained in plain words."""

from __future__ import annotations

import dataclasses
from enum import StrEnum

from scoring import PRESETS, HouseRules
from scoring.explain import TIE_BREAKS
from scoring.rules import INT_BOUNDS

EXPLAINED: dict[str, tuple[str, str, dict[str, str]]] = {
    "points_per_hit": ("Points per die showing the round's number",
                       "Most groups score 1 a die; some score the round number (two 4s = 8).",
                       {"one": "1 point a die", "round_number": "The round number a die"}),
    "bunco_points": ("Points for a bunco", "Three dice showing the round's number.", {}),
    "bunco_effect": ("After a bunco", "Winning Moves ends the round at every table at once.",
                     {"turn_continues": "The roller keeps rolling",
                      "ends_round_everywhere": "The round ends at every table"}),
    "triples": ("Three of another number", "A mini (baby) bunco, or low/high buncos.",
                {"mini": "Mini bunco", "low_high": "Low bunco (below) / high bunco (above)",
                 "none": "Nothing special"}),
    "mini_bunco_points": ("Points for a mini bunco", "", {}),
    "low_bunco_points": ("Points for a low bunco", "Three of a number below the round's.", {}),
    "high_bunco_points": ("Points for a high bunco", "Three of a number above the round's.", {}),
    "after_mini_bunco": ("After a mini bunco", "",
                         {"continue": "Keep rolling", "end_turn": "Pass the dice",
                          "continue_with_hit": "Keep rolling only with a hit (so: pass)"}),
    "wipeout": ("Wipeout (1-1-1 wipes the team's round score)", "Off in most groups.", {}),
    "team_target": ("Points that win a round (teams)", "Usually 21.", {}),
    "individual_target": ("Points that win a round (players on their own)",
                          "11 at small Winning Moves tables; 21 at one table.", {}),
    "one_table_target": ("Points that win a round at a night of one table",
                         "One table of 2-4 players on their own (Winning Moves One Table "
                         "Bunco): 21, or 11 for a quick game. 0: as for players on their own.",
                         {}),
    "target_reached_by": ("Whose points reach the target", "",
                          {"team": "The team's points together",
                           "player": "One player's own points"}),
    "round_end": ("What ends the round", "",
                  {"head_table_target": "A head-table team reaches the target",
                   "head_table_target_or_bunco": "Head table reaches the target or rolls a bunco",
                   "each_table": "Each table plays to its own winner",
                   "timer": "The host's bell (a clock)"}),
    "after_bell": ("When the bell rings", "",
                   {"stop": "Everyone stops at once",
                    "finish_roll": "The roller finishes that roll",
                    "finish_turn": "The roller finishes the whole turn"}),
    "at_least_one_roll_each": ("Everyone rolls at least once a round", "", {}),
    "at_least_once": ("At least once means", "When everyone rolls at least once a round.",
                      {"roll": "One roll", "turn": "A whole turn (rolling on while scoring)"}),
    "head_table_winner": ("Who wins the head table", "",
                          {"higher_total": "The higher score",
                           "trigger_wins": "The team that ended the round, even if behind"}),
    "tie_break": ("Ties at a table", "", {t.value: name for t, name in TIE_BREAKS.items()}),
    "roll_off_points": ("Roll-off points", "For the roll-off tie-break.", {}),
    "roll_off_order": ("Who starts a roll-off", "",
                       {"in_turn": "The next tied player",
                        "high_total_first": "All roll three dice; the high total starts "
                                            "(not scored)"}),
    "rotation": ("Moving after a round", "",
                 {"circular": "Losers walk to the next table",
                  "ladder_drop_one": "Winners move up, losers move down",
                  "ladder_head_to_bottom": "Head losers to the last table, winners move up",
                  "none": "Nobody moves"}),
    "partners": ("Partners", "",
                 {"change_every_round": "A new partner every round", "fixed": "Fixed teams"}),
    "layout": ("Tables", "",
               {"teams_with_ghosts": "Tables of four, ghosts fill empty seats",
                "wm_layouts": "Winning Moves layouts for 5-11 players",
                "one_table": "One table, 2-4 players on their own"}),
    "first_roller": ("Who rolls first", "",
                     {"scorekeeper": "The table's scorekeeper",
                      "left_of_last_winner": "The player left of the last winner",
                      "left_of_winner_at_one_table": "The scorekeeper; at one table, the player "
                                                     "left of the last winner"}),
    "play_seconds": ("The clock: seconds of play before the horn",
                     "For big events: 180 is 3 minutes. The horn ends play at every table, as "
                     "the bell does. 0: no clock.", {}),
    "move_seconds": ("The clock: seconds to move before the next round",
                     "Counted from the horn; then the next round starts by itself (the host's "
                     "bell can start it sooner). 0: the host's bell starts every round.", {}),
    "pod_tables": ("Pods: tables per pod",
                   "For big rooms: 3 splits the room into pods of three tables, each with its "
                   "own head table and bell; players move only within their pod; prizes go "
                   "over the whole room. 0: one room, one head table.", {}),
    "seating": ("First seating", "",
                {"random": "At random", "starred_sheets": "Starred sheets pick the head table"}),
    "fuzzy_die": ("Fuzzy die passes to each bunco roller", "", {}),
    "bunco_must_be_called": ("A bunco counts only if called out",
                             "The player has to yell it out to get credit for it; the "
                             "scorekeeper taps \"Bunco, not called\" when nobody did.", {}),
    "head_table_starts": ("The head table's phone rings the bell that starts each round",
                          "As the written rules have it; your own bell button always works.",
                          {}),
    "sets": ("Sets of six rounds", "2 to 4 is usual.", {}),
    "award_ties": ("Tied prizes", "A named prize (a doormat, a medal) always goes to one "
                   "person, by a roll-off.",
                   {"split": "Split the money", "roll_off": "Roll off",
                    "ask": "The tied players choose at the end: split or roll off"}),
    "prize_roll_off": ("A prize's roll-off", "",
                       {"high_total": "Three dice each, highest total (lowest for the lowest "
                                      "score)",
                        "to_points": "First to the roll-off points, high total starts"}),
    "one_prize_per_person": ("One prize per person", "", {}),
    "left_early_win_awards": ("Players who went home early can win prizes", "", {}),
    "late_arrivals_win_awards": ("Players who came after the first round can win prizes",
                                 "Off in most groups: a guest who played 2 of 6 rounds should "
                                 "not take home the prize for the lowest score.", {}),
}


def _plain(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _awards_text(awards) -> str:
    return ", ".join(a.prize or str(a.category).replace("_", " ") for a in awards) or "—"


def presets_table() -> dict:
    """The presets side by side, in plain words: every dimension on which they differ, and
    the prizes each awards per set."""
    presets = list(PRESETS.values())
    rows = []
    for f in dataclasses.fields(HouseRules):
        if f.name not in EXPLAINED:
            continue
        label, _, choice_text = EXPLAINED[f.name]
        values = [getattr(r, f.name) for r in presets]
        if len(set(values)) == 1:
            continue
        rows.append({"name": f.name, "label": label, "values": [
            choice_text.get(v.value, v.value) if isinstance(v, StrEnum) else _plain(v)
            for v in values]})
    rows.append({"name": "set_awards", "label": "Prizes for each set",
                 "values": [_awards_text(r.set_awards) for r in presets]})
    return {"ids": list(PRESETS), "names": [r.name for r in presets], "rows": rows}


def rule_fields(rules: HouseRules) -> list[dict]:
    fields = []
    for f in dataclasses.fields(rules):
        if f.name not in EXPLAINED:
            continue
        label, help_text, choice_text = EXPLAINED[f.name]
        value = getattr(rules, f.name)
        if isinstance(value, StrEnum):
            choices = [(m.value, choice_text.get(m.value, m.value)) for m in type(value)]
            fields.append({"name": f.name, "label": label, "help": help_text,
                           "kind": "choice", "choices": choices, "value": value.value})
        elif isinstance(value, bool):
            fields.append({"name": f.name, "label": label, "help": help_text, "kind": "bool",
                           "value": value})
        else:
            low, high = INT_BOUNDS.get(f.name, (0, 200))
            fields.append({"name": f.name, "label": label, "help": help_text, "kind": "int",
                           "value": value, "min": low, "max": high})
    return fields
