"""Where everyone sits next round, for every rotation method and the Winning Moves layouts.

A move plan says, for each table of the next round, which groups arrive there: the winners or
the losers of some table (or everyone from it), and whether that group stays at its own table.
Every method is a plan; one function carries any plan out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import IllegalMove
from .rules import FirstRoller, HouseRules, Partners, Rotation
from .seating import pods_of, uses_wm_layout, wm_shape
from .table_spec import Seat, TableSpec

WINNERS, LOSERS, EVERYONE = "W", "L", "ALL"

# (group, from table index, stays at its own table) for each destination table.
Move = tuple[str, int, bool]

# Winning Moves, "Bunco for 5 to 11 players", as the seed writes each count.
WM_MOVES: dict[int, list[list[Move]]] = {
    # One Table Bunco: everyone keeps their chair; the player left of the winner starts.
    2: [[(EVERYONE, 0, True)]],
    3: [[(EVERYONE, 0, True)]],
    4: [[(EVERYONE, 0, True)]],
    # Both at table 2 move to table 1; the two losers at table 1 move to table 2.
    5: [[(WINNERS, 0, True), (EVERYONE, 1, False)], [(LOSERS, 0, False)]],
    # Losing team at table 1 goes to table 2; both players from table 2 move to table 1.
    6: [[(WINNERS, 0, True), (EVERYONE, 1, False)], [(LOSERS, 0, False)]],
    # Both losers from table 1 move to table 2; both losers from table 2 move to table 1.
    7: [[(WINNERS, 0, True), (LOSERS, 1, False)], [(WINNERS, 1, True), (LOSERS, 0, False)]],
    # Two tables of four: the Party Bunco movement (losers walk).
    8: [[(WINNERS, 0, True), (LOSERS, 1, False)], [(WINNERS, 1, True), (LOSERS, 0, False)]],
    # Both at table 3 move to table 1; the losers at table 1 move to table 2 and the losers
    # ("those") from table 2 move to table 3. Table 2's winner stays, which keeps 4-3-2.
    9: [
        [(WINNERS, 0, True), (EVERYONE, 2, False)],
        [(WINNERS, 1, True), (LOSERS, 0, False)],
        [(LOSERS, 1, False)],
    ],
    # "Follow moving rules for nine players."
    10: [
        [(WINNERS, 0, True), (EVERYONE, 2, False)],
        [(WINNERS, 1, True), (LOSERS, 0, False)],
        [(LOSERS, 1, False)],
    ],
    # The losing players at each table move (to the next table, as in Party Bunco); winners stay.
    11: [
        [(WINNERS, 0, True), (LOSERS, 2, False)],
        [(WINNERS, 1, True), (LOSERS, 0, False)],
        [(WINNERS, 2, True), (LOSERS, 1, False)],
    ],
}


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """A finished table: the seat indices of its winners and of its losers."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]


def move_plan(rules: HouseRules, table_count: int, player_count: int,
              shape: Sequence[tuple[int, bool]] | None = None) -> list[list[Move]]:
    """The moves after a round. ``shape`` ((seats, individuals) per table) guards the Winning
    Moves plans: a room not seated in that count's layout (a night seated before the layout
    existed, or one where a player left) rotates by the rules' method instead."""
    if uses_wm_layout(rules, player_count) and (
            shape is None or tuple(shape) == wm_shape(player_count)):
        return WM_MOVES[player_count]
    last = table_count - 1
    if rules.rotation is Rotation.NONE:
        return [[(WINNERS, t, True), (LOSERS, t, True)] for t in range(table_count)]
    if rules.rotation is Rotation.CIRCULAR or table_count == 1:
        return [[(WINNERS, t, True), (LOSERS, (t - 1) % table_count, False)]
                for t in range(table_count)]
    plan: list[list[Move]] = [[(WINNERS, 0, True), (WINNERS, 1, False)]]
    drop_one = rules.rotation is Rotation.LADDER_DROP_ONE
    for t in range(1, last):
        if drop_one:
            plan.append([(LOSERS, t - 1, False), (WINNERS, t + 1, False)])
        else:  # LADDER_HEAD_TO_BOTTOM: winners move up one, losers stay
            plan.append([(LOSERS, t, True), (WINNERS, t + 1, False)])
    if drop_one:
        plan.append([(LOSERS, last, True), (LOSERS, last - 1, False)])
    else:
        plan.append([(LOSERS, last, True), (LOSERS, 0, False)])
    return plan


