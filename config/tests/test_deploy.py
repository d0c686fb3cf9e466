"""The production recipe in deploy/: the backup and restore scripts run for real against
PostgreSQL, and the example configuration, units and Procfile agree with the code.

The round trip (``test_backup_then_restore_gives_back_every_row_and_the_same_standings``) writes
a tournament into pytest-django's test database, runs ``deploy/backup.sh`` on it, restores the
dump with ``deploy/restore.sh`` into a scratch database ``<test database>_restored`` (created and
dropped here), and compares every row of every table, the sequences and the standings.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from rules.simulate import play_match
from scoring import services as scoring
from scoring.models import Deal, Match
from tournaments import discipline, results, rounds
from tournaments.models import Entry, Pairing, PairingEntry, Round, Tournament
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
#: variables the deploy files add for gunicorn and backup.sh; Django does not read them
NOT_DJANGO = {"WEB_CONCURRENCY", "BACKUP_DIR", "BACKUP_KEEP_DAYS", "BACKUP_TOURNAMENTS"}
DAY = 24 * 3600


def settings_variables() -> set[str]:
    """Every environment variable config/settings.py reads (env(...), env.bool(...), …,
    os.environ / os.getenv)."""
    text = (ROOT / "config" / "settings.py").read_text()
    names = set(re.findall(r"\benv(?:\.\w+)?\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']", text))
    names |= set(re.findall(r"os\.(?:environ\.get|getenv)\(\s*[\"']([A-Z][A-Z0-9_]*)", text))
    names |= set(re.findall(r"os\.environ\[\s*[\"']([A-Z][A-Z0-9_]*)", text))
    return names


def env_example() -> dict[str, str]:
    """The variables of deploy/env.example; commented-out ones (``#NAME=``) count as named."""
    found = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        match = re.match(r"^#?([A-Z][A-Z0-9_]*)=(.*)$", line)
        if match:
            found[match[1]] = match[2]
    return found


def unit(name: str) -> dict[str, list[str]]:
    """A systemd unit as {key: [values]}, continuation lines joined."""
    text = (DEPLOY / name).read_text().replace("\\\n", " ")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(" ".join(value.split()))
    return out


# --- Configuration, units, Procfile ---------------------------------------------------------


def test_env_example_names_every_variable_the_settings_read() -> None:
    read = settings_variables()
    # the parser really finds the settings' variables (else this test could not fail)
    assert {"DATABASE_URL", "SECRET_KEY", "CELERY_BROKER_URL", "REDIS_URL", "DEBUG"} <= read
    assert {"ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECURE_PROXY_SSL_HEADER"} <= read
    named = set(env_example())
    assert read - named == set(), "add these to deploy/env.example and docs/production.md"
    # and nothing stale: every other name is one the deploy files themselves use
    assert named - read == NOT_DJANGO
    docs = (ROOT / "docs" / "production.md").read_text()
    assert [name for name in sorted(read | NOT_DJANGO) if f"`{name}`" not in docs] == []


def test_env_example_is_a_production_configuration_that_passes_the_deploy_check() -> None:
    values = env_example()
    assert values["DEBUG"] == "0" and values["SECRET_KEY"].startswith("change-me")
    env = {k: v for k, v in values.items() if v and k != "DATABASE_NAME_OVERRIDE"}
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    env.update(PATH=os.environ["PATH"], DJANGO_SETTINGS_MODULE="config.settings")
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_systemd_units_run_the_real_entry_points_as_a_dedicated_user() -> None:
    web, worker = unit("domino-web.service"), unit("domino-worker.service")
    push = unit("domino-push.service")
    for service in (web, worker, push, unit("domino-backup.service")):
        assert service["User"] == ["domino"] and service["Group"] == ["domino"]
        assert service["EnvironmentFile"] == ["/etc/domino/env"]
        assert service["WorkingDirectory"] == ["/opt/domino"]
    for service in (web, worker, push):
        assert service["Restart"] == ["always"]
    [web_start] = web["ExecStart"]
    [worker_start] = worker["ExecStart"]
    assert web_start.startswith("/opt/domino/.venv/bin/gunicorn config.wsgi:application ")
    assert worker_start.startswith("/opt/domino/.venv/bin/celery -A config worker ")
    assert unit("domino-backup.service")["ExecStart"] == ["/opt/domino/deploy/backup.sh"]
    # nginx proxies to the address gunicorn binds, and sets the header the env file trusts
    bind = re.search(r"--bind (\S+)", web_start)
    assert bind is not None
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert f"server {bind[1]};" in nginx
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in nginx
    assert env_example()["SECURE_PROXY_SSL_HEADER"] == "1"
    # the pages' WebSockets: nginx upgrades /ws/ to the address uvicorn binds
    [push_start] = push["ExecStart"]
    assert push_start.startswith("/opt/domino/.venv/bin/uvicorn config.asgi:application ")
    host, port = re.search(r"--host (\S+)", push_start), re.search(r"--port (\d+)", push_start)
    assert host is not None and port is not None
    assert f"server {host[1]}:{port[1]};" in nginx
    ws = nginx[nginx.index("location /ws/ {"):]
    ws = ws[: ws.index("}")]
    assert "proxy_pass http://domino_push;" in ws and "proxy_http_version 1.1;" in ws
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws
    # the standings re-read after a push (results.reread): plain HTTP to the same uvicorn
    read = nginx[nginx.index("location /live-read/ {"):]
    read = read[: read.index("}")]
    assert "proxy_pass http://domino_push;" in read and "proxy_http_version 1.1;" in read
    from tournaments.results.reread import PREFIX

    assert PREFIX == "/live-read/"


def test_the_entry_points_load() -> None:
    """What the units start: gunicorn loads config.wsgi:application (--check-config), Celery
    finds the app of ``-A config`` with the project's tasks."""
    [web_start] = unit("domino-web.service")["ExecStart"]
    argv = web_start.replace("/opt/domino/.venv/bin/", f"{BIN}/").split()
    # systemd puts WEB_CONCURRENCY of /etc/domino/env in as one word
    assert "${WEB_CONCURRENCY}" in argv and env_example()["WEB_CONCURRENCY"].isdigit()
    argv = [env_example()["WEB_CONCURRENCY"] if a == "${WEB_CONCURRENCY}" else a for a in argv]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([*argv, "--check-config"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    # uvicorn's application: HTTP and the WebSockets of tournaments.live
    from channels.routing import ProtocolTypeRouter

    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}

    from celery import Celery

    from config.celery import app

    assert isinstance(app, Celery) and app.main == "config"
    app.loader.import_default_modules()
    assert "config.ping" in app.tasks
    assert any(name.startswith("tournaments.") for name in app.tasks)


def test_no_beat_unit_because_there_are_no_periodic_tasks() -> None:
    from config.celery import app

    assert not app.conf.beat_schedule
    assert not (DEPLOY / "domino-beat.service").exists()


def test_procfile_runs_the_same_processes() -> None:
    lines = dict(
        line.split(":", 1) for line in (DEPLOY / "Procfile").read_text().splitlines() if line
    )
    assert lines["web"].strip().startswith("gunicorn config.wsgi:application ")
    assert lines["worker"].strip().startswith("celery -A config worker ")
    assert lines["push"].strip().startswith("uvicorn config.asgi:application ")
    assert lines["release"].strip() == "python manage.py migrate --noinput"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    """``systemd-analyze verify`` with /opt/domino pointed at this checkout (so that it can
    check that every command exists)."""
    names = ["domino-web.service", "domino-worker.service", "domino-push.service",
             "domino-backup.service", "domino-backup.timer"]  # fmt: skip
    for name in names:
        text = (DEPLOY / name).read_text().replace("/opt/domino/.venv/bin", str(BIN))
        (tmp_path / name).write_text(text.replace("/opt/domino", str(ROOT)))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *names], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_scripts_parse_and_are_executable() -> None:
    for name in ("backup.sh", "restore.sh", "common.sh"):
        done = subprocess.run(["bash", "-n", str(DEPLOY / name)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    for name in ("backup.sh", "restore.sh"):
        assert os.access(DEPLOY / name, os.X_OK)


def script_env(**values: str) -> dict[str, str]:
    """The environment of a script run: ours (DATABASE_URL), never /etc/domino/env."""
    env = dict(os.environ)
    env.update(DOMINO_ENV_FILE=str(ROOT / "deploy" / "no-such-env-file"), APP_DIR=str(ROOT),
               PYTHON=sys.executable, DJANGO_SETTINGS_MODULE="config.settings")  # fmt: skip
    env.update(values)
    return env


def run(argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, env=script_env(**env), capture_output=True, text=True,
                          timeout=180)  # fmt: skip


def test_the_scripts_refuse_a_database_that_is_not_postgresql(tmp_path: Path) -> None:
    backups = tmp_path / "backups"
    done = run([str(DEPLOY / "backup.sh")], DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3",
               BACKUP_DIR=str(backups))  # fmt: skip
    assert done.returncode != 0 and done.stdout == ""
    assert "DATABASE_URL is not PostgreSQL" in done.stderr
    assert not backups.exists() or list(backups.iterdir()) == []
    done = run([str(DEPLOY / "restore.sh")], DATABASE_URL="postgres://x@127.0.0.1/x")
    assert done.returncode != 0 and "usage: restore.sh BACKUP.dump" in done.stderr


# --- Backup and restore on PostgreSQL -------------------------------------------------------


def connect(dbname: str) -> Any:
    import psycopg
    from django.db import connection

    s = connection.settings_dict
    return psycopg.connect(host=s["HOST"] or None, port=s["PORT"] or None, user=s["USER"] or None,
                           password=s["PASSWORD"] or None, dbname=dbname,
                           autocommit=True)  # fmt: skip


@pytest.fixture
def scratch_database(require_postgres: None) -> Iterator[str]:
    """An empty database next to the test database, dropped afterwards."""
    from django.db import connection
    from psycopg import sql

    name = f"{connection.settings_dict['NAME']}_restored"
    with connect("postgres") as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(name)))  # fmt: skip
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name
    finally:
        with connect("postgres") as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))  # fmt: skip


