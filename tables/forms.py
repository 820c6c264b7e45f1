"""What a phone sends besides its taps (the head table's bell, a guest's name), validated here
with the messages a guest sees. A tap's own fields are checked in ``tables.tap``."""

from __future__ import annotations

from django import forms

from scoring import ROUNDS_PER_SET


class HeadStartForm(forms.Form):
    """The head table's bell that starts a round names the round its screen showed, so a second
    press (or one sent late) never starts another."""

    set = forms.IntegerField(min_value=1, max_value=99)
    round = forms.IntegerField(min_value=1, max_value=ROUNDS_PER_SET)


class PickNameForm(forms.Form):
    """A guest picks their name on "find your seat"."""

    player = forms.IntegerField(min_value=1, error_messages={
        "required": "tap your name", "invalid": "tap your name",
        "min_value": "tap your name"})
    # after the end, a name taken back on a new phone: the night's join code, as typed
    code = forms.CharField(required=False, max_length=20)

    def clean_code(self) -> str:
        return "".join(self.cleaned_data["code"].split()).replace("-", "")
