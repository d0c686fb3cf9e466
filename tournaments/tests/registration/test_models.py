import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tournaments.models import Entry, Tournament
from tournaments.tests.factories import EntryFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_new_tournament_defaults_to_sport_rules_and_registration() -> None:
    tournament = Tournament.objects.create(name="Кубок")
    assert tournament.rules_preset == "sport"
    assert tournament.rules_options == {}
    assert tournament.format == Tournament.Format.PAIRS
    assert tournament.system == Tournament.System.SWISS
    assert tournament.status == Tournament.Status.REGISTRATION
    assert tournament.public is False


def test_entry_names_are_unique_within_a_tournament_only() -> None:
    first = EntryFactory(name="Дубль")
    EntryFactory(name="Дубль")  # another tournament: fine
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=first.tournament, name="Дубль")


def test_seeds_are_unique_within_a_tournament_when_set() -> None:
    tournament = TournamentFactory()
    EntryFactory(tournament=tournament, seed=None)
    EntryFactory(tournament=tournament, seed=None)
    EntryFactory(tournament=tournament, seed=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryFactory(tournament=tournament, seed=1)


def test_a_tournament_has_at_least_one_round() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="Пусто", rounds=0)


def test_a_tournament_cannot_end_before_it_starts() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(
            name="Назад",
            start_date=datetime.date(2026, 5, 2),
            end_date=datetime.date(2026, 5, 1),
        )


def test_player_full_name_and_federation_id_uniqueness() -> None:
    player = PlayerFactory(last_name="Иванов", first_name="Пётр", federation_id="RU-1")
    assert str(player) == "Иванов Пётр"
    PlayerFactory(federation_id="")
    PlayerFactory(federation_id="")  # blank ids don't collide
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(federation_id="RU-1")


def test_rules_options_round_trip_as_json() -> None:
    tournament = TournamentFactory(rules_options={"target": 125, "fish": "carry"})
    tournament.refresh_from_db()
    assert tournament.rules_options == {"target": 125, "fish": "carry"}


def test_tournament_rules_come_from_the_engine_with_overrides() -> None:
    tournament = TournamentFactory(rules_preset="kozel", rules_options={"target": 51})
    rules = tournament.rules
    assert (rules.preset, rules.target, rules.end) == ("kozel", 51, "target_loses")


@pytest.mark.parametrize(
    ("preset", "options", "field", "words"),
    [
        ("sport", {"deals": 6}, "rules_options", "кратно 4"),
        ("sport", {"target": 0}, "rules_options", "target"),
        ("sport", {"colour": "red"}, "rules_options", "colour"),
        ("chess", {}, "rules_preset", "chess"),
    ],
)
def test_tournament_with_rules_the_engine_refuses_does_not_validate(
    preset: str, options: dict[str, object], field: str, words: str
) -> None:
    tournament = TournamentFactory.build(rules_preset=preset, rules_options=options)
    with pytest.raises(ValidationError) as raised:
        tournament.full_clean()
    assert field in raised.value.message_dict
    assert words in " ".join(raised.value.message_dict[field])


def test_the_model_refuses_a_foreign_team_in_every_form(organiser) -> None:
    """The admin's entry form (built on the model) refuses a team of another tournament."""
    event = Tournament.objects.create(name="Командный", format=Tournament.Format.TEAMS)
    other = Tournament.objects.create(name="Чужой", format=Tournament.Format.TEAMS)
    foreign = Entry.objects.create(tournament=other, name="Чужая команда")
    pair = Entry(tournament=event, name="Пара", team=foreign)
    with pytest.raises(ValidationError) as refused:
        pair.full_clean()
    assert "team" in refused.value.message_dict
