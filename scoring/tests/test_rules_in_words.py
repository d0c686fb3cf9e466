"""The rules of a match in words (issue 28): the score sheet's header, its print page and its
PDF name the game («Спортивное домино») and each knob the match changed with its label and
value («Раздач в партии: 12»), translated, never the preset's key or the knobs' dict
(``sport {'deals': 12}``)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from rules.games import games
from scoring import services
from scoring.rules_words import CHOICES, GAME_NAMES, rules_words

pytestmark = pytest.mark.django_db

RU = "Спортивное домино (Раздач в партии: 12)"
EN = "Sports domino (Counted deals in a match: 12)"


@pytest.fixture
def twelve(chief, referee, players):
    return services.create_match(user=chief, referee=referee, seats=players, label="Вечер",
                                 table="3", rules_options={"deals": 12})  # fmt: skip


def test_every_game_has_a_name_and_every_choice_at_the_table_words() -> None:
    assert set(GAME_NAMES) == set(games())
    missing = [(name, knob, choice) for name, game in games().items() if game.at_table
               for knob, described in game.knobs.items()
               for choice in described.choices or () if choice not in CHOICES]  # fmt: skip
    assert not missing


def test_knob_values_in_words() -> None:
    assert rules_words("sport") == "Спортивное домино"
    assert rules_words("sport", {"deals": 8}) == "Спортивное домино"  # the preset's own value
    assert rules_words("kozel", {"next_lead": "rotate", "bonus_on_fish": True,
                                 "bonus_zero": None}) == (
        "Козёл (Кто заходит дальше: по кругу или выигравший: по кругу; "
        "Особая стоимость дублей и при «рыбе»: да; "
        "Сколько стоит один 0:0 на руках: по очкам)")  # fmt: skip


@pytest.mark.parametrize(("language", "expected"), [("ru", RU), ("en", EN)])
def test_the_sheet_header_and_print_page_name_the_game(client, twelve, language,
                                                       expected) -> None:  # fmt: skip
    client.cookies["django_language"] = language
    for url in (f"/matches/{twelve.pk}/", f"/matches/{twelve.pk}/print/"):
        html = client.get(url).content.decode()
        assert expected in html, url
        assert "{&#x27;deals&#x27;" not in html and ": sport" not in html
        assert "<b>sport</b>" not in html, url


def test_the_pdf_names_the_game(client, twelve) -> None:
    pdf = client.get(f"/matches/{twelve.pk}/protocol.pdf").content
    text = " ".join((page.extract_text() or "") for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Спортивное домино" in " ".join(text.split())
    assert "Раздач в партии: 12" in " ".join(text.split())
    assert "sport" not in text
