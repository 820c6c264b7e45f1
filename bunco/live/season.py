"""The season: every night kept, each person's totals across them, and their best nights."""

from __future__ import annotations

from collections import defaultdict

from bunco.live import screens
from bunco.models import Night, Player
from bunco.night.cache import live_state
from scoring import standing_key


def season(nights=None) -> list[dict]:
    """One row per person who played, most wins first: every night but the demos (archived
    nights included)."""
    nights = list(nights if nights is not None else Night.objects.in_season())
    rows: dict[int, dict] = {}
    prizes: dict[int, list[str]] = defaultdict(list)
    for night in nights:
        state = live_state(night)
        if state.night is None:
            continue
        players = {p.name: p for p in Player.objects.filter(night=night).select_related("person")}
        awards = screens.final_awards(state) if state.ended else []
        for award in awards:
            for payout in award["payouts"]:
                player = players.get(payout["name"])
                if player and player.person_id:
                    prize = award["label"] + (f" {payout['amount']}" if payout["amount"] else "")
                    prizes[player.person_id].append(f"{prize} ({night.name})")
        for name, player in players.items():
            stats = state.night.stats.get(name)
            if stats is None or player.person_id is None:
                continue
            row = rows.setdefault(player.person_id, {
                "person": player.person, "nights": 0, "wins": 0, "losses": 0, "buncos": 0,
                "mini_buncos": 0, "points": 0, "best": None,
            })
            row["nights"] += 1
            for key in ("wins", "losses", "buncos", "mini_buncos", "points"):
                row[key] += getattr(stats, key)
            mine = (stats.wins, stats.points)
            if row["best"] is None or mine > row["best"]["key"]:
                row["best"] = {"key": mine, "night": night, "wins": stats.wins,
                               "points": stats.points}
    out = []
    for person_id, row in rows.items():
        row["prizes"] = prizes.get(person_id, [])
        out.append(row)
    out.sort(key=lambda r: standing_key(r["wins"], r["buncos"], r["points"], r["person"].name))
    return out


#: How many earlier nights to look back through for a prize that came home with someone.
TRAVEL_LOOKBACK = 20


def travelling_prizes(night: Night) -> list[dict]:
    """The named prizes that went home with their winners from the group's latest night that
    gave each (seed 004: "bring back the doormat"): who has each, from which night, so the
    host and that guest's phone can say "bring it back"."""
    earlier = (Night.objects.in_season().filter(created_at__lt=night.created_at,
                                                status=Night.Status.FINISHED)
               .exclude(pk=night.pk).order_by("-created_at")[:TRAVEL_LOOKBACK])
    out: list[dict] = []
    seen: set[str] = set()
    for other in earlier:
        travelling = [a for a in other.rules.awards
                      if a.travels and a.prize.casefold() not in seen]
        if not travelling:
            continue
        state = live_state(other)
        won = {a["category"]: a for a in screens.final_awards(state)} if state.ended else {}
        for prize in travelling:
            seen.add(prize.prize.casefold())
            names = [p["name"] for p in won.get(str(prize.category), {}).get("payouts", [])]
            if not names:
                continue
            holder = Player.objects.filter(night=other, name=names[0]).first()
            out.append({"prize": prize.prize, "holder": names[0], "night": other.name,
                        "person_id": holder.person_id if holder else None})
    return out
