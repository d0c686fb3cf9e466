"""A qualifying protocol corrected by the chief referee after the knock-out was seeded: the
stages page warns that the qualifying standings changed since the seeding, says entry by entry
what the standings would seed now and which protocols were corrected; the bracket keeps its
seeds (issue 30)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts import roles
from rules import Judge
from rules.simulate import play_match
from scoring import services as scoring
from scoring.models import Match
from tournaments import rounds
from tournaments.models import Round, Stage
from tournaments.stages.services import seeds_moved
from tournaments.tests.conftest import make_user
from tournaments.tests.stages.test_knockout_stage import sides

pytestmark = pytest.mark.django_db


def protocol_won_by(match: Match, side: str) -> list[dict[str, Any]]:
    """A legal protocol of the match's rules that ``side`` wins."""
    rules = match.get_rules()
    for seed in range(200):
        deals = play_match(rules, random.Random(seed))
        if Judge(rules).fold(deals).state.winner == side:
            return deals
    raise AssertionError(f"no simulated match won by {side}")


def test_the_stages_page_says_what_a_correction_changed_since_the_seeding(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_final_stage(organiser, swiss.pk)
    client.force_login(organiser)
    url = f"/manage/{swiss.pk}/stages/"
    assert 'id="seeds-moved"' not in client.get(url).content.decode()
    seeds = list(Stage.objects.get(tournament=swiss).seeds)
    names = dict(swiss.entries.values_list("pk", "name"))

    # the chief referee corrects round 6: the table of seeds 1 and 2 (by the bracket) and the
    # one of seed 8 go the other way (the correction's signal retakes the snapshots)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    swiss.chief_referees.add(chief)
    last = Round.objects.get(tournament=swiss, number=6)
    flipped = []
    for table in last.pairings.filter(table__isnull=False).select_related("match"):
        ns, ew = sides(table)
        if seeds[7] in (ns, ew) or seeds[0] in (ns, ew):
            loser = "EW" if table.match.winner == "NS" else "NS"
            scoring.correct(table.match_id, chief, protocol_won_by(table.match, loser),
                            "стороны перепутаны в протоколе")  # fmt: skip
            flipped.append(table.table)

    page = client.get(url).content.decode()
    assert 'id="seeds-moved"' in page and "Таблица квалификации изменилась после посева." in page
    start = page.index('id="seeds-moved"')
    warning = page[start:page.index("</div>", start)]
    # entry by entry: who moved and who would no longer qualify, or would now
    now = Stage.objects.get(tournament=swiss)
    assert now.seeds == seeds  # nothing re-seeded by itself
    order = seeds_moved(swiss, now)
    assert order is not None and order != seeds
    for seed, entry in enumerate(seeds, 1):
        if entry not in order:
            assert f"{names[entry]} — посев {seed} в сетке, но теперь не проходит" in warning
        elif order.index(entry) + 1 != seed:
            assert (f"{names[entry]}: посев {seed} в сетке, по таблице теперь "
                    f"{order.index(entry) + 1}.") in warning  # fmt: skip
    for seed, entry in enumerate(order, 1):
        if entry not in seeds:
            assert f"{names[entry]} теперь проходит в плей-офф, посев {seed}." in warning
    # the corrected protocols, with who and why
    for table in flipped:
        assert f"тур 6, стол {table}" in warning
    assert "«стороны перепутаны в протоколе»" in warning and "chief, " in warning
    # the overview points to it
    overview = client.get(f"/manage/{swiss.pk}/").content.decode()
    assert 'id="seeds-moved-note"' in overview and url in overview


def test_no_warning_while_the_final_stage_waits_or_the_standings_agree(
    swiss: Any, organiser: Any, client: Any
) -> None:
    client.force_login(organiser)
    page = client.get(f"/manage/{swiss.pk}/stages/").content.decode()
    assert 'id="seeds-moved"' not in page and 'id="stages-form"' in page
