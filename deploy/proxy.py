"""nginx in front of deploy/scale.py's workers: its configuration for this machine, a self-signed
certificate, and a request through it. Standard library only."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request

from processes import LOGS, RUN, Child, Trouble, is_root, listening

NGINX_CONF = """\
# Written by deploy/scale.py for this machine; docs/deploy.md has the server version.
worker_processes 1;
{user}pid {run}/nginx/nginx.pid;
error_log {logs}/nginx-error.log warn;
daemon off;

events {{ worker_connections 1024; }}

http {{
    access_log {logs}/nginx-access.log;
    client_body_temp_path {run}/nginx/tmp/body;
    proxy_temp_path {run}/nginx/tmp/proxy;
    fastcgi_temp_path {run}/nginx/tmp/fastcgi;
    uwsgi_temp_path {run}/nginx/tmp/uwsgi;
    scgi_temp_path {run}/nginx/tmp/scgi;
    client_max_body_size 10m;

    upstream bunco {{
        # A night's screens and taps go to one worker (bunco/stick.py): docs/deploy.md.
        hash $cookie_bunco_night consistent;
{servers}
        keepalive 16;
    }}

    # A websocket asks to upgrade its connection; a page keeps the upstream connection alive.
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}

{redirect}
    server {{
        listen {port} ssl;
        server_name {host};
        ssl_certificate {run}/tls/{host}.crt;
        ssl_certificate_key {run}/tls/{host}.key;

        location / {{
            proxy_pass http://bunco;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Proto $scheme;
            # Who the client is, as this proxy saw it: never the client's own header.
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            # A TV or a phone may hear nothing for a long break: keep its websocket open.
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"""

REDIRECT = """\
    server {{
        listen {http_port};
        server_name {host};
        location / {{ return 301 https://$host:{port}$request_uri; }}
    }}
"""


def certificate(host: str) -> None:
    """A self-signed certificate for ``host`` (made once): browsers warn about it once;
    curl needs -k. A real server uses its own (docs/deploy.md)."""
    folder = RUN / "tls"
    folder.mkdir(parents=True, exist_ok=True)
    crt, key = folder / f"{host}.crt", folder / f"{host}.key"
    if crt.exists() and key.exists():
        return
    if not shutil.which("openssl"):
        raise Trouble("openssl is needed for the local certificate: sudo apt-get install -y "
                      "openssl")
    names = ["DNS:localhost", "IP:127.0.0.1"]
    try:
        socket.inet_aton(host)
        names.append(f"IP:{host}")
    except OSError:
        names.append(f"DNS:{host}")
    done = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825",
         "-subj", f"/CN={host}", "-addext", f"subjectAltName={','.join(dict.fromkeys(names))}",
         "-keyout", str(key), "-out", str(crt)], capture_output=True, text=True)
    if done.returncode:
        raise Trouble(f"openssl could not make a certificate:\n{done.stderr}")
    key.chmod(0o600)


def start_nginx(host: str, port: int, http_port: int, workers: list[int]) -> Child:
    binary = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if os.path.exists(p)), None)
    if not binary:
        raise Trouble("nginx is not installed: sudo apt-get install -y nginx")
    certificate(host)
    folder = RUN / "nginx"
    user = ""
    for name in ("tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    if is_root():  # nginx's workers drop to an unprivileged user that writes the temp files
        account = next((a for a in ("www-data", "nobody") if _account(a)), None)
        if account:
            user = f"user {account};\n"
            entry = pwd.getpwnam(account)
            for path in (folder / "tmp").rglob("*"):
                os.chown(path, entry.pw_uid, entry.pw_gid)
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in workers)
    redirect = REDIRECT.format(http_port=http_port, host=host, port=port) if http_port else ""
    conf = folder / "nginx.conf"
    conf.write_text(NGINX_CONF.format(user=user, run=RUN, logs=LOGS, servers=servers,
                                      redirect=redirect, port=port, host=host))
    command = [binary, "-p", str(folder), "-c", str(conf), "-e", str(LOGS / "nginx-error.log")]
    check = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
    if check.returncode:
        raise Trouble(f"nginx refused its configuration:\n{check.stderr}")
    child = Child("nginx", command, stop_signal=signal.SIGQUIT)  # QUIT: finish, then stop
    for _ in range(100):
        if not child.alive():
            raise Trouble(f"nginx did not start:\n{child.tail()}\n"
                          f"{(LOGS / 'nginx-error.log').read_text()[-2000:]}")
        if listening("127.0.0.1", port):
            return child
        time.sleep(0.1)
    raise Trouble("nginx did not listen on its port")


def _account(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def through_proxy(url: str) -> int:
    """The status of ``url`` fetched through nginx (the local certificate is self-signed)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                         urllib.request.HTTPSHandler(context=context))
    try:
        with opener.open(url, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
