"""The organiser's prizes page through the Django test client: categories, prizes, the rules of
the list and the players' sex and year of birth; nobody else's tournament is reachable."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from accounts.models import AuditEntry
from tournaments.models import Category, Prize, Tournament
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def url(tournament: Tournament) -> str:
    return reverse("tournaments:manage_prizes", args=[tournament.pk])


def test_the_organiser_sets_up_categories_prizes_and_players(client, organiser, tournament):
    entries = add_pairs(tournament, 4)
    client.force_login(organiser)
    page = client.get(url(tournament))
    assert page.status_code == 200 and 'id="players-form"' in page.content.decode()
    answer = client.post(url(tournament), {"action": "category", "name": "Ветераны",
                                           "order": 1, "age_min": 60, "members": "all"})
    assert answer.status_code == 302, answer.content.decode()
    veterans = Category.objects.get(tournament=tournament, name="Ветераны")
    assert veterans.age_min == 60 and veterans.members == "all"
    # chosen by the organiser: the entries ticked
    client.post(url(tournament), {"action": "category", "name": "Гости", "members": "chosen",
                                  "order": 2, "entries": [entries[1].pk, entries[2].pk]})
    guests = Category.objects.get(tournament=tournament, name="Гости")
    assert set(guests.entries.values_list("pk", flat=True)) == {entries[1].pk, entries[2].pk}
    # changed through ?edit=
    assert "Ветераны" in client.get(url(tournament), {"edit": veterans.pk}).content.decode()
    client.post(url(tournament), {"action": "category", "category_id": veterans.pk,
                                  "name": "Ветераны 65+", "order": 1, "age_min": 65,
                                  "members": "any"})  # fmt: skip
    veterans.refresh_from_db()
    assert (veterans.name, veterans.age_min, veterans.members) == ("Ветераны 65+", 65, "any")
    # prizes: a place listed again is changed, not doubled
    for amount in ("500", "700"):
        client.post(url(tournament), {"action": "prize", "place": 1, "amount": amount,
                                      "text": "Кубок"})  # fmt: skip
    client.post(url(tournament), {"action": "prize", "category": veterans.pk, "place": 1,
                                  "amount": "300"})  # fmt: skip
    assert Prize.objects.filter(tournament=tournament).count() == 2
    assert Prize.objects.get(tournament=tournament, category=None).amount == Decimal(700)
    client.post(url(tournament), {"action": "settings", "prize_priority": "category",
                                  "prize_ties": "split", "club_best": 2})  # fmt: skip
    tournament.refresh_from_db()
    assert (tournament.prize_priority, tournament.prize_ties, tournament.club_best) == (
        "category", "split", 2)
    # players' sex and year of birth
    player = entries[0].players.first()
    data = {"action": "players"}
    data.update({f"sex_{p.pk}": "" for e in entries for p in e.players.all()})
    data[f"sex_{player.pk}"], data[f"year_{player.pk}"] = "f", "1958"
    assert client.post(url(tournament), data).status_code == 302
    player.refresh_from_db()
    assert (player.sex, player.birth_year) == ("f", 1958)
    # removed: a category takes its prizes with it
    client.post(url(tournament), {"action": "delete_category", "id": veterans.pk})
    assert not Category.objects.filter(pk=veterans.pk).exists()
    assert Prize.objects.filter(tournament=tournament).count() == 1
    prize = Prize.objects.get(tournament=tournament)
    client.post(url(tournament), {"action": "delete_prize", "id": prize.pk})
    assert not Prize.objects.filter(tournament=tournament).exists()
    actions = set(AuditEntry.objects.filter(tournament_id=tournament.pk)
                  .values_list("action", flat=True))  # fmt: skip
    assert {"category.save", "category.delete", "prize.save", "prize.delete", "prizes.settings",
            "player.update"} <= actions


def test_bad_input_is_a_translated_400_and_nothing_is_written(client, organiser, tournament):
    add_pairs(tournament, 2)
    client.force_login(organiser)
    answer = client.post(url(tournament), {"action": "category", "name": "Юниоры", "order": 0,
                                           "age_min": 20, "age_max": 10, "members": "all"})
    assert answer.status_code == 400
    assert not Category.objects.filter(tournament=tournament).exists()
    Category.objects.create(tournament=tournament, name="Юниоры")
    answer = client.post(url(tournament), {"action": "category", "name": "Юниоры", "order": 0,
                                           "members": "all"})  # fmt: skip
    assert answer.status_code == 400
    assert "уже существует" in answer.content.decode()
    assert Category.objects.filter(tournament=tournament).count() == 1
    answer = client.post(url(tournament), {"action": "prize", "place": 0, "amount": "-5"})
    assert answer.status_code == 400 and not Prize.objects.exists()
    answer = client.post(url(tournament), {"action": "settings", "prize_priority": "x",
                                           "prize_ties": "tiebreak", "club_best": 0})
    assert answer.status_code == 400


def test_nobody_reaches_another_organisers_prizes(client, organiser, other_organiser,
                                                  tournament):  # fmt: skip
    theirs = TournamentFactory(name="Чужой")
    theirs.organisers.add(other_organiser)
    their_entries = add_pairs(theirs, 2)
    their_category = Category.objects.create(tournament=theirs, name="Женщины")
    their_prize = Prize.objects.create(tournament=theirs, place=1, amount=100)
    client.force_login(organiser)
    assert client.get(url(theirs)).status_code == 403
    assert client.post(url(theirs), {"action": "delete_prize",
                                     "id": their_prize.pk}).status_code == 403
    # from my own page, their category, prize, entries and players are not found
    add_pairs(tournament, 2)
    client.post(url(tournament), {"action": "delete_category", "id": their_category.pk})
    client.post(url(tournament), {"action": "delete_prize", "id": their_prize.pk})
    assert Category.objects.filter(pk=their_category.pk).exists()
    assert Prize.objects.filter(pk=their_prize.pk).exists()
    answer = client.post(url(tournament), {"action": "category", "category_id": their_category.pk,
                                           "name": "Взлом", "order": 0, "members": "all"})
    their_category.refresh_from_db()
    assert their_category.name == "Женщины"
    answer = client.post(url(tournament), {"action": "category", "name": "Мои", "order": 0,
                                           "members": "chosen",
                                           "entries": [their_entries[0].pk]})  # fmt: skip
    assert answer.status_code == 400
    player = their_entries[0].players.first()
    answer = client.post(url(tournament), {"action": "players", f"sex_{player.pk}": "f"})
    player.refresh_from_db()
    assert player.sex == ""
    client.logout()
    assert client.get(url(tournament)).status_code == 302  # to the login page
