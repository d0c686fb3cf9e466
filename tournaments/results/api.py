"""Read-only results API: standings, crosstable and a player's history (no login for public
tournaments; a tournament the caller may not see is a 404).

    GET /api/v1/tournaments/{id}/standings/?round=N&scope=entries|teams|players
    GET /api/v1/tournaments/{id}/crosstable/?round=N&scope=…
    GET /api/v1/players/{id}/history/

``round`` is a published or finished round (default: the latest); a finished round answers its
snapshot (``"source": "snapshot"``), otherwise the table is computed now (``"live"``). A bad
round or scope is a 400 ``bad_round``/``bad_scope`` in the common error format
``{"errors": [{"code", "message", "field"}]}``. The serializers below only document the answers;
the data comes from ``results.display``, ``results.crosstable`` and ``results.history``, as on the
pages and in the exports.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access
from tournaments.errors import TournamentError
from tournaments.models import Player, Tournament
from tournaments.results import crosstable, display
from tournaments.results.history import HistoryMatch, history_tournaments, player_history
from tournaments.standings import TIEBREAKS

# --- what the answers look like (documentation) -------------------------------------------------


class ResultsErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)


class ResultsErrorsSerializer(serializers.Serializer):
    errors = ResultsErrorItemSerializer(many=True)


class ParticipantSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entry (the player in the players table).")
    name = serializers.CharField()
    club = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(),
        help_text="The entry's players (in the players table: the entry the player plays for).",
    )


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = ParticipantSerializer()
    match_points = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Rounds scored as a win (byes, forfeits included).")
    games_won = serializers.IntegerField(help_text="Wins over the table.")
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    difference = serializers.IntegerField()
    deals_won = serializers.IntegerField()
    efectividad = serializers.FloatField()
    buchholz = serializers.FloatField()
    buchholz_cut1 = serializers.FloatField()
    median_buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    progressive = serializers.IntegerField()
    head_to_head = serializers.FloatField()
    lot = serializers.IntegerField()
    tiebreaks = serializers.ListField(
        child=serializers.FloatField(), help_text="The values of ``order`` then the lot."
    )
    pending = serializers.IntegerField(help_text="Tables of this entry still in play (live).")
    deducted = serializers.IntegerField(
        help_text="Match points taken off by sanctions (already out of match_points)."
    )
    deducted_points = serializers.IntegerField(
        help_text="Points recorded taken off by sanctions (already out of points_for)."
    )


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField(help_text="After this round (0: none played yet).")
    scope = serializers.ChoiceField(choices=display.SCOPES)
    source = serializers.ChoiceField(choices=["snapshot", "live"])
    order = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS))
    pending_tables = serializers.IntegerField()
    rows = StandingsRowSerializer(many=True)


CELL_KINDS = (
    "played, pending (the table is still in play), bye, forfeit_win, forfeit_loss, absent or "
    "withdrawn"
)


class OpponentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


class CrossCellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    kind = serializers.CharField(help_text=CELL_KINDS)
    result = serializers.ChoiceField(choices=["win", "draw", "loss", ""])
    opponents = OpponentSerializer(many=True)
    partners = OpponentSerializer(many=True)
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    result_only = serializers.BooleanField(
        help_text="The desk typed the final score without deals (the tournament allows it)."
    )


class CrossRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = ParticipantSerializer()
    match_points = serializers.IntegerField()
    cells = serializers.ListField(
        child=CrossCellSerializer(allow_null=True),
        help_text="One per round of ``rounds``; null where the entry had no place.",
    )


class CrosstableSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField()
    scope = serializers.ChoiceField(choices=display.SCOPES)
    source = serializers.ChoiceField(choices=["snapshot", "live"])
    rounds = serializers.ListField(child=serializers.IntegerField())
    rows = CrossRowSerializer(many=True)


class NamedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class OpposingEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = NamedSerializer(many=True)


class HistoryDealSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    winner = serializers.ChoiceField(choices=["ours", "theirs", ""])
    ours = serializers.IntegerField(help_text="Points recorded by the player's side this deal.")
    theirs = serializers.IntegerField()
    total_ours = serializers.IntegerField()
    total_theirs = serializers.IntegerField()


class HistoryMatchSerializer(serializers.Serializer):
    tournament = NamedSerializer()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    side = serializers.ChoiceField(choices=["NS", "EW", "N", "E", "S", "W", "BYE"],
                                   help_text="A seat where each player is his own side.")
    seat = serializers.CharField(help_text="N, E, S, W, or empty when seats were not set.")
    entry = NamedSerializer()
    partners = NamedSerializer(many=True)
    opponents = OpposingEntrySerializer(many=True)
    kind = serializers.CharField(help_text=CELL_KINDS)
    result = serializers.ChoiceField(choices=["win", "draw", "loss", ""])
    points_for = serializers.IntegerField(help_text="As recorded on the protocol.")
    points_against = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    match_status = serializers.CharField()
    deals = HistoryDealSerializer(many=True)


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()


class PlayerHistorySerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    matches = HistoryMatchSerializer(many=True)


# --- building the answers -----------------------------------------------------------------------


def participant(line: Any) -> dict[str, Any]:
    return {
        "id": line.participant,
        "name": line.name,
        "club": line.club,
        "players": list(line.players),
    }


def standings_data(res: display.Results) -> dict[str, Any]:
    table = res.table
    rows = []
    for line in res.lines:
        # a snapshot stored before sanctions were marked has no ``deducted*``
        metrics = {"deducted": 0, "deducted_points": 0}
        metrics.update(
            (key, value) for key, value in line.row.items() if key not in ("rank", "participant")
        )
        rows.append(
            {"rank": line.rank, "entry": participant(line), **metrics, "pending": line.pending}
        )
    return {
        "tournament": table.tournament.pk,
        "round": table.round_number,
        "scope": table.scope,
        "source": table.source,
        "order": list(table.order),
        "pending_tables": res.pending_tables,
        "rows": rows,
    }


def _opponent(o: crosstable.Opponent) -> dict[str, Any]:
    return {"id": o.id, "rank": o.rank, "name": o.name}


def crosstable_data(cross: crosstable.Crosstable) -> dict[str, Any]:
    table = cross.table
    rows = []
    for row in cross.rows:
        cells = [
            None
            if c is None
            else {
                "round": c.round,
                "kind": c.kind,
                "result": c.result,
                "opponents": [_opponent(o) for o in c.opponents],
                "partners": [_opponent(o) for o in c.partners],
                "points_for": c.points_for,
                "points_against": c.points_against,
                "table": c.table,
                "match": c.match,
                "result_only": c.result_only,
            }
            for c in row.cells
        ]
        rows.append(
            {
                "rank": row.line.rank,
                "entry": participant(row.line),
                "match_points": row.line.row.get("match_points", 0),
                "cells": cells,
            }
        )
    return {
        "tournament": table.tournament.pk,
        "round": table.round_number,
        "scope": table.scope,
        "source": table.source,
        "rounds": cross.rounds,
        "rows": rows,
    }


def history_data(player: Player, history: list[HistoryMatch]) -> dict[str, Any]:
    def named(pairs: list[tuple[int, str]]) -> list[dict[str, Any]]:
        return [{"id": pk, "name": name} for pk, name in pairs]

    matches = [
        {
            "tournament": {"id": m.tournament.pk, "name": m.tournament.name},
            "round": m.round,
            "table": m.table,
            "side": m.side,
            "seat": m.seat,
            "entry": {"id": m.entry.pk, "name": m.entry.name},
            "partners": named(m.partners),
            "opponents": [
                {"id": e.pk, "name": e.name, "players": named(players)}
                for e, players in m.opponents
            ],
            "kind": m.kind,
            "result": m.result,
            "points_for": m.points_for,
            "points_against": m.points_against,
            "match": m.match,
            "match_status": m.match_status,
            "deals": [vars(d) for d in m.deals],
        }
        for m in history
    ]
    club = player.club.name if player.club else ""
    return {"player": {"id": player.pk, "name": player.full_name, "club": club}, "matches": matches}


# --- views --------------------------------------------------------------------------------------

ROUND = OpenApiParameter(
    "round",
    OpenApiTypes.STR,
    pattern=r"^[0-9]*$",
    description="After this published or finished round (empty or absent: the latest); a "
    "round with no results is a 400 ``bad_round``.",
)
SCOPE = OpenApiParameter(
    "scope",
    OpenApiTypes.STR,
    enum=["", *display.SCOPES],
    description="empty or absent: the default, entries (teams in a team event); entries, "
    "teams (team events), players (the players of pairs and teams).",
)
ERRORS = {400: ResultsErrorsSerializer, 404: ResultsErrorsSerializer}


class ResultsView(APIView):
    permission_classes = [AllowAny]

    def tournament(self, request: Request, pk: int) -> Tournament:
        return get_object_or_404(access.visible_tournaments(request.user), pk=pk)


class StandingsAPIView(ResultsView):
    @extend_schema(
        operation_id="tournament_standings",
        parameters=[ROUND, SCOPE],
        responses={200: StandingsSerializer, **ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        try:
            res, _key = display.cached_results_table(
                tournament, request.query_params.get("round"), request.query_params.get("scope"),
                max_age=display.spectator_max_age(request.user),
            )  # fmt: skip
        except TournamentError as exc:
            return Response({"errors": exc.errors}, status=exc.status)
        return Response(standings_data(res))


class CrosstableAPIView(ResultsView):
    @extend_schema(
        operation_id="tournament_crosstable",
        parameters=[ROUND, SCOPE],
        responses={200: CrosstableSerializer, **ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        try:
            cross = crosstable.crosstable(
                tournament, request.query_params.get("round"), request.query_params.get("scope")
            )
        except TournamentError as exc:
            return Response({"errors": exc.errors}, status=exc.status)
        return Response(crosstable_data(cross))


class PlayerHistoryAPIView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="player_history",
        responses={200: PlayerHistorySerializer, 404: ResultsErrorsSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
        visible = access.visible_tournaments(request.user)
        if not history_tournaments(player, visible).exists():
            raise Http404
        return Response(history_data(player, player_history(player, visible)))
