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
  archives="$BACKUP_DIR/tournaments-$stamp"
  mkdir -p "$archives"
  if [[ $BACKUP_TOURNAMENTS == all ]]; then
    ids=$(manage shell --verbosity=0 -c \
      'from tournaments.models import Tournament
print(*Tournament.objects.order_by("pk").values_list("pk", flat=True))')
  else
    ids=$BACKUP_TOURNAMENTS
  fi
  for id in $ids; do
    [[ $id =~ ^[0-9]+$ ]] || die "BACKUP_TOURNAMENTS: '$id' is not a tournament id"
    manage export_tournament "$id" -o "$archives/tournament-$id.json" \
      || die "could not export tournament $id"
  done
  say "archived $(wc -w <<<"$ids") tournament(s) in $archives"
fi

if ((BACKUP_KEEP_DAYS > 0)); then
  # -mmin: minutes, so that "14 days" means 14 x 24 hours, not find's rounded days.
  find "$BACKUP_DIR" -maxdepth 1 -mmin +$((BACKUP_KEEP_DAYS * 24 * 60)) \
    \( -name 'domino-*.dump' -o -name 'domino-*.dump.partial' -o -name 'tournaments-*' \) \
    -print -exec rm -rf -- {} + | sed 's/^/removed old backup /' >&2
fi

echo "$dump"