def rotate(
    rules: HouseRules,
    tables: Sequence[TableSpec],
    outcomes: Sequence[TableOutcome],
) -> list[TableSpec]:
    """The next round's tables after every table's ``outcome``: in pods, each pod rotates on
    its own, as a room of its tables, and keeps its table numbers."""
    if len(tables) != len(outcomes):
        raise IllegalMove("every table needs a result before anyone moves")
    pods = pods_of(rules.pod_tables, len(tables))
    if len(pods) == 1:
        return _rotate_room(rules, tables, outcomes)
    result: list[TableSpec] = []
    for pod in pods:
        moved = _rotate_room(rules, tables[pod.start:pod.stop], outcomes[pod.start:pod.stop])
        result.extend(TableSpec(pod.start + spec.number, spec.seats, spec.individuals)
                      for spec in moved)
    return result


def _rotate_room(
    rules: HouseRules,
    tables: Sequence[TableSpec],
    outcomes: Sequence[TableOutcome],
) -> list[TableSpec]:
    """One room's (or pod's) next tables, numbered from 1."""
    # A ghost who took the chair of a player who left moves like that player: the layout is
    # the count of chairs.
    shape = [(len(t.seats), t.individuals) for t in tables]
    plan = move_plan(rules, len(tables), sum(size for size, _ in shape), shape)
    fixed = rules.partners is Partners.FIXED
    result = []
    for dest, moves in enumerate(plan):
        groups = []
        size = 0
        for group, source, stays in moves:
            spec, outcome = tables[source], outcomes[source]
            if group == WINNERS:
                chairs = outcome.winners
            elif group == LOSERS:
                chairs = outcome.losers
            else:
                chairs = tuple(range(len(spec.seats)))
            seats = spec.seats
            groups.append(([(seats[c], c) for c in sorted(chairs)], stays))
            size += len(chairs)
        template = tables[dest]
        individuals = size < 4 or template.individuals and size == len(template.seats)
        seats = (_seat_individuals(groups, size) if individuals
                 else _seat_teams(groups, fixed=fixed))
        result.append(TableSpec(dest + 1, seats, individuals))
    return result


def _seat_individuals(groups, size: int) -> tuple[Seat, ...]:
    """Those who stay keep their chair; arrivals take the free chairs in order."""
    chairs: list[Seat | None] = [None] * size
    arriving = []
    for members, stays in groups:
        for seat, old_chair in members:
            if stays and old_chair < size and chairs[old_chair] is None:
                chairs[old_chair] = seat
            else:
                arriving.append(seat)
    free = iter(i for i, c in enumerate(chairs) if c is None)
    for seat in arriving:
        chairs[next(free)] = seat
    return tuple(chairs)  # type: ignore[arg-type]


def _seat_teams(groups, *, fixed: bool) -> tuple[Seat, ...]:
    """Four chairs, partners across (0-2, 1-3). Unless partners are fixed, each new team pairs
    one player of each arriving group, so nobody keeps last round's partner; a ghost is never
    paired with a ghost."""
    (first, first_stays), (second, _) = groups
    if len(first) != 2 or len(second) != 2:
        raise IllegalMove("a table of four takes two pairs of players")
    (a0, chair0), (a1, chair1) = first
    a = [a0, a1]
    b = [second[0][0], second[1][0]]
    # The staying pair's first player keeps the chair; the other shifts one seat over.
    home = min(chair0, chair1) % 2 if first_stays else 0
    chairs: list[Seat | None] = [None] * 4
    if fixed:
        chairs[home], chairs[(home + 2) % 4] = a
        chairs[(home + 1) % 4], chairs[(home + 3) % 4] = b
        return tuple(chairs)  # type: ignore[arg-type]
    if (a[0].ghost and b[0].ghost) or (a[1].ghost and b[1].ghost):
        b.reverse()
    chairs[home], chairs[(home + 1) % 4] = a
    chairs[(home + 2) % 4], chairs[(home + 3) % 4] = b
    return tuple(chairs)  # type: ignore[arg-type]


def first_seats(
    rules: HouseRules, tables: Sequence[TableSpec], last_winners: Sequence[str] = ()
) -> list[int]:
    """Who rolls first at each table: the scorekeeper (seat 0), or the player to the left of
    last round's winner when the rules say so and that winner sits at the table."""
    if rules.first_roller is FirstRoller.SCOREKEEPER or (
            rules.first_roller is FirstRoller.LEFT_OF_WINNER_AT_ONE_TABLE and len(tables) > 1):
        return [0] * len(tables)
    out = []
    for spec in tables:
        names = [s.name for s in spec.seats]
        chair = next((names.index(w) for w in last_winners if w in names), None)
        out.append(0 if chair is None else (chair + 1) % len(names))
    return out
