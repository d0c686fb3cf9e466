"""Red-team checks of the archive import (issue 25), sent as an organiser with a valid account
over raw HTTP (the API with a token, the pages with a session): an import is reviewed before it
writes, is never a second copy, arrives private and unrated, is checked as the API checks the
same data, and its players stay out of other organisers' lists."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts.roles import ORGANISER
from accounts.tokens import issue
from tournaments import archive
from tournaments.models import PendingImport, Player, PlayerRating, RatingChange, Tournament
from tournaments.tests.archive.test_forged_archive import people, source  # noqa: F401, F811
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db
IMPORT = "/api/v1/tournaments/import/"


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue(user)[1]}")
    return client


def raw_post(client: APIClient, doc: Any, path: str = IMPORT) -> Any:
    return client.post(path, json.dumps(doc), content_type="application/json")


def foreign(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in copy.deepcopy(doc).items() if k != "source"}


def written() -> tuple[int, int, int]:
    return Tournament.objects.count(), Player.objects.count(), PendingImport.objects.count()


@pytest.fixture
def doc(source: Tournament) -> dict[str, Any]:  # noqa: F811
    return json.loads(archive.dumps(archive.export_tournament(source)))


@pytest.fixture
def api(people: dict[str, User]) -> APIClient:  # noqa: F811
    return token_client(people["importer"])


def imported(api: APIClient, doc: Any, query: str = "") -> Any:
    review = raw_post(api, doc, IMPORT + query)
    assert review.status_code == 200, review.json()
    return api.post(review.json()["confirm"])


def refused(answer: Any, code: str, field: str | None = None) -> dict[str, Any]:
    assert answer.status_code in (400, 409), answer.content[:500]
    errors = answer.json()["errors"]
    assert code in [e["code"] for e in errors], errors
    found = next(e for e in errors if e["code"] == code)
    if field is not None:
        assert found["field"] == field, found
    return found


# --- review before write ---------------------------------------------------------------------


def test_the_upload_writes_nothing_and_shows_who_each_player_is(api, doc, source) -> None:  # noqa: F811
    doc = foreign(doc)
    players = doc["players"]
    known = Player.objects.get(pk=players[0]["id"])
    Player.objects.filter(pk=known.pk).update(federation_id="RUS-1")
    players[0]["federation_id"] = "RUS-1"  # the same person, by federation ID
    Player.objects.create(last_name="Другой", federation_id="RUS-2")
    players[1]["federation_id"] = "RUS-2"  # his federation ID is someone else's here
    players[2].update(last_name="Новичков", first_name="Нил")  # nobody here
    before = Tournament.objects.count(), Player.objects.count()
    review = raw_post(api, doc)
    assert review.status_code == 200, review.json()
    assert (Tournament.objects.count(), Player.objects.count()) == before
    status = {p["id"]: p["status"] for p in review.json()["players"]}
    assert status[players[0]["id"]] == "federation_id"
    assert status[players[1]["id"]] == "conflict"
    assert status[players[2]["id"]] == "new"
    assert status[players[3]["id"]] == "name_club"  # same name and club as the player here
    created = api.post(review.json()["confirm"])
    assert created.status_code == 201
    copy_ = Tournament.objects.get(pk=created.json()["id"])
    members = set(Player.objects.filter(entries__tournament=copy_).values_list("pk", flat=True))
    assert known.pk in members and players[3]["id"] in members  # linked, not duplicated
    new = Player.objects.filter(imported_in=copy_)
    assert set(new.values_list("last_name", flat=True)) == {"Новичков", known.last_name} - {
        known.last_name} | {players[1]["last_name"]}
    assert not new.filter(federation_id="RUS-2").exists()  # the conflict does not take his ID
    assert api.post(review.json()["confirm"]).status_code == 404  # confirmed once


# --- re-import ---------------------------------------------------------------------------------


def test_this_sites_own_archive_is_refused_with_a_link(api, doc, source, people) -> None:  # noqa: F811
    before = written()
    answer = raw_post(token_client(people["organiser"]), doc)
    error = refused(answer, "already_imported")
    assert answer.status_code == 409 and error["url"] == f"/manage/{source.pk}/"
    # another organiser is refused as well, without the private copy's name
    Tournament.objects.filter(pk=source.pk).update(public=False)
    error = refused(raw_post(api, doc), "already_imported")
    assert source.name not in error["message"] and written() == before


def test_the_same_archive_is_imported_once(api, doc) -> None:
    doc = foreign(doc)
    assert imported(api, doc).status_code == 201
    before = written()
    refused(raw_post(api, doc), "already_imported")
    # the same archive spaced otherwise, and its export from the copy: still the same
    spaced = json.dumps(doc, indent=3).encode()
    refused(api.post(IMPORT, spaced, content_type="application/json"), "already_imported")
    copy_ = Tournament.objects.latest("pk")
    again = archive.export_tournament(copy_)
    refused(raw_post(api, again), "already_imported")
    assert written() == before


def test_two_confirmations_of_one_archive_make_one_copy(api, doc) -> None:
    doc = foreign(doc)
    first = raw_post(api, doc).json()
    other = token_client(make_user("org2", ORGANISER))
    second = raw_post(other, doc).json()
    assert api.post(first["confirm"]).status_code == 201
    refused(other.post(second["confirm"]), "already_imported")
    assert Tournament.objects.filter(import_record__isnull=False).count() == 1


def test_only_the_copys_organisers_restore_over_it(api, doc, people) -> None:  # noqa: F811
    doc = foreign(doc)
    copy_id = imported(api, doc).json()["id"]
    intruder = token_client(make_user("intruder", ORGANISER))
    before = written()
    refused(raw_post(intruder, doc, f"{IMPORT}?replaces={copy_id}"), "replaces")
    Tournament.objects.filter(pk=copy_id).update(public=True)
    assert raw_post(intruder, doc, f"{IMPORT}?replaces={copy_id}").status_code == 403
    assert written() == before
    restored = imported(api, doc, f"?replaces={copy_id}")
    assert restored.status_code == 201
    assert not Tournament.objects.filter(pk=copy_id).exists()
    assert Tournament.objects.count() == before[0]


def test_another_organisers_review_cannot_be_confirmed(api, doc) -> None:
    review = raw_post(api, foreign(doc)).json()
    intruder = make_user("intruder", ORGANISER)
    before = written()
    assert token_client(intruder).post(review["confirm"]).status_code == 404
    page = Client()
    page.force_login(intruder)
    assert page.post(f"/manage/import/{review['token']}/").status_code == 404
    assert written() == before


# --- private and unrated ------------------------------------------------------------------------


def test_an_import_arrives_private_and_unrated_and_moves_no_rating(api, doc, people) -> None:  # noqa: F811
    doc = foreign(doc)
    doc["tournament"].update(public=True, rated=True)
    ratings_before = list(PlayerRating.objects.values_list("player_id", "mu", "sigma"))
    copy_ = Tournament.objects.get(pk=imported(api, doc).json()["id"])
    assert (copy_.public, copy_.rated) == (False, False)
    # the importer publishes it; the API does not let him rate it
    answer = api.patch(f"/api/v1/tournaments/{copy_.pk}/", {"public": True, "rated": True},
                       format="json")  # fmt: skip
    assert answer.status_code == 200
    copy_.refresh_from_db()
    assert (copy_.public, copy_.rated) == (True, False)
    from tournaments import ratings

    ratings.recompute()
    assert not RatingChange.objects.filter(tournament=copy_).exists()
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma")) == sorted(
        ratings_before) or not ratings_before
    # a site administrator marks it rated (admin action); then it counts
    admin = User.objects.create_superuser("root", password="x")
    site = Client()
    site.force_login(admin)
    answer = site.post("/admin/tournaments/tournament/",
                       {"action": "mark_rated", "_selected_action": [copy_.pk]})  # fmt: skip
    assert answer.status_code == 302
    copy_.refresh_from_db()
    assert copy_.rated


# --- validation as the API ----------------------------------------------------------------------


def test_one_player_twice_at_a_table_or_in_a_round_is_refused(api, doc) -> None:
    doc = foreign(doc)
    before = written()
    bad = copy.deepcopy(doc)
    bad["pairings"][0]["seat_e"] = bad["pairings"][0]["seat_n"]
    refused(raw_post(api, bad), "duplicate_player", "pairings[0].seats")
    bad = copy.deepcopy(doc)
    bad["matches"][0]["seat_w"] = bad["matches"][0]["seat_s"]
    refused(raw_post(api, bad), "duplicate_player", "matches[0].seats")
    bad = copy.deepcopy(doc)  # round 1, the same player at tables 1 and 2
    bad["pairings"][1]["seat_n"] = bad["pairings"][0]["seat_n"]
    refused(raw_post(api, bad), "seat_taken", "pairings[1].seats")
    bad = copy.deepcopy(doc)  # through a substitute: a player of another entry
    one, two = bad["entries"][0], bad["entries"][1]
    bad["substitutes"] = [{"id": 1, "entry": one["id"], "replaced": one["players"][0],
                           "player": two["players"][0], "from_round": 2, "to_round": None,
                           "reason": "", "created_by": None,
                           "created_at": "2026-01-01T10:00:00+00:00"}]  # fmt: skip
    error = refused(raw_post(api, bad), "player", "substitutes[0].player")
    assert "запасной" in error["message"]  # the substitutes API's own (ru) words
    bad = copy.deepcopy(doc)  # one player in two entries
    bad["entries"][1]["players"][0] = bad["entries"][0]["players"][0]
    refused(raw_post(api, bad), "player_taken", "entries[1].players")
    assert written() == before


def test_a_team_must_be_a_team_of_the_archive(api, doc) -> None:
    doc = foreign(doc)
    before = written()
    bad = copy.deepcopy(doc)
    bad["entries"][0]["team"] = bad["entries"][0]["id"]
    error = refused(raw_post(api, bad), "bad_team", "entries[0].team")
    assert error["message"] == "В этом турнире нет такой команды."
    bad = copy.deepcopy(doc)  # a pair of a team is no team
    bad["entries"][2]["team"] = bad["entries"][3]["id"]
    bad["entries"][1]["team"] = bad["entries"][2]["id"]
    refused(raw_post(api, bad), "bad_team", "entries[1].team")
    assert written() == before


@pytest.mark.parametrize("date", ["2026-02-30", "0000-01-01"])
def test_an_impossible_date_is_the_apis_error_not_a_500(api, doc, date: str) -> None:
    bad = foreign(doc)
    bad["tournament"]["start_date"] = date
    before = written()
    error = refused(raw_post(api, bad), "bad_value", "tournament.start_date")
    same = api.post("/api/v1/tournaments/", {"name": "X", "start_date": date}, format="json")
    assert same.status_code == 400
    assert error["message"] == same.json()["errors"][0]["message"]
    assert written() == before


def test_knob_bounds_are_the_apis(api, doc) -> None:
    bad = foreign(doc)
    bad["tournament"]["bye_percent"] = 201
    error = refused(raw_post(api, bad), "bad_value", "tournament.bye_percent")
    same = api.post("/api/v1/tournaments/", {"name": "X", "bye_percent": 201}, format="json")
    assert same.status_code == 400 and error["message"] in same.content.decode()


def test_a_huge_archive_is_refused_by_its_counts_before_anything(api, doc) -> None:
    bad = foreign(doc)
    bad["players"] = [{"id": i, "last_name": "X" * 60, "first_name": "", "club": None,
                       "rating": None, "federation_id": ""} for i in range(200_000)]  # fmt: skip
    body = json.dumps(bad)
    assert len(body) > 20 * 2**20  # far beyond the general 1 MiB of a JSON body
    before = written()
    started = time.perf_counter()
    error = refused(api.post(IMPORT, body, content_type="application/json"), "too_many",
                    "players")  # fmt: skip
    assert "5000" in error["message"].replace("\u00a0", "").replace(" ", "")
    assert time.perf_counter() - started < 30 and written() == before


def test_a_json_body_over_one_mib_is_read_as_documented(api, doc) -> None:
    """The documented 64 MiB (docs/security.md, ARCHIVE_MAX_BYTES) holds for a JSON body as
    for a file: a 2 MiB body is read, not refused 413."""
    big = foreign(doc)
    big["tournament"]["venue"] = ""
    big["padding"] = "x" * (2 * 2**20)  # an unknown key: ignored
    answer = raw_post(api, big)
    assert answer.status_code == 200, answer.content[:300]


# --- the registry -------------------------------------------------------------------------------


def test_an_imports_players_are_offered_only_to_its_organisers(api, doc, people) -> None:  # noqa: F811
    doc = foreign(doc)
    doc["players"][0].update(last_name="Импортов", first_name="Иван")
    copy_id = imported(api, doc).json()["id"]
    new = Player.objects.get(last_name="Импортов")
    assert new.imported_in_id == copy_id and not new.in_registry
    listed = {p["id"] for p in api.get("/api/v1/players/?page_size=500").json()["results"]}
    assert new.pk in listed
    other = token_client(make_user("org2", ORGANISER))
    listed = {p["id"] for p in other.get("/api/v1/players/?page_size=500").json()["results"]}
    assert new.pk not in listed
    assert other.get(f"/api/v1/players/{new.pk}/").status_code == 404
    assert not Player.objects.offered_to(User.objects.get(username="org2")).filter(
        pk=new.pk).exists()  # fmt: skip
    assert Player.objects.offered_to(people["importer"]).filter(pk=new.pk).exists()


def test_the_page_restores_over_a_copy_only_for_its_organisers(api, doc, people) -> None:  # noqa: F811
    from django.core.files.uploadedfile import SimpleUploadedFile

    doc = foreign(doc)
    copy_id = imported(api, doc).json()["id"]
    body = json.dumps(doc).encode()
    page = Client()
    page.force_login(people["importer"])
    again = page.post("/manage/import/", {"file": SimpleUploadedFile("a.json", body)})
    assert again.status_code == 409 and f"?replaces={copy_id}" in again.content.decode()
    intruder = Client()
    intruder.force_login(make_user("intruder", ORGANISER))
    before = written()
    answer = intruder.post("/manage/import/", {"file": SimpleUploadedFile("a.json", body),
                                               "replaces": copy_id})  # fmt: skip
    assert answer.status_code == 400 and written() == before
    review = page.post("/manage/import/", {"file": SimpleUploadedFile("a.json", body),
                                           "replaces": copy_id})  # fmt: skip
    assert review.status_code == 200 and 'id="archive-replaces"' in review.content.decode()
    token = PendingImport.objects.get(user=people["importer"]).token
    done = page.post(f"/manage/import/{token}/")
    assert done.status_code == 302 and not Tournament.objects.filter(pk=copy_id).exists()


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_on_postgresql_make_one_copy(require_postgres, doc) -> None:
    """Two organisers confirm the same archive in the same instant: the database's unique
    index lets one copy through and the other is refused with the link (not a 500)."""
    import threading

    from django.db import connection

    doc = foreign(doc)
    clients = [token_client(make_user(f"racer{i}", ORGANISER)) for i in range(2)]
    confirms = [raw_post(c, doc).json()["confirm"] for c in clients]
    barrier, answers = threading.Barrier(2), []

    def confirm(client: APIClient, url: str) -> None:
        try:
            barrier.wait()
            answers.append(client.post(url).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=pair)
               for pair in zip(clients, confirms, strict=True)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 409]
    assert Tournament.objects.filter(import_record__isnull=False).count() == 1
