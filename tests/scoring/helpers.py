"""Small builders for engine tests."""

from scoring import RoomRound, Seat, TableSpec

MISS = (2, 3, 5)  # no 1, 4 or 6 and not a triple: a miss in rounds 1, 4 and 6


def spec(names: str, number: int = 1, individuals: bool = False, ghosts: str = "") -> TableSpec:
    """spec("ABCD") seats A, B, C, D clockwise: A & C are partners, B & D are partners."""
    return TableSpec(
        number=number,
        seats=tuple(Seat(n, ghost=n in ghosts) for n in names),
        individuals=individuals,
    )


def room(rules, round_number: int, *tables: str) -> RoomRound:
    return RoomRound(rules, round_number, [spec(t, number=i + 1) for i, t in enumerate(tables)])


def hits(n: int, target: int = 1) -> tuple[int, int, int]:
    """A roll with ``n`` (1 or 2) target dice and no triple."""
    other = [x for x in (2, 3, 5, 6) if x != target]
    return tuple([target] * n + other[: 3 - n])
