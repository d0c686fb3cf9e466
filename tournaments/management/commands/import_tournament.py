"""``manage.py import_tournament <file> [--user name] [--replaces ID] [--yes]``: a new tournament
from an archive, through the same review as the site's import page.

The review is printed first (``archive.review.prepare``): each archive player matched to a
registry player (by federation ID, or by name and club), new, or in conflict; an archive already
on the site is refused with the copy's id. Nothing is written until the importer confirms:
``--yes``, or answering «y» at a terminal. ``--replaces ID`` restores the archive over that
tournament (its organisers only). The user (default: the first active superuser) must be allowed
to create tournaments and becomes the only organiser; the tournament arrives private and unrated.
See docs/archive.md.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.inputs import quoted
from tournaments import archive
from tournaments.archive import review
from tournaments.archive.matching import CONFLICT, FEDERATION, NAME_CLUB, NEW
from tournaments.errors import TournamentError
from tournaments.models import Tournament

SAYS = {FEDERATION: "by federation ID", NAME_CLUB: "by name and club",
        CONFLICT: "conflict, created new", NEW: "new"}  # fmt: skip


class Command(BaseCommand):
    help = "Create a tournament from an archive file ('-' reads standard input), after a review."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--user", help="username of the importer (default: a superuser)")
        parser.add_argument("--replaces", type=int, metavar="ID",
                            help="restore the archive over this tournament (its organisers)")
        parser.add_argument("--yes", action="store_true",
                            help="import as reviewed, without asking")  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        user = self._user(options["user"])
        path = options["file"]
        try:
            content = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as err:
            raise CommandError(str(err)) from err
        replaces = None
        if options["replaces"] is not None:
            replaces = Tournament.objects.filter(pk=options["replaces"]).first()
            if replaces is None:
                raise CommandError(f"No tournament {options['replaces']}.")
        try:
            pending = review.prepare(archive.load_file(content), user, raw=content,
                                     replaces=replaces)  # fmt: skip
            self._show(pending.players, replaces)
            if not (options["yes"] or self._confirmed(path)):
                raise CommandError("Not imported: run again with --yes to import as reviewed.")
            tournament = review.confirm(pending.token, user)
        except TournamentError as err:
            lines = [f"{e['code']}: {e['message']}" + (f" [{e['field']}]" if e["field"] else "")
                     for e in err.errors]  # fmt: skip
            raise CommandError("The archive was refused:\n" + "\n".join(lines)) from err
        for note in tournament.archive_notes:
            self.stderr.write(note)
        self.stdout.write(f"{tournament.pk}")
        self.stderr.write(f"Imported as tournament {tournament.pk} {quoted(tournament.name)} "
                          "(private and unrated).")  # fmt: skip

    def _user(self, name: str | None) -> Any:
        users = get_user_model().objects.filter(is_active=True)
        if name:
            user = users.filter(username=name).first()
            if user is None:
                raise CommandError(f"No active user {name!r}.")
            return user
        user = users.filter(is_superuser=True).order_by("pk").first()
        if user is None:
            raise CommandError("No superuser: name the importing user with --user.")
        return user

    def _show(self, players: list[dict[str, Any]], replaces: Tournament | None) -> None:
        if replaces is not None:
            self.stderr.write(f"Restores over tournament {replaces.pk} {quoted(replaces.name)}.")
        found = review.counts(players)
        self.stderr.write(f"{len(players)} players: " + ", ".join(
            f"{found[key]} {SAYS[key]}" for key in (FEDERATION, NAME_CLUB, NEW, CONFLICT)))
        for p in players:
            if p["status"] != NEW:
                self.stderr.write(f"  {p['name']} ({p['club'] or 'no club'}): {SAYS[p['status']]}"
                                  + (f" → {p['player_name']}" if p["player_name"] else ""))

    def _confirmed(self, path: str) -> bool:
        if path == "-" or not sys.stdin.isatty():
            return False
        return input("Import? [y/N] ").strip().lower() in ("y", "yes", "д", "да")
