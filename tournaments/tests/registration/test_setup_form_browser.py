"""A club secretary sets up an evening through the form, in Chromium, without typing JSON or
identifiers: the preset chosen by its name fills its knobs in (the fives games show their own),
a knob the engine refuses is named next to its field, the tie-breaks are ticked and put in order
from the keyboard, and what is stored is what the setup always stored (the preset and the knobs
that differ from it, the tie-breaks in order)."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Tournament
from tournaments.tests.test_browser import DESKTOP, log_in


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.django_db(transaction=True)
def test_a_tournament_set_up_through_the_form_without_json(
    browser: Any, live_server: Any, organiser: Any, language: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "org", "/manage/new/")
        assert page.locator("textarea").count() == 0  # no JSON to type
        page.fill("#id_name", "Пятничный вечер")
        page.fill("#id_start_date", "2026-12-04")
        page.select_option("#id_rules_preset", "kozel")
        assert page.input_value("#id_classic_min_record") == "13"
        assert page.input_value("#id_classic_end") == "target_loses"
        assert page.locator("#id_classic_end option:checked").inner_text() == (
            "набравший проиграл («козёл»)" if language == "ru"
            else "first to the target loses («козёл»)")
        page.select_option("#id_rules_preset", "muggins")
        assert page.locator("#id_fives_spinner").is_visible()
        assert not page.locator("#id_classic_deals").is_visible()
        page.select_option("#id_rules_preset", "sport")
        assert page.input_value("#id_classic_min_record") == "0"
        assert page.locator("#id_classic_deals").is_visible()

        # a number of deals the rules refuse: the engine's reason at the field
        page.fill("#id_classic_deals", "6")
        with page.expect_navigation():
            page.click("#save-setup")
        deals = page.locator("#id_classic_deals").locator("xpath=..")
        assert deals.locator(".field-error").count() == 1, page.content()
        assert not Tournament.objects.exists()
        assert page.input_value("#id_start_date") == "2026-12-04"  # kept in the page's language

        page.fill("#id_classic_deals", "12")
        # tie-breaks: «wins» ticked and moved to the top with the keyboard, head-to-head off
        page.check("#tie-list li[data-name=wins] input[type=checkbox]")
        page.uncheck("#tie-list li[data-name=head_to_head] input[type=checkbox]")
        up = page.locator("#tie-list li[data-name=wins] .tie-up")
        up.focus()
        for _ in range(4):
            page.keyboard.press("Enter")
        assert page.locator("#tie-list li").first.get_attribute("data-name") == "wins"
        with page.expect_navigation():
            page.click("#save-setup")
        tournament = Tournament.objects.get()
        assert (tournament.rules_preset, tournament.rules_options) == ("sport", {"deals": 12})
        assert tournament.tie_breaks == ["wins", "match_points", "difference", "buchholz"]
        assert str(tournament.start_date) == "2026-12-04"
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.django_db
def test_without_the_script_load_preset_and_the_arrows_show_the_form_again(
    client: Any, organiser: Any
) -> None:
    """The same buttons work without JavaScript: the page comes back changed, nothing saved."""
    from config.tests.browser_forms import FormPage

    client.force_login(organiser)
    form = FormPage.load(client, "/manage/new/").form("#setup-form")
    form.fill(name="Вечер", rules_preset="kozel")
    page = form.submit(client, button="1")  # «Load the preset's values»
    html = page.content.decode()
    assert 'name="classic_min_record" value="13"' in html and not Tournament.objects.exists()
    form = FormPage.load(client, "/manage/new/").form("#setup-form").fill(name="Вечер")
    page = form.submit(client, button="up:buchholz").content.decode()
    order = [chunk.split('"')[0] for chunk in page.split('name="tie_order" value="')[1:]]
    assert order[:4] == ["match_points", "buchholz", "difference", "head_to_head"]
    assert not Tournament.objects.exists()


def test_every_knob_of_every_preset_is_a_field_with_words() -> None:
    """Each knob an organiser may set has a label without identifiers in both languages and
    each of its choices a name (the engine names them by identifiers)."""
    from django.utils import translation

    from tournaments.registration import rules_form

    for engine in rules_form.ENGINES:
        for name, knob in rules_form.knob_table(engine).items():
            for language in ("ru", "en"):
                with translation.override(language):
                    field = rules_form.knob_field(knob)
                    assert field.label and "null" not in field.label and "_" not in field.label
                    for value, label in getattr(field, "choices", []):
                        assert "_" not in str(label), (name, value)
                        if language == "ru":  # English words may be the identifier itself
                            assert str(label) != value, (name, value)
