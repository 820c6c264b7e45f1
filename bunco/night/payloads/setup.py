"""The kinds that set a night up: its creation, its rules and prizes, its seating (a seating's
JSON: ``tables_to_data``, ``tables_from_data``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bunco.night.payloads.base import Data, Payload
from bunco.night.payloads.codec import stored
from bunco.night.payloads.columns import SETUP
from scoring import Seat, TableSpec


def tables_to_data(tables: Iterable[TableSpec]) -> list[dict]:
    return [{"number": t.number, "individuals": t.individuals,
             "seats": [{"name": s.name, "ghost": s.ghost} for s in t.seats]} for t in tables]


def tables_from_data(data: list[dict]) -> list[TableSpec]:
    return [TableSpec(number=t["number"], individuals=t["individuals"],
                      seats=tuple(Seat(s["name"], ghost=s["ghost"]) for s in t["seats"]))
            for t in data]


def _specs(data: list[dict]) -> tuple[TableSpec, ...]:
    return tuple(tables_from_data(data))


@dataclass(frozen=True, slots=True)
class Created(Payload):
    """A night's first entry: its name, preset, house rules (``HouseRules.to_dict``) and entry
    fee. None: not given (the night keeps what it had)."""

    kind, mirrors = "created", ()

    name: str | None = None
    rules_id: str | None = None
    rules: Data | None = None
    entry_fee_cents: int | None = None


@dataclass(frozen=True, slots=True)
class RulesChanged(Payload):
    """New house rules before play, and the fee, name or preset when they changed with them."""

    kind, mirrors = "rules", SETUP

    rules: Data | None = None
    entry_fee_cents: int | None = None
    name: str | None = None
    rules_id: str | None = None


@dataclass(frozen=True, slots=True)
class Prizes(Payload):
    """The prize list (``HouseRules.awards``), how ties share it, and the typed pot (None: the
    fees make it)."""

    kind, mirrors = "prizes", SETUP

    awards: list[dict]
    award_ties: str
    one_prize_per_person: bool
    pot_cents: int | None = stored(None, kept=True)


@dataclass(frozen=True, slots=True)
class Seated(Payload):
    """The room's seating, table by table."""

    kind, mirrors = "seated", ()

    tables: tuple[TableSpec, ...] = stored(write=tables_to_data, read=_specs)
