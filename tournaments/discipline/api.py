"""API of discipline: the chief referee's sanctions.

    GET/POST   /api/v1/tournaments/{id}/sanctions/        the sanctions / record one {entry,
                                                          player, round_number, kind,
                                                          match_points, game_points, table,
                                                          reason}
    GET        /api/v1/sanctions/{id}/                    one sanction (chief referee, organisers)
    POST       /api/v1/sanctions/{id}/revoke/ {reason}    revoked, kept with who, when and why

Sanctions are for ``access.can_judge``: others get 403 ``not_allowed``.
``TournamentSanctionActions`` adds the first route to the tournament's viewset.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import access
from tournaments.discipline import services
from tournaments.errors import NotAllowed
from tournaments.http import API_ERRORS, respond
from tournaments.models import (
    MAX_SANCTION_GAME_POINTS,
    MAX_SANCTION_MATCH_POINTS,
    Sanction,
    Tournament,
)


class SanctionSerializer(serializers.ModelSerializer):
    entry_name = serializers.CharField(source="entry.name", read_only=True)
    table = serializers.IntegerField(source="pairing.table", read_only=True, allow_null=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True,
                                       allow_null=True)  # fmt: skip
    revoked_by = serializers.CharField(source="revoked_by.username", read_only=True,
                                       allow_null=True)  # fmt: skip
    active = serializers.BooleanField(read_only=True)

    class Meta:
        model = Sanction
        fields = ["id", "tournament", "entry", "entry_name", "player", "round_number", "kind",
                  "match_points", "game_points", "table", "reason", "created_by", "created_at",
                  "active", "revoked_at", "revoked_by", "revoke_reason"]  # fmt: skip
        read_only_fields = fields


class SanctionInSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField(required=False, allow_null=True, default=None)
    round_number = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=Sanction.Kind.choices)
    match_points = serializers.IntegerField(min_value=0, max_value=MAX_SANCTION_MATCH_POINTS,
                                            default=0)  # fmt: skip
    game_points = serializers.IntegerField(
        min_value=0, max_value=MAX_SANCTION_GAME_POINTS, default=0,
        help_text="cards: 0 deducts the tournament's points for the card",
    )  # fmt: skip
    table = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, default=None,
        help_text="a forfeit: the table the entry did not play (checked when given)",
    )  # fmt: skip
    reason = serializers.CharField(allow_blank=True)


class RevokeSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True)


def _judge(user: Any, tournament: Tournament) -> None:
    if not access.can_judge(user, tournament):
        raise NotAllowed.one("not_allowed", _("Only the chief referee and the organisers "
                                              "see and record sanctions."))  # fmt: skip


def _sanctions(tournament: Tournament) -> QuerySet[Sanction]:
    return services.sanctions_of(tournament).order_by("round_number", "pk")  # type: ignore[attr-defined,no-any-return]


class SanctionViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A sanction, for those who judge its tournament (404 for everyone else)."""

    serializer_class = SanctionSerializer

    def get_queryset(self) -> QuerySet[Sanction]:
        return Sanction.objects.select_related(
            "tournament", "entry", "player", "pairing", "created_by", "revoked_by"
        )

    def get_object(self) -> Sanction:
        sanction: Sanction = super().get_object()
        if not access.can_judge(self.request.user, sanction.tournament):
            raise Http404
        return sanction

    @extend_schema(request=RevokeSerializer, responses={200: SanctionSerializer, **API_ERRORS})
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, pk: str) -> Response:
        sanction = self.get_object()
        form = RevokeSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            services.revoke_sanction(request.user, sanction.pk, form.validated_data["reason"])
            return Response(SanctionSerializer(self.get_queryset().get(pk=sanction.pk)).data)

        return respond(call)


# The sanctions of a tournament, as a route of /api/v1/tournaments/{id}/.
# No docstring: the schema would take it as the description of every tournament route.
class TournamentSanctionActions:

    @extend_schema(methods=["GET"], request=None,
                   responses={200: SanctionSerializer(many=True), **API_ERRORS})  # fmt: skip
    @extend_schema(methods=["POST"], request=SanctionInSerializer,
                   responses={201: SanctionSerializer, **API_ERRORS})  # fmt: skip
    @action(detail=True, methods=["get", "post"])
    def sanctions(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()  # its judges see it, a private one too: else 404
        if request.method == "GET":
            return respond(lambda: (_judge(request.user, tournament), Response(
                SanctionSerializer(_sanctions(tournament), many=True).data))[1])  # fmt: skip
        form = SanctionInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        def call() -> Response:
            sanction = services.record_sanction(
                request.user, tournament.pk, entry_id=data["entry"],
                round_number=data["round_number"], kind=data["kind"], reason=data["reason"],
                player_id=data["player"], match_points=data["match_points"],
                game_points=data["game_points"], table=data["table"],
            )  # fmt: skip
            return Response(SanctionSerializer(_sanctions(tournament).get(pk=sanction.pk)).data,
                            status=201)  # fmt: skip

        return respond(call)
