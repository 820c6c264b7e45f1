"""What a person types on the TV: the short code from the host's page."""

from __future__ import annotations

from django import forms


class TvCodeForm(forms.Form):
    code = forms.CharField(max_length=20, error_messages={
        "required": "type the TV code from the host's page",
        "max_length": "a TV code is a few digits, as the host's page shows it"})

    def clean_code(self) -> str:
        code = "".join(self.cleaned_data["code"].split()).replace("-", "")
        if not code.isalnum():
            raise forms.ValidationError("a TV code is a few digits, as the host's page shows it")
        return code
