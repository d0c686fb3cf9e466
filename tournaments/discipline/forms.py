"""HTML forms of the discipline page: they parse; ``discipline.services`` decides."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    MAX_SANCTION_GAME_POINTS,
    MAX_SANCTION_MATCH_POINTS,
    Entry,
    Player,
    Sanction,
    Tournament,
)


class SanctionForm(forms.Form):
    """A sanction of the chief referee; ``discipline.services.record_sanction`` checks the rest."""

    entry = forms.ModelChoiceField(label=_("Entry"), queryset=Entry.objects.none())
    player = forms.ModelChoiceField(
        label=_("Player (optional)"), queryset=Player.objects.none(), required=False,
        help_text=_("A player of that entry, when the sanction is personal."),
    )  # fmt: skip
    round_number = forms.IntegerField(label=_("Round"), min_value=1)
    kind = forms.ChoiceField(label=_("Kind"), choices=Sanction.Kind.choices)
    match_points = forms.IntegerField(label=_("Match points deducted"), min_value=0,
                                      max_value=MAX_SANCTION_MATCH_POINTS, required=False,
                                      initial=0)  # fmt: skip
    game_points = forms.IntegerField(
        label=_("Points deducted"), min_value=0, max_value=MAX_SANCTION_GAME_POINTS,
        required=False, initial=0,
        help_text=_("Cards: empty or 0 deducts what the tournament sets for the card."),
    )  # fmt: skip
    table = forms.IntegerField(
        label=_("Table (forfeit)"), min_value=1, required=False,
        help_text=_("For a forfeit: the table the entry did not play (checked)."),
    )  # fmt: skip
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.order_by("seed", "name")
        self.fields["entry"].queryset = entries  # type: ignore[attr-defined]
        self.fields["player"].queryset = (  # type: ignore[attr-defined]
            Player.objects.filter(entries__tournament=tournament).distinct()
        )


class RevokeForm(forms.Form):
    reason = forms.CharField(label=_("Why it is revoked"), max_length=2000)
