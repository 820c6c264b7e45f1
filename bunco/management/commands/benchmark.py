"""python manage.py benchmark: how fast the engine plays whole nights.

Prints nights per second for each preset, next to a baseline measured in the same run: drawing
the same number of random dice with no rules at all. The ratio is the engine's overhead.
``--players 2000 --nights 3`` measures the largest nights (seating, every round, rotation and
awards of 2,000 players); ``--sets`` defaults to each preset's own number of sets.
"""

import random
import time
import tracemalloc

from django.core.management.base import BaseCommand, CommandParser

from scoring import PRESETS, sample_names, simulate_night

TARGET_SECONDS = 10.0  # 1,000 nights of 12 players and 4 sets on a 2-core machine
LARGE_NIGHT_SECONDS = 1.0  # one night of a large event (hundreds of players)
LARGE = 100


class Command(BaseCommand):
    help = "Measure how many simulated nights per second the rules engine plays."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nights", type=int, default=1000)
        parser.add_argument("--players", type=int, default=12)
        parser.add_argument("--sets", type=int, default=None,
                            help="sets per night (default: each preset's own)")
        parser.add_argument("--rules", default="all", help="a preset id, or all")

    def handle(self, *args, **options) -> None:
        nights, players, sets = options["nights"], options["players"], options["sets"]
        ids = list(PRESETS) if options["rules"] == "all" else [options["rules"]]
        sets_text = f"{sets} sets" if sets else "the preset's sets"
        self.stdout.write(f"{nights} nights, {players} players, {sets_text} each")
        self.stdout.write(f"{'rules':<20}{'sets':>5}{'seconds':>9}{'cpu s':>8}{'nights/s':>10}"
                          f"{'rolls':>10}{'us/roll':>9}{'baseline us/roll':>18}{'peak KiB':>10}"
                          "  target")
        for rules_id in ids:
            rules = PRESETS[rules_id]
            low, high = rules.player_limits
            count = min(max(players, low), high)
            names = sample_names(count)
            rng = random.Random(1)
            rolls = 0
            start, cpu = time.perf_counter(), time.process_time()
            for _ in range(nights):
                rolls += simulate_night(rules, names, rng, sets=sets).total_rolls
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu
            baseline = _dice_only(rolls)
            peak = _peak_memory(rules, names, sets)
            each = elapsed / nights
            if count >= LARGE:
                verdict = "ok" if each <= LARGE_NIGHT_SECONDS else "SLOW"
                target = f"{verdict} (a night in {each:.2f} s, {cpu / nights:.2f} s of CPU)"
            else:
                verdict = "ok" if each * 1000 <= TARGET_SECONDS else "SLOW"
                target = f"{verdict} (1,000 nights in {each * 1000:.1f} s)"
            self.stdout.write(
                f"{rules_id:<20}{sets or rules.sets:>5}{elapsed:>9.2f}{cpu:>8.2f}"
                f"{nights / elapsed:>10.1f}{rolls:>10}{elapsed / rolls * 1e6:>9.2f}"
                f"{baseline / rolls * 1e6:>18.2f}{peak / 1024:>10.0f}  {target}"
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
