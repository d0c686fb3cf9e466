"""What a knock-out round and its tables are, in words, for the round pages, the printed table
list and the entries' own pages.

    round_words(round_) -> RoundWords       .heading "Knock-out: Semi-finals"; .tables
                                            {pairing id: "Semi-final, game 2"}; empty outside
                                            a knock-out
    table_labels(round_) -> {pairing id: label}
    label_tables(round_, tables) -> heading  sets ``knockout_label`` on each table

A table of a knock-out round is one game of a tie. It is named in the singular («1/4 финала»,
«Полуфинал», «Финал», «Матч за 3-е место») and, in a best of three, by which game of the tie it
is; the round's heading names its levels as the bracket page does («Полуфиналы»). Read from the
bracket of every round paired so far (its games in order), so a game played again after a draw
counts as the next game. A few queries whatever the round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Pairing, Round, Stage
from tournaments.pairing.knockout import Bracket
from tournaments.stages import bracket as brackets


@dataclass
class RoundWords:
    heading: str = ""
    tables: dict[int, str] = field(default_factory=dict)


def tie_name(br: Bracket, level: int) -> str:
    """One tie of the level, in the singular."""
    left = br.depth - level
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-final")
    if left == 2:
        return _("Quarter-final")
    return _("Round of 16")


def round_words(round_: Round) -> RoundWords:
    if round_.stage_id is None:
        return RoundWords()
    stage = Stage.objects.filter(pk=round_.stage_id, kind=Stage.Kind.KNOCKOUT).first()
    if stage is None:
        return RoundWords()
    # every round paired so far, the unpublished one too: the organiser's page shows it
    statuses = [s for s, _label in Round.Status.choices]
    br = brackets.load(stage, statuses=statuses, before=round_.number + 1)
    ties = [tie for level in br.levels for tie in level]
    if br.third is not None:
        ties.append(br.third)
    words: dict[frozenset[int], str] = {}
    levels: list[int] = []  # the levels played in this round; 0 the match for third place
    for tie in ties:
        name = _("Third-place match") if tie.third_place else tie_name(br, tie.level)
        for number, game in enumerate(tie.games, start=1):
            if game.round != round_.number:
                continue
            level = 0 if tie.third_place else tie.level
            if level not in levels:
                levels.append(level)
            words[frozenset((game.a, game.b))] = name if br.best_of == 1 else _(
                "%(level)s, game %(n)s") % {"level": name, "n": number}
    labels = {}
    for pairing in Pairing.objects.filter(round=round_, table__isnull=False).prefetch_related(
            "places"):  # fmt: skip
        sides = frozenset(place.entry_id for place in pairing.places.all())
        if sides in words:
            labels[pairing.pk] = words[sides]
    names = [brackets.level_name(br, level) for level in sorted(lv for lv in levels if lv)]
    if 0 in levels:
        names.append(_("Third-place match"))
    heading = _("Knock-out: %(levels)s") % {"levels": ", ".join(names)} if names else ""
    return RoundWords(heading, labels)


def table_labels(round_: Round) -> dict[int, str]:
    return round_words(round_).tables


def label_tables(round_: Round, tables: Iterable[Any]) -> str:
    """Set each table's ``knockout_label`` ("" outside a knock-out); the round's heading."""
    words = round_words(round_)
    for table in tables:
        table.knockout_label = words.tables.get(table.pk, "")
    return words.heading
