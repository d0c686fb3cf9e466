#!/usr/bin/env bash
# Restore a dump made by deploy/backup.sh into a fresh, empty database, then bring its schema up
# to the installed code (manage.py migrate). See docs/backups.md.
#
#   createdb -O domino domino_restored        # as the postgres user: an empty database
#   DATABASE_URL=postgres://domino:…@127.0.0.1:5432/domino_restored deploy/restore.sh FILE.dump
#
# The target is the database of DATABASE_URL (the values of /etc/domino/env, or of
# $DOMINO_ENV_FILE, fill in what is not set in the environment). A database that already has
# tables is refused: this script never overwrites data. The restore is one transaction (all or
# nothing); ownership and grants of the source are not restored (--no-owner --no-privileges),
# so the objects belong to the user of DATABASE_URL.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/common.sh
. "$here/common.sh"

[[ $# -eq 1 && $1 != -* ]] || die "usage: $(basename "$0") BACKUP.dump"
dump=$1
[[ -r $dump ]] || die "cannot read $dump"

load_env_file
use_database_url

pg_restore --list "$dump" >/dev/null || die "$dump is not a pg_dump custom-format file"
tables=$(psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$PGDATABASE" -c \
  "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')") \
  || die "cannot connect to database $PGDATABASE (create it first: createdb -O <user> $PGDATABASE)"
[[ $tables == 0 ]] || die "database $PGDATABASE is not empty ($tables tables): restore into a fresh database"

say "restoring $dump into database $PGDATABASE"
pg_restore --no-owner --no-privileges --single-transaction --exit-on-error \
  --dbname="$PGDATABASE" "$dump"

say "applying migrations of the installed code"
manage migrate --noinput

counts=$(psql --no-psqlrc --quiet --tuples-only --no-align --field-separator=' ' \
  --dbname="$PGDATABASE" -c "SELECT (SELECT count(*) FROM tournaments_tournament),
    (SELECT count(*) FROM scoring_match), (SELECT count(*) FROM scoring_deal)")
read -r n_tournaments n_matches n_deals <<<"$counts"
say "done: $n_tournaments tournament(s), $n_matches match(es), $n_deals deal(s) in $PGDATABASE"
