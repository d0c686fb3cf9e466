"""A player's record changed from his registry page (``views.PlayerView``).

    save_player(user, player_id, data) -> list[str]     the names of the fields changed

The row is locked and the right to change it asked again inside the transaction (an entry of
another organiser's tournament may have taken the player since the page was opened). The
change is logged by the registry's signals (``registration.shared``) in every tournament that
uses the player, as the admin's changes are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Player
from tournaments.registration.shared import acting
from tournaments.registry.rights import may_change


def refusal_of(err: ValidationError) -> TournamentError:
    return TournamentError([
        {"code": "invalid", "message": message, "field": None if field == "__all__" else field}
        for field, messages in err.message_dict.items() for message in messages
    ])  # fmt: skip


def not_yours() -> NotAllowed:
    return NotAllowed.one("not_yours", _(
        "This player is in a tournament you do not organise (or in none): his record is shared "
        "with other organisers, so only a site administrator may change it."))  # fmt: skip


def save_player(user: Any, player_id: int, data: Mapping[str, Any]) -> list[str]:
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if not may_change(user, player):
            raise not_yours()
        changed = [name for name, value in data.items() if getattr(player, name) != value]
        for name in changed:
            setattr(player, name, data[name])
        if not changed:
            return []
        try:
            player.full_clean()
        except ValidationError as err:
            raise refusal_of(err) from err
        with acting(user):
            player.save()
        return changed
