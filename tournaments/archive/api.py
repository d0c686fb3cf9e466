"""API of the tournament archive (``tournaments.archive``).

    GET  /api/v1/tournaments/{id}/archive/   the archive (the tournament's managers; token or
                                             session)
    POST /api/v1/tournaments/import/         an archive as the JSON body, or a multipart
                                             ``file`` (users who may create tournaments) →
                                             200, the review: {"token", "sha256",
                                             "exported_at", "name", "players", "counts",
                                             "confirm"}; nothing is written. ``?replaces=<id>``
                                             (or a form field): restore over that copy (its
                                             organisers only). An archive already here → 409
    POST /api/v1/tournaments/import/{token}/ the importer's confirmation → 201 {"id", "name",
                                             "url", "notes", "sha256", "exported_at"}

Errors use the common format ``{"errors": [{"code", "message", "field"}]}``.
"""

from __future__ import annotations

import io
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
from tournaments.archive import export, reader, review
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import PendingImport, Tournament


class ImportedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="the organiser's page of the new tournament")
    notes = serializers.ListField(child=serializers.CharField(),
                                 help_text="what could not be restored exactly")  # fmt: skip
    sha256 = serializers.CharField(help_text="SHA-256 of the archive's bytes as received")
    exported_at = serializers.DateTimeField(
        allow_null=True, help_text="when the archive says it was exported"
    )


def review_body(pending: PendingImport, confirm_url: str) -> dict[str, Any]:
    """The review: who each archive player will be here (``archive.review``)."""
    return {"token": str(pending.token), "sha256": pending.sha256,
            "exported_at": pending.data.get("exported_at"),
            "name": (pending.data.get("tournament") or {}).get("name"),
            "replaces": pending.replaces_id, "players": pending.players,
            "counts": review.counts(pending.players), "confirm": confirm_url}  # fmt: skip


def replaces_of(request: Any, value: Any) -> Tournament | None:
    """The copy the user asks to restore over (only a tournament he may see)."""
    if value in (None, ""):
        return None
    found = (access.visible_tournaments(request.user).filter(pk=value).first()
             if str(value).isdigit() else None)  # fmt: skip
    if found is None:
        raise TournamentError.one("replaces", _("No such tournament."), "replaces")
    return found


class ArchiveJSONParser(JSONParser):
    """JSON, keeping the body's bytes for the import's SHA-256 (``request.archive_bytes``)."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:  # fmt: skip
        raw = stream.read()
        if parser_context and "request" in parser_context:
            parser_context["request"].archive_bytes = raw
        return super().parse(io.BytesIO(raw), media_type, parser_context)


class ArchiveAPIView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournament_archive", responses={200: OpenApiTypes.OBJECT},
                   tags=["tournaments"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        """The whole tournament as one JSON archive (see docs/archive.md)."""
        # a tournament the user may not see is not there (404); seen, not managed: 403
        tournament = get_object_or_404(access.visible_tournaments(request.user), pk=pk)
        if not access.can_manage(request.user, tournament):
            err = NotAllowed.one("not_organiser", _("Only the tournament's organisers export it."))
            return Response({"errors": err.errors}, status=err.status)
        response = Response(export.export_tournament(tournament))
        response["Content-Disposition"] = f'inline; filename="tournament-{tournament.pk}.json"'
        return response


@body_limit("ARCHIVE_MAX_BYTES")
class ArchiveImportAPIView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [ArchiveJSONParser, MultiPartParser]

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        # DRF reads a JSON body through ``request.body``, which Django refuses beyond
        # DATA_UPLOAD_MAX_MEMORY_SIZE (1 MiB), while this view takes ARCHIVE_MAX_BYTES as
        # documented (config.limits has checked the Content-Length against it): read it here
        if request.content_type != "multipart/form-data" and not request._read_started:
            request._body = request.read()
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(operation_id="tournament_import", request=OpenApiTypes.OBJECT,
                   responses={200: OpenApiTypes.OBJECT}, tags=["tournaments"])  # fmt: skip
    def post(self, request: Request) -> Response:
        """Read and check an archive and show who its players will be here; nothing is
        written until the importer confirms (``POST …/import/{token}/``)."""
        try:
            upload: Any = request.FILES.get("file") if hasattr(request, "FILES") else None
            if upload is not None:
                raw = upload.read()
                data = reader.load_file(raw)
                wanted = request.POST.get("replaces") or request.query_params.get("replaces")
            else:
                data = request.data
                raw = getattr(request, "archive_bytes", None)
                wanted = request.query_params.get("replaces")
            pending = review.prepare(data, request.user, raw=raw,
                                     replaces=replaces_of(request, wanted))  # fmt: skip
        except TournamentError as err:
            return Response({"errors": err.errors}, status=err.status)
        url = reverse("api-archive-confirm", args=[pending.token])
        return Response(review_body(pending, url), status=200)


class ArchiveConfirmAPIView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournament_import_confirm", request=None,
                   responses={201: ImportedSerializer}, tags=["tournaments"])  # fmt: skip
    def post(self, request: Request, token: str) -> Response:
        """Write the reviewed import (only its importer; once)."""
        try:
            tournament = review.confirm(token, request.user)
        except TournamentError as err:
            return Response({"errors": err.errors}, status=err.status)
        body = {
            "id": tournament.pk,
            "name": tournament.name,
            "url": reverse("tournaments:manage", args=[tournament.pk]),
            "notes": tournament.archive_notes,
            "sha256": tournament.import_record.sha256,
            "exported_at": tournament.import_record.exported_at,
        }
        return Response(ImportedSerializer(body).data, status=201)
