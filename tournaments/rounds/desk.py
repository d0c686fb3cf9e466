"""What needs the chief referee now, across the tournaments he judges: the home section of
«My tournaments» (``/manage/``, ``HomeView``: registration's list of tournaments with it),
where the chief's guide starts.

    desk_work(user) -> DeskWork

- protocols handed in and waiting for confirmation (the oldest first, each with its confirm
  page), and their count;
- tables with a problem: a published round's table not started yet, or whose captain's PIN has
  no tries left (only the desk confirms it now);
- each judged tournament with its discipline page and its current round.

Reads the matches of the judged tournaments' published rounds in one query, and the current
rounds in another; organisers see the same for the tournaments they run (they judge them too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.models import Match
from scoring.services import MAX_PIN_FAILURES
from tournaments import access
from tournaments.models import Round, Tournament
from tournaments.registration.views import ManageListView


@dataclass
class DeskWork:
    waiting: list[Match] = field(default_factory=list)
    not_started: list[Match] = field(default_factory=list)
    pin_locked: list[Match] = field(default_factory=list)
    tournaments: list[dict[str, Any]] = field(default_factory=list)

    @property
    def problems(self) -> int:
        return len(self.not_started) + len(self.pin_locked)


def desk_work(user: Any) -> DeskWork:
    judged = list(access.judged_tournaments(user).exclude(status=Tournament.Status.FINISHED)
                  .order_by("name"))  # fmt: skip
    work = DeskWork()
    if not judged:
        return work
    shown = (Round.Status.PUBLISHED, Round.Status.FINISHED)  # a round players may open
    latest = dict(Round.objects.filter(tournament__in=judged, status__in=shown)
                  .values("tournament")
                  .annotate(n=Max("number")).values_list("tournament", "n"))  # fmt: skip
    work.tournaments = [{"tournament": t, "round": latest.get(t.pk)} for t in judged]
    matches = (Match.objects.filter(
        pairing__round__tournament__in=judged,
        pairing__round__status=Round.Status.PUBLISHED,
    ).select_related("pairing__round__tournament", "referee")
        .order_by("submitted_at", "pairing__round__tournament__name", "pk"))  # fmt: skip
    for match in matches:
        if match.status == Match.Status.SUBMITTED:
            work.waiting.append(match)
            if match.pin_failures >= MAX_PIN_FAILURES:
                work.pin_locked.append(match)
        elif match.status == Match.Status.DRAFT:
            work.not_started.append(match)
    return work


class HomeView(ManageListView):
    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "tournaments/registration/list.html",
                      {**self.context(request), "desk": desk_work(request.user)})
