"""Read-only seasons API (no login; a season that is not public is a 404 but for staff).

    GET /api/v1/seasons/            the seasons (paginated)
    GET /api/v1/seasons/{id}/       a season with its tournaments and its table
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Season
from tournaments.seasons.table import SeasonTable, season_table


class SeasonSerializer(serializers.ModelSerializer):
    #: only public tournaments count in a season, and only they are named
    tournaments = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = ["id", "name", "scope", "scale", "best_of", "tournaments"]

    def get_tournaments(self, obj: Season) -> list[int]:
        return sorted(t.pk for t in obj.tournaments.all() if t.public)


class SeasonResultSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField()


class SeasonLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField(), source="key")
    name = serializers.CharField()
    club = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    best = serializers.IntegerField(allow_null=True)
    results = SeasonResultSerializer(many=True)


class SeasonTableSerializer(SeasonSerializer):
    table = serializers.SerializerMethodField()

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "table"]

    @extend_schema_field(SeasonLineSerializer(many=True))
    def get_table(self, obj: Season) -> Any:
        table: SeasonTable = self.context["table"]
        return SeasonLineSerializer(table.lines, many=True).data


@extend_schema_view(retrieve=extend_schema(responses={200: SeasonTableSerializer}))
class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [AllowAny]
    serializer_class = SeasonSerializer

    def get_queryset(self) -> Any:
        user = self.request.user
        queryset = Season.objects.prefetch_related("tournaments")
        if user.is_authenticated and user.is_active and user.is_staff:
            return queryset
        return queryset.filter(public=True)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.get_object()
        table = season_table(season)
        return Response(SeasonTableSerializer(season, context={"table": table}).data)
