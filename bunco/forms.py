"""Form helpers shared by every face."""

from __future__ import annotations

from django import forms


def first_error(form: forms.Form) -> str:
    """The first problem with a form, as one sentence for a toast or a flash message."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        message = errors[0]
        return f"{label}: {message}" if label and field != "__all__" else message
    return "that did not make sense; reload the page"
