"""The ratings page says which tournaments count (issue 25): the public, rated ones; a private
or unrated one (an import not yet marked rated) is not listed."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "word"), [("ru", "Учитываются 2 турнира"),
                                                ("en", "2 tournaments count")])
def test_the_ratings_page_lists_the_tournaments_that_count(language: str, word: str) -> None:
    TournamentFactory(name="Кубок А", public=True, rated=True)
    TournamentFactory(name="Кубок Б", public=True, rated=True)
    TournamentFactory(name="Из архива", public=True, rated=False)
    TournamentFactory(name="Закрытый", public=False, rated=True)
    client = Client()
    client.cookies["django_language"] = language
    html = client.get("/ratings/").content.decode()
    counted = html[html.index('id="rating-counted"'):html.index("</details>")]
    assert word in counted
    assert "Кубок А" in counted and "Кубок Б" in counted
    assert "Из архива" not in counted and "Закрытый" not in counted
