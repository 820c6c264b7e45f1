"""One tap at a table (a roll, an undo or a "done"), from a phone's form post or its websocket
alike: the tap's fields read (``read_tap``), one command run, and the game's
decision.

The decision (``Answer``) is what the phone is told: recorded, already recorded, refused and
why, or kept (the laptop cannot take it now); the night's seq and where the table's next tap
goes. Over the websocket that is all (the push brings the table); a form post's answer also
carries the table as it now stands (``Answer.with_table``), since no push reaches a phone
whose socket is closed."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import DatabaseError

from bunco.laptop import disk
from bunco.live import screens
from bunco.models import Night
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.fold import LiveNight
from bunco.night.services import Ack, Claim, CommandRefused
from scoring import ROUNDS_PER_SET

OUT_OF_DATE = "this screen is out of date; reload the page"
BROKEN_ID = "this tap carried a broken id; reload the page"

#: Each number a tap names: (lowest, highest, whether it must be there).
NUMBERS = {"set": (0, 99, False), "round": (1, ROUNDS_PER_SET, True),  # set 0: practice
           "table": (1, 9999, True), "pos": (0, 1_000_000, True),
           # When the phone took the tap (ms, the server's clock): a tap sent late, after a
           # spell offline, keeps its own time in the tally history.
           "tapped": (0, 10**14, False)}
MAX_DICE_TEXT = 20
#: The most digits a tap's number is read with (leading zeros included).
MAX_DIGITS = 20


class Unreadable(ValueError):
    """A tap whose fields are not what a page sends: the sentence says what to do."""


def _number(fields, name: str) -> int | None:
    low, high, required = NUMBERS[name]
    value = fields.get(name)
    text = str(value).strip() if value is not None else ""
    if not text:
        if required:
            raise Unreadable(OUT_OF_DATE)
        return None
    digits = text[1:] if text[0] in "+-" else text
    # Its length bounded before it is parsed: Python refuses to read over 4,300 digits.
    if (len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit())
            or not low <= int(text) <= high):
        raise Unreadable(f"that tap's {name} is not a number from {low} to {high}; "
                         "reload the page")
    return int(text)


def _dice(text) -> list[int] | None:
    """The faces tapped, "4,4,1": digits only; scoring says which faces and how many count."""
    text = str(text or "").strip()
    if len(text) > MAX_DICE_TEXT:
        raise Unreadable(f"dice: at most {MAX_DICE_TEXT} characters")
    if not text:
        return None
    faces = [part.strip() for part in text.split(",")]
    if not all(f.isascii() and f.isdigit() and len(f) == 1 for f in faces):
        raise Unreadable("each die shows 1-6")
    return [int(f) for f in faces]


def read_tap(fields) -> dict:
    """A tap's fields, read as the game needs them (a form post's or a websocket message's
    alike), or ``Unreadable``. Which dice and buttons a round takes is scoring's to say."""
    key = str(fields.get("key") or "").strip()
    try:
        key = uuid.UUID(key) if key else None
    except ValueError:
        raise Unreadable(BROKEN_ID) from None
    quick = str(fields.get("quick") or "").strip() or None
    if quick is not None and len(quick) > MAX_DICE_TEXT:  # no button's name is this long
        raise Unreadable("unknown quick button")
    return {"key": key, **{name: _number(fields, name) for name in NUMBERS},
            "quick": quick, "dice": _dice(fields.get("dice"))}


@dataclass
class Answer:
    status: int
    body: dict  # the decision, as the phone is told it
    table: int | None = None
    state: LiveNight | None = None
    drawn: str | None = None  # the table as the command's push drew it, if it drew it

    def with_table(self) -> dict:
        """The decision with the table as it now stands, for a form post's answer."""
        state, table = self.state, self.table
        if state is None or table is None or not 1 <= table <= len(state.tables):
            return self.body
        return {**self.body, "html": self.drawn or screens.render_table(state, table)}


NOT_YOURS = ("{name} is on another phone; that tap was not counted. If that phone died, "
             "ask the host to release {name}.")


