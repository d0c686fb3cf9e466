"""The organiser's pages: access, setup form, registration and import, pairing with its status
JSON, review actions, publication, the printable table list and the public round page."""

from __future__ import annotations

import io
import re

import pytest

from tournaments.models import Pairing, Round, Tournament
from tournaments.registration import rules_form
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture

pytestmark = pytest.mark.django_db


def test_only_the_tournaments_organisers_get_in(client, tournament, other_organiser) -> None:
    url = f"/manage/{tournament.pk}/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(other_organiser)
    assert client.get(url).status_code == 403


def test_setup_form_shows_the_presets_knobs_and_creates_a_tournament(client, organiser) -> None:
    client.force_login(organiser)
    html = client.get("/manage/new/").content.decode()
    assert "Правила игры" in html and "Международные правила" in html
    assert "Раздач в партии" in html and "rules_options" not in html  # typed fields, no JSON
    answer = client.post("/manage/new/", {
        "name": "Весенний кубок", "rules_preset": "sport", **rules_form.posted("sport"),
        "format": "pairs", "system": "swiss", "rounds": 5, "points_win": 2, "points_draw": 1,
        "points_loss": 0, "tie_breaks": ["buchholz", "match_points"], "bye_result": "win",
        "club_avoidance": "among_equals", "club_strict_until": 2, "first_round": "seed",
    })
    tournament = Tournament.objects.get(name="Весенний кубок")
    assert answer.status_code == 302
    assert tournament.tie_breaks == ["buchholz", "match_points"]
    assert (tournament.club_avoidance, tournament.club_strict_until) == ("among_equals", 2)
    assert tournament.club_mode(2) == "strict" and tournament.club_mode(3) == "among_equals"
    assert list(tournament.organisers.all()) == [organiser]
    bad = client.post(f"/manage/{tournament.pk}/setup/", {
        "name": "x", "rules_preset": "sport", **rules_form.posted("sport", {"deals": 0}),
        "format": "pairs",
        "system": "swiss", "rounds": 5, "points_win": 2, "points_draw": 1, "points_loss": 0,
        "bye_result": "win", "club_avoidance": "among_equals", "club_strict_until": 0,
        "first_round": "seed",
    })
    assert bad.status_code == 400


def test_registration_page_adds_and_imports_entries(client, organiser, tournament) -> None:
    client.force_login(organiser)
    answer = client.post(f"/manage/{tournament.pk}/entries/", {
        "name": "Дубль", "seed": 1, "last_name_1": "Иванов", "first_name_1": "Пётр",
        "last_name_2": "Петров", "first_name_2": "Иван",
    })
    assert answer.status_code == 302
    entry = tournament.entries.get()
    assert sorted(p.last_name for p in entry.players.all()) == ["Иванов", "Петров"]
    bad = io.BytesIO("entry,last_name\nРыба,Сидоров\n".encode())
    bad.name = "bad.csv"
    page = client.post(f"/manage/{tournament.pk}/entries/import/", {"file": bad})
    assert page.status_code == 400
    assert "Строка 2: у участника «Рыба» игроков: 1, а нужно 2." in page.content.decode()
    good = io.BytesIO("entry;last_name\nРыба;Сидоров\nРыба;Попов\n".encode())
    good.name = "good.csv"
    answer = client.post(f"/manage/{tournament.pk}/entries/import/", {"file": good})
    assert answer.status_code == 302
    assert tournament.entries.count() == 2
    client.post(f"/manage/{tournament.pk}/entries/{entry.pk}/withdraw/")
    entry.refresh_from_db()
    assert entry.status == "withdrawn"


def test_pair_review_publish_and_print(client, organiser, tournament, pairs,
                                       django_capture_on_commit_callbacks) -> None:
    e = pairs(tournament, 4)
    client.force_login(organiser)
    assert "Составить пары тура 1" in client.get(f"/manage/{tournament.pk}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/manage/{tournament.pk}/rounds/pair/")
    assert answer.headers["Location"] == f"/manage/{tournament.pk}/rounds/1/"
    status = client.get(f"/manage/{tournament.pk}/rounds/1/status/").json()
    assert status["status"] == "paired" and status["progress"] == 100
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert "первый тур по посеву" in page and "бланк протокола для печати" in page
    client.post(f"/manage/{tournament.pk}/rounds/1/swap/",
                {"entry_a": e[1].pk, "entry_b": e[2].pk})
    table1 = Pairing.objects.get(table=1)
    assert {p.entry_id for p in table1.places.all()} == {e[0].pk, e[2].pk}
    assert client.get(f"/tournaments/{tournament.pk}/rounds/1/").status_code == 404
    client.post(f"/manage/{tournament.pk}/rounds/1/publish/")
    assert Round.objects.get().status == Round.Status.PUBLISHED
    public = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "Северов1" in public and "Пара 3" in public
    printed = client.get(f"/manage/{tournament.pk}/rounds/1/print/").content.decode()
    assert printed.index('data-table="1"') < printed.index('data-table="2"')
    assert f"/matches/{table1.match_id}/print/?blank=1" in printed


def test_a_refused_action_is_shown_as_a_message(client, organiser, tournament, pairs) -> None:
    pairs(tournament, 1)
    client.force_login(organiser)
    page = client.post(f"/manage/{tournament.pk}/rounds/pair/", follow=True).content.decode()
    assert "Нужны хотя бы два активных участника." in page


def test_the_presets_values_sent_unchanged_store_no_overrides(client, organiser) -> None:
    client.force_login(organiser)
    answer = client.post("/manage/new/", {
        "name": "Без переопределений", "rules_preset": "sport", **rules_form.posted("sport"),
        "format": "pairs", "system": "swiss", "rounds": 5, "points_win": 2, "points_draw": 1,
        "points_loss": 0, "bye_result": "win", "club_avoidance": "among_equals",
        "club_strict_until": 0, "first_round": "seed",
    })  # fmt: skip
    assert answer.status_code == 302
    assert Tournament.objects.get(name="Без переопределений").rules_options == {}


def test_the_header_links_each_role_to_its_pages(client, organiser, referee) -> None:
    assert 'id="nav-manage"' not in client.get("/").content.decode()
    client.force_login(organiser)
    html = client.get("/").content.decode()
    assert 'href="/manage/" id="nav-manage"' in html and 'id="nav-matches"' in html
    client.force_login(referee)
    html = client.get("/").content.decode()
    assert 'id="nav-manage"' not in html and 'href="/matches/" id="nav-matches"' in html


def test_the_availability_box_is_labelled_on_the_page(client, organiser, tournament) -> None:
    # the «Участие» column showed a bare number box: a label only a screen reader heard
    Tournament.objects.filter(pk=tournament.pk).update(rounds=5)
    tournament.entries.create(name="Дубль", seed=1)
    client.force_login(organiser)
    html = client.get(f"/manage/{tournament.pk}/entries/").content.decode()
    cell = html.split("/absence/", 1)[1].split("</form>", 1)[0]
    assert re.search(r'<label[^>]*>\s*тур\s*<input type="number" name="round_number"', cell)
