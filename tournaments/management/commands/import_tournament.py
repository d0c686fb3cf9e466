"""``manage.py import_tournament <file> [--user name]``: a new tournament from an archive.

The user (default: the first active superuser) must be allowed to create tournaments and becomes
the only organiser of the new one; the file's SHA-256 is kept with the tournament. See
docs/archive.md.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.inputs import quoted
from tournaments import archive
from tournaments.errors import TournamentError


class Command(BaseCommand):
    help = "Create a tournament from an archive file ('-' reads standard input)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--user", help="username of the importer (default: a superuser)")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects.filter(is_active=True)
        if options["user"]:
            user = users.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No active user {options['user']!r}.")
        else:
            user = users.filter(is_superuser=True).order_by("pk").first()
            if user is None:
                raise CommandError("No superuser: name the importing user with --user.")
        path = options["file"]
        try:
            content = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as err:
            raise CommandError(str(err)) from err
        try:
            tournament = archive.import_tournament(archive.load_file(content), user, raw=content)
        except TournamentError as err:
            lines = [f"{e['code']}: {e['message']}" + (f" [{e['field']}]" if e["field"] else "")
                     for e in err.errors]  # fmt: skip
            raise CommandError("The archive was refused:\n" + "\n".join(lines)) from err
        for note in tournament.archive_notes:
            self.stderr.write(note)
        self.stdout.write(f"{tournament.pk}")
        self.stderr.write(f"Imported as tournament {tournament.pk} {quoted(tournament.name)}.")
