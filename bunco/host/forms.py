"""What the host types: validated here, with the messages the host sees."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms

from bunco.forms import MAX_CENTS
from bunco.host.rules_form import EXPLAINED, rule_fields
from bunco.night.services import CommandRefused
from scoring import PRESETS, ROUNDS_PER_SET, HouseRules, RulesError


class JoinCodeForm(forms.Form):
    """The short code a guest types on the home page, as people type it: with spaces or a
    dash, a letter O for a zero or an l for a one."""

    code = forms.CharField(max_length=20, error_messages={
        "required": "type the code the TV shows under its QR code",
        "max_length": "the code is five digits, as the TV shows it"})

    def clean_code(self) -> str:
        code = "".join(self.cleaned_data["code"].split()).replace("-", "")
        code = code.translate(str.maketrans("OoIl", "0011"))
        if not code.isascii() or not code.isdigit():
            raise forms.ValidationError("the code is five digits, as the TV shows it")
        return code


class RoundClaimForm(forms.Form):
    """A host's bell names the round the page showed, so a second press does not ring twice."""

    key = forms.UUIDField(required=False)
    set = forms.IntegerField(required=False, min_value=0, max_value=99)  # 0: practice
    round = forms.IntegerField(required=False, min_value=1, max_value=ROUNDS_PER_SET)
    practice = forms.BooleanField(required=False)  # a round before round 1 that does not count


class BreakForm(forms.Form):
    """A break between rounds: how long, in minutes (or, with ``end``, ending it early)."""

    minutes = forms.IntegerField(required=False, min_value=1, max_value=60, error_messages={
        "min_value": "a break lasts 1 to 60 minutes", "max_value": "a break lasts 1 to 60 "
        "minutes", "invalid": "type the break's length in minutes"})
    end = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if not data.get("end") and not data.get("minutes") and not self.errors:
            raise forms.ValidationError("type the break's length in minutes")
        return data


class TakeBackForm(forms.Form):
    what = forms.RegexField(regex=r"^(bell|close|\d{1,9})$", error_messages={
        "invalid": "pick an entry to take back", "required": "pick an entry to take back"})
    key = forms.UUIDField(required=False)


class NameForm(forms.Form):
    name = forms.CharField(max_length=40, strip=True, error_messages={
        "required": "type a name", "max_length": "a name has at most 40 characters"})


#: A pasted roster: 2,000 names of up to 40 characters, one a line.
PASTE_CHARS = 100_000
PASTE_ERRORS = {"max_length": "that list is too long: paste at most 2,000 names at a time"}


class NamesForm(forms.Form):
    players = forms.CharField(max_length=PASTE_CHARS, required=False, widget=forms.Textarea,
                              error_messages=PASTE_ERRORS)
    expected = forms.BooleanField(required=False)  # pre-registered: they check in at the desk

    def clean_players(self) -> list[str]:
        return self.cleaned_data["players"].splitlines()


PICK_SWAP = {"required": "pick the two seated people to swap"}


class SwapForm(forms.Form):
    first = forms.CharField(max_length=40, error_messages=PICK_SWAP)
    second = forms.CharField(max_length=40, error_messages=PICK_SWAP)


class RollOffForm(forms.Form):
    category = forms.CharField(max_length=40)
    winner = forms.CharField(max_length=40, required=False)


PICK_TWO = {why: "pick the two people to merge"
            for why in ("required", "invalid", "min_value", "max_value")}


class MergeForm(forms.Form):
    keep = forms.IntegerField(min_value=1, max_value=2**31, error_messages=PICK_TWO)
    other = forms.IntegerField(min_value=1, max_value=2**31, error_messages=PICK_TWO)


def money_field(label: str, required: bool = False) -> forms.CharField:
    return forms.CharField(label=label, required=required, max_length=16, strip=True)


