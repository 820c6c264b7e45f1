"""Each player as the room sees them: who moves where, a phone's own seat, its round's result
and scorecard (the standings and the end of the night: ``results``)."""

from __future__ import annotations

import functools

from bunco.live.screens.results import EndOfNight, my_night
from bunco.live.screens.table import render_table
from bunco.night.fold import LiveNight
from scoring.night import totals

TV_SHORT_NAME = 14


def longest_name(state: LiveNight) -> int:
    """The longest name seated tonight (the TV gives long names wider tables)."""
    return max((len(s.name) for spec in state.tables for s in spec.seats), default=0)


def movement(state: LiveNight) -> list[dict]:
    """Where each player goes next, after a round closed."""
    if not state.last_room or state.room or state.phase != "between_rounds":
        return []  # nobody moves after the night's last round
    before = {s.name: t.spec.number for t in state.last_room.tables for s in t.spec.seats}
    out = []
    for spec in state.tables:
        for i, seat in enumerate(spec.seats):
            if seat.ghost:
                continue
            partner = spec.partner_of(i)
            out.append({"name": seat.name, "from": before.get(seat.name), "to": spec.number,
                        "seat": i + 1,
                        "partner": spec.seats[partner].name if partner is not None else None})
    out.sort(key=lambda m: (m["to"], m["seat"]))
    return out


def my_seat(state: LiveNight, name: str, left: bool = False,
            table_html: str | None = None, room: RoomView | None = None) -> dict:
    """A player's own phone: where they sit, with whom, their table, their scorecard.
    ``table_html`` is their table's fragment when it has been rendered already; ``room``
    what every phone's page reads of the room, when many phones are drawn at once."""
    room = room or RoomView(state, (name,))
    where = room.seats.get(name) if state.phase not in ("over", "ended") else None
    stats = state.night.stats.get(name) if state.night else None
    ctx = {"name": name, "table": None, "stats": stats, "phase": state.phase, "left": left,
           "card": scorecard(state, name, room.cards.get(name)), "seq": state.versions.seats,
           "result": round_result(state, name) if state.room is None else None,
           "last_round": state.phase in ("over", "ended"), "rules": state.rules,
           "end": my_night(state, name, room.end) if state.ended else None}
    if where:
        number, chair = where
        spec = state.tables[number - 1]
        partner = spec.partner_of(chair)
        ctx.update(table=number, seat=chair + 1, individuals=spec.individuals,
                   partner=spec.seats[partner].name if partner is not None else None,
                   partner_ghost=bool(partner is not None and spec.seats[partner].ghost))
        if ctx["result"] is None:  # between rounds the result stands in for the table
            ctx["table_html"] = table_html if table_html is not None else render_table(
                state, number)
        moves = room.moves
        if name in moves and moves[name]["from"] not in (None, number):
            ctx["moved_from"] = moves[name]["from"]
    return ctx


class RoomView:
    """What every player's phone reads of the room, worked out once for all the phones a push
    draws (not once per phone): the seats, the next seats, the scorecards."""

    def __init__(self, state: LiveNight, names) -> None:
        self.state, self.names = state, names
        self.seats = {s.name: (t.number, i) for t in state.tables
                      for i, s in enumerate(t.seats)}

    # Worked out when a phone is drawn (a push that draws none, a bell, needs only the seats).
    @functools.cached_property
    def moves(self) -> dict:
        return {m["name"]: m for m in movement(self.state)}

    @functools.cached_property
    def end(self) -> EndOfNight:
        return EndOfNight(self.state)

    @functools.cached_property
    def cards(self) -> dict:
        night = self.state.night
        return night.scorecards(list(self.names)) if night else {}


def round_result(state: LiveNight, name: str) -> dict | None:
    """How the round just closed went for ``name``: the final tally of their table, won or
    lost, with whom, and the buncos they rolled. None before the first round ends."""
    if not state.night or not state.night.history:
        return None
    record = state.night.history[-1]
    play = next((p for p in record.tables if name in p.seats), None)
    if play is None:
        return None
    chair = play.seats.index(name)
    mine = next(t for t, team in enumerate(play.teams) if name in team)
    others = [s for t, s in enumerate(play.scores) if t != mine]
    return {
        "set": record.set_number, "round": record.round_number, "table": play.number,
        "won": name in play.winners,
        "partners": [n for n in play.teams[mine] if n != name],
        "score": play.scores[mine], "others": others,
        "tally": [{"names": list(team), "score": play.scores[t], "mine": t == mine,
                   "winner": bool(set(team) & set(play.winners))}
                  for t, team in enumerate(play.teams)],
        "buncos": play.seat_buncos[chair] if play.seat_buncos else 0,
    }


def scorecard(state: LiveNight, name: str, rows: list[dict] | None = None) -> dict:
    if rows is None:
        rows = state.night.scorecard(name) if state.night else []
    return {"rows": rows, "totals": totals(rows)}
