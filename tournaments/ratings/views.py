"""Public rating pages: the rating list and a player's rating history with its chart.

Anyone may read them: only public tournaments are rated (``services``), so no private match
shows through. A player without a rated match is a 404 here.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.models import DISPLAY_SCALE, Club, Player, PlayerRating, Tournament
from tournaments.ratings import jobs, selectors
from tournaments.ratings.chart import rating_svg


class RatingListView(View):
    def get(self, request: HttpRequest) -> HttpResponse:
        club = None
        raw = request.GET.get("club", "")
        if raw:
            if not raw.isdigit():
                raise Http404
            club = get_object_or_404(Club, pk=int(raw))
        ratings = selectors.rating_list(club.pk if club else None)
        clubs = Club.objects.filter(players__club_rating__isnull=False).distinct()
        # what counts (``ratings.services``): public, rated tournaments; an import arrives
        # unrated until a site administrator marks it rated
        counted = Tournament.objects.filter(public=True, rated=True).order_by("-start_date", "name")
        # as of when, and why not newer (a recompute queued, or the last one failed)
        job = jobs.status()
        return render(request, "tournaments/ratings/list.html",
                      {"ratings": ratings, "club": club, "clubs": clubs,
                       "counted": counted, "job": job})  # fmt: skip


class PlayerRatingView(View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
        rating = PlayerRating.objects.filter(player=player).first()
        if rating is None:
            raise Http404
        changes = selectors.rating_history(player.pk)
        if not changes:  # every rated match in a tournament made private since: nothing to show
            raise Http404
        points = [(changes[0].before, round(changes[0].sigma_before * DISPLAY_SCALE))]
        points += [(c.after, round(c.sigma_after * DISPLAY_SCALE)) for c in changes]
        title = _("Rating of %(name)s after each match") % {"name": player.full_name}
        return render(request, "tournaments/ratings/player.html", {
            "player": player, "rating": rating, "changes": list(reversed(changes)),
            "chart": rating_svg(points, title),
        })  # fmt: skip
