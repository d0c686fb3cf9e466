"""HTML forms of the setup and registration pages: they parse; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.roles import CHIEF_REFEREE
from config.inputs import JSONFormField
from tournaments.models import TIE_BREAKS, Club, Entry, Tournament

CARD_FIELDS = ("yellow_card_points", "red_card_points")
#: settings that keep the instance's value (or the default) when a form leaves them out
KEPT_WHEN_EMPTY = ("efectividad", "forfeit_win_percent", "forfeit_loss_percent", "bye_percent")

#: the presets in words (the same names as the new-match page's)
PRESET_NAMES = {
    "sport": _("Sports domino"), "kozel": _("Kozel"), "morskoy": _("Morskoy kozel"),
    "international": _("International"), "muggins": _("Muggins (fives)"), "fives": _("Fives"),
}


class TournamentForm(forms.ModelForm):
    tie_breaks = forms.CharField(
        label=_("Tie-breaks in order"), required=False,
        help_text=_("Comma-separated; empty: the preset's default order."),
    )  # fmt: skip

    class Meta:
        model = Tournament
        fields = [
            "name", "start_date", "end_date", "venue", "rules_preset", "rules_options",
            "format", "system", "rounds", "round_minutes", "points_win", "points_draw",
            "points_loss",
            "tie_breaks", "bye_result", "club_avoidance", "club_strict_until",
            "individual_federation", "first_round",
            "yellow_card_points", "red_card_points", "public", "efectividad",
            "forfeit_win_percent", "forfeit_loss_percent", "bye_percent", "seed_by_rating",
        ]  # fmt: skip
        # read with config.inputs.load_json: too deep or NUL is a form error, not a 500
        field_classes = {"rules_options": JSONFormField}
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "rules_options": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args: Any, presets: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if presets:
            self.fields["rules_preset"] = forms.ChoiceField(
                label=_("Rules preset"),
                choices=[(p, f"{PRESET_NAMES[p]} ({p})" if p in PRESET_NAMES else p)
                         for p in presets],
            )  # fmt: skip
        if self.instance.pk:
            self.initial["tie_breaks"] = ", ".join(self.instance.tie_breaks or [])
        for name in (*CARD_FIELDS, *KEPT_WHEN_EMPTY):
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in KEPT_WHEN_EMPTY:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)
        return data

    def _card_points(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        if value is None:  # left empty: the instance's value, or the default
            return int(getattr(self.instance, name))
        return int(value)

    def clean_yellow_card_points(self) -> int:
        return self._card_points("yellow_card_points")

    def clean_red_card_points(self) -> int:
        return self._card_points("red_card_points")

    def clean_rules_options(self) -> dict[str, Any]:
        """An emptied field means no overrides (the JSON field would give None)."""
        return self.cleaned_data.get("rules_options") or {}

    def clean_tie_breaks(self) -> list[str]:
        names = [n.strip() for n in (self.cleaned_data.get("tie_breaks") or "").split(",")]
        names = [n for n in names if n]
        unknown = [n for n in names if n not in TIE_BREAKS]
        if unknown:
            raise forms.ValidationError(_("Unknown tie-break: %(names)s.") %
                                        {"names": ", ".join(unknown)})  # fmt: skip
        return names

    def setup_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(), required=False)
    last_name_1 = forms.CharField(label=_("Player 1: last name"), required=False, max_length=100)
    first_name_1 = forms.CharField(label=_("first name"), required=False, max_length=100)
    last_name_2 = forms.CharField(label=_("Player 2: last name"), required=False, max_length=100)
    first_name_2 = forms.CharField(label=_("first name"), required=False, max_length=100)

    def new_players(self) -> list[tuple[str, str]]:
        data = self.cleaned_data
        return [(data[f"last_name_{i}"], data[f"first_name_{i}"]) for i in (1, 2)
                if data[f"last_name_{i}"]]  # fmt: skip


class EntryEditForm(forms.ModelForm):
    class Meta:
        model = Entry
        fields = ["name", "seed", "club", "joins_round"]


class AbsenceForm(forms.Form):
    round_number = forms.IntegerField(label=_("Round"), min_value=1)
    absent = forms.BooleanField(label=_("Absent"), required=False, initial=True)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)

    def clean_reason(self) -> str | None:
        """None when the page has no reason field (the registration table's short form):
        the reason already recorded stays instead of being erased by a field nobody saw."""
        if "reason" not in self.data:
            return None
        return str(self.cleaned_data["reason"])


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file (UTF-8)"))


class ChiefRefereesForm(forms.Form):
    """The tournament's chief referees, chosen among the users in the Chief referee role."""

    chief_referees = forms.ModelMultipleChoiceField(
        label=_("Chief referees"), required=False, widget=forms.CheckboxSelectMultiple,
        queryset=get_user_model().objects.none(),
        help_text=_("They confirm and correct this tournament's protocols and record its "
                    "sanctions; the role alone gives no rights in a tournament."),
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        users = get_user_model().objects.filter(groups__name=CHIEF_REFEREE, is_active=True)
        field = self.fields["chief_referees"]
        field.queryset = users.distinct().order_by("username")  # type: ignore[attr-defined]
        field.label_from_instance = lambda u: (  # type: ignore[attr-defined]
            f"{u.get_full_name()} ({u.get_username()})" if u.get_full_name() else u.get_username()
        )
