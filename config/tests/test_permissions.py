"""The permission matrix: every write of the API (from its OpenAPI schema) and every page that
takes a POST (from the URL resolver) against nine kinds of visitor; and every read (every GET of
the schema and every page with a GET) of what belongs to a tournament, for a private tournament
and for an unpublished round of a public one. A new write or read without a row in the matrix
fails ``test_the_matrix_covers_every_write`` / ``test_the_matrix_covers_every_read``.

    anon          not signed in
    player        signed in, no role
    ref_elsewhere referee of a table of another tournament (reads)
    ref_other     referee of another table of the same round (writes)
    ref           referee of this table
    chief_other   chief referee of another tournament
    chief         chief referee of this tournament
    org_other     organiser of another tournament
    org           organiser of this tournament
    root          superuser

For a refused visitor the answer is 401/403/404 (a page may send an anonymous visitor to the
login page) and **nothing in the database changes** (every row of scoring and tournaments, the
audit log and the users' groups compared before and after). For an allowed one the answer is
not a refusal (it may still be 400/409 when the request makes no sense in the current state).
Each visitor's request runs in a savepoint rolled back afterwards, so they all see one world.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.test import Client
from django.urls import get_resolver, reverse

from accounts.models import AuditEntry
from accounts.tokens import issue
from config.tests.test_schemathesis import OPERATIONS
from config.tests.test_security import post_pages, walk
from scoring import services as scoring
from scoring.models import Deal, Match, MatchVersion, ProtocolPhoto
from scoring.tests.helpers import paper_rows, sport_deals
from tournaments import discipline, ratings
from tournaments.models import (
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    RollCall,
    Round,
    Sanction,
    Season,
    Standing,
    Substitute,
    Tournament,
)
from tournaments.substitutes import set_substitute
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

ROLES = ("anon", "player", "ref_other", "ref", "chief_other", "chief", "org_other", "org", "root")
ORGANISERS = {"org_other", "org", "root"}
THIS_EVENT = {"org", "root"}
JUDGES = {"chief", "org", "root"}
WRITERS = {"ref", "chief", "org", "root"}  # this table's protocol
DESK = {"chief", "org", "root"}  # confirm, PIN
CORRECTORS = {"chief", "root"}
CREATORS = {"ref_other", "ref", "chief_other", "chief", "org_other", "org", "root"}  # standalone
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
    "POST /api/v1/tournaments/import/{token}/": {"org"},  # the importer's own review
    "PATCH /api/v1/tournaments/{id}/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/chief-referees/": THIS_EVENT,
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
    "POST /api/v1/rounds/{id}/clock/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/substitutes/": THIS_EVENT,
    "POST /api/v1/tournaments/{id}/substitutes/{substitute_id}/remove/": THIS_EVENT,
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
    "scoring:correct_preview": CORRECTORS,
    "scoring:transcribe": DESK,
    "scoring:transcribe_preview": DESK,
    "scoring:photos": WRITERS,
    "tournaments:manage_create": ORGANISERS,
    "tournaments:manage_archive_import": ORGANISERS,
    "tournaments:manage_archive_confirm": {"org"},  # the importer's own review
    "tournaments:manage_setup": THIS_EVENT,
    "tournaments:manage_chief_referees": THIS_EVENT,
    "tournaments:manage_entries": THIS_EVENT,
    "tournaments:manage_roll_call": THIS_EVENT,
    "tournaments:manage_stages": THIS_EVENT,
    "tournaments:manage_stage_start": THIS_EVENT,
    "tournaments:manage_prizes": THIS_EVENT,
    "tournaments:manage_import": THIS_EVENT,
    "tournaments:manage_entry": THIS_EVENT,
    "tournaments:manage_entry_link": THIS_EVENT,
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
    "tournaments:manage_round_clock[start]": THIS_EVENT,
    "tournaments:manage_substitutes": THIS_EVENT,
    "tournaments:manage_remove_substitute": THIS_EVENT,
    # a player of T alone (and a record of his in another tournament of T's organiser): the
    # registry's records are changed by those who organise every tournament they are in
    "tournaments:registry_player": {"org", "root"},
    "tournaments:registry_merge": {"org", "root"},
    "tournaments:registry_undo_merge": {"org", "root"},
    # the registry's ratings seed every organiser's tournaments: the site's administrator's
    "tournaments:registry_ratings": {"root"},
}


def test_the_matrix_covers_every_write() -> None:
    writes = {label for label in OPERATIONS if not label.startswith("GET ")}
    assert writes - PUBLIC == set(API), "add the new API write to the matrix"
    pages = set(post_pages())
    assert pages - PUBLIC == {key.split("[")[0] for key in PAGES}, "add the new page"


# --- the world ----------------------------------------------------------------------------------


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    """Tournament T (org, chief) and T2 (org_other, chief_other; its table refereed by
    ref_elsewhere). T: round 1 published, table 1 in play (ref), table 2 submitted (ref_other),
    table 3 confirmed; round 2 paired, not published (for the review actions; its table 2 is
    refereed by ref)."""
    users = {
        "player": make_user("player"),
        "ref_elsewhere": make_user("ref_elsewhere", "Referee"),
        "ref_other": make_user("ref_other", "Referee"),
        "ref": make_user("ref", "Referee"),
        "chief_other": make_user("chief_other", "Chief referee"),
        "chief": make_user("chief", "Chief referee"),
        "org_other": make_user("org_other", "Organiser"),
        "org": make_user("org", "Organiser"),
        "root": User.objects.create_superuser("root", password="root-pass-123"),
    }
    t = Tournament.objects.create(name="T", rounds=3, public=True, status="running")
    t.organisers.add(users["org"])
    t.chief_referees.add(users["chief"])
    t2 = Tournament.objects.create(name="T2", rounds=3, public=True)
    t2.organisers.add(users["org_other"])
    t2.chief_referees.add(users["chief_other"])
    elsewhere = add_pairs(t2, 2)
    elsewhere_table = Pairing.objects.get(round=play_round(t2, 1, [(*elsewhere, None)]))
    set_referee(elsewhere_table, users["ref_elsewhere"])
    e = add_pairs(t, 6)
    r1 = play_round(t, 1, [(e[0], e[1], None), (e[2], e[3], None), (e[4], e[5], None)])
    tables = {p.table: p for p in Pairing.objects.filter(round=r1)}
    deals = sport_deals()
    for table, who in ((1, "ref"), (2, "ref_other")):
        set_referee(tables[table], users[who])
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
    tables2 = {p.table: p for p in Pairing.objects.filter(round=r2, table__isnull=False)}
    set_referee(tables2[2], users["ref"])
    sanction = discipline.record_sanction(users["chief"], t.pk, entry_id=e[1].pk, round_number=1,
                                       kind="yellow", reason="спор")  # fmt: skip
    Entry.objects.filter(pk=e[5].pk).update(status=Entry.Status.WITHDRAWN)
    # reserves (of no club) and a substitute of round 3 to remove
    reserve = Player.objects.create(last_name="Резервов")
    spare = Player.objects.create(last_name="Запасов")
    substitute = set_substitute(users["org"], t.pk, replaced=e[2].players.first().pk,
                                player=spare.pk, from_round=3, to_round=3)  # fmt: skip
    # an archive import waiting for org's confirmation (only he confirms it; issue 25)
    from tournaments.archive import review

    pending = review.prepare(json.loads(archive_of(t)), users["org"])
    return {
        "pending": pending,
        "reserve": reserve,
        "substitute": substitute,
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
        "tables2": tables2,
        "m_unpublished": tables2[2].match_id,
    }


def set_referee(pairing: Pairing, user: User) -> None:
    Pairing.objects.filter(pk=pairing.pk).update(referee=user)
    Match.objects.filter(pk=pairing.match_id).update(referee=user)


def fingerprint() -> list[Any]:
    """Every row a write could touch."""
    models = [Tournament, Entry, EntryAbsence, Round, Pairing, PairingEntry, Sanction, Standing,
              Club, Player, Match, Deal, MatchVersion, AuditEntry, Substitute, RollCall,
              ProtocolPhoto]  # fmt: skip
    rows: list[Any] = [list(m.objects.order_by("pk").values()) for m in models]
    for through in (Tournament.organisers.through, Tournament.chief_referees.through):
        rows.append(sorted(through.objects.values_list("tournament_id", "user_id")))
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
    if path.endswith(("/finish/", "/clock/")):
        ids["rounds"] = w["r1"].pk
    if path.endswith("/reinstate/"):
        ids["entries"] = e[5].pk
    path = path.replace("{id}", str(ids.get(resource, 0))).replace("{n}", "1")
    path = path.replace("{substitute_id}", str(w["substitute"].pk))
    path = path.replace("{token}", str(w["pending"].token))
    bodies: dict[str, Any] = {
        "POST /api/v1/clubs/": {"name": "Новый клуб"},
        "POST /api/v1/players/": {"last_name": "Новиков"},
        "POST /api/v1/tournaments/": {"name": "Новый", "start_date": "2026-10-01"},
        "POST /api/v1/tournaments/import/": json.loads(archive_of(t)),
        "PATCH /api/v1/tournaments/{id}/": {"venue": "Зал 2"},
        "POST /api/v1/tournaments/{id}/chief-referees/": {
            "chief_referees": [w["users"]["chief_other"].pk]},
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
        "POST /api/v1/rounds/{id}/clock/": {"action": "start", "minutes": 30},
        "POST /api/v1/tournaments/{id}/substitutes/": {
            "replaced": e[0].players.first().pk, "player": w["reserve"].pk, "from_round": 3,
            "to_round": 3},
        "POST /api/v1/matches/": {"label": "Товарищеская"},
        "POST /api/v1/matches/{id}/deals/": w["deals"][1],
        "POST /api/v1/matches/{id}/deals/preview/": w["deals"][1],
        "PATCH /api/v1/matches/{id}/deals/{n}/": w["deals"][0],
        "POST /api/v1/matches/{id}/pin/": {"pin": "2468"},
        "POST /api/v1/matches/{id}/corrections/": {"deals": w["deals"], "reason": "опечатка"},
    }
    return method, path, bodies.get(label, {})


def archive_of(t: Tournament) -> str:
    """T's archive as another site's (T itself is here: an import of it is refused)."""
    from tournaments import archive

    doc = archive.export_tournament(t)
    doc.pop("source")
    return archive.dumps(doc)


def registry_request(name: str, w: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A player of T only, and a fresh record of the same person in another tournament of T's
    organiser (merged, for the undo, by the site's administrator)."""
    from tournaments.registry import merge

    player = w["e"][0].players.order_by("pk").first()
    if name == "tournaments:registry_ratings":
        return reverse(name), {"action": "preview", "text": "federation_id,name,rating\n"
                                                           f"RU-{player.pk},{player},1900\n"}
    if name == "tournaments:registry_player":
        return reverse(name, args=[player.pk]), {"last_name": "Переименов", "rating": 1400}
    spring = Tournament.objects.create(name="Весенний")
    spring.organisers.add(w["users"]["org"])
    twin = Player.objects.create(last_name=player.last_name, first_name="Опечатка")
    Entry.objects.create(tournament=spring, name="Пара с опечаткой").players.add(twin)
    if name == "tournaments:registry_merge":
        return reverse(name, args=[player.pk]), {"other": twin.pk}
    merge.merge(w["users"]["root"], player.pk, twin.pk)
    merge_id = AuditEntry.objects.filter(action="player.merge").latest("pk").after["merge_id"]
    return reverse(name, args=[merge_id]), {}


