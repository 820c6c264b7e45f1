"""Every response carries the Content-Security-Policy (bunco/middleware.py): pages, a page
that is not there, the static files; its websockets are named for the host the page came
from."""

from django.contrib.staticfiles.storage import staticfiles_storage


def policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {d.split(" ", 1)[0]: d.split(" ", 1)[1] for d in header.split("; ")}


def test_every_response_has_the_policy(client, db):
    for url in ("/", "/no-such-page/", staticfiles_storage.url("bunco/live.js")):
        got = policy(client.get(url))
        assert got["default-src"] == "'self'", url
        assert got["script-src"] == "'self'"  # no inline script, no eval
        assert got["style-src"] == "'self'" and got["style-src-attr"] == "'unsafe-inline'"
        assert got["img-src"] == "'self' data:" and got["media-src"] == "'self' data: blob:"
        assert got["frame-ancestors"] == "'none'"


def test_websockets_may_go_to_the_pages_own_host_only(client, db):
    got = policy(client.get("/", HTTP_HOST="127.0.0.1:8000"))
    assert got["connect-src"] == "'self' ws://127.0.0.1:8000 wss://127.0.0.1:8000"
