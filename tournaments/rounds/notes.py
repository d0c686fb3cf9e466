"""The pairing's notes on a round, told to the organiser in the page's language with names.

The pure pairing writes notes for the log, in English with entry ids («Table 1: 45 already met
48», «Bye: 12 (rank 16, 0 earlier byes)»). The round page showed them as they were. Here:

- a table's note is dropped: the table's flags say the same in words beside it (``explain``);
- a bye's note is dropped: the byes are listed under their own heading;
- a team match («Team 3 v team 7: tables 1–4») and the pairs of a larger team sitting out are
  told with the teams' and pairs' names;
- an accelerated round (FIDE C.04.5.1) says how many entries of group A got how many virtual
  match points;
- the solver's notes (a field too large to prove the optimum) get a sentence;
- anything else is kept as written rather than hidden.

Reads the names of the entries the notes mention in one query.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.inputs import quoted
from tournaments.models import Entry

TOLD_ELSEWHERE = re.compile(r"^(Table \d+|Bye): ")
TEAM_MATCH = re.compile(r"^Team (\d+) v team (\d+): tables (\d+)–(\d+)$")
SIT_OUT = re.compile(r"^Team (\d+): pairs ([\d, ]+) sit out")
ACCELERATED = re.compile(r"^Accelerated \(Baku\): (\d+) entries of group A have ([\d.]+) virtual "
                         r"points$")
SOLVER = {
    "the pruned graphs could not prove the optimum":
        gettext_lazy("The field is large: the pairing is the best found, not proven the best "
                     "possible."),
    "the pruned partner graphs had no complete pairing":
        gettext_lazy("The field is large: the partners are the best found, not proven the best "
                     "possible."),
}  # fmt: skip


def _ids(notes: Iterable[str]) -> set[int]:
    found: set[int] = set()
    for note in notes:
        if match := TEAM_MATCH.match(note):
            found |= {int(match[1]), int(match[2])}
        elif match := SIT_OUT.match(note):
            found |= {int(match[1])} | {int(i) for i in match[2].split(",") if i.strip()}
    return found


def in_words(notes: Iterable[str]) -> list[str]:
    notes = [str(n) for n in notes]
    ids = _ids(notes)
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}

    def name(value: str) -> str:
        return quoted(names.get(int(value), value))

    said = []
    for note in notes:
        if TOLD_ELSEWHERE.match(note):
            continue
        if match := TEAM_MATCH.match(note):
            said.append(_("Team %(home)s against team %(away)s: tables %(first)s–%(last)s.")
                        % {"home": name(match[1]), "away": name(match[2]),
                           "first": match[3], "last": match[4]})  # fmt: skip
        elif match := SIT_OUT.match(note):
            pairs = ", ".join(name(i.strip()) for i in match[2].split(",") if i.strip())
            said.append(_("Team %(team)s: %(pairs)s do not play this round (the other team has "
                          "fewer pairs).") % {"team": name(match[1]), "pairs": pairs})
        elif match := ACCELERATED.match(note):
            said.append(_accelerated(int(match[1]), match[2]))
        elif note in SOLVER:
            said.append(str(SOLVER[note]))
        else:
            said.append(note)
    return said


def _accelerated(count: int, points: str) -> str:
    return ngettext(
        "Accelerated Swiss (Baku): %(count)s entry of group A was given %(points)s virtual match "
        "points for the pairing (not in the standings).",
        "Accelerated Swiss (Baku): %(count)s entries of group A were given %(points)s virtual "
        "match points each for the pairing (not in the standings).", count,
    ) % {"count": count, "points": number_format(Decimal(points))}  # fmt: skip
