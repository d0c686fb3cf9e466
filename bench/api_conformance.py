"""Schemathesis with every check against the running app, for a bounded time; prints the
failures by check.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/api_conformance.py [--max-time 300] [--workers 1] [--seed 1]

``config/tests/test_schemathesis.py`` (in the suite) only asks for no 5xx and the common error
body. This script asks for everything Schemathesis checks (``--checks all``): responses that
match their documented schema and status codes, invalid requests refused, valid ones
accepted, headers, content types … It builds the world of that test (a tournament with a round
in play, a match with deals, a sanction; the user organises it and is a chief referee) in a
scratch database beside the one ``DATABASE_URL`` names (``<name>_conformance``, dropped at the
end), serves the app with gunicorn (``DEBUG=0``, throttles off), points every ``{id}`` of the
schema at a real object (the same way the test does) and runs ``schemathesis run`` until
``--max-time`` is spent. The summary counts distinct failures (operation, check, message) as
Schemathesis reports them; the JSON report stays in ``--report-dir`` when given.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_hall import Services, free_port, wait_http  # noqa: E402

RESOURCES = ("tournaments", "matches", "rounds", "entries", "sanctions", "players", "clubs")


def scratch_name() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("DATABASE_URL must name a PostgreSQL database")
    return urlsplit(url).path.lstrip("/") + "_conformance"


def admin(sql: str) -> None:
    import psycopg

    parts = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql)


def environment(name: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_NAME_OVERRIDE=name, DEBUG="0",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0", LOG_LEVEL="ERROR",
        # the run is one client sending thousands of requests: no throttles, no sign-in lock
        API_WRITE_RATE="", API_ANON_WRITE_RATE="", LOGIN_FAILURE_LIMIT="1000000",
    )  # fmt: skip
    env.pop("CELERY_BROKER_URL", None)  # pairing runs in-process
    return env


def build_world(env: dict[str, str]) -> dict[str, object]:
    """Migrate the scratch database and create the world in a child process (Django set up
    there, not here); returns the token and the ids."""
    code = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from rest_framework.authtoken.models import Token
from scoring import services as scoring
from scoring.tests.helpers import sport_deals
from tournaments import discipline
from tournaments.models import Pairing, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user
boss = make_user("boss", "Organiser", "Chief referee")
tournament = Tournament.objects.create(name="Conformance", rounds=3, public=True)
tournament.organisers.add(boss)
a, b, c, d = add_pairs(tournament, 4)
round_ = play_round(tournament, 1, [(a, b, None), (c, d, (120, 80))])
match = Pairing.objects.get(round=round_, table=1).match
for deal in sport_deals()[:2]:
    scoring.record_deal(match.pk, deal, boss)
sanction = discipline.record_sanction(boss, tournament.pk, entry_id=b.pk, round_number=1,
                                      kind="yellow", reason="conformance")
ids = {"tournaments": tournament.pk, "matches": match.pk, "rounds": round_.pk,
       "entries": a.pk, "sanctions": sanction.pk, "players": a.players.first().pk,
       "clubs": a.club_id}
print(json.dumps({"token": Token.objects.create(user=boss).key, "ids": ids}))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def config_file(ids: dict[str, int], path: Path) -> None:
    """Every ``{id}`` of a resource's paths is that resource's real object; ``{n}`` deal 2."""
    lines = ["[cache]", "enabled = false", ""]
    for resource in RESOURCES:
        lines += ["[[operations]]", f'include-path-regex = "^/api/v1/{resource}/\\\\{{id\\\\}}"',
                  f'parameters = {{ "path.id" = {ids[resource]}, "path.pk" = {ids[resource]},'
                  ' "path.n" = 2 }', ""]  # fmt: skip
    path.write_text("\n".join(lines))


def failures(report: Path) -> dict[tuple[str, str, str], int]:
    """Distinct failures (check title, operation, message) in the NDJSON report, with how many
    test cases showed each."""
    found: Counter[tuple[str, str, str]] = Counter()
    for line in report.read_text().splitlines():
        scenario = json.loads(line).get("ScenarioFinished")
        if not scenario:
            continue
        for checks in (scenario.get("recorder", {}).get("checks") or {}).values():
            for check in checks:
                failure = (check.get("failure_info") or {}).get("failure")
                if check.get("status") == "failure" and failure:
                    title = f"{failure.get('code', '')} {failure.get('title', check['name'])}"
                    message = " / ".join(str(failure.get("message", "")).splitlines()[:2])
                    found[(title, str(failure.get("operation", "")), message)] += 1
    return dict(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-time", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report-dir", default="")
    parser.add_argument("--details", action="store_true", help="list every distinct failure")
    args = parser.parse_args()
    name = scratch_name()
    admin(f'DROP DATABASE IF EXISTS "{name}"')
    admin(f'CREATE DATABASE "{name}"')
    services = Services()
    keep = Path(args.report_dir) if args.report_dir else None
    with tempfile.TemporaryDirectory() as tmp:
        reports = keep or Path(tmp)
        try:
            env = environment(name)
            world = build_world(env)
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi",
                        "--bind", f"127.0.0.1:{port}", "--workers", "2"]  # fmt: skip
            services.start("web", gunicorn, env)
            wait_http(url, services)
            config = Path(tmp) / "schemathesis.toml"
            config_file(world["ids"], config)  # type: ignore[arg-type]
            ndjson = reports / "events.ndjson"
            command = [
                str(Path(sys.executable).with_name("schemathesis")), "--no-color", "--config-file",
                str(config),
                "run", f"{url}/api/schema/", "--checks", "all", "--max-time", str(args.max_time),
                "--workers", str(args.workers), "--seed", str(args.seed),
                "-H", f"Authorization: Token {world['token']}", "--continue-on-failure",
                "--report", "ndjson", "--report-ndjson-path", str(ndjson),
            ]  # fmt: skip
            run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
            summary = run.stdout.rfind("SUMMARY")
            print(run.stdout[summary - 40 :] if summary >= 0 else run.stdout[-4000:])
            found = failures(ndjson)
            if args.details:
                for (title, operation, message), cases in sorted(found.items()):
                    print(f"{title} | {operation} | {message} | {cases} case(s)")
            by_title = Counter(title for title, _op, _msg in found)
            print("distinct failures (check, operation, message) by check:")
            for title, count in sorted(by_title.items()):
                print(f"  {title:45} {count}")
        finally:
            services.stop()
            admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
