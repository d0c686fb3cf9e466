"""Setup and registration services: who may change a tournament, entries, late entries,
withdrawals and absences, and what is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments import access, registration
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Entry, EntryAbsence, Round, Tournament
from tournaments.tests.conftest import make_user
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_an_organiser_creates_a_tournament_and_becomes_its_organiser(organiser) -> None:
    tournament = registration.create_tournament(
        organiser, name="Осенний кубок", rules_preset="international", rounds=6
    )
    assert list(tournament.organisers.all()) == [organiser]
    assert (tournament.points_win, tournament.points_draw, tournament.points_loss) == (2, 1, 0)
    assert tournament.tie_break_order() == ["wins", "efectividad", "points"]
    assert access.can_manage(organiser, tournament)


def test_sports_preset_defaults_to_match_points_difference_buchholz_head_to_head() -> None:
    tournament = Tournament(name="x", rules_preset="sport")
    assert tournament.tie_break_order() == [
        "match_points", "difference", "buchholz", "head_to_head"
    ]


def test_a_user_without_the_organiser_role_cannot_create_a_tournament(db) -> None:
    with pytest.raises(NotAllowed):
        registration.create_tournament(make_user("nobody"), name="x")


def test_bad_rules_and_unknown_tie_breaks_are_refused_with_the_field(organiser) -> None:
    with pytest.raises(TournamentError) as refused:
        registration.create_tournament(organiser, name="x", rules_preset="nonsense")
    assert refused.value.errors[0]["field"] == "rules_preset"
    with pytest.raises(TournamentError) as refused:
        registration.create_tournament(organiser, name="x", tie_breaks=["buchholz", "luck"])
    assert refused.value.errors[0]["field"] == "tie_breaks"
    assert "luck" in refused.value.errors[0]["message"]
    assert not Tournament.objects.exists()


def test_only_the_tournaments_organisers_may_change_it(tournament, other_organiser) -> None:
    with pytest.raises(NotAllowed):
        registration.update_tournament(other_organiser, tournament.pk, rounds=3)
    superuser = User.objects.create_superuser("root", password="x")
    assert registration.update_tournament(superuser, tournament.pk, rounds=3).rounds == 3


def test_format_cannot_change_once_a_round_is_paired(tournament, organiser) -> None:
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.PAIRED)
    with pytest.raises(Conflict):
        registration.update_tournament(organiser, tournament.pk, format="individual")
    assert registration.update_tournament(organiser, tournament.pk, points_win=3).points_win == 3


def test_add_edit_and_withdraw_an_entry(tournament, organiser) -> None:
    a, b = PlayerFactory(last_name="Иванов"), PlayerFactory(last_name="Петров")
    entry = registration.add_entry(organiser, tournament.pk, name=" Иванов — Петров ",
                                   players=[a, b])
    assert entry.name == "Иванов — Петров"
    assert not entry.late
    entry = registration.update_entry(organiser, entry.pk, seed=4, name="Дубль")
    assert (entry.seed, entry.name) == (4, "Дубль")
    assert registration.withdraw_entry(organiser, entry.pk).status == Entry.Status.WITHDRAWN
    assert registration.reinstate_entry(organiser, entry.pk).status == Entry.Status.ACTIVE


def test_a_pair_has_two_players_and_a_player_plays_in_one_entry(tournament, organiser) -> None:
    a, b, c = (PlayerFactory() for _ in range(3))
    with pytest.raises(TournamentError) as refused:
        registration.add_entry(organiser, tournament.pk, name="Один", players=[a])
    assert refused.value.codes == ["players_count"]
    registration.add_entry(organiser, tournament.pk, name="Первая", players=[a, b])
    with pytest.raises(TournamentError) as refused:
        registration.add_entry(organiser, tournament.pk, name="Вторая", players=[a, c])
    assert refused.value.codes == ["player_taken"]
    with pytest.raises(TournamentError) as refused:
        registration.add_entry(organiser, tournament.pk, name="Первая",
                               players=[c, PlayerFactory()])
    assert refused.value.codes[0] in {"duplicate", "invalid"}
    assert tournament.entries.count() == 1


def test_an_entry_added_after_round_one_is_paired_is_late(tournament, organiser) -> None:
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    Round.objects.create(tournament=tournament, number=2, status=Round.Status.NEW)
    entry = registration.add_entry(
        organiser, tournament.pk, name="Опоздавшие", players=[PlayerFactory(), PlayerFactory()]
    )
    assert entry.joins_round == 2
    assert entry.late


def test_absence_for_a_future_round_only(tournament, organiser, pairs) -> None:
    entry = pairs(tournament, 2)[0]
    registration.set_absence(organiser, entry.pk, 2, reason="свадьба")
    assert EntryAbsence.objects.get(entry=entry).round_number == 2
    registration.set_absence(organiser, entry.pk, 2, absent=False)
    assert not EntryAbsence.objects.exists()
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.PAIRED)
    with pytest.raises(Conflict):
        registration.set_absence(organiser, entry.pk, 1)
    with pytest.raises(TournamentError) as refused:
        registration.set_absence(organiser, entry.pk, 99)
    assert refused.value.codes == ["bad_round"]


def test_strangers_cannot_register_entries(tournament, other_organiser) -> None:
    with pytest.raises(NotAllowed):
        registration.add_entry(other_organiser, tournament.pk, name="x")
