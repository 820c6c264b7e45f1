"""The night's house rules in plain sentences, for the "How we play tonight" card.

``how_we_play(rules)`` reads only the ``HouseRules`` value, so every phone explains the game
exactly as the engine plays it, custom changes included.
"""

from __future__ import annotations

from .explain_prizes import (
    HOUSE,
    PRIZE_SETTINGS,
    _category,
    _join,
    _points,
    _prizes,
    _roll_off,
    award_rule,
)
from .night import ROUNDS_PER_SET
from .rotation import EVERYONE, WM_MOVES
from .rules import (
    AfterBell,
    AfterMini,
    AtLeastOnce,
    BuncoEffect,
    HeadTableWinner,
    HouseRules,
    Layout,
    Partners,
    PointsPerHit,
    RollOffOrder,
    Rotation,
    RoundEnd,
    Seating,
    TargetScope,
    TieBreak,
    Triples,
)
from .words import roll_name, stat_names


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: The card's parts, and the settings each part reads (a part reading a house choice says so).
PART_SETTINGS = {
    "The night": {"seating", "head_table_starts"},  # and "sets", said by its sentence
    "What scores": {"points_per_hit", "bunco_points", "bunco_effect", "triples",
                    "bunco_must_be_called",
                    "mini_bunco_points", "low_bunco_points", "high_bunco_points",
                    "after_mini_bunco", "wipeout"},
    "What ends your turn": {"after_mini_bunco", "wipeout"},
    "What ends the round": {"team_target", "individual_target", "one_table_target",
                            "target_reached_by", "round_end", "play_seconds", "move_seconds",
                            "pod_tables"},
    "After the bell": {"after_bell", "at_least_one_roll_each", "at_least_once",
                       "head_table_winner"},
    "Ties": {"tie_break", "roll_off_points", "roll_off_order"},
    "How you move": {"rotation", "partners"},
    "Ghosts": {"ghosts"},
    "The fuzzy die": {"fuzzy_die"},
    "Who wins": {"set_awards"},
    "Tonight's prizes": PRIZE_SETTINGS,
}



def how_we_play(rules: HouseRules, house: frozenset[str] | set[str] = frozenset()
                ) -> list[tuple[str, str]]:
    """(heading, plain sentences) for each part of the game, in the order a guest asks.
    ``house``: the settings that are tonight's house choices rather than the group's written
    rules (``presets.house_choices``); a part that reads one starts with "House rule:"."""
    parts = [
        ("The night", _night(rules, house)),
        ("What scores", _scores(rules)),
        ("What ends your turn", _turn(rules)),
        ("What ends the round", _round_end(rules)),
        ("After the bell", _after_bell(rules)),
        ("Ties", _ties(rules)),
        ("How you move", _moves(rules)),
        ("Ghosts", _ghosts(rules, house)),
        *([("The fuzzy die", _fuzzy_die())] if rules.fuzzy_die else []),
        ("Who wins", _winning(rules, house)),
        ("Tonight's prizes", _prizes(rules, house)),
    ]
    return [(h, HOUSE + t if PART_SETTINGS[h] & set(house) else t) for h, t in parts]


def _said(text: str, house: frozenset[str] | set[str], setting: str) -> str:
    """One sentence of a part, marked when its ``setting`` is a house choice tonight."""
    return HOUSE + text if setting in house else text


def _night(rules: HouseRules, house: frozenset[str] | set[str] = frozenset()) -> str:
    seats = ("For the first round, four starred score sheets are drawn: whoever gets one starts "
             "at the head table; everyone else's seat is drawn at random."
             if rules.seating is Seating.STARRED_SHEETS
             else "Everyone's first seat is drawn at random.")
    start = (" The head table rings the bell to start each round (its phone has the button)."
             if rules.head_table_starts else " The host rings the bell to start each round.")
    sets = _said(f"We play {_plural(rules.sets, 'set')} of {ROUNDS_PER_SET} rounds.", house,
                 "sets")
    return (f"{sets} Each round has its number, 1 to {ROUNDS_PER_SET}: that is the number you "
            f"roll for. {seats}{start}")


