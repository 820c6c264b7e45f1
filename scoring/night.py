"""A whole night: sets of six rounds, each round's results, the players' tallies, rotation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .errors import IllegalMove
from .rotation import TableOutcome, first_seats, rotate
from .round import RoomRound
from .rules import HouseRules
from .seating import ghosts_partnered, pods_of, seat_night
from .table import TableRound
from .table_spec import Seat, TableSpec

ROUNDS_PER_SET = 6


@dataclass
class PlayerStats:
    """A player's scorecard totals. Ghosts keep all zeros: they are never credited."""

    name: str
    ghost: bool = False
    wins: int = 0
    losses: int = 0
    buncos: int = 0
    mini_buncos: int = 0
    wipeouts: int = 0
    points: int = 0
    left: bool = False  # went home early: a ghost took the chair
    joined_after: int = 0  # rounds played before they took a ghost's chair (0: from the start)

    @property
    def late(self) -> bool:
        """Came after the first round was played: missed rounds at the start of the night."""
        return self.joined_after > 0


def standing_key(wins: int, buncos: int, points: int, name: str) -> tuple:
    """The order of the standings: most wins, then most buncos, then most points, then name."""
    return (-wins, -buncos, -points, name.casefold())


def ranked(stats) -> list[PlayerStats]:
    """The players (never the ghosts) of ``stats`` in standings order."""
    rows = [s for s in stats.values() if not s.ghost]
    rows.sort(key=lambda s: standing_key(s.wins, s.buncos, s.points, s.name))
    return rows


def placed(rows: Sequence[PlayerStats]) -> list[tuple[int, bool]]:
    """Each of ``ranked``'s rows' place and whether it is shared: players level on wins, buncos
    and points share a place, listed by name, and the next place counts them all (1, 2, 3=,
    3=, 5)."""
    levels = [standing_key(s.wins, s.buncos, s.points, "") for s in rows]
    first = {}
    for i, level in enumerate(levels):
        first.setdefault(level, i + 1)
    return [(first[level], levels.count(level) > 1) for level in levels]


def totals(rows: Sequence[dict]) -> dict[str, int]:
    """A scorecard's totals (rows as ``Night.scorecards`` gives them): wins and losses
    counted from the W/L results, points, buncos and baby buncos added up."""
    out = {k: sum(r[k] for r in rows) for k in ("points", "buncos", "mini_buncos")}
    out["wins"] = sum(r["result"] == "W" for r in rows)
    out["losses"] = sum(r["result"] == "L" for r in rows)
    return out


def fuzzy_die_holder(bunco_rollers: Sequence[str]) -> str | None:
    """Who holds the fuzzy die after these buncos (their rollers, first to last): the last
    bunco's roller (seed 000: "she will shout "bunco", and receive the fuzzy die"); None while
    the head table still holds it ("The head table holds the bell and fuzzy die")."""
    return bunco_rollers[-1] if bunco_rollers else None


def round_of(number: int) -> tuple[int, int]:
    """The (set, round) of the ``number``-th round of a night, counting from 1."""
    set_index, round_index = divmod(number - 1, ROUNDS_PER_SET)
    return set_index + 1, round_index + 1


@dataclass(frozen=True, slots=True)
class TablePlay:
    """What happened at one table in one round, in names (for sheets and the simulator)."""

    number: int
    seats: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    rolls: int
    seat_points: tuple[int, ...] = ()  # what each chair rolled itself this round
    seat_buncos: tuple[int, ...] = ()
    seat_minis: tuple[int, ...] = ()
    seat_wipeouts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundRecord:
    set_number: int
    round_number: int
    tables: tuple[TablePlay, ...]
    buncos: tuple[tuple[int, str], ...]  # (table, roller) in the order rolled


