"""The permission matrix: every write of the API (from its OpenAPI schema) and every page that
takes a POST (from the URL resolver) against eight kinds of visitor. A new write without a row
in the matrix fails ``test_the_matrix_covers_every_write``.

    anon        not signed in
    player      signed in, no role
    ref_other   referee of another table of the same round
    ref         referee of this table
    chief       chief referee
    org_other   organiser of another tournament
    org         organiser of this tournament
    root        superuser

For a refused visitor the answer is 401/403/404 (a page may send an anonymous visitor to the
login page) and **nothing in the database changes** (every row of scoring and tournaments, the
audit log and the users' groups compared before and after). For an allowed one the answer is
not a refusal (it may still be 400/409 when the request makes no sense in the current state).
Each visitor's request runs in a savepoint rolled back afterwards, so they all see one world.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.models import AuditEntry
from accounts.tokens import issue
from config.tests.test_schemathesis import OPERATIONS
from config.tests.test_security import post_pages
from scoring import services as scoring
from scoring.models import Deal, Match, MatchVersion
from scoring.tests.helpers import sport_deals
from tournaments import discipline
from tournaments.models import (
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

ROLES = ("anon", "player", "ref_other", "ref", "chief", "org_other", "org", "root")
ORGANISERS = {"org_other", "org", "root"}
THIS_EVENT = {"org", "root"}
JUDGES = {"chief", "org", "root"}
WRITERS = {"ref", "chief", "org", "root"}  # this table's protocol
DESK = {"chief", "org", "root"}  # confirm, PIN
CORRECTORS = {"chief", "root"}
CREATORS = {"ref_other", "ref", "chief", "org_other", "org", "root"}  # standalone matches
#: not writes of anyone's data: signing in and out, the language switch; and each user's own
#: account, which acts on the caller's tokens and password only (accounts/tests/test_tokens.py)
PUBLIC = {"POST /api/v1/auth/token/", "login", "logout", "set_language",
          "POST /api/v1/auth/logout/", "DELETE /api/v1/auth/tokens/{id}/",
          "account-revoke-token", "password_change"}  # fmt: skip

# --- the matrix: who may, keyed by method + schema path (API) or URL name[action] (pages) ---------

API = {
    "POST /api/v1/clubs/": ORGANISERS,
    "POST /api/v1/players/": ORGANISERS,
    "POST /api/v1/tournaments/": ORGANISERS,
    "POST /api/v1/tournaments/import/": ORGANISERS,
    "PATCH /api/v1/tournaments/{id}/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/entries/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/entries/import/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/rounds/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/close/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/sanctions/": JUDGES,
    "PATCH /api/v1/entries/{id}/": THIS_EVENT,
    "POST /api/v1/entries/{id}/withdraw/": THIS_EVENT,
    "POST /api/v1/entries/{id}/reinstate/": THIS_EVENT,
    "POST /api/v1/entries/{id}/absences/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/publish/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/finish/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/regenerate/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/swap/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/lock/": THIS_EVENT,
    "POST /api/v1/rounds/{id}/referee/": THIS_EVENT,
    "POST /api/v1/sanctions/{id}/revoke/": JUDGES,
    "POST /api/v1/matches/": CREATORS,
    "POST /api/v1/matches/{id}/deals/": WRITERS,
    "POST /api/v1/matches/{id}/deals/preview/": WRITERS,
    "PATCH /api/v1/matches/{id}/deals/{n}/": WRITERS,
    "DELETE /api/v1/matches/{id}/deals/{n}/": WRITERS,
    "POST /api/v1/matches/{id}/submit/": WRITERS,
    "POST /api/v1/matches/{id}/pin/": DESK,
    "POST /api/v1/matches/{id}/confirm/": DESK,
    "POST /api/v1/matches/{id}/corrections/": CORRECTORS,
}
PAGES = {
    "scoring:create": CREATORS,
    "scoring:preview": WRITERS,
    "scoring:record": WRITERS,
    "scoring:amend": WRITERS,
    "scoring:delete_last": WRITERS,
    "scoring:submit": WRITERS,
    "scoring:pin": DESK,
    "scoring:confirm": DESK,
    "scoring:correct": CORRECTORS,
    "tournaments:manage_create": ORGANISERS,
    "tournaments:manage_archive_import": ORGANISERS,
    "tournaments:manage_setup": THIS_EVENT,
    "tournaments:manage_entries": THIS_EVENT,
    "tournaments:manage_import": THIS_EVENT,
    "tournaments:manage_entry": THIS_EVENT,
    "tournaments:manage_entry_action[withdraw]": THIS_EVENT,
    "tournaments:manage_entry_action[reinstate]": THIS_EVENT,
    "tournaments:manage_entry_action[absence]": THIS_EVENT,
    "tournaments:manage_pair": THIS_EVENT,
    "tournaments:manage_round_action[swap]": THIS_EVENT,
    "tournaments:manage_round_action[lock]": THIS_EVENT,
    "tournaments:manage_round_action[unlock]": THIS_EVENT,
    "tournaments:manage_round_action[referee]": THIS_EVENT,
    "tournaments:manage_round_action[regenerate]": THIS_EVENT,
    "tournaments:manage_round_action[publish]": THIS_EVENT,
    "tournaments:manage_round_action[finish]": THIS_EVENT,
    "tournaments:manage_close": THIS_EVENT,
    "tournaments:manage_discipline": JUDGES,
    "tournaments:manage_revoke_sanction": JUDGES,
}


def test_the_matrix_covers_every_write() -> None:
    writes = {label for label in OPERATIONS if not label.startswith("GET ")}
    assert writes - PUBLIC == set(API), "add the new API write to the matrix"
    pages = set(post_pages())
    assert pages - PUBLIC == {key.split("[")[0] for key in PAGES}, "add the new page"


# --- the world ----------------------------------------------------------------------------------


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    """Tournament T (org) and T2 (org_other). T: round 1 published, table 1 in play (ref), table
    2 submitted (ref_other), table 3 confirmed; round 2 paired (for the review actions)."""
    users = {
        "player": make_user("player"),
        "ref_other": make_user("ref_other", "Referee"),
        "ref": make_user("ref", "Referee"),
        "chief": make_user("chief", "Chief referee"),
        "org_other": make_user("org_other", "Organiser"),
        "org": make_user("org", "Organiser"),
        "root": User.objects.create_superuser("root", password="root-pass-123"),
    }
    t = Tournament.objects.create(name="T", rounds=3, public=True, status="running")
    t.organisers.add(users["org"])
    t2 = Tournament.objects.create(name="T2", rounds=3, public=True)
    t2.organisers.add(users["org_other"])
    e = add_pairs(t, 6)
    r1 = play_round(t, 1, [(e[0], e[1], None), (e[2], e[3], None), (e[4], e[5], None)])
    tables = {p.table: p for p in Pairing.objects.filter(round=r1)}
    deals = sport_deals()
    for table, who in ((1, "ref"), (2, "ref_other")):
        Pairing.objects.filter(pk=tables[table].pk).update(referee=users[who])
        Match.objects.filter(pk=tables[table].match_id).update(referee=users[who])
    m1, m2, m3 = (tables[n].match_id for n in (1, 2, 3))
    scoring.record_deal(m1, deals[0], users["ref"])
    for deal in deals:
        scoring.record_deal(m2, deal, users["ref_other"])
    scoring.submit(m2, users["ref_other"])
    for deal in deals:
        scoring.record_deal(m3, deal, users["chief"])
    scoring.submit(m3, users["chief"])
    scoring.confirm(m3, users["org"])
    r2 = play_round(t, 2, [(e[0], e[2], None), (e[1], e[3], None)], byes=[e[4]],
                    status=Round.Status.PAIRED)  # fmt: skip
    sanction = discipline.record_sanction(users["chief"], t.pk, entry_id=e[1].pk, round_number=1,
                                       kind="yellow", reason="спор")  # fmt: skip
    Entry.objects.filter(pk=e[5].pk).update(status=Entry.Status.WITHDRAWN)
    return {
        "users": users,
        "t": t,
        "t2": t2,
        "e": e,
        "r1": r1,
        "r2": r2,
        "m1": m1,
        "m2": m2,
        "m3": m3,
        "deals": deals,
        "sanction": sanction,
        "tables2": {p.table: p for p in Pairing.objects.filter(round=r2, table__isnull=False)},
    }


def fingerprint() -> list[Any]:
    """Every row a write could touch."""
    models = [Tournament, Entry, EntryAbsence, Round, Pairing, PairingEntry, Sanction, Standing,
              Club, Player, Match, Deal, MatchVersion, AuditEntry]  # fmt: skip
    rows: list[Any] = [list(m.objects.order_by("pk").values()) for m in models]
    rows.append(sorted(Tournament.organisers.through.objects.values_list(
        "tournament_id", "user_id")))  # fmt: skip
    rows.append(sorted(User.groups.through.objects.values_list("user_id", "group_id")))
    rows.append(Group.objects.count())
    return rows


# --- requests: (method, url, data, kind) ---------------------------------------------------------

CSV = "entry;last_name;first_name\nНовые;Новиков;Пётр\nНовые;Новикова;Анна\n"


def api_request(label: str, w: dict[str, Any]) -> tuple[str, str, Any]:
    e, t, r2 = w["e"], w["t"], w["r2"]
    ids = {"tournaments": t.pk, "entries": e[0].pk, "rounds": r2.pk, "sanctions": w["sanction"].pk,
           "matches": w["m1"]}  # fmt: skip
    method, path = label.split(" ", 1)
    resource = path.split("/")[3]
    if path.endswith("/confirm/") or path.endswith("/pin/"):
        ids["matches"] = w["m2"]
    if path.endswith("/corrections/"):
        ids["matches"] = w["m3"]
    if path.endswith("/finish/"):
        ids["rounds"] = w["r1"].pk
    if path.endswith("/reinstate/"):
        ids["entries"] = e[5].pk
    path = path.replace("{id}", str(ids.get(resource, 0))).replace("{n}", "1")
    bodies: dict[str, Any] = {
        "POST /api/v1/clubs/": {"name": "Новый клуб"},
        "POST /api/v1/players/": {"last_name": "Новиков"},
        "POST /api/v1/tournaments/": {"name": "Новый", "start_date": "2026-10-01"},
        "POST /api/v1/tournaments/import/": json.loads(archive_of(t)),
        "PATCH /api/v1/tournaments/{id}/": {"venue": "Зал 2"},
        "POST /api/v1/tournaments/{id}/entries/": {"name": "Новая пара"},
        "POST /api/v1/tournaments/{id}/entries/import/": {"csv": CSV},
        "POST /api/v1/tournaments/{id}/sanctions/": {
            "entry": e[0].pk,
            "round_number": 1,
            "kind": "yellow",
            "reason": "x",
        },
        "PATCH /api/v1/entries/{id}/": {"name": "Переименована"},
        "POST /api/v1/entries/{id}/absences/": {"round": 3, "reason": "работа"},
        "POST /api/v1/rounds/{id}/swap/": {"entries": [e[0].pk, e[1].pk]},
        "POST /api/v1/rounds/{id}/lock/": {"table": 1},
        "POST /api/v1/rounds/{id}/referee/": {"table": 1, "referee": w["users"]["ref"].pk},
        "POST /api/v1/sanctions/{id}/revoke/": {"reason": "ошибка"},
        "POST /api/v1/matches/": {"label": "Товарищеская"},
        "POST /api/v1/matches/{id}/deals/": w["deals"][1],
        "POST /api/v1/matches/{id}/deals/preview/": w["deals"][1],
        "PATCH /api/v1/matches/{id}/deals/{n}/": w["deals"][0],
        "POST /api/v1/matches/{id}/pin/": {"pin": "2468"},
        "POST /api/v1/matches/{id}/corrections/": {"deals": w["deals"], "reason": "опечатка"},
    }
    return method, path, bodies.get(label, {})


def archive_of(t: Tournament) -> str:
    from tournaments import archive

    return archive.dumps(archive.export_tournament(t))


def page_request(key: str, w: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    name, _, action = key.partition("[")
    action = action.rstrip("]")
    t, e = w["t"].pk, w["e"]
    deal = deal_form(w["deals"][1])
    if name.startswith("scoring:") and name != "scoring:create":
        match = {"scoring:confirm": w["m2"], "scoring:pin": w["m2"],
                 "scoring:correct": w["m3"]}.get(name, w["m1"])  # fmt: skip
        url = reverse(name, args=[match])
        if name == "scoring:amend":
            deal = deal_form(w["deals"][0])
        data: dict[str, Any] = {
            "scoring:pin": {"pin": "2468"},
            "scoring:confirm": {},
            "scoring:correct": {"deals": "\n".join(json.dumps(d) for d in w["deals"]),
                                "reason": "опечатка"},
        }.get(name, deal)  # fmt: skip
        return url, data
    kwargs: dict[str, Any] = {"pk": t}
    data = {}
    if name == "scoring:create":
        return reverse(name), {"label": "Товарищеская", "rules_preset": "sport"}
    if name == "tournaments:manage_create":
        return reverse(name), setup_form(w["t"]) | {"name": "Новый"}
    if name == "tournaments:manage_archive_import":
        from django.core.files.uploadedfile import SimpleUploadedFile

        return reverse(name), {"file": SimpleUploadedFile("a.json", archive_of(w["t"]).encode())}
    if name in ("tournaments:manage_entry", "tournaments:manage_entry_action"):
        kwargs["entry_id"] = (e[5] if action == "reinstate" else e[0]).pk
        data = {"name": "Переименована", "seed": 1, "joins_round": 1} if not action else {
            "round_number": 3, "absent": "on", "reason": "работа"}  # fmt: skip
    if action:
        kwargs["action"] = action
    if name == "tournaments:manage_round_action":
        kwargs["number"] = 1 if action == "finish" else 2
        tables = w["tables2"]
        data = {"entry_a": e[0].pk, "entry_b": e[1].pk, "pairing": tables[1].pk,
                "referee": w["users"]["ref"].pk}  # fmt: skip
    if name == "tournaments:manage_revoke_sanction":
        kwargs["sanction_id"] = w["sanction"].pk
        data = {"reason": "ошибка"}
    if name == "tournaments:manage_setup":
        data = setup_form(w["t"]) | {"venue": "Зал 2"}
    if name == "tournaments:manage_entries":
        data = {"name": "Новая пара", "last_name_1": "Новиков", "last_name_2": "Новикова"}
    if name == "tournaments:manage_import":
        from django.core.files.uploadedfile import SimpleUploadedFile

        data = {"file": SimpleUploadedFile("e.csv", CSV.encode())}
    if name == "tournaments:manage_discipline":
        data = {"entry": e[0].pk, "round_number": 1, "kind": "yellow", "reason": "x"}
    return reverse(name, kwargs=kwargs), data


def deal_form(deal: dict[str, Any]) -> dict[str, Any]:
    """A contract deal as the referee's form sends it (tiles mode)."""
    data = {"result": deal["result"], "by": deal.get("by", ""), "leader": deal.get("leader", ""),
            "mode": "tiles"}  # fmt: skip
    for seat, tiles in (deal.get("hands") or {}).items():
        data[f"hand_{seat}"] = tiles
    return data


