"""API of the tournament archive (``tournaments.archive``).

    GET  /api/v1/tournaments/{id}/archive/   the archive (the tournament's managers; token or
                                             session)
    POST /api/v1/tournaments/import/         an archive as the JSON body, or a multipart
                                             ``file`` → 201 {"id", "name", "url", "notes"}
                                             (users who may create tournaments)

Errors use the common format ``{"errors": [{"code", "message", "field"}]}``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.limits import body_limit
from config.parsers import JSONParser
from tournaments import access
from tournaments.archive import export, importer, reader
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Tournament


class ImportedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="the organiser's page of the new tournament")
    notes = serializers.ListField(child=serializers.CharField(),
                                 help_text="what could not be restored exactly")  # fmt: skip


class ArchiveAPIView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournament_archive", responses={200: OpenApiTypes.OBJECT},
                   tags=["tournaments"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        """The whole tournament as one JSON archive (see docs/archive.md)."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if not access.can_manage(request.user, tournament):
            err = NotAllowed.one("not_organiser", _("Only the tournament's organisers export it."))
            return Response({"errors": err.errors}, status=err.status)
        response = Response(export.export_tournament(tournament))
        response["Content-Disposition"] = f'inline; filename="tournament-{tournament.pk}.json"'
        return response


@body_limit("ARCHIVE_MAX_BYTES")
class ArchiveImportAPIView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(operation_id="tournament_import", request=OpenApiTypes.OBJECT,
                   responses={201: ImportedSerializer}, tags=["tournaments"])  # fmt: skip
    def post(self, request: Request) -> Response:
        """Create a tournament from an archive; nothing is written unless all of it is good."""
        try:
            upload: Any = request.FILES.get("file") if hasattr(request, "FILES") else None
            data = reader.load_file(upload.read()) if upload is not None else request.data
            tournament = importer.import_tournament(data, request.user)
        except TournamentError as err:
            return Response({"errors": err.errors}, status=err.status)
        body = {
            "id": tournament.pk,
            "name": tournament.name,
            "url": reverse("tournaments:manage", args=[tournament.pk]),
            "notes": tournament.archive_notes,
        }
        return Response(ImportedSerializer(body).data, status=201)