def clean_money(text: str, what: str) -> int:
    """Cents from what a host types ("10", "$7.50", "1,000"); a clear message otherwise."""
    cleaned = (text or "0").strip().lstrip("$€£").replace(",", "") or "0"
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise forms.ValidationError(
            f"{text!r} is not an amount of money, e.g. 10 or 7.50") from None
    if not value.is_finite() or value < 0:
        raise forms.ValidationError(f"the {what} must be a positive amount, to the cent")
    # Before rounding to the cent: 1e26 to the cent has more digits than Decimal keeps.
    if value > MAX_CENTS / 100:
        raise forms.ValidationError(f"the {what} is more than ${MAX_CENTS // 100:,}")
    if value != value.quantize(Decimal("0.01")):
        raise forms.ValidationError(f"the {what} must be a positive amount, to the cent")
    return int(value * 100)


class NightForm(forms.Form):
    """A new night: its name, house rules, entry fee and the players checked in so far."""

    name = forms.CharField(max_length=200, required=False)
    rules_id = forms.ChoiceField(choices=[(k, k) for k in PRESETS], error_messages={
        "invalid_choice": "pick one of the listed house rules",
        "required": "pick one of the listed house rules"})
    entry_fee = money_field("entry fee")
    players = forms.CharField(max_length=PASTE_CHARS, required=False,
                              error_messages=PASTE_ERRORS)

    def clean_entry_fee(self) -> int:
        return clean_money(self.cleaned_data["entry_fee"], "entry fee")

    def clean_players(self) -> list[str]:
        return self.cleaned_data["players"].splitlines()


class PresetForm(forms.Form):
    rules_id = forms.ChoiceField(choices=[(k, k) for k in PRESETS], error_messages={
        "invalid_choice": "pick one of the listed house rules",
        "required": "pick one of the listed house rules"})