def _keeps(after: AfterMini) -> str:
    return "and you keep rolling" if after is AfterMini.CONTINUE else "and ends your turn"


def _scores(rules: HouseRules) -> str:
    if rules.points_per_hit is PointsPerHit.ROUND_NUMBER:
        hit = ("Each die showing the round's number scores that number (two 4s in round 4 "
               "score 8).")
    else:
        hit = "Each die showing the round's number scores 1 point."
    if rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
        where = "" if rules.layout is Layout.ONE_TABLE else " at every table"
        bunco = (f"Three of the round's number is a bunco: {_points(rules.bunco_points)}, and it "
                 f"ends the round{where}.")
    else:
        bunco = (f"Three of the round's number is a bunco: {_points(rules.bunco_points)}, and you "
                 "keep rolling.")
    if rules.triples is Triples.MINI:
        triples = (f"A {mini_word(rules)} (three of a kind of another number) scores "
                   f"{rules.mini_bunco_points} {_keeps(rules.after_mini_bunco)}.")
    elif rules.triples is Triples.LOW_HIGH:
        either = ("lets you keep rolling" if rules.after_mini_bunco is AfterMini.CONTINUE
                  else "ends your turn")
        triples = (f"Three of a kind below the round's number is a low bunco "
                   f"({_points(rules.low_bunco_points)}) and above it a high bunco "
                   f"({_points(rules.high_bunco_points)}); either {either}.")
    else:
        triples = "Three of a kind of another number scores nothing."
    if rules.bunco_must_be_called:
        bunco += (" The roller has to call it out to get credit for it: a bunco nobody called "
                  "earns nothing, and the turn goes on.")
    wipeout = ""
    if rules.wipeout:
        wipeout = ("Three 1s (outside round 1) is a wipeout: your team loses all its points "
                   "this round and your turn ends.")
    return _join([hit, bunco, triples, wipeout])


def mini_word(rules: HouseRules) -> str:
    """What the group calls three of a kind of another number (seed 000's "funko")."""
    return roll_name(rules, "mini_bunco")


def _turn(rules: HouseRules) -> str:
    ends = ["a roll with none of the round's number"]
    minis = "a " + mini_word(rules) if rules.triples is Triples.MINI else "a low or high bunco"
    if rules.triples is not Triples.NONE and rules.after_mini_bunco is AfterMini.CONTINUE:
        ends[0] += f" (except {minis}: it has none, and you keep rolling)"
    elif rules.triples is not Triples.NONE:
        ends.append(minis)
    if rules.wipeout:
        ends.append("a wipeout")
    if rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
        ends.append("a bunco (it ends the round)")
    listed = ends[0] if len(ends) == 1 else ", ".join(ends[:-1]) + " or " + ends[-1]
    return (f"You keep rolling while you score. Your turn ends on {listed}; then the dice pass "
            "to the next player.")


def _targets(rules: HouseRules) -> str:
    """The points that win a table, by what sits there."""
    whose = ("one player's own points" if rules.target_reached_by is TargetScope.PLAYER
             else "a team's points together")
    teams = f"{whose} reach {rules.team_target}"
    if rules.layout is Layout.ONE_TABLE:
        target = rules.one_table_target or rules.individual_target
        return f"one player's points reach {target}"
    if rules.layout is Layout.WM_LAYOUTS:
        alone = (f"at a table of 2 or 3 players on their own, one player's points reach "
                 f"{rules.individual_target}")
        if rules.one_table_target and rules.one_table_target != rules.individual_target:
            alone += (f"; with only 2 to 4 players, all at one table on their own, "
                      f"{rules.one_table_target}")
        return f"{teams} ({alone})"
    return teams


