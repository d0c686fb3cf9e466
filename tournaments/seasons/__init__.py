"""Seasons: tournaments grouped into one table of a club's season.

Owns: ``table`` (players or fixed pairs ranked by points per placing, the best N results, the
tie-breaks; the same rows as a sheet for CSV and XLSX), the public pages (``views``) and the
read-only API (``api``). Seasons are set up in the administration (name, tournaments, scale,
best N).

May use: results (each tournament's standings and the export writers). Counts public
tournaments only, so its pages show nothing private. Must not: write anything.
"""

from tournaments.seasons.table import SeasonLine, SeasonTable, season_sheet, season_table

__all__ = ["SeasonLine", "SeasonTable", "season_sheet", "season_table"]
