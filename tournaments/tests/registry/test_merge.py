"""Two records of one person merged from the registry's page, and the merge undone from the
audit log: results, seats and sanctions follow, other organisers' players stay out of reach."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.models import AuditEntry
from scoring.models import Match
from tournaments.models import Entry, Pairing, Player, Sanction, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(organiser: User) -> Tournament:
    """A tournament of the same organiser in which the typo record plays."""
    other = Tournament.objects.create(name="Весенний кубок", public=True)
    other.organisers.add(organiser)
    return other


@pytest.fixture
def twins(tournament: Tournament, spring: Tournament) -> tuple[Player, Player]:
    """«Сидоров Иван» in the first tournament and «Сидоров Ивн» (a CSV typo) in the spring one,
    each with a played round, a seat at the table and, for the typo, a sanction."""
    first = add_pairs(tournament, 2)
    second = add_pairs(spring, 2)
    kept = Player.objects.create(last_name="Сидоров", first_name="Иван", rating=1500)
    dropped = Player.objects.create(last_name="Сидоров", first_name="Ивн", birth_year=1970,
                                    federation_id="RU-5")  # fmt: skip
    first[0].players.add(kept)
    second[0].players.add(dropped)
    play_round(tournament, 1, [(first[0], first[1], (101, 40))])
    round_ = play_round(spring, 1, [(second[0], second[1], (101, 12))])
    match = Pairing.objects.get(round=round_).match
    Match.objects.filter(pk=match.pk).update(seat_n=dropped)
    Sanction.objects.create(tournament=spring, entry=second[0], player=dropped, round_number=1,
                            kind="yellow", reason="Разговор за столом")  # fmt: skip
    return kept, dropped


def test_an_organiser_merges_a_typo_record_and_undoes_it_from_the_audit_log(
    client, organiser: User, tournament: Tournament, spring: Tournament,
    twins: tuple[Player, Player],
) -> None:  # fmt: skip
    kept, dropped = twins
    client.force_login(organiser)
    page = client.get(f"/registry/players/{kept.pk}/merge/").content.decode()
    assert "Сидоров Ивн" in page  # offered: same last name, one of his tournaments
    confirm = client.get(f"/registry/players/{kept.pk}/merge/?other={dropped.pk}").content.decode()
    assert "Весенний кубок" in confirm and "Кубок «Дубль»" in confirm

    answer = client.post(f"/registry/players/{kept.pk}/merge/", {"other": dropped.pk})
    assert answer.status_code == 302
    assert not Player.objects.filter(pk=dropped.pk).exists()
    kept.refresh_from_db()
    # his empty fields filled from the other record, his own kept
    assert (kept.first_name, kept.rating, kept.birth_year, kept.federation_id) == (
        "Иван", 1500, 1970, "RU-5")
    assert set(kept.entries.values_list("tournament__name", flat=True)) == {
        "Кубок «Дубль»", "Весенний кубок"}
    assert Match.objects.filter(seat_n=kept).count() == 1
    assert Sanction.objects.get().player_id == kept.pk
    history = client.get(f"/players/{kept.pk}/").content.decode()
    assert "Весенний кубок" in history and "Кубок «Дубль»" in history

    # both tournaments' logs say it, in words; the spring one undoes it
    log = client.get(f"/manage/{spring.pk}/audit/").content.decode()
    assert f"Сидоров Ивн (№ {dropped.pk})" in log and "Отменить объединение" in log
    merge_id = AuditEntry.objects.get(action="player.merge", tournament_id=spring.pk).after[
        "merge_id"]
    assert AuditEntry.objects.filter(action="player.merge", tournament_id=tournament.pk).exists()
    answer = client.post(f"/registry/merges/{merge_id}/undo/",
                         {"back": f"/manage/{spring.pk}/audit/"})  # fmt: skip
    assert answer.status_code == 302
    back = Player.objects.get(pk=dropped.pk)
    kept.refresh_from_db()
    assert (back.first_name, back.birth_year, back.federation_id) == ("Ивн", 1970, "RU-5")
    assert (kept.birth_year, kept.federation_id) == (None, "")
    assert list(back.entries.values_list("tournament__name", flat=True)) == ["Весенний кубок"]
    assert Match.objects.filter(seat_n=back).count() == 1
    assert Sanction.objects.get().player_id == back.pk
    log = client.get(f"/manage/{spring.pk}/audit/").content.decode()
    assert "Отменить объединение" not in log and "Отменено." in log
    # a second undo is refused with the reason, and changes nothing
    client.post(f"/registry/merges/{merge_id}/undo/")
    assert Player.objects.filter(last_name="Сидоров").count() == 2


def test_another_organisers_player_cannot_be_merged_or_edited(
    client, organiser: User, other_organiser: User, tournament: Tournament,
    twins: tuple[Player, Player],
) -> None:  # fmt: skip
    kept, dropped = twins
    theirs = Tournament.objects.create(name="Чужой турнир")
    theirs.organisers.add(other_organiser)
    Entry.objects.create(tournament=theirs, name="Чужая пара").players.add(dropped)
    client.force_login(organiser)
    page = client.get(f"/registry/players/{kept.pk}/merge/").content.decode()
    assert f"?q=Сид&amp;other={dropped.pk}" not in page and 'id="locked"' in page
    answer = client.post(f"/registry/players/{kept.pk}/merge/", {"other": dropped.pk},
                         HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 403
    assert "может только организатор всех турниров" in answer.content.decode()
    assert Player.objects.filter(pk=dropped.pk).exists()
    assert kept.entries.count() == 1
    # his record is shown, not offered for change, and a forged post changes nothing
    record = client.get(f"/registry/players/{dropped.pk}/").content.decode()
    assert 'id="not-yours"' in record and 'id="player-form"' not in record
    assert "Чужой турнир" not in record  # a private tournament of someone else stays hidden
    answer = client.post(f"/registry/players/{dropped.pk}/",
                         {"last_name": "Подменов", "rating": 9999})  # fmt: skip
    assert answer.status_code == 403
    dropped.refresh_from_db()
    assert (dropped.last_name, dropped.rating) == ("Сидоров", None)
    # nor can the other organiser undo a merge of players only the first one organises
    client.post(f"/registry/players/{kept.pk}/merge/", {"other": dropped.pk})
    assert Player.objects.filter(pk=dropped.pk).exists()


def test_two_records_in_one_tournament_are_two_people(
    client, organiser: User, tournament: Tournament, twins: tuple[Player, Player],
) -> None:  # fmt: skip
    kept, dropped = twins
    Entry.objects.create(tournament=tournament, name="Ещё пара").players.add(dropped)
    client.force_login(organiser)
    answer = client.post(f"/registry/players/{kept.pk}/merge/", {"other": dropped.pk},
                         follow=True, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert "один человек не играет дважды" in answer.content.decode()
    assert Player.objects.filter(pk=dropped.pk).exists()


def test_an_organiser_edits_his_players_record_and_the_log_says_so(
    client, organiser: User, tournament: Tournament, twins: tuple[Player, Player],
) -> None:  # fmt: skip
    kept, _dropped = twins
    client.force_login(organiser)
    form = client.get(f"/registry/players/{kept.pk}/").content.decode()
    assert 'id="player-form"' in form
    answer = client.post(f"/registry/players/{kept.pk}/", {
        "last_name": "Сидоров", "first_name": "Иван", "rating": 1550, "sex": "m",
        "birth_year": 1961, "federation_id": ""})  # fmt: skip
    assert answer.status_code == 302
    kept.refresh_from_db()
    assert (kept.rating, kept.sex, kept.birth_year) == (1550, "m", 1961)
    entry = AuditEntry.objects.get(action="player.update", tournament_id=tournament.pk)
    assert entry.after == {"rating": 1550, "sex": "m", "birth_year": 1961}
    # bad input: a clear error, nothing changed
    answer = client.post(f"/registry/players/{kept.pk}/", {
        "last_name": "", "birth_year": 1200}, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 400
    assert "Обязательное поле" in answer.content.decode()
    kept.refresh_from_db()
    assert kept.last_name == "Сидоров" and kept.birth_year == 1961
