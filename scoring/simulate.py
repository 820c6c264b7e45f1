"""Play whole nights with random dice through the same engine the live app uses."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .awards import AwardResult, SetResult, decide_awards, decide_set_awards
from .night import Night, RoundRecord
from .roll import ALL_DICE
from .round import RoomRound
from .rules import HouseRules, RoundEnd, TieBreak
from .table import Phase

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
    """Roll at every table in turn, one roll each, as if the tables played at once.
    Returns the number of rolls the busiest table made (the round's length in rolls)."""
    dice = ALL_DICE
    rnd = rng.random
    done, tie_break = Phase.DONE, Phase.TIE_BREAK
    one_die = room.rules.tie_break is TieBreak.ONE_DIE
    ticks = 0
    timer_ticks = None
    if room.rules.round_end is RoundEnd.TIMER:
        timer_ticks = max(1, round(TIMER_PLAY_SECONDS / seconds_per_roll))
    # The tables still playing; a finished table is dropped after each pass (a 2,000-player
    # night has 500 tables, most of them done long before the busiest one).
    active = [t for t in room.tables if t.phase is not done]
    bell_rung = room.bell_rung
    while active:
        ticks += 1
        finished = False
        for table in active:
            phase = table.phase
            if phase is done:
                finished = True
                continue  # the bell, rung earlier in this pass, stopped it
            if phase is tie_break and one_die:
                table.roll((1 + int(rnd() * 6),))
            else:
                table.roll(dice[int(rnd() * 216)])
            if table.phase is done:
                finished = True
            if not bell_rung and table.rang_bell_for_room:
                room.ring_bell()
                bell_rung = finished = True  # the bell may have stopped other tables
        if ticks == timer_ticks and not room.bell_rung:
            room.ring_bell()
            bell_rung = finished = True
        if finished:
            active = [t for t in active if t.phase is not done]
    return ticks


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
