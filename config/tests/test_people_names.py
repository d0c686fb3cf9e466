"""People are named by their full names on every page, never by their usernames: the confirm
page said «Сдал: referee3», the history «· referee3 · v4», the audit page the organiser's login.
A user without a name falls back to the username rather than a blank."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from accounts.people import person
from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import Tournament


@pytest.mark.django_db
def test_pages_name_people_by_their_full_names() -> None:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    waiting = Match.objects.get(pairing__round__tournament=t, pairing__round__number=4,
                                status="submitted")  # fmt: skip
    submitter = waiting.submitted_by
    assert submitter.get_full_name() and submitter.get_full_name() != submitter.username
    chief = Client()
    chief.force_login(get_user_model().objects.get(username="chief"))
    organiser = Client()
    organiser.force_login(get_user_model().objects.get(username="organiser"))
    pages = [
        (chief, f"/matches/{waiting.pk}/confirm/", submitter),
        (chief, f"/matches/{waiting.pk}/history/", submitter),
        (organiser, f"/manage/{t.pk}/rounds/4/", waiting.referee),
        (organiser, f"/manage/{t.pk}/audit/", get_user_model().objects.get(username="organiser")),
    ]
    for client, url, who in pages:
        text = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        main = text.split("<main", 1)[1]
        assert who.get_full_name() in main, url
        assert not re.search(rf"[>·:\s]{re.escape(who.username)}[\s<.·,]", main), url


def test_a_user_without_a_name_is_named_by_the_username() -> None:
    nameless = get_user_model()(username="desk2")
    named = get_user_model()(username="r1", first_name="Анна", last_name="Лаптева")
    assert (person(nameless), person(named), person(None)) == ("desk2", "Анна Лаптева", "—")
