"""Playing rounds through the same services the phones use, for tests that need a round (or a
whole night) behind them."""

import random
import uuid

from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.services import claim_for
from scoring import PRESETS, sample_names


def started_night(name: str, players: int, seed: int, rules_id: str = "babz"):
    """A night of ``players`` sample names, seated (seats drawn with ``seed``), its first round
    started."""
    night = services.night_create(name=name, rules_id=rules_id,
                                  player_names=sample_names(players))
    services.night_seat(night=night, rng=random.Random(seed))
    services.round_start(night=night)
    return night


def tap(night, table, rng=None):
    """One roll at ``table`` (a scoring TableRound): random dice with ``rng``; otherwise a
    bunco while playing, then a hit breaks a tie and misses end turns, so every round closes
    in a few taps. The tap names the position the table is at, as a phone showing it would."""
    if table.dice_expected == 1:
        quick, dice = ("die6" if table.current % 2 else "die1"), None
    elif rng is not None:
        quick, dice = None, [rng.randint(1, 6) for _ in range(3)]
    else:
        tied = len(set(table.team_scores)) == 1
        quick = "bunco" if table.phase.value == "playing" else ("hit1" if tied else "miss")
        dice = None
    claim = claim_for(live_state(night), table.spec.number)
    return services.roll_record(night=night, claim=claim, key=uuid.uuid4(), actor="test",
                                quick=quick, dice=dice)


def roll(night, number, quick=None, dice=None, key=None, actor=None, claim=None):
    """Tap a roll at table ``number`` for the position its screen shows now."""
    claim = claim or claim_for(live_state(night), number)
    return services.roll_record(night=night, claim=claim, key=key or uuid.uuid4(),
                                actor=actor or f"table {number}", quick=quick, dice=dice)


def play_round(night, *, start=True, rng=None):
    """Ring the bell (unless a round is in play) and roll until every table has a result."""
    if start:
        services.round_start(night=night)
    state = live_state(night)
    while state.room is not None:
        tap(night, next(t for t in state.room.tables if not t.done), rng)
        state = live_state(night)
    return state


def finish_night(night, *, rng=None, sets=1, end=True):
    """Play every round of a ``sets``-set night, then (unless told not to) end it."""
    services.night_update_rules(night=night, rules=night.rules.replace(sets=sets))
    while live_state(night).phase != "over":
        play_round(night, rng=rng)
    if end:
        services.night_end(night=night)
    return live_state(night)


def finale_night():
    """Twelve guests on babz ($10 each), every round played, the night not ended yet. Ties
    split at once (not left for the tied players to choose), so every cent is paid."""
    night = services.night_create(name="Finale", rules_id="babz", entry_fee_cents=1000,
                                  rules=PRESETS["babz"].replace(award_ties="split"),
                                  player_names=sample_names(12))
    services.night_seat(night=night, rng=random.Random(8))
    assert finish_night(night, rng=random.Random(9), end=False).phase == "over"
    return night
