"""What the host types: validated here, with the messages the host sees."""

from __future__ import annotations

from django import forms


class RoundClaimForm(forms.Form):
    """A host's bell names the round the page showed, so a second press does not ring twice."""

    key = forms.UUIDField(required=False)
    set = forms.IntegerField(required=False, min_value=1, max_value=99)
    round = forms.IntegerField(required=False, min_value=1, max_value=6)


class TakeBackForm(forms.Form):
    what = forms.RegexField(regex=r"^(bell|close|\d{1,9})$", error_messages={
        "invalid": "pick an entry to take back", "required": "pick an entry to take back"})
    key = forms.UUIDField(required=False)


class NameForm(forms.Form):
    name = forms.CharField(max_length=40, strip=True, error_messages={
        "required": "type a name", "max_length": "a name has at most 40 characters"})


class NamesForm(forms.Form):
    players = forms.CharField(max_length=20_000, required=False, widget=forms.Textarea)

    def clean_players(self) -> list[str]:
        return self.cleaned_data["players"].splitlines()


class SwapForm(forms.Form):
    first = forms.CharField(max_length=40)
    second = forms.CharField(max_length=40)


class RollOffForm(forms.Form):
    category = forms.CharField(max_length=40)
    winner = forms.CharField(max_length=40, required=False)