@dataclass
class Night:
    """Plays the rounds of a night in order. Each round is a ``RoomRound`` driven from outside;
    ``finish_round`` records it, credits the players and seats the next round."""

    rules: HouseRules
    tables: list[TableSpec]
    stats: dict[str, PlayerStats] = field(default_factory=dict)
    history: list[RoundRecord] = field(default_factory=list)
    set_number: int = 1
    round_number: int = 1

    @classmethod
    def seat(cls, rules: HouseRules, names: Sequence[str], rng: random.Random) -> Night:
        return cls.from_tables(rules, seat_night(rules, names, rng))

    @classmethod
    def from_tables(cls, rules: HouseRules, tables: list[TableSpec]) -> Night:
        stats = {
            seat.name: PlayerStats(seat.name, ghost=seat.ghost)
            for spec in tables
            for seat in spec.seats
        }
        return cls(rules=rules, tables=tables, stats=stats)

    def copy(self) -> Night:
        """An independent copy to play on (the finished rounds are immutable and shared)."""
        return Night(
            rules=self.rules, tables=list(self.tables),
            stats={name: replace(s) for name, s in self.stats.items()},
            history=list(self.history), set_number=self.set_number,
            round_number=self.round_number,
        )

    @property
    def finished(self) -> bool:
        return self.set_number > self.rules.sets

    @property
    def rounds_left(self) -> int:
        """The night's rounds not yet played to the end (the one in play among them)."""
        played = (self.set_number - 1) * ROUNDS_PER_SET + self.round_number - 1
        return max(0, self.rules.sets * ROUNDS_PER_SET - played)

    def scorecard(self, name: str) -> list[dict]:
        """A player's paper scorecard: each round played, where, with whom, and how it went."""
        return self.scorecards((name,))[name]

    def scorecards(self, names: Sequence[str] | None = None) -> dict[str, list[dict]]:
        """Every (or each named) player's scorecard, in one pass over the night: a master
        sheet of 2,000 players does not read the night 2,000 times."""
        wanted = None if names is None else set(names)
        cards: dict[str, list[dict]] = {n: [] for n in (names or ())}
        for record in self.history:
            for play in record.tables:
                for chair, name in enumerate(play.seats):
                    if wanted is not None and name not in wanted:
                        continue
                    team = next(t for t in play.teams if name in t)
                    partner = next((n for n in team if n != name), None)
                    cards.setdefault(name, []).append({
                        "set": record.set_number, "round": record.round_number,
                        "table": play.number, "partner": partner,
                        "result": "W" if name in play.winners else "L",
                        "points": play.seat_points[chair] if play.seat_points else 0,
                        "buncos": play.seat_buncos[chair] if play.seat_buncos else 0,
                        "mini_buncos": play.seat_minis[chair] if play.seat_minis else 0,
                    })
        return cards

    @property
    def bunco_order(self) -> list[str]:
        """Every credited bunco's roller, first to last, across the night."""
        return [name for record in self.history for _, name in record.buncos]

    @property
    def fuzzy_die_holder(self) -> str | None:
        """Who holds the fuzzy die after the rounds played (``fuzzy_die_holder``)."""
        return fuzzy_die_holder(self.bunco_order)

    def set_stats(self, set_number: int) -> dict[str, PlayerStats]:
        """Every player's (and ghost's) totals in one set only, for the set's own awards."""
        before = sum(1 for r in self.history if r.set_number < set_number)
        stats = {name: PlayerStats(name, ghost=s.ghost, left=s.left,
                                   joined_after=max(0, s.joined_after - before))
                 for name, s in self.stats.items()}
        for record in self.history:
            if record.set_number != set_number:
                continue
            for play in record.tables:
                _credit_play(stats, play)
        return stats

    def set_finished(self, set_number: int) -> bool:
        return self.set_number > set_number

    def start_round(self) -> RoomRound:
        if self.finished:
            raise IllegalMove("the night is over")
        last = self.history[-1] if self.history else None
        winners = [w for t in last.tables for w in t.winners] if last else []
        return RoomRound(
            self.rules,
            self.round_number,
            self.tables,
            first_seats(self.rules, self.tables, winners),
        )

    def finish_round(self, room: RoomRound) -> RoundRecord:
        if not room.done:
            raise IllegalMove("every table needs a result before the round can close")
        outcomes = [TableOutcome(t.winners, t.losers) for t in room.tables]
        plays = tuple(self._credit(table, outcome)
                      for table, outcome in zip(room.tables, outcomes, strict=True))
        record = RoundRecord(self.set_number, self.round_number, plays, tuple(room.bunco_log))
        self.history.append(record)
        self.tables = rotate(self.rules, self.tables, outcomes)
        if self.round_number == ROUNDS_PER_SET:
            self.set_number += 1
            self.round_number = 1
        else:
            self.round_number += 1
        return record

    def substitute(self, old: str, new: Seat) -> None:
        """Before the next round, ``new`` takes ``old``'s chair (see ``_substitute``)."""
        _substitute(self, old, new)

    def rename(self, old: str, new: str) -> None:
        """Fix a typo in a name everywhere, the rounds already played included."""
        _rename(self, old, new)

    def _credit(self, table: TableRound, outcome: TableOutcome) -> TablePlay:
        # Run for every table of every round (500 a round at a 2,000-player night): kept flat.
        spec = table.spec
        winners, losers = outcome.winners, outcome.losers
        stats = self.stats
        points, buncos = table.seat_points, table.seat_buncos
        minis, wipeouts = table.seat_minis, table.seat_wipeouts
        names = tuple([seat.name for seat in spec.seats])
        for i, seat in enumerate(spec.seats):
            if seat.ghost:
                continue
            s = stats[names[i]]
            if i in winners:
                s.wins += 1
            if i in losers:
                s.losses += 1
            s.points += points[i]
            if buncos[i]:
                s.buncos += buncos[i]
            if minis[i]:
                s.mini_buncos += minis[i]
            if wipeouts[i]:
                s.wipeouts += wipeouts[i]
        return TablePlay(  # by position: a third cheaper than by keyword, 12,000 times a night
            spec.number,  # number
            names,  # seats
            tuple([tuple([names[i] for i in team]) for team in spec.teams]),  # teams
            tuple(table.team_scores),  # scores
            tuple([names[i] for i in winners]),  # winners
            tuple([names[i] for i in losers]),  # losers
            table.rolls,  # rolls
            tuple(points),  # seat_points
            tuple(buncos),  # seat_buncos
            tuple(minis),  # seat_minis
            tuple(wipeouts),  # seat_wipeouts
        )


