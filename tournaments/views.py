"""Public pages: public tournaments, a tournament's page, a published round. Need no login."""

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.views.generic import DetailView, ListView

from tournaments import selectors, services
from tournaments.models import Round, Tournament


class HomeView(ListView):
    template_name = "tournaments/home.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.public_tournament_list()


class TournamentDetailView(DetailView):
    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournament_with_entries(selectors.visible_tournaments(self.request.user))

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["entries"] = list(self.object.entries.all())
        published = (Round.Status.PUBLISHED, Round.Status.FINISHED)
        context["rounds"] = list(self.object.round_set.filter(status__in=published))
        context["can_manage"] = services.can_manage(self.request.user, self.object)
        return context


class RoundPairingsView(DetailView):
    """A published round's tables: who sits where (players find their table and seat)."""

    template_name = "tournaments/round_pairings.html"
    context_object_name = "round"

    def get_object(self, queryset: QuerySet[Round] | None = None) -> Round:
        visible = selectors.visible_tournaments(self.request.user)
        published = (Round.Status.PUBLISHED, Round.Status.FINISHED)
        rounds = Round.objects.filter(tournament__in=visible, tournament_id=self.kwargs["pk"],
                                      number=self.kwargs["number"], status__in=published)
        round_ = selectors.round_with_pairings(rounds).first()
        if round_ is None:
            raise Http404
        return round_

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        pairings = list(self.object.pairings.all())
        context["tournament"] = self.object.tournament
        context["tables"] = [p for p in pairings if p.table]
        context["byes"] = [p for p in pairings if not p.table]
        return context
