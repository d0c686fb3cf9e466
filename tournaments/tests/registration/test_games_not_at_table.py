"""The club games of issue 26 are judged by the engine but have no score sheet yet (issue 27):
the tournament setup neither offers nor accepts them, and asks the one registry (rules.games)."""

from __future__ import annotations

import pytest

from tournaments import registration
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.registration import rules_form
from tournaments.registration.forms import TournamentForm

pytestmark = pytest.mark.django_db

CLUB_GAMES = ("dvorovoe", "kozel_morskoy", "osel", "chechevo", "semerka", "general")


def test_the_setup_form_offers_only_games_at_the_table() -> None:
    offered = [value for value, _ in TournamentForm().fields["rules_preset"].choices]
    assert offered == ["sport", "kozel", "morskoy", "international", "muggins", "fives"]
    assert rules_form.table_presets() == offered


@pytest.mark.parametrize("preset", CLUB_GAMES)
def test_a_club_game_is_refused_on_the_rules_preset_field(organiser, preset: str) -> None:
    with pytest.raises(TournamentError) as refused:
        registration.create_tournament(organiser, name="x", rules_preset=preset)
    assert refused.value.errors[0]["field"] == "rules_preset"
    assert not Tournament.objects.exists()
