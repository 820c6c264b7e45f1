"""Several workers on this machine: PostgreSQL, Redis, Daphne workers and an nginx TLS proxy.

    python deploy/scale.py up [--workers 2] [--host localhost] [--port 8443] [--http-port 8080]
        (make scale)
    python deploy/scale.py test [pytest arguments]                             (make test-scale)

``up`` runs the app as docs/deploy.md lays it out for a server, on one machine: it starts the
PostgreSQL cluster if it is down (as root; a database and user ``bunco`` are made once), a
Redis of its own, migrates once, collects the static files once, starts the workers on
127.0.0.1 and nginx in front of them (HTTPS with a self-signed certificate, websocket
upgrade), prints the address and stops everything it started on Ctrl-C. ``test`` runs the
test suite (without the browser tests) on PostgreSQL and Redis, two-worker tests included.

A ``DATABASE_URL`` or ``REDIS_URL`` already in the environment is used as it is (nothing is
started for it). Everything this writes (secrets, logs, the certificate, nginx's and
Redis's files) is under var/scale/. Standard library only: it runs before anything else.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

# Its parts sit beside it (it runs as a script, or is loaded from its file by the tests).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from processes import (  # noqa: E402
    LOGS,
    PG_HOST,
    PG_PORT,
    PG_USER,
    ROOT,
    RUN,
    Child,
    Trouble,
    free_port,
    is_root,
    listening,
    plain_port,
    say,
)
from proxy import start_nginx, through_proxy

# What make test-scale leaves out: tests that never touch the database or the channel layer
# the run is given (the rules engine is pure Python; the simulator and the benchmarks are
# too; the real-server tests and livebench start a server of their own on SQLite). make test
# has run them; here they would only repeat themselves.
SAME_ON_ANY_DATABASE = ["tests/scoring", "tests/test_architecture.py",
                        "tests/test_simulate_command.py", "tests/test_livebench.py",
                        "tests/reliability"]



def secrets_file() -> dict[str, str]:
    """The stack's secrets, made once and kept in var/scale/secrets (mode 600)."""
    RUN.mkdir(parents=True, exist_ok=True)
    path = RUN / "secrets"
    values = {}
    if path.exists():
        values = dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    wanted = {"BUNCO_SECRET_KEY": 50, "BUNCO_HOST_SECRET": 24, "PG_PASSWORD": 24}
    if any(name not in values for name in wanted):
        for name, size in wanted.items():
            values.setdefault(name, secrets.token_urlsafe(size))
        path.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
        path.chmod(0o600)
    return values


# -- PostgreSQL -----------------------------------------------------------------------------------

