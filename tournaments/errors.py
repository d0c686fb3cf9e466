"""Errors the tournaments services raise for things an organiser can fix: translated, with a code.

    TournamentError (400)  the input or the request is refused; ``errors`` lists why
    ├── NotAllowed   (403) this user may not manage this tournament
    ├── Conflict     (409) the tournament or round is in the wrong state for that
    └── Unavailable  (503) a service it needs (the task queue) is down: try again later

Items have the API's shape ``{"code", "message", "field"}``. Anything else a service raises is a
bug. ``PairingFailed`` is raised inside the pairing task and ends up in ``Round.error``.
"""

from __future__ import annotations

from typing import Any

ErrorItem = dict[str, Any]


def error(code: str, message: Any, field: str | None = None) -> ErrorItem:
    return {"code": code, "message": str(message), "field": field}


class TournamentError(Exception):
    status = 400

    def __init__(self, errors: list[ErrorItem]) -> None:
        super().__init__(errors[0]["message"] if errors else "error")
        self.errors = errors

    @classmethod
    def one(cls, code: str, message: Any, field: str | None = None) -> TournamentError:
        return cls([error(code, message, field)])

    @property
    def codes(self) -> list[str]:
        return [item["code"] for item in self.errors]

    @property
    def messages(self) -> list[str]:
        return [item["message"] for item in self.errors]


class NotAllowed(TournamentError):
    status = 403


class Conflict(TournamentError):
    status = 409


class Unavailable(TournamentError):
    """A service the request needs is down; nothing was changed, the same request may be retried
    (the API adds ``Retry-After``)."""

    status = 503
    retry_after = 30


class PairingFailed(TournamentError):
    """The pairing job cannot produce a pairing (too few entries, …); shown on the round."""
