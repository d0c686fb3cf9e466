"""HTML forms of the scoring pages: they parse what was typed or tapped and nothing more.

``DealForm`` turns the referee's page (tile picker or pip entry; the same fields without
JavaScript) into a deal in the rules contract's shape (RULES.md section 13). Whether the deal is
legal is for the services to say, through the rules engine; a form never judges or scores.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.inputs import BadJSON, load_json
from rules.games import at_table, find_game
from rules.presets import SEATS
from scoring.games import make_match_rules
from scoring.rules_words import GAME_NAMES
from scoring.sheet import seat_label, side_label

RESULT_CHOICES = [
    ("domino", _("domino")),
    ("fish", _("fish")),
    ("redeal", _("redeal")),
]
MODE_CHOICES = [("tiles", _("tiles")), ("pips", _("pips"))]
#: the finishing move of a club game, as far as the special endings need it (RULES.md 29)
FINISH_CHOICES = [("", _("another tile")), ("0:0", "0:0"), ("6:6", "6:6"),
                  ("0:0 6:6", _("0:0 and 6:6 together"))]
#: the lead of a «Морской козёл» (003) deal: as the rules name it, or a quick one (section 27)
LEAD_CHOICES = [("", _("as usual")), ("6:6", _("quick, 6:6")), ("0:0", _("quick, 0:0")),
                ("6:6 0:0", _("«внеочередной»: 6:6 and 0:0"))]


def number_input(**attrs: Any) -> forms.TextInput:
    """A field for a whole number typed on a phone's or a laptop's digits: no spinner, no «e»."""
    return forms.TextInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*",
                                  "autocomplete": "off", **attrs})


class DealForm(forms.Form):
    result = forms.ChoiceField(label=_("Result"), choices=RESULT_CHOICES,
                               widget=forms.RadioSelect,
                               error_messages={"required": _("Choose how the deal ended.")})
    by = forms.ChoiceField(label=_("Who went out"), required=False, widget=forms.RadioSelect)
    leader = forms.CharField(required=False, max_length=1, widget=forms.HiddenInput)
    mode = forms.ChoiceField(label=_("Hands written as"), choices=MODE_CHOICES, initial="tiles",
                             required=False, widget=forms.RadioSelect)
    time_up = forms.BooleanField(label=_("Time ran out after this deal"), required=False)
    client_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: tuple[str, ...] = ("N", "E", "S", "W"),
                 sides: tuple[str, ...] = (), asks: frozenset[str] = frozenset(),
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.sides = sides
        # what a club game needs beyond section 5's record (``scoring.games.sheet_asks``)
        if "finish" in asks:
            self.fields["finish"] = forms.ChoiceField(
                label=_("Went out with"), required=False, choices=FINISH_CHOICES,
                widget=forms.RadioSelect)
        if "lead" in asks:
            self.fields["lead_kind"] = forms.ChoiceField(
                label=_("Lead of this deal"), required=False, choices=LEAD_CHOICES,
                widget=forms.RadioSelect)
        for side in sides:
            # what the referee announced for each side, when he does (RULES.md section 5)
            self.fields[f"declared_{side}"] = forms.IntegerField(
                label=side_label(side), required=False, min_value=0, max_value=9999,
                widget=number_input(placeholder="—"),
            )  # fmt: skip
        self.fields["by"].choices = [("", "—")] + [(s, seat_label(s)) for s in seats]
        for seat in seats:
            self.fields[f"hand_{seat}"] = forms.CharField(
                label=_("Tiles of %(seat)s") % {"seat": seat_label(seat)}, required=False,
                max_length=200,
                widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false",
                                              "placeholder": "6:4 2:0"}),
            )  # fmt: skip
            self.fields[f"pips_{seat}"] = forms.IntegerField(
                label=_("Pips of %(seat)s") % {"seat": seat_label(seat)}, required=False,
                min_value=0, max_value=999,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )  # fmt: skip

    def hand_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(s, self[f"hand_{s}"], self[f"pips_{s}"]) for s in self.seats]

    def declared_inputs(self) -> list[forms.BoundField]:
        return [self[f"declared_{side}"] for side in self.sides]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") == "domino" and not data.get("by"):
            self.add_error("by", _("Choose who went out."))
        return data

    def deal(self) -> dict[str, Any]:
        """The contract's deal for the cleaned data (call after ``is_valid()``)."""
        data = self.cleaned_data
        result = data["result"]
        deal: dict[str, Any] = {"result": result}
        by = data.get("by") or ""
        if by and result != "redeal":
            deal["by"] = by
        if data.get("leader") in self.seats:
            deal["leader"] = data["leader"]
        finisher = by if result == "domino" else ""
        if data.get("mode") == "pips":
            # A seat left blank stays out: the engine names it (missing_hand).
            pips = {s: data[f"pips_{s}"] for s in self.seats
                    if s != finisher and data.get(f"pips_{s}") is not None}
            if pips:
                deal["pips"] = pips
        else:
            hands = {s: " ".join(data[f"hand_{s}"].split()) for s in self.seats
                     if s != finisher and data.get(f"hand_{s}", "").strip()}
            if hands:
                deal["hands"] = hands
        if data.get("time_up"):
            deal["time_up"] = True
        if data.get("finish") and result == "domino":
            deal["last_tiles"] = data["finish"]
        if data.get("lead_kind") and result != "redeal":
            deal["lead_tile"] = data["lead_kind"]
        declared = {side: data[f"declared_{side}"] for side in self.sides
                    if data.get(f"declared_{side}") is not None}
        if declared:
            # a side left blank announced nothing: 0 (RULES.md section 12)
            deal["declared"] = {side: declared.get(side, 0) for side in self.sides}
        return deal

    def club_fields(self) -> list[forms.BoundField]:
        """The club game's extra questions this form asks (``sheet_asks``), in page order."""
        return [self[name] for name in ("lead_kind", "finish") if name in self.fields]


