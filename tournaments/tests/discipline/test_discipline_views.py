"""The discipline page (/manage/<pk>/discipline/): who gets in, recording and revoking sanctions,
errors next to the fields with the input kept and nothing written, a black card."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.models import Entry, Sanction, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief(tournament: Tournament):
    """The tournament's chief referee (chief referees are appointed per tournament)."""
    user = make_user("chief", "Chief referee")
    tournament.chief_referees.add(user)
    return user


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    a, b, c, d = pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    return {"a": a, "b": b, "c": c, "d": d}


def url(tournament: Tournament) -> str:
    return f"/manage/{tournament.pk}/discipline/"


def test_who_gets_in(client, tournament, organiser, other_organiser, referee, chief) -> None:
    assert client.get(url(tournament)).status_code == 302  # to the login page
    for user in (referee, other_organiser):
        client.force_login(user)
        assert client.get(url(tournament)).status_code == 403
        assert client.post(url(tournament), {"reason": "x"}).status_code == 403
    client.force_login(chief)  # a chief referee who does not organise this tournament
    page = client.get(url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Записать взыскание" in html
    assert f'href="/manage/{tournament.pk}/setup/"' not in html  # no links he cannot follow
    # but not the organiser's other pages
    for other in ("", "setup/", "entries/"):
        assert client.get(f"/manage/{tournament.pk}/{other}").status_code == 403
    client.force_login(organiser)
    html = client.get(url(tournament)).content.decode()
    assert f'href="/manage/{tournament.pk}/setup/"' in html
    assert "Взысканий нет." in html


def test_record_a_deduction_and_see_it_listed(client, tournament, chief, event) -> None:
    client.force_login(chief)
    answer = client.post(url(tournament), {
        "entry": event["b"].pk, "round_number": 1, "kind": "deduction", "match_points": 1,
        "game_points": 25, "reason": "Опоздание к столу",
    })  # fmt: skip
    assert answer.status_code == 302
    sanction = Sanction.objects.get()
    assert (
        sanction.entry,
        sanction.round_number,
        sanction.match_points,
        sanction.game_points,
        sanction.created_by,
    ) == (event["b"], 1, 1, 25, chief)
    html = client.get(url(tournament)).content.decode()
    assert "Взыскание записано: Снятие очков · Пара 2 · 1." in html
    row = html[html.index(f'data-sanction="{sanction.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "Снятие очков" in row and "Пара 2" in row and "Опоздание к столу" in row
    assert "−1" in row and "−25" in row and "chief" in row


def test_errors_are_shown_next_to_the_fields_input_kept_nothing_written(
    client, tournament, chief, event
) -> None:
    client.force_login(chief)
    # the form's own check: the reason is required
    answer = client.post(url(tournament), {
        "entry": event["c"].pk, "round_number": 1, "kind": "yellow", "reason": "",
    })  # fmt: skip
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'data-field="reason">Обязательное поле.' in html
    assert f'<option value="{event["c"].pk}" selected>' in html  # the entry chosen is kept
    # the service's checks: a deduction of nothing; a forfeit in a round without a table
    answer = client.post(url(tournament), {
        "entry": event["c"].pk, "round_number": 1, "kind": "deduction", "reason": "шум",
    })  # fmt: skip
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'data-field="game_points">Укажите, сколько очков снять.' in html
    assert "шум</textarea>" in html
    answer = client.post(url(tournament), {
        "entry": event["c"].pk, "round_number": 2, "kind": "forfeit", "reason": "неявка",
    })  # fmt: skip
    assert answer.status_code == 400
    assert 'data-field="round_number">У участника нет стола в туре 2.' in answer.content.decode()
    answer = client.post(url(tournament), {
        "entry": event["c"].pk, "round_number": 1, "kind": "forfeit", "table": 1,
        "reason": "неявка",
    })  # fmt: skip
    assert answer.status_code == 400
    assert 'data-field="table">Участник играет за столом 2.' in answer.content.decode()
    assert not Sanction.objects.exists()


def test_a_forfeit_names_its_table(client, tournament, chief, event) -> None:
    client.force_login(chief)
    answer = client.post(url(tournament), {
        "entry": event["d"].pk, "round_number": 1, "kind": "forfeit", "table": 2,
        "reason": "не сел за стол",
    })  # fmt: skip
    assert answer.status_code == 302
    assert Sanction.objects.get().pairing.table == 2


def test_a_black_card_withdraws_the_entry(client, tournament, organiser, event) -> None:
    client.force_login(organiser)
    answer = client.post(url(tournament), {
        "entry": event["a"].pk, "player": event["a"].players.first().pk, "round_number": 1,
        "kind": "black", "reason": "оскорбление судьи",
    }, follow=True)  # fmt: skip
    html = answer.content.decode()
    assert "Пара 1 снят(а) с последующих туров." in html
    event["a"].refresh_from_db()
    assert event["a"].status == Entry.Status.WITHDRAWN
    row = html[html.index('data-kind="black"') :]
    row = row[: row.index("</tr>")]
    assert "Чёрная карточка" in row and '<span class="tag">Снят</span>' in row
    assert "Северов1" in row  # the player named
    assert "Отмена не возвращает участника в турнир" in row


def test_a_player_of_another_entry_is_refused(client, tournament, chief, event) -> None:
    client.force_login(chief)
    answer = client.post(url(tournament), {
        "entry": event["a"].pk, "player": event["b"].players.first().pk, "round_number": 1,
        "kind": "yellow", "reason": "спор",
    })  # fmt: skip
    assert answer.status_code == 400
    assert (
        'data-field="player">Этот игрок не выступает за этого участника.' in answer.content.decode()
    )
    assert not Sanction.objects.exists()


def test_revoke_needs_a_reason_then_keeps_who_when_why(client, tournament, chief, event) -> None:
    client.force_login(chief)
    client.post(url(tournament), {"entry": event["b"].pk, "round_number": 1, "kind": "red",
                                  "reason": "подглядывание"})  # fmt: skip
    sanction = Sanction.objects.get()
    assert sanction.game_points == tournament.red_card_points
    revoke = f"{url(tournament)}{sanction.pk}/revoke/"
    answer = client.post(revoke, {"reason": ""})
    assert answer.status_code == 400
    assert "Обязательное поле." in answer.content.decode()
    sanction.refresh_from_db()
    assert sanction.revoked_at is None
    answer = client.post(revoke, {"reason": "видеоповтор: ошибка"}, follow=True)
    html = answer.content.decode()
    assert "Взыскание отменено." in html
    sanction.refresh_from_db()
    assert (sanction.revoked_by, sanction.revoke_reason) == (chief, "видеоповтор: ошибка")
    row = html[html.index(f'data-sanction="{sanction.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "отменено" in row and "Отменено: chief" in row and "видеоповтор: ошибка" in row
    assert "revoke-form" not in row
    # again: refused, shown at the row
    answer = client.post(revoke, {"reason": "ещё раз"})
    assert answer.status_code == 400
    assert 'id="revoke-errors"><li>Взыскание уже отменено.' in answer.content.decode()


def test_a_sanction_of_another_tournament_cannot_be_revoked_here(client, tournament, organiser,
                                                                 chief, event) -> None:  # fmt: skip
    from tournaments.tests.factories import TournamentFactory

    other = TournamentFactory()
    other.organisers.add(organiser)
    other.chief_referees.add(chief)  # he judges both
    client.force_login(chief)
    client.post(url(tournament), {"entry": event["b"].pk, "round_number": 1, "kind": "yellow",
                                  "reason": "спор"})  # fmt: skip
    sanction = Sanction.objects.get()
    answer = client.post(f"/manage/{other.pk}/discipline/{sanction.pk}/revoke/", {"reason": "x"})
    assert answer.status_code == 404


def test_recording_needs_the_csrf_token(tournament, chief, event) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(chief)
    answer = strict.post(url(tournament), {"entry": event["b"].pk, "round_number": 1,
                                           "kind": "yellow", "reason": "спор"})  # fmt: skip
    assert answer.status_code == 403
    assert not Sanction.objects.exists()
    page = strict.get(url(tournament))
    token = page.context["csrf_token"]
    answer = strict.post(url(tournament), {"entry": event["b"].pk, "round_number": 1,
                                           "kind": "yellow", "reason": "спор",
                                           "csrfmiddlewaretoken": str(token)})  # fmt: skip
    assert answer.status_code == 302
    assert Sanction.objects.count() == 1


def test_the_card_amounts_are_explained_where_set_and_where_cards_are_given(
    client, tournament, organiser
) -> None:
    """Yellow 0 and red 40 by default looked like a mistake (issue 28): both pages say why."""
    client.force_login(organiser)
    setup = client.get(f"/manage/{tournament.pk}/setup/").content.decode()
    assert "0 (по умолчанию): жёлтая карточка — предупреждение, ничего не снимает." in setup
    assert "по умолчанию 40. Главный судья может указать другое число" in setup
    page = client.get(url(tournament)).content.decode()
    assert "Жёлтая карточка — предупреждение и ничего не снимает, красная снимает 40" in page
    Tournament.objects.filter(pk=tournament.pk).update(yellow_card_points=10)
    page = client.get(url(tournament)).content.decode()
    assert "Жёлтая карточка снимает 10 очков записи, красная — 40" in page
