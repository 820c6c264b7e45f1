"""Play whole nights with random dice through the same engine the live app uses."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from .awards import AwardResult, SetResult, decide_awards, decide_set_awards
from .night import Night, RoundRecord
from .roll import ALL_DICE, BUNCO, roll_table
from .round import RoomRound
from .rules import BuncoEffect, HouseRules, RoundEnd, TieBreak
from .table import Phase, TableRound

SECONDS_PER_ROLL = 6.0  # pick up, throw, read, announce, tap
SECONDS_BETWEEN_ROUNDS = 60.0  # the bell, tallying, walking to the next table
TIMER_PLAY_SECONDS = 180.0  # large events on a clock: 3 minutes of play, then the horn

SAMPLE_NAMES = (
    "Ava", "Ben", "Cleo", "Dana", "Eli", "Faye", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena",
)


def sample_names(count: int) -> list[str]:
    """Friendly names for a simulated or demo night: Ava, Ben, ... then Player 13 and up."""
    names = list(SAMPLE_NAMES[:count])
    names += [f"Player {i}" for i in range(len(names) + 1, count + 1)]
    return names


@dataclass
class SimulatedNight:
    rules_id: str
    seed: int | None
    night: Night
    awards: list[AwardResult]
    round_seconds: list[float]  # estimated length of each round, moving included
    sets: list[SetResult] = field(default_factory=list)  # each set's own awards

    @property
    def rounds(self) -> list[RoundRecord]:
        return self.night.history

    @property
    def total_rolls(self) -> int:
        return sum(t.rolls for r in self.rounds for t in r.tables)

    @property
    def seconds(self) -> float:
        return sum(self.round_seconds)


def play_round(room: RoomRound, rng: random.Random, *, seconds_per_roll: float) -> int:
    """Play every table's round with random dice from ``rng``, as if the tables played at
    once: each table still playing rolls once per pass, head table first. Returns the number
    of passes, the rolls of the busiest table (the round's length in rolls).

    When only the head table can end the round for the room (every rule set but one where a
    bunco ends the round everywhere), the tables are played one after another instead, the
    same game faster (``_play_table_by_table``); otherwise pass by pass (``_play_in_passes``,
    also ``play_round_roll_by_roll``)."""
    dice = RandomDice(rng)
    timer_ticks = _timer_ticks(room.rules, seconds_per_roll)
    if room.rules.bunco_effect is BuncoEffect.ENDS_ROUND_EVERYWHERE:
        return _play_in_passes(room, dice, timer_ticks)
    return _play_table_by_table(room, dice, timer_ticks)


def play_round_roll_by_roll(
    room: RoomRound, rng: random.Random, *, seconds_per_roll: float
) -> int:
    """``play_round`` the plain way, pass after pass, one roll at a time (the reference the
    faster way is tested against)."""
    return _play_in_passes(room, RandomDice(rng), _timer_ticks(room.rules, seconds_per_roll))


def _timer_ticks(rules: HouseRules, seconds_per_roll: float) -> int | None:
    """The pass after which the host's horn ends a round on the clock (None: no clock)."""
    if rules.round_end is RoundEnd.TIMER:
        return max(1, round(TIMER_PLAY_SECONDS / seconds_per_roll))
    return None


class RandomDice:
    """Where the simulator's dice come from: every roll at every table a fresh uniform draw
    from ``rng``. A roll is asked for by table index and roll number (the table's rolls so
    far + 1), which random dice ignore; a test can pass a source whose k-th roll at table i is
    fixed, to check that two ways of playing a round play the same game. Rolls are indexes
    into ALL_DICE."""

    def __init__(self, rng: random.Random):
        self.random = rng.random
        self.randbytes = rng.randbytes

    def roll(self, table: int, number: int) -> int:
        return int(self.random() * 216)

    def die(self, table: int, number: int) -> int:
        """A one-die tie-break roll: the face."""
        return 1 + int(self.random() * 6)

    def rolls(self, table: int, first: int, count: int) -> bytes:
        """Rolls number first + 1, first + 2, ... at ``table``, one byte each: usually
        ``count`` of them, now and then fewer. Random bytes 216-255 are thrown away; what is
        left is uniform over the 216 rolls, and independent."""
        return self.randbytes(count + count // 4 + 8).translate(None, _NOT_A_ROLL)[:count]


_NOT_A_ROLL = bytes(range(len(ALL_DICE), 256))
_PLAYING, _TIE_BREAK, _DONE = Phase.PLAYING, Phase.TIE_BREAK, Phase.DONE  # looked up per table


def _play_in_passes(room: RoomRound, dice: RandomDice, timer_ticks: int | None) -> int:
    """Pass after pass, every table still playing rolls once, head table first; a roll that
    rings the room's bell rings it at once (the tables later in the pass then roll as the
    bell says); the horn sounds after pass ``timer_ticks``. Returns the number of passes."""
    faces = ALL_DICE
    roll, die = dice.roll, dice.die
    done, tie_break = _DONE, _TIE_BREAK
    one_die = room.rules.tie_break is TieBreak.ONE_DIE
    ticks = 0
    # The tables still playing; a finished table is dropped after each pass (a 2,000-player
    # night has 500 tables, most of them done long before the busiest one).
    active = [(i, t) for i, t in enumerate(room.tables) if t.phase is not done]
    while active:
        ticks += 1
        finished = False
        for index, table in active:
            phase = table.phase
            if phase is done:
                finished = True
                continue  # the bell, rung earlier in this pass, stopped it
            if phase is tie_break and one_die:
                table.roll((die(index, table.rolls + 1),))
            else:
                table.roll(faces[roll(index, table.rolls + 1)])
            if table.phase is done:
                finished = True
            if table.rang_bell_for_room and room.ring_from(index):
                finished = True  # the bell may have stopped other tables
        if ticks == timer_ticks and not room.bell_rung:
            room.ring_bell()
            finished = True
        if finished:
            active = [(i, t) for i, t in active if t.phase is not done]
    return ticks


def _play_table_by_table(room: RoomRound, dice: RandomDice, timer_ticks: int | None) -> int:
    """``_play_in_passes``'s game, one table after another, for rooms where only the head
    table rings the room's bell. The same rolls at each table give the same round.

    Until the room's bell a table's play is its own: nothing another table rolls changes it,
    and it rolls once per pass, so its k-th roll is its roll in pass k. The head table, first
    in every pass, is played first, in normal play, until it rings or the horn is due. If it
    rang with its roll in pass B, the other tables have rolled B - 1 times when the bell
    reaches them (they roll after the head table in pass B); otherwise they play on until the
    horn or their own end. Then the bell rings, and every table plays out what it still owes
    (the rest of a turn, extra rolls, a tie-break), again on its own. The buncos are put in
    the order the passes would have logged them, and the round lasts as many passes as the
    busiest table made rolls. In pods each pod is played so, one after another: until the
    horn, nothing in one pod changes another."""
    tables = room.tables
    before = [t.rolls for t in tables]  # passes are counted from here (a fresh room: 0)
    play = _TablePlayer(room, dice, before)
    playing = _PLAYING
    for number, pod in enumerate(room.pods):  # each pod's bell is its own (one pod: the room)
        head = tables[pod.start]
        passes = timer_ticks if timer_ticks is not None else _NO_LIMIT
        play.normal(head, pod.start, passes)
        head_rang = (head.phase is not playing and head.rang_bell_for_room
                     and not room.pod_rung[number])
        if head_rang:
            passes = head.rolls - before[pod.start] - 1  # the others' passes before its bell
        for index in pod[1:]:
            play.normal(tables[index], index, passes)
        if head_rang or any(tables[i].phase is playing for i in pod):
            room.ring_pod(number)  # the head table's bell, or the horn after pass timer_ticks
        for index in pod:
            if tables[index].phase is not _DONE:
                play.out(tables[index], index)
    ticks = max([t.rolls - b for t, b in zip(tables, before, strict=True)])
    if timer_ticks is not None and ticks >= timer_ticks and not room.bell_rung:
        room.ring_bell()  # the horn sounds; nobody was still in normal play
    play.put_buncos_in_order()
    return ticks


_NO_LIMIT = 1 << 62
_CHUNK = 128  # most rolls a table is handed at once (a table that may end its own play)


class _TablePlayer:
    """Rolls at one table at a time, and notes in which pass (counted from ``before``, each
    table's rolls when play began) each bunco was logged, to put the room's bunco log in the
    order the passes would have logged them."""

    def __init__(self, room: RoomRound, dice: RandomDice, before: list[int]):
        scores = roll_table(room.rules, room.round_number)
        # The rolls that score a bunco, as the byte each is drawn as (its index in ALL_DICE).
        self.buncos = [bytes((i,)) for i, d in enumerate(ALL_DICE) if scores[d].kind == BUNCO]
        self.one_die = room.rules.tie_break is TieBreak.ONE_DIE
        self.dice = dice
        self.before = before
        self.log = room.bunco_log
        self.logged_before = len(self.log)
        self.stamps: list[tuple[int, int]] = []  # (pass, table index) of each bunco logged

    def normal(self, table: TableRound, index: int, passes: int) -> None:
        """Roll at ``table`` in normal play until its normal play ends or it has rolled in
        ``passes`` passes. Rolls drawn but not rolled when its play ends are thrown away, as
        if never drawn: nothing that happened depends on them."""
        log, stamps, buncos, rolls_at = self.log, self.stamps, self.buncos, self.dice.rolls
        roll_many = table.roll_many
        playing = _PLAYING
        before = self.before[index]
        limit = before + passes
        while table.phase is playing and table.rolls < limit:
            rolls = rolls_at(index, table.rolls, min(limit - table.rolls, _CHUNK))
            start = 0
            while True:
                # A bunco is logged as it is rolled: roll up to each one apart, to stamp it.
                at = -1
                for bunco in buncos:  # one: the target on all three dice
                    found = rolls.find(bunco, start)
                    if found >= 0 and (at < 0 or found < at):
                        at = found
                if at < 0:
                    roll_many(rolls[start:])
                    break
                logged = len(log)
                roll_many(rolls[start:at + 1])
                if len(log) != logged:
                    stamps.append((table.rolls - before, index))
                if table.phase is not playing:
                    break
                start = at + 1

    def out(self, table: TableRound, index: int) -> None:
        """Roll at ``table``, one roll at a time, until its round is decided."""
        roll, die, log, faces = self.dice.roll, self.dice.die, self.log, ALL_DICE
        done, tie_break, one_die = _DONE, _TIE_BREAK, self.one_die
        while table.phase is not done:
            logged = len(log)
            if table.phase is tie_break and one_die:
                table.roll((die(index, table.rolls + 1),))
            else:
                table.roll(faces[roll(index, table.rolls + 1)])
            if len(log) != logged:
                self.stamps.append((table.rolls - self.before[index], index))

    def put_buncos_in_order(self) -> None:
        """Sort the buncos logged while playing by pass, then table (one roll per table per
        pass, so no two share both): the order rolling pass by pass would have logged them."""
        stamps, start = self.stamps, self.logged_before
        if stamps != sorted(stamps):
            played = self.log[start:]
            order = sorted(range(len(played)), key=stamps.__getitem__)
            self.log[start:] = [played[i] for i in order]


def simulate_night(
    rules: HouseRules,
    names: Sequence[str],
    rng: random.Random,
    *,
    rules_id: str = "custom",
    seed: int | None = None,
    sets: int | None = None,
    seconds_per_roll: float = SECONDS_PER_ROLL,
    seconds_between_rounds: float = SECONDS_BETWEEN_ROUNDS,
) -> SimulatedNight:
    if sets is not None:
        rules = rules.replace(sets=sets)
    with cyclic_gc_paused():
        night = Night.seat(rules, names, rng)
        round_seconds = []
        while not night.finished:
            room = night.start_round()
            ticks = play_round(room, rng, seconds_per_roll=seconds_per_roll)
            night.finish_round(room)
            round_seconds.append(ticks * seconds_per_roll + seconds_between_rounds)
        set_results = decide_set_awards(rules, night, rng=rng)
        awards = decide_awards(rules, night.stats, bunco_order=night.bunco_order, rng=rng)
    return SimulatedNight(rules_id, seed, night, awards, round_seconds, set_results)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cycle collector off for a while, then as it was. A night of 2,000 players
    makes hundreds of thousands of small records (a table's round, its record, its seating)
    and no reference cycles, so reference counting frees all it should; left on, the cycle
    collector would walk the growing night over and over, a tenth or more of the night's
    time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _award_json(a: AwardResult) -> dict:
    return {
        "category": str(a.category),
        "winners": list(a.winners),
        "share": a.share_label,
        "prize": a.prize or None,
    }


def night_to_json(sim: SimulatedNight) -> dict:
    """The simulator's public JSON shape (see docs/simulator.md)."""
    return {
        "rules": sim.rules_id,
        "seed": sim.seed,
        "players": [
            {
                "name": s.name,
                "ghost": s.ghost,
                "wins": s.wins,
                "losses": s.losses,
                "buncos": s.buncos,
                "mini_buncos": s.mini_buncos,
                "points": s.points,
            }
            for s in sim.night.stats.values()
        ],
        "rounds": [
            {
                "set": r.set_number,
                "round": r.round_number,
                "tables": [
                    {
                        "table": t.number,
                        "seats": list(t.seats),
                        "teams": [list(team) for team in t.teams],
                        "scores": list(t.scores),
                        "winners": list(t.winners),
                        "losers": list(t.losers),
                    }
                    for t in r.tables
                ],
            }
            for r in sim.rounds
        ],
        "awards": [_award_json(a) for a in sim.awards],
        "sets": [
            {
                "set": number,
                "winner": list(by_set[number].winner) if number in by_set else [],
                "awards": [_award_json(a) for a in by_set[number].awards]
                if number in by_set else [],
            }
            for by_set in [{r.set_number: r for r in sim.sets}]
            for number in range(1, sim.night.rules.sets + 1)
        ],
    }


def format_duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def night_summary(
    sim: SimulatedNight, *, seconds_per_roll: float, seconds_between_rounds: float
) -> str:
    """A readable report for a host: length, buncos, standings, awards."""
    stats = sim.night.stats
    real = [s for s in stats.values() if not s.ghost]
    ghosts = [s for s in stats.values() if s.ghost]
    tables = len(sim.rounds[0].tables) if sim.rounds else 0
    buncos = sum(s.buncos for s in real)
    lines = [
        f"Rules: {sim.rules_id} ({sim.night.rules.name})",
        f"Players: {len(real)} at {tables} table{'s' if tables != 1 else ''}"
        + (f", {len(ghosts)} ghost{'s' if len(ghosts) != 1 else ''}" if ghosts else ""),
        f"Seed: {sim.seed}" if sim.seed is not None else "Seed: random",
        f"Sets: {sim.night.rules.sets}, rounds: {len(sim.rounds)}, rolls: {sim.total_rolls}",
        f"Estimated length: {format_duration(sim.seconds)} "
        f"(assuming {seconds_per_roll:g} s per roll and {seconds_between_rounds:g} s "
        "between rounds; the busiest table sets each round's pace)",
        f"Buncos tonight: {buncos}",
        "",
        "Standings:",
        f"  {'name':<16}{'W':>4}{'L':>4}{'B':>4}{'mini':>6}{'points':>8}",
    ]
    ranked = sorted(real, key=lambda s: (-s.wins, -s.buncos, -s.points, s.name.casefold()))
    for s in ranked:
        lines.append(
            f"  {s.name:<16}{s.wins:>4}{s.losses:>4}{s.buncos:>4}{s.mini_buncos:>6}{s.points:>8}"
        )
    for result in sim.sets:
        lines += ["", f"Set {result.set_number}:"]
        for a in result.awards:
            who = ", ".join(a.winners) if a.winners else "nobody qualified"
            lines.append(f"  {a.prize or str(a.category).replace('_', ' ')}: {who}")
    lines += ["", "Awards:"]
    if not sim.awards:
        lines.append("  (these rules list no awards for the whole night)")
    for a in sim.awards:
        label = a.share_label or a.prize
        who = ", ".join(a.winners) if a.winners else "nobody qualified"
        value = f" ({a.value})" if a.value is not None else ""
        lines.append(f"  {str(a.category).replace('_', ' ')} [{label}]: {who}{value}")
    return "\n".join(lines)
