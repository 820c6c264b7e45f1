"""Setting a night up: its name, house rules and fee, a night like the last one, the demo.

These come before play and are refused for what was typed (a blank name, a negative fee,
rules that do not validate), not for the state of the night; the players typed with a new
night are checked in through the roster's own command.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from bunco.models import Night
from bunco.night.fold import Kind, LiveNight
from bunco.night.names import normalise
from bunco.night.payloads import Created, RulesChanged
from bunco.night.services.play import night_seat
from bunco.night.services.roster import _new_names, players_add
from bunco.night.services.runner import Command, CommandRefused, _refuse_on_domain_errors, run
from scoring import PRESETS, HouseRules, sample_names


def _clean_night_name(name: str) -> str:
    # As a player's name: no direction overrides or control characters (it is on the TV).
    name = normalise(name or "")
    if not name:
        raise CommandRefused("give the night a name, e.g. \"March Bunco\"")
    return name[:80]


@dataclass(frozen=True)
class CreateNight(Command):
    """A night's first entry: its name, house rules and entry fee."""

    name: str
    rules_id: str
    rules: dict
    entry_fee_cents: int

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.CREATED, "data": Created(self.name, self.rules_id, self.rules,
                                                     self.entry_fee_cents)}


@dataclass(frozen=True)
class ChangeRules(Command):
    """New house rules, and the fee, the name or the preset they came from if given."""

    rules: dict
    entry_fee_cents: int | None = None
    name: str | None = None
    rules_id: str | None = None

    def event(self, state: LiveNight) -> dict:
        return {"kind": Kind.RULES, "data": RulesChanged(
            self.rules, self.entry_fee_cents, self.name, self.rules_id)}


@_refuse_on_domain_errors
def night_create(
    *,
    name: str,
    rules_id: str,
    rules: HouseRules | None = None,
    entry_fee_cents: int = 0,
    player_names: Sequence[str] = (),
    demo: bool = False,
) -> Night:
    name = _clean_night_name(name)
    if rules_id not in PRESETS:
        raise CommandRefused(f"unknown house rules {rules_id!r}")
    if entry_fee_cents < 0:
        raise CommandRefused("the entry fee cannot be negative")
    rules = rules or PRESETS[rules_id]
    names = _new_names([], player_names) if player_names else []
    with transaction.atomic():
        night = Night.objects.create(
            name=name, rules_id=rules_id, rules_json=rules.to_dict(),
            entry_fee_cents=entry_fee_cents, demo=demo,
        )
        run(night, CreateNight(name, rules_id, rules.to_dict(), entry_fee_cents))
        if names:
            players_add(night=night, names=names)
    return night


@_refuse_on_domain_errors
def night_update_rules(*, night: Night, rules: HouseRules, entry_fee_cents: int | None = None,
                       name: str | None = None, rules_id: str | None = None) -> Night:
    if entry_fee_cents is not None and entry_fee_cents < 0:
        raise CommandRefused("the entry fee cannot be negative")
    if name is not None:
        name = _clean_night_name(name) if name.strip() else None
    run(night, ChangeRules(rules.to_dict(), entry_fee_cents, name, rules_id))
    return night


@_refuse_on_domain_errors
def night_again(*, night: Night) -> Night:
    """A new night with the last one's players and rules."""
    names = [p.name for p in night.players.here()]
    return night_create(name=f"{night.name} (next)", rules_id=night.rules_id,
                        rules=night.rules, entry_fee_cents=night.entry_fee_cents,
                        player_names=names, demo=night.demo)


def demo_night_create(*, rules_id: str = "babz") -> Night:
    """Twelve sample players, seated, ready for the first bell. A demo night is never in the
    season: its sample players are nobody's (``Night.demo``)."""
    night = night_create(name="Demo night", rules_id=rules_id, entry_fee_cents=1000,
                         player_names=sample_names(12), demo=True)
    night_seat(night=night)
    return night
