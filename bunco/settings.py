"""Settings. Everything that varies between a party laptop and a big event comes from the
environment, read here and nowhere else:

BUNCO_DEBUG=1            Django debug pages (never at a real party)
BUNCO_SECRET_KEY         signing key; otherwise one is made once and kept in the data folder
BUNCO_DATA_DIR           where the SQLite database, the keys, the snapshots and the collected
                         static files live (default: var/ in a checkout; for an installed
                         package the user's data folder, bunco/laptop/__init__.py)
DATABASE_URL             e.g. postgres://user:pass@localhost/bunco instead of SQLite; then
                         BUNCO_SECRET_KEY and BUNCO_HOST_SECRET are required (every worker
                         must sign and check with the same ones)
BUNCO_DB_POOL_SIZE       PostgreSQL connections each worker may hold (default 8)
REDIS_URL                e.g. redis://localhost:6379/0 to share websockets between workers
BUNCO_REDIS_PREFIX       the channel layer's key prefix in Redis (default bunco): one per app
BUNCO_ALLOWED_HOSTS      extra host names or addresses, comma separated (never "*")
BUNCO_HOST_SECRET        a fixed host link secret (otherwise made once in the data folder)
BUNCO_LAN_ADDRESS        the address phones use to reach this laptop (default: its first
                         private LAN address, as the start command prints)
BUNCO_PUBLIC_URL         the whole public origin (https://bunco.example.org) behind a proxy;
                         an https:// one means a TLS proxy in front of the app that sets
                         X-Forwarded-Proto: then cookies are secure-only, plain HTTP is
                         redirected, HSTS is on, and the origin is trusted for CSRF
BUNCO_CSRF_TRUSTED_ORIGINS  more origins pages may post from, comma separated
BUNCO_TRUSTED_PROXIES    addresses or networks of the proxies whose X-Forwarded-For says who
                         the client is, comma separated (default 127.0.0.1,::1: a proxy on
                         this machine; empty: none). Anyone else's header is ignored
BUNCO_HSTS_SECONDS       HSTS max-age behind a TLS proxy (default 86400)
BUNCO_COPY_TO            a folder off the laptop (a USB stick, a synced folder) where the
                         latest night file of each live night is kept as the night goes
                         (``bunco --copy-to``; bunco/laptop/backup.py)

docs/deploy.md shows them together for several workers behind nginx.
"""

import importlib.util
import ipaddress
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from bunco import laptop, runtime
from bunco.laptop import lan
from bunco.runtime import jinja as fragments

# The checkout (in an installed package: site-packages); the templates and static files are
# read from APP_FILES, a checkout's top folder or the wheel's copy of it (bunco/laptop/__init__.py).
BASE_DIR = laptop.CHECKOUT
APP_FILES = laptop.app_files()
if not (APP_FILES / "templates").is_dir() or not (APP_FILES / "static").is_dir():
    raise ImproperlyConfigured(
        f"This copy of Bunco has no templates and static files (looked in {APP_FILES}): "
        "install it from its wheel or sdist, or run it from a checkout")
DATA_DIR = laptop.data_dir()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = os.environ.get("BUNCO_DEBUG", "") in {"1", "true", "yes"}
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()

# A shared database means workers that may each have a data folder of their own: a key or a
# host link made in one folder would sign sessions and links that another worker refuses.
if DATABASE_URL:
    _missing = [name for name in ("BUNCO_SECRET_KEY", "BUNCO_HOST_SECRET")
                if not os.environ.get(name, "").strip()]
    if _missing:
        raise ImproperlyConfigured(
            f"DATABASE_URL is set, so {' and '.join(_missing)} must be set too, to the same "
            "value on every worker (otherwise each worker makes its own and a host signed in "
            "on one is a stranger to the next). Make one with: python3 -c 'import secrets; "
            "print(secrets.token_urlsafe(50))'")


def _secret_key() -> str:
    if key := os.environ.get("BUNCO_SECRET_KEY", "").strip():
        return key
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

# Phones reach the laptop by its LAN address, so those are allowed; never "*".
_INTERFACES = lan.read_interfaces()
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", *lan.local_addresses(_INTERFACES)]
# Every link and QR code the app shows or prints is built from this (bunco.laptop.lan.public_url):
# the Wi-Fi's address before a wired one's, never a VPN's, a container's or a virtual
# machine's (bunco/laptop/lan.py).
_NAMED_LAN = os.environ.get("BUNCO_LAN_ADDRESS", "").strip()
_FOR_PHONES = lan.lan_addresses(_INTERFACES)
LAN_ADDRESS = _NAMED_LAN or (_FOR_PHONES[0] if _FOR_PHONES else "127.0.0.1")
# On a laptop on two networks the host may have picked the guests' (bunco/laptop/address.py).
_PICKED = lan.read_text(DATA_DIR / "phones_address").strip()
if not _NAMED_LAN and _PICKED in _FOR_PHONES:
    LAN_ADDRESS = _PICKED
# False when this laptop is on no network phones could use (not on the Wi-Fi yet): the start
# command then says how phones will reach it once it is, and serves the host on localhost.
LAN_FOUND = bool(_NAMED_LAN or _FOR_PHONES)


