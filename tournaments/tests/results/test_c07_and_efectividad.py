"""Issue 16 through the bridge: an opponent's last unplayed round counts as a draw whatever the
entry's status (C.07 art. 16), and the efectividad settings of the tournament, on events built
in the database and read back as the standings page reads them."""

from __future__ import annotations

import pytest

from tournaments import results
from tournaments.models import Tournament
from tournaments.tests.builders import play_round

pytestmark = pytest.mark.django_db


def buchholz(tournament: Tournament) -> dict[int, float]:
    return {line.participant: line.row["buchholz"] for line in results.live_table(tournament).lines}


def test_fides_example_an_active_entry_missing_the_last_round_shows_a_draw(tournament, pairs):
    # R1: 1 beats 2, 3 has the bye; R2: 1 and 3 draw, 2 has no table (it did not ask to be
    # absent and is not withdrawn)
    one, two, three = pairs(tournament, 3)
    play_round(tournament, 1, [(one, two, (120, 80))], byes=[three])
    play_round(tournament, 2, [(one, three, (100, 100))])
    assert results.load(tournament).cells[two.pk][2].kind == "absent"
    # FIDE's reference: 2 shows 0 + 1, 3 shows 2 + 1: Buchholz 4 (before issue 16: 3)
    assert buchholz(tournament)[one.pk] == 4


def efectividad(tournament: Tournament) -> dict[int, float]:
    return {line.participant: line.row["efectividad"]
            for line in results.live_table(tournament).lines}  # fmt: skip


def test_efectividad_capped_or_plain_as_the_tournament_says(tournament, pairs):
    tournament.rules_preset = "international"  # played to a target (FEMUNDO rules)
    tournament.save()
    target = tournament.rules.target
    one, two, three = pairs(tournament, 3)
    play_round(tournament, 1, [(one, two, (target + 25, 40))], byes=[three], end="target")
    capped = efectividad(tournament)
    assert capped[one.pk] == target - 40
    assert capped[three.pk] == target / 2
    tournament.efectividad = "plain"
    tournament.bye_percent = 100
    tournament.save()
    plain = efectividad(tournament)
    assert plain[one.pk] == target + 25 - 40
    assert plain[two.pk] == -(target + 25 - 40)
    assert plain[three.pk] == target
