"""The live board of a round: its organisers' and chief referees' page (403 for anyone else,
404 when the tournament is hidden from them); ``/manage/<id>/board/`` is the board of the round
being played. ``?fragment=1`` answers the part the page's
script re-reads when the server says the board changed (``static/js/live.js``); bad filters
are named above the board and ignored (400)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import access
from tournaments.http import ManageView, judges_refusal
from tournaments.live import board as tiles


class BoardView(ManageView):
    def allowed(self) -> bool:
        return access.can_judge(self.request.user, self.tournament)

    def refusal(self) -> str:
        return judges_refusal()

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        filters, errors = tiles.parse_filters(request.GET)
        context: dict[str, Any] = {
            "round": round_,
            "board": tiles.board(round_, filters),
            "errors": errors,
            "states": tiles.STATES,
            "fragment_url": f"{request.path}?{_fragment_query(request)}",
            "socket_path": f"/ws/live/{self.tournament.pk}/staff/",
        }
        status = 400 if errors else 200
        if request.GET.get("fragment"):
            return render(request, "tournaments/live/_board.html",
                          {"tournament": self.tournament, **context}, status=status)  # fmt: skip
        return self.render("live/board.html", status=status, **context)


def _fragment_query(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["fragment"] = "1"
    return query.urlencode()


class CurrentBoardView(BoardView):
    """The board of the round being played (the latest published one, else the latest): the
    link the tournament's pages give, which follows the event from round to round."""

    def get(self, request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
        rounds = self.tournament.round_set.order_by("-number")
        current = rounds.filter(status="published").first() or rounds.first()
        if current is None:
            raise Http404
        return super().get(request, pk, current.number)