def setup_form(t: Tournament) -> dict[str, Any]:
    from tournaments.registration.forms import TournamentForm

    t.refresh_from_db()
    data = {name: getattr(t, name) for name in TournamentForm._meta.fields
            if name not in ("tie_breaks", "rules_options", "public", "end_date")}  # fmt: skip
    data |= {"rules_options": json.dumps(t.rules_options), "public": "on",
             "start_date": str(t.start_date or "2026-10-01")}  # fmt: skip
    return {k: ("" if v is None else v) for k, v in data.items()}


# --- running the matrix ---------------------------------------------------------------------


class Rollback(Exception):
    pass


def attempt(send: Callable[[], Any]) -> tuple[Any, bool]:
    """The answer and whether the database changed; the change is rolled back."""
    outcome: dict[str, Any] = {}
    try:
        with transaction.atomic():
            before = fingerprint()
            outcome["response"] = send()
            outcome["changed"] = fingerprint() != before
            raise Rollback
    except Rollback:
        pass
    return outcome["response"], outcome["changed"]


#: pages that show a refusal as the form again with its error (400): the captain may still
#: confirm there with the PIN, so the page stays open to every visitor
FORM_REFUSALS = {"/confirm/"}


def refused(response: Any) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    path = response.wsgi_request.path
    if response.status_code == 400 and not path.startswith("/api/"):
        return any(p in path for p in FORM_REFUSALS) and b"verdict refused" in response.content
    return response.status_code == 302 and response["Location"].startswith("/login/")


