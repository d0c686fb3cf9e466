"""Helpers of the scoring tests: users in roles, players, a simulated sports match."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import Group, User

from rules import make_rules
from rules.simulate import play_match
from scoring import services
from scoring.models import Match

#: a full, legal eight-deal sports-domino match (no redeal), with declared amounts
SPORT_SEED = 0


def sport_deals() -> list[dict[str, Any]]:
    return play_match(make_rules("sport"), random.Random(SPORT_SEED), style="tiles", declare=True)


def make_user(username: str, *groups: str) -> User:
    user = User.objects.create_user(username, password="s3cret-pass", first_name=username)
    for name in groups:
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


def make_player(last_name: str) -> Any:
    # Through the seat's foreign key: the scoring app does not import tournaments' models.
    player_model = Match._meta.get_field("seat_n").related_model
    return player_model._default_manager.create(last_name=last_name)


def record_all(match: Match, user: User, deals: list[dict[str, Any]]) -> Match:
    for deal in deals:
        services.record_deal(match.pk, deal, user)
    return Match.objects.get(pk=match.pk)


def paper_rows(deals: list[dict[str, Any]], sides: tuple[str, ...] = ("NS", "EW"),
               **extra: Any) -> dict[str, Any]:
    """The desk's paper-protocol form (``/matches/<id>/transcribe/``) with ``deals`` typed in,
    as a browser posts it: a row per deal, hands as tiles or pips, written amounts from
    ``declared``, each row with its own key."""
    import uuid

    data: dict[str, Any] = {"row-TOTAL_FORMS": len(deals), "row-INITIAL_FORMS": 0,
                            "row-MIN_NUM_FORMS": 0, "row-MAX_NUM_FORMS": 1000, **extra}
    for i, deal in enumerate(deals):
        row = f"row-{i}-"
        data[row + "result"] = deal["result"]
        data[row + "by"] = deal.get("by", "") if deal["result"] != "redeal" else ""
        data[row + "key"] = str(uuid.uuid4())
        for seat, tiles in (deal.get("hands") or {}).items():
            data[f"{row}hand_{seat}"] = tiles
        for seat, pips in (deal.get("pips") or {}).items():
            data[f"{row}hand_{seat}"] = str(pips)
        for side in sides:
            amount = (deal.get("declared") or {}).get(side)
            data[f"{row}written_{side}"] = "" if amount is None else str(amount)
        if deal.get("time_up"):
            data[row + "time_up"] = "on"
    return data
