"""A federation's rating list: what a file may not hold, the conflicts an administrator ticks,
the IDs outside the registry, and the limits of the two steps."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from accounts.models import AuditEntry
from tournaments.errors import TournamentError
from tournaments.models import Player, Tournament
from tournaments.registry import rating_list

URL = "/registry/ratings/import/"


def codes_of(data: str | bytes) -> list[str]:
    with pytest.raises(TournamentError) as err:
        rating_list.read(data)
    return err.value.codes


def test_a_list_without_its_header_columns_or_in_another_encoding_is_refused_whole() -> None:
    assert codes_of("") == ["no_header"]
    assert codes_of("id,name,rating\nRU-1,Иванов Пётр,1700\n") == ["no_column"]
    assert codes_of("federation_id;name;rating\nRU-1;Иванов;1700\n".encode("cp1251")) == [
        "not_utf8"]
    assert codes_of(b"x" * (rating_list.MAX_BYTES + 1)) == ["too_big"]


def test_a_list_longer_than_the_row_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rating_list, "MAX_ROWS", 2)
    text = "federation_id,name,rating\n" + "".join(f"RU-{n},Игрок{n},1500\n" for n in range(3))
    assert codes_of(text) == ["too_many"]


def test_bad_lines_are_refused_with_their_numbers_and_the_rest_is_read() -> None:
    rows, problems = rating_list.read(
        "Federation_ID , Name , Rating\n"   # the header's case and spaces do not matter
        "RU-1,Иванов Пётр,1700\n"
        "RU-2,Пет\u202eрова Анна,1500\n"    # a right-to-left override hides in the name
        f"{'R' * 51},Длинный Номер,1500\n"
        "RU-4,,1500\n"
        "RU-5,Высокий Рейтинг,4001\n"
        "RU-6,Дробный Рейтинг,1500.5\n"
        "\n"
        "RU-7,Последний Игрок\n"            # no rating column at all
    )  # fmt: skip
    assert [r.federation_id for r in rows] == ["RU-1"]
    assert [re.match(r"Строка (\d+)", p).group(1) for p in problems] == [  # type: ignore[union-attr]
        "3", "4", "5", "6", "7", "9"]
    assert "4001" in problems[3] and "1500.5" in problems[4]


@pytest.fixture
def admin(db: Any) -> User:
    return User.objects.create_superuser("federation", password="s3cret-pass")


def test_one_id_with_two_names_or_held_outside_the_registry_is_a_conflict(
    admin: User, tournament: Tournament
) -> None:
    Player.objects.create(last_name="Архивный", first_name="Игрок", federation_id="RU-9",
                          rating=1000, in_registry=False, imported_in=tournament)  # fmt: skip
    rows, _problems = rating_list.read(
        "federation_id,name,rating\n"
        "RU-8,Двойной Первый,1500\n"
        "RU-8,Двойной Второй,1500\n"
        "RU-9,Архивный Игрок,1600\n"
        "RU-10,Новый Игрок,1300\n"
        "RU-10,Новый Игрок,1300\n"          # the same line twice: one player
    )  # fmt: skip
    plan = rating_list.plan(rows, create=True)
    assert [(c.row.line, c.player) for c in plan.conflicts] == [(2, None), (3, None), (4, None)]
    assert "импорт архива" in plan.conflicts[2].why
    assert [r.federation_id for r in plan.new] == ["RU-10"]
    # applying creates the new one and leaves the archive's player alone: no duplicate id
    rating_list.apply(admin, rows, True, plan.digest())
    assert Player.objects.get(federation_id="RU-9").rating == 1000
    assert Player.objects.filter(federation_id="RU-10").count() == 1
    assert not Player.objects.filter(federation_id="RU-8").exists()


LIST = (
    "federation_id;name;rating\n"
    "RU-1;Иванов Петр;1710\n"        # «е» for «ё»: the same name
    "RU-3;Сидоров Иван;1600\n"       # the registry's RU-3 is «Сидоров Иоанн»: tickable
    "RU-5;Козлов Ян;1300\n"          # two ratings: never applied, ticked or not
    "RU-5;Козлов Ян;1350\n"
)


@pytest.fixture
def registry(db: Any) -> dict[str, Player]:
    return {fid: Player.objects.create(last_name=last, first_name=first, rating=rating,
                                       federation_id=fid)
            for fid, last, first, rating in [("RU-1", "Иванов", "Пётр", 1700),
                                             ("RU-3", "Сидоров", "Иоанн", 1000),
                                             ("RU-5", "Козлов", "Ян", 1200)]}  # fmt: skip


def preview(client: Any, text: str = LIST, **extra: Any) -> str:
    answer = client.post(URL, {"action": "preview", "text": text, **extra},
                         HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 200, answer.content.decode()
    return answer.content.decode()


def apply(client: Any, page: str, accept: list[str]) -> Any:
    fields = dict(re.findall(r'name="(signed|digest)" value="([^"]*)"', page))
    return client.post(URL, {"action": "apply", "accept": accept, **fields},
                       HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip


def test_a_ticked_conflict_is_applied_and_an_unticked_or_untickable_one_is_not(
    client: Any, admin: User, registry: dict[str, Player]
) -> None:
    client.force_login(admin)
    page = preview(client)
    assert "Конфликты" in page and "Сидоров Иоанн" in page
    assert re.findall(r'name="accept" value="(\d+)"', page) == ["3"]  # RU-5 has no box
    answer = apply(client, page, accept=["3", "4", "5"])  # 4 and 5 are RU-5's: ignored
    assert answer.status_code == 302
    assert {p.federation_id: p.rating for p in Player.objects.all()} == {
        "RU-1": 1710, "RU-3": 1600, "RU-5": 1200}
    assert AuditEntry.objects.get(action="registry.rating_import").after == {
        "changed": 2, "unchanged": 0, "conflicts": 2, "accepted": 1, "created": 0}
    answer = client.get(URL, HTTP_ACCEPT_LANGUAGE="ru")
    assert "1 из них — отмеченные конфликты" in answer.content.decode()


def test_a_conflict_renamed_after_the_preview_is_not_applied_on_the_old_tick(
    client: Any, admin: User, registry: dict[str, Player]
) -> None:
    client.force_login(admin)
    page = preview(client)
    registry["RU-3"].last_name = "Сидоренко"
    registry["RU-3"].save()
    answer = apply(client, page, accept=["3"])
    assert answer.status_code == 409 and "Сидоренко Иоанн" in answer.content.decode()
    assert Player.objects.get(federation_id="RU-3").rating == 1000
    assert Player.objects.get(federation_id="RU-1").rating == 1700


def test_an_upload_over_the_cap_is_refused_in_words(client: Any, admin: User) -> None:
    client.force_login(admin)
    big = b"federation_id,name,rating\n" + b"x" * rating_list.MAX_BYTES
    answer = client.post(URL, {"action": "preview", "file": SimpleUploadedFile("l.csv", big)},
                         HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 400 and "Список слишком велик" in answer.content.decode()


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=16 * 1024 + 3000)
def test_what_would_not_fit_the_form_is_refused_at_the_preview(
    client: Any, admin: User
) -> None:
    client.force_login(admin)
    head = "federation_id,name,rating\n"
    answer = client.post(URL, {"action": "preview", "text": head + "Ж" * 1200},
                         HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 400 and 'maxlength="1000"' in answer.content.decode()
    # a file is not a form field, but its list must still ride in the apply form
    rows = "".join(f"RU-{n * 7919 % 100003},Игрок{n} Имя{n * 31},{1000 + n % 997}\n"
                   for n in range(2000))  # fmt: skip
    answer = client.post(URL, {"action": "preview", "file": SimpleUploadedFile(
        "l.csv", (head + rows).encode())}, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 400 and "разбейте его на части" in answer.content.decode()
    assert not Player.objects.exists()


def test_the_ratings_page_links_the_import_for_a_site_administrator_only(
    client: Any, admin: User, organiser: User
) -> None:
    client.force_login(organiser)
    assert 'id="rating-import-link"' not in client.get("/ratings/").content.decode()
    client.force_login(admin)
    assert 'id="rating-import-link"' in client.get("/ratings/").content.decode()
