"""The audit page in words (issue 28): each change reads «what: before → after» with players,
entries, clubs, users and tables by their names, choices by their labels and the rules in
words, translated; before, the «Before» and «After» columns showed the stored JSON with the
rows' ids (``{"club": 7}``, ``{"referee": 3}``) in every language."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tournaments import discipline, registration, rounds
from tournaments.models import Club, Pairing, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


def audit_table(client, tournament: Tournament, language: str = "ru") -> str:
    client.cookies["django_language"] = language
    html = client.get(f"/manage/{tournament.pk}/audit/").content.decode()
    table = html.split('id="audit"', 1)[1].split("</table>", 1)[0]
    assert "&quot;" not in table and "{" not in table  # no JSON left
    return " ".join(re.sub(r"<[^>]+>", "", table).split())


def named(username: str, first: str, last: str, *groups: str) -> User:
    user = make_user(username, *groups)
    User.objects.filter(pk=user.pk).update(first_name=first, last_name=last)
    user.refresh_from_db()
    return user


def test_setup_registration_and_sanctions_in_words(client, tournament, organiser,
                                                   pairs) -> None:  # fmt: skip
    a, b = pairs(tournament, 2)
    registration.update_tournament(organiser, tournament.pk, rules_options={"deals": 12})
    chief = named("chief7", "Анна", "Лаптева", "Chief referee")
    registration.set_chief_referees(organiser, tournament.pk, [chief])
    moved_to = Club.objects.create(name="Клуб «Рыба»")
    old_club = b.club.name
    registration.update_entry(organiser, b.pk, club=moved_to)
    registration.withdraw_entry(organiser, b.pk)
    registration.reinstate_entry(organiser, b.pk)
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    play_round(tournament, 1, [(a, b, (120, 80))])
    player = b.players.order_by("last_name").first()
    discipline.record_sanction(chief, tournament.pk, entry_id=b.pk, round_number=1,
                               kind="yellow", reason="спор", player_id=player.pk)  # fmt: skip
    client.force_login(organiser)
    text = audit_table(client, tournament)
    assert "Изменения правил: как в наборе правил → Раздач в партии: 12" in text
    assert "Главные судьи: — → Анна Лаптева" in text and "chief7" not in text
    assert f"Клуб: {old_club} → Клуб «Рыба»" in text
    assert "Статус: Играет → Снят" in text and "Статус: Снят → Играет" in text
    assert "Участник: Пара 2" in text and f"Игрок: {player.full_name}" in text
    assert "Вид: Жёлтая карточка" in text and "Тур: 1" in text
    english = audit_table(client, tournament, "en")
    assert ("Rule overrides: as the rules preset has them → Counted deals in a match: 12"
            in english)  # fmt: skip
    assert "Chief referees: — → Анна Лаптева" in english


def test_rounds_swaps_and_referees_in_words(
    client, tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    pairs(tournament, 4)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.start_pairing(organiser, tournament.pk)
    one, two = (Pairing.objects.get(round=round_, table=n) for n in (1, 2))
    moved = one.places.first().entry
    rounds.swap(organiser, round_.pk, moved.pk, two.places.first().entry_id)
    referee = named("ref7", "Олег", "Судейкин", "Referee")
    rounds.assign_referee(organiser, one.pk, referee)
    rounds.set_locked(organiser, one.pk, True)
    client.force_login(organiser)
    text = audit_table(client, tournament)
    assert re.search(rf"{re.escape(moved.name)}: стол 1, \w+ → стол 2, \w+", text)
    assert "Судья: — → Олег Судейкин" in text and "ref7" not in text
    assert "Стол: 1 Закреплён: нет → да" in text
    assert "Номер: 1 Статус: Новый → Составляются пары" in text
