"""Who belongs to a category, and the club classification: plain data (no Django, no database).

    qualifies(person, rule) -> bool          a player meets every condition the category sets
    belongs(players, rule, entry) -> bool    an entry: all its players, any of them, or chosen
    club_table(lines, best) -> [ClubLine]    clubs by the score of their ``best`` entries

Age goes by year of birth, as the federations count it for veterans and juniors: the age a
player reaches in the year of the category's cut-off date. A condition asks for a value the
player lacks (no year of birth, no rating, sex unknown): he does not qualify.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Person:
    sex: str = ""
    birth_year: int | None = None
    rating: int | None = None
    club: int | None = None


@dataclass(frozen=True)
class Rule:
    sex: str = ""
    age_min: int | None = None
    age_max: int | None = None
    year: int | None = None  # the cut-off's year (ages are counted in it)
    rating_min: int | None = None
    rating_max: int | None = None
    club: int | None = None
    members: str = "all"  # all, any, chosen
    chosen: frozenset[int] = frozenset()


def qualifies(person: Person, rule: Rule) -> bool:
    if rule.sex and person.sex != rule.sex:
        return False
    if rule.age_min is not None or rule.age_max is not None:
        if person.birth_year is None or rule.year is None:
            return False
        age = rule.year - person.birth_year
        if rule.age_min is not None and age < rule.age_min:
            return False
        if rule.age_max is not None and age > rule.age_max:
            return False
    if rule.rating_min is not None or rule.rating_max is not None:
        if person.rating is None:
            return False
        if rule.rating_min is not None and person.rating < rule.rating_min:
            return False
        if rule.rating_max is not None and person.rating > rule.rating_max:
            return False
    return rule.club is None or person.club == rule.club


def belongs(players: Sequence[Person], rule: Rule, entry: int) -> bool:
    """An entry with no players (a team without pairs) belongs only where chosen."""
    if rule.members == "chosen":
        return entry in rule.chosen
    if not players:
        return False
    if rule.members == "any":
        return any(qualifies(p, rule) for p in players)
    return all(qualifies(p, rule) for p in players)


@dataclass(frozen=True)
class ClubEntry:
    entry: int
    rank: int
    score: float
    club: str  # the club's name; entries without one are left out


@dataclass
class ClubLine:
    rank: int
    club: str
    score: float
    places: int  # the sum of the counted entries' ranks (less is better)
    entries: list[int] = field(default_factory=list)  # the counted ones, best first


def club_table(lines: Sequence[ClubEntry], best: int) -> list[ClubLine]:
    """Each club's ``best`` best placed entries, their scores summed; ties go to the smaller
    sum of places, then the name. A club with fewer entries counts those it has."""
    by_club: dict[str, list[ClubEntry]] = {}
    for line in sorted(lines, key=lambda e: (e.rank, e.entry)):
        if line.club:
            by_club.setdefault(line.club, []).append(line)
    rows = []
    for club, entries in by_club.items():
        counted = entries[: max(best, 1)]
        rows.append(ClubLine(0, club, sum(e.score for e in counted),
                             sum(e.rank for e in counted), [e.entry for e in counted]))
    rows.sort(key=lambda r: (-r.score, r.places, r.club))
    for index, row in enumerate(rows):
        previous = rows[index - 1] if index else None
        same = previous is not None and (previous.score, previous.places) == (row.score, row.places)
        row.rank = previous.rank if same and previous is not None else index + 1
    return rows
