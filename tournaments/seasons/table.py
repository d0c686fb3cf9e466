"""A season's table: players (or fixed pairs) ranked by points per tournament placing.

    season_table(season) -> SeasonTable          every public tournament of the season counted
    season_sheet(table) -> results.exports.Sheet the same rows for CSV and XLSX

A tournament's placing is its entry's rank in its final standings; a tournament still running
counts provisionally with the standings of its last finished round (``provisional``), and one
without a finished round not at all. A pair's or a team pair's place counts for each of
its players; with ``scope = pairs`` a fixed pair (the same two players, whatever the entry's name
in each event) is one line. A place scores ``season.scale[place - 1]``, 0 below the scale. With
``best_of`` N only the N best results count. Ties: more tournaments won (first places), then the
better best placing, then more tournaments played, then the name. Only public tournaments
count, so the page and the exports may show everything here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import Round, Season, Tournament
from tournaments.results import exports, table
from tournaments.results.tables import entry_players


@dataclass
class Result:
    tournament: Tournament
    place: int
    points: int
    counted: bool = True


@dataclass
class SeasonLine:
    key: tuple[int, ...]  # the player's id, or the pair's two ids
    name: str
    club: str
    results: list[Result] = field(default_factory=list)
    rank: int = 0

    @property
    def points(self) -> int:
        return sum(r.points for r in self.results if r.counted)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.place == 1)

    @property
    def best(self) -> int | None:
        return min((r.place for r in self.results), default=None)


@dataclass
class SeasonTable:
    season: Season
    tournaments: list[Tournament]
    lines: list[SeasonLine]
    provisional: set[int] = field(default_factory=set)  # tournaments still running

    def cell(self, line: SeasonLine, tournament: Tournament) -> Result | None:
        for result in line.results:
            if result.tournament.pk == tournament.pk:
                return result
        return None


def points_for(scale: list[int], place: int) -> int:
    return int(scale[place - 1]) if 1 <= place <= len(scale) else 0


def season_tournaments(season: Season) -> list[Tournament]:
    return list(season.tournaments.filter(public=True).order_by("start_date", "created_at", "pk"))


def season_table(season: Season) -> SeasonTable:
    tournaments = season_tournaments(season)
    scale = [int(p) for p in season.scale or []]
    lines: dict[tuple[int, ...], SeasonLine] = {}
    provisional: set[int] = set()
    counted: list[Tournament] = []
    for tournament in tournaments:
        finished = tournament.round_set.filter(status=Round.Status.FINISHED).aggregate(
            last=Max("number"))["last"]  # fmt: skip
        if finished is None:
            continue
        counted.append(tournament)
        if tournament.status != Tournament.Status.FINISHED:
            provisional.add(tournament.pk)
            standings = table(tournament, finished, scope="entries")
        else:
            standings = table(tournament, scope="entries")
        players = entry_players(tournament)
        for line in standings.lines:
            entry = players.get(line.participant, [])
            if not entry:
                continue
            keys = ([tuple(sorted(pk for pk, _n in entry))] if season.scope == Season.Scope.PAIRS
                    else [(pk,) for pk, _n in entry])  # fmt: skip
            for key in keys:
                name = line.name if len(key) > 1 else dict(entry)[key[0]]
                season_line = lines.setdefault(key, SeasonLine(key, name, line.club))
                season_line.name, season_line.club = name, line.club or season_line.club
                season_line.results.append(
                    Result(tournament, line.rank, points_for(scale, line.rank)))
    for season_line in lines.values():
        if season.best_of:
            ranked = sorted(season_line.results, key=lambda r: (-r.points, r.place))
            for result in ranked[season.best_of:]:
                result.counted = False
    ordered = sorted(lines.values(), key=lambda ln: (-ln.points, -ln.wins, ln.best or 10**6,
                                                     -len(ln.results), ln.name))  # fmt: skip
    for rank, season_line in enumerate(ordered, start=1):
        season_line.rank = rank
    return SeasonTable(season, counted, ordered, provisional)


def season_sheet(season_table_: SeasonTable) -> exports.Sheet:
    header = [_("Rank"), _("Name"), _("Club"), _("Points"), _("Wins"), _("Best place")]
    running = _("still running")
    header += [f"{t.name} ({running})" if t.pk in season_table_.provisional else t.name
               for t in season_table_.tournaments]  # fmt: skip
    rows = []
    for line in season_table_.lines:
        cells = []
        for tournament in season_table_.tournaments:
            result = season_table_.cell(line, tournament)
            mark = "" if result is None or result.counted else " *"
            cells.append("" if result is None else f"{result.place}: {result.points}{mark}")
        rows.append([line.rank, line.name, line.club, line.points, line.wins, line.best or "",
                     *cells])  # fmt: skip
    name = slugify(season_table_.season.name) or f"season-{season_table_.season.pk}"
    return exports.Sheet(_("Season"), f"{name}-season", header, rows)
