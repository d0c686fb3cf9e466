"""The personal page by its link: the next table and seats, the opponents, the results so far
and the place, without an account; drafts never shown; wrong keys answered 404 and, in bulk,
429; the organiser renews a link (audited) and prints everyone's QR code."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from accounts.models import AuditEntry
from tournaments.models import Entry, Pairing, Round
from tournaments.personal.page import find
from tournaments.tests.builders import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    cache.clear()  # the wrong-key counts of one test are not the next one's


def event(tournament: Any, pairs: Any) -> list[Entry]:
    """Four pairs: round 1 finished (Пара 1 beat Пара 2 120:80), round 2 published with Пара 1
    against Пара 3 at table 2, still in play."""
    e = pairs(tournament, 4)
    play_round(tournament, 1, [(e[0], e[1], (120, 80)), (e[2], e[3], (101, 99))],
               status=Round.Status.FINISHED)  # fmt: skip
    round_2 = play_round(tournament, 2, [(e[1], e[3], None), (e[2], e[0], None)])
    pairing = Pairing.objects.get(round=round_2, table=2)
    players = list(e[0].players.order_by("last_name"))  # Северов1, Южин1
    pairing.seat_e, pairing.seat_w = players
    pairing.save()
    return e


def page_of(client: Any, entry: Entry, **query: str) -> Any:
    return client.get(f"/p/{entry.token}/", query)


def test_every_entry_has_its_own_unguessable_key(tournament, pairs) -> None:
    e = pairs(tournament, 3)
    tokens = [entry.token for entry in e]
    assert len(set(tokens)) == 3
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)
    assert find(tokens[0]) == e[0]
    assert find(tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")) is None
    assert find("../../etc") is None and find("") is None


def test_the_page_shows_the_table_seats_opponents_results_and_place_without_an_account(
    client, tournament, pairs
) -> None:
    e = event(tournament, pairs)
    response = page_of(client, e[0])
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="personal-table" data-round="2" data-table="2"' in html
    assert "Стол 2" in html  # Russian by default
    seats = html.split('id="personal-seats">', 1)[1].split("</ul>", 1)[0]
    assert "<strong>E</strong> Северов1" in seats and "<strong>W</strong> Южин1" in seats
    opponents = html.split('id="personal-opponents">', 1)[1].split("</p>", 1)[0]
    assert "Пара 3" in opponents and "Пара 2" not in opponents
    rounds = html.split('id="personal-rounds"', 1)[1]
    assert 'data-round="1" data-result="played:win"' in rounds and "120:80" in rounds
    assert 'data-round="2" data-result="pending:"' in rounds
    assert 'id="personal-rank">1<' in html
    # the page keeps itself out of search engines and caches, and its key out of Referer
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]
    # no other entry's key is on the page
    for other in e[1:]:
        assert other.token not in html
    assert f'data-live-socket="/ws/live/p/{e[0].token}/"' in html


def test_the_fragment_is_the_part_the_push_refreshes(client, tournament, pairs) -> None:
    e = event(tournament, pairs)
    html = page_of(client, e[0], fragment="1").content.decode()
    assert "<html" not in html and 'id="personal-now"' in html and 'data-table="2"' in html


def test_a_draft_round_never_shows_and_the_page_waits_for_the_publication(
    client, tournament, pairs
) -> None:
    e = pairs(tournament, 4)
    play_round(tournament, 1, [(e[0], e[1], (120, 80)), (e[2], e[3], (101, 99))],
               status=Round.Status.FINISHED)  # fmt: skip
    play_round(tournament, 2, [(e[2], e[0], None), (e[1], e[3], None)], status=Round.Status.PAIRED)
    html = page_of(client, e[0]).content.decode()
    assert 'data-round="" data-table=""' in html
    assert "Следующий тур ещё не опубликован" in html
    assert "Пара 3" not in html.split('id="personal-now"', 1)[1].split("</section>", 1)[0]
    assert 'data-round="2"' not in html


def test_a_private_tournament_still_opens_by_the_link_but_not_otherwise(
    client, tournament, pairs
) -> None:
    tournament.public = False
    tournament.save()
    e = event(tournament, pairs)
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    html = page_of(client, e[0]).content.decode()
    assert 'data-table="2"' in html
    assert f'href="/tournaments/{tournament.pk}/"' not in html  # no link to a hidden page


def test_the_clock_of_the_round_being_played_comes_by_the_key(
    client, tournament, pairs, organiser
) -> None:
    from tournaments.rounds.clock import start_clock

    e = event(tournament, pairs)
    round_2 = Round.objects.get(tournament=tournament, number=2)
    assert client.get(f"/p/{e[0].token}/clock/").json() == {"clock": None}
    start_clock(organiser, round_2.pk, 40)
    clock = client.get(f"/p/{e[0].token}/clock/").json()["clock"]
    assert not clock["paused"] and 2390 <= clock["left"] <= 2400
    html = page_of(client, e[0]).content.decode()
    assert 'id="personal-clock"' in html and f'data-url="/p/{e[0].token}/clock/"' in html
    assert client.get("/p/" + "x" * 22 + "/clock/").status_code == 404


@override_settings(PERSONAL_WRONG_LIMIT=3)
def test_wrong_keys_are_not_found_and_an_address_trying_many_is_refused(
    client, tournament, pairs
) -> None:
    e = pairs(tournament, 2)
    for n in range(3):
        assert client.get(f"/p/{'w' * 21}{n}/").status_code == 404
    # the limit reached: every key from this address is refused, the right one too, so that a
    # guesser cannot tell it; another address is not
    refused = client.get(f"/p/{e[0].token}/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert client.get(f"/p/{e[0].token}/", REMOTE_ADDR="10.1.2.3").status_code == 200


def test_the_organiser_renews_a_link_and_the_old_one_stops_opening(
    client, tournament, pairs, organiser, other_organiser
) -> None:
    e = pairs(tournament, 2)
    old = e[0].token
    client.force_login(other_organiser)  # an organiser, not of this tournament
    assert client.post(f"/manage/{tournament.pk}/entries/{e[0].pk}/link/").status_code in (403,
                                                                                          404)
    assert Entry.objects.get(pk=e[0].pk).token == old
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/entries/{e[0].pk}/").content.decode()
    assert f"/p/{old}/" in page and "<svg" in page  # the link and its QR code
    response = client.post(f"/manage/{tournament.pk}/entries/{e[0].pk}/link/")
    assert response.status_code == 302
    new = Entry.objects.get(pk=e[0].pk).token
    assert new != old
    client.logout()
    assert client.get(f"/p/{old}/").status_code == 404
    assert client.get(f"/p/{new}/").status_code == 200
    log = AuditEntry.objects.get(action="entry.new_link")
    assert log.tournament_id == tournament.pk and log.user == organiser
    assert old not in str(log.before) + str(log.after) and new not in str(log.after)


def test_the_printed_table_list_carries_each_entrys_personal_qr_code(
    client, tournament, pairs, organiser
) -> None:
    e = event(tournament, pairs)
    client.force_login(organiser)
    html = client.get(f"/manage/{tournament.pk}/rounds/2/print/").content.decode()
    links = html.split('id="personal-links"', 1)[1]
    for entry in e:
        assert f"/p/{entry.token}/" in links
    assert links.count("<svg") == 4


def test_each_pairing_slip_of_the_round_paper_carries_the_entrys_personal_qr_code(
    tournament, pairs
) -> None:
    import segno
    from reportlab.platypus import Table

    from scoring.pdf import QRCode, a4
    from tournaments.rounds import round_pdf
    from tournaments.selectors import round_with_pairings

    e = pairs(tournament, 5)
    play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)], byes=[e[4]])
    round_ = round_with_pairings(Round.objects.filter(tournament=tournament)).get()
    pairings = list(round_.pairings.all())
    a4(io.BytesIO(), "")  # the PDF's fonts registered, as for the whole paper
    grid = round_pdf._slips(round_, [p for p in pairings if p.table],
                            [p for p in pairings if not p.table], round_pdf._styles(),
                            lambda path: "https://domino.example" + path)  # fmt: skip
    codes = [cell._cellvalues[0][1] for row in grid._cellvalues for cell in row
             if isinstance(cell, Table)]  # fmt: skip
    assert len(codes) == 5 and all(isinstance(code, QRCode) for code in codes)
    drawn = {tuple(map(tuple, code.qr.matrix)) for code in codes}
    for entry in e:
        link = segno.make(f"https://domino.example/p/{entry.token}/", error="m")
        assert tuple(map(tuple, link.matrix)) in drawn


def test_the_page_reads_as_many_queries_after_four_rounds_as_after_one(
    client, tournament, pairs
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    e = pairs(tournament, 4)
    play_round(tournament, 1, [(e[0], e[1], (120, 80)), (e[2], e[3], (101, 99))])

    def count() -> int:
        cache.clear()  # the standings computed afresh each time: the worst case
        with CaptureQueriesContext(connection) as queries:
            assert page_of(client, e[0]).status_code == 200
        return len(queries)

    one = count()
    play_round(tournament, 2, [(e[0], e[2], (50, 90)), (e[1], e[3], (70, 60))])
    play_round(tournament, 3, [(e[0], e[3], (80, 80)), (e[1], e[2], None)])
    play_round(tournament, 4, [(e[0], e[1], None), (e[2], e[3], None)])
    assert count() == one