def page_request(key: str, w: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    name, _, action = key.partition("[")
    action = action.rstrip("]")
    t, e = w["t"].pk, w["e"]
    deal = deal_form(w["deals"][1])
    if name.startswith("scoring:") and name != "scoring:create":
        match = {"scoring:confirm": w["m2"], "scoring:pin": w["m2"], "scoring:correct": w["m3"],
                 "scoring:correct_preview": w["m3"]}.get(name, w["m1"])  # fmt: skip
        url = reverse(name, args=[match])
        if name == "scoring:amend":
            deal = deal_form(w["deals"][0])
        data: dict[str, Any] = {
            "scoring:pin": {"pin": "2468"},
            "scoring:confirm": {},
            "scoring:correct": {"deals": "\n".join(json.dumps(d) for d in w["deals"]),
                                "reason": "опечатка"},
            "scoring:correct_preview": {"deals": "\n".join(json.dumps(d) for d in w["deals"])},
            "scoring:transcribe": paper_rows(w["deals"][1:2]),
            "scoring:transcribe_preview": paper_rows(w["deals"][1:2]),
            "scoring:photos": {"photo": photo_file()},
        }.get(name, deal)  # fmt: skip
        return url, data
    kwargs: dict[str, Any] = {"pk": t}
    data = {}
    if name.startswith("tournaments:registry_"):
        return registry_request(name, w)
    if name == "scoring:create":
        return reverse(name), {"label": "Товарищеская", "rules_preset": "sport"}
    if name == "tournaments:manage_create":
        return reverse(name), setup_form(w["t"]) | {"name": "Новый"}
    if name == "tournaments:manage_archive_confirm":
        return reverse(name, kwargs={"token": w["pending"].token}), {}
    if name == "tournaments:manage_archive_import":
        from django.core.files.uploadedfile import SimpleUploadedFile

        return reverse(name), {"file": SimpleUploadedFile("a.json", archive_of(w["t"]).encode())}
    if name in ("tournaments:manage_entry", "tournaments:manage_entry_action",
                "tournaments:manage_entry_link"):
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
    if name == "tournaments:manage_round_clock":
        kwargs["number"] = 1
        data = {"minutes": 30}
    if name == "tournaments:manage_substitutes":
        data = {"replaced": e[0].players.first().pk, "player": w["reserve"].pk,
                "from_round": 3, "scope": "one"}
    if name == "tournaments:manage_remove_substitute":
        kwargs["substitute_id"] = w["substitute"].pk
    if name == "tournaments:manage_revoke_sanction":
        kwargs["sanction_id"] = w["sanction"].pk
        data = {"reason": "ошибка"}
    if name == "tournaments:manage_setup":
        data = setup_form(w["t"]) | {"venue": "Зал 2"}
    if name == "tournaments:manage_chief_referees":
        data = {"chief_referees": [w["users"]["chief_other"].pk]}
    if name == "tournaments:manage_entries":
        data = {"name": "Новая пара", "last_name_1": "Новиков", "last_name_2": "Новикова"}
    if name == "tournaments:manage_import":
        from django.core.files.uploadedfile import SimpleUploadedFile

        data = {"file": SimpleUploadedFile("e.csv", CSV.encode())}
    if name == "tournaments:manage_discipline":
        data = {"entry": e[0].pk, "round_number": 1, "kind": "yellow", "reason": "x"}
    if name == "tournaments:manage_roll_call":
        data = {"call": f"{e[0].pk}:late"}
    if name == "tournaments:manage_stages":
        data = {"kind": "knockout", "qualifiers": "4", "best_of": "3"}
    if name == "tournaments:manage_prizes":
        data = {"action": "prize", "place": "1", "amount": "100"}
    return reverse(name, kwargs=kwargs), data


def photo_file() -> Any:
    """A small JPEG, as a phone's camera sends the signed protocol."""
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (20, 20), (210, 200, 190)).save(out, "JPEG")
    return SimpleUploadedFile("protocol.jpg", out.getvalue(), content_type="image/jpeg")


