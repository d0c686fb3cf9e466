"""The refusal page says what this user lacks (issue 28), in a browser at 360 px in both
languages: the tournament's own chief referee is told the page needs its organiser's role (not
that it is «for … its chief referees», which he is), an organiser of another tournament that he
is not one of this one's, anyone else that the page is for its organisers; a page for the
organisers and the chief referees says so to the one who is neither."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.tests.test_browser import PHONE, log_in
from tournaments.tests.conftest import make_user

CASES = {
    # user → (page, what the refusal says, in ru and en)
    "chief": ("setup", {"ru": "Вы главный судья этого турнира, а для этой страницы нужна роль "
                              "его организатора",
                        "en": "You are a chief referee of this tournament, and this page needs "
                              "the role of its organiser"}),
    "org2": ("setup", {"ru": "Вы организатор, но не этого турнира",
                       "en": "You are an organiser, but not of this tournament"}),
    "ref": ("setup", {"ru": "Эта страница — для организаторов турнира, а вы не из их числа.",
                      "en": "This page is for the tournament's organisers, and you are not one "
                            "of them."}),
    "ref2": ("discipline", {"ru": "для организаторов и главных судей турнира, а вы ни тот, ни "
                                  "другой",
                            "en": "for the tournament's organisers and chief referees, and you "
                                  "are neither"}),
}  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_refusal_says_what_this_user_lacks(
    browser: Any, live_server: Any, tournament: Any, language: str
) -> None:
    chief = make_user("chief", "Chief referee")
    tournament.chief_referees.add(chief)
    make_user("org2", "Organiser")
    make_user("ref", "Referee")
    make_user("ref2", "Referee")
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        for username, (where, said) in CASES.items():
            context.clear_cookies()
            context.add_cookies([{"name": "django_language", "value": language,
                                  "url": live_server.url}])  # fmt: skip
            log_in(page, live_server.url, username, f"/manage/{tournament.pk}/{where}/")
            refusal = page.inner_text("#refusal")
            assert said[language] in refusal, (username, refusal)
            assert username in refusal  # who is signed in, by name
            if username == "chief":
                assert ("главных судей" if language == "ru" else "chief referees") \
                    not in refusal
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
