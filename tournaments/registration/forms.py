"""HTML forms of the setup and registration pages: they parse; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from accounts.roles import CHIEF_REFEREE
from scoring.rules_words import game_name
from tournaments import formats
from tournaments.models import TIE_BREAKS, Club, Entry, Tournament
from tournaments.models.registration import default_tie_breaks
from tournaments.registration import rules_form

CARD_FIELDS = ("yellow_card_points", "red_card_points")
#: settings that keep the instance's value (or the default) when a form leaves them out
KEPT_WHEN_EMPTY = ("efectividad", "forfeit_win_percent", "forfeit_loss_percent", "bye_percent",
                   "acceleration")

#: the setup's selects whose choices' full names do not fit a phone: short names and a note
SHORT_CHOICES: dict[str, tuple[list[tuple[str, Any]], Any]] = {
    "format": ([(Tournament.Format.PAIRS, _("Fixed pairs")),
                (Tournament.Format.INDIVIDUAL, _("Individual")),
                (Tournament.Format.TEAMS, _("Club teams")),
                (Tournament.Format.SINGLES, _("Head to head")),
                (Tournament.Format.FREE_FOR_ALL, _("Each for himself"))],
               _("Individual: partners drawn each round. Head to head: one player against one. "
                 "Each for himself: three or four players at a table.")),
    "first_round": ([(Tournament.FirstRound.SEED, _("by seed")),
                     (Tournament.FirstRound.LOT, _("by lot"))],
                    _("By seed: the top half of the list plays the bottom half.")),
}  # fmt: skip


class TournamentForm(forms.ModelForm):
    """The setup: the general fields as the model has them, the rules as a preset and its
    knobs (``rules_form``: typed fields, no JSON), the tie-breaks chosen and ordered from
    their names. ``setup_fields`` gives the services what they always took."""

    tie_breaks = forms.MultipleChoiceField(
        label=_("Tie-breaks in order"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=list(TIE_BREAKS.items()),
        help_text=_("Tick the tie-breaks to use and put them in order with the arrows; the "
                    "first decides first."),
    )  # fmt: skip

    class Meta:
        model = Tournament
        fields = [
            "name", "start_date", "end_date", "venue", "rules_preset",
            "format", "system", "rounds", "round_minutes", "points_win", "points_draw",
            "points_loss",
            "tie_breaks", "bye_result", "club_avoidance", "club_strict_until",
            "individual_federation", "first_round", "acceleration",
            "yellow_card_points", "red_card_points", "public", "efectividad",
            "forfeit_win_percent", "forfeit_loss_percent", "bye_percent", "seed_by_rating",
            "result_only_tables",
        ]  # fmt: skip
        help_texts = {
            # a new tournament is private until ticked: organisers wondered where it went
            "public": _("Only a public tournament is listed on the home page and open to "
                        "everyone; until this is ticked only its organisers, its chief "
                        "referees and the site's staff see it."),
            # the defaults differ (0 and 40) on purpose; say so where they are set
            "yellow_card_points": _("Points recorded taken off the offender's total in the "
                                    "standings. 0 (the default): a yellow card is a warning "
                                    "and deducts nothing."),
            "red_card_points": _("Points recorded taken off the offender's total in the "
                                 "standings; 40 by default. The chief may give another amount "
                                 "with each card."),
        }
        widgets = {
            # ISO values (type=date) keep the date whatever the page's language
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args: Any, presets: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = presets or rules_form.table_presets()
        self.fields["rules_preset"] = forms.ChoiceField(
            label=_("Rules preset"),
            choices=[(p, game_name(p)) for p in names],
            help_text=_("The knobs below take the preset's values when it is chosen."),
        )  # fmt: skip
        rules_form.add_knob_fields(self)
        preset = self.instance.rules_preset if self.instance.pk else "sport"
        self.initial.setdefault("rules_preset", preset)
        self.initial.update(rules_form.initial_values(
            preset, dict(self.instance.rules_options or {}) if self.instance.pk else {}))
        self.initial["tie_breaks"] = list(self.instance.tie_breaks or []) or (
            default_tie_breaks(preset))
        for name in (*CARD_FIELDS, *KEPT_WHEN_EMPTY):
            self.fields[name].required = False
        # A select shows only its chosen option, and a phone cut «по посеву (верхняя половина
        # против нижней)»: short names in the select, what they mean under it.
        for name, (choices, help_text) in SHORT_CHOICES.items():
            self.fields[name].choices = choices
            self.fields[name].help_text = help_text

    def knob_fields(self, engine: str) -> list[forms.BoundField]:
        prefix = f"{engine}_"
        return [self[name] for name in self.fields if name.startswith(prefix)
                and name.removeprefix(prefix) in rules_form.knob_table(engine)]  # fmt: skip

    def knob_fields_classic(self) -> list[forms.BoundField]:
        return self.knob_fields("classic")

    def knob_fields_fives(self) -> list[forms.BoundField]:
        return self.knob_fields("fives")

    def knob_fields_club(self) -> list[tuple[forms.BoundField, bool]]:
        """The club games' knobs, each with whether the chosen game takes it (the others
        are hidden; the page's script shows a game's own when the game changes)."""
        taken = rules_form.takes(str(self["rules_preset"].value() or ""))
        return [(bound, bound.name.removeprefix("clubgame_") in taken)
                for bound in self.knob_fields("clubgame")]

    def general_fields(self) -> list[forms.BoundField]:
        """Every field but the rules and the tie-breaks, in the form's order (a setting added
        to the model's form shows here without a change to the template)."""
        special = {"rules_preset", "tie_breaks"}
        return [self[name] for name in self.fields if name not in special
                and not name.startswith(tuple(f"{e}_" for e in rules_form.ENGINES))]  # fmt: skip

    def tie_break_rows(self) -> list[dict[str, Any]]:
        """The tie-breaks as the page lists them: the chosen ones first, in their order."""
        value = self["tie_breaks"].value() or []
        chosen = [n for n in value if n in TIE_BREAKS]
        shown = getattr(self, "tie_order", None) or chosen  # as the page had them, if sent
        order = [n for n in shown if n in TIE_BREAKS]
        order += [n for n in TIE_BREAKS if n not in order]
        return [{"name": n, "label": TIE_BREAKS[n], "help": rules_form.TIE_BREAK_HELP.get(n, ""),
                 "checked": n in chosen} for n in order]  # fmt: skip

    def engine(self) -> str:
        return rules_form.engine_of(str(self["rules_preset"].value() or "sport"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in KEPT_WHEN_EMPTY:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)
        preset = data.get("rules_preset")
        if not preset:
            return data
        data["rules_options"] = rules_form.overrides(preset, data)
        # the default order of the preset stays "the preset's" (empty), as it always was
        if data.get("tie_breaks") == default_tie_breaks(preset):
            data["tie_breaks"] = []
        self._check_rules(preset, data)
        return data

    def _check_rules(self, preset: str, data: dict[str, Any]) -> None:
        """The engine's and the format's refusals shown at the field they concern."""
        if not data.get("format") or not data.get("system"):
            return
        lang = "en" if (get_language() or "ru").startswith("en") else "ru"
        try:
            formats.check(preset, data["rules_options"], data["format"], data["system"])
        except formats.SetupProblem as problem:
            message = problem.message(lang)
            if problem.code == "format_preset":  # the presets by their names, not identifiers
                message = _("The format «%(format)s» cannot be played with the rules "
                            "«%(preset)s»; it can with: %(allowed)s.") % {
                    "format": dict(Tournament.Format.choices).get(data["format"], data["format"]),
                    "preset": game_name(preset),
                    "allowed": ", ".join(f"«{game_name(p)}»"
                                         for p in formats.ALLOWED[data["format"]])}
            self.add_error(problem.field if problem.field in self.fields else "rules_preset",
                           message)  # fmt: skip
        except formats.RulesError as err:
            knob = rules_form.field_name(rules_form.engine_of(preset),
                                         str(err.problem.extra.get("option", "")))
            self.add_error(knob if knob in self.fields else "rules_preset",
                           err.problem.message(lang))  # fmt: skip
        else:
            # the model's own check (``Tournament.clean``, after this one, on the instance) must
            # see the overrides typed here: «на вылет» depends on one (the match's ``end``)
            self.instance.rules_options = data["rules_options"]

    def _card_points(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        if value is None:  # left empty: the instance's value, or the default
            return int(getattr(self.instance, name))
        return int(value)

    def clean_yellow_card_points(self) -> int:
        return self._card_points("yellow_card_points")

    def clean_red_card_points(self) -> int:
        return self._card_points("red_card_points")

    def setup_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in (*self.Meta.fields, "rules_options")}


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200, required=False,
                           help_text=_("Empty: named after its players («Иванов – Петров»)."))
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
