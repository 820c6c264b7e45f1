"""Form helpers shared by every face."""

from __future__ import annotations

from django import forms

#: The most money any form takes (an entry fee, a pot): $1,000,000, in cents. A night file is
#: held to it too (``night.services.night_file``).
MAX_CENTS = 100_000_000


def first_error(form: forms.Form) -> str:
    """The first problem with a form, as one sentence for a toast or a flash message."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        message = errors[0]
        return f"{label}: {message}" if label and field != "__all__" else message
    return "that did not make sense; reload the page"
