"""API of score sheets: serializers parse, ``scoring.services`` decide, ``scoring.selectors`` show.

    GET    /api/v1/matches/                     list (what the reader may see)
    POST   /api/v1/matches/                     create → 201
    GET    /api/v1/matches/{id}/                the protocol (404 when hidden from the reader)
    GET    /api/v1/matches/{id}/deals/          its deals
    POST   /api/v1/matches/{id}/deals/          one deal (contract shape) → 201, retry → same 201;
                                                the key again with another deal → 409
    POST   /api/v1/matches/{id}/deals/preview/  the verdict it would get, nothing stored → 200
    PATCH  /api/v1/matches/{id}/deals/{n}/      replace the last deal's record
    DELETE /api/v1/matches/{id}/deals/{n}/      delete the last deal
    POST   /api/v1/matches/{id}/submit/  …/confirm/  …/corrections/
    GET    /api/v1/matches/{id}/history/

Who sees a match is ``services.can_see`` (a standalone match: everyone; a table of a tournament:
the tournaments app's rule); a hidden match answers 404 to every route, writes included, so
that its existence is not revealed.

Writes take an optional ``expected_version`` (or an ``If-Match: "<version>"`` header); a stale
one answers 409 with the current protocol under ``match``. A deal's idempotency key is the
``Idempotency-Key`` header or its ``client_id`` field; every write's retry is recognised by
``scoring.services.idempotency`` (a key reused for another deal: 409 ``idempotency_conflict``).
Errors use the common format
``{"errors": [{"code", "message", "field"}]}``; the engine's errors also name ``seat``/``tile``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from config.limits import body_limit
from scoring import selectors, services
from scoring.errors import Conflict, NotAllowed, ScoringError, current_lang
from scoring.models import SEATS, Match
from scoring.serializers import (
    ConfirmInSerializer,
    CorrectionInSerializer,
    DealInSerializer,
    DealOutSerializer,
    MatchCreateSerializer,
    MatchOutSerializer,
    PinInSerializer,
    SubmitInSerializer,
    VerdictOutSerializer,
    VersionOutSerializer,
)

# --- helpers ----------------------------------------------------------------------------------

_ERRORS = {400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT}
_WRITE_ERRORS = {**_ERRORS, 409: OpenApiTypes.OBJECT}


def _key(what: str, also: str = "") -> OpenApiParameter:
    return OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, description=(
        f"A UUID for this {what} (or the body's client_id). Sent again with the same {what}: "
        f"the stored one, 201, nothing new. With a different {what}{also}: 409 "
        "idempotency_conflict, nothing stored."))  # fmt: skip


def _scoring_answer(exc: ScoringError) -> Response:
    body: dict[str, Any] = {"errors": exc.errors}
    if isinstance(exc, Conflict) and exc.match is not None:
        body["match"] = selectors.match_data(selectors.get_match(exc.match.pk))
    return Response(body, status=exc.status)


def _expected_version(request: Request, data: dict[str, Any]) -> int | None:
    value = data.get("expected_version")
    if value is not None:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().isdecimal():
            return int(value)
        raise ScoringError.one(
            "bad_version", _("expected_version must be the protocol's version number."),
            "expected_version",
        )  # fmt: skip
    header = request.headers.get("If-Match", "").strip().strip('W/"').strip('"')
    if not header:
        return None
    if not header.isdigit():
        raise ScoringError.one(
            "bad_version", _("If-Match must be the protocol's version number."), "If-Match"
        )
    return int(header)


def _deal_body(request: Request) -> dict[str, Any]:
    """The request body as the raw deal: the engine, not a serializer, judges its contents."""
    if not isinstance(request.data, dict):
        raise ScoringError.one("bad_deal", _("A deal must be an object."), "deal")
    return dict(request.data)


# --- viewset ----------------------------------------------------------------------------------


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Score sheets: read as allowed; referees write their match; the desk confirms and corrects."""

    serializer_class = MatchOutSerializer

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        """Anonymous readers see people by their names, never by their logins (a login is half
        of what a password guess needs)."""
        response = super().finalize_response(request, response, *args, **kwargs)
        # the user as authentication left it: asking ``request.user`` again could touch the
        # database, which may be why this answer is an error (a 503 must stay the API's own)
        user = getattr(request, "_user", None)
        anonymous = user is None or not user.is_authenticated
        if anonymous and isinstance(response, Response):
            response.data = _without_logins(response.data)
        return response
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[Match]:
        return services.visible_matches(self.request.user, selectors.matches())

    def get_object(self) -> Match:
        # the protocol is read without the visibility filter in its query (a join of eight
        # tables costs more to plan than one small check of its own)
        try:
            match = selectors.get_match(self._pk(), known_users=[self.request.user])
        except Match.DoesNotExist as exc:
            raise Http404 from exc
        if not services.can_see(self.request.user, match):
            raise Http404
        return match

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        if page is None:
            return Response([selectors.match_data(m) for m in self.get_queryset()])
        return self.get_paginated_response([selectors.match_data(m) for m in page])

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(selectors.match_data(self.get_object()))

    def _run(self, call: Callable[[], Response], writers_only: bool = False) -> Response:
        """``call``'s answer, or its refusal as an API answer. A hidden match is not there, for
        writes too (404). ``writers_only``: the service lets through only the match's writers,
        who all see it, so visibility is asked only when it refuses: the deals a hall records
        every second skip that read."""
        try:
            if "pk" in self.kwargs and not writers_only:
                self._require_visible()
            return call()
        except ScoringError as exc:
            if writers_only and "pk" in self.kwargs:
                self._require_visible()
            return _scoring_answer(exc)
        except APIException:
            # DRF's own refusals made while reading the request (a body that is not JSON):
            # for a hidden match, 404 all the same
            if writers_only and "pk" in self.kwargs:
                self._require_visible()
            raise
        except Match.DoesNotExist as exc:
            raise Http404 from exc

    def _require_visible(self) -> None:
        # one small read and ``can_see`` (no query for the match's own referee), not the
        # visibility filter's join, which cost every deal of the hall a few milliseconds
        match = Match.objects.only("pk", "referee_id").filter(pk=self._pk()).first()
        if match is None or not services.can_see(self.request.user, match):
            raise Http404

    def _pk(self) -> int:
        return int(self.kwargs["pk"])

    def _protocol(self, status_code: int = 200) -> Response:
        match = selectors.get_match(self._pk(), known_users=[self.request.user])
        return Response(selectors.match_data(match), status=status_code)

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchOutSerializer,
                   **_WRITE_ERRORS}, parameters=[_key("match")])  # fmt: skip
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = MatchCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        data["client_id"] = request.headers.get("Idempotency-Key") or data["client_id"]
        bad = next((seat for seat in data["seats"] if seat not in SEATS), None)
        if bad is not None:
            return _scoring_answer(ScoringError.one(
                "bad_seat", _("Unknown seat %(seat)s.") % {"seat": bad}, f"seats.{bad}"
            ))  # fmt: skip

        def call() -> Response:
            match = services.create_match(user=request.user, **data)
            return Response(selectors.match_data(selectors.get_match(match.pk)), status=201)

        return self._run(call)

    @extend_schema(
        methods=["GET"], request=None, responses={200: DealOutSerializer(many=True), **_ERRORS}
    )
    @extend_schema(
        methods=["POST"],
        request=DealInSerializer,
        responses={201: DealOutSerializer, **_WRITE_ERRORS},
        parameters=[_key("deal", " (or after that deal was deleted)")],
    )
    @body_limit("DEAL_MAX_BYTES")
    @action(detail=True, methods=["get", "post"], url_path="deals")
    def deals(self, request: Request, pk: str) -> Response:
        if request.method == "GET":
            return Response([selectors.deal_data(d) for d in self.get_object().deals.all()])

        def call() -> Response:
            body = _deal_body(request)
            key = request.headers.get("Idempotency-Key") or body.get("client_id")
            recorded = services.record_deal(
                self._pk(), body, request.user, client_id=key,
                expected_version=_expected_version(request, body),
            )  # fmt: skip
            return Response(selectors.deal_data(recorded.deal), status=status.HTTP_201_CREATED)

        return self._run(call, writers_only=True)

    @extend_schema(request=DealInSerializer, responses={200: VerdictOutSerializer, **_ERRORS})
    @body_limit("DEAL_MAX_BYTES")
    @action(detail=True, methods=["post"], url_path="deals/preview")
    def preview(self, request: Request, pk: str) -> Response:
        def call() -> Response:
            self._require_writer()
            verdict = services.preview_deal(self._pk(), _deal_body(request))
            data = verdict.to_dict()
            # the engine's contract gives English and ``message_ru``; the API answers in the
            # request's language, as its other errors do (``message_ru`` stays for old clients)
            lang = current_lang()
            for error, problem in zip(data["errors"], verdict.errors, strict=True):
                error["message"] = problem.message(lang)
            return Response({"verdict": data})

        return self._run(call)

    def _require_writer(self) -> None:
        match = Match.objects.get(pk=self._pk())
        if not services.can_write(self.request.user, match):
            raise NotAllowed.one(
                "not_referee", _("Only the match's referee or the chief referee may change it.")
            )

    @extend_schema(
        methods=["PATCH"],
        request=DealInSerializer,
        responses={200: DealOutSerializer, **_WRITE_ERRORS},
    )
    @extend_schema(
        methods=["DELETE"], request=None, responses={200: MatchOutSerializer, **_WRITE_ERRORS}
    )
    @body_limit("DEAL_MAX_BYTES")
    @action(detail=True, methods=["patch", "delete"], url_path=r"deals/(?P<n>\d+)")
    def last_deal(self, request: Request, pk: str, n: str) -> Response:
        def call() -> Response:
            if request.method == "DELETE":
                data = request.data if isinstance(request.data, dict) else {}
                services.delete_last_deal(
                    self._pk(), request.user, n=int(n),
                    expected_version=_expected_version(request, data),
                )  # fmt: skip
                return self._protocol()
            body = _deal_body(request)
            deal = services.amend_last_deal(
                self._pk(), body, request.user, n=int(n),
                expected_version=_expected_version(request, body),
            )  # fmt: skip
            return Response(selectors.deal_data(deal))

        return self._run(call, writers_only=True)

    @extend_schema(request=SubmitInSerializer, responses={200: MatchOutSerializer, **_WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def submit(self, request: Request, pk: str) -> Response:
        def call() -> Response:
            # read inside ``_run``: a body refused for a hidden match is 404 like the rest
            form = SubmitInSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            services.submit(
                self._pk(), request.user,
                expected_version=_expected_version(request, form.validated_data),
            )  # fmt: skip
            return self._protocol()

        return self._run(call, writers_only=True)

    @extend_schema(request=PinInSerializer, responses={200: MatchOutSerializer, **_WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def pin(self, request: Request, pk: str) -> Response:
        """The desk issues the PIN the opposing captain types to confirm the protocol."""
        def call() -> Response:
            form = PinInSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            services.set_confirm_pin(self._pk(), request.user, form.validated_data["pin"])
            return self._protocol()

        return self._run(call)

    @extend_schema(
        request=ConfirmInSerializer, responses={200: MatchOutSerializer, **_WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        def call() -> Response:
            form = ConfirmInSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            services.confirm(self._pk(), request.user, pin=form.validated_data.get("pin") or None)
            return self._protocol()

        return self._run(call)

    @extend_schema(
        request=CorrectionInSerializer, responses={200: MatchOutSerializer, **_WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def corrections(self, request: Request, pk: str) -> Response:
        def call() -> Response:
            form = CorrectionInSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            data = form.validated_data
            services.correct(
                self._pk(), request.user, data["deals"], data["reason"],
                expected_version=_expected_version(request, data),
            )  # fmt: skip
            return self._protocol()

        return self._run(call)

    @extend_schema(request=None, responses={200: VersionOutSerializer(many=True), **_ERRORS})
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: str) -> Response:
        match = self.get_object()
        return Response([selectors.version_data(row) for row in selectors.history(match.pk)])


def _without_logins(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_logins(v) for k, v in data.items() if k != "username"}
    if isinstance(data, list):
        return [_without_logins(v) for v in data]
    return data
