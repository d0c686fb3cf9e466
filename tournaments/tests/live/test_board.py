"""The live board of a round: who may open it, each table's state and facts, the order of what
needs someone first, the counts, the filters (a bad one named and ignored), and 500 tables in a
bounded number of queries."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from scoring.models import Deal, Match
from tournaments.live import board as tiles
from tournaments.models import Entry, Pairing, PairingEntry, Round, Sanction
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory


def deals(match: Match, n: int, minutes_ago: float, redeals: int = 0) -> None:
    rows = [Deal(match=match, n=i, record={"result": "domino"}, verdict={"ok": True})
            for i in range(1, n + 1)]  # fmt: skip
    rows += [Deal(match=match, n=n + i, record={"result": "redeal"}, verdict={"ok": True})
             for i in range(1, redeals + 1)]  # fmt: skip
    Deal.objects.bulk_create(rows)
    then = timezone.now() - timedelta(minutes=minutes_ago)
    Deal.objects.filter(match=match).update(created_at=then)


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    """Six tables: 1 confirmed, 2 submitted, 3 in play (deal 3 of 8, 2 min ago), 4 not
    started, 5 in play but silent for 25 min, 6 forfeited."""
    organiser = make_user("org", roles.ORGANISER)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    tournament = TournamentFactory(name="Доска")
    tournament.organisers.add(organiser)
    tournament.chief_referees.add(chief)
    e = add_pairs(tournament, 12)
    round_ = play_round(tournament, 1, [(e[0], e[1], (120, 80))]
                        + [(e[i], e[i + 1], None) for i in range(2, 12, 2)])  # fmt: skip
    rules = {"end": "deals", "deals": 8}
    Match.objects.filter(pairing__round=round_).update(rules=rules)
    Match.objects.filter(pk=table_match(round_, 2).pk).update(status=Match.Status.SUBMITTED)
    for table, minutes in ((3, 2), (5, 25)):
        match = table_match(round_, table)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PLAY,
                                                 totals={"NS": 30, "EW": 12})  # fmt: skip
        deals(match, 3, minutes, redeals=1)
    Sanction.objects.create(tournament=tournament, entry=e[10], round_number=1,
                            kind=Sanction.Kind.FORFEIT, reason="неявка",
                            pairing=Pairing.objects.get(round=round_, table=6))  # fmt: skip
    return {"t": tournament, "round": round_, "organiser": organiser, "chief": chief}


def url(event: dict[str, Any], query: str = "") -> str:
    return reverse("tournaments:manage_board", args=[event["t"].pk, 1]) + query


def test_tiles_come_in_the_order_of_what_needs_someone_with_their_facts(
    event: dict[str, Any],
) -> None:
    result = tiles.board(event["round"])
    assert [(t.table, t.state) for t in result.tiles] == [
        (2, "submitted"), (5, "stuck"), (4, "not_started"), (3, "in_play"), (1, "confirmed"),
        (6, "forfeited"),
    ]
    playing = next(t for t in result.tiles if t.table == 3)
    assert (playing.deals, playing.of, playing.score, playing.minutes) == (3, 8, "30:12", 2)
    assert next(t for t in result.tiles if t.table == 5).minutes == 25
    assert dict((state, n) for state, _label, n in result.counts) == {
        "submitted": 1, "stuck": 1, "not_started": 1, "in_play": 1, "confirmed": 1,
        "forfeited": 1,
    }


def test_the_organiser_and_the_chief_referee_see_the_board(
    client: Any, event: dict[str, Any]
) -> None:
    for user in (event["organiser"], event["chief"]):
        client.force_login(user)
        response = client.get(url(event))
        assert response.status_code == 200
        html = response.content.decode()
        assert 'data-table="5" data-state="stuck"' in html
        assert f'href="/matches/{table_match(event["round"], 2).pk}/"' in html  # opens the protocol
        assert f'data-live-socket="/ws/live/{event["t"].pk}/staff/"' in html
    # the tournament's pages lead to the board of the round being played
    response = client.get(reverse("tournaments:manage_current_board", args=[event["t"].pk]))
    assert response.status_code == 200 and 'data-table="5" data-state="stuck"' in html


def test_nobody_else_sees_the_board(client: Any, event: dict[str, Any]) -> None:
    other = make_user("other_org", roles.ORGANISER)
    TournamentFactory(name="Чужой").organisers.add(other)
    for user in (other, make_user("ref", roles.REFEREE)):
        client.force_login(user)
        assert client.get(url(event)).status_code == 403
        assert client.get(url(event, "?fragment=1")).status_code == 403
    client.logout()
    response = client.get(url(event))
    assert response.status_code == 302 and "/login/" in response["Location"]
    event["t"].public = False
    event["t"].save()
    client.force_login(other)
    assert client.get(url(event)).status_code == 404  # a hidden tournament is not there


def test_filters_by_state_and_table_range(client: Any, event: dict[str, Any]) -> None:
    client.force_login(event["chief"])
    html = client.get(url(event, "?state=stuck&fragment=1")).content.decode()
    assert html.count('class="tile ') == 1 and 'data-table="5"' in html
    html = client.get(url(event, "?from=2&to=4&fragment=1")).content.decode()
    assert [t for t in (1, 2, 3, 4, 5, 6) if f'data-table="{t}"' in html] == [2, 3, 4]


@pytest.mark.parametrize("query, message", [
    ("?state=lost", "Неизвестное состояние стола «lost»."),
    ("?from=x", "Номер стола «x» — не число от 1 до 32767."),
    ("?from=5&to=2", "Первый стол диапазона стоит после последнего."),
])  # fmt: skip
def test_a_bad_filter_is_named_and_ignored(
    client: Any, event: dict[str, Any], query: str, message: str
) -> None:
    client.force_login(event["chief"])
    response = client.get(url(event, query))
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert html.count('class="tile ') == 6  # every table, as without the filter


def five_hundred_tables() -> tuple[Any, Round]:
    organiser = make_user("big_org", roles.ORGANISER)
    tournament = TournamentFactory(name="Большой зал")
    tournament.organisers.add(organiser)
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, name=f"Пара {i}", seed=i) for i in range(1, 1001)
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED,
                                  published_at=timezone.now())  # fmt: skip
    matches = Match.objects.bulk_create(
        Match(label=f"{i}", table=str(i), rules={"end": "deals", "deals": 8},
              status=Match.Status.IN_PLAY, totals={"NS": i, "EW": 0}) for i in range(1, 501)
    )  # fmt: skip
    pairings = Pairing.objects.bulk_create(
        Pairing(round=round_, table=i, match=m) for i, m in enumerate(matches, start=1)
    )
    PairingEntry.objects.bulk_create(
        PairingEntry(pairing=p, round=round_, entry=entries[2 * i + k], side=side, position=0)
        for i, p in enumerate(pairings) for k, side in enumerate(("NS", "EW"))
    )  # fmt: skip
    Deal.objects.bulk_create(Deal(match=m, n=n, record={"result": "domino"}, verdict={})
                             for m in matches for n in (1, 2, 3))  # fmt: skip
    return organiser, round_


def test_five_hundred_tables_in_a_bounded_number_of_queries(
    client: Any, db: Any, django_assert_max_num_queries: Any
) -> None:
    organiser, round_ = five_hundred_tables()
    client.force_login(organiser)
    address = reverse("tournaments:manage_board", args=[round_.tournament_id, 1])
    started = time.perf_counter()
    with django_assert_max_num_queries(12):
        response = client.get(address)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200
    assert response.content.decode().count('class="tile ') == 500
    assert elapsed < 3.0, elapsed  # about 0.3 s here; generous for a busy CI machine
