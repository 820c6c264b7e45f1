"""python manage.py loadtest: a whole room against the real server, next to the floor.

For each scenario it starts the server as a user does (daphne, DEBUG off, a fresh SQLite data
folder, the in-memory channel layer), seats a night through the services, and opens every
screen the way the pages do (per table its device and three player phones, the TVs, the host;
the page's Origin), spread over several client processes (``bench/loadclient.py``:
each its own asyncio loop; one clock, ``time.time()``). The tables tap as the pages' outbox
does, open loop at a fixed rate: the rolls a real table enters (misses, hits, mini buncos,
buncos, as quick buttons or the dice pad's faces: ``bench/rolls.py``), mostly from the table's
own phone and in turn from a player's phone (the scorer toggle), each over the entering
phone's websocket while it is open and as a form post while it is not (``--tap-over http``:
always a form post, CSRF included); the
host rings the bell under load (its own HTTP post, with a host session) and takes it back two
seconds later so the round goes on. Then the same clients do the same against the floor
(``bench/floor.py``): a minimal ``websockets`` relay that takes the taps the same way and
broadcasts frames of the same size to the same screens. Last, one JSON line per scenario.

What is measured (docs/performance.md defines each): tap -> the last of its table's four
screens and every TV; bell -> the last of all screens; frames lost per screen; taps refused,
answered "busy" or failed; whether every tap counts exactly once (each tap's key looked up in
the night's log after the run: recorded, merged into another tap, lost); server CPU ms per tap
and KiB of RSS per socket (/proc of the server process); bytes per frame. Which of the targets
a scenario missed (``missed_targets``). Linux only (/proc). Every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.analysis import analyse, missed_targets, ratio
from bench.plot import plot
from bench.room import (
    SCENARIOS,
    SEVERAL,
    Floor,
    FreshDatabase,
    Scenario,
    Target,
    app_target,
    drive,
    logged,
)
from bench.server import HOST, SETUP_SCRIPT, Server, machine, prepared_env, run_checked
from bunco.runtime import PIECES


class Command(BaseCommand):
    help = ("Start the real server, open a whole room's screens over several client "
            "processes, tap at a fixed rate (as the page: over the table's socket) and ring "
            "the bell; the same against a minimal websockets relay (the floor); one JSON line "
            "per scenario, and the server's CPU per tap next to the floor's.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--scenario", nargs="+", choices=list(SCENARIOS),
                            default=list(SCENARIOS), help="which scenarios (default: all)")
        parser.add_argument("--seconds", type=float, default=20.0,
                            help="seconds of tapping per scenario (default 20)")
        parser.add_argument("--bells", type=int, default=3,
                            help="bells rung (and taken back) per scenario (default 3)")
        parser.add_argument("--bell-hold", type=float, default=2.0,
                            help="seconds between a bell and its take-back (default 2)")
        parser.add_argument("--clients", type=int, default=3,
                            help="client processes (default 3)")
        parser.add_argument("--rate", type=float, default=None,
                            help="taps per second, instead of each scenario's own")
        parser.add_argument("--no-floor", action="store_true", help="skip the floor relay")
        parser.add_argument("--tap-over", nargs="+", choices=("socket", "http"),
                            default=["socket"], help=(
                                "how the tables tap, each scenario once per value (the floor "
                                "too): socket, as the page (a form post while the socket is "
                                "closed; the default), or http, always a form post"))
        parser.add_argument("--phone-every", type=int, default=4, help=(
            "one run of a table's taps in this many is entered from a player's phone (the "
            "scorer toggle), the rest from the table's own; 0: the table's only (default 4)"))
        parser.add_argument("--stock", nargs="+", default=None, metavar="PIECES", help=(
            "run each scenario once per value, the server with these pieces of its tuning "
            "left stock (bunco/runtime: " + ", ".join(PIECES) + "; "
            "'none' for all of it, 'all' for none): e.g. --stock none write layer"))
        parser.add_argument("--no-sync", action="store_true", help=(
            "screens never sync (the pages sync as the server says, and so do the load "
            "test's)"))
        parser.add_argument("--sync-every", type=float, default=None, help=(
            "seconds between a screen's syncs (default: what the server's pages say, "
            "data-sync-every): more often, to see what a sync costs"))
        _output_arguments(parser)
        _server_arguments(parser)

    def handle(self, *args, **opts) -> None:
        _check(opts)
        if opts["source"] is not None:
            if opts["plot"] is None:
                raise CommandError("--from only draws: give --plot too")
            lines = [json.loads(x) for x in opts["source"].read_text().splitlines() if x]
            plot(lines, opts["plot"])
            self.stdout.write(f"drew {opts['plot']}")
            return
        if not Path("/proc/self/stat").exists():
            raise CommandError("loadtest reads the server's CPU and memory from /proc: Linux")
        self.stdout.write(
            f"loadtest: {opts['seconds']:g} s of taps per scenario, {opts['bells']} bells, "
            f"{opts['clients']} client processes; {machine()}; Python "
            f"{platform.python_version()}")
        lines = []
        with tempfile.TemporaryDirectory(prefix="loadtest-") as tmp:
            env = prepared_env(Path(tmp))
            for name in opts["scenario"]:
                scenario = SCENARIOS[name]
                if opts["rate"]:
                    scenario = Scenario(f"{scenario.sockets}@{opts['rate']:g}",
                                        scenario.tables, scenario.tvs, scenario.host,
                                        opts["rate"])
                runs = [(way, i, stock) for way in opts["tap_over"]
                        for i, stock in enumerate(opts["stock"] or ["none"])]
                for way, i, stock in runs:
                    # The floor once per way of tapping; each stock piece against the same.
                    line = self.scenario(scenario, {**opts, "no_floor": opts["no_floor"] or i,
                                                    "tap_over": way},
                                         {**env, "BUNCO_STOCK": stock}, Path(tmp))
                    line["stock"] = stock
                    lines.append(line)
                    self.stdout.write(json.dumps(line))
                    self.stdout.write(per_tap(line))
                    self.stdout.flush()
                    if opts["out"] is not None:
                        with opts["out"].open("a") as f:
                            f.write(json.dumps(line) + "\n")
        if len(lines) > 1:
            self.stdout.write("\n".join(["CPU ms a tap, the server's and the floor's:",
                                         *(per_tap(line) for line in lines)]))
        if opts["plot"] is not None:
            plot(lines, opts["plot"])

    def scenario(self, scenario: Scenario, opts: dict, env: dict, tmp: Path) -> dict:
        load = os.getloadavg()[0]
        self.stderr.write(f"{scenario.name}: {scenario.tables} tables, {scenario.sockets} "
                          f"sockets, {scenario.rate:g} taps/s (load average {load:.2f})")
        env, database = dict(env), None
        if opts["redis_url"]:  # keys of this run's own, apart from anything else there
            env.update(REDIS_URL=opts["redis_url"],
                       BUNCO_REDIS_PREFIX=f"bunco_load_{secrets.token_hex(4)}")
        servers: list[Server] = []
        try:
            if opts["database_url"]:
                database = migrated_database(opts["database_url"], env)
            nights = seated_nights(env, scenario.tables, opts["nights"])
            name = f"server-{scenario.tables}-{scenario.rate:g}"
            servers = [Server(tmp / (name if opts["workers"] == 1 else f"{name}-w{i + 1}"),
                              env) for i in range(opts["workers"])]
            for server in servers:
                server.start()
            run = drive(app_target(servers, nights), nights, scenario, opts)
            logs = [logged(env, n["night"]) for n in nights]
            app = analyse(run, scenario, opts, set().union(*(keys for keys, _ in logs)))
            app["logged_rolls"] = dict(sum((Counter(mix) for _, mix in logs), Counter()))
            for server in servers:
                if not server.alive():
                    raise CommandError(f"a server died under load:\n{server.tail()}")
        finally:
            stop_all(servers, opts["log_dir"])
            if database is not None:
                database.drop()
        problems = [p for server in servers for p in server.problems()]
        sizes = app.pop("_sizes")
        line = {"scenario": scenario.name, "tables": scenario.tables, "tvs": scenario.tvs,
                "host_screen": scenario.host, "wanted_sockets": scenario.sockets,
                "taps_per_s": scenario.rate,
                "taps": round(scenario.rate * opts["seconds"]) * opts["nights"],
                "workers": opts["workers"], "nights": opts["nights"], "route": opts["route"],
                "database": "postgresql" if database else "sqlite", "tap_over": opts["tap_over"],
                "channel_layer": "redis" if opts["redis_url"] else "in-memory",
                **app, "server_errors": len(problems), "load_avg_1m": round(load, 2)}
        if problems:
            self.stderr.write("server stderr:\n  " + "\n  ".join(p[:160] for p in problems[:5]))
        if not opts["no_floor"]:
            self.beside_the_floor(line, nights[0], scenario, opts, sizes, tmp)
        line["targets_missed"] = missed_targets(line)
        self.stderr.write(f"{scenario.name}: targets "
                          + (f"missed: {', '.join(line['targets_missed'])}"
                             if line["targets_missed"] else "met"))
        return line

    @staticmethod
    def beside_the_floor(line: dict, night: dict, scenario: Scenario, opts: dict, sizes: dict,
                         tmp: Path) -> None:
        """The same screens, taps and bells against the floor relay; its figures and the
        app's over the floor's go into ``line``."""
        floor = Floor(tmp, night, sizes)
        try:
            floor.start()
            target = Target([floor.proc.pid], [f"ws://{HOST}:{floor.ws_port}"],
                            [f"http://{HOST}:{floor.http_port}"], night["night"])
            got = analyse(drive(target, [night], scenario, opts), scenario, opts)
        finally:
            floor.stop()
        got.pop("_sizes")
        for key in ("tap_p50_ms", "tap_p99_ms", "tap_max_ms", "bell_p50_ms", "bell_p99_ms",
                    "bell_max_ms", "bell_all_p99_ms", "frames_lost", "failed_taps",
                    "kib_per_socket", "cpu_ms_per_tap", "bytes_per_frame", "sockets",
                    "taps_sent_over", "taps_made", "rolls", "entered_from", "refused_taps"):
            line[f"floor_{key}"] = got[key]
        for key in ("tap_p99_ms", "bell_p99_ms", "bell_all_p99_ms", "kib_per_socket",
                    "cpu_ms_per_tap"):
            line[f"{key}_x_floor"] = ratio(line[key], got[key])


def _output_arguments(parser: CommandParser) -> None:
    """Where the figures go: a file of JSON lines, a picture, each server's output."""
    parser.add_argument("--out", type=Path, default=None,
                        help="also append each JSON line to this file")
    parser.add_argument("--plot", type=Path, default=None,
                        help="draw p99 latency against sockets to this PNG")
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        help="with --plot: draw from these JSON lines, measure nothing")
    parser.add_argument("--log-dir", type=Path, default=None,
                        help="keep each scenario's server output in this folder")