def deal_form(deal: dict[str, Any]) -> dict[str, Any]:
    """A contract deal as the referee's form sends it (tiles mode)."""
    data = {"result": deal["result"], "by": deal.get("by", ""), "leader": deal.get("leader", ""),
            "mode": "tiles"}  # fmt: skip
    for seat, tiles in (deal.get("hands") or {}).items():
        data[f"hand_{seat}"] = tiles
    return data


def setup_form(t: Tournament) -> dict[str, Any]:
    from tournaments.registration import rules_form
    from tournaments.registration.forms import TournamentForm

    t.refresh_from_db()
    data = {name: getattr(t, name) for name in TournamentForm._meta.fields
            if name not in ("tie_breaks", "rules_options", "public", "end_date")}  # fmt: skip
    data |= {**rules_form.posted(t.rules_preset, t.rules_options), "public": "on",
             "tie_breaks": list(t.tie_breaks), "start_date": str(t.start_date or "2026-10-01")}
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


def refused(response: Any) -> bool:
    """401/403/404 or the login page (the confirm page, too, keeps the service's 403)."""
    if response.status_code in (401, 403, 404):
        return True
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


STRANGERS = ("player", "ref_elsewhere", "chief_other", "org_other")


@pytest.mark.parametrize("label", sorted(label for label in API if "{id}" in label))
def test_a_private_tournaments_objects_answer_404_to_any_body(label: str, world) -> None:
    """A write to an object of a private tournament is 404 for those who may not see it, before
    anything of the request is judged: a body that is not JSON, or of the wrong types, must not
    get a 400 that tells the object is there."""
    Tournament.objects.filter(pk=world["t"].pk).update(public=False)
    method, path, body = api_request(label, world)
    wrong = {key: {"x": [1]} for key in body} if isinstance(body, dict) and body else {"x": [1]}
    problems = []
    for role in STRANGERS:
        client = api_client(world, role)
        for sent in ("{not json", json.dumps(wrong)):
            response, changed = attempt(
                lambda c=client, d=sent: c.generic(method, path, d, content_type="application/json")
            )
            if response.status_code != 404 or changed:
                problems.append(f"{role} {sent[:9]!r}: {response.status_code} changed={changed}")
    assert problems == [], (label, path)


