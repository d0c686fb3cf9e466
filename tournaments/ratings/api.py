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
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import PlayerRating
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


@extend_schema_view(
    list=extend_schema(
        operation_id="ratings_list",
        parameters=[OpenApiParameter("club", OpenApiTypes.INT, required=False,
                                     description="Only the players of this club.")],  # fmt: skip
    ),
    retrieve=extend_schema(operation_id="player_rating", responses={200: PlayerRatingSerializer}),
)
class RatingViewSet(viewsets.ReadOnlyModelViewSet):
    """The rating list (``list``) and one player's rating with every change (``retrieve``, by
    the player's id)."""

    permission_classes = [AllowAny]
    serializer_class = RatingSerializer
    lookup_field = "player_id"
    lookup_url_kwarg = "pk"

    def club(self) -> int | None:
        raw = self.request.query_params.get("club", "")
        if raw and not (raw.isascii() and raw.isdigit()):
            raise Http404
        return int(raw) if raw else None

    def get_queryset(self) -> Any:
        return selectors.rating_queryset(self.club() if self.action == "list" else None)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if getattr(self, "action", None) == "list":
            context["ranks"] = {pk: rank for rank, pk in enumerate(
                self.get_queryset().values_list("player_id", flat=True), start=1)}  # fmt: skip
        return context

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rating = self.get_object()
        changes: Any = selectors.rating_history(rating.player_id)
        return Response(PlayerRatingSerializer({"rating": rating, "changes": changes}).data)