def _server_arguments(parser: CommandParser) -> None:
    """The server the room runs against: its database, channel layer, workers and nights."""
    parser.add_argument("--database-url", default=None, help=(
        "PostgreSQL server (postgres://user:password@host/db, a role that may create "
        "databases): each scenario runs on a fresh database made there and dropped after"))
    parser.add_argument("--redis-url", default=None,
                        help="Redis for the channel layer (redis://host:port/db)")
    parser.add_argument("--workers", type=int, default=1, help=(
        "daphne processes, the screens and tables spread over them in turn (as a load "
        "balancer would); more than one needs --database-url and --redis-url"))
    parser.add_argument("--nights", type=int, default=1, help=(
        "nights at once, each its own room, tap rate, bells and client processes "
        "(default 1; more than one needs --no-floor)"))
    parser.add_argument("--route", choices=("spread", "sticky"), default="spread", help=(
        "spread: each night's screens and tables over the workers in turn; sticky: "
        "every screen and tap of night i on worker i %% N (default spread)"))


def _check(opts: dict) -> None:
    """Options that cannot make a run, refused with what to give instead."""
    if opts["workers"] < 1 or opts["nights"] < 1:
        raise CommandError("--workers and --nights must be 1 or more")
    if opts["nights"] > 1 and not opts["no_floor"]:
        raise CommandError("the floor relays one night: give --no-floor with --nights")
    if opts["workers"] > 1 and not (opts["database_url"] and opts["redis_url"]):
        raise CommandError(SEVERAL)
    if min(opts["seconds"], opts["clients"]) <= 0 or min(opts["bells"], opts["phone_every"]) < 0:
        raise CommandError("--seconds, --bells, --clients and --phone-every must be positive")
    if opts["bells"] and opts["seconds"] / opts["bells"] < opts["bell_hold"] + 1:
        raise CommandError("bells too close together for --bell-hold")


