"""Several workers behind a TLS proxy are configured from the environment (docs/deploy.md): a
missing or malformed setting stops a worker with a message naming it, and a complete one
passes Django's deployment checks. Each case starts Django in a process of its own."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import Client

from bunco.models import TableLink

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = "https://bunco.example.org"
WORKER = {
    "DATABASE_URL": "postgres://bunco:pw@db.internal:5432/bunco",
    "REDIS_URL": "redis://cache.internal:6379/0",
    "BUNCO_SECRET_KEY": "k" * 20 + "x9-Q_" * 8,
    "BUNCO_HOST_SECRET": "a-host-secret-shared-by-every-worker",
    "BUNCO_PUBLIC_URL": PUBLIC,
}
SHOW = """
import json
from django.conf import settings
from channels_redis.core import RedisChannelLayer
db, layer = settings.DATABASES["default"], settings.CHANNEL_LAYERS["default"]
print(json.dumps({
    "engine": db["ENGINE"], "conn_max_age": db["CONN_MAX_AGE"], "pool": db["OPTIONS"]["pool"],
    "layer": layer["BACKEND"], "redis_timeout": layer["CONFIG"]["hosts"][0]["socket_timeout"],
    "brpop_timeout": RedisChannelLayer.brpop_timeout,
    "capacity": RedisChannelLayer(**layer["CONFIG"]).capacity,
    "proxy_header": settings.SECURE_PROXY_SSL_HEADER,
    "cookies_secure": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "trusted": settings.CSRF_TRUSTED_ORIGINS, "hosts": settings.ALLOWED_HOSTS,
}))
"""


def manage(*args, **env_changes) -> subprocess.CompletedProcess:
    """manage.py with only the given settings in the environment (none of the test run's)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BUNCO_")
           and k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(BUNCO_DATA_DIR=os.environ["BUNCO_DATA_DIR"], **env_changes)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("given, missing", [
    ({}, "BUNCO_SECRET_KEY and BUNCO_HOST_SECRET"),
    ({"BUNCO_SECRET_KEY": WORKER["BUNCO_SECRET_KEY"]}, "BUNCO_HOST_SECRET must be set too"),
])
def test_a_worker_on_a_shared_database_refuses_to_start_without_the_shared_secrets(
        given, missing):
    result = manage("check", DATABASE_URL=WORKER["DATABASE_URL"], **given)
    assert result.returncode != 0
    assert f"DATABASE_URL is set, so {missing}" in result.stderr
    assert "same value on every worker" in result.stderr


def test_a_worker_behind_a_tls_proxy_passes_the_deployment_checks():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **WORKER)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_a_worker_pools_its_database_connections_and_outwaits_redis_blocking_reads():
    result = manage("shell", "--no-imports", "-c", SHOW, **WORKER)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    assert shown["engine"] == "django.db.backends.postgresql"
    assert shown["conn_max_age"] == 0  # no connection kept past its request under ASGI
    assert shown["pool"]["max_size"] == 8
    assert shown["layer"] == "channels_redis.core.RedisChannelLayer"
    # An idle screen's blocking read returns every brpop_timeout seconds: the socket must
    # wait longer, or the idle screen is cut off (1011).
    assert shown["redis_timeout"] > shown["brpop_timeout"]
    # A TV is sent every table's every tap: ten seconds of 100 taps a second wait for it
    # (channels_redis keeps 100, and dropped a bell behind them at 50 taps a second).
    assert shown["capacity"] == 1000
    assert shown["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert shown["cookies_secure"] == [True, True]
    assert shown["trusted"] == [PUBLIC]
    assert "bunco.example.org" in shown["hosts"]


@pytest.mark.parametrize("name, value, message", [
    ("DATABASE_URL", "mysql://bunco@db/bunco", "DATABASE_URL must be a PostgreSQL URL"),
    ("BUNCO_PUBLIC_URL", "https://bunco.example.org/night", "BUNCO_PUBLIC_URL must be an origin"),
    ("BUNCO_CSRF_TRUSTED_ORIGINS", "bunco.example.org",
     "BUNCO_CSRF_TRUSTED_ORIGINS must be an origin"),
    ("BUNCO_DB_POOL_SIZE", "none", "BUNCO_DB_POOL_SIZE must be a whole number"),
    ("REDIS_URL", "cache.internal:6379", "REDIS_URL must look like redis://"),
    ("BUNCO_HSTS_SECONDS", "a year", "BUNCO_HSTS_SECONDS must be a whole number"),
])
def test_a_malformed_setting_is_refused_with_a_message(name, value, message):
    result = manage("check", **{**WORKER, name: value})
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("behind_proxy", [True, False])
def test_a_tap_from_an_https_page_through_the_proxy_counts(settings, seated_night, behind_proxy):
    """The proxy speaks HTTPS to the phone and HTTP to the worker. With the worker's settings
    (as the environment above gives them) a tap counts; without them Django takes the page's
    https Origin for another site and refuses every tap (403)."""
    from bunco.night import services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "bunco.example.org"]
    if behind_proxy:
        settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        settings.CSRF_TRUSTED_ORIGINS = [PUBLIC]
        settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
        settings.SECURE_SSL_REDIRECT = True
    services.round_start(night=seated_night)
    link = TableLink.objects.get(night=seated_night, number=1)
    phone = Client(enforce_csrf_checks=True, HTTP_HOST="bunco.example.org",
                   HTTP_X_FORWARDED_PROTO="https")
    page = phone.get(f"/t/{link.token}/")
    assert page.status_code == 200
    answer = phone.post(f"/t/{link.token}/roll/",
                        {"quick": "hit1", "key": str(uuid.uuid4()), "set": 1, "round": 1,
                         "table": 1, "pos": 0},
                        HTTP_X_CSRFTOKEN=phone.cookies["csrftoken"].value,
                        HTTP_ORIGIN=PUBLIC, HTTP_REFERER=f"{PUBLIC}/t/{link.token}/")
    if behind_proxy:
        assert answer.status_code == 200 and answer.json()["recorded"]
        assert phone.cookies["csrftoken"]["secure"]
    else:
        assert answer.status_code == 403