def api_client(w: dict[str, Any], role: str) -> Client:
    if role == "anon":
        return Client()
    return Client(
        HTTP_AUTHORIZATION=f"Token {issue(w['users'][role])[1]}"
    )


@pytest.mark.parametrize("label", sorted(API))
def test_api_write_matrix(label: str, world) -> None:
    method, path, body = api_request(label, world)
    problems, wrote = [], []
    for role in ROLES:
        client = api_client(world, role)

        def send(client: Client = client) -> Any:
            return client.generic(method, path, json.dumps(body), content_type="application/json")

        response, changed = attempt(send)
        if role in API[label]:
            if refused(response):
                problems.append(
                    f"{role} refused ({response.status_code}): {response.content[:200]!r}"
                )
            wrote.append(changed or response.status_code < 300)
        else:
            if not refused(response) or changed:
                problems.append(f"{role} not refused ({response.status_code}, changed={changed})")
    assert problems == [], (label, path)
    assert any(wrote) or label in NOTHING_TO_DO, f"{label}: no allowed visitor got through"


@pytest.mark.parametrize("key", sorted(PAGES))
def test_page_post_matrix(key: str, world) -> None:
    problems, wrote = [], []
    for role in ROLES:
        url, data = page_request(key, world)
        client = Client()
        if role != "anon":
            client.force_login(world["users"][role])
        response, changed = attempt(lambda c=client, u=url, d=data: c.post(u, d))
        if role in PAGES[key]:
            if refused(response):
                problems.append(f"{role} refused ({response.status_code})")
            wrote.append(changed)
        else:
            if not refused(response) or changed:
                problems.append(f"{role} not refused ({response.status_code}, changed={changed})")
    assert problems == [], (key, url)
    assert any(wrote) or key in NOTHING_TO_DO, f"{key}: no allowed visitor changed anything"