class CorrectionDealForm(DealForm):
    """One deal of a protocol being corrected, in the tile picker (``static/js/correction.js``
    reads it into the protocol; the page posts the whole protocol as ``CorrectionForm``): the
    referee's fields, and the leader, the lead tile and the finishing tiles, which the desk may
    have to put right too."""

    leader = forms.ChoiceField(label=_("Led"), required=False)  # type: ignore[assignment]
    lead_tile = forms.CharField(label=_("Lead tile"), required=False, max_length=20,
                                widget=forms.TextInput(attrs={"placeholder": "6:4"}))
    last_tiles = forms.CharField(label=_("Finishing tile"), required=False, max_length=20,
                                 widget=forms.TextInput(attrs={"placeholder": "5:0"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["leader"].choices = [("", "—")] + [(s, seat_label(s)) for s in self.seats]
        for name in ("client_id", "expected_version"):
            del self.fields[name]


#: a tile written on paper: "6:4", "6-4", "6.4", "6/4" (a keyboard's digits and a separator)
_PAPER_TILE = re.compile(r"^([0-6])[:\-./|]([0-6])$")


class PaperDealForm(forms.Form):
    """One deal as written on a paper protocol (the desk's copy, ``scoring.views.transcription``):
    how it ended, who went out, the points written for each side, and what was left in each
    hand — tiles ("6:4 2:0", "6-4 2.0"), or one number, the hand's pips. A row left blank is
    no deal. The rules judge the deal; the form only reads it."""

    result = forms.ChoiceField(label=_("Result"), required=False,
                               choices=[("", "—"), *RESULT_CHOICES])
    by = forms.ChoiceField(label=_("Who went out"), required=False)
    time_up = forms.BooleanField(label=_("Time"), required=False)
    key = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: tuple[str, ...] = ("N", "E", "S", "W"),
                 sides: tuple[str, ...] = ("NS", "EW"), finish: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats, self.sides = seats, sides
        self.fields["by"].choices = [("", "—")] + [(s, seat_label(s)) for s in seats]
        if finish:  # a club game whose special endings hang on the finishing tiles
            self.fields["finish"] = forms.ChoiceField(
                label=_("Went out with"), required=False,
                choices=[("", "—"), *FINISH_CHOICES[1:]])
        for side in sides:
            self.fields[f"written_{side}"] = forms.IntegerField(
                label=_("Written %(side)s") % {"side": side_label(side)}, required=False,
                min_value=0, max_value=9999, widget=number_input(size=4),
            )  # fmt: skip
            # what the paper said, kept when the desk accepts the rules' amount instead
            self.fields[f"paper_{side}"] = forms.IntegerField(
                required=False, min_value=0, max_value=9999, widget=forms.HiddenInput)
        for seat in seats:
            self.fields[f"hand_{seat}"] = forms.CharField(
                label=_("Hand %(seat)s") % {"seat": seat_label(seat)}, required=False,
                max_length=60,
                widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false",
                                              "size": 9}),
            )  # fmt: skip
        # A grid field has no label of its own: a screen reader names it by its row («Deal 3»,
        # the row's number cell) and its column's header (transcribe.html gives them these ids).
        for name, field in self.fields.items():
            if not field.widget.is_hidden:
                field.widget.attrs["aria-labelledby"] = (
                    f"paper-deal {self.add_prefix('n')} paper-col-{name}")

    def written(self) -> list[forms.BoundField]:
        return [self[f"written_{side}"] for side in self.sides]

    def hands(self) -> list[forms.BoundField]:
        return [self[f"hand_{seat}"] for seat in self.seats]

    def finish_field(self) -> forms.BoundField | None:
        return self["finish"] if "finish" in self.fields else None

    def papers(self) -> list[forms.BoundField]:
        return [self[f"paper_{side}"] for side in self.sides]

    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return not any(v for k, v in data.items() if k != "key")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("result") and any(v for k, v in data.items() if k != "key"):
            self.add_error("result", _("Choose how the deal ended."))
        elif data.get("result") == "domino" and not data.get("by"):
            self.add_error("by", _("Choose who went out."))
        return data

    def deal(self) -> dict[str, Any]:
        """The contract's deal (call after ``is_valid()`` on a row that is not blank)."""
        data = self.cleaned_data
        deal: dict[str, Any] = {"result": data["result"]}
        if data.get("by") and data["result"] != "redeal":
            deal["by"] = data["by"]
        hands: dict[str, str] = {}
        pips: dict[str, int] = {}
        for seat in self.seats:
            text = " ".join(data.get(f"hand_{seat}", "").split())
            if text.isdecimal():
                pips[seat] = int(text)
            elif text:
                hands[seat] = " ".join(_paper_tile(token) for token in text.split())
        if hands:
            deal["hands"] = hands
        if pips:
            deal["pips"] = pips
        written = {side: data[f"written_{side}"] for side in self.sides
                   if data.get(f"written_{side}") is not None}
        if written:
            deal["declared"] = {side: written.get(side, 0) for side in self.sides}
        if data.get("time_up"):
            deal["time_up"] = True
        if data.get("finish") and data["result"] == "domino":
            deal["last_tiles"] = data["finish"]
        return deal

    def note(self) -> str:
        """For the deal's history: the paper's amounts the desk replaced by the rules'."""
        data = self.cleaned_data
        changed = [(side, data[f"paper_{side}"], data.get(f"written_{side}") or 0)
                   for side in self.sides if data.get(f"paper_{side}") is not None
                   and data[f"paper_{side}"] != (data.get(f"written_{side}") or 0)]
        return "; ".join(
            _("on paper %(side)s %(paper)s, accepted by the rules %(rules)s")
            % {"side": side_label(side), "paper": paper, "rules": rules}
            for side, paper, rules in changed
        )


def _paper_tile(token: str) -> str:
    match = _PAPER_TILE.match(token)
    return f"{match[1]}:{match[2]}" if match else token


class SubmitForm(forms.Form):
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class PinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN for the opposing captain"), max_length=8,
        help_text=_("4 to 8 digits. Give it to the captain privately, not to the referee."),
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )  # fmt: skip