def _duration(seconds: int) -> str:
    """180 -> "3 minutes", 90 -> "1 minute 30 seconds", 45 -> "45 seconds"."""
    minutes, rest = divmod(seconds, 60)
    parts = []
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    if rest:
        parts.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(parts)


def _round_end(rules: HouseRules) -> str:
    every = "every table of its pod" if rules.pod_tables else "every table"
    if rules.round_end is RoundEnd.TIMER:
        text = ("Only the clock's horn or the host's bell ends the round." if rules.play_seconds
                else "Only the host's bell ends the round.")
    elif rules.round_end is RoundEnd.EACH_TABLE and rules.layout is Layout.ONE_TABLE:
        text = f"The round plays until {_targets(rules)}."
    elif rules.round_end is RoundEnd.EACH_TABLE:
        # Seed 000: "ring the bell as each table winner is declared" and "three times to
        # declare the round over after the third table completes the round".
        text = (f"Each table plays its own game until {_targets(rules)}, then waits for the "
                "others. The head table rings the bell as each table's winner is declared, "
                "and three times when the last table finishes: the round is over.")
    elif rules.round_end is RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO:
        text = (f"The round ends when, at the head table, {_targets(rules)} or someone rolls a "
                f"bunco: the head table rings the bell for {every}.")
    else:
        text = (f"The round ends when, at the head table, {_targets(rules)}: the head table "
                f"rings the bell for {every}.")
    if rules.pod_tables and rules.round_end is not RoundEnd.EACH_TABLE:
        text += (f" The room plays in pods of {rules.pod_tables} tables; the first table of "
                 "each pod is its head table. The host's bell or horn ends the round "
                 "everywhere.")
    if rules.play_seconds:
        text += (f" A clock runs: after {_duration(rules.play_seconds)} of play a horn ends "
                 "play at every table, as the bell does.")
        if rules.move_seconds:
            text += (f" {_duration(rules.move_seconds).capitalize()} after the horn the next "
                     "round starts by itself.")
    if rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
        text += (" A bunco ends the round." if rules.layout is Layout.ONE_TABLE
                 else " A bunco at any table ends the round at every table at once.")
    return text


def _extra_roll(rules: HouseRules) -> str:
    """What one who has not rolled gets before a table closes (seed 001: a whole turn)."""
    return "one whole turn" if rules.at_least_once is AtLeastOnce.TURN else "one roll"


def extra_rolls_text(rules: HouseRules) -> str:
    """A table's line while those who have not rolled get their chance after the bell."""
    return f"Everyone who hasn't rolled gets {_extra_roll(rules)}"


def _after_bell(rules: HouseRules) -> str:
    stop = {
        AfterBell.STOP: "Play stops the moment the bell rings.",
        AfterBell.FINISH_ROLL: "The player rolling finishes that one roll, then play stops.",
        AfterBell.FINISH_TURN: ("The player rolling finishes their turn (until they miss), "
                                "then play stops."),
    }[rules.after_bell]
    if rules.round_end is RoundEnd.EACH_TABLE:
        stop = ("A table's game ends the moment its target is reached."
                if rules.bunco_effect is not BuncoEffect.ENDS_ROUND_EVERYWHERE
                else "A table's game ends the moment its target is reached; a bunco stops "
                     "play everywhere at once.")
        if rules.layout is Layout.ONE_TABLE:
            bunco = (" or rolls a bunco" if rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE
                     else "")
            stop = f"The round ends the moment a player reaches the target{bunco}."
    once = ""
    if rules.at_least_one_roll_each:
        once = (f"Anyone at the table who has not rolled this round first gets "
                f"{_extra_roll(rules)}.")
    if rules.layout is Layout.ONE_TABLE:
        win = "The player who got there wins the round."
    elif rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
        win = ("The side whose bunco ended the round wins its table; elsewhere the most points "
               "win.")
    elif rules.head_table_winner is HeadTableWinner.TRIGGER_WINS:
        win = ("At the head table the team that ended the round wins, even with fewer points; "
               "at the other tables the team with more points wins.")
    else:
        win = "At each table the side with more points wins."
    return _join([stop, once, win])


