"""A round for the whole room: every table's play, and the bell that travels between them.

A big room may play in pods (``HouseRules.pod_tables``): each pod's first table is its head
table, and a bell rung by a table's roll rings for its own pod only. The host's bell (the
horn) rings for every pod; the room's bell has rung once every pod's has."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalMove
from .roll import RollScore, check_round, roll_table, scores_in_order
from .rules import HouseRules
from .seating import pods_of
from .table import TableRound, TableSpec


class RoomRound:
    """All tables playing one round. Table index 0 is the head table."""

    def __init__(
        self,
        rules: HouseRules,
        round_number: int,
        tables: Sequence[TableSpec],
        first_seats: Sequence[int] | None = None,
    ):
        check_round(round_number)
        if not tables:
            raise IllegalMove("a round needs at least one table")
        firsts = list(first_seats) if first_seats is not None else [0] * len(tables)
        self.rules = rules
        self.round_number = round_number
        self.bunco_log: list[tuple[int, str]] = []  # (table number, roller) in rolling order
        self.pods = pods_of(rules.pod_tables, len(tables))
        self.pod_of = [p for p, pod in enumerate(self.pods) for _ in pod]
        heads = {pod.start for pod in self.pods}
        scores = roll_table(rules, round_number)
        in_order = scores_in_order(rules, round_number)
        self.tables = [
            TableRound(
                rules,
                round_number,
                spec,
                is_head=i in heads,
                first_seat=firsts[i],
                bunco_log=self.bunco_log,
                only_table=len(tables) == 1,
                scores=scores,
                scores_in_order=in_order,
            )
            for i, spec in enumerate(tables)
        ]
        self.pod_rung = [False] * len(self.pods)

    @property
    def bell_rung(self) -> bool:
        """The bell has rung for every pod (for the room, when it is one pod)."""
        return all(self.pod_rung)

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)

    def roll(self, table_index: int, dice: Sequence[int],
             seat: int | None = None, called: bool = True) -> RollScore | None:
        """A roll at one table (credited to ``seat`` when the log names it; see
        ``TableRound.roll``); a roll that rings the bell for the room rings it everywhere in
        the table's pod (the whole room, without pods)."""
        if table_index < 0 or table_index >= len(self.tables):
            raise IllegalMove(f"there is no table {table_index + 1} tonight")
        table = self.tables[table_index]
        score = table.roll(dice, seat, called)
        if table.rang_bell_for_room:
            self.ring_from(table_index)
        return score

    def ring_from(self, table_index: int) -> bool:
        """The table at ``table_index`` rang the bell: it rings for the table's pod. Returns
        whether that rang anything (False: the pod's bell had already rung)."""
        pod = self.pod_of[table_index]
        if self.pod_rung[pod]:
            return False
        self.ring_pod(pod)
        return True

    def ring_pod(self, pod: int) -> None:
        """End the round at every table of one pod (its head table's bell, or a bunco)."""
        if self.pod_rung[pod]:
            return
        self.pod_rung[pod] = True
        for index in self.pods[pod]:
            self.tables[index].bell()

    def ring_bell(self) -> None:
        """End the round everywhere (the host's bell or horn; without pods also the head
        table's bell or a bunco)."""
        for pod in range(len(self.pods)):
            self.ring_pod(pod)

    def rename(self, old: str, new: str) -> None:
        """Fix a name in the round in play."""
        from .night import _renamed_spec

        for table in self.tables:
            table.spec = _renamed_spec(table.spec, old, new)
        self.bunco_log[:] = [(t, new if n == old else n) for t, n in self.bunco_log]
