"""Raw HTTP against the real ASGI server (uvicorn, two processes, Redis): the standings a page
re-reads after a pushed change come from the push process (``/live-read/``, answered from the
cache without Django's request handling), for public tournaments only, in the page's language,
for the page's own ``?round=&scope=``; anything it cannot answer sends the page to its view."""

from __future__ import annotations

import html as htmllib
import http.client
import re
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from tournaments.models import Tournament
from tournaments.results import reread
from tournaments.tests.live.test_browser_push import event_with_a_submitted_table


@pytest.fixture(autouse=True)
def told_to_fetch() -> Any:
    """The re-read serves pages told to fetch the table: a message that would be over
    ``LIVE_PUSH_MAX_BYTES`` (issue 31). So here the test's own announcements (the rounds the
    builders save) carry no table: otherwise the test process would compute it, before the
    page, and the page's view would find it cached instead of computing it after ``before``."""
    from django.test import override_settings

    with override_settings(LIVE_PUSH_MAX_BYTES=0):
        yield


def get(server: Any, path: str, method: str = "GET",
        cookies: str = "") -> tuple[int, dict[str, str], str]:  # fmt: skip
    where = urlsplit(server.url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=15)
    try:
        conn.request(method, path, headers={"Cookie": cookies} if cookies else {})
        answer = conn.getresponse()
        body = answer.read().decode("utf-8", "replace")
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body
    finally:
        conn.close()


def read_url(page: str) -> str:
    found = re.search(r'data-live-read="([^"]+)"', page)
    assert found, "the standings page gives no re-read address"
    return htmllib.unescape(found[1])


def page_and_read(server: Any, pk: int, query: str = "", cookies: str = "") -> tuple[str, float]:
    """The standings page loaded (its view computes and caches the table), its re-read address
    and a time before the table was computed."""
    before = time.time()
    status, _headers, page = get(server, f"/tournaments/{pk}/standings/{query}", cookies=cookies)
    assert status == 200
    return read_url(page), before


@pytest.mark.django_db(transaction=True)
def test_the_push_process_answers_the_table_the_standings_view_cached(asgi_server: Any) -> None:
    tournament, *_ = event_with_a_submitted_table()
    read, before = page_and_read(asgi_server, tournament.pk)
    assert read == f"/live-read/{tournament.pk}/standings/?lang=ru"
    status, headers, body = get(asgi_server, f"{read}&since={before}")
    assert status == 200, body
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-store" and "set-cookie" not in headers
    assert 'id="standings"' in body and "Пара 4" in body
    _s, _h, view = get(asgi_server, f"/tournaments/{tournament.pk}/standings/"
                                    f"?fragment=1&since={before}")  # fmt: skip
    assert body == view
    # HEAD: the same answer without the table
    status, headers, body = get(asgi_server, f"{read}&since={before}", method="HEAD")
    assert status == 200 and body == ""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["save", "update"])
def test_a_tournament_made_private_is_refused_at_once_and_nothing_leaks(
    asgi_server: Any, how: str
) -> None:
    tournament, *_ = event_with_a_submitted_table()
    read, before = page_and_read(asgi_server, tournament.pk)
    assert get(asgi_server, f"{read}&since={before}")[0] == 200  # the table is in the cache
    if how == "save":
        tournament.public = False
        tournament.save()
    else:  # no signal: the re-read must not rely on one
        Tournament.objects.filter(pk=tournament.pk).update(public=False)
    status, headers, body = get(asgi_server, f"{read}&since={before}")
    assert status == 404
    assert "Пара" not in body and "standings" not in body and len(body) < 40
    # nor does the view show it to a visitor
    assert get(asgi_server, f"/tournaments/{tournament.pk}/standings/?fragment=1")[0] == 404


@pytest.mark.django_db(transaction=True)
def test_a_private_tournaments_page_gives_no_re_read_address(asgi_server: Any) -> None:
    from tournaments.tests.live.conftest import session_cookie

    tournament, _round, _match, chief = event_with_a_submitted_table()
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    cookie = session_cookie(chief, asgi_server.url)
    status, _h, page = get(asgi_server, f"/tournaments/{tournament.pk}/standings/",
                           cookies=f"{cookie['name']}={cookie['value']}")  # fmt: skip
    assert status == 200 and "Пара 4" in page  # its chief referee sees it…
    assert "data-live-read" not in page  # …through the view only
    status, _h, body = get(asgi_server, f"/live-read/{tournament.pk}/standings/?lang=ru"
                                        f"&since={time.time()}")  # fmt: skip
    assert status == 404 and "Пара" not in body


