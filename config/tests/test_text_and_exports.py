"""Text that hides or runs: names with invisible or direction-changing characters are refused
on every path that creates them; names that start like a formula stay text in the exports
(OWASP "CSV injection"); and the standings cache is keyed on what ``?round=`` means.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from accounts.tokens import issue
from scoring.models import Match
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.results import display, exports
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

#: zero-width space, byte-order mark, right-to-left override, zero-width joiner, a control
HIDDEN = ["\u200b", "\ufeff", "\u202e", "\u200d", "\x07"]
FORMULAS = ["=1+1", "+SUM(A1:A2)", "-2+3", "@SUM(A1)", "=HYPERLINK(\"http://x\")"]


@pytest.fixture
def boss(db: Any) -> Any:
    return make_user("boss", "Organiser", "Chief referee")


@pytest.fixture
def api(boss: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {issue(boss)[1]}")


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("char", HIDDEN)
def test_names_with_hidden_characters_are_refused_by_the_api(api, boss, char) -> None:
    tournament = Tournament.objects.create(name="Кубок", rounds=3)
    tournament.organisers.add(boss)
    name = f"Иван{char}ов"
    for url, body in (("/api/v1/clubs/", {"name": name}),
                      ("/api/v1/players/", {"last_name": name}),
                      ("/api/v1/tournaments/", {"name": name, "rounds": 3}),
                      (f"/api/v1/tournaments/{tournament.pk}/entries/", {"name": name}),
                      ("/api/v1/matches/", {"label": name})):  # fmt: skip
        answer = post(api, url, body)
        assert answer.status_code == 400, (url, answer.content)
        errors = answer.json()["errors"]
        assert errors[0]["code"] == "invisible_character", (url, errors)
        assert "невидимые символы" in errors[0]["message"]
    assert not Club.objects.exists() and not Player.objects.exists()
    assert not Entry.objects.exists() and not Match.objects.exists()
    assert Tournament.objects.count() == 1


def test_names_with_hidden_characters_are_refused_by_the_pages(boss) -> None:
    tournament = Tournament.objects.create(name="Кубок", rounds=3)
    tournament.organisers.add(boss)
    page = Client()
    page.force_login(boss)
    rlo = "Пара\u202eабв"
    answer = page.post(f"/manage/{tournament.pk}/entries/",
                       {"name": rlo, "last_name_1": "Иванов", "last_name_2": "Петров"})
    assert answer.status_code == 400 and "U+202E" in answer.content.decode()
    answer = page.post(f"/manage/{tournament.pk}/entries/",
                       {"name": "Пара", "last_name_1": "Ива\u200bнов", "last_name_2": "Петров"})
    assert answer.status_code == 400 and "U+200B" in answer.content.decode()
    assert page.post("/matches/new/", {"label": rlo, "rules_preset": "sport"}).status_code == 400
    upload = io.BytesIO("entry,last_name\nПара,Ива\ufeffнов\nПара,Петров\n".encode())
    upload.name = "entries.csv"
    answer = page.post(f"/manage/{tournament.pk}/entries/import/", {"file": upload})
    assert answer.status_code == 400 and "Строка 2" in answer.content.decode()
    assert not Entry.objects.exists() and not Player.objects.exists()
    assert not Match.objects.exists()


def test_ordinary_names_still_pass() -> None:
    from config.inputs import validate_name

    for name in ("Иванов-Петров", "O'Brien", "Łukasz Żółć", "Клуб «Дубль» № 2", "李小龙",
                 "🀄 Домино"):
        validate_name(name)


@pytest.fixture
def formula_event(boss: Any) -> Tournament:
    tournament = Tournament.objects.create(name="Формулы", rounds=3, public=True)
    tournament.organisers.add(boss)
    entries = add_pairs(tournament, 4)
    for entry, name in zip(entries, FORMULAS, strict=False):
        Entry.objects.filter(pk=entry.pk).update(name=name)
    a, b, c, d = entries
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (60, 100))])
    return tournament


def test_a_name_like_a_formula_is_a_string_cell_in_the_xlsx(client, formula_event) -> None:
    for what in ("standings", "crosstable"):
        answer = client.get(f"/tournaments/{formula_event.pk}/{what}.xlsx")
        assert answer.status_code == 200
        sheet = load_workbook(io.BytesIO(answer.content)).active
        cells = {cell.value: cell for row in sheet.iter_rows() for cell in row}
        for name in FORMULAS[:4]:
            assert name in cells, (what, name)
            assert cells[name].data_type == "s", (what, name, cells[name].data_type)
        numbers = [cell for row in sheet.iter_rows(min_row=2) for cell in row
                   if isinstance(cell.value, int)]  # fmt: skip
        assert numbers and all(cell.data_type == "n" for cell in numbers)


def test_a_name_like_a_formula_is_quoted_in_the_csv(client, formula_event) -> None:
    for what in ("standings", "crosstable"):
        answer = client.get(f"/tournaments/{formula_event.pk}/{what}.csv")
        rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
        cells = {cell for row in rows for cell in row}
        for name in FORMULAS[:4]:
            assert "'" + name in cells and name not in cells, (what, name)
        if what == "standings":
            assert "-40" in cells  # a negative number is a number, not quoted text


def test_tab_and_carriage_return_and_full_width_starts_are_neutralised_too() -> None:
    sheet = exports.Sheet("t", "f", ["a", "b"], [["\tcmd", "\r=1"], ["\uff1d1+1", -5]])
    rows = list(csv.reader(io.StringIO(exports.to_csv(sheet).decode("utf-8-sig"))))
    assert rows[1] == ["'\tcmd", "'\r=1"] and rows[2] == ["'\uff1d1+1", "-5"]
    book = load_workbook(io.BytesIO(exports.to_xlsx(sheet))).active
    assert [c.data_type for c in book[2]] == ["s", "s"] and book["B3"].data_type == "n"


def test_the_standings_cache_is_keyed_on_the_round_not_its_text(client, boss) -> None:
    tournament = Tournament.objects.create(name="Кэш", rounds=3, public=True)
    a, b, c, d = add_pairs(tournament, 4)
    play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (60, 100))])
    play_round(tournament, 2, [(a, c, (90, 30)), (b, d, (70, 70))])
    cache.clear()
    keys = {display.cached_results_table(tournament, text)[1]
            for text in ("1", "01", "+1", " 1", "001")}  # fmt: skip
    assert len(keys) == 1
    url = f"/tournaments/{tournament.pk}/standings/?fragment=1&round="
    assert client.get(url + "1").status_code == 200
    for text in ("01", "%2B1", "0001"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url + text).status_code == 200
        assert len(queries) <= 5, (text, [q["sql"] for q in queries])
