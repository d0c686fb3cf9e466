"""The API's JSON, read through ``config.inputs``: a parser and serializer fields that refuse
nesting deeper than ``MAX_JSON_DEPTH``, NUL characters and lone surrogates with a 400 instead
of a crash (DRF's own parser lets ``RecursionError`` through as a 500, and PostgreSQL refuses
NUL in ``jsonb`` with a ``DataError``).

    JSONParser          the default parser of every API view (settings.REST_FRAMEWORK)
    JSONObjectField     a JSON object field (``rules_options``) that also reads form fields
                        holding JSON text, and refuses null, lists and scalars

A leaf beside ``config.inputs``: every app may use it (docs/architecture.md).
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError

from config.inputs import BadJSON, check_json, load_json, too_deep


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the depth and text checks of ``config.inputs.load_json``."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:  # fmt: skip
        context = parser_context or {}
        encoding = context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            value = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError as err:
            raise _parse_error(too_deep()) from err
        except (ValueError, TypeError) as err:  # UnicodeDecodeError is a ValueError too
            raise ParseError(_("The body is not valid JSON."), code="parse_error") from err
        try:
            check_json(value)
        except BadJSON as err:
            raise _parse_error(err) from err
        return value


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (DRF's strict mode refuses them the same way)
    raise ValueError(f"{name} is not valid JSON")


def _parse_error(err: BadJSON) -> ParseError:
    return ParseError(err.message, code=err.code)


class JSONObjectField(serializers.JSONField):
    """A JSON object: from a JSON body as it is, from a form field as JSON text; depth and text
    checked either way. ``null``, lists and scalars are refused (``not_an_object``)."""

    default_error_messages = {
        "not_an_object": _("Give an object of name: value."),
        "invalid": _("Value must be valid JSON."),
    }

    def to_internal_value(self, data: Any) -> Any:
        try:
            if isinstance(data, str | bytes) and (self.binary
                                                 or getattr(data, "is_json_string", False)):
                value = load_json(data)
            else:
                check_json(data)
                value = data
        except BadJSON as err:
            raise serializers.ValidationError(err.message, code=err.code) from err
        if not isinstance(value, dict):
            self.fail("not_an_object")
        return value
