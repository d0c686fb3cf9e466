"""The OpenAPI schema says what the API really answers (Schemathesis checks it, every check on).

    AutoSchema        drf-spectacular's, with two corrections:
                      * only a viewset's ``list`` is paginated (``PageNumberPagination``);
                        the actions that return a whole list (a match's deals, its history,
                        a tournament's entries, rounds, sanctions) are documented as plain
                        arrays, as they are;
                      * every operation documents the refusals every view can give, in the one
                        error format (``Errors``): 400, 401, 403, 404, 405 and 503 for all;
                        409, 413 and 429 for writes.

Views still document their own successful answers (and error codes with a body of their own)
with ``extend_schema``; the codes added here never replace a view's own.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from rest_framework import serializers


class ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable, machine-readable")
    message = serializers.CharField(help_text="translated, for people")
    field = serializers.CharField(allow_null=True, help_text="the input it concerns, or null")


class ErrorsSerializer(serializers.Serializer):
    """Every 4xx and 503 of the API: ``{"errors": [{"code", "message", "field"}]}``."""

    errors = ErrorItemSerializer(many=True)


#: the refusals every operation can give, and those only writes can
EVERY_OPERATION = ("400", "401", "403", "404", "405", "503")
WRITES_ONLY = ("409", "413", "429")
WRITES = ("POST", "PUT", "PATCH", "DELETE")


class AutoSchema(openapi.AutoSchema):
    def _get_paginator(self) -> Any:
        if getattr(self.view, "action", None) != "list":
            return None  # actions answer whole lists; only a viewset's list pages
        return super()._get_paginator()

    def _get_response_bodies(self, direction: Any = "response") -> Any:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = EVERY_OPERATION + (WRITES_ONLY if self.method in WRITES else ())
        for code in codes:
            if code not in responses or _free_form(responses[code]):
                responses[code] = self._get_response_for_code(ErrorsSerializer, code)
                responses[code]["description"] = str(DESCRIPTIONS[code])
        return responses


def _free_form(response: dict[str, Any]) -> bool:
    """A view's error answer documented as any object (``OpenApiTypes.OBJECT``): the error
    format says more."""
    content = response.get("content") or {}
    schemas = [media.get("schema") for media in content.values()]
    return bool(schemas) and all(s == {"type": "object", "additionalProperties": {}}
                                 for s in schemas)  # fmt: skip


DESCRIPTIONS = {
    "400": _("The request is malformed or refused (the errors say why)."),
    "401": _("Authentication is needed."),
    "403": _("This user may not do this."),
    "404": _("No such object (or not visible to this user)."),
    "405": _("The method is not allowed here."),
    "409": _("The object is not in a state that allows this (or changed meanwhile)."),
    "413": _("The request body is too large."),
    "429": _("Too many requests; see Retry-After."),
    "503": _("The database or the task queue is unavailable for a moment; see Retry-After."),
}