def _origin(value: str, name: str) -> str:
    """``scheme://host[:port]`` from a setting, or a message that says what is wrong."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.path.strip("/") or parts.query or parts.fragment or "*" in value:
        raise ImproperlyConfigured(
            f"{name} must be an origin like https://bunco.example.org (scheme, host and an "
            f"optional port, no path), not {value!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


PUBLIC_URL = os.environ.get("BUNCO_PUBLIC_URL", "").strip()
if PUBLIC_URL:
    PUBLIC_URL = _origin(PUBLIC_URL, "BUNCO_PUBLIC_URL")
for _host in (LAN_ADDRESS, urlsplit(PUBLIC_URL).hostname if PUBLIC_URL else None):
    if _host and _host not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_host)
ALLOWED_HOSTS += [
    h.strip() for h in os.environ.get("BUNCO_ALLOWED_HOSTS", "").split(",") if h.strip()
]
if any("*" in h for h in ALLOWED_HOSTS):
    raise ImproperlyConfigured(
        "BUNCO_ALLOWED_HOSTS cannot contain '*': list the names the app is reached by "
        "(e.g. bunco.example.org,192.168.1.20)")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "bunco",
    "tables",
]
# The load tests and live benchmarks (manage.py loadtest, livebench): a checkout's, never
# the package's (bench/ is not in the wheel). Only when it can be imported: the checkout's
# own `.venv/bin/bunco` (an editable install, which maps the packages only) runs from any
# folder, where bench/ is on disk but not on the import path.
_BENCH = importlib.util.find_spec("bench")
if _BENCH is not None and _BENCH.origin \
        and Path(_BENCH.origin).resolve().parent == BASE_DIR / "bench":
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A Content-Security-Policy on every response (static files' too): bunco/middleware.py.
    "bunco.middleware.ContentSecurityPolicy",
    # Static files: pre-compressed, with hashed names cached for a year (a phone's first load
    # is small, and later pages fetch nothing again). Served by the app itself, Daphne alone.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A body in another charset made UTF-8, or a 400/413 with a sentence: bunco/inputs.py.
    "bunco.middleware.ReadableInput",
    # Pages and fragments compressed too (static files never reach here; taps' answers not).
    "bunco.middleware.GZipPages",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
# What a tap's form post (a table's or a phone's roll, undo, done) skips: its answer reads no
# session, user, message or htmx header, and no static file has its address. Its CSRF check
# and every header still run (bunco/runtime/handler.py; all of it with BUNCO_STOCK=handler).
MIDDLEWARE_NOT_FOR_TAPS = [
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "bunco.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [APP_FILES / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    # The fragments drawn on every tap (a table's tally) and, on a bell, once per table:
    # Jinja2 draws them (bunco/runtime/jinja.py); the pages stay Django's.
    fragments.engine(APP_FILES / "templates"),
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "bunco.asgi.application"

# -- behind a TLS proxy --------------------------------------------------------------------------
# Pages post their taps with a CSRF token, and Django compares the page's Origin with the
# request's own scheme and host: behind a TLS proxy the request reaches the app as plain HTTP,
# so without the proxy's X-Forwarded-Proto every tap from an https page would be refused.
CSRF_TRUSTED_ORIGINS = [
    _origin(o.strip(), "BUNCO_CSRF_TRUSTED_ORIGINS")
    for o in os.environ.get("BUNCO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
# Whose X-Forwarded-For names the client (bunco/proxies.py): the guessing limits count by it.
_proxies = os.environ.get("BUNCO_TRUSTED_PROXIES", "127.0.0.1,::1")
BUNCO_TRUSTED_PROXIES = [p.strip() for p in _proxies.split(",") if p.strip()]
for _proxy in BUNCO_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"BUNCO_TRUSTED_PROXIES lists {_proxy!r}, which is not an address or a network "
            "(e.g. 127.0.0.1,10.0.0.0/8)") from None
# The health check is asked over plain HTTP by whatever watches the workers.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
BEHIND_TLS_PROXY = PUBLIC_URL.startswith("https://")
# Browsers ignore (and complain in the console about) a Cross-Origin-Opener-Policy on a plain
# http:// address that is not localhost: the party's own LAN address. Sent over HTTPS only.
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin" if BEHIND_TLS_PROXY else None
if BEHIND_TLS_PROXY:
    CSRF_TRUSTED_ORIGINS.insert(0, PUBLIC_URL)
    # Trusted only because the proxy sets the header on every request (docs/deploy.md) and
    # the workers listen on 127.0.0.1 (or a private network) only.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    try:
        SECURE_HSTS_SECONDS = int(os.environ.get("BUNCO_HSTS_SECONDS", "86400"))
    except ValueError:
        raise ImproperlyConfigured("BUNCO_HSTS_SECONDS must be a whole number of seconds") \
            from None
    # includeSubDomains and preload commit every other site of the domain to HTTPS: that is
    # the domain owner's decision, not this app's.
    SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]

# -- the database -------------------------------------------------------------------------------
if DATABASE_URL:
    if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        raise ImproperlyConfigured(
            "DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/bunco); "
            "without it the app uses its own SQLite file")
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise ImproperlyConfigured(
            "DATABASE_URL is set but psycopg (with its pool) is not installed: "
            "make scale installs it, or pip install -c constraints.txt -e '.[postgres]'") \
            from None
    try:
        _pool_size = int(os.environ.get("BUNCO_DB_POOL_SIZE", "8"))
    except ValueError:
        _pool_size = 0
    if _pool_size < 1:
        raise ImproperlyConfigured("BUNCO_DB_POOL_SIZE must be a whole number, 1 or more")
    # Under ASGI a connection must not outlive its request (CONN_MAX_AGE=0, as Django asks
    # for async servers): a connection kept open belongs to the thread that opened it, and
    # such connections pile up until PostgreSQL refuses new ones. Django's pool lends each
    # request or websocket call a connection and takes it back, so a worker never holds
    # more than BUNCO_DB_POOL_SIZE of them and does not pay for a new one every time.
    # A pooled connection outlives PostgreSQL if the server restarts: with health checks on,
    # Django has the pool test each connection as it lends it (psycopg_pool's ``check``), so
    # a dead one is dropped and the request waits for a fresh connection (``timeout``)
    # instead of failing with it. A tap then waits out a restart instead of answering 500.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0,
                                                  conn_health_checks=True)}
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, _pool_size), "max_size": _pool_size, "timeout": 10}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "bunco.sqlite3",
            "OPTIONS": {
                # WAL lets the TV and phones read while a tap is being written; IMMEDIATE
                # transactions plus a busy timeout queue concurrent writers instead of failing.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
            # One server thread runs every database call (Django's and Channels' sync code is
            # thread-sensitive), so it keeps its connection instead of reopening the file and
            # re-running the pragmas on every request.
            "CONN_MAX_AGE": 600,
            "CONN_HEALTH_CHECKS": True,
            # A file, not memory: the browser tests' live server runs in another process.
            "TEST": {"NAME": str(DATA_DIR / "test.sqlite3")},
        }
    }

# -- websockets between workers ------------------------------------------------------------------
# The longest a command's answer waits for its pushes to leave (seconds): past it (Redis frozen)
# the push goes on by itself and later ones are not waited for (bunco/runtime/pushes.py). With
# Redis, half of the second a tap's answer is promised in (the tap's own work needs the rest);
# the party's own layer cannot freeze, and a bell's parts to 2,000 screens may take longer.
PUSH_WAIT = 0.5 if REDIS_URL else 1.0
# Each screen waits for its messages with a blocking Redis read that returns every 5 seconds
# when idle (channels_redis' brpop_timeout). The client's socket timeout must be longer than
# that, or an idle screen's read times out and its socket is closed (1011); redis-py 8 made
# 5 seconds the default, so it is set here whatever the client's default.
REDIS_SOCKET_TIMEOUT = 15
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"REDIS_URL must look like redis://localhost:6379/0, not {REDIS_URL!r}")
    try:
        import channels_redis  # noqa: F401
    except ImportError:
        raise ImproperlyConfigured(
            "REDIS_URL is set but channels-redis is not installed: make scale installs it, "
            "or pip install -c constraints.txt -e '.[redis]'") from None
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": REDIS_SOCKET_TIMEOUT,
                           "socket_connect_timeout": 5, "socket_keepalive": True,
                           "health_check_interval": 30}],
                "prefix": os.environ.get("BUNCO_REDIS_PREFIX", "bunco").strip() or "bunco",
                # As the party's own layer (bunco.layers): a TV or the host is sent every
                # table's every tap, and channels_redis' 100 a screen dropped frames (and
                # bells) at 50 taps a second.
                "capacity": 1000,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "bunco.runtime.layer.PartyChannelLayer"}}
    if runtime.stock("layer"):
        # Channels' own, to measure what the party's layer buys (bench/: loadtest --stock)
        CHANNEL_LAYERS["default"]["BACKEND"] = "channels.layers.InMemoryChannelLayer"

AUTH_PASSWORD_VALIDATORS = []

LANGUAGE_CODE = "en-us"
# The laptop's own zone: the desk's closing time and clock times are read in it.
TIME_ZONE = laptop.local_zone()
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [APP_FILES / "static"]
STATIC_ROOT = DATA_DIR / "static"  # filled by collectstatic (the start command runs it)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # the app's own scripts and styles minified, then hashed and compressed (bunco/storage.py)
    "staticfiles": {"BACKEND": "bunco.storage.MinifiedStaticStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

BUNCO_COPY_TO = os.environ.get("BUNCO_COPY_TO", "").strip()

#: Seconds between a live page's syncs, if not the default (bunco/limits.py: SYNC_EVERY).
BUNCO_SYNC_EVERY = int(os.environ.get("BUNCO_SYNC_EVERY", "").strip() or 0) or None
#: Seconds between one process's looks at its nights' logs, if not the default (WATCH_EVERY).
BUNCO_WATCH_EVERY = float(os.environ.get("BUNCO_WATCH_EVERY", "").strip() or 0) or None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if DEBUG else "WARNING"},
}
