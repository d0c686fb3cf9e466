"""A federation's rating list: read, previewed without writing, applied as previewed, by a
site administrator only."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.models import AuditEntry
from tournaments.models import Entry, Player, Tournament
from tournaments.registry import rating_list

pytestmark = pytest.mark.django_db

LIST = (
    "\ufefffederation_id;name;rating\n"
    "RU-1;Иванов Пётр;1710\n"       # matched: 1700 → 1710
    "RU-2;Петрова, Анна;1500\n"     # matched, unchanged
    "RU-3;Сидоров Иван;1600\n"      # the registry's RU-3 is someone else: conflict
    "RU-4;Новиков Олег;1400\n"      # not in the registry
    "RU-5;Козлов Ян;1300\n"         # twice with two ratings: conflict
    "RU-5;Козлов Ян;1350\n"
    ";Безномерный;1200\n"           # refused: no id
    "RU-6;Плохов;много\n"           # refused: not a number
)


def test_read_takes_either_separator_a_bom_and_both_name_forms() -> None:
    rows, problems = rating_list.read(LIST)
    assert [(r.federation_id, r.last_name, r.first_name, r.rating) for r in rows[:2]] == [
        ("RU-1", "Иванов", "Пётр", 1710), ("RU-2", "Петрова", "Анна", 1500)]
    assert [re.findall(r"\d+", p)[0] for p in problems] == ["8", "9"]
    commas, _ = rating_list.read("federation_id,name,rating\nRU-1,\"Иванов, Пётр\",1700\n")
    assert (commas[0].last_name, commas[0].first_name) == ("Иванов", "Пётр")
    assert rating_list.same_name("Ёлкин  Пётр", "елкин пётр")


@pytest.fixture
def registry(tournament: Tournament) -> dict[str, Player]:
    made = {
        "RU-1": Player.objects.create(last_name="Иванов", first_name="Пётр", rating=1700,
                                      federation_id="RU-1"),
        "RU-2": Player.objects.create(last_name="Петрова", first_name="Анна", rating=1500,
                                      federation_id="RU-2"),
        "RU-3": Player.objects.create(last_name="Другой", first_name="Человек", rating=1000,
                                      federation_id="RU-3"),
    }  # fmt: skip
    Entry.objects.create(tournament=tournament, name="Пара").players.add(made["RU-1"])
    return made


def preview(client, create: bool = False):  # type: ignore[no-untyped-def]
    data = {"action": "preview", "file": SimpleUploadedFile("list.csv", LIST.encode())}
    if create:
        data["create"] = "on"
    return client.post("/registry/ratings/import/", data, HTTP_ACCEPT_LANGUAGE="ru")


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None
    return found.group(1)


def test_the_preview_writes_nothing_and_the_apply_writes_what_it_showed(
    client, registry: dict[str, Player], tournament: Tournament
) -> None:
    admin = User.objects.create_superuser("federation", password="s3cret-pass")
    client.force_login(admin)
    answer = preview(client, create=True)
    page = answer.content.decode()
    assert answer.status_code == 200
    counts = dict(re.findall(r'data-count="(\w+)">(\d+)<', page))
    assert counts == {"changes": "1", "unchanged": "1", "conflicts": "3", "new": "1",
                      "problems": "2"}
    assert "Строка 9" in page and "Другой Человек" in page
    assert Player.objects.get(federation_id="RU-1").rating == 1700
    assert not Player.objects.filter(federation_id="RU-4").exists()

    answer = client.post("/registry/ratings/import/", {
        "action": "apply", "signed": hidden(page, "signed"), "digest": hidden(page, "digest")})
    assert answer.status_code == 302
    assert Player.objects.get(federation_id="RU-1").rating == 1710
    assert Player.objects.get(federation_id="RU-3").rating == 1000  # a conflict is not applied
    assert Player.objects.get(federation_id="RU-4").rating == 1400
    assert not Player.objects.filter(federation_id="RU-5").exists()
    # each change in the log of the tournament that uses the player, and the import's sum
    change = AuditEntry.objects.get(action="player.update", tournament_id=tournament.pk)
    assert (change.before, change.after) == ({"rating": 1700}, {"rating": 1710})
    assert AuditEntry.objects.get(action="registry.rating_import").after == {
        "changed": 1, "unchanged": 1, "conflicts": 3, "accepted": 0, "created": 1}


def test_a_registry_changed_since_the_preview_or_a_forged_list_is_refused(
    client, registry: dict[str, Player]
) -> None:
    admin = User.objects.create_superuser("federation", password="s3cret-pass")
    client.force_login(admin)
    page = preview(client).content.decode()
    Player.objects.filter(federation_id="RU-1").update(rating=1650)  # someone else meanwhile
    answer = client.post("/registry/ratings/import/", {
        "action": "apply", "signed": hidden(page, "signed"), "digest": hidden(page, "digest")},
        HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 409 and "изменился после предпросмотра" in answer.content.decode()
    assert Player.objects.get(federation_id="RU-1").rating == 1650
    # a list changed in the browser does not pass its signature
    forged = hidden(page, "signed")[:-3] + "AAA"
    client.post("/registry/ratings/import/",
                {"action": "apply", "signed": forged, "digest": hidden(page, "digest")})
    assert Player.objects.get(federation_id="RU-1").rating == 1650


def test_an_organiser_cannot_import_a_rating_list(
    client, organiser: User, registry: dict[str, Player]
) -> None:
    client.force_login(organiser)
    assert client.get("/registry/ratings/import/").status_code == 403
    assert preview(client).status_code == 403
    assert Player.objects.get(federation_id="RU-1").rating == 1700


def test_the_service_itself_refuses_anyone_but_a_site_administrator(
    organiser: User, registry: dict[str, Player]
) -> None:
    """Not only the page: a future API or command calling ``apply`` is refused too."""
    from tournaments.errors import NotAllowed

    rows, _problems = rating_list.read(LIST)
    digest = rating_list.plan(rows, False).digest()
    with pytest.raises(NotAllowed):
        rating_list.apply(organiser, rows, False, digest)
    assert Player.objects.get(federation_id="RU-1").rating == 1700
