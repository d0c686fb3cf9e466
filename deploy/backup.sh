#!/usr/bin/env bash
# A backup of the whole site: a PostgreSQL dump (pg_dump -Fc) with a timestamped name, optional
# JSON archives of tournaments (manage.py export_tournament), and deletion of backups older than
# BACKUP_KEEP_DAYS. Run by domino-backup.timer, or by hand. See docs/backups.md.
#
#   deploy/backup.sh            prints the dump's path on standard output; messages on stderr
#
# Environment (the values of /etc/domino/env, or of $DOMINO_ENV_FILE, fill in what is not set):
#   DATABASE_URL        the application's database, postgres://user:password@host:port/name
#   BACKUP_DIR          where backups go (default /var/backups/domino)
#   BACKUP_KEEP_DAYS    delete dumps and archives older than this many days (default 14; 0: keep all)
#   BACKUP_TOURNAMENTS  "" (default): no archives; "all": every tournament; or ids: "3 7 12"
#   APP_DIR             the application's checkout (default: this script's parent directory)
#   PYTHON              the application's Python (default: $APP_DIR/.venv/bin/python)
#
# Files: $BACKUP_DIR/domino-YYYYMMDDTHHMMSSZ.dump and, with BACKUP_TOURNAMENTS,
# $BACKUP_DIR/tournaments-YYYYMMDDTHHMMSSZ/tournament-<id>.json. A dump is written under a
# temporary name, checked with pg_restore --list, and only then renamed: a file named *.dump is
# always complete. Exit status 0 only if everything succeeded.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/common.sh
. "$here/common.sh"

load_env_file
: "${BACKUP_DIR:=/var/backups/domino}"
: "${BACKUP_KEEP_DAYS:=14}"
: "${BACKUP_TOURNAMENTS:=}"
[[ $BACKUP_KEEP_DAYS =~ ^[0-9]+$ ]] || die "BACKUP_KEEP_DAYS must be a whole number of days"
use_database_url

umask 077
mkdir -p "$BACKUP_DIR"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dump="$BACKUP_DIR/domino-$stamp.dump"
partial="$dump.partial"
trap 'rm -f "$partial"' EXIT

say "dumping database $PGDATABASE to $dump"
pg_dump --format=custom --compress=6 --file="$partial" "$PGDATABASE"
pg_restore --list "$partial" >/dev/null || die "the dump $partial is unreadable"
mv "$partial" "$dump"

if [[ -n $BACKUP_TOURNAMENTS ]]; then
  [[ $BACKUP_TOURNAMENTS == all || $BACKUP_TOURNAMENTS =~ ^[0-9\ ]+$ ]] \
    || die "BACKUP_TOURNAMENTS must be empty, 'all' or tournament ids separated by spaces"
  archives="$BACKUP_DIR/tournaments-$stamp"
  mkdir -p "$archives"
  # One process for all of them: manage.py export_tournament <id> -o <file> for each.
  BACKUP_TOURNAMENTS=$BACKUP_TOURNAMENTS BACKUP_ARCHIVES=$archives manage shell --verbosity=0 -c '
import io, os, sys
from django.core.management import call_command
from tournaments.models import Tournament
wanted, folder = os.environ["BACKUP_TOURNAMENTS"], os.environ["BACKUP_ARCHIVES"]
ids = (list(Tournament.objects.order_by("pk").values_list("pk", flat=True))
       if wanted == "all" else [int(x) for x in wanted.split()])
for pk in ids:
    out = os.path.join(folder, f"tournament-{pk}.json")
    call_command("export_tournament", pk, output=out, stderr=io.StringIO())
print(f"backup.sh: {len(ids)} tournament archive(s) in {folder}", file=sys.stderr)
' || die "could not export the tournaments ($BACKUP_TOURNAMENTS)"
fi

if ((BACKUP_KEEP_DAYS > 0)); then
  # -mmin: minutes, so that "14 days" means 14 x 24 hours, not find's rounded days.
  find "$BACKUP_DIR" -maxdepth 1 -mmin +$((BACKUP_KEEP_DAYS * 24 * 60)) \
    \( -name 'domino-*.dump' -o -name 'domino-*.dump.partial' -o -name 'tournaments-*' \) \
    -print -exec rm -rf -- {} + | sed 's/^/removed old backup /' >&2
fi

echo "$dump"