def tap_answer(night: Night, table: int | None, ack: Ack | None = None,
               error: str | None = None) -> Answer:
    """The game's decision on a tap: recorded, already recorded, or refused with a message
    naming what happened; with the night's seq and where the table's next tap goes."""
    state = ack.state if ack is not None else live_state(night)
    body: dict = {"seq": state.seq}
    if table is not None and state.room is not None and 1 <= table <= len(state.room.tables):
        where = services.claim_for(state, table)
        body["at"] = {"set": where.set_number, "round": where.round_number, "table": table,
                      "pos": where.position}
    drawn = ack.frames.tables.get(table) if ack is not None and ack.frames else None
    if error is not None:
        answer = refusal(error, 409, **body)
    else:
        recorded = {"recorded": ack.row.seq if ack.row else None}
        if not ack.applied:
            recorded["message"] = "Already recorded"
        answer = Answer(200, {"ok": True, **recorded, **body})
    answer.table, answer.state, answer.drawn = table, state, drawn
    return answer


def refusal(error: str, status: int = 409, **body) -> Answer:
    """A tap the game says no to: final, the phone lists it under "Not counted" (unlike a
    busy or failing server's answer, after which it sends the same tap again)."""
    return Answer(status, {"ok": False, "refused": True, "error": error, **body})


def earlier_answer(night: Night, fields) -> Answer | None:
    """The first answer to a tap whose key is already in the log: looked up before any
    refusal, so a resend of a counted roll is never reported as not counted."""
    key = fields.get("key")
    earlier = services.event_ack(night=night, key=key) if key else None
    if earlier is None:
        return None
    return tap_answer(night, earlier.row.table, earlier)


def tap(night: Night, table: int, action: str, actor: str, fields, *,
        device: bool = False) -> Answer:
    """One tap at ``table`` (a roll, an undo or a "done"), from a form post or a websocket
    message alike: validated, run, answered."""
    if action not in ("roll", "undo", "finish"):
        return refusal("unknown action", 404)
    try:
        data = read_tap(fields)
    except Unreadable as exc:
        return tap_answer(night, table, error=str(exc))
    claimed_table = data["table"]
    if claimed_table != table:
        # A resend of a tap already applied gets its first answer, even after its player
        # moved on; a new tap for a table they left is refused.
        earlier = earlier_answer(night, data)
        if earlier is not None:
            return earlier
        return tap_answer(night, table, error=(
            f"this is table {table}'s screen; that tap was for table {claimed_table}"
            if device else
            f"you have moved to table {table}; that tap was for table {claimed_table}"))
    claim = Claim(data["set"], data["round"], table, data["pos"])
    if action == "roll":
        command = services.RecordRoll(claim, data["dice"], data["quick"], data["tapped"])
    else:
        command = services.UndoRoll(claim) if action == "undo" else services.FinishTable(claim)
    try:
        ack = services.run(night, command, key=data["key"], actor=actor)
    except CommandRefused as exc:
        answer = tap_answer(night, table, error=str(exc))
        if exc.same:  # counted once already: nothing to enter again
            answer.body["same"] = True
        return answer
    return tap_answer(night, table, ack)


def player_seat(player) -> tuple[int | None, str]:
    """The table a player's phone taps at now, or why it cannot tap."""
    state = live_state(player.night)
    if state.ended:
        return None, "the night has ended; that tap was not counted"
    where = state.seat_of(player.name)
    if where is not None:
        return where[0], ""
    if player.left_early:
        return None, "you have left the game: a ghost plays your chair"
    return None, "you are not seated yet"


#: A link this server does not know: the night may not be opened here yet (a laptop that
#: died, its night's copy still to be opened on this one). Not a decision of the game: the
#: phone keeps its taps and sends them once the night is here.
UNKNOWN = "The laptop does not know this night yet: your rolls are kept"


def unknown_link() -> Answer:
    return Answer(404, {"ok": False, "retry": True, "unknown": True, "error": UNKNOWN})


def cannot_save() -> Answer:
    """The laptop could not write the tap (its disk full or failing): not a decision of the
    game either. The phone keeps the tap and sends it again; the host's page says why."""
    return Answer(503, dict(disk.PHONES_ANSWER))


def saved_or_kept(night_id: int, run, *args, **kwargs) -> Answer:
    """``run(*args, **kwargs)`` (a tap), or the answer that the laptop cannot save it now."""
    try:
        return run(*args, **kwargs)
    except (DatabaseError, OSError) as exc:
        if not disk.is_disk_error(exc):
            raise
        disk.data_failed(exc, night_id)
        return cannot_save()


def player_tap_answer(who, action: str, fields) -> Answer:
    """A player's phone's tap at the table its owner sits at now. A phone whose owner has no
    seat (the night ended, sent home) still gets "already recorded" for a tap in the log."""
    table, why = player_seat(who)
    if table is None:
        return earlier_answer(who.night, fields) or refusal(why)
    return tap(who.night, table, action, who.name, fields)
