"""Every request's body read the way the forms expect, or refused with a sentence.

Browsers send forms as UTF-8. A body that says another character set is read in it and handed
on as UTF-8 (Django 5 refuses any other charset for a URL-encoded form, and then fails again
drawing its own error page, which reads the form once more for the CSRF check: a 500). A
charset no codec reads as text (an unknown name, ``base64``), a body that is not what its
charset says, a form past Django's DATA_UPLOAD_MAX_* limits or a body too big to be any form
of the app is answered 400 or 413 with a sentence, before any view runs: nothing is changed.
"""

from __future__ import annotations

import codecs
import json
import re
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError

#: The largest body read at all: a night file (``RestoreForm.MAX_BYTES``, 20 MB) and its form.
#: Anything longer is refused (413) before Django reads it.
MAX_BODY = 21 * 1024 * 1024

FORM = "application/x-www-form-urlencoded"
#: A tap (its answer is JSON the phone's outbox reads) and anything asking for JSON.
JSON_PATH = re.compile(r"^/[tp]/[^/]+/[^/]+/$")

UNKNOWN_CHARSET = ("This app cannot read text sent as \u201c{charset}\u201d: nothing was "
                   "changed. Send the form from the app's own page (it sends UTF-8).")
NOT_IN_CHARSET = ("What was sent is not the \u201c{charset}\u201d text it says it is: nothing "
                  "was changed. Send the form from the app's own page.")
TOO_BIG = ("That is more than any form of this app sends (at most {size}): nothing was "
           "changed. A night file is opened from the host's page, up to 20 MB.")
TOO_MANY = "That form has more fields than any form of this app: nothing was changed."
#: A request Django cannot make one of (a query string that is not UTF-8, a header).
NOT_A_REQUEST = "That request could not be read: nothing was changed."
UNREADABLE = ("That form could not be read (it is not what its type says it is): nothing "
              "was changed. Send it again from the app's own page.")


def refusal(request: HttpRequest | None, status: int, sentence: str,
            path: str = "") -> HttpResponse:
    """A 4xx that says what happened: JSON for a tap (``{"ok": false, "error": …}``, as the
    phone's outbox reads it) or a page asking for JSON, plain text otherwise."""
    if request is not None:
        path = request.path
        wants_json = "json" in request.META.get("HTTP_ACCEPT", "")
    else:
        wants_json = False
    if wants_json or JSON_PATH.match(path):
        return HttpResponse(json.dumps({"ok": False, "error": sentence}), status=status,
                            content_type="application/json")
    return HttpResponse(sentence, status=status, content_type="text/plain; charset=utf-8")


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB".replace(".0 MB", " MB")


def _codec(charset: str) -> codecs.CodecInfo | None:
    """The codec that reads ``charset`` as text, or None (unknown, or bytes-to-bytes)."""
    try:
        info = codecs.lookup(charset)
    except (LookupError, ValueError, TypeError):
        return None
    # A codec of bytes to bytes (base64) refuses to decode bytes as text; Django reads some
    # parts leniently, and a codec that cannot (idna) is no use either.
    try:
        b"a=%FF\xff".decode(info.name, "replace")
    except Exception:  # noqa: BLE001 (any codec's own failure)
        return None
    return info


def _as_utf8(request: HttpRequest, codec: codecs.CodecInfo) -> QueryDict:
    """A URL-encoded form in another charset, read in it (escapes too), as its fields."""
    fields = parse_qsl(request.body.decode(codec.name), keep_blank_values=True,
                       encoding=codec.name, errors="strict",
                       max_num_fields=settings.DATA_UPLOAD_MAX_NUMBER_FIELDS)
    return QueryDict(urlencode(fields), encoding="utf-8")


def read(request: HttpRequest) -> HttpResponse | None:
    """None when the request's body (if any) reads as the forms expect, now parsed, or the
    refusal to answer instead."""
    charset = request.content_params.get("charset") if request.content_params else None
    try:
        if charset is not None:
            codec = _codec(charset.strip())
            if codec is None:
                return refusal(request, 400, UNKNOWN_CHARSET.format(charset=charset[:40]))
            posted = request.method == "POST"
            # A multipart form's fields are read in its charset; anything else is UTF-8.
            multipart = posted and request.content_type == "multipart/form-data"
            request.encoding = codec.name if multipart else "utf-8"
            if codec.name != "utf-8" and posted and request.content_type == FORM:
                request.FILES  # noqa: B018 (none in such a form: read as Django reads it)
                request.POST = _as_utf8(request, codec)  # but the fields in their charset
        if request.method == "POST":
            request.POST, request.FILES  # noqa: B018 (parsed now, or refused now)
    except RequestDataTooBig:
        return _refused(request, 413, TOO_BIG.format(
            size=megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)))
    except (TooManyFieldsSent, TooManyFilesSent):
        return _refused(request, 400, TOO_MANY)
    except UnicodeError:
        return _refused(request, 400, NOT_IN_CHARSET.format(charset=charset or "UTF-8"))
    except (BadRequest, SuspiciousOperation, MultiPartParserError, LookupError, ValueError,
            OSError):
        return _refused(request, 400, UNREADABLE)
    return None


def _refused(request: HttpRequest, status: int, sentence: str) -> HttpResponse:
    # Whatever reads the form after this (an error page's CSRF check) finds it empty.
    request.POST = QueryDict()
    return refusal(request, status, sentence)


def content_length(scope) -> int | None:
    """The body's declared length, -1 if the header is not a number, None if absent (a
    length of more digits than any body has reads as too big, unparsed)."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"content-length":
            if not value.strip().isdigit():
                return -1
            return int(value) if len(value.strip()) <= 18 else MAX_BODY + 1
    return None
