"""The cup guide (docs/guides/cup.*.md) walked in a real browser on the demo data: the
organiser's stages and prizes pages, the final stage started by its button, the knock-out's
round page, then the finished demo cup's bracket, prize list and category standings. With
``GUIDE_SCREENSHOTS=1`` it writes the guide's pictures (``cup-*-<lang>.png``, as
``test_guide_screenshots`` does); without it, it is an ordinary test of what the guide says."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from config.tests.test_guide_screenshots import DESKTOP, PHONE, log_in, open_context, shot
from tournaments.management import demo_cup
from tournaments.management.commands import seed_demo
from tournaments.models import Round, Tournament

WORDS = {
    "ru": {"start": "Начать финальный этап", "semi": "Полуфиналы", "champion": "Финал",
           "prizes": "Кубок и диплом", "veterans": "Ветераны"},
    "en": {"start": "Start the final stage", "semi": "Semi-finals", "champion": "Final",
           "prizes": "Кубок и диплом", "veterans": "Ветераны"},
}  # fmt: skip


@pytest.fixture
def cups(db: Any) -> dict[str, Tournament]:
    """The finished demo cup, and one cup per language waiting for its final stage."""
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    command = seed_demo.Command()
    users = command._accounts()
    clubs, players = command._players()
    waiting = {}
    for lang in WORDS:  # in one transaction, as seed_demo builds: the job's task finds it paired
        with transaction.atomic():
            waiting[lang] = demo_cup.build(command, users, clubs, players,
                                           name=f"Кубок ({lang})", qualifying_only=True)
    return {"done": Tournament.objects.get(name=demo_cup.CUP_NAME), **waiting}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cup_guide(browser: Any, live_server: Any, cups: dict[str, Tournament], lang: str) -> None:
    base, words = live_server.url, WORDS[lang]
    cup, done = cups[lang], cups["done"]
    context = open_context(browser, lang, DESKTOP, base)
    page = context.new_page()
    log_in(page, base, "organiser", f"/manage/{cup.pk}/stages/")
    assert page.locator("#stages-form").is_visible()
    shot(page, "cup-stages", lang, full=True)
    page.goto(f"{base}/manage/{cup.pk}/prizes/")
    assert words["veterans"] in page.inner_text("#categories")
    shot(page, "cup-prizes-setup", lang)

    # the Swiss is over: the dashboard offers the final stage; one click seeds and pairs it
    page.goto(f"{base}/manage/{cup.pk}/")
    button = page.locator("#start-stage-form button")
    assert button.inner_text() == words["start"]
    shot(page, "cup-start-stage", lang)
    with page.expect_navigation():
        button.click()
    page.wait_for_function("() => !document.body.innerText.includes('…')", timeout=60_000)
    semi = Round.objects.get(tournament=cup, number=4)
    page.goto(f"{base}/manage/{cup.pk}/rounds/4/")
    assert page.locator(".knockout-label").count() == 2, semi.status
    assert words["semi"] in page.inner_text("#pairings, table")
    shot(page, "cup-semi-finals", lang)

    # the finished demo cup, as players and spectators see it
    page.goto(f"{base}/tournaments/{done.pk}/bracket/")
    assert page.get_by_role("heading", name=words["champion"], exact=True).count() == 1
    assert page.locator("#prizes-link").is_visible()  # the tabs lead on to the prize list
    shot(page, "cup-bracket", lang, full=True)
    page.goto(f"{base}/tournaments/{done.pk}/prizes/")
    assert words["prizes"] in page.inner_text("main")
    shot(page, "cup-prize-list", lang, full=True)
    page.goto(f"{base}/tournaments/{done.pk}/categories/")
    shot(page, "cup-categories", lang, full=True)
    context.close()

    phone = open_context(browser, lang, PHONE, base)
    page = phone.new_page()
    page.goto(f"{base}/tournaments/{done.pk}/bracket/")
    shot(page, "cup-bracket-phone", lang, full=True)
    phone.close()
