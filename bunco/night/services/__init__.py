"""Writes: every command that changes a night, for the host, the tables, the desk and the clock.

The commands are grouped by what a host is doing when they run (``setup``, ``roster``,
``desk``, ``play``, ``table`` (a table's taps), ``prizes``, ``restore``; ``nights``: the
host's list of nights; ``calls``: a table calling the host over), so each part of the night
reads on its own page. Each command is a typed value (``runner.Command``: what was asked, its
one handler ``event`` and the rows it writes), run by the one runner (``runner.run``), so a
command only says what its event is and when it is refused (``nights`` and ``calls`` change
no game: each writes its rows in one transaction of its own). Callers import from
``bunco.night.services``: a command by its function (``roll_record(...)``) or as a value
(``run(night, RecordRoll(...))``).
"""

from bunco.night.services.calls import host_call, host_call_answer
from bunco.night.services.desk import (
    check_in_close,
    check_in_closed_message,
    player_arrive,
    player_check_in,
    waiting_seat,
    walk_in_check_in,
)
from bunco.night.services.nights import night_archive, night_delete, night_in_play
from bunco.night.services.play import (
    BREAK_MINUTES,
    CLOCK_SLACK_MS,
    TakeBack,
    bell_ring,
    break_end,
    break_start,
    clock_due,
    event_void,
    game_pause,
    game_resume,
    night_seat,
    round_start,
    seats_swap,
    take_back_preview,
    take_back_target,
)
from bunco.night.services.prizes import (
    awards_update,
    night_end,
    prize_reveal,
    prize_roll_off,
    prize_split,
)
from bunco.night.services.restore import KINDS, night_restore
from bunco.night.services.roster import (
    MAX_PASTE,
    PASTE_CHUNK,
    known_people,
    new_people,
    people_merge,
    person_for,
    player_claim,
    player_leave,
    player_release,
    player_remove,
    player_rename,
    player_split,
    players_add,
)
from bunco.night.services.runner import Ack, CommandRefused, event_ack, run
from bunco.night.services.setup import (
    demo_night_create,
    night_again,
    night_create,
    night_update_rules,
)
from bunco.night.services.table import (
    Claim,
    FinishTable,
    RecordRoll,
    UndoRoll,
    claim_for,
    roll_record,
    roll_undo,
    table_finish,
)

__all__ = [
    # runner: what every command shares (``run`` runs a command given as a value)
    "Ack", "CommandRefused", "event_ack", "run",
    # setup
    "demo_night_create", "night_again", "night_create", "night_update_rules",
    # roster
    "MAX_PASTE", "PASTE_CHUNK", "known_people", "new_people", "people_merge", "person_for",
    "player_claim", "player_leave", "player_release", "player_remove", "player_rename",
    "player_split", "players_add",
    # desk
    "check_in_close", "check_in_closed_message", "player_arrive", "player_check_in",
    "waiting_seat", "walk_in_check_in",
    # calls for the host
    "host_call", "host_call_answer",
    # the list of nights
    "night_archive", "night_delete", "night_in_play",
    # play
    "BREAK_MINUTES", "CLOCK_SLACK_MS", "TakeBack", "bell_ring", "break_end", "break_start",
    "clock_due", "event_void", "game_pause", "game_resume", "night_end", "night_seat",
    "round_start", "seats_swap", "take_back_preview", "take_back_target",
    # a table's taps and their claims
    "Claim", "FinishTable", "RecordRoll", "UndoRoll", "claim_for", "roll_record", "roll_undo",
    "table_finish",
    # prizes
    "awards_update", "prize_reveal", "prize_roll_off", "prize_split",
    # restore
    "KINDS", "night_restore",
]
