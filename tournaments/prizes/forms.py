"""The organiser's forms of the prizes page (parsed here, decided by ``prizes.services``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Category, Club, Entry, Player, Prize, Tournament


class SettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["prize_priority", "prize_ties", "club_best"]


class CategoryForm(forms.ModelForm):
    entries = forms.ModelMultipleChoiceField(
        label=_("Entries"), queryset=Entry.objects.none(), required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only when the organiser chooses the entries."),
    )  # fmt: skip

    class Meta:
        model = Category
        fields = ["name", "order", "sex", "age_min", "age_max", "age_on", "rating_min",
                  "rating_max", "club", "members", "entries"]  # fmt: skip
        widgets = {"age_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the clubs of this tournament's entries and players, not the whole registry
        in_event = Q(entries__tournament=tournament) | Q(players__entries__tournament=tournament)
        self.fields["club"].queryset = Club.objects.filter(in_event).distinct()
        self.fields["entries"].queryset = Entry.objects.filter(
            tournament=tournament, team__isnull=True).order_by("name")  # fmt: skip
        self.instance.tournament = tournament

    def fields_for_service(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {name: data.get(name) for name in self.Meta.fields if name != "entries"}


class PrizeForm(forms.Form):
    category = forms.ModelChoiceField(label=_("List"), queryset=Category.objects.none(),
                                      required=False, empty_label=_("Overall standings"))
    place = forms.IntegerField(label=_("Place"), min_value=1, max_value=1000)
    amount = forms.DecimalField(label=_("Value"), min_value=0, max_digits=10, decimal_places=2,
                                initial=0, help_text=Prize._meta.get_field("amount").help_text)
    text = forms.CharField(label=_("Prize"), max_length=200, required=False,
                           help_text=_("A cup, a medal, a book… (optional)"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].queryset = tournament.categories.all()


class PlayersForm(forms.Form):
    """Sex and year of birth of each player of the tournament, one row of fields each."""

    def __init__(self, *args: Any, players: list[Player], locked: set[int] = frozenset(),
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        self.players = players
        self.locked = locked  # shared with another organiser's tournament: shown, not changed
        for player in players:
            self.fields[f"sex_{player.pk}"] = forms.ChoiceField(
                label=_("Sex"), required=False, initial=player.sex,
                choices=[("", "—"), *Player.Sex.choices])  # fmt: skip
            self.fields[f"year_{player.pk}"] = forms.IntegerField(
                label=_("Year of birth"), required=False, min_value=1900, max_value=2100,
                initial=player.birth_year)  # fmt: skip
            if player.pk in locked:
                self.fields[f"sex_{player.pk}"].disabled = True
                self.fields[f"year_{player.pk}"].disabled = True

    def rows(self) -> list[tuple[Player, forms.BoundField, forms.BoundField]]:
        return [(p, self[f"sex_{p.pk}"], self[f"year_{p.pk}"]) for p in self.players]

    def values(self) -> dict[int, tuple[str, int | None]]:
        data = self.cleaned_data
        return {p.pk: (data.get(f"sex_{p.pk}") or "", data.get(f"year_{p.pk}"))
                for p in self.players}  # fmt: skip