def _credit_play(stats: dict[str, PlayerStats], play: TablePlay) -> None:
    """Credit one table's round from its record (ghosts are never credited)."""
    winners, losers = set(play.winners), set(play.losers)
    for chair, name in enumerate(play.seats):
        s = stats[name]
        if s.ghost:
            continue
        s.wins += name in winners
        s.losses += name in losers
        if play.seat_points:
            s.points += play.seat_points[chair]
            s.buncos += play.seat_buncos[chair]
            s.mini_buncos += play.seat_minis[chair]
        if play.seat_wipeouts:
            s.wipeouts += play.seat_wipeouts[chair]


def _renamed(names, old: str, new: str):
    return tuple(new if n == old else n for n in names)


def _renamed_spec(spec: TableSpec, old: str, new: str) -> TableSpec:
    seats = tuple(Seat(new, s.ghost) if s.name == old else s for s in spec.seats)
    return TableSpec(spec.number, seats, spec.individuals)


def _keep_ghosts_apart(spec: TableSpec) -> TableSpec:
    """Ghosts may not partner ghosts: move one across the table if they would."""
    ghosts = [i for i, s in enumerate(spec.seats) if s.ghost]
    if spec.individuals:
        if ghosts:
            raise IllegalMove("players on their own have no partner to roll for a ghost")
        return spec
    if len(ghosts) > 2:
        raise IllegalMove(f"table {spec.number} would have only one real player")
    seats = list(spec.seats)
    if ghosts_partnered(spec):
        i = ghosts[1]
        j = (i + 1) % 4
        seats[i], seats[j] = seats[j], seats[i]
    return TableSpec(spec.number, tuple(seats), spec.individuals)


