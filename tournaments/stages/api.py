"""The final stage as data: ``GET /api/v1/tournaments/{id}/bracket/`` (no login for a public
tournament; a hidden one is a 404 like its pages).

The same reading as the bracket page (``display.bracket_page``): the stage's setup, each level's
ties with their sides, wins and games, the champion, and the final ranking once the stage is
over (the knock-out's places first, then the others by the qualifying standings); for a final
round robin its table. A tournament without a final stage answers ``stage: null``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access
from tournaments.errors import TournamentError
from tournaments.stages import bracket as brackets
from tournaments.stages import display


class SideSerializer(serializers.Serializer):
    entry = serializers.IntegerField(allow_null=True, help_text="None: a bye")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    wins = serializers.IntegerField()
    winner = serializers.BooleanField()


class GameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    winner = serializers.CharField(help_text="the winner's name; empty for a draw or in play")
    done = serializers.BooleanField()


class TieSerializer(serializers.Serializer):
    label = serializers.CharField()
    state = serializers.ChoiceField(choices=["waiting", "in_play", "decided", "bye"])
    third_place = serializers.BooleanField()
    sides = SideSerializer(many=True)
    games = GameSerializer(many=True)


class LevelSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    ties = TieSerializer(many=True)


class RankSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    reached = serializers.CharField()
    qualifying_rank = serializers.IntegerField(allow_null=True)


class StageSerializer(serializers.Serializer):
    kind = serializers.CharField()
    qualifiers = serializers.IntegerField()
    best_of = serializers.IntegerField()
    third_place = serializers.BooleanField()
    started = serializers.BooleanField()
    seeds = serializers.ListField(child=serializers.IntegerField())


class BracketSerializer(serializers.Serializer):
    stage = StageSerializer(allow_null=True)
    champion = serializers.CharField()
    finished = serializers.BooleanField()
    levels = LevelSerializer(many=True)
    ranking = RankSerializer(many=True)


def bracket_data(page: display.BracketPage) -> dict[str, Any]:
    stage = page.stage
    return {
        "stage": None if stage is None else {
            "kind": stage.kind, "qualifiers": stage.qualifiers, "best_of": stage.best_of,
            "third_place": stage.third_place, "started": stage.started,
            "seeds": list(stage.seeds or []),
        },
        "champion": page.champion, "finished": page.finished,
        "levels": [{"number": level.number, "name": level.name, "ties": [
            {"label": tie.label, "state": tie.state, "third_place": tie.third_place,
             "sides": [vars(side) for side in tie.sides],
             "games": [vars(game) for game in tie.games]} for tie in level.ties]}
            for level in page.levels],
        "ranking": [vars(line) for line in page.ranking],
    }  # fmt: skip


class BracketAPIView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournament_bracket", responses={200: BracketSerializer})
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(access.visible_tournaments(request.user), pk=pk)
        try:
            page = display.bracket_page(tournament, brackets.final_stage(tournament))
        except TournamentError as exc:
            return Response({"errors": exc.errors}, status=exc.status)
        return Response(bracket_data(page))