def per_tap(line: dict) -> str:
    """One line a person reads: the server's CPU per tap next to the floor's, and the taps."""
    way = "over the socket" if line["tap_over"] == "socket" else "as form posts"
    floor = line.get("floor_cpu_ms_per_tap")
    times = line.get("cpu_ms_per_tap_x_floor")
    beside = (f", the floor {floor} ms, " + (f"x{times}" if times is not None else "too little "
                                             "to divide by: tap longer")
              if floor is not None else "")
    rolls = ", ".join(f"{k} {v}" for k, v in sorted(line["rolls"].items(), key=lambda x: -x[1]))
    return (f"{line['scenario']} {way} ({line['stock']} stock): server "
            f"{line['cpu_ms_per_tap']} CPU ms a tap{beside}; {line['taps_made']} taps "
            f"({rolls}; " + ", ".join(f"{v} from {k}" for k, v in line["entered_from"].items())
            + f"), refused {line['refused_taps']}"
            + (f" {line['refusals']}" if line["refusals"] else ""))


def seated_nights(env: dict, tables: int, count: int) -> list[dict]:
    """``count`` nights of ``tables`` tables seated through the services, each with its seated
    players only."""
    nights = [json.loads(run_checked([sys.executable, "-c", SETUP_SCRIPT, str(tables)], env,
                                     "night setup").strip().splitlines()[-1])
              for _ in range(count)]
    for night in nights:
        night["players"] = [p for p in night["players"] if p["table"] is not None]
    return nights


def migrated_database(url: str, env: dict) -> FreshDatabase:
    """A fresh PostgreSQL database on the server at ``url``, migrated, and ``env`` pointed at
    it."""
    database = FreshDatabase(url)
    env.update(DATABASE_URL=database.url, BUNCO_SECRET_KEY=secrets.token_urlsafe(50))
    run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    return database


def stop_all(servers: list[Server], log_dir: Path | None) -> None:
    """Every server stopped, its output kept in ``log_dir`` when one is given."""
    for server in servers:
        server.stop()
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
            for path in server.logs:
                shutil.copy(path, log_dir / path.name)