#: requests that in the matrix's world write nothing even when allowed (the answer shows the
#: permission held: a preview, or a state refusal such as a round with open tables)
NOTHING_TO_DO = {
    "POST /api/v1/matches/{id}/submit/",  # table 1 is not over: 400 not_finished
    "tournaments:manage_round_action[unlock]",  # the table is not locked
    "scoring:submit",  # table 1 is not over: the form says so
    "POST /api/v1/matches/{id}/deals/preview/",
    "POST /api/v1/rounds/{id}/finish/",
    "POST /api/v1/tournaments/{id}/close/",
    "POST /api/v1/tournaments/{id}/rounds/",
    "scoring:preview",
    "tournaments:manage_round_action[finish]",
    "tournaments:manage_close",
    "tournaments:manage_pair",
}


# --- the properties, said plainly -----------------------------------------------------------


def test_a_referee_cannot_write_another_tables_protocol(world) -> None:
    ref_other = api_client(world, "ref_other")
    before = Match.objects.get(pk=world["m1"]).version
    answer = ref_other.post(f"/api/v1/matches/{world['m1']}/deals/", world["deals"][1],
                            content_type="application/json")  # fmt: skip
    assert answer.status_code == 403 and answer.json()["errors"][0]["code"] == "not_referee"
    assert Match.objects.get(pk=world["m1"]).version == before


def test_an_organiser_of_another_tournament_cannot_touch_this_ones_protocols(world) -> None:
    """Was allowed: every organiser counted as the desk of every match."""
    other = api_client(world, "org_other")
    assert other.post(f"/api/v1/matches/{world['m1']}/deals/", world["deals"][1],
                      content_type="application/json").status_code == 403  # fmt: skip
    assert other.post(f"/api/v1/matches/{world['m2']}/confirm/", {},
                      content_type="application/json").status_code == 403  # fmt: skip
    assert Match.objects.get(pk=world["m2"]).status == Match.Status.SUBMITTED
    # a standalone match (no tournament) is still any organiser's to oversee
    standalone = scoring.create_match(user=world["users"]["chief"], label="клубный вечер")
    assert other.post(f"/api/v1/matches/{standalone.pk}/deals/", world["deals"][0],
                      content_type="application/json").status_code == 201  # fmt: skip
