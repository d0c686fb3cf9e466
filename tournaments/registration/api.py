"""API of setup and registration: serializers parse, ``registration.services`` decides.

    GET/POST   /api/v1/tournaments/                       list (visible) / create (organisers)
    GET/PATCH  /api/v1/tournaments/{id}/                  read / change the setup
    GET/POST   /api/v1/tournaments/{id}/entries/          entries / register one
    POST       /api/v1/tournaments/{id}/entries/import/   CSV (multipart ``file`` or text/csv);
                                                          ``notes``: stored players and clubs
                                                          linked unchanged where the file differs
    GET/POST   /api/v1/tournaments/{id}/chief-referees/   who judges it / appoint {chief_referees:
                                                          [user ids]}, the list replaced
    GET/PATCH  /api/v1/entries/{id}/                      an entry / edit it
    POST       /api/v1/entries/{id}/withdraw/  …/reinstate/  …/absences/ {round, absent, reason}
    GET/POST   /api/v1/clubs/   /api/v1/players/

``TournamentBaseViewSet`` holds the setup and registration routes of a tournament; the rounds'
and the sanctions' routes are added to it by their concerns (``tournaments.api``). Errors use the
common format ``{"errors": [{"code", "message", "field"}]}``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.roles import ORGANISER, has_role
from config.limits import body_limit
from config.parsers import JSONObjectField, JSONParser
from tournaments import access
from tournaments.errors import NotAllowed
from tournaments.http import API_ERRORS, respond
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.registration import csv_import, selectors, services


class EntrySerializer(serializers.ModelSerializer):
    players = serializers.StringRelatedField(many=True)
    club = serializers.StringRelatedField(allow_null=True)
    absent_rounds = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = ["id", "name", "players", "club", "seed", "status", "joins_round", "late",
                  "team", "absent_rounds"]  # fmt: skip

    def get_absent_rounds(self, entry: Entry) -> list[int]:
        return sorted(a.round_number for a in entry.absences.all())


class TournamentSerializer(serializers.ModelSerializer):
    rules_options = JSONObjectField(required=False, help_text="knob: value overrides")
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
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=200,
        help_text="Left out: the reason already recorded for that round stays.",
    )  # fmt: skip


class ChiefRefereeSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    username = serializers.CharField(source="get_username")
    name = serializers.CharField(source="get_full_name")


class ChiefRefereesOutSerializer(serializers.Serializer):
    chief_referees = ChiefRefereeSerializer(many=True)


class ChiefRefereesInSerializer(serializers.Serializer):
    chief_referees = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), many=True,
        help_text="the user ids of the chief referees (the Chief referee role); replaces the list",
    )  # fmt: skip


def _chief_referees(tournament: Tournament) -> Response:
    chiefs = tournament.chief_referees.order_by("username")
    return Response(ChiefRefereesOutSerializer({"chief_referees": chiefs}).data)


class ImportInSerializer(serializers.Serializer):
    file = serializers.FileField(required=False, help_text="a CSV file (multipart)")
    csv = serializers.CharField(required=False, help_text="or the CSV text itself")


class EntriesImportedSerializer(serializers.Serializer):
    clubs = serializers.IntegerField()
    players = serializers.IntegerField()
    entries = serializers.IntegerField()
    teams = serializers.IntegerField()
    created = serializers.JSONField(help_text="what was created, by kind")


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "last_name", "first_name", "club", "rating", "federation_id", "sex",
                  "birth_year"]


class OrganiserCreates:
    """Everyone reads; users in the Organiser role create."""

    def perform_create(self, serializer: serializers.BaseSerializer[Any]) -> None:
        if not has_role(self.request.user, ORGANISER):  # type: ignore[attr-defined]
            raise PermissionDenied
        serializer.save()


class TournamentBaseViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
    mixins.UpdateModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    serializer_class = TournamentSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Tournament]:
        queryset = access.visible_tournaments(self.request.user)
        return selectors.tournament_with_entries(queryset).prefetch_related("entries__absences")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = TournamentSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            tournament = services.create_tournament(request.user, **form.validated_data)
            return Response(TournamentSerializer(tournament).data, status=201)

        return respond(call)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        form = TournamentSerializer(tournament, data=request.data, partial=True)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            updated = services.update_tournament(request.user, tournament.pk, **form.validated_data)
            return Response(TournamentSerializer(updated).data)

        return respond(call)

    @extend_schema(methods=["GET"], request=None, responses={200: EntrySerializer(many=True)})
    @extend_schema(methods=["POST"], request=EntryInSerializer, responses={201: EntrySerializer})
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

        return respond(call)

    @extend_schema(request={"multipart/form-data": ImportInSerializer,
                            "application/json": ImportInSerializer},
                   responses={201: EntriesImportedSerializer})  # fmt: skip
    @body_limit(csv_import.MAX_BYTES)
    @action(detail=True, methods=["post"], url_path="entries/import",
            parser_classes=[MultiPartParser, FormParser, JSONParser])  # fmt: skip
    def import_entries(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        upload = request.FILES.get("file")
        body: Any = request.data
        # the CSV itself is checked by the import (anything but text is a 400 not_text)
        data = upload.read() if upload else (body.get("csv", "") if isinstance(body, dict)
                                             else body)  # fmt: skip

        def call() -> Response:
            result = csv_import.import_csv(request.user, tournament.pk, data)
            return Response({"clubs": result.clubs, "players": result.players,
                             "entries": result.entries, "teams": result.teams,
                             "created": result.created, "linked": result.linked,
                             "notes": result.notes}, status=201)  # fmt: skip

        return respond(call)


    @extend_schema(methods=["GET"], request=None,
                   responses={200: ChiefRefereesOutSerializer, **API_ERRORS})  # fmt: skip
    @extend_schema(methods=["POST"], request=ChiefRefereesInSerializer,
                   responses={200: ChiefRefereesOutSerializer, **API_ERRORS})  # fmt: skip
    @action(detail=True, methods=["get", "post"], url_path="chief-referees")
    def chief_referees(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            if not access.can_judge(request.user, tournament):
                err = NotAllowed.one("not_allowed", _("Only the tournament's organisers and chief "
                                                      "referees see who judges it."))  # fmt: skip
                return Response({"errors": err.errors}, status=err.status)
            return _chief_referees(tournament)
        form = ChiefRefereesInSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            services.set_chief_referees(request.user, tournament.pk,
                                        form.validated_data["chief_referees"])  # fmt: skip
            return _chief_referees(Tournament.objects.get(pk=tournament.pk))

        return respond(call)


class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = EntrySerializer

    def get_queryset(self) -> QuerySet[Entry]:
        visible = access.visible_tournaments(self.request.user)
        return (
            Entry.objects.filter(tournament__in=visible)
            .prefetch_related("players", "absences")
            .select_related("club")
        )

    @extend_schema(request=EntryPatchSerializer, responses={200: EntrySerializer})
    def partial_update(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        form = EntryPatchSerializer(data=request.data, partial=True)
        form.is_valid(raise_exception=True)

        def call() -> Response:
            updated = services.update_entry(request.user, entry.pk, **form.validated_data)
            return Response(EntrySerializer(self.get_queryset().get(pk=updated.pk)).data)

        return respond(call)

    @extend_schema(request=None, responses={200: EntrySerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        return respond(lambda: Response(EntrySerializer(
            services.withdraw_entry(request.user, entry.pk)).data))  # fmt: skip

    @extend_schema(request=None, responses={200: EntrySerializer})
    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        return respond(lambda: Response(EntrySerializer(
            services.reinstate_entry(request.user, entry.pk)).data))  # fmt: skip

    @extend_schema(request=AbsenceSerializer, responses={200: EntrySerializer})
    @action(detail=True, methods=["post"])
    def absences(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        form = AbsenceSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        def call() -> Response:
            services.set_absence(request.user, entry.pk, data["round"], data["absent"],
                                 data.get("reason"))  # fmt: skip
            return Response(EntrySerializer(self.get_queryset().get(pk=entry.pk)).data)

        return respond(call)


class ClubViewSet(OrganiserCreates, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                  mixins.CreateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    serializer_class = ClubSerializer
    queryset = Club.objects.all()


class PlayerViewSet(OrganiserCreates, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                    mixins.CreateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    serializer_class = PlayerSerializer
    queryset = Player.objects.select_related("club")

    def get_queryset(self) -> QuerySet[Player]:
        # the registry, and an import's players only to its tournaments' organisers (issue 25)
        return Player.objects.offered_to(self.request.user).select_related("club")
