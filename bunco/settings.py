"""Settings. Everything that varies between a party laptop and a big event comes from the
environment, read here and nowhere else:

BUNCO_DEBUG=1            Django debug pages (never at a real party)
BUNCO_SECRET_KEY         signing key; otherwise one is made once and kept in the data folder
BUNCO_DATA_DIR           where the SQLite database and the key live (default: ./var)
DATABASE_URL             e.g. postgres://user:pass@localhost/bunco instead of SQLite
REDIS_URL                e.g. redis://localhost:6379/0 to share websockets between workers
BUNCO_ALLOWED_HOSTS      extra host names or addresses, comma separated (never "*")
BUNCO_HOST_SECRET        a fixed host link secret (otherwise made once in the data folder)
BUNCO_LAN_ADDRESS        the address phones use to reach this laptop (default: its first
                         private LAN address, as the start command prints)
BUNCO_PUBLIC_URL         the whole public origin (https://bunco.example.org) behind a proxy
"""

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from bunco.lan import local_addresses

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("BUNCO_DATA_DIR", BASE_DIR / "var"))
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = os.environ.get("BUNCO_DEBUG", "") in {"1", "true", "yes"}


def _secret_key() -> str:
    if key := os.environ.get("BUNCO_SECRET_KEY"):
        return key
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

# Phones reach the laptop by its LAN address, so those are allowed; never "*".
_LAN = local_addresses()
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", *_LAN]
# Every link and QR code the app shows or prints is built from this (bunco.lan.public_url).
LAN_ADDRESS = os.environ.get("BUNCO_LAN_ADDRESS", "").strip() or (_LAN[0] if _LAN else "127.0.0.1")
PUBLIC_URL = os.environ.get("BUNCO_PUBLIC_URL", "").strip()
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

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files: pre-compressed, with hashed names cached for a year (a phone's first load
    # is small, and later pages fetch nothing again). Served by the app itself, Daphne alone.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments compressed too (static files never reach here).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "bunco.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "bunco.asgi.application"

if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
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

if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "bunco.layers.PartyChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = []

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TZ", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "static"  # filled by collectstatic (the start command runs it)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if DEBUG else "WARNING"},
}
