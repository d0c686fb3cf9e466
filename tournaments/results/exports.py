"""Standings and crosstables as files: CSV (UTF-8 with a BOM, so Excel reads Cyrillic) and XLSX.

    standings_sheet(results) -> Sheet      header + one row per line, numbers as numbers
    crosstable_sheet(crosstable) -> Sheet  header + rank, name, club, a cell per round, points
    to_csv(sheet) -> bytes / to_xlsx(sheet) -> bytes / response(sheet, fmt) -> HttpResponse

A sheet is plain data, built from what the pages show (``results.display`` and
``results.crosstable``), so a file and its page always agree. The XLSX has a bold, frozen header
row.

No text becomes a formula (OWASP "CSV injection"): a spreadsheet runs a cell that starts with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return (and their full-width forms), so a player
named ``=HYPERLINK(…)`` would be a live link in the organiser's Excel. In CSV such a cell gets a
leading ``'`` (shown as text, the rest unchanged); in XLSX every text cell is written as a string
(never a formula) and keeps its text exactly, less the control characters XLSX cannot hold.
Numbers stay numbers in both. ``defusedcsv`` does the CSV half, but it leaves a leading tab or
carriage return alone, so the rule is kept here, for both formats alike.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from tournaments.results.crosstable import Crosstable
from tournaments.results.display import Results, number

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@dataclass
class Sheet:
    title: str
    filename: str  # without the extension
    header: list[str]
    rows: list[list[Any]]


def _filename(results: Results, what: str) -> str:
    table = results.table
    base = (
        slugify(table.tournament.name, allow_unicode=False) or f"tournament-{table.tournament.pk}"
    )
    return f"{base}-{what}-{table.scope}-r{table.round_number}"


def standings_sheet(results: Results) -> Sheet:
    header = [_("Rank"), _("Name"), _("Players"), _("Club")] + [c.label for c in results.columns]
    rows = [
        [line.rank, line.name, ", ".join(line.players), line.club, *results.values(line)]
        for line in results.lines
    ]
    return Sheet(_("Standings"), _filename(results, "standings"), header, rows)


def crosstable_sheet(cross: Crosstable) -> Sheet:
    rounds = [_("R%(n)s") % {"n": n} for n in cross.rounds]
    header = [_("Rank"), _("Name"), _("Club"), *rounds, _("Match points")]
    rows = [
        [
            row.line.rank,
            row.line.name,
            row.line.club,
            *[cell.text if cell is not None else "" for cell in row.cells],
            number(row.line.row.get("match_points", 0)),
        ]
        for row in cross.rows
    ]
    return Sheet(_("Crosstable"), _filename(cross.results, "crosstable"), header, rows)


#: what makes a spreadsheet read a cell as a formula (ASCII and full-width forms)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: text that starts like a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(sheet: Sheet) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_cell(str(h)) for h in sheet.header])
    writer.writerows([csv_cell(value) for value in row] for row in sheet.rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def _xlsx_text(cell: Any, value: str) -> None:
    # openpyxl takes a str starting with "=" for a formula; set the text and say it is one
    cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell.data_type = "s"


def _xlsx_row(ws: Any, row: int, values: list[Any]) -> None:
    for column, value in enumerate(values, start=1):
        cell = ws.cell(row=row, column=column)
        if isinstance(value, str):
            _xlsx_text(cell, value)
        else:
            cell.value = value


def to_xlsx(sheet: Sheet) -> bytes:
    book = Workbook()
    ws = book.active
    ws.title = sheet.title[:31]
    _xlsx_row(ws, 1, [str(h) for h in sheet.header])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for index, row in enumerate(sheet.rows, start=2):
        _xlsx_row(ws, index, list(row))
    ws.freeze_panes = "A2"
    for index, title in enumerate(sheet.header, start=1):
        width = max([len(str(title))] + [len(str(r[index - 1])) for r in sheet.rows[:200]])
        ws.column_dimensions[ws.cell(row=1, column=index).column_letter].width = min(
            max(width + 2, 6), 50
        )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def response(sheet: Sheet, fmt: str) -> HttpResponse:
    body = to_xlsx(sheet) if fmt == "xlsx" else to_csv(sheet)
    answer = HttpResponse(body, content_type=FORMATS.get(fmt, FORMATS["csv"]))
    answer["Content-Disposition"] = f'attachment; filename="{sheet.filename}.{fmt}"'
    return answer
