"""API of substitutes, as routes of the tournament's viewset (``tournaments.api``):

    GET/POST  /api/v1/tournaments/{id}/substitutes/        the substitutes / set one {replaced,
                                                           player, from_round, to_round, reason}
    POST      /api/v1/tournaments/{id}/substitutes/{sid}/remove/   remove one (the tournament
              routes take no DELETE)

For the tournament's organisers (403 ``not_organiser`` otherwise; a hidden tournament is 404).
Thin: ``substitutes.services`` decides, with the page's refusals.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.access import require_manager
from tournaments.http import API_ERRORS, respond
from tournaments.models import Substitute, Tournament
from tournaments.substitutes import services


class SubstituteSerializer(serializers.ModelSerializer):
    entry_name = serializers.CharField(source="entry.name", read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True,
                                       allow_null=True)  # fmt: skip

    class Meta:
        model = Substitute
        fields = ["id", "tournament", "entry", "entry_name", "replaced", "player", "from_round",
                  "to_round", "reason", "created_by", "created_at"]  # fmt: skip
        read_only_fields = fields


class SubstituteInSerializer(serializers.Serializer):
    replaced = serializers.IntegerField(help_text="a player of an active entry")
    player = serializers.IntegerField(help_text="the substitute: a player of no active entry")
    from_round = serializers.IntegerField()
    to_round = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="the last round it covers (= from_round: one round); null: every later round",
    )  # fmt: skip
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


def _rows(tournament: Tournament) -> Any:
    return (Substitute.objects.filter(tournament=tournament)
            .select_related("entry", "created_by").order_by("from_round", "pk"))  # fmt: skip


# No docstring: the schema would take it as the description of every tournament route.
class TournamentSubstituteActions:

    @extend_schema(methods=["GET"], request=None,
                   responses={200: SubstituteSerializer(many=True), **API_ERRORS})  # fmt: skip
    @extend_schema(methods=["POST"], request=SubstituteInSerializer,
                   responses={201: SubstituteSerializer, **API_ERRORS})  # fmt: skip
    @action(detail=True, methods=["get", "post"])
    def substitutes(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()  # type: ignore[attr-defined]
        if request.method == "GET":
            return respond(lambda: (require_manager(request.user, tournament), Response(
                SubstituteSerializer(_rows(tournament), many=True).data))[1])  # fmt: skip
        form = SubstituteInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        def call() -> Response:
            row = services.set_substitute(
                request.user, tournament.pk, replaced=data["replaced"], player=data["player"],
                from_round=data["from_round"], to_round=data["to_round"], reason=data["reason"],
            )  # fmt: skip
            return Response(SubstituteSerializer(_rows(tournament).get(pk=row.pk)).data,
                            status=201)  # fmt: skip

        return respond(call)

    @extend_schema(request=None, responses={204: None, **API_ERRORS})
    @action(detail=True, methods=["post"],
            url_path=r"substitutes/(?P<substitute_id>[0-9]+)/remove")  # fmt: skip
    def remove_substitute(self, request: Request, pk: str, substitute_id: str) -> Response:
        tournament = self.get_object()  # type: ignore[attr-defined]
        if not Substitute.objects.filter(pk=substitute_id, tournament=tournament).exists():
            raise Http404

        def call() -> Response:
            services.remove_substitute(request.user, int(substitute_id))
            return Response(status=204)

        return respond(call)
