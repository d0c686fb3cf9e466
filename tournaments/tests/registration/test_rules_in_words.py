"""The tournament's rules in words (issue 28): the public page and the organiser's overview
name the game and the knobs the setup changed («Спортивное домино (Раздач в партии: 12)»),
translated, never the preset's key and the dict of overrides (``sport {'deals': 12}``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "expected"), [
    ("ru", "Спортивное домино (Раздач в партии: 12)"),
    ("en", "Sports domino (Counted deals in a match: 12)"),
])  # fmt: skip
def test_the_tournament_pages_show_the_rules_in_words(client, tournament, organiser, language,
                                                      expected) -> None:  # fmt: skip
    tournament.rules_options = {"deals": 12}
    tournament.save()
    client.force_login(organiser)
    client.cookies["django_language"] = language
    for url in (f"/tournaments/{tournament.pk}/", f"/manage/{tournament.pk}/"):
        html = client.get(url).content.decode()
        assert f'<dd id="rules">{expected}</dd>' in html, url
        assert "{&#x27;deals&#x27;: 12}" not in html and "<dd>sport" not in html, url
