"""The registry's forms: a player's record, and the search for the record to merge with."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player


class PlayerForm(forms.ModelForm):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(), required=False)

    class Meta:
        model = Player
        fields = ["last_name", "first_name", "club", "federation_id", "rating", "sex",
                  "birth_year"]  # fmt: skip
        help_texts = {
            "rating": _("The imported rating: the seeding of round 1 uses it when a player has "
                        "no club rating yet."),
            "sex": _("For the categories of a prize list (women…)."),
            "birth_year": _("For the categories of a prize list (veterans, juniors)."),
        }


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Last name begins with"), max_length=100, required=False)
