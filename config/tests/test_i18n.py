"""Russian by default, English on request, through the language switch."""

import pytest

pytestmark = pytest.mark.django_db


def test_pages_are_russian_by_default_even_for_an_english_browser(client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = response.content.decode()
    assert "<h1>Открытые турниры</h1>" in html
    assert "Домино: протокол и турнир" in html
    assert response.headers["Content-Language"] == "ru"


def test_browser_language_counts_when_enabled(client, settings) -> None:
    settings.LANGUAGE_FROM_BROWSER = True
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert "<h1>Public tournaments</h1>" in response.content.decode()


def test_language_switch_sets_english_and_back(client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    html = client.get("/").content.decode()
    assert "<h1>Public tournaments</h1>" in html
    assert "Domino: scoresheet and tournaments" in html

    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert "<h1>Открытые турниры</h1>" in client.get("/").content.decode()


def test_every_page_has_the_language_switch(client) -> None:
    for url in ("/", "/login/"):
        html = client.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in html
        assert 'name="language"' in html


def test_unknown_language_cookie_falls_back_to_russian(client) -> None:
    client.cookies["django_language"] = "xx"
    assert "<h1>Открытые турниры</h1>" in client.get("/").content.decode()


def test_the_api_answers_in_the_language_the_request_asks_for(client) -> None:
    """A program has no language switch: the API follows Accept-Language (issue 28); with none
    it speaks the club's default."""
    body = {"players": 5}  # refused: not a valid match
    english = client.post("/api/v1/matches/", body, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    russian = client.post("/api/v1/matches/", body, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    default = client.post("/api/v1/matches/", body, content_type="application/json")
    assert english.headers["Content-Language"] == "en"
    assert russian.headers["Content-Language"] == "ru"
    assert default.headers["Content-Language"] == "ru"
    assert english.content != russian.content
