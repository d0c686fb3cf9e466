# Shared by deploy/backup.sh and deploy/restore.sh (sourced, not run).

say() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

APP_DIR=${APP_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PYTHON=${PYTHON:-$APP_DIR/.venv/bin/python}

# Read /etc/domino/env (or $DOMINO_ENV_FILE) if it is there; variables already set in the
# environment win over the file, so `DATABASE_URL=… deploy/restore.sh …` works.
load_env_file() {
  local file=${DOMINO_ENV_FILE:-/etc/domino/env}
  [[ -r $file ]] || return 0
  local given
  given=$(export -p | grep -v '^declare -[a-zA-Z]*r')
  set -a
  # shellcheck disable=SC1090
  . "$file"
  set +a
  eval "${given//declare -x/declare -gx}"
}

# Point libpq (pg_dump, pg_restore, psql) at DATABASE_URL through PG* variables, parsed the
# way the application parses it (django-environ, DATABASE_NAME_OVERRIDE), so that the password
# never shows in the process list.
use_database_url() {
  [[ -n ${DATABASE_URL:-} ]] || die "DATABASE_URL is not set (and not in ${DOMINO_ENV_FILE:-/etc/domino/env})"
  [[ -x $PYTHON ]] || die "no Python at $PYTHON (set APP_DIR or PYTHON)"
  local exports
  exports=$("$PYTHON" - <<'EOF'
import os
import shlex
import sys

import environ

config = environ.Env.db_url_config(os.environ["DATABASE_URL"])
if "postgresql" not in config["ENGINE"]:
    sys.exit(
        f"DATABASE_URL is not PostgreSQL ({config['ENGINE']}): these scripts use pg_dump and "
        "pg_restore. An embedded SQLite site is backed up by copying db.sqlite3 while stopped."
    )
options = config.get("OPTIONS", {})
values = {
    "PGHOST": config.get("HOST"),
    "PGPORT": config.get("PORT"),
    "PGUSER": config.get("USER"),
    "PGPASSWORD": config.get("PASSWORD"),
    "PGDATABASE": os.environ.get("DATABASE_NAME_OVERRIDE") or config.get("NAME"),
    "PGSSLMODE": options.get("sslmode"),
    "PGSSLROOTCERT": options.get("sslrootcert"),
    "PGCONNECT_TIMEOUT": options.get("connect_timeout"),
}
for name, value in values.items():
    print(f"export {name}={shlex.quote(str(value))}" if value else f"unset {name}")
EOF
  ) || die "cannot use DATABASE_URL"
  eval "$exports"
}

# manage.py of the application, with the environment as it is.
manage() {
  (cd "$APP_DIR" && "$PYTHON" manage.py "$@")
}
