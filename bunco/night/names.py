"""Names as people type them, made safe to show and to tell apart.

A name is kept as typed, except: Unicode is composed (NFC), control characters and the
invisible direction overrides (which would reverse the text around a name on the TV) are
dropped, zero-width spaces are dropped, and runs of spaces become one. Two names that look the
same on a screen (differing only by case, width or invisible characters) are one name, and
"Ghost 3" is how the app names an empty chair, so nobody is called that.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from scoring import RulesError

#: Direction marks, embeddings, overrides and isolates: never part of a name.
BIDI = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Format characters a script needs (joiners in Persian, Indic scripts and emoji) are kept.
KEPT_FORMAT = frozenset("\u200c\u200d")
GHOST = re.compile(r"ghost\s*\d+")


def normalise(raw: str) -> str:
    text = unicodedata.normalize("NFC", raw)
    text = "".join(
        " " if unicodedata.category(ch) == "Cc" and ch.isspace() else ch
        for ch in text
        if ch not in BIDI and unicodedata.category(ch) not in ("Cs", "Co")
        and (unicodedata.category(ch) not in ("Cc", "Cf") or ch.isspace() or ch in KEPT_FORMAT)
    )
    return " ".join(text.split())


def looks(name: str) -> str:
    """What a name looks like on a screen: the same for names a person cannot tell apart."""
    text = "".join(ch for ch in unicodedata.normalize("NFKC", name)
                   if unicodedata.category(ch) != "Cf")
    return " ".join(text.casefold().split())


def search_text(raw) -> str:
    """What a person typed into a name search, tidied (at most a name's length)."""
    return normalise(str(raw or ""))[:40]


def matching(items: Iterable, typed: str, name=lambda item: item.name) -> list:
    """The items whose name contains what was typed, as it looks on a screen (any case,
    width or spacing)."""
    wanted = looks(typed)
    return [item for item in items if wanted in looks(name(item))]


def find(names: Iterable[str], typed: str) -> str | None:
    """The one name that looks like what was typed, if any."""
    wanted = looks(typed)
    return next((n for n in names if looks(n) == wanted), None)


def new_names(existing: Sequence[str], typed: Iterable[str]) -> list[str]:
    """The typed names, normalised, or a RulesError naming the first one that cannot be used:
    one that looks like a name already playing tonight (or earlier in the list), or a ghost's.
    Length and emptiness are the rules engine's checks (``scoring.seating.clean_names``)."""
    taken = {looks(n): n for n in existing}
    out = []
    for raw in typed:
        if not isinstance(raw, str):
            raise RulesError("players", f"{raw!r} is not a name")
        name = normalise(raw)
        seen = looks(name)
        if GHOST.fullmatch(seen):
            raise RulesError("players", f"“{name}” is what the app calls an empty chair; "
                             "add an initial or a nickname")
        if name and seen in taken:
            other = taken[seen]
            same = "is already on the list" if other == name else f"looks just like “{other}”"
            raise RulesError("players", f"“{name}” {same}; add an initial to tell them apart")
        taken[seen] = name
        out.append(name)
    return out
