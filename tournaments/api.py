"""API of tournaments (read-only for now): serializers and viewsets that call the selectors."""

from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from tournaments import selectors
from tournaments.models import Entry, Tournament


class EntrySerializer(serializers.ModelSerializer):
    players = serializers.StringRelatedField(many=True)
    club = serializers.StringRelatedField()

    class Meta:
        model = Entry
        fields = ["id", "name", "players", "club", "seed", "status"]


class TournamentSerializer(serializers.ModelSerializer):
    entries = EntrySerializer(many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "start_date",
            "end_date",
            "venue",
            "rules_preset",
            "rules_options",
            "format",
            "system",
            "rounds",
            "status",
            "public",
            "entries",
        ]


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournament_with_entries(selectors.visible_tournaments(self.request.user))
