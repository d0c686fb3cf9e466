"""``manage.py export_tournament <id> [-o file]``: the tournament's archive as JSON (stdout by
default). See docs/archive.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's archive (JSON) to a file or to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(pk=options["tournament_id"])
        except Tournament.DoesNotExist as err:
            raise CommandError(f"No tournament {options['tournament_id']}.") from err
        text = archive.dumps(archive.export_tournament(tournament))
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"Tournament {tournament.pk} written to {options['output']}.")
        else:
            self.stdout.write(text)