@pytest.mark.django_db(transaction=True)
def test_bad_or_missing_parameters_are_refused_clearly(asgi_server: Any) -> None:
    tournament, *_ = event_with_a_submitted_table()
    pk = tournament.pk
    now = time.time()
    refused = {
        f"/live-read/{pk}/standings/?lang=ru": 400,  # no since
        f"/live-read/{pk}/standings/?lang=ru&since=": 400,
        f"/live-read/{pk}/standings/?lang=ru&since=abc": 400,
        f"/live-read/{pk}/standings/?lang=ru&since=nan": 400,
        f"/live-read/{pk}/standings/?lang=ru&since=inf": 400,
        f"/live-read/{pk}/standings/?lang=ru&since=-5": 400,
        f"/live-read/{pk}/standings/?lang=ru&since=0": 400,
        f"/live-read/{pk}/standings/?since={now}": 400,  # no language
        f"/live-read/{pk}/standings/?lang=de&since={now}": 400,
        f"/live-read/{pk}/standings/?lang=%ff%fe&since={now}": 400,
        f"/live-read/{pk}/standings/?lang=ru&since={now}&round=" + "9" * 2000: 400,
        f"/live-read/{pk}/standings/?lang=ru&since={now}&" + "&".join(["x=1"] * 30): 400,
        f"/live-read/abc/standings/?lang=ru&since={now}": 404,
        f"/live-read/{pk}/hall/?lang=ru&since={now}": 404,
        f"/live-read/{pk}/standings?lang=ru&since={now}": 404,
        f"/live-read/1234567890/standings/?lang=ru&since={now}": 404,
        f"/live-read/999999999/standings/?lang=ru&since={now}": 404,
        "/live-read/": 404,
    }
    for path, expected in refused.items():
        status, headers, body = get(asgi_server, path)
        assert status == expected, (path, status, body)
        assert "Traceback" not in body and "<table" not in body
        assert headers["content-type"].startswith("text/plain")
    status, headers, _body = get(asgi_server, f"/live-read/{pk}/standings/?lang=ru&since={now}",
                                 method="POST")  # fmt: skip
    assert status == 405 and headers["allow"] == "GET, HEAD"
    assert "Traceback" not in asgi_server.log()


@pytest.mark.django_db(transaction=True)
def test_each_language_gets_the_table_in_its_own_language(asgi_server: Any) -> None:
    tournament, *_ = event_with_a_submitted_table()
    ru_read, before = page_and_read(asgi_server, tournament.pk)
    en_read, _b = page_and_read(asgi_server, tournament.pk, cookies="django_language=en")
    assert ru_read.endswith("lang=ru") and en_read.endswith("lang=en")
    ru = get(asgi_server, f"{ru_read}&since={before}")
    en = get(asgi_server, f"{en_read}&since={before}")
    assert ru[0] == en[0] == 200
    assert ">Очки<" in ru[2] and ">MP<" not in ru[2]
    assert ">MP<" in en[2] and ">Очки<" not in en[2]
    view_en = get(asgi_server, f"/tournaments/{tournament.pk}/standings/?fragment=1"
                               f"&since={before}", cookies="django_language=en")  # fmt: skip
    assert en[2] == view_en[2]


@pytest.mark.django_db(transaction=True)
def test_round_and_scope_mean_what_they_mean_to_the_view(asgi_server: Any) -> None:
    tournament, *_ = event_with_a_submitted_table()
    pk = tournament.pk
    before = time.time()
    # "01" and "entries" mean round 1's table, already computed for "?round=1"
    for query in ("?scope=players", "?round=1", "?round=01&scope=entries", "?scope="):
        read, _time = page_and_read(asgi_server, pk, query)
        status, _h, body = get(asgi_server, f"{read}&since={before}")
        assert status == 200, (query, body)
        view = get(asgi_server, f"/tournaments/{pk}/standings/{query}&fragment=1&since={before}")
        assert body == view[2], query
    players = get(asgi_server, f"/live-read/{pk}/standings/?scope=players&lang=ru&since={before}")
    entries = get(asgi_server, f"/live-read/{pk}/standings/?scope=&lang=ru&since={before}")
    assert "<strong>Пара 4</strong>" in entries[2] and "<strong>Пара 4</strong>" not in players[2]
    # a table the tournament has not: the view says so, the push process only sends the page there
    assert get(asgi_server, f"/tournaments/{pk}/standings/?scope=teams&fragment=1")[0] == 404
    assert get(asgi_server, f"/live-read/{pk}/standings/?scope=teams&lang=ru"
                            f"&since={before}")[0] == 204  # fmt: skip
    assert get(asgi_server, f"/live-read/{pk}/standings/?round=7&lang=ru&since={before}")[0] == 204


@pytest.mark.django_db(transaction=True)
def test_one_reader_asks_the_view_and_the_others_wait_for_its_table(asgi_server: Any) -> None:
    """Nothing read after ``since`` is cached: the first reader is sent to the view at once
    (204); a reader arriving meanwhile waits, without a worker, and gets the table the view's
    read leaves in the cache."""
    tournament, *_ = event_with_a_submitted_table()
    read, _before = page_and_read(asgi_server, tournament.pk)
    since = time.time()
    started = time.monotonic()
    assert get(asgi_server, f"{read}&since={since}")[0] == 204
    assert time.monotonic() - started < 1.0
    waited: list[tuple[int, str, float]] = []

    def wait() -> None:
        begun = time.monotonic()
        status, _h, body = get(asgi_server, f"{read}&since={since}")
        waited.append((status, body, time.monotonic() - begun))

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.4)
    # the sent reader asks the view (nothing changed: the cached table is marked as read now)
    view = get(asgi_server, f"/tournaments/{tournament.pk}/standings/?fragment=1&since={since}")
    assert view[0] == 200
    waiter.join(10)
    [(status, body, took)] = waited
    assert status == 200 and body == view[2]
    assert 0.3 < took < reread.READ_WAIT


def test_a_long_round_text_gets_a_key_of_its_own() -> None:
    """``?round=0000000000012`` is round 12: cut to 12 characters it was round 1's key."""
    from tournaments.results.display import asked_key

    one, twelve = (asked_key(1, 0.0, text, "", "ru") for text in ("000000000001", "0000000000012"))
    assert one != twelve and asked_key(1, 0.0, "0000000000012", "", "ru") == twelve