#: requests that in the matrix's world write nothing even when allowed (the answer shows the
#: permission held: a preview, or a state refusal such as a round with open tables)
NOTHING_TO_DO = {
    "tournaments:registry_ratings",  # the preview writes nothing; applying it is its own test
    "tournaments:manage_archive_import",  # the upload shows a review; the confirmation writes
    "POST /api/v1/matches/{id}/submit/",  # table 1 is not over: 400 not_finished
    "tournaments:manage_round_action[unlock]",  # the table is not locked
    "tournaments:manage_stage_start",  # no final stage set up: 409 no_stage
    "scoring:submit",  # table 1 is not over: the form says so
    "POST /api/v1/matches/{id}/deals/preview/",
    "POST /api/v1/rounds/{id}/finish/",
    "POST /api/v1/tournaments/{id}/close/",
    "POST /api/v1/tournaments/{id}/rounds/",
    "scoring:preview",
    "scoring:correct_preview",  # the protocol judged again, nothing stored
    "scoring:transcribe_preview",
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


def test_only_the_tables_referee_and_the_desk_may_try_the_captains_pin(world) -> None:
    """Was allowed: any signed-in account spent the five PIN attempts of any submitted protocol
    (and so disabled confirmation by PIN), through the API and the confirm page alike."""
    users, m2 = world["users"], world["m2"]
    scoring.set_confirm_pin(m2, users["org"], "2468")
    for role in ("player", "ref_elsewhere", "ref", "chief_other", "org_other"):
        api, page = api_client(world, role), Client()
        page.force_login(users[role])
        for _attempt in range(3):
            answer = api.post(f"/api/v1/matches/{m2}/confirm/", {"pin": "0000"},
                              content_type="application/json")  # fmt: skip
            assert answer.status_code in (403, 404), (role, answer.status_code)
            form = page.post(f"/matches/{m2}/confirm/", {"pin": "0000"})
            assert form.status_code in (403, 404), (role, form.status_code)
        match = Match.objects.get(pk=m2)
        assert (match.pin_failures, match.status) == (0, Match.Status.SUBMITTED), role
    # the captain, on the table referee's phone, still confirms with the PIN
    referee = api_client(world, "ref_other")
    wrong = referee.post(f"/api/v1/matches/{m2}/confirm/", {"pin": "1111"},
                         content_type="application/json")  # fmt: skip
    assert wrong.status_code == 403 and wrong.json()["errors"][0]["code"] == "wrong_pin"
    assert Match.objects.get(pk=m2).pin_failures == 1
    right = referee.post(f"/api/v1/matches/{m2}/confirm/", {"pin": "2468"},
                         content_type="application/json")  # fmt: skip
    assert right.status_code == 200 and right.json()["status"] == "confirmed"


def test_a_chief_referee_of_another_tournament_judges_nothing_of_this_one(world) -> None:
    """Was allowed: the Chief referee role alone corrected and sanctioned in every tournament."""
    other = api_client(world, "chief_other")
    correction = other.post(f"/api/v1/matches/{world['m3']}/corrections/",
                            {"deals": world["deals"], "reason": "x"},
                            content_type="application/json")  # fmt: skip
    assert correction.status_code in (403, 404)
    sanction = other.post(f"/api/v1/tournaments/{world['t'].pk}/sanctions/",
                          {"entry": world["e"][0].pk, "round_number": 1, "kind": "yellow",
                           "reason": "x"}, content_type="application/json")  # fmt: skip
    assert sanction.status_code in (403, 404)
    assert MatchVersion.objects.filter(match_id=world["m3"], action="correct").count() == 0
    assert Sanction.objects.filter(tournament=world["t"]).count() == 1
    # the tournament's own chief referee may
    assert api_client(world, "chief").post(
        f"/api/v1/matches/{world['m3']}/corrections/", {"deals": world["deals"], "reason": "x"},
        content_type="application/json").status_code == 200  # fmt: skip


def test_deal_writes_to_a_hidden_match_are_404_whatever_they_send(world) -> None:
    """The deal writes and the submission skip the visibility read when they succeed (only the
    match's writers get through, and they see it) and make it when they are refused: a
    stranger learns nothing of a hidden match from a 403, a 409 or a 400 about his body."""
    m = world["m_unpublished"]
    deal = world["deals"][0]
    sends = [
        ("post", f"/api/v1/matches/{m}/deals/", deal),
        ("post", f"/api/v1/matches/{m}/deals/", {**deal, "expected_version": 99}),
        ("post", f"/api/v1/matches/{m}/deals/", {**deal, "client_id": "not-a-uuid"}),
        ("post", f"/api/v1/matches/{m}/deals/", [deal]),
        ("patch", f"/api/v1/matches/{m}/deals/1/", deal),
        ("delete", f"/api/v1/matches/{m}/deals/1/", {}),
        ("post", f"/api/v1/matches/{m}/submit/", {}),
        ("post", f"/api/v1/matches/{m}/submit/", {"expected_version": 1}),
        ("post", f"/api/v1/matches/{m}/submit/", {"expected_version": "x"}),
        # the desk's writes check visibility first; their bodies are read after it too
        ("post", f"/api/v1/matches/{m}/pin/", {"pin": ["1234"]}),
        ("post", f"/api/v1/matches/{m}/confirm/", {"pin": {"a": 1}}),
        ("post", f"/api/v1/matches/{m}/corrections/", {"deals": "x"}),
    ]
    before = Match.objects.get(pk=m).version
    for role in ("player", "ref_elsewhere", "chief_other", "org_other"):
        client = api_client(world, role)
        for method, url, body in sends:
            answer = getattr(client, method)(url, body, content_type="application/json")
            assert answer.status_code == 404, (role, method, body, answer.status_code)
        for method, url, _body in sends:  # a body that is not JSON at all
            answer = getattr(client, method)(url, "{not json", content_type="application/json")
            assert answer.status_code == 404, (role, method, "not json", answer.status_code)
    assert Match.objects.get(pk=m).version == before
    # the table's referee sees it: his refusals are told as they are
    stale = api_client(world, "ref").post(f"/api/v1/matches/{m}/deals/",
                                          {**deal, "expected_version": 99},
                                          content_type="application/json")  # fmt: skip
    assert stale.status_code == 409 and stale.json()["errors"][0]["code"] == "stale_version"


# --- reads: who sees what belongs to a tournament ------------------------------------------------

READERS = ("anon", "player", "ref_elsewhere", "ref", "chief_other", "chief", "org_other", "org",
           "root")  # fmt: skip
SEE_T = {"chief", "org", "root"}  # a private tournament: its judges (and superusers)
TABLE = {"ref", "chief", "org", "root"}  # a hidden table's match: also the table's referee
MANAGERS = {"org", "root"}
NOBODY: set[str] = set()
EVERYONE = set(READERS)


@dataclass(frozen=True)
class Sees:
    """Who gets a 200 with the object (or, for a list, the list with the object in it).

    Everyone else gets 404 (or, not signed in, 401/403 or the login page); those in ``knows``
    see the tournament anyway and may be told 403. ``shows(response, w)`` says whether the
    hidden object is in a list's answer."""

    who: set[str]
    knows: set[str] = field(default_factory=set)
    shows: Callable[[Any, dict[str, Any]], bool] | None = None
    #: other answers that refuse every visitor alike (``bad_round``: no results after round 2,
    #: the same words as for a round that does not exist)
    alike: set[int] = field(default_factory=set)


def ids(key: str = "id") -> Callable[[Any, dict[str, Any]], bool]:
    def shows(response: Any, w: dict[str, Any]) -> bool:
        data = response.json()
        items = data["results"] if isinstance(data, dict) and "results" in data else data
        if isinstance(items, dict):
            items = items["matches"]
        return w["hidden_id"] in {item[key] for item in items}

    return shows


def link(template: str) -> Callable[[Any, dict[str, Any]], bool]:
    def shows(response: Any, w: dict[str, Any]) -> bool:
        return template.format(**w).encode() in response.content

    return shows


#: GETs of the API and pages that read nothing of a tournament (a global registry, the user)
GLOBAL_READS = {"GET /api/v1/clubs/", "GET /api/v1/clubs/{id}/", "GET /api/v1/me/",
                "GET /api/v1/players/", "GET /api/v1/players/{id}/", "login",
                "scoring:create", "tournaments:manage_create",
                "tournaments:manage_archive_import",
                # the shared registry: a record and its merge (``test_merge`` hides T there)
                "tournaments:registry_player", "tournaments:registry_merge",
                "tournaments:registry_ratings",
                # the caller's own account: his tokens and password (accounts/tests/test_tokens.py)
                "GET /api/v1/auth/tokens/", "account", "password_change"}  # fmt: skip

def listed_player(response: Any, w: dict[str, Any]) -> bool:
    return w["player_id"] in {item["player"] for item in response.json()["results"]}


def rated_match(response: Any, w: dict[str, Any]) -> bool:
    return w["hidden_id"] in {change["match"] for change in response.json()["changes"]}


def season_names_t(response: Any, w: dict[str, Any]) -> bool:
    data = response.json()
    items = data["results"] if "results" in data else [data]
    listed = any(w["t_id"] in item["tournaments"] for item in items)
    places = [r["tournament"] for item in items for line in item.get("table", [])
              for r in line["results"]]  # fmt: skip
    return listed or w["t_id"] in places


def ratings_or_season_url(label: str, w: dict[str, Any], player: int) -> str | None:
    """Ratings recomputed now (whatever is rated: never the private tournament's matches nor
    the unpublished round's) and a season holding T."""
    if not any(word in label for word in ("rating", "season")):
        return None
    # a player of table 3 of round 1, confirmed: rated while T is public
    place = PairingEntry.objects.filter(pairing__match_id=w["m3"]).select_related("entry").first()
    assert place is not None
    player = place.entry.players.order_by("pk").values_list("pk", flat=True)[0]
    ratings.recompute()
    season = Season.objects.get_or_create(name="Сезон проверки")[0]
    season.tournaments.add(w["t"])
    w.update(player_id=player, season_id=season.pk, t_name=w["t"].name)
    return {
        "GET /api/v1/ratings/": "/api/v1/ratings/",
        "GET /api/v1/ratings/{id}/": f"/api/v1/ratings/{player}/",
        "GET /api/v1/seasons/": "/api/v1/seasons/",
        "GET /api/v1/seasons/{id}/": f"/api/v1/seasons/{season.pk}/",
        "tournaments:ratings": reverse("tournaments:ratings"),
        "tournaments:player_rating": reverse("tournaments:player_rating", args=[player]),
        "tournaments:seasons": reverse("tournaments:seasons"),
        "tournaments:season": reverse("tournaments:season", args=[season.pk]),
        "tournaments:season_export": reverse("tournaments:season_export",
                                             args=[season.pk, "csv"]),  # fmt: skip
    }[label]


def round_two_shown(response: Any, w: dict[str, Any]) -> bool:
    """The personal page names the entry's table of the unpublished round 2."""
    return b'data-round="2"' in response.content


MATCH = Sees(TABLE)
PRIVATE = Sees(SEE_T)
MANAGED = Sees(MANAGERS, knows=SEE_T)
NO_RESULTS = Sees(NOBODY, alike={400})
#: label -> (the private tournament's object, the unpublished round's object); None: the
#: scenario has no object of that kind (an entry does not belong to a round)
READS: dict[str, tuple[Sees | None, Sees | None]] = {
    "GET /api/v1/matches/": (Sees(TABLE, shows=ids()),) * 2,
    "GET /api/v1/matches/{id}/": (MATCH, MATCH),
    "GET /api/v1/matches/{id}/deals/": (MATCH, MATCH),
    "GET /api/v1/matches/{id}/history/": (MATCH, MATCH),
    "GET /api/v1/entries/{id}/": (PRIVATE, None),
    # the entry's own page and its clock: the key is the credential, whether T is public or
    # not; an unpublished round is never named there
    "tournaments:personal": (Sees(EVERYONE), Sees(NOBODY, shows=round_two_shown)),
    "tournaments:personal_clock": (Sees(EVERYONE), None),
    "GET /api/v1/players/{id}/history/": (PRIVATE, Sees(NOBODY, shows=ids("match"))),
    "GET /api/v1/rounds/{id}/": (PRIVATE, Sees(SEE_T)),
    "GET /api/v1/rounds/{id}/clock/": (PRIVATE, Sees(SEE_T)),
    "GET /api/v1/tournaments/{id}/substitutes/": (MANAGED, None),
    "GET /api/v1/sanctions/{id}/": (PRIVATE, None),
    "GET /api/v1/tournaments/": (Sees(SEE_T, shows=ids()), None),
    "GET /api/v1/tournaments/{id}/": (PRIVATE, None),
    "GET /api/v1/tournaments/{id}/archive/": (MANAGED, None),
    "GET /api/v1/tournaments/{id}/chief-referees/": (Sees(SEE_T), None),
    "GET /api/v1/tournaments/{id}/crosstable/": (PRIVATE, NO_RESULTS),
    # T has no final stage: its bracket is empty, hidden with T (a knock-out's unpublished
    # rounds are left out as on the bracket page: tests/stages/test_bracket_api.py)
    "GET /api/v1/tournaments/{id}/bracket/": (PRIVATE, None),
    "GET /api/v1/tournaments/{id}/standings/": (PRIVATE, NO_RESULTS),
    "GET /api/v1/tournaments/{id}/entries/": (PRIVATE, None),
    "GET /api/v1/tournaments/{id}/rounds/": (PRIVATE, Sees(SEE_T, shows=ids())),
    "GET /api/v1/tournaments/{id}/sanctions/": (PRIVATE, None),
    "tournaments:home": (Sees(NOBODY, shows=link('href="/tournaments/{t_id}/"')), None),
    "tournaments:detail": (PRIVATE, Sees(NOBODY, shows=link("/tournaments/{t_id}/rounds/2/"))),
    "tournaments:round": (PRIVATE, Sees(NOBODY)),
    "tournaments:standings": (PRIVATE, Sees(NOBODY)),
    # T is not a rotation: its «at the table» page is a 404 for everyone; a private rotation's
    # page is hidden from those who may not see it (tests/rotation/test_rotation.py)
    "tournaments:rotation": (Sees(NOBODY), None),
    "tournaments:crosstable": (PRIVATE, Sees(NOBODY)),
    "tournaments:standings_export": (PRIVATE, Sees(NOBODY)),
    "tournaments:crosstable_export": (PRIVATE, Sees(NOBODY)),
    "tournaments:hall": (PRIVATE, None),  # the latest counted round: results.ledger.COUNTED
    # the final stage's page: a knock-out round shows there once published, like any round
    "tournaments:bracket": (PRIVATE, None),
    "tournaments:manage_stages": (MANAGED, None),
    # categories, clubs and the prize list (issue 30): cut from the standings, seen with them
    "tournaments:categories": (PRIVATE, None),
    "tournaments:categories_export": (PRIVATE, None),
    "tournaments:clubs": (PRIVATE, None),
    "tournaments:clubs_export": (PRIVATE, None),
    "tournaments:prizes": (PRIVATE, None),
    "tournaments:prizes_export": (PRIVATE, None),
    "tournaments:manage_prizes": (MANAGED, None),
    "tournaments:player": (PRIVATE, Sees(NOBODY, shows=link('href="/matches/{hidden_id}/"'))),
    "tournaments:manage_list": (Sees(SEE_T, shows=link('href="/manage/{t_id}/')), None),
    "tournaments:manage_archive": (MANAGED, None),
    "tournaments:manage": (MANAGED, None),
    "tournaments:manage_setup": (MANAGED, None),
    "tournaments:manage_entries": (MANAGED, None),
    "tournaments:manage_roll_call": (MANAGED, None),
    "tournaments:manage_import": (MANAGED, None),
    "tournaments:manage_entry": (MANAGED, None),
    "tournaments:manage_audit": (MANAGED, None),
    "tournaments:manage_discipline": (Sees(SEE_T), None),
    "tournaments:manage_round": (MANAGED, Sees(MANAGERS, knows=EVERYONE)),
    "tournaments:manage_round_status": (MANAGED, Sees(MANAGERS, knows=EVERYONE)),
    "tournaments:manage_round_print": (MANAGED, Sees(MANAGERS, knows=EVERYONE)),
    "tournaments:manage_round_paper": (MANAGED, Sees(MANAGERS, knows=EVERYONE)),
    # the live board (issue 17): the tournament's organisers and chief referees
    "tournaments:manage_board": (Sees(SEE_T), Sees(SEE_T, knows=EVERYONE)),
    "tournaments:manage_current_board": (Sees(SEE_T), None),
    "tournaments:round_clock": (PRIVATE, Sees(SEE_T)),
    "tournaments:manage_substitutes": (MANAGED, None),
    # ratings and seasons (issue 16): only public tournaments' published results count in them,
    # so a private tournament's matches and players, and an unpublished round's match, never show
    "GET /api/v1/ratings/": (Sees(NOBODY, shows=listed_player), None),
    "GET /api/v1/ratings/{id}/": (Sees(NOBODY), Sees(NOBODY, shows=rated_match)),
    "GET /api/v1/seasons/": (Sees(NOBODY, shows=season_names_t), None),
    "GET /api/v1/seasons/{id}/": (Sees(NOBODY, shows=season_names_t), None),
    "tournaments:ratings": (Sees(NOBODY, shows=link('data-player="{player_id}"')), None),
    "tournaments:player_rating": (Sees(NOBODY),
                                  Sees(NOBODY, shows=link('data-match="{hidden_id}"'))),
    "tournaments:seasons": (Sees(NOBODY, shows=link('data-counted="1"')), None),
    "tournaments:season": (Sees(NOBODY, shows=link('href="/tournaments/{t_id}/standings/"')),
                           None),
    "tournaments:season_export": (Sees(NOBODY, shows=link("{t_name}")), None),
    "scoring:list": (Sees(TABLE, shows=link('href="/matches/{hidden_id}/"')),) * 2,
    "scoring:sheet": (MATCH, MATCH),
    "scoring:submit": (MATCH, MATCH),
    "scoring:confirm": (MATCH, MATCH),
    "scoring:correct": (Sees({"chief", "root"}, knows=TABLE),) * 2,
    "scoring:transcribe": (Sees(DESK, knows=TABLE),) * 2,
    "scoring:history": (MATCH, MATCH),
    "scoring:photo": (MATCH, MATCH),
    "scoring:print": (MATCH, MATCH),
    "scoring:pdf": (MATCH, MATCH),
    "scoring:clock": (MATCH, MATCH),
}


def get_pages() -> set[str]:
    """Site pages (not the API, not the admin) whose view answers GET."""
    names = set()
    for name, view in walk(get_resolver().url_patterns):
        module = getattr(view, "__module__", "") or ""
        if view is None or module.startswith(("rest_framework", "drf_spectacular")):
            continue
        if name.startswith("api") or ".api" in module or module.endswith("archive_api"):
            continue
        if hasattr(view, "get") and "get" in getattr(view, "http_method_names", ["get"]):
            names.add(name)
    return names


def test_the_matrix_covers_every_read() -> None:
    reads = {label for label in OPERATIONS if label.startswith("GET ")} | get_pages()
    assert reads - GLOBAL_READS == set(READS), "add the new read to the matrix"


def read_url(label: str, scenario: str, w: dict[str, Any]) -> str:
    """The URL of the private tournament's object (round 1, table 1: ref's) or of the
    unpublished round's (round 2, table 2: ref's), and ``w["hidden_id"]`` for lists."""
    t, private = w["t"].pk, scenario == "private"
    r = w["r1"] if private else w["r2"]
    m = w["m1"] if private else w["m_unpublished"]
    player = w["e"][0].players.first().pk
    hidden = {"GET /api/v1/tournaments/": t, "GET /api/v1/tournaments/{id}/rounds/": r.pk}
    w.update(t_id=t, hidden_id=hidden.get(label, m))
    results = "" if private else "?round=2"
    special = ratings_or_season_url(label, w, player)
    if special is not None:
        return special
    if label.startswith("GET "):
        path = label[4:]
        resource = path.split("/")[3]
        ident = {"matches": m, "entries": w["e"][0].pk, "players": player, "rounds": r.pk,
                 "sanctions": w["sanction"].pk, "tournaments": t}[resource]  # fmt: skip
        results_of = path.endswith(("/standings/", "/crosstable/"))
        return path.replace("{id}", str(ident)) + (results if results_of else "")
    if label == "scoring:photo":  # a photograph of the signed protocol, kept with the match
        from scoring.models import Match
        from scoring.services.photos import attach_photo

        photo = attach_photo(w["users"]["root"], m, photo_file())
        assert Match.objects.filter(pk=m).exists()
        return reverse(label, args=[m, photo.pk])
    if label.startswith("scoring:"):
        return reverse(label, args=[m]) if label != "scoring:list" else reverse(label)
    kwargs: dict[str, Any] = {"pk": t}
    if label in ("tournaments:home", "tournaments:manage_list"):
        return reverse(label)
    if label == "tournaments:player":
        return reverse(label, args=[player])
    if label.startswith("tournaments:personal"):
        return reverse(label, args=[w["e"][0].token])
    if label in ("tournaments:round", "tournaments:manage_round", "tournaments:manage_round_status",
                 "tournaments:manage_round_print", "tournaments:manage_round_paper",
                 "tournaments:manage_board",
                 "tournaments:round_clock"):  # fmt: skip
        kwargs["number"] = r.number
    if label == "tournaments:manage_entry":
        kwargs["entry_id"] = w["e"][0].pk
    if label.endswith("_export"):
        kwargs["fmt"] = "csv"
    suffix = results if label.split(":")[1] in (
        "standings", "crosstable", "standings_export", "crosstable_export") else ""
    return reverse(label, kwargs=kwargs) + suffix


def read_problem(role: str, rule: Sees, response: Any, w: dict[str, Any]) -> str | None:
    code = response.status_code
    if rule.shows is not None:  # a list: the object is in it for those who see it, only
        if code != 200:
            hidden_ok = role == "anon" and (code in (401, 403) or is_login(response))
            return None if hidden_ok or role not in rule.who else f"{role}: {code}"
        shown = rule.shows(response, w)
        return None if shown == (role in rule.who) else f"{role}: listed={shown}"
    if role in rule.who:
        return None if code == 200 else f"{role} refused ({code})"
    if code == 404 or (role == "anon" and (code in (401, 403) or is_login(response))):
        return None
    if (code == 403 and role in rule.knows) or code in rule.alike:
        return None
    return f"{role} not hidden ({code})"


def is_login(response: Any) -> bool:
    return response.status_code == 302 and response["Location"].startswith("/login/")


def reader(w: dict[str, Any], role: str, api: bool) -> Client:
    if api:
        return api_client(w, role)
    client = Client()
    if role != "anon":
        client.force_login(w["users"][role])
    return client


@pytest.mark.parametrize("label", sorted(READS))
def test_read_matrix(label: str, world) -> None:
    problems = []
    for scenario, rule in zip(("unpublished", "private"), READS[label][::-1], strict=True):
        if scenario == "private":
            Tournament.objects.filter(pk=world["t"].pk).update(public=False)
        if rule is None:
            continue
        url = read_url(label, scenario, world)
        for role in READERS:
            response = reader(world, role, label.startswith("GET ")).get(url)
            problem = read_problem(role, rule, response, world)
            if problem:
                problems.append(f"{scenario} {url}: {problem}")
    assert problems == [], label
