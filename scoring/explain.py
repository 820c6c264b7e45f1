"""The night's house rules in plain sentences, for the "How we play tonight" card.

``how_we_play(rules)`` reads only the ``HouseRules`` value, so every phone explains the game
exactly as the engine plays it, custom changes included.
"""

from __future__ import annotations

from .night import ROUNDS_PER_SET
from .rules import (
    AfterBell,
    AfterMini,
    AtLeastOnce,
    Award,
    AwardTies,
    BuncoEffect,
    Category,
    HeadTableWinner,
    HouseRules,
    Layout,
    Partners,
    PointsPerHit,
    PrizeRollOff,
    RollOffOrder,
    Rotation,
    RoundEnd,
    TargetScope,
    TieBreak,
    Triples,
)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(parts: list[str]) -> str:
    return " ".join(p for p in parts if p)


def how_we_play(rules: HouseRules) -> list[tuple[str, str]]:
    """(heading, plain sentences) for each part of the game, in the order a guest asks."""
    return [
        ("The night", _night(rules)),
        ("What scores", _scores(rules)),
        ("What ends your turn", _turn(rules)),
        ("What ends the round", _round_end(rules)),
        ("After the bell", _after_bell(rules)),
        ("Ties", _ties(rules)),
        ("How you move", _moves(rules)),
        ("Ghosts", _ghosts(rules)),
        *([("The fuzzy die", _fuzzy_die())] if rules.fuzzy_die else []),
        ("Who wins", _winning(rules)),
        ("Tonight's prizes", _prizes(rules)),
    ]


def _night(rules: HouseRules) -> str:
    return (f"We play {_plural(rules.sets, 'set')} of {ROUNDS_PER_SET} rounds. Each round has "
            f"its number, 1 to {ROUNDS_PER_SET}: that is the number you roll for.")


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
        triples = (f"A baby bunco (three of a kind) scores {rules.mini_bunco_points} "
                   f"{_keeps(rules.after_mini_bunco)}.")
    elif rules.triples is Triples.LOW_HIGH:
        either = ("lets you keep rolling" if rules.after_mini_bunco is AfterMini.CONTINUE
                  else "ends your turn")
        triples = (f"Three of a kind below the round's number is a low bunco "
                   f"({_points(rules.low_bunco_points)}) and above it a high bunco "
                   f"({_points(rules.high_bunco_points)}); either {either}.")
    else:
        triples = "Three of a kind of another number scores nothing."
    wipeout = ""
    if rules.wipeout:
        wipeout = ("Three 1s (outside round 1) is a wipeout: your team loses all its points "
                   "this round and your turn ends.")
    return _join([hit, bunco, triples, wipeout])


def _turn(rules: HouseRules) -> str:
    ends = ["a roll with none of the round's number"]
    if rules.triples is not Triples.NONE and rules.after_mini_bunco is not AfterMini.CONTINUE:
        ends.append("a baby bunco" if rules.triples is Triples.MINI else "a low or high bunco")
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
        alone = rules.individual_target
        return (f"{teams} (at a table of players on their own, one player's points reach "
                f"{alone})")
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
    elif rules.round_end is RoundEnd.EACH_TABLE:
        text = f"Each table plays until {_targets(rules)}."
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


def _after_bell(rules: HouseRules) -> str:
    stop = {
        AfterBell.STOP: "Play stops the moment the bell rings.",
        AfterBell.FINISH_ROLL: "The player rolling finishes that one roll, then play stops.",
        AfterBell.FINISH_TURN: ("The player rolling finishes their turn (until they miss), "
                                "then play stops."),
    }[rules.after_bell]
    once = ""
    if rules.at_least_one_roll_each:
        what = "one whole turn" if rules.at_least_once is AtLeastOnce.TURN else "one roll"
        once = f"Anyone at the table who has not rolled this round first gets {what}."
    if rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
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
    layout = ""
    if rules.layout is Layout.WM_LAYOUTS:
        layout = ("With 2 to 4 players everyone plays at one table on their own; with 5 to 11, "
                  "tables follow the Winning Moves layouts (tables of 2 or 3 play on their own) "
                  "and losers move on.")
    pods = ("You move only between the tables of your pod; prizes go over the whole room."
            if rules.pod_tables else "")
    return _join([_ROTATION[rules.rotation], partners, layout, pods])


def _ghosts(rules: HouseRules) -> str:
    if rules.layout is Layout.ONE_TABLE:
        return "No ghosts: one table of 2 to 4 players."
    where = ("With 12 or more players, a ghost fills each empty seat"
             if rules.layout is Layout.WM_LAYOUTS
             else "A ghost fills each empty seat at a table of four")
    text = (f"{where}, and takes the chair of anyone who goes home early. The ghost's partner "
            "rolls for it; its points go to the team only, and nobody is credited a bunco or "
            "a win for a ghost's roll.")
    if (rules.round_end is RoundEnd.HEAD_TABLE_TARGET_OR_BUNCO
            or rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE):
        text += " A ghost's bunco does not end the round."
    return text


def _fuzzy_die() -> str:
    return ("The head table starts the night with the fuzzy die. Whoever rolls a bunco takes "
            "it from whoever has it, and keeps it until the next bunco (a ghost's bunco does "
            "not pass it).")