def every_row(dbname: str) -> dict[str, list[str]]:
    """Every table of the database with its rows (as text, sorted), and every sequence's
    position."""
    out = {}
    with connect(dbname) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]  # fmt: skip
        for table in tables:
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
            out[table] = sorted(repr(row) for row in rows)
        out["<sequences>"] = [repr(row) for row in conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences ORDER BY 1")]  # fmt: skip
    return out


STANDINGS = """
import json, sys, django
django.setup()
from tournaments import results
from tournaments.models import Tournament
t = Tournament.objects.get(pk=int(sys.argv[1]))
def lines(table):
    return [[l.rank, l.name, l.club, l.row, l.pending, l.players] for l in table.lines]
print(json.dumps({"live": lines(results.live_table(t)), "round 1": lines(results.table(t, 1))},
                 default=str, sort_keys=True))
"""


def standings(tournament: Tournament) -> Any:
    def lines(table: results.Table) -> list[Any]:
        return [[x.rank, x.name, x.club, x.row, x.pending, x.players] for x in table.lines]

    doc = {"live": lines(results.live_table(tournament)),
           "round 1": lines(results.table(tournament, 1))}  # fmt: skip
    return json.loads(json.dumps(doc, default=str, sort_keys=True))


def real_match(organiser: User, chief: User | None, a: Entry, b: Entry, label: str, seed: int,
               deals: int | None = None) -> Match:  # fmt: skip
    """A protocol written through the scoring services with legal simulated deals; confirmed
    by the chief referee when played to the end."""
    (n, s), (e, w) = a.players.all(), b.players.all()
    match = scoring.create_match(user=organiser, rules_preset="sport", label=label, table=label,
                                 seats={"N": n, "E": e, "S": s, "W": w})  # fmt: skip
    records = play_match(match.get_rules(), random.Random(seed))
    for record in records[:deals]:
        scoring.record_deal(match.pk, record, organiser)
    if chief is not None:
        scoring.submit(match.pk, organiser)
        scoring.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk)


