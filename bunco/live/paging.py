"""Pages of a long list on the host's pages (a 500-table room has 2,000 players): one page of
items and the links to the others, keeping the page's other query parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode


@dataclass(frozen=True)
class Page:
    param: str  # the query parameter that names the page
    number: int
    pages: int
    first: int  # 1-based position of the page's first item (0: empty)
    last: int
    total: int
    keep: tuple[tuple[str, str], ...] = ()  # the other query parameters

    @property
    def several(self) -> bool:
        return self.pages > 1

    def url(self, number: int) -> str:
        return "?" + urlencode([*self.keep, (self.param, str(number))])

    @property
    def previous_url(self) -> str:
        return self.url(self.number - 1) if self.number > 1 else ""

    @property
    def next_url(self) -> str:
        return self.url(self.number + 1) if self.number < self.pages else ""

    @property
    def keep_fields(self) -> tuple[tuple[str, str], ...]:
        return self.keep


def page_number(value) -> int:
    """A page number from a query string: anything but a positive whole number is page 1."""
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        return 1
    return number if number >= 1 else 1


def paginate(items: Sequence, query: Mapping[str, str], param: str, per: int,
             latest: bool = False):
    """``items`` cut to the page ``query[param]`` names (the last page if past the end, and
    when the query names none and ``latest`` asks for the newest items first)."""
    total = len(items)
    pages = max(1, -(-total // per))
    asked = query.get(param)
    number = pages if asked is None and latest else min(page_number(asked), pages)
    start = (number - 1) * per
    chunk = items[start:start + per]
    keep = tuple((k, v) for k, v in query.items() if k != param and isinstance(v, str))
    page = Page(param, number, pages, start + 1 if chunk else 0, start + len(chunk), total, keep)
    return chunk, page
