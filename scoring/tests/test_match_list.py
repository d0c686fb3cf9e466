"""The list of matches (``/matches/``, ``scoring.listing``) over HTTP: grouped by event and
round, the event still being played first and in it its current round, table by table; the
earlier rounds and finished events folded into links; filters by event, round, status and «my
tables»; the same number of queries however many matches. It was one flat list of every match
(9,762 px tall for the chief on a phone), headed «Партии» under a header link «Протоколы»."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Match

pytestmark = pytest.mark.django_db


def table(user: Any, label: str, number: int | None, tab: str, status: str = "draft",
          referee: Any = None) -> Match:  # fmt: skip
    match = services.create_match(user=user, label=label, table=tab, referee=referee)
    Match.objects.filter(pk=match.pk).update(round=number, status=status)
    return match


@pytest.fixture
def events(chief: Any, referee: Any) -> dict[str, Any]:
    """«Кубок»: rounds 1 and 2 confirmed, round 3 in progress (tables 1, 2 and 10, table 2
    the referee's and handed in); «Вечер», played later but over: one round, confirmed."""
    made: dict[str, Any] = {}
    for number in (1, 2):
        for tab in ("1", "2"):
            table(chief, "Кубок", number, tab, "confirmed")
    made["t10"] = table(chief, "Кубок", 3, "10", "in_play")
    made["t1"] = table(chief, "Кубок", 3, "1")
    made["t2"] = table(chief, "Кубок", 3, "2", "submitted", referee=referee)
    made["evening"] = table(chief, "Вечер", 1, "1", "confirmed")
    return made


def page(user: Any, query: str = "", language: str = "ru") -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    answer = client.get(f"/matches/{query}")
    assert answer.status_code == 200
    return answer.content.decode()


def rows(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<li class="match-row [a-z_]+" data-match="(\d+)"', html)]


def test_the_current_round_of_the_event_in_play_first_and_the_rest_folded(chief, events) -> None:
    html = page(chief)
    assert re.findall(r'<h2 id="event-\d+">([^<]+)</h2>', html) == ["Кубок", "Вечер"]
    # round 3 table by table (10 after 2), nothing of the rounds before: those are links
    assert rows(html) == [events["t1"].pk, events["t2"].pk, events["t10"].pk]
    assert "Тур 3" in html and "3 партии · 1 ждёт подтверждения · 1 в игре · 1 не начата" in html
    cup = html.split('id="event-1"', 1)[1].split('id="event-2"', 1)[0]
    assert re.findall(r'<a href="\?event=([^&]+)&amp;round=(\d)">', cup) == [
        ("%D0%9A%D1%83%D0%B1%D0%BE%D0%BA", "2"), ("%D0%9A%D1%83%D0%B1%D0%BE%D0%BA", "1")]
    assert "Прошлые туры:" in cup
    evening = html.split('id="event-2"', 1)[1]
    assert "Туры:" in evening and "match-row" not in evening  # over: folded whole
    english = page(chief, language="en")
    assert "3 matches · 1 waits for confirmation · 1 in play · 1 not started" in english


def test_filters_by_event_round_status_and_my_tables(chief, referee, events) -> None:
    assert rows(page(chief, "?status=submitted")) == [events["t2"].pk]
    first = page(chief, "?event=Кубок&round=1")
    assert len(rows(first)) == 2 and "Тур 1" in first and "Тур 3" not in first
    assert len(rows(page(chief, "?event=Кубок"))) == 7  # every round of it, shown
    assert rows(page(chief, "?mine=1")) == []  # the chief referees none
    assert rows(page(referee, "?mine=1")) == [events["t2"].pk]
    assert rows(page(referee)) == [events["t2"].pk]  # a referee sees his own tables anyway
    assert "Ни одна партия не подходит под эти фильтры." in page(chief, "?status=draft&round=1")
    # rubbish in the query string is ignored, not an error
    assert rows(page(chief, "?round=x&status=nope&event=")) == rows(page(chief))


def test_the_live_update_keeps_the_filters(chief, events) -> None:
    html = page(chief, "?status=submitted")
    assert 'data-fragment-url="/matches/?status=submitted&amp;fragment=1"' in html
    client = Client()
    client.force_login(chief)
    part = client.get("/matches/?status=submitted&fragment=1").content.decode()
    assert "<html" not in part and rows(part) == [events["t2"].pk]


def test_the_header_names_the_page_as_the_page_names_itself(referee, events) -> None:
    for language in ("ru", "en"):
        html = page(referee, language=language)
        link = re.search(r'<a href="/matches/" id="nav-matches">([^<]+)</a>', html)
        heading = re.search(r"<h1>([^<]+)</h1>", html)
        assert link and heading and link[1] == heading[1], (language, link, heading)


def test_the_queries_do_not_grow_with_the_matches(chief, referee) -> None:
    def count() -> int:
        client = Client()
        client.force_login(chief)
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/matches/").status_code == 200
        return len(queries)

    for tab in range(1, 4):
        table(chief, "Кубок", 1, str(tab), "in_play", referee=referee)
    few = count()
    for number in (1, 2):
        for tab in range(4, 30):
            table(chief, "Кубок", number, str(tab), "in_play", referee=referee)
    assert count() == few
