"""Seating a night: how many tables of what kind, where the ghosts sit, who starts where."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .errors import RulesError
from .rules import HouseRules, Layout, Seating
from .table_spec import Seat, TableSpec

# Winning Moves, "One Table Bunco (For 2-4 players)" and "Bunco for 5 to 11 players": table
# sizes, in order from the head table. At a party a table of four plays in teams and a table of
# two or three plays as individuals to 11; One Table Bunco seats everyone on their own.
WM_ONE_TABLE = range(2, 5)
WM_SIZES: dict[int, tuple[int, ...]] = {
    2: (2,),
    3: (3,),
    4: (4,),
    5: (3, 2),
    6: (4, 2),
    7: (4, 3),
    8: (4, 4),
    9: (4, 3, 2),
    10: (4, 4, 2),
    11: (4, 4, 3),
}


def ghosts_partnered(spec: TableSpec) -> bool:
    """Two ghosts would be partners at this table: nobody would be there to roll for them
    (a ghost's partner rolls for it), so seatings and swaps may not do it."""
    return not spec.individuals and any(
        len(team) > 1 and all(i < len(spec.seats) and spec.seats[i].ghost for i in team)
        for team in spec.teams)


def uses_wm_layout(rules: HouseRules, player_count: int) -> bool:
    return rules.layout is Layout.WM_LAYOUTS and player_count in WM_SIZES


def wm_shape(player_count: int) -> tuple[tuple[int, bool], ...]:
    """(seats, individuals) of each table in the Winning Moves layout for this count."""
    return tuple((size, size < 4 or player_count in WM_ONE_TABLE)
                 for size in WM_SIZES[player_count])


def table_sizes(rules: HouseRules, player_count: int) -> list[tuple[int, bool]]:
    """(seats, individuals) for each table, head table first."""
    rules.check_player_count(player_count)
    if rules.layout is Layout.ONE_TABLE:
        return [(player_count, True)]
    if uses_wm_layout(rules, player_count):
        return list(wm_shape(player_count))
    return [(4, False)] * (-(-player_count // 4))


def pods_of(pod_tables: int, table_count: int) -> list[range]:
    """The room's pods, as ranges of table indexes, head table first in each: ``pod_tables``
    tables each (0: the whole room is one pod). A lone table left over joins the last pod
    (a pod of one would have no one to move with); two or more make a smaller pod."""
    if pod_tables < 2 or table_count <= pod_tables:
        return [range(table_count)]
    starts = list(range(0, table_count, pod_tables))
    if table_count - starts[-1] == 1:
        starts.pop()
    ends = [*starts[1:], table_count]
    return [range(a, b) for a, b in zip(starts, ends, strict=True)]


def clean_names(names: Sequence[str]) -> list[str]:
    """Player names, trimmed; empty or repeated names are refused."""
    out: list[str] = []
    seen: set[str] = set()
    for raw in names:
        if not isinstance(raw, str):
            raise RulesError("players", f"{raw!r} is not a name")
        name = " ".join(raw.split())
        if not name:
            raise RulesError("players", "a player's name is empty")
        if len(name) > 40:
            raise RulesError("players", f"{name[:40]}… is longer than 40 characters")
        if name.casefold() in seen:
            raise RulesError(
                "players", f"{name} is listed twice; add an initial to tell them apart"
            )
        seen.add(name.casefold())
        out.append(name)
    return out


def ghost_names(count: int, taken: Sequence[str]) -> list[str]:
    used = {n.casefold() for n in taken}
    names: list[str] = []
    k = 1
    while len(names) < count:
        candidate = f"Ghost {k}"
        if candidate.casefold() not in used:
            names.append(candidate)
        k += 1
    return names


def _ghost_chairs(sizes: list[tuple[int, bool]], ghosts: int,
                  order: Sequence[int] | None = None) -> set[tuple[int, int]]:
    """Where ghosts sit: from the last table up (or in the table ``order`` given, first
    first), one a table, never two on one team and never in the scorekeeper's chair (seat 0)."""
    chairs: set[tuple[int, int]] = set()
    team_tables = [t for t, (size, individuals) in enumerate(sizes) if not individuals]
    tables = ([t for t in order if t in team_tables] if order is not None
              else list(reversed(team_tables)))
    preferred_seats = (3, 2)  # seat 3 is on team 1, seat 2 on team 0
    for seat in preferred_seats:
        for t in tables:
            if len(chairs) == ghosts:
                return chairs
            chairs.add((t, seat))
    if len(chairs) < ghosts:
        raise RulesError("players", "too few tables for the ghosts these rules would need")
    return chairs


def seat_night(rules: HouseRules, names: Sequence[str], rng: random.Random) -> list[TableSpec]:
    """The first round's tables, at random (or by the starred-sheets draw for the head table)."""
    players = clean_names(names)
    sizes = table_sizes(rules, len(players))
    seat_count = sum(size for size, _ in sizes)
    ghosts = _ghost_chairs(sizes, seat_count - len(players))
    order = list(players)
    rng.shuffle(order)
    if rules.seating is Seating.STARRED_SHEETS:
        # Seed 002: starred sheets are drawn for the head table's real chairs; the rest shuffle.
        stars = sizes[0][0] - sum(1 for t, _ in ghosts if t == 0)
        starred = rng.sample(players, stars)
        rest = [p for p in players if p not in starred]
        rng.shuffle(rest)
        order = starred + rest
    spare = iter(ghost_names(len(ghosts), players))
    people = iter(order)
    tables = []
    for t, (size, individuals) in enumerate(sizes):
        seats = tuple(
            Seat(next(spare), ghost=True) if (t, s) in ghosts else Seat(next(people))
            for s in range(size)
        )
        tables.append(TableSpec(number=t + 1, seats=seats, individuals=individuals))
    return tables


# -- a draw at the door ---------------------------------------------------------------------------
#
# At a big night guests check in at a desk before the room is seated, and each draws a table
# there and then (like drawing a chair's card from a hat). When the host seats the room, the
# guests who came keep their drawn table where they can; the tables a no-show left nearly empty
# are closed and their guests fill the others, so the room is again tables 1..k with ghosts only
# where ``seat_night`` would put them.

CHAIRS = 4


def draws_tables(rules: HouseRules, player_count: int) -> bool:
    """Whether guests draw a table at the door for a night of ``player_count``: only when the
    room is tables of four seated at random. One Table Bunco, the Winning Moves layouts for
    5-11 players and the starred-sheets draw for the head table seat as they always do."""
    return (rules.layout is not Layout.ONE_TABLE and rules.seating is Seating.RANDOM
            and not uses_wm_layout(rules, player_count))


def planned_tables(expected: int) -> int:
    """How many tables of four a list of ``expected`` guests needs."""
    return max(1, -(-expected // CHAIRS))


def draw_table(drawn: Sequence[int], expected: int, rng: random.Random) -> int:
    """The table the next guest draws: one of the free chairs of the planned tables, at
    random (a table with more free chairs is likelier, as a chair's card from a hat). ``drawn``
    is the table every guest before drew. When every planned chair is taken (more came than
    were expected) the next table opens."""
    filled: dict[int, int] = {}
    for number in drawn:
        filled[number] = filled.get(number, 0) + 1
    tables = planned_tables(expected)
    chairs = [n for n in range(1, tables + 1) for _ in range(CHAIRS - filled.get(n, 0))]
    if chairs:
        return rng.choice(chairs)
    return next(n for n in range(tables + 1, tables + len(drawn) + 2)
                if filled.get(n, 0) < CHAIRS)


def _kept_tables(players: Sequence[str], drawn: Mapping[str, int],
                 k: int) -> dict[int, list[str]]:
    """The drawn tables that stay in a room of ``k`` tables, by their number in 1..k, each
    with the guests who drew it: the fullest stay (on a tie one whose number is still in use,
    then the lower number), and one numbered past ``k`` takes a number left free."""
    groups: dict[int, list[str]] = {}
    for name in players:
        number = drawn.get(name)
        if number is not None:
            groups.setdefault(number, []).append(name)
    kept = sorted(groups, key=lambda n: (-len(groups[n]), n > k, n))[:k]
    keeps_number = sorted(n for n in kept if n <= k)
    free_numbers = iter(n for n in range(1, k + 1) if n not in keeps_number)
    final = {n: n for n in keeps_number}
    final.update((n, next(free_numbers)) for n in sorted(kept) if n > k)
    return {final[n]: list(groups[n]) for n in kept}


def seat_drawn(rules: HouseRules, names: Sequence[str], drawn: Mapping[str, int],
               rng: random.Random) -> list[TableSpec]:
    """The first round's tables for the guests who came (``names``), keeping each at the
    table they drew (``drawn``: name -> table) where they can. The room needs as many tables
    as ``seat_night`` would give this count: the fullest drawn tables are kept (the fewest
    guests move), the least-filled are closed and their guests (and anyone who drew nothing)
    fill the free chairs at random. Kept tables numbered within 1..k keep their number; the
    rest take the numbers left free. Ghosts sit at the least-filled tables, in the chairs
    ``seat_night`` gives them. Rules that do not draw (``draws_tables``) seat as
    ``seat_night`` does."""
    players = clean_names(names)
    if not draws_tables(rules, len(players)):
        return seat_night(rules, players, rng)
    sizes = table_sizes(rules, len(players))
    k = len(sizes)
    at = _kept_tables(players, drawn, k)
    # Ghosts go to the least-filled tables (the head table last, then the last table first),
    # as few a table as can be.
    order = sorted(range(k), key=lambda t: (len(at.get(t + 1, [])), t == 0, -t))
    ghosts = _ghost_chairs(sizes, sum(s for s, _ in sizes) - len(players), order)
    pool = [n for n in players if n not in {m for g in at.values() for m in g}]
    for t, (size, _) in enumerate(sizes):
        room = size - sum(1 for table, _ in ghosts if table == t)
        guests = at.setdefault(t + 1, [])
        if len(guests) > room:  # more drew this table than it now seats: the latest move
            pool.extend(guests[room:])
            del guests[room:]
    rng.shuffle(pool)
    spare = iter(ghost_names(len(ghosts), players))
    tables = []
    for t, (size, individuals) in enumerate(sizes):
        guests = at[t + 1]
        need = size - sum(1 for table, _ in ghosts if table == t) - len(guests)
        guests.extend(pool[:need])
        del pool[:need]
        rng.shuffle(guests)
        people = iter(guests)
        seats = tuple(
            Seat(next(spare), ghost=True) if (t, s) in ghosts else Seat(next(people))
            for s in range(size)
        )
        tables.append(TableSpec(number=t + 1, seats=seats, individuals=individuals))
    return tables
