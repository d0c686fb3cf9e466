"""Errors the scoring services raise for things a user can fix: translated, each with a code.

    ScoringError (400)  the input or the request is refused; ``errors`` lists why
    ├── DealRefused     the rules engine refused a deal; ``errors`` carry its codes
    ├── NotAllowed      (403) this user may not do that to this match
    └── Conflict        (409) the match changed (stale version) or is in the wrong state

Each error item has the API's shape: ``{"code", "message", "field"}`` plus, for the engine's
problems, ``seat``, ``tile``, ``expected`` and ``declared`` where known (and ``n``, the deal, in a
whole protocol's). Views and the API turn them into answers; anything else a service raises is a
bug.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from rules import Problem

ErrorItem = dict[str, Any]


def current_lang() -> str:
    """The engine's message language for the active Django language."""
    return "en" if (get_language() or "ru").startswith("en") else "ru"


def error(code: str, message: Any, field: str | None = None) -> ErrorItem:
    return {"code": code, "message": str(message), "field": field}


def problem_item(problem: Problem, prefix: str | None = None) -> ErrorItem:
    """One engine problem as an API error item; ``field`` names the seat (or tile) it concerns."""
    extra = problem.extra
    where = extra.get("seat") or extra.get("tile") or extra.get("option")
    field = f"{prefix}.{where}" if prefix and where else (where or prefix)
    item: ErrorItem = {
        "code": problem.code,
        "message": problem.message(current_lang()),
        "field": None if field is None else str(field),
    }
    for key in ("seat", "tile", "expected", "declared"):
        if key in extra:
            item[key] = extra[key]
    return item


class ScoringError(Exception):
    status = 400

    def __init__(self, errors: list[ErrorItem]) -> None:
        super().__init__(errors[0]["code"] if errors else "error")
        self.errors = errors

    @classmethod
    def one(cls, code: str, message: Any, field: str | None = None) -> ScoringError:
        return cls([error(code, message, field)])

    @property
    def codes(self) -> list[str]:
        return [item["code"] for item in self.errors]


class DealRefused(ScoringError):
    pass


class NotAllowed(ScoringError):
    status = 403


class Conflict(ScoringError):
    """The match is not in the state the caller assumed; carries the match to show."""

    status = 409

    def __init__(self, errors: list[ErrorItem], match: Any = None) -> None:
        super().__init__(errors)
        self.match = match
