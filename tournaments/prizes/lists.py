"""The bridge from the database to the pure prize arithmetic: category standings, the club
classification and the prize list, as the pages and the exports show them.

    final_lines(tournament) -> Final                 the standings every list below is cut from
    category_table(tournament, category, final)      a category's entries ranked among themselves
    club_classification(tournament, final)           clubs by their best ``club_best`` entries
    prize_list(tournament, final) -> PrizeList       each prize with who wins it

The standings are the results pages' (``results.display``: the latest counted round, the
tournament's own table: pairs, players or teams); once a final stage is over its ranking comes
first (``stages.display``), the entries it placed never level on score with each other. Reads
only, in a handful of queries whatever the number of entries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from tournaments.models import Category, Entry, Prize, Tournament
from tournaments.prizes import allocation, membership
from tournaments.prizes.allocation import Place
from tournaments.results import display
from tournaments.results.tables import Line
from tournaments.stages import bracket as brackets
from tournaments.stages import display as stage_display


@dataclass
class Final:
    results: display.Results
    lines: list[Line]  # in the final order
    ranks: dict[int, int]  # entry -> its final rank
    places: list[Place]

    @property
    def live(self) -> bool:
        return self.results.table.source == "live"


def final_lines(tournament: Tournament) -> Final:
    results = display.results_table(tournament)
    lines = list(results.lines)
    ranks = {line.participant: line.rank for line in lines}
    scores = {line.participant: float(line.row.get("match_points", 0)) for line in lines}
    stage = brackets.final_stage(tournament)
    if stage is not None and stage.started:
        page = stage_display.bracket_page(tournament, stage)
        if page.finished and page.ranking:
            by_entry = {line.participant: line for line in lines}
            ordered = [by_entry[r.entry] for r in page.ranking if r.entry in by_entry]
            seen = {line.participant for line in ordered}
            lines = ordered + [line for line in lines if line.participant not in seen]
            ranks = {line.participant: n for n, line in enumerate(lines, 1)}
            # the final stage placed its entries one by one: no two of them share a place
            scores.update({e: 10.0**9 - ranks[e] for e in stage.seeds if e in ranks})
    places = [Place(line.participant, ranks[line.participant], scores[line.participant])
              for line in lines]  # fmt: skip
    return Final(results, lines, ranks, places)


def _year(tournament: Tournament, category: Category) -> int:
    when = category.age_on or tournament.start_date or date.today()
    return when.year


def rules_of(tournament: Tournament, categories: list[Category]) -> dict[int, membership.Rule]:
    chosen: dict[int, set[int]] = defaultdict(set)
    for category_id, entry_id in Category.entries.through.objects.filter(
            category__tournament=tournament).values_list("category_id", "entry_id"):
        chosen[category_id].add(entry_id)
    return {c.pk: membership.Rule(c.sex, c.age_min, c.age_max, _year(tournament, c),
                                  c.rating_min, c.rating_max, c.club_id, c.members,
                                  frozenset(chosen[c.pk])) for c in categories}  # fmt: skip


def people(tournament: Tournament) -> dict[int, list[membership.Person]]:
    """Each entry's players (a team: its pairs' players) as the categories ask about them."""
    out: dict[int, list[membership.Person]] = defaultdict(list)
    rows = Entry.players.through.objects.filter(entry__tournament=tournament).values_list(
        "entry_id", "entry__team_id", "entry__club_id", "player__sex", "player__birth_year",
        "player__rating", "player__club_id")  # fmt: skip
    for entry, team, entry_club, sex, year, rating, club in rows:
        person = membership.Person(sex, year, rating, club or entry_club)
        out[entry].append(person)
        if team is not None:
            out[team].append(person)
    return out


def members_of(tournament: Tournament, categories: list[Category],
               final: Final) -> dict[int, set[int]]:  # fmt: skip
    rules = rules_of(tournament, categories)
    players = people(tournament)
    return {c.pk: {p.entry for p in final.places
                   if membership.belongs(players.get(p.entry, []), rules[c.pk], p.entry)}
            for c in categories}  # fmt: skip


@dataclass
class CategoryTable:
    category: Category
    rows: list[tuple[int, Line]]  # (rank in the category, the overall line)


def category_table(tournament: Tournament, category: Category, final: Final) -> CategoryTable:
    members = members_of(tournament, [category], final)[category.pk]
    by_entry = {line.participant: line for line in final.lines}
    ranked = allocation.category_places(final.places, members)
    return CategoryTable(category, [(p.rank, by_entry[p.entry]) for p in ranked])


def club_classification(tournament: Tournament, final: Final) -> list[membership.ClubLine]:
    lines = [membership.ClubEntry(line.participant, final.ranks[line.participant],
                                  float(line.row.get("match_points", 0)), line.club)
             for line in final.lines]  # fmt: skip
    return membership.club_table(lines, tournament.club_best)


@dataclass
class PrizeLine:
    prize: Prize | None
    category: str  # "" for the overall list
    place: int | None
    line: Line | None  # who wins it (None: nobody left in its list)
    amount: Decimal | None  # None: not awarded
    shared: bool = False
    final_rank: int | None = None


@dataclass
class PrizeList:
    final: Final
    lines: list[PrizeLine] = field(default_factory=list)


def prize_list(tournament: Tournament, final: Final) -> PrizeList:
    categories = list(tournament.categories.all())
    prizes = list(Prize.objects.filter(tournament=tournament).select_related("category"))
    members = members_of(tournament, categories, final)
    lists = {c.pk: allocation.category_places(final.places, members[c.pk]) for c in categories}
    specs = {p.pk: allocation.PrizeSpec(p.pk, p.category_id, p.place, p.amount) for p in prizes}
    result = allocation.allocate(final.places, lists, list(specs.values()),
                                 tournament.prize_priority, tournament.prize_ties)  # fmt: skip
    by_entry = {line.participant: line for line in final.lines}
    of_prize = result.of_prize()
    out = PrizeList(final)
    for prize in sorted(prizes, key=lambda p: (p.category is not None,
                                               p.category.order if p.category else 0,
                                               p.category_id or 0, p.place)):  # fmt: skip
        award = of_prize.get(prize.pk)
        line = by_entry.get(award.entry) if award else None
        out.lines.append(PrizeLine(prize, prize.category.name if prize.category else "",
                                   prize.place, line, award.amount if award else None,
                                   bool(award and award.shared_with),
                                   final.ranks.get(award.entry) if award else None))  # fmt: skip
    # a share of a pool won without a prize of one's own: after the overall list's prizes
    shares = [PrizeLine(None, "", None, by_entry.get(a.entry), a.amount, True,
                        final.ranks.get(a.entry)) for a in result.awards if a.prize is None]
    overall = sum(1 for line in out.lines if not line.category)
    out.lines[overall:overall] = sorted(shares, key=lambda line: line.final_rank or 0)
    return out
