"""The club games of issue 26 are judged by ``python -m rules check`` but the score sheet cannot
record them yet (issue 27): creating a match with one is refused on the preset, clearly."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.errors import ScoringError
from scoring.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", ["dvorovoe", "kozel_morskoy", "osel", "chechevo",
                                    "semerka", "general"])
def test_a_club_game_is_not_offered_by_the_score_sheet(chief, preset: str) -> None:
    with pytest.raises(ScoringError) as caught:
        services.create_match(user=chief, rules_preset=preset)
    assert caught.value.codes == ["bad_option"]
    assert caught.value.errors[0]["field"] == "rules_preset"
    assert not Match.objects.exists()
