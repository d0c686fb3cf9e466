"""Read queries of the scoring app for views, the API and exports; each a bounded query count.

    matches() -> QuerySet[Match]                 seats, referee and deals loaded (3 queries)
    get_match(match_id, known_users) -> Match    the same for one match (Match.DoesNotExist);
        its referee and the users who submitted and confirmed it in one query at most (none
        for those among ``known_users``: the phone's own user, usually all of them)
    match_data(match) -> dict                    the protocol as the API and pages show it:
        seats, status, version, deals with verdicts, totals, finished, end, winner as in the
        rules contract (RULES.md section 13), the expected leader of the next deal
    deal_data(deal) -> dict                      one stored deal (n, client_id, record, verdict)
    history(match_id) -> QuerySet[MatchVersion]  every change, oldest first, with its user
    sides(match) -> dict[str, list[str]]         side → seats ("NS": ["N", "S"] …)

Nothing here writes; ``scoring.services`` does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, QuerySet

from scoring.models import Deal, Match, MatchVersion


def matches() -> QuerySet[Match]:
    """Matches with their seats, users and deals. The users come in queries of their own: a
    join of eight tables costs PostgreSQL ~2 ms to plan on every request, four cost ~0.3 ms,
    and the three small lookups less than the difference."""
    return Match.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w").prefetch_related(
        "referee", "submitted_by", "confirmed_by",
        Prefetch("deals", queryset=Deal.objects.order_by("n")),
    )  # fmt: skip


#: the users a protocol names, shown by ``match_data``
_USERS = ("referee", "submitted_by", "confirmed_by")


def get_match(match_id: int, known_users: Iterable[Any] = ()) -> Match:
    match = (
        Match.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .prefetch_related(Prefetch("deals", queryset=Deal.objects.order_by("n")))
        .get(pk=match_id)
    )
    users = {user.pk: user for user in known_users if getattr(user, "pk", None) is not None}
    wanted = {getattr(match, f"{name}_id") for name in _USERS} - {None} - set(users)
    if wanted:
        users.update((u.pk, u) for u in get_user_model().objects.filter(pk__in=wanted))
    for name in _USERS:
        user_id = getattr(match, f"{name}_id")
        if user_id is not None and user_id in users:
            setattr(match, name, users[user_id])
    return match


def history(match_id: int) -> QuerySet[MatchVersion]:
    return MatchVersion.objects.filter(match_id=match_id).select_related("user").order_by("version")


def sides(match: Match) -> dict[str, list[str]]:
    rules = match.get_rules()
    if rules.partnership:
        return {"NS": ["N", "S"], "EW": ["E", "W"]}
    return {seat: [seat] for seat in rules.seats}


def _user(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.get_username(), "name": user.get_full_name()}


def deal_data(deal: Deal) -> dict[str, Any]:
    return {
        "n": deal.n,
        "client_id": str(deal.client_id) if deal.client_id else None,
        "record": deal.record,
        "verdict": deal.verdict,
        "match_version": deal.match_version,
        "created_at": deal.created_at.isoformat(),
    }


def match_data(match: Match) -> dict[str, Any]:
    rules = match.get_rules()
    seats: dict[str, Any] = {}
    for seat in rules.seats:
        player = getattr(match, f"seat_{seat.lower()}")
        seats[seat] = None if player is None else {"id": player.pk, "name": str(player)}
    return {
        "id": match.pk,
        "label": match.label,
        "round": match.round,
        "table": match.table,
        "title": match.title,
        "status": match.status,
        "version": match.version,
        "rules_preset": match.rules_preset,
        "rules_options": match.rules_options,
        "rules": match.rules,
        "seats": seats,
        "sides": sides(match),
        "referee": _user(match.referee),
        "deals": [deal_data(deal) for deal in match.deals.all()],
        "totals": match.totals,
        "deals_won": match.deals_won,
        "finished": match.finished,
        "end": match.end or None,
        "winner": match.winner or None,
        "unclaimed_eggs": match.unclaimed_eggs,
        "next_leader": match.next_leader or None,
        "outcome": match.outcome,
        "has_pin": bool(match.confirm_pin),
        "submitted_by": _user(match.submitted_by),
        "submitted_at": match.submitted_at.isoformat() if match.submitted_at else None,
        "confirmed_by": _user(match.confirmed_by),
        "confirmed_with_pin": match.confirmed_with_pin,
        "confirmed_at": match.confirmed_at.isoformat() if match.confirmed_at else None,
    }


def version_data(row: MatchVersion) -> dict[str, Any]:
    return {
        "version": row.version,
        "action": row.action,
        "user": _user(row.user),
        "at": row.at.isoformat(),
        "reason": row.reason,
        "before": row.before,
        "after": row.after,
        "confirmed": row.confirmed,
        "protocol": row.protocol,
    }
