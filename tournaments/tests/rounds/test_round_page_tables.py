"""The organiser's round page says, for each table, who plays (the entries' names and clubs),
how its protocol stands and its score, and tells the pairing's notes in words with names: it
showed «пустой протокол» for every table and «Table 1: 45 already met 48» under them."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import Round, Tournament
from tournaments.rounds.notes import in_words


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db
def test_each_table_shows_names_clubs_state_and_score(language: str) -> None:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    assert Round.objects.get(tournament=t, number=4).notes  # the log has notes to hide
    client = Client()
    client.force_login(get_user_model().objects.get(username="organiser"))
    client.cookies["django_language"] = language
    html = client.get(f"/manage/{t.pk}/rounds/4/").content.decode()
    confirmed = Match.objects.filter(pairing__round__tournament=t, pairing__round__number=4,
                                     status="confirmed").first()  # fmt: skip
    row = re.search(rf'<tr data-table="{confirmed.pairing.table}".*?</tr>', html, re.S)[0]
    for place in confirmed.pairing.places.select_related("entry__club"):
        assert place.entry.name in row and place.entry.club.name in row
    totals = confirmed.totals
    assert re.search(rf"NS&nbsp;{totals['NS']} : EW&nbsp;{totals['EW']}", row)
    assert ("Подтверждён" if language == "ru" else "Confirmed") in row
    draft = Match.objects.get(pairing__round__tournament=t, pairing__round__number=4,
                              status="draft")  # fmt: skip
    row = re.search(rf'<tr data-table="{draft.pairing.table}".*?</tr>', html, re.S)[0]
    assert ("раздач ещё нет" if language == "ru" else "no deal recorded yet") in row
    assert not re.search(r"Table \d+: \d+", html)  # no log notes with database ids


@pytest.mark.django_db
def test_team_notes_are_told_with_names_and_table_notes_left_to_the_tables() -> None:
    from tournaments.models import Entry

    t = Tournament.objects.create(name="Командный", format="teams")
    home, away, pair = (Entry.objects.create(tournament=t, name=n)
                        for n in ("Металлург", "Рыбак", "Иванов – Петров"))  # fmt: skip
    with translation.override("en"):
        said = in_words([f"Table 1: {home.pk} already met {away.pk}", f"Bye: {pair.pk} (rank 3)",
                         f"Team {home.pk} v team {away.pk}: tables 1–2",
                         f"Team {home.pk}: pairs {pair.pk} sit out (the other team is smaller)"])
    assert said == ["Team «Металлург» against team «Рыбак»: tables 1–2.",
                    "Team «Металлург»: «Иванов – Петров» do not play this round (the other team "
                    "has fewer pairs)."]  # fmt: skip
