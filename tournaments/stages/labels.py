"""What a knock-out round's tables are, in words, for the round pages and the round's paper.

    table_labels(round_) -> {pairing id: "Quarter-finals, game 2"}     empty outside a knock-out

A table of a knock-out round is one game of a tie; its level is named as the bracket page names
it («1/4 финала», «Полуфинал», «Финал», «Матч за 3-е место») and, in a best of three, which game
of the tie it is. Read from the bracket of every round paired so far (its games in order), so
a game played again after a draw counts as the next game.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Pairing, Round, Stage
from tournaments.stages import bracket as brackets


def table_labels(round_: Round) -> dict[int, str]:
    if round_.stage_id is None:
        return {}
    stage = Stage.objects.filter(pk=round_.stage_id, kind=Stage.Kind.KNOCKOUT).first()
    if stage is None:
        return {}
    # every round paired so far, the unpublished one too: the organiser's page shows it
    statuses = [s for s, _label in Round.Status.choices]
    br = brackets.load(stage, statuses=statuses, before=round_.number + 1)
    ties = [tie for level in br.levels for tie in level]
    if br.third is not None:
        ties.append(br.third)
    words: dict[frozenset[int], str] = {}
    for tie in ties:
        name = _("A match for third place") if tie.third_place else brackets.level_name(
            br, tie.level)
        for number, game in enumerate(tie.games, start=1):
            if game.round == round_.number:
                words[frozenset((game.a, game.b))] = name if br.best_of == 1 else _(
                    "%(level)s, game %(n)s") % {"level": name, "n": number}
    labels = {}
    for pairing in Pairing.objects.filter(round=round_, table__isnull=False).prefetch_related(
            "places"):  # fmt: skip
        sides = frozenset(place.entry_id for place in pairing.places.all())
        if sides in words:
            labels[pairing.pk] = words[sides]
    return labels
