"""The app as a club runs it on the night (``make run``: DEBUG on for its conveniences) never
shows Django's debug pages to the hall: a mistyped address or a bad parameter gets the site's
own translated 404, a failure its 500 page; ``DEBUG_PAGES`` (``make dev``) keeps them for
development (issue 28)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(settings) -> Client:
    settings.DEBUG = True
    settings.DEBUG_PAGES = False
    return Client()


@pytest.mark.parametrize("url", ["/no-such-page/", "/tournaments/999999/",
                                 "/tournaments/999999/standings/?scope=players"])
def test_the_hall_never_sees_the_url_list(hall: Client, url: str) -> None:
    answer = hall.get(url)
    assert answer.status_code == 404
    text = answer.content.decode()
    assert "URLconf" not in text and "DEBUG" not in text and "urlpatterns" not in text
    assert "Страница не найдена" in text
    english = hall.get(url, HTTP_COOKIE="django_language=en").content.decode()
    assert "Page not found" in english


def test_a_failure_shows_the_sites_page_without_a_traceback(hall: Client, settings) -> None:
    from django.urls import path

    from config import urls

    def broken(request):  # noqa: ANN001, ANN202
        raise RuntimeError("secret detail")

    settings.ROOT_URLCONF = type("U", (), {"urlpatterns": [path("boom/", broken),
                                                          *urls.urlpatterns]})  # fmt: skip
    hall.raise_request_exception = False
    answer = hall.get("/boom/")
    assert answer.status_code == 500
    text = answer.content.decode()
    assert "secret detail" not in text and "Traceback" not in text
    assert "Что-то пошло не так" in text


def test_developers_keep_the_debug_pages(settings) -> None:
    settings.DEBUG = True
    settings.DEBUG_PAGES = True
    assert "URLconf" in Client().get("/no-such-page/").content.decode()


def test_the_site_has_an_icon_every_page_links() -> None:
    # every page's /favicon.ico was a 404 (a log line and a missing tab icon each time)
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert '<link rel="icon" href="/favicon.ico"' in Client().get("/").content.decode()