class RulesForm(forms.Form):
    """Every house-rules dimension over the night's rules (``base``); the rules engine checks
    the whole and its message names the dimension in plain words."""

    night_name = forms.CharField(max_length=200, required=False)
    entry_fee = money_field("entry fee")

    def __init__(self, base: HouseRules, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.base = base
        for spec in rule_fields(base):
            name, label = spec["name"], spec["label"]
            if spec["kind"] == "bool":
                self.fields[name] = forms.BooleanField(required=False, label=label)
            elif spec["kind"] == "int":
                self.fields[name] = forms.IntegerField(
                    required=False, label=label, min_value=-1000, max_value=1000,
                    error_messages={"invalid": f"{label} must be a whole number"})
            else:
                self.fields[name] = forms.ChoiceField(
                    required=False, label=label, choices=spec["choices"],
                    error_messages={"invalid_choice": f"{label}: pick one of the choices"})

    def clean_entry_fee(self) -> int:
        return clean_money(self.cleaned_data["entry_fee"], "entry fee")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        changes = {}
        for spec in rule_fields(self.base):
            name = spec["name"]
            if spec["kind"] == "bool":
                changes[name] = data.get(name, False)
            elif data.get(name) not in (None, ""):
                changes[name] = data[name]
        try:
            data["rules"] = self.base.replace(**changes)
        except RulesError as exc:
            label = EXPLAINED.get(exc.field, (exc.field,))[0]
            raise forms.ValidationError(f"{label}: {str(exc).split(': ', 1)[-1]}") from None
        return data


MAX_PRIZES = 50


class AwardsForm(forms.Form):
    """The prize list (numbered rows: category, share in percent or a named prize, order,
    remove), how ties are settled, one prize per person, and a typed pot."""

    rows = forms.IntegerField(min_value=0, max_value=MAX_PRIZES, error_messages={
        "invalid": "the prize list was not sent whole; reload the page",
        "required": "the prize list was not sent whole; reload the page",
        "max_value": f"at most {MAX_PRIZES} prizes"})
    award_ties = forms.ChoiceField(choices=[("split", "split"), ("roll_off", "roll off"),
                                            ("ask", "the tied players choose")],
                                   required=False, error_messages={
                                       "invalid_choice": "Ties: pick one of the choices"})
    one_prize_per_person = forms.BooleanField(required=False)
    pot = money_field("pot")

    def clean_pot(self) -> int | None:
        typed = self.cleaned_data["pot"]
        return clean_money(typed, "pot") if typed else None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        rows = []
        for i in range(data["rows"]):
            category = self.data.get(f"category_{i}", "")
            if not category or self.data.get(f"remove_{i}"):
                continue
            share = self.data.get(f"share_{i}", "").strip().rstrip("%")[:12] or None
            try:
                order = float(self.data.get(f"order_{i}", i) or i)
            except ValueError:
                raise forms.ValidationError("the order of a prize must be a number") from None
            if order != order or abs(order) > 1000:
                raise forms.ValidationError("the order of a prize must be a small number")
            row = {"category": category[:40], "share_percent": share,
                   "prize": self.data.get(f"prize_{i}", "").strip()[:80]}
            ties = self.data.get(f"ties_{i}", "")
            if ties:
                row["ties"] = ties[:20]  # the rules engine names a bad value
            if self.data.get(f"travels_{i}") and row["prize"]:
                row["travels"] = True
            rows.append((order, i, row))
        data["awards"] = [row for _, _, row in sorted(rows, key=lambda r: (r[0], r[1]))]
        data["award_ties"] = data.get("award_ties") or "split"
        return data


class RestoreForm(forms.Form):
    """A night file the host downloaded (from this laptop or another)."""

    MAX_BYTES = 20 * 1024 * 1024

    file = forms.FileField(error_messages={"required": "choose a night file to open",
                                           "empty": "that file is empty"})

    def clean_file(self):
        from bunco.laptop.backup import read_night_file

        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError("that file is too big to be a night file")
        try:
            return read_night_file(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise forms.ValidationError(
                "that is not a night file (download one from a night's page)") from None


#: What the desk's one box takes: a name typed, or a guest's card link a scanner typed.
DESK_CHARS = 300


class DeskForm(forms.Form):
    q = forms.CharField(max_length=DESK_CHARS, strip=True, error_messages={
        "required": "type a guest's name, or scan their card",
        "max_length": "that is too long for a name or a card's link: type a name, or scan "
                      "the card again"})


class DeskCloseForm(forms.Form):
    """When the desk stops checking guests in: a time today (HH:MM), now, or reopen."""

    closes = forms.TimeField(required=False, input_formats=["%H:%M", "%H:%M:%S", "%H.%M"],
                             error_messages={"invalid": "type the closing time as 20:30"})
    now = forms.BooleanField(required=False)
    reopen = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if not self.errors and not (data.get("closes") or data.get("now")
                                    or data.get("reopen")):
            raise forms.ValidationError("type the closing time as 20:30")
        return data


def agreed_shares(post, contenders) -> dict[str, int] | None:
    """The percents the tied players agreed (``share_<i>``, in the contenders' order); none
    typed: an even split."""
    typed = [post.get(f"share_{i}", "").strip().rstrip("%").strip()
             for i in range(len(contenders))]
    if not any(typed):
        return None
    if not all(t.isascii() and t.isdigit() and len(t) <= 3 for t in typed):
        raise CommandRefused("type each player's share as a whole percent, e.g. 60 and 40")
    return {name: int(t) for name, t in zip(contenders, typed, strict=True)}


def award_rows(rules: HouseRules, typed=None) -> list[dict]:
    """The prize list's rows as the prizes page shows them: the night's prizes and two empty
    rows, or (``typed``: a list the app refused) every row as the host sent it, to fix."""
    blank = [{"category": "", "share": "", "prize": "", "ties": "", "travels": False}] * 2
    if typed is None:
        return [{"category": str(a.category), "share": a.share_percent or "", "prize": a.prize,
                 "ties": a.ties.value if a.ties else "", "travels": a.travels}
                for a in rules.awards] + blank
    try:
        count = min(int(typed.get("rows", 0)), MAX_PRIZES + 2)
    except ValueError:
        count = 0
    sent = [{"order": typed.get(f"order_{i}", ""), "category": typed.get(f"category_{i}", ""),
             "share": typed.get(f"share_{i}", ""), "prize": typed.get(f"prize_{i}", ""),
             "ties": typed.get(f"ties_{i}", ""), "travels": bool(typed.get(f"travels_{i}")),
             "remove": bool(typed.get(f"remove_{i}"))} for i in range(max(count, 0))]
    return [r for r in sent if r["category"] or r["share"] or r["prize"]] + blank
