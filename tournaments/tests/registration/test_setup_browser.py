"""In a real browser, in Russian: the setup page shows the tournament's dates, saving it
unchanged keeps them, and a date chosen in the field is stored as that date.

Before ``config.formats`` the page rendered ``value="25.05.2026"`` into ``<input type="date">``:
Chromium showed an empty field and «Сохранить» erased both dates.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tournaments.models import Tournament
from tournaments.tests.test_browser import DESKTOP, log_in

START, END = datetime.date(2026, 5, 25), datetime.date(2026, 5, 27)


@pytest.mark.django_db(transaction=True)
def test_saving_the_russian_setup_page_unchanged_keeps_the_dates(
    browser: Any, live_server: Any, tournament: Tournament
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(start_date=START, end_date=END,
                                                       venue="Зал «Север»")  # fmt: skip
    before = Tournament.objects.filter(pk=tournament.pk).values().get()
    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        setup = f"/manage/{tournament.pk}/setup/"
        log_in(page, live_server.url, "org", setup)
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.input_value("#id_start_date") == "2026-05-25"
        assert page.input_value("#id_end_date") == "2026-05-27"

        with page.expect_navigation():
            page.click("#save-setup")
        assert page.locator(".messages .success").count() == 1
        assert Tournament.objects.filter(pk=tournament.pk).values().get() == before

        page.goto(f"{live_server.url}{setup}")
        assert page.input_value("#id_start_date") == "2026-05-25"
        # typed as a Russian reader sees the field: day, month, year
        # what the date picker gives (Debian's Chromium without chromium-l10n lays the field
        # out the American way whatever the page's language, so the keys are not typed here)
        page.fill("#id_end_date", "2026-05-28")
        assert page.input_value("#id_end_date") == "2026-05-28"
        with page.expect_navigation():
            page.click("#save-setup")
        tournament.refresh_from_db()
        assert (tournament.start_date, tournament.end_date) == (START, datetime.date(2026, 5, 28))
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_an_organiser_sets_up_a_muggins_evening_each_for_himself_and_pairs_round_1(
    browser: Any, live_server: Any, organiser: Any
) -> None:
    """The new-tournament form offers the fives games and the two formats; a format the rules
    cannot be played in is refused next to its field; the evening is paired into a table of
    four and a table of three, shown by seat on the round page."""
    from tournaments.tests.rounds.test_fives_events import add_players

    context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "org", "/manage/new/")
        page.fill("#id_name", "Вечер «Пятёрки»")
        page.select_option("#id_rules_preset", "sport")
        page.select_option("#id_format", "free_for_all")
        page.fill("#id_rounds", "3")
        with page.expect_navigation():
            page.click("#save-setup")
        refusal = page.locator("#id_format").locator("xpath=..").locator(".field-error")
        assert "«Каждый сам за себя" in refusal.inner_text()
        # the presets by their names, not identifiers
        assert "«Пятёрка (маггинс)»" in refusal.inner_text()
        assert "muggins" not in refusal.inner_text()
        assert not Tournament.objects.exists()

        assert "Пятёрка (маггинс)" in page.locator("#id_rules_preset").inner_text()
        page.select_option("#id_rules_preset", "muggins")
        page.select_option("#id_format", "free_for_all")
        with page.expect_navigation():
            page.click("#save-setup")
        tournament = Tournament.objects.get()
        assert (tournament.rules_preset, tournament.format) == ("muggins", "free_for_all")
        tournament.organisers.add(organiser)
        add_players(tournament, 7)

        page.goto(f"{live_server.url}/manage/{tournament.pk}/")
        with page.expect_navigation():
            page.click("#pair-form button.primary")
        # the job runs in Celery (a live worker under CI, eagerly otherwise): the round page
        # polls until it is paired
        page.goto(f"{live_server.url}/manage/{tournament.pk}/rounds/1/")
        page.wait_for_selector("#tables tr[data-table='2']", timeout=60_000)
        first = page.locator("#tables tr[data-table='1']").inner_text()
        second = page.locator("#tables tr[data-table='2']").inner_text()
        for seat in "NESW":
            assert f"{seat}: " in first
        assert [f"{seat}: " in second for seat in "NESW"] == [True, True, True, False]
        assert "за этим столом трое" in page.locator("#tables").inner_text()
        assert not errors, errors
    finally:
        context.close()


#: the width left for the chosen option's text in each select: the box less its padding and
#: the arrow; a list of «name: text» for those whose text is wider
CUT_SELECTS = """(names) => {
    const ctx = document.createElement("canvas").getContext("2d");
    return names.flatMap((name) => {
        const select = document.querySelector(`select[name="${name}"]`);
        const style = getComputedStyle(select);
        ctx.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight) - 24;
        const text = select.selectedOptions[0].text;
        return ctx.measureText(text).width > room ? [`${name}: ${text}`] : [];
    });
}"""


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_the_format_and_round_1_selects_show_their_choice_whole_on_a_phone(
    browser: Any, live_server: Any, tournament: Tournament, language: str
) -> None:
    # a select shows only its chosen option: «по посеву (верхняя половина против нижней)» and
    # «Каждый сам за себя (трое или четверо за столом)» were cut at 360 px
    Tournament.objects.filter(pk=tournament.pk).update(format=Tournament.Format.FREE_FOR_ALL,
                                                       rules_preset="muggins")  # fmt: skip
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page = context.new_page()
        log_in(page, live_server.url, "org", "/manage/new/")
        cut = page.evaluate(CUT_SELECTS, ["format", "first_round"])
        page.select_option("#id_format", "individual")
        cut += page.evaluate(CUT_SELECTS, ["format"])
        page.goto(f"{live_server.url}/manage/{tournament.pk}/setup/")
        cut += page.evaluate(CUT_SELECTS, ["format", "first_round"])
        assert cut == []
        # what the short names mean is said under the field
        note = page.locator("#id_first_round").locator("xpath=..").locator(".meta").inner_text()
        assert note.startswith("По посеву" if language == "ru" else "By seed")
    finally:
        context.close()