def _reseat_lone_player(self: Night, t: int, seats: list[Seat]) -> None:
    """Table ``t`` (its ``seats`` as they would be) would keep one real player among three
    ghosts: one of its ghosts changes chairs with a real player of the table with the fewest
    ghosts (in its pod; the last such table), so both keep two real players at least. Refused
    only when every other table already has two ghosts."""
    pods = pods_of(self.rules.pod_tables, len(self.tables))
    pod = next(p for p in pods if t in p)
    options = [u for u in pod if u != t and not self.tables[u].individuals
               and sum(s.ghost for s in self.tables[u].seats) < 2]
    if not options:
        raise IllegalMove(f"table {self.tables[t].number} would have only one real player, "
                          "and no other table has a chair to spare: keep them playing, or "
                          "seat the room again")
    u = min(options, key=lambda i: (sum(s.ghost for s in self.tables[i].seats), -i))
    there = list(self.tables[u].seats)
    mover = max(i for i, s in enumerate(there) if not s.ghost)
    ghost = max(i for i, s in enumerate(seats) if s.ghost)
    seats[ghost], there[mover] = there[mover], seats[ghost]
    other = self.tables[u]
    self.tables[u] = _keep_ghosts_apart(TableSpec(other.number, tuple(there), False))


def _substitute(self: Night, old: str, new: Seat) -> None:
    """Before the next round, ``new`` takes ``old``'s chair: a late arrival takes a ghost's
    chair, or a ghost takes the chair of a player who left (and where that would leave one
    real player among three ghosts, a ghost changes tables: ``_reseat_lone_player``). What
    ``old`` earned is kept."""
    if new.name in self.stats and not self.stats[new.name].ghost:
        raise IllegalMove(f"{new.name} is already playing")
    for t, spec in enumerate(self.tables):
        names = [s.name for s in spec.seats]
        if old in names:
            seats = list(spec.seats)
            seats[names.index(old)] = new
            if not spec.individuals and sum(s.ghost for s in seats) > 2:
                _reseat_lone_player(self, t, seats)
            self.tables[t] = _keep_ghosts_apart(
                TableSpec(spec.number, tuple(seats), spec.individuals))
            self.stats.setdefault(new.name, PlayerStats(
                new.name, ghost=new.ghost, joined_after=0 if new.ghost else len(self.history)))
            if new.ghost and not self.stats[old].ghost:
                self.stats[old].left = True  # went home early
            return
    raise IllegalMove(f"{old} is not seated")


def _rename(self: Night, old: str, new: str) -> None:
    """Fix a typo in a name, everywhere: seats, tallies, the rounds already played."""
    if old not in self.stats:
        raise IllegalMove(f"nobody called {old} is playing")
    if new in self.stats:
        raise IllegalMove(f"{new} is already a name tonight")
    self.tables = [_renamed_spec(t, old, new) for t in self.tables]
    self.stats = {
        (new if name == old else name): (
            PlayerStats(**{**vars(s), "name": new}) if name == old else s)
        for name, s in self.stats.items()
    }
    self.history = [
        RoundRecord(
            r.set_number, r.round_number,
            tuple(TablePlay(p.number, _renamed(p.seats, old, new),
                            tuple(_renamed(team, old, new) for team in p.teams), p.scores,
                            _renamed(p.winners, old, new), _renamed(p.losers, old, new), p.rolls,
                            p.seat_points, p.seat_buncos, p.seat_minis, p.seat_wipeouts)
                  for p in r.tables),
            tuple((t, new if n == old else n) for t, n in r.buncos),
        )
        for r in self.history
    ]

