"""Category standings, the club classification and the prize list as ``exports.Sheet``s: the
rows the pages show, which ``results.exports`` writes as CSV or XLSX and ``results.pdf_export``
as a PDF (so a file and its page always agree)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.prizes.lists import CategoryTable, Final, PrizeLine, PrizeList
from tournaments.prizes.membership import ClubLine
from tournaments.results.exports import Sheet


def _base(tournament: Tournament) -> str:
    return slugify(tournament.name) or f"tournament-{tournament.pk}"


def money(value: Decimal | None) -> str:
    """A prize's value as the page prints it: no cents when there are none; "—" for none."""
    if value is None:
        return "—"
    places = 0 if value == value.to_integral_value() else 2
    return formats.number_format(value, places, use_l10n=True, force_grouping=True)


def category_sheet(tournament: Tournament, table: CategoryTable, final: Final) -> Sheet:
    results = final.results
    header = [_("Rank"), _("Overall place"), _("Name"), _("Players"), _("Club"),
              *[c.label for c in results.columns]]  # fmt: skip
    rows = [[rank, final.ranks[line.participant], line.name, ", ".join(line.players), line.club,
             *results.values(line)] for rank, line in table.rows]  # fmt: skip
    name = slugify(table.category.name) or f"category-{table.category.pk}"
    return Sheet(table.category.name[:31], f"{_base(tournament)}-{name}", header, rows)


def no_category_sheet(tournament: Tournament) -> Sheet:
    return Sheet(_("Categories"), f"{_base(tournament)}-categories",
                 [_("Rank"), _("Overall place"), _("Name"), _("Players"), _("Club")], [])


def clubs_sheet(tournament: Tournament, clubs: list[ClubLine], final: Final) -> Sheet:
    names = {line.participant: line.name for line in final.lines}
    header = [_("Rank"), _("Club"), _("Match points"), _("Sum of places"), _("Counted")]
    rows = [[c.rank, c.club, c.score if not float(c.score).is_integer() else int(c.score),
             c.places, ", ".join(names.get(e, "") for e in c.entries)] for c in clubs]
    return Sheet(_("Clubs"), f"{_base(tournament)}-clubs", header, rows)


def winner(line: PrizeLine) -> str:
    if line.line is None:
        return _("not awarded")
    return line.line.name


def prize_rows(prizes: PrizeList) -> list[list[object]]:
    rows: list[list[object]] = []
    for line in prizes.lines:
        listed = line.category or _("Overall")
        place = line.place if line.place is not None else _("shared")
        text = line.prize.text if line.prize is not None else ""
        players = ", ".join(line.line.players) if line.line is not None else ""
        rows.append([listed, place, winner(line), players,
                     line.final_rank if line.final_rank is not None else "",
                     money(line.amount), text])  # fmt: skip
    return rows


def prizes_sheet(tournament: Tournament, prizes: PrizeList) -> Sheet:
    header = [_("List"), _("Place"), _("Winner"), _("Players"), _("Overall place"), _("Amount"),
              _("Prize")]  # fmt: skip
    return Sheet(_("Prize list"), f"{_base(tournament)}-prizes", header, prize_rows(prizes))
