"""The chief referee's home («Мои турниры», where his guide starts) shows what needs him: the
protocols waiting for confirmation with their count, the tables with a problem (not started,
the captain's PIN out of tries), and each judged tournament's discipline page and round."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from scoring.models import Match
from scoring.services import MAX_PIN_FAILURES
from tournaments.management.commands import seed_demo
from tournaments.models import Tournament
from tournaments.tests.conftest import make_user


@pytest.mark.django_db
def test_the_chiefs_home_lists_what_waits_for_him() -> None:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    round4 = Match.objects.filter(pairing__round__tournament=t, pairing__round__number=4)
    waiting = round4.get(status="submitted")
    Match.objects.filter(pk=waiting.pk).update(pin_failures=MAX_PIN_FAILURES)
    draft = round4.get(status="draft")
    chief = Client()
    chief.force_login(get_user_model().objects.get(username="chief"))
    chief.cookies["django_language"] = "ru"
    html = chief.get("/manage/").content.decode()
    assert "Ждут подтверждения: 1 протокол" in html
    assert f'href="/matches/{waiting.pk}/confirm/"' in html
    assert "Кубок трёх клубов · тур 4 · стол 7" in html
    # the Swiss round's two, and «Генерал на вылет»'s table, whose stint has not started
    assert "Столы с проблемами: 3" in html and f'href="/matches/{draft.pk}/"' in html
    assert f'href="/manage/{t.pk}/discipline/"' in html
    assert f'href="/tournaments/{t.pk}/rounds/4/"' in html
    assert 'href="/manage/" id="nav-manage"' in html  # reachable from every page's header
    # someone who judges nothing sees none of it
    other = Client()
    other.force_login(make_user("chief2", "Chief referee"))
    assert 'id="desk"' not in other.get("/manage/").content.decode()