class ConfirmForm(forms.Form):
    pin = forms.CharField(
        label=_("Captain's PIN"), required=False, max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )  # fmt: skip


class CorrectionForm(forms.Form):
    """A confirmed protocol's deals, one JSON object per line, and the reason for the change."""

    deals = forms.CharField(label=_("Deals (one JSON object per line)"),
                            widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}))
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    @staticmethod
    def lines(records: list[Any]) -> str:
        """Deal records as the field holds them: one JSON object per line."""
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in records)

    def clean_deals(self) -> list[Any]:
        out = []
        for number, line in enumerate(self.cleaned_data["deals"].splitlines(), start=1):
            if not line.strip():
                continue
            try:
                out.append(load_json(line))
            except BadJSON as err:
                # too deep or NUL says so; anything else is "not JSON"
                if err.code == "bad_json":
                    message = _("Line %(n)s is not a JSON object.") % {"n": number}
                else:
                    message = _("Line %(n)s: %(problem)s") % {"n": number, "problem": err.message}
                raise forms.ValidationError(message, code=err.code) from err
        return out


class MatchForm(forms.Form):
    """A standalone match (a friendly, a club evening): a label, a table and names are enough;
    how many play, where the game allows 2, 3 or 4 (the seats follow: N and E for two, N, E, S
    for three)."""

    label = forms.CharField(label=_("Label"), max_length=200, required=False)
    table = forms.CharField(label=_("Table"), max_length=50, required=False)
    #: given when the form is drawn: the same form sent twice creates one match
    client_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    rules_preset = forms.ChoiceField(label=_("Rules"), initial="sport", choices=[
        (name, label) for name, label in GAME_NAMES.items() if at_table(name)])
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, required=False, widget=forms.RadioSelect,
        choices=[(2, "2"), (3, "3"), (4, "4")],
        help_text=_("Empty: as many as the game is usually played by."),
    )  # fmt: skip

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The seats' players are whatever the match's foreign keys point at (no app import);
        # only those the registry offers this user (an archive's players stay its importer's)
        from scoring.models import Match

        players = Match._meta.get_field("seat_n").related_model._default_manager.all()
        if hasattr(players, "offered_to"):
            players = players.offered_to(user)
        for seat in SEATS:
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat_label(seat)}, queryset=players,
                required=False,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("rules_preset")
        if not preset:
            return data
        low, high, usual = players_of(preset)
        count = data.get("players") or usual
        if not low <= count <= high:
            allowed = str(low) if low == high else f"{low}–{high}"
            self.add_error("players", _("%(game)s is played by %(allowed)s players.")
                           % {"game": GAME_NAMES.get(preset, preset), "allowed": allowed})
            return data
        data["players"] = count
        for seat in SEATS[count:]:  # a seat not in play: named, nothing created
            if data.get(f"seat_{seat}"):
                self.add_error(f"seat_{seat}", _(
                    "Seat %(seat)s does not play in a game of %(n)s players: leave it empty."
                ) % {"seat": seat_label(seat), "n": count})  # fmt: skip
        return data

    def create_kwargs(self) -> dict[str, Any]:
        """Arguments of ``services.create_match``."""
        data = self.cleaned_data
        return {
            "label": data["label"], "table": data["table"], "rules_preset": data["rules_preset"],
            "players": data["players"],
            "seats": {s: data[f"seat_{s}"] for s in SEATS},
            "client_id": data["client_id"],
        }


def players_of(preset: str) -> tuple[int, int, int]:
    """The fewest and most players of a game, and how many usually play it."""
    low, high = find_game(preset).players
    return low, high, make_match_rules(preset).players


def players_table() -> dict[str, list[int]]:
    """Each game at the table's [fewest, most, usual] players, for the form's script."""
    return {name: list(players_of(name)) for name in GAME_NAMES if at_table(name)}
