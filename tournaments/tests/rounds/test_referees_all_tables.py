"""The referees of every table in one click (issue 29): keep last round's, rotate them so that
nobody judges an entry twice, or fill the tables from a ticked list; through the round page as
the organiser posts it, all or nothing, audited, and closed to other organisers."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import roles
from accounts.models import AuditEntry
from tournaments.models import Pairing, PairingEntry, Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(tournament: Tournament, pairs) -> dict[str, Any]:
    """Eight pairs; round 1 (finished) judged by r1…r4 at tables 1…4; round 2 paired (not yet
    published) so that each of its tables holds an entry of the same-numbered table of round 1:
    keeping the referees would make each meet an entry he has judged."""
    e = pairs(tournament, 8)
    refs = [make_user(f"r{i}", roles.REFEREE) for i in range(1, 5)]
    r1 = play_round(tournament, 1, [(e[0], e[1], (100, 50)), (e[2], e[3], (100, 50)),
                                    (e[4], e[5], (100, 50)), (e[6], e[7], (100, 50))],
                    status=Round.Status.FINISHED)  # fmt: skip
    for table, ref in enumerate(refs, start=1):
        Pairing.objects.filter(round=r1, table=table).update(referee=ref)
    r2 = play_round(tournament, 2, [(e[0], e[2], None), (e[3], e[4], None),
                                    (e[5], e[6], None), (e[7], e[1], None)],
                    status=Round.Status.PAIRED)  # fmt: skip
    return {"entries": e, "refs": refs, "r2": r2}


def url(tournament: Tournament) -> str:
    return f"/manage/{tournament.pk}/rounds/2/referees/"


def referees_of(round_: Round) -> dict[int, int | None]:
    return dict(round_.pairings.filter(table__isnull=False).values_list("table", "referee_id"))


def judged_before(referee: int) -> set[int]:
    return set(PairingEntry.objects.filter(pairing__referee_id=referee, pairing__round__number=1)
               .values_list("entry_id", flat=True))  # fmt: skip


def test_rotate_moves_every_referee_away_from_the_entries_he_judged(
    client: Client, tournament, organiser, evening
) -> None:
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/2/").content.decode()
    assert "Переставить судей прошлого тура" in page and 'id="referees-form"' in page
    answer = client.post(url(tournament), {"mode": "rotate"}, follow=True)
    assert "Судьи назначены: изменено 4 стола." in answer.content.decode()
    chosen = referees_of(evening["r2"])
    assert sorted(chosen.values()) == sorted(r.pk for r in evening["refs"])  # each one table
    for table, referee in chosen.items():
        assert referee is not None
        seated = set(PairingEntry.objects.filter(pairing__round=evening["r2"], pairing__table=table)
                     .values_list("entry_id", flat=True))  # fmt: skip
        assert not seated & judged_before(referee), (table, referee)
    # each table's match follows (the referee's phone lists it) and each change is audited
    for pairing in evening["r2"].pairings.select_related("match"):
        assert pairing.match.referee_id == pairing.referee_id
    assert AuditEntry.objects.filter(action="pairing.referee").count() == 4


def test_keep_gives_each_table_number_last_rounds_referee(client, tournament, organiser,
                                                          evening) -> None:  # fmt: skip
    client.force_login(organiser)
    client.post(url(tournament), {"mode": "keep"})
    assert referees_of(evening["r2"]) == {i: r.pk for i, r in enumerate(evening["refs"], 1)}


def test_a_short_list_fills_what_it_can_and_says_how_many_tables_are_left(
    client, tournament, organiser, evening
) -> None:
    client.force_login(organiser)
    r1, r2 = evening["refs"][:2]
    answer = client.post(url(tournament), {"mode": "list", "pool": [r1.pk, r2.pk]}, follow=True)
    html = answer.content.decode()
    assert "2 стола без судьи: судей меньше, чем столов." in html
    chosen = referees_of(evening["r2"])
    assert sorted(r for r in chosen.values() if r) == sorted([r1.pk, r2.pk])
    for table, referee in chosen.items():
        if referee:
            seated = set(PairingEntry.objects.filter(pairing__round=evening["r2"],
                                                     pairing__table=table)
                         .values_list("entry_id", flat=True))  # fmt: skip
            assert not seated & judged_before(referee)


def test_refusals_change_nothing(client, tournament, organiser, other_organiser, evening) -> None:
    before = referees_of(evening["r2"])
    client.force_login(other_organiser)
    assert client.post(url(tournament), {"mode": "rotate"}).status_code == 403
    client.force_login(organiser)
    html = client.post(url(tournament), {"mode": "list"}, follow=True).content.decode()
    assert "Отметьте хотя бы одного судью." in html
    not_a_referee = make_user("player")
    html = client.post(url(tournament), {"mode": "list", "pool": [not_a_referee.pk]},
                       follow=True).content.decode()  # fmt: skip
    assert "Отметьте хотя бы одного судью." in html
    html = client.post(url(tournament), {"mode": "sideways"}, follow=True).content.decode()
    assert "Неизвестный способ назначить судей." in html
    assert referees_of(evening["r2"]) == before
    assert not AuditEntry.objects.filter(action="pairing.referee").exists()


def test_round_one_has_no_previous_referees_to_keep(client, tournament, organiser,
                                                    pairs) -> None:  # fmt: skip
    e = pairs(tournament, 4)
    play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)],
               status=Round.Status.PAIRED)  # fmt: skip
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert "Переставить судей прошлого тура" not in page
    assert "Назначить судей из списка" in page and "Дать каждому судье по столу" in page
    html = client.post(f"/manage/{tournament.pk}/rounds/1/referees/", {"mode": "keep"},
                       follow=True).content.decode()  # fmt: skip
    assert "В прошлом туре не было судей, которых можно оставить." in html
