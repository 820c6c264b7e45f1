"""One writer per night on two real workers: taps for one night posted to both workers as
fast as they are answered wait for each other and are all recorded, once each. None is refused
for "crossing" another worker's write, none is answered with a server error, and the log stays
gap-free with each table's positions in order."""

from __future__ import annotations

import asyncio
import random
import uuid

import httpx

from bunco.models import Night, ScoreEvent, TableLink
from bunco.night import services
from bunco.night.cache import live_state
from bunco.night.fold import Kind
from scoring import sample_names
from tests.scale.conftest import start_both

TAPS_PER_TABLE = 20
TABLES = 8
PACE = 0.22  # seconds between a table's taps: inside a link's fair use (5 a second)


class Outbox:
    """One table's scorekeeper, as the page's outbox taps: each tap a key and the position the
    taps before it produce, sent in order; a busy or failing answer is sent again with the same
    key, on the next worker; a decision of the game ends it."""

    def __init__(self, bases: list[str], token: str, claim, quick: str):
        self.bases, self.token, self.claim, self.quick = bases, token, claim, quick
        self.answers: list[tuple[str, int, dict]] = []  # (key, status, body) when final
        self.errors: list[int] = []  # 5xx answers (each resent)

    async def run(self, taps: int) -> None:
        clients = [httpx.AsyncClient(base_url=b, trust_env=False, timeout=10)
                   for b in self.bases]
        try:
            for client in clients:
                assert (await client.get(f"/t/{self.token}/")).status_code == 200
            for n in range(taps):
                await self.tap(clients, n)
                await asyncio.sleep(PACE)
        finally:
            for client in clients:
                await client.aclose()

    async def tap(self, clients, n: int) -> None:
        key, attempt = str(uuid.uuid4()), 0
        fields = {"key": key, "set": self.claim.set_number, "round": self.claim.round_number,
                  "table": self.claim.table, "pos": self.claim.position + n,
                  "quick": self.quick}
        while True:
            client = clients[(n + attempt) % len(clients)]
            try:
                answer = await client.post(f"/t/{self.token}/roll/", data=fields,
                                           headers={"X-CSRFToken": client.cookies["csrftoken"]})
            except httpx.HTTPError:
                answer = None
            if answer is not None and answer.status_code < 500 and answer.status_code != 429:
                self.answers.append((key, answer.status_code, answer.json()))
                return
            if answer is not None and answer.status_code >= 500:
                self.errors.append(answer.status_code)
            attempt += 1
            await asyncio.sleep(min(2.0, 0.1 * 2 ** attempt))


def test_taps_for_one_night_on_two_workers_wait_for_each_other_and_all_count(
        tmp_path, shared_stack):
    night = services.night_create(name="Race", rules_id="babz",
                                  player_names=sample_names(4 * TABLES))
    services.night_seat(night=night, rng=random.Random(3))
    services.round_start(night=night)
    state = live_state(night)
    tables = list(range(1, TABLES + 1))
    a, b = start_both(tmp_path, shared_stack)
    try:
        tappers = []
        for number in tables:
            token = TableLink.objects.get(night=night, number=number).token
            # Odd tables tap on worker A, even ones on B; every third on both in turn.
            bases = [a.base, b.base] if number % 3 == 0 else [(a, b)[number % 2].base]
            # Misses pass the turn and score nothing: no table finishes its round.
            tappers.append(Outbox(bases, token, services.claim_for(state, number), "miss"))

        async def all_tables():
            await asyncio.gather(*(t.run(TAPS_PER_TABLE) for t in tappers))
        asyncio.run(all_tables())
    finally:
        a.stop()
        b.stop()
    answers = [x for t in tappers for x in t.answers]
    refused = [(status, body.get("error")) for _, status, body in answers if not body.get("ok")]
    assert refused == [], refused[:5]  # nothing "crossed", nothing refused at all
    assert [e for t in tappers for e in t.errors] == []  # no server error
    night = Night.objects.get(pk=night.pk)
    rows = list(ScoreEvent.objects.filter(night=night).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))  # gap-free
    rolls = [r for r in rows if r.kind == Kind.ROLL]
    assert {str(r.key) for r in rolls} == {key for key, _, _ in answers}
    for number in tables:
        positions = [r.position for r in rolls if r.table == number]
        assert positions == list(range(TAPS_PER_TABLE))
    assert live_state(night).seq == night.last_seq
    for server in (a, b):
        assert not [p for p in server.problems() if "Traceback" in p], server.problems()