@pytest.mark.parametrize("tz, zone", [
    ("Europe/Berlin", "Europe/Berlin"),  # the desk's times are read in the laptop's zone
    (":America/Chicago", "America/Chicago"),
    ("Nowhere/Else", "UTC"),  # a zone this machine does not know: UTC, not a crash
])
def test_times_are_read_in_the_laptops_time_zone(tz, zone):
    result = manage("shell", "--no-imports", "-c",
                    "from django.conf import settings; print(settings.TIME_ZONE)", TZ=tz)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == zone


# -- the files in deploy/ ----------------------------------------------------------------------

NGINX = "/usr/sbin/nginx"
DEPLOY = ROOT / "deploy"


def unit(name: str) -> dict[str, list[str]]:
    """A systemd unit's settings, each name with every value it is given."""
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / "systemd" / name).read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_restarting_the_setup_unit_leaves_the_workers_running():
    """After an update `systemctl restart bunco-setup` runs the migrations again; with
    Requires= systemd would restart every worker with it, all at once, and the room would lose
    every screen together. A worker wants the setup and starts after it."""
    worker = unit("bunco@.service")
    assert "Requires" not in worker and "BindsTo" not in worker
    assert worker["Wants"] == ["bunco-setup.service"]
    assert "bunco-setup.service" in worker["After"][0].split()
    guide = (ROOT / "docs" / "deploy.md").read_text()
    assert "sudo systemctl restart 'bunco@*'" not in guide
    assert "sudo systemctl restart bunco@$port" in guide  # one at a time


def nginx_t(tmp_path, site: str) -> subprocess.CompletedProcess:
    """``nginx -t`` of a site file as /etc/nginx/nginx.conf includes it (paths in tmp_path)."""
    main = tmp_path / "main.conf"
    main.write_text(f"""
pid {tmp_path}/nginx.pid;
events {{}}
http {{
    access_log {tmp_path}/access.log;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    include {site};
}}
""")
    return subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(main),
                           "-e", str(tmp_path / "error.log")],
                          capture_output=True, text=True, timeout=30)


@pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is not installed")
def test_the_first_nginx_stage_passes_nginx_t_before_there_is_a_certificate(tmp_path):
    """docs/deploy.md: nginx-http.conf first (certbot needs plain HTTP), then nginx.conf once
    the certificate exists: each step's `nginx -t` passes."""
    first = nginx_t(tmp_path, DEPLOY / "nginx-http.conf")
    assert first.returncode == 0, first.stderr
    assert "test is successful" in first.stderr
    # The HTTPS file needs the certificate: before certbot it fails, naming it.
    early = nginx_t(tmp_path, DEPLOY / "nginx.conf")
    assert early.returncode != 0 and "/etc/letsencrypt/live/" in early.stderr
    # ...and passes once a certificate is where it points.
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=bunco.example.org", "-keyout", str(tmp_path / "privkey.pem"),
                    "-out", str(tmp_path / "fullchain.pem")], check=True, capture_output=True)
    site = tmp_path / "bunco"
    site.write_text((DEPLOY / "nginx.conf").read_text().replace(
        "/etc/letsencrypt/live/bunco.example.org", str(tmp_path)))
    later = nginx_t(tmp_path, site)
    assert later.returncode == 0, later.stderr
    guide = (ROOT / "docs" / "deploy.md").read_text()
    assert guide.index("deploy/nginx-http.conf") < guide.index("certbot certonly") < guide.index(
        "sudo cp deploy/nginx.conf")


def scale_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("scale", DEPLOY / "scale.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_scale_takes_its_plain_http_port_and_moves_off_a_busy_one():
    import socket

    scale = scale_module()
    wanted = scale.free_port()
    assert scale.plain_port(wanted) == wanted
    assert scale.plain_port(0) == 0  # no plain HTTP at all
    with socket.socket() as busy:
        busy.bind(("", wanted))
        busy.listen()
        other = scale.plain_port(wanted)
        assert other not in (wanted, 0)
    made = subprocess.run(["make", "-n", "scale", "SCALE_HTTP_PORT=9090", "VENV=/nonexistent"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert "--http-port 9090" in made.stdout


def test_the_opener_policy_is_sent_over_https_only(client, db):
    """On the party's plain http:// address browsers ignore the header and print an error for
    it on every page; behind the TLS proxy it is sent."""
    assert "Cross-Origin-Opener-Policy" not in client.get("/")
    shown = manage("shell", "--no-imports", "-c", "from django.conf import settings; "
                   "print(settings.SECURE_CROSS_ORIGIN_OPENER_POLICY)", **WORKER)
    assert shown.stdout.strip() == "same-origin", shown.stderr
