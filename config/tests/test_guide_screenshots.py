"""The journeys of the guides in docs/guides/, walked in a real browser on the demo data.

For each language the referee (on a phone, 390×844), the chief referee and the organiser (on a
laptop, 1280×800) do what their guide tells them, and the test asserts what the guide says is on
each page. With ``GUIDE_SCREENSHOTS=1`` it also writes the guides' pictures to docs/guides/img/
(``<name>-<lang>.png``, reduced to a 256-colour palette so each stays well under 200 KB);
``GUIDE_SCREENSHOTS=/some/folder`` writes them there instead. Without it, it is an ordinary test.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from rules import Judge, make_rules
from rules.simulate import play_deal, play_match
from scoring import services as scoring
from scoring.models import Match
from tournaments.management.commands import seed_demo
from tournaments.models import Round, Sanction, Tournament

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
OUT = os.environ.get("GUIDE_SCREENSHOTS", "")
IMG = Path(settings.BASE_DIR) / "docs" / "guides" / "img"

TEXT = {
    "ru": {
        "leader": "Заходит:",
        "submitted": "Протокол сдан",
        "confirmed": "Протокол подтверждён",
        "draft": "Черновик",
        "swapped": "Участники поменялись местами.",
    },
    "en": {
        "leader": "Leads:",
        "submitted": "The protocol was submitted",
        "confirmed": "The protocol was confirmed",
        "draft": "Draft",
        "swapped": "The entries changed places.",
    },
}

CSV = """entry,last_name,first_name,club,city,rating,seed
1,Белов,Аркадий,Клуб «Дубль»,Москва,1600,1
1,Чернов,Степан,Клуб «Дубль»,Москва,1580,1
2,Громов,Илья,ДК «Металлург»,Липецк,1550,2
2,Щукин,Пётр,ДК «Металлург»,Липецк,1540,2
3,Ефимов,Олег,«Морской узел»,Калининград,1500,3
3,Лапин,Юрий,«Морской узел»,Калининград,1490,3
4,Фомин,Артур,Клуб «Дубль»,Москва,1450,4
4,Жуков,Дмитрий,Клуб «Дубль»,Москва,1440,4
"""


def shot(page: Any, name: str, lang: str, full: bool = False,
         clip: dict[str, float] | None = None) -> None:
    """The page (``full``: all of it) or the ``clip`` of it; ``name`` may hold a folder."""
    if not OUT:
        return
    folder = IMG if OUT == "1" else Path(OUT)
    path = folder / f"{name}-{lang}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full or clip is not None, clip=clip)
    from PIL import Image

    with Image.open(path) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(path, optimize=True)
    assert path.stat().st_size < 200_000, path


def tile_name(token: str) -> str:
    a, b = (int(x) for x in re.split(r"[:\-|]", token))
    return f"{max(a, b)}:{min(a, b)}"


def open_context(browser: Any, lang: str, viewport: dict[str, int], base: str) -> Any:
    context = browser.new_context(viewport=viewport, locale="ru-RU", has_touch=viewport is PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": base}])
    return context


def log_in(page: Any, base: str, username: str, next_url: str) -> None:
    page.goto(f"{base}/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", seed_demo.DEMO_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")


def tap_deal(page: Any, deal: dict[str, Any]) -> None:
    page.click(f'.result-choice input[value="{deal["result"]}"]')
    if deal["result"] != "redeal":
        page.click(f'.by-choice input[value="{deal["by"]}"]')
    for seat, hand in (deal.get("hands") or {}).items():
        page.click(f'.seat-tab[data-seat="{seat}"]')
        for token in hand.split():
            page.click(f'#tile-grid .tile[data-tile="{tile_name(token)}"]')


def finish_match(match: Match, user: Any, rng: random.Random) -> None:
    """Play the rest of a match as the simulator would, recorded through the services."""
    judge = Judge(match.get_rules())
    state = judge.fold([d.record for d in match.deals.order_by("n")]).state
    while not state.finished:
        record = play_deal(judge.rules, rng, state.leader, state.counted == 0, state.totals).record
        if judge.judge(state.copy(), record, apply=False).ok:
            judge.judge(state, record)
            scoring.record_deal(match.pk, record, user)


def tile_to_move(match: Match) -> tuple[int, str, str, str]:
    """A domino of ``match`` where a loser holds two tiles or more: (its index, that seat, the
    finisher's partner, the loser's first tile), for a correction that keeps the deal legal."""
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}
    for i, deal in enumerate(d.record for d in match.deals.order_by("n")):
        hands = deal.get("hands") or {}
        if deal["result"] != "domino" or partner[deal["by"]] not in hands:
            continue
        for seat, tiles in hands.items():
            if seat != partner[deal["by"]] and len(tiles.split()) > 1:
                return i, seat, partner[deal["by"]], tile_name(tiles.split()[0])
    raise AssertionError("no such deal")


def type_paper(page: Any, deals: list[dict[str, Any]]) -> None:
    """A paper protocol typed at the desk's keyboard, deal 3's amount 10 too many."""
    verdicts = Judge(make_rules("sport")).fold(deals).deals
    page.focus('select[name="row-0-result"]')
    keys = {"domino": "d", "fish": "f", "redeal": "r"}
    for i, (deal, verdict) in enumerate(zip(deals, verdicts, strict=True)):
        page.keyboard.press(keys[deal["result"]])
        page.keyboard.press("Tab")
        if deal.get("by") and deal["result"] != "redeal":
            page.keyboard.press(deal["by"].lower())
        page.keyboard.press("Tab")
        for side in ("NS", "EW"):
            amount = verdict.recorded[side] + (10 if i == 2 and verdict.recorded[side] else 0)
            if amount:
                page.keyboard.type(str(amount))
            page.keyboard.press("Tab")
        for seat in "NESW":
            page.keyboard.type((deal.get("hands") or {}).get(seat, "").replace(":", "-"))
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")


@pytest.fixture
def demo(db: Any) -> Tournament:
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return Tournament.objects.get(name=seed_demo.SWISS_NAME)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_referee_guide(browser: Any, live_server: Any, demo: Tournament, lang: str) -> None:
    text = TEXT[lang]
    round4 = demo.round_set.get(number=4)
    mine = Match.objects.filter(pairing__round=round4, referee__username="referee")
    empty = mine.get(status=Match.Status.DRAFT)
    in_play = mine.filter(status=Match.Status.IN_PLAY).first()
    assert in_play is not None
    waiting = Match.objects.get(pairing__round=round4, status=Match.Status.SUBMITTED)
    context = open_context(browser, lang, PHONE, live_server.url)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "referee", "/matches/")
        assert page.locator(f"a[href='/matches/{empty.pk}/']").count() == 1
        shot(page, "referee-matches", lang)

        page.goto(f"{live_server.url}/matches/{empty.pk}/")
        leader = page.inner_text("#expected-leader")
        assert leader.startswith(f"{text['leader']} N")
        shot(page, "referee-sheet", lang)

        # a deal the engine refuses: a domino by N, but N's partner is given no tiles at all
        deal = play_match(empty.get_rules(), random.Random(5))[0]
        while deal["result"] != "domino":
            deal = play_match(empty.get_rules(), random.Random(len(deal)))[0]
        page.click('.result-choice input[value="domino"]')
        page.click(f'.by-choice input[value="{deal["by"]}"]')
        # one hand begun (the verdict waits for something to judge): the others are missing
        seat, hand = next((s, h) for s, h in deal["hands"].items() if h)
        page.click(f'.seat-tab[data-seat="{seat}"]')
        page.click(f'#tile-grid .tile[data-tile="{tile_name(hand.split()[0])}"]')
        page.wait_for_selector("#verdict .verdict")
        assert page.locator("#verdict .verdict.ok").count() == 0
        assert page.locator("#verdict [data-code]").count() >= 1
        page.locator("#verdict").scroll_into_view_if_needed()
        shot(page, "referee-error", lang)

        # the same deal with every hand tapped into the tile picker
        page.goto(f"{live_server.url}/matches/{empty.pk}/")
        tap_deal(page, deal)
        page.wait_for_selector("#verdict .verdict.ok")
        page.locator("#tile-grid").scroll_into_view_if_needed()
        shot(page, "referee-tile-picker", lang)
        # the points announced at the table, one too many: the rules' amount is one tap away
        written = Judge(empty.get_rules()).fold([deal]).deals[0].recorded
        side = next(s for s, amount in written.items() if amount)
        page.click("details.declared summary")
        page.fill(f'input[name="declared_{side}"]', str(written[side] + 10))
        page.wait_for_selector("#verdict .accept-rules")
        page.evaluate("() => document.querySelector('.time-up').scrollIntoView({block: 'start'})")
        shot(page, "referee-announced", lang)
        page.click("#verdict .accept-rules")
        page.wait_for_selector("#verdict .verdict.ok")
        page.click("#save-deal")
        page.wait_for_selector('#protocol tr[data-n="1"]')
        assert Match.objects.get(pk=empty.pk).deals.count() == 1
        assert not errors

        # a match that is over: the referee submits it
        finish_match(in_play, in_play.referee, random.Random(11))
        page.goto(f"{live_server.url}/matches/{in_play.pk}/")
        page.wait_for_selector("#submit-link")
        page.click("#submit-link")
        page.wait_for_selector("#submit-form")
        shot(page, "referee-submit", lang)
        with page.expect_navigation():
            page.click("#submit-form button[type=submit]")
        assert Match.objects.get(pk=in_play.pk).status == Match.Status.SUBMITTED
        assert text["submitted"] in page.inner_text(".messages")

        # table 7's PIN is not this referee's to try (nobody else may spend its attempts) ...
        page.goto(f"{live_server.url}/matches/{waiting.pk}/confirm/")
        assert page.locator("#pin-form").count() == 0
        # ... the opposing captain types it on the phone of table 7's referee
        log_in(page, live_server.url, waiting.referee.username, f"/matches/{waiting.pk}/confirm/")
        page.fill("#pin-form input[name=pin]", seed_demo.DEMO_PIN)
        shot(page, "referee-pin", lang)
        with page.expect_navigation():
            page.click("#pin-form button[type=submit]")
        confirmed = Match.objects.get(pk=waiting.pk)
        assert confirmed.status == Match.Status.CONFIRMED and confirmed.confirmed_with_pin
        assert text["confirmed"] in page.inner_text(".messages")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_chief_referee_guide(browser: Any, live_server: Any, demo: Tournament, lang: str) -> None:
    text = TEXT[lang]
    round4 = demo.round_set.get(number=4)
    waiting = Match.objects.get(pairing__round=round4, status=Match.Status.SUBMITTED)
    context = open_context(browser, lang, DESKTOP, live_server.url)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "chief", "/manage/")
        # the chief's home: what waits for him, with a link to each confirmation
        assert page.locator(f"#waiting a[href='/matches/{waiting.pk}/confirm/']").count() == 1
        assert page.locator(f"#desk-tournaments a[href='/manage/{demo.pk}/discipline/']").count()
        shot(page, "chief-home", lang)
        page.goto(f"{live_server.url}/matches/")
        shot(page, "chief-matches", lang)

        page.goto(f"{live_server.url}/matches/{waiting.pk}/confirm/")
        assert page.locator("#confirm-form").count() == 1
        shot(page, "chief-confirm", lang)
        with page.expect_navigation():
            page.click("#confirm-form button[type=submit]")
        assert Match.objects.get(pk=waiting.pk).status == Match.Status.CONFIRMED
        assert text["confirmed"] in page.inner_text(".messages")

        # a correction with the tile picker: a tile of one hand was really in the partner's
        index, loser, partner, tile = tile_to_move(waiting)
        page.goto(f"{live_server.url}/matches/{waiting.pk}/correct/")
        page.click(f'.pick[data-index="{index}"]')
        page.click(f'#deal-editor .seat-tab[data-seat="{loser}"]')
        page.click(f'#deal-editor #tile-grid .tile[data-tile="{tile}"]')
        page.click(f'#deal-editor .seat-tab[data-seat="{partner}"]')
        page.click(f'#deal-editor #tile-grid .tile[data-tile="{tile}"]')
        page.wait_for_selector(f'#review tr.deal.status-changed[data-index="{index}"]')
        page.fill("#correct-form textarea[name=reason]", "Проверка протокола по жалобе капитана")
        page.locator(f'#review tr.deal[data-index="{index}"]').scroll_into_view_if_needed()
        shot(page, "chief-correct", lang)
        with page.expect_navigation():
            page.click("#save-correction")
        assert Match.objects.get(pk=waiting.pk).status == Match.Status.CONFIRMED
        assert "Проверка протокола по жалобе капитана" in page.inner_text("main")
        assert page.locator('.history li[data-action="correct"] tr.status-changed').count() >= 1
        shot(page, "chief-history", lang)

        # a paper protocol copied in at the desk: table 5 played on paper, one slip in deal 3
        draft = Match.objects.get(pairing__round=round4, status=Match.Status.DRAFT)
        page.goto(f"{live_server.url}/matches/{draft.pk}/")
        page.click("#transcribe-link")
        type_paper(page, play_match(draft.get_rules(), random.Random(21), style="tiles"))
        page.wait_for_selector("tr.paper-row.differs")
        shot(page, "chief-transcribe", lang, full=True)
        page.click("tr.paper-row.differs .accept-rules")
        page.wait_for_function("() => !document.querySelector('tr.paper-row.differs')")
        with page.expect_navigation():
            page.click("#save-paper")
        assert Match.objects.get(pk=draft.pk).finished

        # discipline: the yellow card of round 2 is listed; record a deduction
        page.goto(f"{live_server.url}/manage/{demo.pk}/discipline/")
        assert page.locator("#sanctions tbody tr").count() == 1
        entry = demo.entries.order_by("seed").first()
        assert entry is not None
        page.select_option("#sanction-form select[name=entry]", str(entry.pk))
        page.fill("#sanction-form input[name=round_number]", "4")
        page.select_option("#sanction-form select[name=kind]", "deduction")
        page.fill("#sanction-form input[name=game_points]", "20")
        page.fill("#sanction-form textarea[name=reason]", "Опоздание к началу тура на 10 минут")
        with page.expect_navigation():
            page.click("#sanction-form button[type=submit]")
        assert Sanction.objects.filter(tournament=demo).count() == 2
        assert page.locator("#sanctions tbody tr").count() == 2
        shot(page, "chief-discipline", lang)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_organiser_guide(
    browser: Any, live_server: Any, demo: Tournament, lang: str, tmp_path: Path
) -> None:
    text = TEXT[lang]
    context = open_context(browser, lang, DESKTOP, live_server.url)
    try:
        page = context.new_page()
        log_in(page, live_server.url, "organiser", "/manage/")
        assert page.locator(f"a[href='/manage/{demo.pk}/']").count() >= 1
        shot(page, "organiser-list", lang)

        # a new tournament
        page.goto(f"{live_server.url}/manage/new/")
        page.fill("#id_name", "Открытый кубок клуба")
        page.select_option("#id_rules_preset", "sport")
        page.fill("#id_rounds", "3")
        shot(page, "organiser-setup", lang)
        with page.expect_navigation():
            page.click("#save-setup")
        tournament = Tournament.objects.get(name="Открытый кубок клуба")

        # players from a CSV file
        csv = tmp_path / "players.csv"
        csv.write_text(CSV, encoding="utf-8")
        page.goto(f"{live_server.url}/manage/{tournament.pk}/entries/")
        page.set_input_files("#import-form input[type=file]", str(csv))
        with page.expect_navigation():
            page.click("#import-form button[type=submit]")
        assert tournament.entries.count() == 4
        assert page.locator("#entries tbody tr").count() >= 4
        shot(page, "organiser-entries", lang)

        # pair round 1, review, swap, lock, publish, print
        page.goto(f"{live_server.url}/manage/{tournament.pk}/")
        with page.expect_navigation():
            page.click("#pair-form button[type=submit]")
        page.wait_for_selector("#tables tr[data-table='2']")
        round1 = Round.objects.get(tournament=tournament, number=1)
        assert round1.status == Round.Status.PAIRED
        places = {p.entry_id: p.pairing.table for p in round1.places.select_related("pairing")}
        a = next(e for e, t in places.items() if t == 1)
        b = next(e for e, t in places.items() if t == 2)
        page.select_option("#swap-a", str(a))
        page.select_option("#swap-b", str(b))
        with page.expect_navigation():
            page.click("#swap-form button[type=submit]")
        assert text["swapped"] in page.inner_text(".messages")
        with page.expect_navigation():
            page.click("#tables tr[data-table='1'] .lock-button")
        assert round1.pairings.get(table=1).locked
        shot(page, "organiser-round", lang, full=True)
        with page.expect_navigation():
            page.click("#publish-form button[type=submit]")
        assert Round.objects.get(pk=round1.pk).status == Round.Status.PUBLISHED
        page.goto(f"{live_server.url}/manage/{tournament.pk}/rounds/1/print/")
        assert page.locator("#table-list tbody tr[data-table]").count() == 2
        shot(page, "organiser-print", lang)

        # the demo cup: its dashboard, standings, crosstable and the hall screen
        page.goto(f"{live_server.url}/manage/{demo.pk}/")
        assert page.locator(".finish-nudge[data-round='4']").count() == 1
        shot(page, "organiser-dashboard", lang)
        page.goto(f"{live_server.url}/manage/{demo.pk}/rounds/4/")
        assert page.locator("#open-tables").count() == 1
        page.goto(f"{live_server.url}/tournaments/{demo.pk}/standings/")
        assert page.locator("#standings tbody tr").count() == 24
        assert page.locator("#standings-csv").count() == 1
        shot(page, "organiser-standings", lang)
        page.goto(f"{live_server.url}/tournaments/{demo.pk}/crosstable/")
        assert page.locator("#crosstable").count() == 1
        shot(page, "organiser-crosstable", lang)
        page.goto(f"{live_server.url}/tournaments/{demo.pk}/hall/")
        page.wait_for_selector("#hall")
        shot(page, "organiser-hall", lang)
    finally:
        context.close()
