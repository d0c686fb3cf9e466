"""API of a round's life: serializers parse, ``rounds.services`` decides.

    GET/POST   /api/v1/tournaments/{id}/rounds/           rounds / pair the next → 202 (once
                                                          the previous is finished, or with
                                                          ``{"override_reason": "…"}``; 409
                                                          ``previous_round_open``)
    POST       /api/v1/tournaments/{id}/close/            finished once every round is (409
                                                          ``no_rounds``, ``rounds_open``)
    GET        /api/v1/rounds/{id}/                       status, tables, sides, seats, matches,
                                                          byes and flags (published, or for its
                                                          organisers and chief referees)
    POST       /api/v1/rounds/{id}/swap/ {entries: [a, b]}  …/lock/ {table, locked}
               …/referee/ {table, referee}  …/regenerate/ (202)  …/publish/
    POST       /api/v1/rounds/{id}/finish/                every table decided: finished, its
                                                          standings snapshot taken (409
                                                          ``tables_open`` names the tables)

``TournamentRoundActions`` adds the first two to the tournament's viewset (``tournaments.api``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import access
from tournaments.http import API_ERRORS, respond
from tournaments.models import Pairing, Round
from tournaments.registration.api import TournamentSerializer
from tournaments.rounds import clock, selectors, services
from tournaments.rounds.order import MAX_REASON
from tournaments.selectors import round_with_pairings


class SwapSerializer(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class LockSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1)
    locked = serializers.BooleanField(default=True)


class RefereeSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1)
    referee = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), allow_null=True
    )


class PairRequestSerializer(serializers.Serializer):
    override_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_REASON,
        help_text="Why the round is paired before the previous one is finished (required "
        "then, 409 previous_round_open without it; kept in the audit log).",
    )  # fmt: skip


class RoundOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    progress = serializers.IntegerField(help_text="0–100 while the pairing job runs")
    step = serializers.CharField()
    error = serializers.CharField(help_text="why the last pairing job failed")
    task_id = serializers.CharField()
    notes = serializers.JSONField()
    tables = serializers.JSONField(
        help_text='[{"id", "table", "sides": {"NS": [{"id", "name"}], "EW": …}, "seats": '
        '{"N": {"id", "name"} | null, …}, "match", "match_status", "referee", '
        '"locked", "flags"}]; head to head and each for himself the sides are the seats '
        '("N": [{"id", "name"}], "E": …)'
    )
    byes = serializers.JSONField(help_text='[{"entry", "name", "flags", "pairing"}]')


class ClockRequestSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend"])
    minutes = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="start: the limit (the tournament's round_minutes when omitted); extend: "
        "minutes added",
    )  # fmt: skip


class ClockOutSerializer(serializers.Serializer):
    clock = serializers.JSONField(
        help_text='null without a clock, else {"now", "ends_at" (null while paused), "paused", '
        '"left" (seconds), "time_up"}: the server\'s time, to correct the device\'s clock by'
    )


def _round_answer(round_id: int, code: int = 200) -> Response:
    round_ = round_with_pairings(Round.objects.filter(pk=round_id)).get()
    return Response(selectors.round_data(round_), status=code)


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A round: everyone sees it once published; its organisers and chief referees before."""

    serializer_class = RoundOutSerializer

    def get_queryset(self) -> QuerySet[Round]:
        return round_with_pairings(access.visible_rounds(self.request.user))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(selectors.round_data(self.get_object()))

    def _table(self, round_: Round, table: int) -> Pairing:
        return Pairing.objects.get(round=round_, table=table)

    @extend_schema(request=None, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        return respond(lambda: (services.publish(request.user, round_.pk),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @extend_schema(request=None, responses={200: RoundOutSerializer, **API_ERRORS})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        return respond(lambda: (services.finish_round(request.user, round_.pk),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @extend_schema(request=None, responses={202: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def regenerate(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()

        def call() -> Response:
            services.regenerate(request.user, round_.pk)
            return _round_answer(round_.pk, status.HTTP_202_ACCEPTED)

        return respond(call)

    @extend_schema(methods=["GET"], request=None, responses={200: ClockOutSerializer})
    @extend_schema(methods=["POST"], request=ClockRequestSerializer,
                   responses={200: ClockOutSerializer, **API_ERRORS})  # fmt: skip
    @action(detail=True, methods=["get", "post"])
    def clock(self, request: Request, pk: str) -> Response:
        """The round clock; POST (its organisers): start, pause, resume, extend (audited)."""
        round_ = self.get_object()
        if request.method == "GET":
            return Response({"clock": round_.clock_json()})
        form = ClockRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        action_, minutes = form.validated_data["action"], form.validated_data.get("minutes")
        calls = {"start": lambda: clock.start_clock(request.user, round_.pk, minutes),
                 "pause": lambda: clock.pause_clock(request.user, round_.pk),
                 "resume": lambda: clock.resume_clock(request.user, round_.pk),
                 "extend": lambda: clock.extend_clock(request.user, round_.pk, minutes)}
        return respond(lambda: Response({"clock": calls[action_]().clock_json()}))

    @extend_schema(request=SwapSerializer, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = SwapSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        a, b = form.validated_data["entries"]
        return respond(lambda: (services.swap(request.user, round_.pk, a, b),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @extend_schema(request=LockSerializer, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def lock(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = LockSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        return respond(lambda: (
            services.set_locked(request.user, self._table(round_, data["table"]).pk,
                              data["locked"]),
            _round_answer(round_.pk))[1])  # fmt: skip

    @extend_schema(request=RefereeSerializer, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def referee(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = RefereeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        return respond(lambda: (
            services.assign_referee(request.user, self._table(round_, data["table"]).pk,
                                  data["referee"]),
            _round_answer(round_.pk))[1])  # fmt: skip


# The rounds of a tournament and closing it, as routes of /api/v1/tournaments/{id}/.
# No docstring: the schema would take it as the description of every tournament route.
class TournamentRoundActions:

    @extend_schema(methods=["GET"], request=None,
                   responses={200: RoundOutSerializer(many=True)})  # fmt: skip
    @extend_schema(methods=["POST"], request=PairRequestSerializer,
                   responses={202: RoundOutSerializer})  # fmt: skip
    @action(detail=True, methods=["get", "post"], url_path="rounds")
    def rounds(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            queryset = access.visible_rounds(request.user, tournament.round_set.all())
            return Response([selectors.round_data(r) for r in
                             round_with_pairings(queryset)])  # fmt: skip

        form = PairRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        reason = form.validated_data.get("override_reason", "")

        def call() -> Response:
            round_ = services.start_pairing(request.user, tournament.pk, reason)
            # "pairing" while a worker has the job (the client polls GET /rounds/{id}/); in the
            # embedded mode the eager task has already run and the answer says so
            return _round_answer(round_.pk, status.HTTP_202_ACCEPTED)

        return respond(call)

    @extend_schema(request=None, responses={200: TournamentSerializer, **API_ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()

        def call() -> Response:
            services.close_tournament(request.user, tournament.pk)
            return Response(TournamentSerializer(self.get_queryset().get(pk=tournament.pk)).data)

        return respond(call)
