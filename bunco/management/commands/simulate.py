"""python manage.py simulate --rules ID --players N [--sets S] [--seed K] [--json]"""

import json
import random

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import PRESETS, RulesError, night_summary, night_to_json, sample_names, simulate_night
from scoring.simulate import SECONDS_BETWEEN_ROUNDS, SECONDS_PER_ROLL


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(text) from None
        if value <= 0:
            raise ValueError(text)
        return value

    parse.__name__ = kind.__name__
    return parse


class Command(BaseCommand):
    help = "Play a whole night with random dice under a preset, to see how long it takes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", required=True, help=f"one of: {', '.join(PRESETS)}")
        parser.add_argument("--players", required=True, type=int, help="how many real players")
        parser.add_argument(
            "--sets", type=positive(int), help="sets of six rounds (default: the rules')"
        )
        parser.add_argument("--seed", type=int, help="same seed, same night, byte for byte")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--seconds-per-roll", type=positive(float), default=SECONDS_PER_ROLL,
            help=f"assumed time for one roll (default {SECONDS_PER_ROLL:g})",
        )
        parser.add_argument(
            "--seconds-between-rounds", type=float, default=SECONDS_BETWEEN_ROUNDS,
            help=f"assumed time to ring, tally and move (default {SECONDS_BETWEEN_ROUNDS:g})",
        )

    def handle(self, *args, **options) -> None:
        rules_id = options["rules"]
        if rules_id not in PRESETS:
            raise CommandError(f"unknown rules {rules_id!r}; choose one of: {', '.join(PRESETS)}")
        rules = PRESETS[rules_id]
        try:
            rules.check_player_count(options["players"])
            if options["sets"] is not None:
                rules = rules.replace(sets=options["sets"])
        except RulesError as exc:
            raise CommandError(str(exc)) from None
        if options["seconds_between_rounds"] < 0:
            raise CommandError("--seconds-between-rounds cannot be negative")
        seed = options["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        sim = simulate_night(
            rules,
            sample_names(options["players"]),
            random.Random(seed),
            rules_id=rules_id,
            seed=seed,
            seconds_per_roll=options["seconds_per_roll"],
            seconds_between_rounds=options["seconds_between_rounds"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(night_to_json(sim)))
        else:
            self.stdout.write(
                night_summary(
                    sim,
                    seconds_per_roll=options["seconds_per_roll"],
                    seconds_between_rounds=options["seconds_between_rounds"],
                )
            )
