"""What any input must be before the app reads it further: JSON of a sane depth, and text the
database can store and people can read.

    load_json(text) -> Any           json.loads, refusing depth > MAX_JSON_DEPTH and NUL (BadJSON)
    check_json(value) -> None        the same checks on JSON already parsed (BadJSON)
    validate_text(value)             no NUL (PostgreSQL refuses it in text and jsonb)
    validate_name(value)             also no control, format (zero-width, BOM, bidi override),
                                     surrogate, private-use or line-separator characters
    JSONFormField                    a form's JSON textarea, read with ``load_json``
    quoted(name) -> str              a name in «» for a sentence, unless it has quotes of its own

A leaf: it imports nothing of the project, so every app may use it (docs/architecture.md). The
API's JSON parser (``config.parsers``), the forms that take JSON in a textarea, the archive
reader and the services that store JSON all go through ``load_json``/``check_json``; the
models' name fields carry ``validate_name``, so forms, serializers and ``full_clean`` refuse
the same names.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

#: the deepest nesting any input of the app may have: a deal record is 3 deep, an archive 6
MAX_JSON_DEPTH = 32

#: Unicode categories refused in names: controls (Cc), format characters (Cf: zero-width
#: spaces and joiners, the BOM, right-to-left overrides and isolates), surrogates (Cs),
#: private use (Co) and the line and paragraph separators (Zl, Zp). They hide or reorder text:
#: two names that look the same, a name shown backwards in the standings.
REFUSED_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


class BadJSON(ValueError):
    """Input that is not JSON the app accepts; ``code`` and ``message`` say why (translated)."""

    def __init__(self, code: str, message: Any) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = str(message)


def load_json(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses what the app cannot keep: nesting deeper than ``max_depth``
    (the C decoder itself gives up at the interpreter's recursion limit), NUL characters and
    lone surrogates in strings. Raises ``BadJSON``."""
    try:
        value = json.loads(text)
    except RecursionError as err:
        raise too_deep(max_depth) from err
    except (ValueError, TypeError) as err:
        raise BadJSON("bad_json", _("The body is not valid JSON.")) from err
    check_json(value, max_depth)
    return value


def too_deep(max_depth: int = MAX_JSON_DEPTH) -> BadJSON:
    return BadJSON("too_deep", _("The JSON is nested more than %(n)s levels deep.")
                   % {"n": max_depth})  # fmt: skip


def check_json(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Depth, NUL and surrogates of parsed JSON, walked without recursion (the value may be
    as deep as the parser allowed)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_string(item)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise too_deep(max_depth)
            if isinstance(item, dict):
                for key, child in item.items():
                    if isinstance(key, str):
                        _check_string(key)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


def _check_string(text: str) -> None:
    if "\x00" in text:
        raise BadJSON("bad_text", _("Text may not contain the NUL character."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate: "\ud800" is valid JSON, not text
        raise BadJSON("bad_text", _("Text may not contain unpaired surrogates.")) from err


@deconstructible
class TextValidator:
    """Refuses text the database cannot store (NUL) and, for names, characters people cannot
    see or that turn the text around."""

    def __init__(self, names: bool = False) -> None:
        self.names = names

    def __call__(self, value: Any) -> None:
        if not isinstance(value, str):
            return
        if "\x00" in value:
            raise ValidationError(_("Text may not contain the NUL character."),
                                  code="null_characters_not_allowed")
        if not self.names:
            return
        for char in value:
            if unicodedata.category(char) in REFUSED_IN_NAMES:
                raise ValidationError(
                    _("Names may not contain invisible or direction-changing characters "
                      "(here U+%(code)s)."),
                    code="invisible_character", params={"code": f"{ord(char):04X}"},
                )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextValidator) and other.names == self.names

    def __hash__(self) -> int:
        return hash(("TextValidator", self.names))


validate_text = TextValidator()
validate_name = TextValidator(names=True)

#: quotation marks a name may carry itself (Клуб «Дубль», ДК "Металлург")
QUOTES = frozenset("«»„“”\"")


def quoted(name: Any) -> str:
    """The name in «» for a sentence, or as it is when it already has quotation marks: «оба из
    клуба Клуб «Дубль»», not «клуба «Клуб «Дубль»»» (every message that names a club, an entry,
    a tournament or a match goes through here rather than putting «» around it)."""
    text = str(name)
    return text if QUOTES.intersection(text) else f"«{text}»"


class JSONFormField(forms.JSONField):
    """Django's JSON form field read with ``load_json``: too deep or NUL is a form error (and
    the page shows the text again), not a ``RecursionError``."""

    def to_python(self, value: Any) -> Any:
        if (self.disabled or value in self.empty_values or not isinstance(value, str)
                or isinstance(value, JSONString)):  # fmt: skip
            return super().to_python(value)
        try:
            converted = load_json(value)
        except BadJSON as err:
            raise ValidationError(err.message, code=err.code) from err
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return load_json(data)
        except BadJSON:
            return InvalidJSONInput(data)
