"""The personal page's socket: its key subscribes to the tournament's public parts (a private
tournament's too, the messages carry no data); a wrong or renewed key is refused."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.live.announce import public_group
from tournaments.live.consumers import groups_for
from tournaments.personal.services import new_link
from tournaments.tests.live.test_consumers import handshake


@pytest.mark.django_db(transaction=True)
def test_the_key_opens_the_socket_of_its_tournament_only_while_it_is_valid(
    tournament: Any, pairs: Any, organiser: Any, in_process_layer: None
) -> None:
    tournament.public = False
    tournament.save()
    entry = pairs(tournament, 2)[0]
    assert handshake(f"/ws/live/p/{entry.token}/")
    assert not handshake(f"/ws/live/{tournament.pk}/")  # hidden without the key
    assert groups_for(None, None, False, entry.token) == [public_group(tournament.pk)]
    assert not handshake("/ws/live/p/" + "x" * 22 + "/")
    assert groups_for(None, None, False, "not a key!") is None
    old = entry.token
    new_link(organiser, entry.pk)
    assert groups_for(None, None, False, old) is None  # the recheck closes an open socket
    assert not handshake(f"/ws/live/p/{old}/")
