"""A season's table across tournaments: points per place, the best N, the tie-breaks, pairs as
one line, its page, exports and API, and a private tournament that never counts."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Season, Tournament
from tournaments.seasons import season_table
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def evening(name: str, day: int, order: list[str], people: dict[str, object], **kw):
    """An individual evening (singles) whose standings put ``order`` first to last: a round
    robin is overkill; one round of winners above losers and one more for the top two."""
    tournament = TournamentFactory(name=name, start_date=datetime.date(2027, 1, day),
                                   format="singles", rules_preset="muggins", **kw)  # fmt: skip
    entries = {}
    for key in order:
        entry = tournament.entries.create(name=str(people[key]))
        entry.players.set([people[key]])
        entries[key] = entry
    # round 1: 1st beats 4th by a lot, 2nd beats 3rd by less; round 2: 1st beats 2nd, 3rd
    # beats 4th: match points 4, 2, 2, 0, and the difference orders 2nd above 3rd
    a, b, c, d = (entries[k] for k in order)
    play_round(tournament, 1, [(a, d, (150, 10)), (b, c, (120, 100))], status="finished")
    play_round(tournament, 2, [(a, b, (110, 100)), (c, d, (101, 100))], status="finished")
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def people():
    return {k: PlayerFactory(last_name=name, first_name="")
            for k, name in zip("abcde", ["Алексеев", "Борисов", "Васильев", "Гусев", "Дёмин"],
                               strict=True)}  # fmt: skip


def test_points_per_place_best_of_and_ties(people):
    one = evening("Вечер 1", 5, ["a", "b", "c", "d"], people)
    two = evening("Вечер 2", 12, ["b", "a", "d", "c"], people)
    three = evening("Вечер 3", 19, ["c", "b", "a", "e"], people)
    season = Season.objects.create(name="Зимний сезон 2026/27", scale=[25, 18, 15, 12],
                                   best_of=2)  # fmt: skip
    season.tournaments.set([one, two, three])
    table = season_table(season)
    points = {line.name: line.points for line in table.lines}
    # a: 25 + 18 (+15 not counted); b: 18 + 25 (+18 not counted); c: 15 + 12 + 25 best two 40
    assert points["Алексеев"] == 43 and points["Борисов"] == 43
    assert points["Васильев"] == 40 and points["Гусев"] == 12 + 15 and points["Дёмин"] == 12
    # a and b level on 43 and on one win each; b's best place 1 = a's; b played as many:
    # the name decides last, so Алексеев first; then c (40), then d (12 + 15)
    assert [line.name for line in table.lines][:3] == ["Алексеев", "Борисов", "Васильев"]
    assert [line.rank for line in table.lines] == list(range(1, len(table.lines) + 1))
    uncounted = [r for r in table.lines[0].results if not r.counted]
    assert [(r.tournament.name, r.points) for r in uncounted] == [("Вечер 3", 15)]


def test_more_tournaments_won_break_a_tie_on_points(people):
    one = evening("Вечер 1", 5, ["b", "a", "c", "d"], people)
    two = evening("Вечер 2", 12, ["c", "d", "a", "b"], people)
    season = Season.objects.create(name="Сезон", scale=[10, 6, 4, 0])
    season.tournaments.set([one, two])
    lines = season_table(season).lines
    # c 4 + 10 = 14; b 10 + 0 = 10 with a win; a 6 + 4 = 10 without (the name would put a first)
    assert [(line.name, line.points) for line in lines] == [
        ("Васильев", 14), ("Борисов", 10), ("Алексеев", 10), ("Гусев", 6)]


def test_the_better_best_place_breaks_a_tie_on_points_and_wins(people):
    one = evening("Вечер 1", 5, ["b", "d", "a", "c"], people)
    two = evening("Вечер 2", 12, ["c", "b", "a", "d"], people)
    season = Season.objects.create(name="Сезон", scale=[10, 6, 4, 2])
    season.tournaments.set([one, two])
    lines = season_table(season).lines
    # d: 2nd and 4th (8), a: 3rd and 3rd (8), neither won: d's best place 2 is better
    assert [(line.name, line.points) for line in lines] == [
        ("Борисов", 16), ("Васильев", 12), ("Гусев", 8), ("Алексеев", 8)]


def test_a_private_tournament_never_counts_in_a_season(people):
    public = evening("Открытый", 5, ["a", "b", "c", "d"], people)
    private = evening("Закрытый", 12, ["d", "c", "b", "a"], people, public=False)
    season = Season.objects.create(name="Сезон")
    season.tournaments.set([public, private])
    table = season_table(season)
    assert [t.name for t in table.tournaments] == ["Открытый"]
    assert {line.name: line.points for line in table.lines}["Гусев"] == 12


def test_fixed_pairs_are_one_line_whatever_their_entry_is_called(organiser):
    first = TournamentFactory(name="Пары 1", start_date=datetime.date(2027, 1, 5))
    a, b = add_pairs(first, 2)
    second = TournamentFactory(name="Пары 2", start_date=datetime.date(2027, 1, 12))
    c, d = add_pairs(second, 2)
    c.players.set(a.players.all())
    c.name = "Другое имя"
    c.save()
    play_round(first, 1, [(a, b, (120, 80))], status="finished")
    play_round(second, 1, [(c, d, (120, 80))], status="finished")
    season = Season.objects.create(name="Сезон пар", scope=Season.Scope.PAIRS)
    season.tournaments.set([first, second])
    table = season_table(season)
    assert table.lines[0].points == 50 and len(table.lines[0].results) == 2
    assert len(table.lines) == 3


def test_season_page_exports_and_api(client, people):
    one = evening("Вечер 1", 5, ["a", "b", "c", "d"], people)
    season = Season.objects.create(name="Зимний сезон 2026/27")
    season.tournaments.set([one])
    page = client.get(reverse("tournaments:season", args=[season.pk])).content.decode()
    assert "Зимний сезон 2026/27" in page and 'id="season-table"' in page
    assert page.index("Алексеев") < page.index("Борисов") < page.index("Гусев")
    text = client.get(reverse("tournaments:season_export", args=[season.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(text.content.decode("utf-8-sig"))))
    assert rows[1][:4] == ["1", "Алексеев", rows[1][2], "25"]
    book = load_workbook(io.BytesIO(client.get(
        reverse("tournaments:season_export", args=[season.pk, "xlsx"])).content))  # fmt: skip
    assert book.active.cell(row=2, column=2).value == "Алексеев"
    body = client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert body["table"][0]["name"] == "Алексеев" and body["table"][0]["points"] == 25
    assert client.get("/api/v1/seasons/").json()["count"] == 1
    assert "Зимний сезон" in client.get(reverse("tournaments:seasons")).content.decode()


def test_a_season_that_is_not_public_is_a_404(client, people):
    season = Season.objects.create(name="Черновик", public=False)
    assert client.get(reverse("tournaments:season", args=[season.pk])).status_code == 404
    assert client.get(f"/api/v1/seasons/{season.pk}/").status_code == 404
    assert client.get(reverse("tournaments:season_export",
                              args=[season.pk, "csv"])).status_code == 404  # fmt: skip


def test_a_running_tournament_counts_provisionally_by_its_last_finished_round(people):
    done = evening("Вечер 1", 5, ["a", "b", "c", "d"], people)
    running = TournamentFactory(name="Идёт", start_date=datetime.date(2027, 1, 12),
                                format="singles", rules_preset="muggins", status="running")
    entries = {}
    for key in "abcd":
        entries[key] = running.entries.create(name=str(people[key]))
        entries[key].players.set([people[key]])
    # round 1 finished: d and c won; round 2 in play, a and b win it (not counted yet)
    play_round(running, 1, [(entries["d"], entries["a"], (150, 10)),
                            (entries["c"], entries["b"], (120, 100))], status="finished")
    play_round(running, 2, [(entries["a"], entries["c"], (150, 0)),
                            (entries["b"], entries["d"], (150, 0))])
    season = Season.objects.create(name="Сезон", scale=[10, 6, 4, 2])
    season.tournaments.set([done, running])
    table = season_table(season)
    assert table.provisional == {running.pk}
    gusev = next(line for line in table.lines if line.name == "Гусев")
    assert [(r.tournament.name, r.place) for r in gusev.results] == [("Вечер 1", 4), ("Идёт", 1)]
    # a tournament without a finished round is not in the table at all
    Tournament.objects.filter(pk=running.pk).update(name="Идёт ещё")
    Round = running.round_set.model
    Round.objects.filter(tournament=running, number=1).update(status="published")
    assert [t.name for t in season_table(season).tournaments] == ["Вечер 1"]