def seat(round_: Round, table: int, match: Match, ns: Entry, ew: Entry) -> None:
    pairing = Pairing.objects.create(round=round_, table=table, match=match)
    PairingEntry.objects.create(pairing=pairing, round=round_, entry=ns, side="NS")
    PairingEntry.objects.create(pairing=pairing, round=round_, entry=ew, side="EW")


def an_event() -> Tournament:
    """Four pairs: round 1 finished (a snapshot of the standings), round 2 with a confirmed
    protocol of real deals, a protocol still in play, and a yellow card."""
    organiser = make_user("org", "Organiser")
    chief = make_user("chief", "Chief referee")
    tournament = TournamentFactory(name="Кубок «Бэкап»", rounds=3, status="running")
    tournament.organisers.add(organiser)
    a, b, c, d = add_pairs(tournament, 4)
    # real protocols: an archive brings a result only with its deals (docs/archive.md)
    r1 = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED,
                              published_at=timezone.now())  # fmt: skip
    seat(r1, 1, real_match(organiser, chief, a, b, "R1 T1", seed=2), a, b)
    seat(r1, 2, real_match(organiser, chief, c, d, "R1 T2", seed=1), c, d)
    rounds.finish_round(organiser, r1.pk)
    r2 = Round.objects.create(tournament=tournament, number=2, status=Round.Status.PUBLISHED,
                              published_at=timezone.now())  # fmt: skip
    seat(r2, 1, real_match(organiser, chief, a, c, "1", seed=3), a, c)
    seat(r2, 2, real_match(organiser, None, b, d, "2", seed=4, deals=3), b, d)
    discipline.record_sanction(organiser, tournament.pk, entry_id=b.pk, round_number=2,
                            kind="yellow", reason="телефон за столом")  # fmt: skip
    return tournament


