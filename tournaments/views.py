"""Public pages: the list of public tournaments and a tournament's page. Need no login."""

from typing import Any

from django.db.models import QuerySet
from django.views.generic import DetailView, ListView

from tournaments import selectors
from tournaments.models import Tournament


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
        return context