#: Each tie-break's short name: the rules form's choices and a tied table's status line.
TIE_BREAKS = {
    TieBreak.EXTRA_TURN_EACH: "One more turn each, most points wins",
    TieBreak.ONE_DIE: "One die each, highest wins",
    TieBreak.FIRST_TO_HIT: "Keep rolling: first to roll the round's number wins",
    TieBreak.ROLL_OFF: "Roll off to the roll-off points",
}


def tie_break_name(rules: HouseRules) -> str:
    """The night's tie-break in a few words ("Roll off to 5 points")."""
    if rules.tie_break is TieBreak.ROLL_OFF:
        return f"Roll off to {_points(rules.roll_off_points)}"
    return TIE_BREAKS[rules.tie_break]


def _ties(rules: HouseRules) -> str:
    if rules.layout is Layout.ONE_TABLE:
        return ("A round cannot end tied: the first player to reach the target, or to roll a "
                "bunco, wins it.")
    if rules.tie_break is TieBreak.ONE_DIE:
        return ("A tied table: one player of each team rolls one die, and the highest wins; "
                "equal dice roll again.")
    if rules.tie_break is TieBreak.FIRST_TO_HIT:
        return ("A tied table: the tied players keep rolling in turn, and the first to roll "
                "the round's number wins.")
    if rules.tie_break is TieBreak.ROLL_OFF:
        start = ("whoever rolls the highest total of three dice starts"
                 if rules.roll_off_order is RollOffOrder.HIGH_TOTAL_FIRST
                 else "the next tied player starts")
        return (f"A tied table rolls off from zero: {start}, and the first to "
                f"{_points(rules.roll_off_points)} wins (only the round's number and buncos "
                "count). Roll-off points do not go on your score.")
    return ("A tied table: everyone there takes one more turn, and those points count; still "
            "tied, one more turn again.")


_ROTATION = {
    Rotation.CIRCULAR: ("Winners stay at their table; losers move to the next table, and the "
                        "last table's losers move to the head table."),
    Rotation.LADDER_DROP_ONE: ("The head table's winners stay and its losers go to table 2; "
                               "at the other tables winners move up one table and losers down "
                               "one, and the last table's losers stay."),
    Rotation.LADDER_HEAD_TO_BOTTOM: ("The head table's winners stay and its losers go to the "
                                     "last table; at the other tables winners move up one table "
                                     "and losers stay."),
    Rotation.NONE: "Nobody changes table.",
}


def _moves(rules: HouseRules) -> str:
    if rules.layout is Layout.ONE_TABLE:
        return ("Everyone plays at one table, each on their own, and nobody moves; the player "
                "left of the round's winner starts the next round.")
    partners = ("You get a new partner every round, never the same one twice running."
                if rules.partners is Partners.CHANGE_EVERY_ROUND
                else "Teams stay together all night.")
    rotation = _ROTATION[rules.rotation]
    if rules.layout is Layout.WM_LAYOUTS:
        rotation = (f"{_wm_layouts()} With 12 or more players: "
                    f"{rotation[0].lower()}{rotation[1:]}")
    pods = ("You move only between the tables of your pod; prizes go over the whole room."
            if rules.pod_tables else "")
    return _join([rotation, partners, pods])


def _wm_layouts() -> str:
    """The Winning Moves layouts' movement, read from the move plans themselves."""
    whole = [n for n, plan in WM_MOVES.items() if len(plan) > 1 and any(
        group == EVERYONE and not stays for moves in plan for group, _, stays in moves)]
    counts = ", ".join(map(str, whole[:-1])) + f" or {whole[-1]}" if len(whole) > 1 else \
        "".join(map(str, whole))
    return ("With 2 to 4 players everyone plays at one table on their own and nobody moves. "
            "With 5 to 11, the tables follow the Winning Moves layouts (at a table of 2 or 3 "
            "everyone plays on their own): winners stay and losers move on, except that with "
            f"{counts} players everyone at the last small table moves to table 1, its winner "
            "included.")


