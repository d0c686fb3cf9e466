"""The organiser's form of a substitute: who is replaced, by whom, for which rounds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Player, Tournament

ONE_ROUND, FROM_ON = "one", "on"


class SubstituteForm(forms.Form):
    replaced = forms.TypedChoiceField(label=_("Replaced player"), coerce=int)
    player = forms.TypedChoiceField(label=_("Substitute"), coerce=int)
    from_round = forms.IntegerField(label=_("Round"), min_value=1)
    scope = forms.ChoiceField(
        label=_("Which rounds"), initial=ONE_ROUND, widget=forms.RadioSelect,
        choices=[(ONE_ROUND, _("this round only")), (FROM_ON, _("this round and every later one"))],
    )  # fmt: skip
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args: Any, tournament: Tournament, user: Any = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE)
                       .prefetch_related("players").order_by("name"))  # fmt: skip
        # grouped by entry: «Пара: Фамилия Имя» in one line was cut off on a phone
        self.fields["replaced"].choices = [
            (e.name, [(p.pk, p.full_name) for p in e.players.all()]) for e in entries
        ]
        reserves = (candidates(tournament, user).select_related("club")
                    .order_by("last_name", "first_name", "pk")[:500])  # fmt: skip
        self.fields["player"].choices = [
            (p.pk, f"{p.full_name}" + (f" ({p.club.name})" if p.club else "")) for p in reserves
        ]
        self.fields["from_round"].max_value = tournament.rounds
        self.fields["from_round"].widget.attrs.update(max=tournament.rounds)

    def to_round(self) -> int | None:
        data = self.cleaned_data
        return data["from_round"] if data["scope"] == ONE_ROUND else None


def candidates(tournament: Tournament, user: Any) -> QuerySet[Player]:
    """Who may substitute in ``tournament`` (the form offers them, the service accepts only
    them): a reserve — no active entry here — of the entries' clubs or of no club, among the
    players ``user`` may be offered (``Player.objects.offered_to``: not another organiser's
    import), and not a player seen only in tournaments ``user`` may not see (another
    organiser's private event)."""
    from tournaments import access

    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    playing = Player.objects.filter(entries__in=active).values("pk")
    clubs = set(active.values_list("club_id", flat=True)) | set(
        Player.objects.filter(entries__in=active).values_list("club_id", flat=True))
    visible = access.visible_tournaments(user) if user is not None else Tournament.objects.none()
    hidden_only = (Player.objects.filter(entries__isnull=False)
                   .exclude(entries__tournament__in=visible).values("pk"))  # fmt: skip
    return (Player.objects.offered_to(user)
            .filter(Q(club_id__in=clubs - {None}) | Q(club__isnull=True))
            .exclude(pk__in=playing).exclude(pk__in=hidden_only))
