"""CSV import of players, clubs and pairs: a good file is imported whole, a bad one not at all,
with every bad line named by number and reason."""

from __future__ import annotations

import pytest

from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.registration import import_csv
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

GOOD = """\ufeffentry;last_name;first_name;club;city;rating;federation_id;seed
Дубль;Иванов;Пётр;Клуб «Дубль»;Москва;1620;RU-001;1
Дубль;Петров;Иван;Клуб «Дубль»;Москва;1580;RU-002;1
Рыба;Сидорова;Алёна;Рыбак;Тверь;;;2
Рыба;Кузнецов;Николай;Рыбак;Тверь;1510;;2
"""


def test_a_good_file_imports_clubs_players_and_pairs(tournament, organiser) -> None:
    result = import_csv(organiser, tournament.pk, GOOD.encode("utf-8"))
    assert (result.clubs, result.players, result.entries) == (2, 4, 2)
    # «entry» only groups the rows: the pair is named after its players
    dubl = Entry.objects.get(tournament=tournament, name="Иванов – Петров")
    assert dubl.seed == 1
    assert dubl.club.name == "Клуб «Дубль»"
    assert sorted(p.last_name for p in dubl.players.all()) == ["Иванов", "Петров"]
    assert Player.objects.get(federation_id="RU-001").rating == 1620
    assert Club.objects.get(name="Рыбак").city == "Тверь"


def test_known_players_are_reused_by_federation_id(tournament, organiser) -> None:
    PlayerFactory(last_name="Иванов", federation_id="RU-001")
    result = import_csv(organiser, tournament.pk, GOOD)
    assert result.players == 3
    assert Player.objects.filter(federation_id="RU-001").count() == 1


def test_a_bad_file_reports_every_bad_line_and_imports_nothing(tournament, organiser) -> None:
    bad = (
        "entry,last_name,first_name,rating,seed\n"
        "Дубль,Иванов,Пётр,сто,1\n"          # line 2: rating not a number
        "Дубль,,Иван,1500,1\n"               # line 3: no last name
        "Одиночка,Сидоров,Алексей,,2\n"      # line 4: a pair of one
        "Рыба,Кузнецов,Николай,1500,3,лишнее\n"  # line 5: too many values
    )
    with pytest.raises(TournamentError) as refused:
        import_csv(organiser, tournament.pk, bad.encode())
    lines = {(item["line"], item["code"]) for item in refused.value.errors}
    assert lines == {(2, "not_a_number"), (3, "required"), (4, "players_count"), (5, "columns")}
    assert refused.value.errors[0]["message"].startswith("Строка 2:")
    assert not Player.objects.exists() and not Entry.objects.exists()


def test_pair_sizes_names_and_seeds_are_checked_across_lines(tournament, organiser) -> None:
    Entry.objects.create(tournament=tournament, name="Занято", seed=7)
    bad = (
        "entry,name,last_name,seed\n"
        "Одиночка,,Сидоров,1\n"
        "2,Занято,Иванов,2\n"
        "2,,Петров,2\n"
        "Пара,,Смирнов,7\n"
        "Пара,,Попов,7\n"
        "4,Кто,Орлов,4\n"
        "4,Где,Соколов,4\n"
    )
    with pytest.raises(TournamentError) as refused:
        import_csv(organiser, tournament.pk, bad)
    found = {(item["line"], item["code"]) for item in refused.value.errors}
    assert found == {(2, "players_count"), (3, "taken"), (5, "seed_taken"), (8, "name_differs")}
    assert tournament.entries.count() == 1


def test_unknown_columns_and_non_utf8_files_are_refused(tournament, organiser) -> None:
    with pytest.raises(TournamentError) as refused:
        import_csv(organiser, tournament.pk, "фамилия,имя\nИванов,Пётр\n")
    assert {item["code"] for item in refused.value.errors} == {"unknown_column", "no_last_name"}
    with pytest.raises(TournamentError) as refused:
        import_csv(organiser, tournament.pk, "last_name\nИванов\n".encode("cp1251"))
    assert refused.value.codes == ["not_utf8"]
    assert refused.value.errors[0]["line"] == 2


def test_individual_entries_are_named_after_their_player(organiser) -> None:
    tournament = Tournament.objects.create(name="Личный", format="individual")
    tournament.organisers.add(organiser)
    result = import_csv(organiser, tournament.pk, "last_name,first_name\nИванов,Пётр\nПопов,Иван\n")
    assert result.entries == 2
    assert set(tournament.entries.values_list("name", flat=True)) == {"Иванов Пётр", "Попов Иван"}


def test_only_organisers_of_the_tournament_import(tournament, other_organiser) -> None:
    with pytest.raises(NotAllowed):
        import_csv(other_organiser, tournament.pk, GOOD)


def test_numbered_pairs_are_named_after_their_players_unless_named(tournament, organiser) -> None:
    """A club's file numbers its pairs «1»…«16»: the numbers group the rows, and the pages
    show the players (the pages showed «1»…«16»). Namesakes get initials, then a number."""
    text = (
        "entry;name;last_name;first_name;club\n"
        "1;;Иванов;Пётр;Металлург\n1;;Петров;Иван;Металлург\n"
        "2;;Иванов;Павел;Рыбак\n2;;Петров;Илья;Рыбак\n"
        "3;;Иванов;Пётр;Рыбак\n3;;Петров;Игорь;Рыбак\n"
        "4;Старая гвардия;Орлов;;\n4;;Соколов;;\n"
    )
    result = import_csv(organiser, tournament.pk, text)
    assert result.created == ["Иванов – Петров", "Иванов П. – Петров И.",
                              "Иванов П. – Петров И. (2)", "Старая гвардия"]  # fmt: skip
    first = Entry.objects.get(tournament=tournament, name="Иванов – Петров")
    assert first.club.name == "Металлург"
    assert [p.first_name for p in first.players.order_by("last_name")] == ["Пётр", "Иван"]
    assert not tournament.entries.filter(name__regex=r"^[0-9]+$").exists()


def test_a_pair_added_by_hand_without_a_name_is_named_after_its_players(tournament, organiser):
    from tournaments.registration import add_entry

    entry = add_entry(organiser, tournament.pk, name="",
                      new_players=[("Сидоров", "Олег"), ("Попов", "Юрий")])  # fmt: skip
    assert entry.name == "Сидоров – Попов"
