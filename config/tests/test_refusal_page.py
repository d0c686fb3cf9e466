"""A page someone may not open is a page of the site in the reader's language with a way back,
never Django's bare English «403 Forbidden»; a signed-out visitor gets the login form (and the
page after it); the API keeps its JSON error body. Over raw HTTP, in both languages."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import Client

from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "title", "back"), [
    ("ru", "Нет доступа к этой странице", "Назад"),
    ("en", "No access to this page", "Back"),
])  # fmt: skip
def test_a_refused_page_is_translated_with_a_way_back(tournament, language, title, back) -> None:
    url = f"/manage/{tournament.pk}/setup/"
    for role in ("Organiser", "Referee", "Chief referee"):  # not this tournament's
        client = Client(HTTP_REFERER="http://testserver/matches/")
        user = make_user(f"someone-{role}", role)
        user.first_name, user.last_name = "Анна", "Лаптева"
        user.save()
        client.force_login(user)
        client.cookies["django_language"] = language
        answer = client.get(url)
        html = answer.content.decode()
        assert answer.status_code == 403
        assert title in html and "Forbidden" not in html
        assert f'<html lang="{language}">' in html
        assert 'href="http://testserver/matches/" id="go-back"' in html
        assert "Анна Лаптева" in html  # who is signed in, by name


def test_a_signed_out_visitor_gets_the_login_form_and_the_api_its_json(tournament) -> None:
    answer = Client().get(f"/manage/{tournament.pk}/setup/")
    assert answer.status_code == 302
    assert answer["Location"].startswith(f"/login/?next=/manage/{tournament.pk}/setup/")
    client = Client()
    client.force_login(make_user("another", "Referee"))
    api = client.patch(f"/api/v1/tournaments/{tournament.pk}/", {}, content_type="application/json")
    assert api.status_code in (403, 404) and api.json()["errors"]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_form_without_its_security_token_is_told_in_words(organiser, language) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    client.cookies["django_language"] = language
    answer = client.post("/manage/new/", {"name": "x"})
    html = answer.content.decode()
    assert answer.status_code == 403 and "CSRF" not in html
    assert ("ключа безопасности" if language == "ru" else "security token") in html



@contextmanager
def console() -> Iterator[io.StringIO]:
    """What the configured log handlers write (every stream handler of every logger), caught."""
    caught = io.StringIO()
    names = list(logging.root.manager.loggerDict)
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in names)]
    handlers = {h for lg in loggers for h in lg.handlers if type(h) is logging.StreamHandler}
    streams = {h: h.setStream(caught) for h in handlers}
    try:
        yield caught
    finally:
        for handler, stream in streams.items():
            handler.setStream(stream)


@pytest.mark.parametrize("debug", [True, False])
def test_a_refusal_is_logged_once_in_a_line(tournament, settings, debug) -> None:
    # each refused page logged a full traceback twice (Django's own console handler with DEBUG
    # on, and the site's); a refusal is not a failure: one line, the path
    settings.DEBUG = debug
    client = Client()
    client.force_login(make_user("another", "Referee"))
    with console() as logged:
        assert client.get(f"/manage/{tournament.pk}/setup/").status_code == 403
    text = logged.getvalue()
    assert text.count(f"Forbidden (Permission denied): /manage/{tournament.pk}/setup/") == 1
    assert "Traceback" not in text and "PermissionDenied" not in text
