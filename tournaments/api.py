"""API of tournaments: serializers parse, ``services``/``rounds``/``csv_import`` decide.

    GET/POST   /api/v1/tournaments/                       list (visible) / create (organisers)
    GET/PATCH  /api/v1/tournaments/{id}/                  read / change the setup
    GET/POST   /api/v1/tournaments/{id}/entries/          entries / register one
    POST       /api/v1/tournaments/{id}/entries/import/   CSV (multipart ``file`` or text/csv)
    GET/POST   /api/v1/tournaments/{id}/rounds/           rounds / pair the next → 202
    GET/PATCH  /api/v1/entries/{id}/                      an entry / edit it
    POST       /api/v1/entries/{id}/withdraw/  …/reinstate/  …/absences/ {round, absent, reason}
    GET        /api/v1/rounds/{id}/                       status, tables, sides, seats, matches,
                                                          byes and flags
    POST       /api/v1/rounds/{id}/swap/ {entries: [a, b]}  …/lock/ {table, locked}
               …/referee/ {table, referee}  …/regenerate/ (202)  …/publish/
    POST       /api/v1/rounds/{id}/finish/                every table decided: finished, its
                                                          standings snapshot taken (409
                                                          ``tables_open`` names the tables)
    POST       /api/v1/tournaments/{id}/close/            finished once every round is (409
                                                          ``no_rounds``, ``rounds_open``)
    GET/POST   /api/v1/tournaments/{id}/sanctions/        the chief referee's sanctions / record
                                                          one {entry, player, round_number,
                                                          kind, match_points, game_points, table,
                                                          reason}
    GET        /api/v1/sanctions/{id}/                    one sanction (chief referee, organisers)
    POST       /api/v1/sanctions/{id}/revoke/ {reason}    revoked, kept with who, when and why
    GET/POST   /api/v1/clubs/   /api/v1/players/

Errors use the common format ``{"errors": [{"code", "message", "field"}]}``. Sanctions are for
``results.can_judge`` (chief referees and the tournament's organisers): others get 403
``not_allowed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.roles import ORGANISER, has_role
from tournaments import audit_hooks, csv_import, results, rounds, selectors, services
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Club, Entry, Pairing, Player, Round, Sanction, Tournament

# --- serializers ------------------------------------------------------------------------------


class EntrySerializer(serializers.ModelSerializer):
    players = serializers.StringRelatedField(many=True)
    club = serializers.StringRelatedField()
    absent_rounds = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = ["id", "name", "players", "club", "seed", "status", "joins_round", "late",
                  "team", "absent_rounds"]  # fmt: skip

    def get_absent_rounds(self, entry: Entry) -> list[int]:
        return sorted(a.round_number for a in entry.absences.all())


class TournamentSerializer(serializers.ModelSerializer):
    entries = EntrySerializer(many=True, read_only=True)
    tie_break_order = serializers.ListField(read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", *services.SETUP_FIELDS, "status", "tie_break_order", "entries"]
        read_only_fields = ["status"]
        # the services run the model's validation; unique checks there too
        extra_kwargs = {name: {"validators": []} for name in services.SETUP_FIELDS}


class EntryInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, required=False
    )
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True
    )
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    team = serializers.PrimaryKeyRelatedField(
        queryset=Entry.objects.all(), required=False, allow_null=True
    )


class EntryPatchSerializer(EntryInSerializer):
    name = serializers.CharField(max_length=200, required=False)
    joins_round = serializers.IntegerField(required=False, min_value=1)


class AbsenceSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    absent = serializers.BooleanField(default=True)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


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
        '"locked", "flags"}]'
    )
    byes = serializers.JSONField(help_text='[{"entry", "name", "flags", "pairing"}]')


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
    match_points = serializers.IntegerField(min_value=0, default=0)
    game_points = serializers.IntegerField(
        min_value=0, default=0, help_text="cards: 0 deducts the tournament's points for the card"
    )
    table = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, default=None,
        help_text="a forfeit: the table the entry did not play (checked when given)",
    )  # fmt: skip
    reason = serializers.CharField(allow_blank=True)


class RevokeSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "last_name", "first_name", "club", "rating", "federation_id"]


# --- helpers ----------------------------------------------------------------------------------


def _run(call: Callable[[], Response]) -> Response:
    try:
        return call()
    except TournamentError as exc:
        retry = getattr(exc, "retry_after", None)
        return Response({"errors": exc.errors}, status=exc.status,
                        headers={"Retry-After": str(retry)} if retry else None)  # fmt: skip
    except (Tournament.DoesNotExist, Entry.DoesNotExist, Round.DoesNotExist,
            Pairing.DoesNotExist) as exc:  # fmt: skip
        raise Http404 from exc


def _judge(user: Any, tournament: Tournament) -> None:
    if not results.can_judge(user, tournament):
        raise NotAllowed.one("not_allowed", _("Only the chief referee and the organisers "
                                              "see and record sanctions."))  # fmt: skip


def _sanctions(tournament: Tournament) -> QuerySet[Sanction]:
    return results.sanctions_of(tournament).order_by("round_number", "pk")  # type: ignore[attr-defined,no-any-return]


_ERRORS = {400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT,
           409: OpenApiTypes.OBJECT}  # fmt: skip


def _round_answer(round_id: int, code: int = 200) -> Response:
    round_ = selectors.round_with_pairings(Round.objects.filter(pk=round_id)).get()
    return Response(selectors.round_data(round_), status=code)


class OrganiserCreates:
    """Everyone reads; users in the Organiser role create."""

    def perform_create(self, serializer: serializers.BaseSerializer[Any]) -> None:
        if not has_role(self.request.user, ORGANISER):  # type: ignore[attr-defined]
            raise PermissionDenied
        serializer.save()


# --- viewsets ---------------------------------------------------------------------------------


class TournamentViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
    mixins.UpdateModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    serializer_class = TournamentSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Tournament]:
        queryset = selectors.visible_tournaments(self.request.user)
        return selectors.tournament_with_entries(queryset).prefetch_related("entries__absences")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = TournamentSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            tournament = services.create_tournament(request.user, **form.validated_data)
            return Response(TournamentSerializer(tournament).data, status=201)

        return _run(call)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        form = TournamentSerializer(tournament, data=request.data, partial=True)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            updated = services.update_tournament(request.user, tournament.pk, **form.validated_data)
            return Response(TournamentSerializer(updated).data)

        return _run(call)

    @action(detail=True, methods=["get", "post"])
    def entries(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            return Response(EntrySerializer(tournament.entries.all(), many=True).data)
        form = EntryInSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            entry = services.add_entry(request.user, tournament.pk, **form.validated_data)
            return Response(EntrySerializer(entry).data, status=201)

        return _run(call)

    @action(detail=True, methods=["post"], url_path="entries/import",
            parser_classes=[MultiPartParser, FormParser, JSONParser])  # fmt: skip
    def import_entries(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        upload = request.FILES.get("file")
        data: bytes | str = upload.read() if upload else request.data.get("csv", "")

        def call() -> Response:
            result = csv_import.import_csv(request.user, tournament.pk, data)
            return Response({"clubs": result.clubs, "players": result.players,
                             "entries": result.entries, "teams": result.teams,
                             "created": result.created}, status=201)  # fmt: skip

        return _run(call)

    @action(detail=True, methods=["get", "post"], url_path="rounds")
    def rounds(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            queryset = tournament.round_set.all()
            if not services.can_manage(request.user, tournament):
                queryset = queryset.filter(
                    status__in=[Round.Status.PUBLISHED, Round.Status.FINISHED]
                )
            return Response([selectors.round_data(r) for r in
                             selectors.round_with_pairings(queryset)])  # fmt: skip

        def call() -> Response:
            round_ = rounds.start_pairing(request.user, tournament.pk)
            # "pairing" while a worker has the job (the client polls GET /rounds/{id}/); in the
            # embedded mode the eager task has already run and the answer says so
            return _round_answer(round_.pk, status.HTTP_202_ACCEPTED)

        return _run(call)

    @extend_schema(request=None, responses={200: TournamentSerializer, **_ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()

        def call() -> Response:
            rounds.close_tournament(request.user, tournament.pk)
            return Response(TournamentSerializer(self.get_queryset().get(pk=tournament.pk)).data)

        return _run(call)

    @extend_schema(methods=["GET"], request=None,
                   responses={200: SanctionSerializer(many=True), **_ERRORS})  # fmt: skip
    @extend_schema(methods=["POST"], request=SanctionInSerializer,
                   responses={201: SanctionSerializer, **_ERRORS})  # fmt: skip
    @action(detail=True, methods=["get", "post"])
    def sanctions(self, request: Request, pk: str) -> Response:
        # a chief referee judges tournaments he does not organise, private ones too
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None or not (results.can_judge(request.user, tournament)
                                      or self.get_queryset().filter(pk=pk).exists()):  # fmt: skip
            raise Http404
        if request.method == "GET":
            return _run(lambda: (_judge(request.user, tournament), Response(
                SanctionSerializer(_sanctions(tournament), many=True).data))[1])  # fmt: skip
        form = SanctionInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        def call() -> Response:
            sanction = results.record_sanction(
                request.user, tournament.pk, entry_id=data["entry"],
                round_number=data["round_number"], kind=data["kind"], reason=data["reason"],
                player_id=data["player"], match_points=data["match_points"],
                game_points=data["game_points"], table=data["table"],
            )  # fmt: skip
            return Response(SanctionSerializer(_sanctions(tournament).get(pk=sanction.pk)).data,
                            status=201)  # fmt: skip

        return _run(call)


class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = EntrySerializer

    def get_queryset(self) -> QuerySet[Entry]:
        visible = selectors.visible_tournaments(self.request.user)
        return (
            Entry.objects.filter(tournament__in=visible)
            .prefetch_related("players", "absences")
            .select_related("club")
        )

    def partial_update(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        form = EntryPatchSerializer(data=request.data, partial=True)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            updated = services.update_entry(request.user, entry.pk, **form.validated_data)
            return Response(EntrySerializer(self.get_queryset().get(pk=updated.pk)).data)

        return _run(call)

    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        return _run(lambda: Response(EntrySerializer(
            services.withdraw_entry(request.user, entry.pk)).data))  # fmt: skip

    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        return _run(lambda: Response(EntrySerializer(
            services.reinstate_entry(request.user, entry.pk)).data))  # fmt: skip

    @action(detail=True, methods=["post"])
    def absences(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        form = AbsenceSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        def call() -> Response:
            services.set_absence(request.user, entry.pk, data["round"], data["absent"],
                                 data["reason"])  # fmt: skip
            return Response(EntrySerializer(self.get_queryset().get(pk=entry.pk)).data)

        return _run(call)


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A round: everyone sees it once published; its organisers at every stage."""

    serializer_class = RoundOutSerializer

    def get_queryset(self) -> QuerySet[Round]:
        visible = selectors.visible_tournaments(self.request.user)
        return selectors.round_with_pairings(Round.objects.filter(tournament__in=visible))

    def get_object(self) -> Round:
        round_: Round = super().get_object()
        published = round_.status in (Round.Status.PUBLISHED, Round.Status.FINISHED)
        if not published and not services.can_manage(self.request.user, round_.tournament):
            raise Http404
        return round_

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(selectors.round_data(self.get_object()))

    def _table(self, round_: Round, table: int) -> Pairing:
        return Pairing.objects.get(round=round_, table=table)

    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        return _run(lambda: (rounds.publish(request.user, round_.pk),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @extend_schema(request=None, responses={200: RoundOutSerializer, **_ERRORS})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        return _run(lambda: (audit_hooks.finish_round(request.user, round_.pk),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @action(detail=True, methods=["post"])
    def regenerate(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()

        def call() -> Response:
            rounds.regenerate(request.user, round_.pk)
            return _round_answer(round_.pk, status.HTTP_202_ACCEPTED)

        return _run(call)

    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = SwapSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        a, b = form.validated_data["entries"]
        return _run(lambda: (rounds.swap(request.user, round_.pk, a, b),
                             _round_answer(round_.pk))[1])  # fmt: skip

    @action(detail=True, methods=["post"])
    def lock(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = LockSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        return _run(lambda: (
            rounds.set_locked(request.user, self._table(round_, data["table"]).pk,
                              data["locked"]),
            _round_answer(round_.pk))[1])  # fmt: skip

    @action(detail=True, methods=["post"])
    def referee(self, request: Request, pk: str) -> Response:
        round_ = self.get_object()
        form = RefereeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        return _run(lambda: (
            rounds.assign_referee(request.user, self._table(round_, data["table"]).pk,
                                  data["referee"]),
            _round_answer(round_.pk))[1])  # fmt: skip


class SanctionViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A sanction, for those who judge its tournament (404 for everyone else)."""

    serializer_class = SanctionSerializer

    def get_queryset(self) -> QuerySet[Sanction]:
        return Sanction.objects.select_related(
            "tournament", "entry", "player", "pairing", "created_by", "revoked_by"
        )

    def get_object(self) -> Sanction:
        sanction: Sanction = super().get_object()
        if not results.can_judge(self.request.user, sanction.tournament):
            raise Http404
        return sanction

    @extend_schema(request=RevokeSerializer, responses={200: SanctionSerializer, **_ERRORS})
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, pk: str) -> Response:
        sanction = self.get_object()
        form = RevokeSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            results.revoke_sanction(request.user, sanction.pk, form.validated_data["reason"])
            return Response(SanctionSerializer(self.get_queryset().get(pk=sanction.pk)).data)

        return _run(call)


class ClubViewSet(OrganiserCreates, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                  mixins.CreateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    serializer_class = ClubSerializer
    queryset = Club.objects.all()


class PlayerViewSet(OrganiserCreates, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                    mixins.CreateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    serializer_class = PlayerSerializer
    queryset = Player.objects.select_related("club")