class Postgres:
    """The machine's PostgreSQL cluster: started if down (and stopped again at the end), with
    a login role that may create databases (the test run makes its own) and a database."""

    def __init__(self) -> None:
        self.started: tuple[str, str] | None = None

    def cluster(self) -> tuple[str, str]:
        if not shutil.which("pg_lsclusters"):
            raise Trouble("PostgreSQL is not installed: sudo apt-get install -y postgresql "
                          "(or set DATABASE_URL to a PostgreSQL server)")
        lines = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True,
                               check=True).stdout.split("\n")
        rows = [line.split() for line in lines if line.strip()]
        for row in rows:
            if row[2] == str(PG_PORT):
                return row[0], row[1]
        raise Trouble(f"no PostgreSQL cluster on port {PG_PORT}: sudo pg_createcluster "
                      f"--start <version> main")

    def start(self) -> None:
        if listening(PG_HOST, PG_PORT):
            return
        version, name = self.cluster()
        if not is_root():
            raise Trouble(f"PostgreSQL is not running: sudo pg_ctlcluster {version} {name} "
                          "start (or set DATABASE_URL)")
        say(f"Starting PostgreSQL {version} ({name})...")
        subprocess.run(["pg_ctlcluster", version, name, "start"], check=True)
        self.started = (version, name)
        for _ in range(100):
            if listening(PG_HOST, PG_PORT):
                return
            time.sleep(0.1)
        raise Trouble(f"PostgreSQL did not start; see /var/log/postgresql/"
                      f"postgresql-{version}-{name}.log")

    def ensure(self, password: str, database: str | None) -> None:
        """The role (its password set to ours) and the database, made if missing."""
        sql = (f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{PG_USER}') "
               f"THEN CREATE ROLE {PG_USER} LOGIN CREATEDB; END IF; END $$;\n"
               f"ALTER ROLE {PG_USER} LOGIN CREATEDB PASSWORD '{password}';\n")
        if not is_root():
            raise Trouble("the PostgreSQL role for this stack can only be made as root; run "
                          "once: sudo -u postgres psql -c \"CREATE ROLE bunco LOGIN CREATEDB "
                          f"PASSWORD '{password}'\" (password from var/scale/secrets), or set "
                          "DATABASE_URL")
        self.psql(sql)
        if database and not self.psql(
                f"SELECT 1 FROM pg_database WHERE datname = '{database}'").strip():
            self.psql(f"CREATE DATABASE {database} OWNER {PG_USER}")

    def psql(self, sql: str) -> str:
        done = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-p", str(PG_PORT),
                               "-v", "ON_ERROR_STOP=1", "-qAtX", "-f", "-"],
                              input=sql, capture_output=True, text=True, cwd="/")
        if done.returncode:
            raise Trouble(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def stop(self) -> None:
        if self.started:
            subprocess.run(["pg_ctlcluster", *self.started, "stop"], check=False)
            self.started = None


def postgres_url(pg: Postgres, password: str, database: str, *, create: bool) -> str:
    pg.start()
    pg.ensure(password, database if create else None)
    return f"postgres://{PG_USER}:{password}@{PG_HOST}:{PG_PORT}/{database}"


def with_services(env: dict, stack, values: dict, database: str, *, create: bool) -> None:
    """Point ``env`` at PostgreSQL's ``database`` and a Redis of our own, unless the caller's
    environment already names them."""
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = postgres_url(stack.pg, values["PG_PASSWORD"], database,
                                           create=create)
    if not env.get("REDIS_URL"):
        redis, env["REDIS_URL"] = start_redis()
        stack.children.append(redis)


def start_redis() -> tuple[Child, str]:
    server = shutil.which("redis-server")
    if not server:
        raise Trouble("Redis is not installed: sudo apt-get install -y redis-server "
                      "(or set REDIS_URL)")
    port = free_port()
    folder = RUN / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    child = Child("redis", [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                            "--appendonly", "no", "--dir", str(folder), "--daemonize", "no"])
    for _ in range(100):
        if not child.alive():
            raise Trouble(f"Redis did not start:\n{child.tail()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                return child, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.1)
    child.stop()
    raise Trouble(f"Redis did not answer:\n{child.tail()}")


def manage(env: dict, *args: str) -> None:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise Trouble(f"manage.py {' '.join(args)} failed:\n{done.stderr.strip()}")
    if done.stderr.strip():
        say(done.stderr.strip())


def wait_healthy(worker: Child, port: int) -> None:
    url = f"http://127.0.0.1:{port}/healthz"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for _ in range(300):
        if not worker.alive():
            raise Trouble(f"{worker.name} exited at start:\n{worker.tail()}")
        with contextlib.suppress(OSError), opener.open(url, timeout=2) as answer:
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise Trouble(f"{worker.name} did not answer {url} within 30 s:\n{worker.tail()}")


# -- the commands -------------------------------------------------------------------------------

class Stack:
    def __init__(self) -> None:
        self.pg = Postgres()
        self.children: list[Child] = []

    def stop(self) -> None:
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_IGN)  # a second Ctrl+C must not cut this short
        for child in reversed(self.children):  # nginx first, then the workers, then Redis
            child.stop()
        self.children.clear()
        self.pg.stop()


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def _stop_on_signals() -> None:
    """Ctrl+C, a closed terminal or a plain kill all stop the stack the same way (even when
    started from a shell that ignores Ctrl+C for background jobs)."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _interrupted)


def start_workers(env: dict, stack: Stack, count: int) -> list[int]:
    """``count`` daphne workers on free local ports, each answering its health check; their
    ports."""
    ports = [free_port() for _ in range(count)]
    workers = []
    for number, worker_port in enumerate(ports, 1):
        worker = Child(f"worker-{number}", [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1",
            "-p", str(worker_port), "bunco.asgi:application"], env=env)
        stack.children.append(worker)
        workers.append((worker, worker_port))
    for worker, worker_port in workers:
        wait_healthy(worker, worker_port)
    return ports


def watch(stack: Stack) -> None:
    """Until Ctrl+C: trouble as soon as any process of the stack stops."""
    while True:
        for child in stack.children:
            if not child.alive():
                raise Trouble(f"{child.name} stopped (exit code {child.proc.returncode}):"
                              f"\n{child.tail()}")
        time.sleep(0.5)


def up(options) -> int:
    stack = Stack()
    _stop_on_signals()
    values = secrets_file()
    host, port = options.host, options.port
    public = f"https://{host}" + ("" if port == 443 else f":{port}")
    try:
        env = {**os.environ, "BUNCO_SECRET_KEY": values["BUNCO_SECRET_KEY"],
               "BUNCO_HOST_SECRET": values["BUNCO_HOST_SECRET"], "BUNCO_PUBLIC_URL": public,
               "BUNCO_ALLOWED_HOSTS": host, "BUNCO_DATA_DIR": str(RUN / "data"),
               "DJANGO_SETTINGS_MODULE": "bunco.settings", "PYTHONUNBUFFERED": "1"}
        env.pop("BUNCO_DEBUG", None)
        with_services(env, stack, values, "bunco", create=True)
        say("Migrating the database and collecting the static files (once, for every "
            "worker)...")
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "collectstatic", "--noinput", "-v0")
        manage(env, "check", "--deploy", "--fail-level", "WARNING")
        ports = start_workers(env, stack, options.workers)
        http_port = plain_port(options.http_port)
        stack.children.append(start_nginx(host, port, http_port, ports))
        status = through_proxy(f"https://127.0.0.1:{port}/healthz")
        if status != 200:
            raise Trouble(f"the health check through nginx answered {status}")
        say(f"Bunco is running: {options.workers} workers "
            f"({', '.join(f'127.0.0.1:{p}' for p in ports)}) behind nginx.")
        say(f"  Host (keep this link to yourself): {public}/host/{values['BUNCO_HOST_SECRET']}/")
        say(f"  Phones: {public}/   (a self-signed certificate: accept it once)")
        say(f"  Health check: {public}/healthz")
        if http_port:
            say(f"  Plain HTTP (redirects to HTTPS): http://{host}:{http_port}/")
        say(f"  Logs: {LOGS}/")
        say("Press Ctrl+C to stop.")
        watch(stack)
    except KeyboardInterrupt:
        say("\nStopping...")
        stack.stop()
        say("Stopped.")
        return 0
    except Trouble as exc:
        say(f"make scale: {exc}")
        stack.stop()
        return 1


def test(pytest_args: list[str]) -> int:
    """The suite on PostgreSQL and Redis, browser tests aside; the two-worker tests must run
    (BUNCO_SCALE_TESTS=1 makes them fail, not skip, without PostgreSQL and Redis)."""
    stack = Stack()
    _stop_on_signals()
    values = secrets_file()
    try:
        env = {**os.environ, "BUNCO_SECRET_KEY": values["BUNCO_SECRET_KEY"],
               "BUNCO_HOST_SECRET": values["BUNCO_HOST_SECRET"], "BUNCO_SCALE_TESTS": "1",
               # one randomized night a fold property (make test explores four)
               "BUNCO_EXPLORE_EXAMPLES": os.environ.get("BUNCO_EXPLORE_EXAMPLES", "1")}
        for name in ("BUNCO_DEBUG", "BUNCO_PUBLIC_URL", "BUNCO_CSRF_TRUSTED_ORIGINS",
                     "BUNCO_ALLOWED_HOSTS"):
            env.pop(name, None)
        # The role may create databases: the tests make test_bunco_ci (and drop it).
        with_services(env, stack, values, "bunco_ci", create=False)
        say("Running the tests on PostgreSQL and Redis (browser tests aside)...")
        started = time.monotonic()
        default = ["tests", *(f"--ignore={path}" for path in SAME_ON_ANY_DATABASE)]
        command = [sys.executable, "-m", "pytest", "-n", "2", "-m", "not browser",
                   "-q", *(pytest_args or default)]
        code = subprocess.call(command, cwd=ROOT, env=env)
        say(f"PostgreSQL + Redis run: {time.monotonic() - started:.0f} s, exit code {code}")
        return code
    except KeyboardInterrupt:
        return 130
    except Trouble as exc:
        say(f"make test-scale: {exc}")
        return 1
    finally:
        stack.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("up", help="start the whole stack and print its address")
    run.add_argument("--workers", type=int, default=2, help="Daphne workers (default 2)")
    run.add_argument("--host", default="localhost",
                     help="the name or address phones use (default localhost)")
    run.add_argument("--port", type=int, default=8443, help="nginx's HTTPS port (default 8443)")
    run.add_argument("--http-port", type=int, default=8080,
                     help="nginx's plain HTTP port, redirecting to HTTPS (default 8080; a "
                          "free one if it is busy; 0: none)")
    sub.add_parser("test", help="the suite on PostgreSQL and Redis; what follows goes to "
                                "pytest (default: tests)")
    if argv[:1] == ["test"]:
        return test(argv[1:])
    options = parser.parse_args(argv)
    if options.workers < 1:
        parser.error("--workers must be 1 or more")
    return up(options)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