def deals_of(dbname: str, tournament_id: int) -> list[tuple[Any, ...]]:
    """(table, deal number, record, verdict) of every deal of the tournament's protocols."""
    with connect(dbname) as conn:
        return conn.execute(
            """SELECT p.table, d.n, d.record::text, d.verdict::text FROM scoring_deal d
               JOIN tournaments_pairing p ON p.match_id = d.match_id
               JOIN tournaments_round r ON r.id = p.round_id
               WHERE r.tournament_id = %s ORDER BY 1, 2""",
            [tournament_id],
        ).fetchall()


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_gives_back_every_row_and_the_same_standings(
    scratch_database: str, tmp_path: Path
) -> None:
    from django.db import connection

    source = str(connection.settings_dict["NAME"])
    tournament = an_event()
    confirmed = Match.objects.get(label="1")
    assert confirmed.status == Match.Status.CONFIRMED and confirmed.deals.count() >= 4
    assert Deal.objects.filter(match__label="2").count() == 3

    # older backups: one past the retention period, one inside it
    backups = tmp_path / "backups"
    backups.mkdir()
    old, recent = backups / "domino-20200101T000000Z.dump", backups / "domino-20200102T000000Z.dump"
    old_archives = backups / "tournaments-20200101T000000Z"
    old.write_bytes(b"")
    recent.write_bytes(b"")
    old_archives.mkdir()
    now = time.time()
    for path, age in ((old, 15 * DAY), (old_archives, 15 * DAY), (recent, 13 * DAY)):
        os.utime(path, (now - age, now - age))

    started = time.monotonic()
    done = run([str(DEPLOY / "backup.sh")], DATABASE_NAME_OVERRIDE=source, BACKUP_DIR=str(backups),
               BACKUP_KEEP_DAYS="14", BACKUP_TOURNAMENTS="all")  # fmt: skip
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert dump.parent == backups and re.fullmatch(r"domino-\d{8}T\d{6}Z\.dump", dump.name)
    assert dump.stat().st_size > 0 and dump.stat().st_mode & 0o077 == 0  # private to its owner
    assert not old.exists() and not old_archives.exists() and recent.exists()
    assert list(backups.glob("*.partial")) == []
    [archive] = backups.glob(f"tournaments-*/tournament-{tournament.pk}.json")
    assert archive.parent.name == "tournaments-" + dump.name[len("domino-") : -len(".dump")]
    document = json.loads(archive.read_text())
    assert document["format"] == "domino-tournament-archive"
    assert document["tournament"]["name"] == "Кубок «Бэкап»"

    done = run([str(DEPLOY / "restore.sh"), str(dump)], DATABASE_NAME_OVERRIDE=scratch_database)
    assert done.returncode == 0, done.stderr
    assert f"done: 1 tournament(s), 4 match(es), {Deal.objects.count()} deal(s)" in done.stderr
    elapsed = time.monotonic() - started

    before, after = every_row(source), every_row(scratch_database)
    assert before.keys() == after.keys()
    assert {"tournaments_tournament", "scoring_match", "scoring_deal", "tournaments_standing",
            "tournaments_sanction", "auth_user"} <= before.keys()  # fmt: skip
    assert len(before["scoring_deal"]) == Deal.objects.count() > 0
    assert len(before["tournaments_standing"]) == 4
    for table in before:
        assert after[table] == before[table], table
    assert deals_of(scratch_database, tournament.pk) == deals_of(source, tournament.pk)

    # the restored site computes the same standings (live, and round 1's snapshot)
    done = run([sys.executable, "-c", STANDINGS, str(tournament.pk)],
               DATABASE_NAME_OVERRIDE=scratch_database)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == standings(tournament)
    assert standings(tournament)["live"][0][1] == "Пара 1"

    # a second restore into the same database is refused and changes nothing
    done = run([str(DEPLOY / "restore.sh"), str(dump)], DATABASE_NAME_OVERRIDE=scratch_database)
    assert done.returncode != 0
    assert f"database {scratch_database} is not empty" in done.stderr
    assert every_row(scratch_database) == after

    # one tournament from its JSON archive: the same tournament is here (restored), so the
    # archive is refused as already imported, and restored over it only when asked (issue 25)
    command = [sys.executable, "manage.py", "import_tournament", str(archive), "--user", "org",
               "--yes"]  # fmt: skip
    done = run(command, DATABASE_NAME_OVERRIDE=scratch_database)
    assert done.returncode != 0 and "already_imported" in done.stderr
    done = run([*command, "--replaces", str(tournament.pk)],
               DATABASE_NAME_OVERRIDE=scratch_database)  # fmt: skip
    assert done.returncode == 0, done.stderr
    imported = int(done.stdout.strip())
    assert imported != tournament.pk
    assert deals_of(scratch_database, imported) == deals_of(source, tournament.pk)
    print(f"backup + restore of {Deal.objects.count()} deals: {elapsed:.1f} s")
