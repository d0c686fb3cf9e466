"""The cup guide (docs/guides/cup.*.md) walked in a real browser on the demo data: the
organiser's stages and prizes pages, the final stage started by its button, the knock-out's
round page (the organiser's, and the public one on a phone), the warning after a qualifying
protocol is corrected, then the finished demo cup's bracket, prize list and category standings.
With ``GUIDE_SCREENSHOTS=1`` it writes the guide's pictures to docs/guides/img/cup/
(``<name>-<lang>.png``: a laptop 1366 px wide, a phone 360 px, cropped to the part the guide
shows, as ``test_guide_screenshots`` does); without it, it is an ordinary test of what the guide
says."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from config.tests.test_guide_screenshots import log_in, open_context, shot
from scoring import services as scoring
from tournaments import rounds
from tournaments.management import demo_cup
from tournaments.management.commands import seed_demo
from tournaments.models import Round, Stage, Tournament
from tournaments.stages import services as stages
from tournaments.tests.stages.test_seeds_moved import protocol_won_by

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}

WORDS = {
    "ru": {"start": "Начать финальный этап", "semi": "Полуфинал", "heading": "Плей-офф: Полуфиналы",
           "champion": "Финал", "prizes": "Кубок и диплом", "veterans": "Ветераны",
           "moved": "Таблица квалификации изменилась после посева."},
    "en": {"start": "Start the final stage", "semi": "Semi-final",
           "heading": "Knock-out: Semi-finals", "champion": "Final", "prizes": "Кубок и диплом",
           "veterans": "Ветераны", "moved": "The qualifying standings changed after the seeding."},
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


def box(page: Any, first: str, last: str | None = None, pad: int = 12) -> dict[str, float]:
    """The clip of the page from ``first``'s top to ``last``'s bottom, as wide as <main>."""
    main = page.locator("main").bounding_box()
    top = page.locator(first).first.bounding_box()
    bottom = page.locator(last or first).last.bounding_box()
    y = max(top["y"] - pad, 0)
    return {"x": main["x"], "y": y, "width": main["width"],
            "height": bottom["y"] + bottom["height"] + pad - y}  # fmt: skip


def correct_until_the_seeds_move(cup: Tournament) -> None:
    """The chief referee corrects round 3's protocols one by one (the other side wins) until
    the qualifying standings give other seeds than the bracket's."""
    stage = Stage.objects.get(tournament=cup, number=2)
    chief = cup.chief_referees.get(username="chief")
    for table in Round.objects.get(tournament=cup, number=3).pairings.filter(
            table__isnull=False).select_related("match").order_by("table"):  # fmt: skip
        other = "EW" if table.match.winner == "NS" else "NS"
        scoring.correct(table.match_id, chief, protocol_won_by(table.match, other),
                        "перепутаны стороны")  # fmt: skip
        if stages.seeds_moved(cup, stage) is not None:
            return
    raise AssertionError("no correction of round 3 moved the seeds")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cup_guide(browser: Any, live_server: Any, cups: dict[str, Tournament], lang: str) -> None:
    base, words = live_server.url, WORDS[lang]
    cup, done = cups[lang], cups["done"]
    context = open_context(browser, lang, LAPTOP, base)
    page = context.new_page()
    log_in(page, base, "organiser", f"/manage/{cup.pk}/stages/")
    assert page.locator("#stages-form").is_visible()
    shot(page, "cup/stages", lang, clip=box(page, "main h1", "#stages-form"))
    page.goto(f"{base}/manage/{cup.pk}/prizes/")
    assert words["veterans"] in page.inner_text("#categories")
    shot(page, "cup/prizes-setup", lang, clip=box(page, "main h1", "#categories"))

    # the Swiss is over: the dashboard offers the final stage; one click seeds and pairs it
    page.goto(f"{base}/manage/{cup.pk}/")
    button = page.locator("#start-stage-form button")
    assert button.inner_text() == words["start"]
    shot(page, "cup/start-stage", lang, clip=box(page, "main h1", "#start-stage-form"))
    with page.expect_navigation():
        button.click()
    page.wait_for_function("() => !document.body.innerText.includes('…')", timeout=60_000)
    semi = Round.objects.get(tournament=cup, number=4)
    page.goto(f"{base}/manage/{cup.pk}/rounds/4/")
    labels = page.locator(".knockout-label")
    assert labels.count() == 2, semi.status
    assert labels.all_inner_texts() == [words["semi"]] * 2
    assert page.inner_text("#knockout-round") == words["heading"]
    shot(page, "cup/semi-finals", lang,
         clip=box(page, "#knockout-round", "#tables"))  # fmt: skip

    # published: the players find their table, and what it is, on the public round page
    rounds.publish(cup.organisers.get(), semi.pk)
    phone = open_context(browser, lang, PHONE, base)
    public = phone.new_page()
    public.goto(f"{base}/tournaments/{cup.pk}/rounds/4/")
    assert public.locator(".knockout-label").all_inner_texts() == [words["semi"]] * 2
    shot(public, "cup/semi-finals-phone", lang, clip=box(public, "main h1", "#pairings-box"))
    phone.close()

    # a qualifying protocol corrected now: the stages page says what changed since the seeding
    correct_until_the_seeds_move(cup)
    page.goto(f"{base}/manage/{cup.pk}/stages/")
    assert words["moved"] in page.inner_text("#seeds-moved")
    assert page.locator("#seeds-changes li").count() >= 2
    assert page.locator("#seeds-corrections li").count() >= 1
    shot(page, "cup/seeds-moved", lang, clip=box(page, "main h1", "#seeds-moved"))

    # the finished demo cup, as players and spectators see it
    page.goto(f"{base}/tournaments/{done.pk}/bracket/")
    assert page.get_by_role("heading", name=words["champion"], exact=True).count() == 1
    assert page.locator("#prizes-link").is_visible()  # the tabs lead on to the prize list
    shot(page, "cup/bracket", lang, clip=box(page, "main h1", "main table"))
    page.goto(f"{base}/tournaments/{done.pk}/prizes/")
    assert words["prizes"] in page.inner_text("main")
    shot(page, "cup/prize-list", lang, clip=box(page, "main h1", "main .downloads"))
    page.goto(f"{base}/tournaments/{done.pk}/categories/")
    shot(page, "cup/categories", lang, clip=box(page, "main h1", "main table"))
    context.close()

    phone = open_context(browser, lang, PHONE, base)
    page = phone.new_page()
    page.goto(f"{base}/tournaments/{done.pk}/bracket/")
    assert page.locator("#final-ranking").is_visible()
    shot(page, "cup/bracket-phone", lang, clip=box(page, "main h1", "ol.ties"))
    phone.close()
