"""The public page of a «Генерал» rotation: who is at the table, who waits and in what order,
and the teams ranked by generals and lost deals (``standings``). Seen by whoever sees the
tournament's standings."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Tournament
from tournaments.results.views import TournamentPage
from tournaments.rotation import standings


class RotationView(TournamentPage):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        if self.tournament.system != Tournament.System.ROTATION:
            raise Http404
        lines = standings.table(self.tournament)
        queue = sorted((t for t in lines if t.place_in_queue is not None),
                       key=lambda t: t.place_in_queue or 0)
        return render(request, "tournaments/rotation/page.html", {
            "tournament": self.tournament, "lines": lines, "at_table": queue[:2],
            "waiting": queue[2:], "finished": self.tournament.status == "finished",
        })
