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
