"""What a phone sends with a tap: validated here, with the messages a guest sees."""

from __future__ import annotations

from django import forms

from scoring import ROUNDS_PER_SET
from scoring.roll import DIE_BUTTONS, QUICK_KINDS

QUICK_CHOICES = [(k, k) for k in (*QUICK_KINDS, *DIE_BUTTONS)]


class ClaimForm(forms.Form):
    """Where a tap was made: the round, the table and the table's position as the screen
    showed them, and the tap's own id."""

    key = forms.UUIDField(required=False, error_messages={
        "invalid": "this tap carried a broken id; reload the page"})
    set = forms.IntegerField(required=False, min_value=0, max_value=99)  # 0: practice
    round = forms.IntegerField(min_value=1, max_value=ROUNDS_PER_SET, error_messages={
        "required": "this screen is out of date; reload the page"})
    table = forms.IntegerField(min_value=1, max_value=9999, error_messages={
        "required": "this screen is out of date; reload the page"})
    pos = forms.IntegerField(min_value=0, max_value=1_000_000, error_messages={
        "required": "this screen is out of date; reload the page"})


class HeadStartForm(forms.Form):
    """The head table's bell that starts a round names the round its screen showed, so a second
    press (or one sent late) never starts another."""

    set = forms.IntegerField(min_value=1, max_value=99)
    round = forms.IntegerField(min_value=1, max_value=ROUNDS_PER_SET)


class RollForm(ClaimForm):
    quick = forms.ChoiceField(choices=QUICK_CHOICES, required=False, error_messages={
        "invalid_choice": "unknown quick button"})
    dice = forms.CharField(required=False, max_length=20)
    # When the phone took the tap (ms, on the server's clock): a tap sent late, after a spell
    # offline, keeps its own time in the tally history.
    tapped = forms.IntegerField(required=False, min_value=0, max_value=10**14)

    def clean_dice(self) -> list[int] | None:
        text = self.cleaned_data["dice"].strip()
        if not text:
            return None
        faces = []
        for part in text.split(","):
            part = part.strip()
            if not (part.isascii() and part.isdigit() and len(part) == 1):
                raise forms.ValidationError("each die shows 1-6")
            faces.append(int(part))
        return faces

    def clean(self):
        data = super().clean()
        if not data.get("quick") and not data.get("dice"):
            raise forms.ValidationError("tap three dice or a button")
        return data


class PickNameForm(forms.Form):
    """A guest picks their name on "find your seat"."""

    player = forms.IntegerField(min_value=1, error_messages={
        "required": "tap your name", "invalid": "tap your name",
        "min_value": "tap your name"})
