"""One HTTP request straight to the ASGI application, as Daphne hands it over (no server, no
client library): for tests of what happens before Django, at the server's door."""

from asgiref.testing import ApplicationCommunicator


async def asgi_request(application, method: str, path: str, body: bytes = b"", *,
                       headers=((b"host", b"127.0.0.1"),), query: bytes = b"",
                       timeout: float = 10) -> tuple[int, bytes]:
    """The answer's status and body. The body is sent in two parts, as a network may."""
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
             "query_string": query, "headers": list(headers), "http_version": "1.1",
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000)}
    talk = ApplicationCommunicator(application, scope)
    cut = len(body) // 2
    await talk.send_input({"type": "http.request", "body": body[:cut], "more_body": True})
    await talk.send_input({"type": "http.request", "body": body[cut:], "more_body": False})
    start = await talk.receive_output(timeout)
    answer = b""
    while True:
        part = await talk.receive_output(timeout)
        answer += part.get("body", b"")
        if not part.get("more_body"):
            break
    await talk.send_input({"type": "http.disconnect"})
    await talk.wait(timeout)
    return start["status"], answer
