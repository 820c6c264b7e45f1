"""python manage.py benchmark: how fast the engine plays whole nights.

Prints nights per second for each preset, next to a baseline measured in the same run: drawing
the same number of random dice with no rules at all. The ratio is the engine's overhead.
"""

import random
import time
import tracemalloc

from django.core.management.base import BaseCommand, CommandParser

from scoring import PRESETS, sample_names, simulate_night

TARGET_SECONDS = 10.0  # 1,000 nights of 12 players and 4 sets on a 2-core machine


class Command(BaseCommand):
    help = "Measure how many simulated nights per second the rules engine plays."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nights", type=int, default=1000)
        parser.add_argument("--players", type=int, default=12)
        parser.add_argument("--sets", type=int, default=4)
        parser.add_argument("--rules", default="all", help="a preset id, or all")

    def handle(self, *args, **options) -> None:
        nights, players, sets = options["nights"], options["players"], options["sets"]
        ids = list(PRESETS) if options["rules"] == "all" else [options["rules"]]
        self.stdout.write(f"{nights} nights, {players} players, {sets} sets each")
        self.stdout.write(f"{'rules':<20}{'seconds':>9}{'nights/s':>10}{'rolls':>10}"
                          f"{'us/roll':>9}{'baseline us/roll':>18}{'peak KiB':>10}  target")
        for rules_id in ids:
            rules = PRESETS[rules_id]
            low, high = rules.player_limits
            count = min(max(players, low), high)
            names = sample_names(count)
            rng = random.Random(1)
            rolls = 0
            start = time.perf_counter()
            for _ in range(nights):
                rolls += simulate_night(rules, names, rng, sets=sets).total_rolls
            elapsed = time.perf_counter() - start
            baseline = _dice_only(rolls)
            peak = _peak_memory(rules, names, sets)
            verdict = "ok" if elapsed * 1000 / nights <= TARGET_SECONDS else "SLOW"
            self.stdout.write(
                f"{rules_id:<20}{elapsed:>9.2f}{nights / elapsed:>10.0f}{rolls:>10}"
                f"{elapsed / rolls * 1e6:>9.2f}{baseline / rolls * 1e6:>18.2f}{peak / 1024:>10.0f}"
                f"  {verdict} (1,000 nights in {elapsed * 1000 / nights:.1f} s)"
            )


def _dice_only(rolls: int) -> float:
    """Seconds to draw ``rolls`` random rolls and do nothing with them: the floor."""
    rnd = random.Random(1).random
    start = time.perf_counter()
    for _ in range(rolls):
        int(rnd() * 216)
    return time.perf_counter() - start


def _peak_memory(rules, names, sets) -> int:
    tracemalloc.start()
    simulate_night(rules, names, random.Random(2), sets=sets)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak
