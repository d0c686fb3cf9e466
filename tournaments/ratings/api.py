"""Read-only ratings API (no login: only public tournaments are rated).

    GET /api/v1/ratings/?club=ID          the rating list, best first (paginated)
    GET /api/v1/ratings/{player_id}/      one player's rating and every change, in order

``rating`` and ``uncertainty`` are openskill's mu and sigma in display units (× 60: a new player
is 1500 ± 500); the list is ranked by ``conservative`` (rating less three uncertainties).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import PlayerRating, RatingChange
from tournaments.ratings import selectors


class RatingSerializer(serializers.Serializer):
    rank = serializers.SerializerMethodField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.full_name")
    club = serializers.CharField(source="player.club.name", default="", allow_null=True)
    rating = serializers.IntegerField()
    uncertainty = serializers.IntegerField()
    conservative = serializers.IntegerField()
    matches = serializers.IntegerField()
    last_played = serializers.DateField(allow_null=True)

    def get_rank(self, obj: PlayerRating) -> int:
        return int(self.context["ranks"][obj.player_id])


class RatingChangeSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField(source="tournament.name")
    round = serializers.IntegerField(source="round_number")
    date = serializers.DateField(source="played_on", allow_null=True)
    result = serializers.CharField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    change = serializers.IntegerField(source="delta")


class PlayerRatingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="rating.player_id")
    name = serializers.CharField(source="rating.player.full_name")
    rating = serializers.IntegerField(source="rating.rating")
    uncertainty = serializers.IntegerField(source="rating.uncertainty")
    matches = serializers.IntegerField(source="rating.matches")
    changes = RatingChangeSerializer(many=True)


class RatingListAPIView(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = RatingSerializer

    def club(self) -> int | None:
        raw = self.request.query_params.get("club", "")
        if raw and not (raw.isascii() and raw.isdigit()):
            raise Http404
        return int(raw) if raw else None

    def get_queryset(self) -> Any:
        return selectors.rating_queryset(self.club())

    def get_serializer_context(self) -> dict[str, Any]:
        ranks = {pk: rank for rank, pk in enumerate(
            self.get_queryset().values_list("player_id", flat=True), start=1)}  # fmt: skip
        return {**super().get_serializer_context(), "ranks": ranks}

    @extend_schema(
        operation_id="ratings_list",
        parameters=[OpenApiParameter("club", OpenApiTypes.INT, required=False,
                                     description="Only the players of this club.")],  # fmt: skip
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerRatingAPIView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="player_rating", responses={200: PlayerRatingSerializer})
    def get(self, request: Request, pk: int) -> Response:
        rating = PlayerRating.objects.select_related("player").filter(player_id=pk).first()
        if rating is None:
            raise Http404
        changes: Any = list(RatingChange.objects.filter(player_id=pk)
                            .select_related("tournament").order_by("sequence"))  # fmt: skip
        return Response(PlayerRatingSerializer({"rating": rating, "changes": changes}).data)
