"""Public season pages: the list of seasons, a season's table, its CSV and XLSX.

Anyone may read a public season; a season that is not public is a 404 for everybody but staff.
Only public tournaments count in it (``table``).
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views import View

from tournaments.models import Season
from tournaments.results import exports
from tournaments.seasons.table import season_sheet, season_table


def visible_seasons(request: HttpRequest) -> QuerySet[Season]:
    user = request.user
    if user.is_authenticated and user.is_active and user.is_staff:
        return Season.objects.all()
    return Season.objects.filter(public=True)


class SeasonListView(View):
    def get(self, request: HttpRequest) -> HttpResponse:
        # only public tournaments count in a season, and only they are counted here
        seasons = visible_seasons(request).annotate(
            counted=Count("tournaments", filter=Q(tournaments__public=True)))
        return render(request, "tournaments/seasons/list.html", {"seasons": seasons})


class SeasonView(View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        season = get_object_or_404(visible_seasons(request), pk=pk)
        table = season_table(season)
        rows = [(line, [table.cell(line, t) for t in table.tournaments]) for line in table.lines]
        return render(request, "tournaments/seasons/season.html",
                      {"season": season, "table": table, "rows": rows})  # fmt: skip


class SeasonExportView(View):
    def get(self, request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
        season = get_object_or_404(visible_seasons(request), pk=pk)
        return exports.response(season_sheet(season_table(season)), fmt)