_CATEGORY = {
    Category.MOST_BUNCOS: "the most buncos",
    Category.MOST_WINS: "the most wins",
    Category.MOST_LOSSES: "the most losses",
    Category.MOST_MINI_BUNCOS: "the most baby buncos",
    Category.HIGHEST_POINTS: "the highest score",
    Category.LOWEST_POINTS: "the lowest score",
    Category.FUZZY_DIE: "the fuzzy die at the end",
    Category.MOST_WIPEOUTS: "the most wipeouts",
    Category.FIRST_BUNCO: "the night's first bunco",
    Category.LAST_BUNCO: "the night's last bunco",
    Category.MOST_BUNCOS_AND_WINS: "the most buncos and wins added together",
}

_STAT = {"wins": "wins", "losses": "losses", "buncos": "buncos", "mini_buncos": "baby buncos",
         "points": "points", "wipeouts": "wipeouts"}


def _category(rules: HouseRules, award: Award) -> str:
    text = _CATEGORY[award.category]
    if award.category is Category.MOST_MINI_BUNCOS and rules.triples is Triples.LOW_HIGH:
        text = "the most low and high buncos"
    return text


def _roll_off(rules: HouseRules) -> str:
    """How a tied prize is rolled off."""
    if rules.prize_roll_off is PrizeRollOff.TO_POINTS:
        return (f"a roll-off: the first to {_points(rules.roll_off_points)} wins (the round's "
                "number and buncos count), and the highest total of three dice starts")
    return ("a roll-off: three dice each, and the highest total wins (the lowest, for the "
            "lowest score)")


def _winning(rules: HouseRules) -> str:
    """How the set winner (Winning Moves) and the night's winner are decided."""
    parts = []
    for award in rules.set_awards:
        steps = [f"the most {_STAT[str(s)]} among them" for s in award.then_by]
        steps.append(_roll_off(rules))
        then = "".join(f"; {'tied' if i == 0 else 'still tied'}, {step}"
                       for i, step in enumerate(steps))
        parts.append(f"Each set's winner is the player with {_category(rules, award)}{then}.")
    if rules.awards:
        first = rules.awards[0]
        name = f" ({first.prize})" if first.prize else ""
        parts.append(f"The night's winner{name} is the player with "
                     f"{_category(rules, first)}.")
    elif not rules.set_awards:
        parts.append("The night's winner is the player at the top of the standings.")
    parts.append("The standings put the most wins first, then the most buncos, then the most "
                 "points.")
    return _join(parts)


def _prize(award: Award) -> str:
    share = f"{award.share_percent:g}% of the pot" if award.share_percent is not None else ""
    what = " and ".join(p for p in (award.prize, share) if p)
    return what or "A prize"


def _prizes(rules: HouseRules) -> str:
    """Tonight's prize list, as the host set it, and how its ties are settled."""
    if not rules.awards:
        return "No prizes are set for tonight."
    listed = "; ".join(f"{_prize(a)} for {_category(rules, a)}" for a in rules.awards)
    roll_off = f"A tie is settled by {_roll_off(rules)}"
    if rules.award_ties is AwardTies.ROLL_OFF or all(a.named for a in rules.awards):
        ties = roll_off
    else:
        ties = ("A tie shares the money" if rules.award_ties is AwardTies.SPLIT
                else "A tie: the tied players choose at the end of the night to share the "
                     "money or roll off")
        if any(a.named for a in rules.awards):
            ties += f". A named prize always goes to one player, by {_roll_off(rules)}"
    once = "Nobody wins more than one prize." if rules.one_prize_per_person else ""
    left = ("" if rules.left_early_win_awards
            else "Players who go home early cannot win a prize.")
    return _join([f"Tonight's prizes: {listed}.", f"{ties}.", once, left])


_WINS_BY = {
    "most_buncos": "the most buncos", "most_wins": "the most wins (W's)",
    "most_losses": "the most losses", "most_mini_buncos": "the most mini buncos",
    "highest_points": "the highest score", "lowest_points": "the lowest score",
    "fuzzy_die": "whoever holds the fuzzy die at the end", "most_wipeouts": "the most wipeouts",
    "first_bunco": "the first bunco", "last_bunco": "the last bunco",
    "most_buncos_and_wins": "the most buncos and wins together",
}
_STATS = {"wins": "wins", "losses": "losses", "buncos": "buncos",
          "mini_buncos": "mini buncos", "points": "points", "wipeouts": "wipeouts"}


def award_rule(rules: HouseRules, award: Award, over: str = "tonight") -> str:
    """How an award is decided, in one line: "The most wins (W's) in the set. Ties: the most
    buncos among them, then a roll-off to 5 points." ``over``: tonight, or "in the set" for a
    set's own award."""
    wins_by = _WINS_BY[str(award.category)]
    text = f"{wins_by[0].upper()}{wins_by[1:]} {over}."
    if award.category in ("fuzzy_die", "first_bunco", "last_bunco"):
        return text  # never tied
    steps = [f"the most {_STATS[str(stat)]} among them" for stat in award.then_by]
    policy = award.tie_policy(rules.award_ties)
    if policy is AwardTies.SPLIT:
        steps.append("they share it")
    elif policy is AwardTies.ASK:
        steps.append("the tied players choose to share it or roll off")
    elif rules.prize_roll_off is PrizeRollOff.TO_POINTS:
        steps.append(f"a roll-off to {_points(rules.roll_off_points)}")
    else:
        total = "lowest" if award.category == "lowest_points" else "highest"
        steps.append(f"a roll-off (three dice each, {total} total)")
    return f"{text} Ties: {', then '.join(steps)}."
