"""A player shared with another organiser's tournament is not his to change from the prize
list's page either: his sex and year of birth decide the other organiser's categories."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments.models import Entry, Tournament
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db


def test_the_prizes_page_locks_a_player_of_another_organisers_tournament(
    client, organiser: User, other_organiser: User, tournament: Tournament
) -> None:
    entries = add_pairs(tournament, 2)
    shared, own = entries[0].players.all()[:2]
    theirs = Tournament.objects.create(name="Чужой кубок")
    theirs.organisers.add(other_organiser)
    Entry.objects.create(tournament=theirs, name="Чужая пара").players.add(shared)
    client.force_login(organiser)
    url = f"/manage/{tournament.pk}/prizes/"
    page = client.get(url).content.decode()
    assert f'name="sex_{shared.pk}"' in page and "может только администратор сайта" in page
    # the shared player's fields are shown but not taken; his own player's are
    client.post(url, {"action": "players", f"sex_{shared.pk}": "f", f"year_{shared.pk}": "1950",
                      f"sex_{own.pk}": "m", f"year_{own.pk}": "1960"})  # fmt: skip
    shared.refresh_from_db()
    own.refresh_from_db()
    assert (shared.sex, shared.birth_year) == ("", None)
    assert (own.sex, own.birth_year) == ("m", 1960)