def _ghosts(rules: HouseRules, house: frozenset[str] | set[str] = frozenset()) -> str:
    if rules.layout is Layout.ONE_TABLE:
        return "No ghosts: one table of 2 to 4 players."
    where = ("With more than 12 players, a ghost fills each empty seat at a table of four."
             if rules.layout is Layout.WM_LAYOUTS
             else "A ghost fills each empty seat at a table of four.")
    text = ("The ghost's partner rolls for it; its points go to the team only: nobody is "
            "credited a bunco for a ghost's roll, and a round its points win is its partner's "
            "win.")
    leaves = ("A ghost also takes the chair of anyone who goes home early; where that would "
              "leave one player with three ghosts, a ghost changes chairs with a player of the "
              "table with the fewest ghosts.")
    if "ghosts" not in house:  # else the whole part says it once
        leaves = _said(leaves, house, "ghost_takes_chair")
    return _join([where, text, _ghost_bunco(rules), leaves])


def ghost_bunco_ends_head_round(rules: HouseRules) -> bool:
    """Whether a ghost's bunco at the head table ends the round there: not as a bunco (a
    ghost's never counts as one), but by its points reaching the head table's target."""
    if rules.round_end not in (RoundEnd.HEAD_TABLE_TARGET, RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO):
        return False
    return rules.bunco_points >= rules.team_target


def _ghost_bunco(rules: HouseRules) -> str:
    counts_as_bunco = (rules.round_end is RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO
                       or rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE)
    if ghost_bunco_ends_head_round(rules):
        wins = (" (its partner's team wins the round, as with anyone's)"
                if rules.head_table_winner is HeadTableWinner.TRIGGER_WINS else "")
        if counts_as_bunco:
            return (f"A ghost's bunco is not a bunco that ends the round, but at the head table "
                    f"its {_points(rules.bunco_points)} reach the {rules.team_target} and end the "
                    f"round all the same{wins}.")
        return (f"At the head table a ghost's bunco ends the round: its "
                f"{_points(rules.bunco_points)} reach the {rules.team_target}{wins}.")
    if counts_as_bunco:
        return "A ghost's bunco does not end the round for the room; its points still count."
    return ""


def _fuzzy_die() -> str:
    return ("The head table starts the night with the fuzzy die. Whoever rolls a bunco takes "
            "it from whoever has it, and keeps it until the next bunco (a ghost's bunco does "
            "not pass it).")


def _winning(rules: HouseRules, house: frozenset[str] | set[str] = frozenset()) -> str:
    """How the set winner (Winning Moves) is decided, and the order of the standings (the
    app's own: no group's rules rank the players)."""
    parts = []
    for award in rules.set_awards:
        steps = [f"the most {stat_names(rules)[str(s)]} among them" for s in award.then_by]
        roll = _roll_off(rules)
        steps.append(HOUSE.lower() + roll if "prize_roll_off" in house else roll)
        then = "".join(f"; {'tied' if i == 0 else 'still tied'}, {step}"
                       for i, step in enumerate(steps))
        parts.append(f"Each set's winner is the player with {_category(rules, award)}{then}.")
    if not rules.awards and not rules.set_awards:
        parts.append("No prizes are set for tonight: the standings show how everyone did.")
    elif rules.awards:
        parts.append("Tonight's prizes (below) each go by their own count.")
    parts.append(HOUSE + "the standings on the TV and the phones put the most wins first, "
                 "then the most buncos, then the most points; players level on all three "
                 "share a place (3rd=), listed by name.")
    return _join(parts)


__all__ = ["award_rule", "extra_rolls_text", "how_we_play", "mini_word"]
