"""Saving a form changes what the user meant to change and nothing else, in both languages.

Every page with a form of the organiser and the chief referee is loaded as they would load it
(the test Client with the language cookie), its form is taken exactly as rendered and sent as a
browser would send it (``config.tests.browser_forms``: a value the input type cannot hold is
dropped, unchecked boxes are left out, a select sends its selected option), and every row of
the database is compared before and after:

* an edit form sent back unchanged is accepted and changes nothing;
* a create or action form stores exactly what was typed or chosen, and nothing else.

A new form is one line in ``CASES``: the page, the form, what is typed, what may change.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from config.tests.browser_forms import FormPage
from scoring import services as scoring
from scoring.models import Deal, Match
from scoring.tests.helpers import sport_deals
from tournaments import archive, discipline
from tournaments.models import Entry, EntryAbsence, Pairing, Round, Tournament
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs, make_user

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]
APPS = ("tournaments", "scoring", "accounts", "auth")
#: rows that change on every request and say nothing about the data
IGNORED = {"auth.user": {"last_login"}}


# --- the world ----------------------------------------------------------------------------------


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    """A running tournament with every setup field away from its default; round 1 published
    (table 1 in play, table 2 submitted with a captain's PIN, table 3 confirmed), round 2 paired;
    a sanction; table 1 of round 2 refereed by a superuser (who holds every role)."""
    org = make_user("org", "Organiser")
    chief = make_user("chief", "Chief referee")
    ref = make_user("ref", "Referee")
    root = User.objects.create_superuser("root", password="root-pass-123", first_name="Главный")
    t = Tournament.objects.create(
        name="Кубок «Дубль»", start_date=datetime.date(2026, 5, 25),
        end_date=datetime.date(2026, 5, 27), venue="Зал «Север», Москва", rules_preset="sport",
        rules_options={"deals": 12, "bonus_on_fish": True}, format="pairs", system="swiss",
        rounds=5, status="running", public=True, points_win=3, points_draw=1, points_loss=0,
        tie_breaks=["difference", "buchholz"], bye_result="draw", club_avoidance="strict",
        club_strict_until=2, individual_federation=True, first_round="lot", acceleration="baku",
        yellow_card_points=5, red_card_points=30,
    )  # fmt: skip
    t.organisers.add(org)
    t.chief_referees.add(chief)  # chief referees judge the tournaments they are appointed to
    e = add_pairs(t, 6)
    Entry.objects.filter(pk=e[3].pk).update(joins_round=2)
    r1 = play_round(t, 1, [(e[0], e[1], None), (e[2], e[3], None), (e[4], e[5], None)])
    tables = {p.table: p for p in Pairing.objects.filter(round=r1)}
    deals = sport_deals()
    for table in (1, 2):
        Pairing.objects.filter(pk=tables[table].pk).update(referee=ref)
        Match.objects.filter(pk=tables[table].match_id).update(referee=ref)
    m1, m2, m3 = (tables[n].match_id for n in (1, 2, 3))
    scoring.record_deal(m1, deals[0], ref)
    for deal in deals:
        scoring.record_deal(m2, deal, ref)
        scoring.record_deal(m3, deal, chief)
    scoring.submit(m2, ref)
    scoring.set_confirm_pin(m2, org, "2468")
    scoring.submit(m3, chief)
    scoring.confirm(m3, org)
    r2 = play_round(t, 2, [(e[0], e[2], None), (e[1], e[4], None)], byes=[e[5]],
                    status=Round.Status.PAIRED)  # fmt: skip
    tables2 = {p.table: p for p in Pairing.objects.filter(round=r2, table__isnull=False)}
    Pairing.objects.filter(pk=tables2[1].pk).update(referee=root)
    Pairing.objects.filter(pk=tables2[2].pk).update(referee=ref)
    EntryAbsence.objects.create(entry=e[4], round_number=5, reason="работа")  # set by the API
    sanction = discipline.record_sanction(chief, t.pk, entry_id=e[1].pk, round_number=1,
                                          kind="yellow", reason="спор\nс судьёй")  # fmt: skip
    # and one with every setup field left empty or at its default, and an entry without a club
    bare = Tournament.objects.create(name="Без дат")
    bare.organisers.add(org)
    lone = Entry.objects.create(tournament=bare, name="Одиночка")
    return {"users": {"org": org, "chief": chief, "ref": ref, "root": root}, "t": t, "e": e,
            "m1": m1, "m2": m2, "m3": m3, "tables2": tables2, "sanction": sanction,
            "bare": bare, "lone": lone}  # fmt: skip


# --- every row, before and after ----------------------------------------------------------------


def rows() -> dict[str, dict[Any, dict[str, Any]]]:
    out = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            ignored = IGNORED.get(model._meta.label_lower, set())
            out[model._meta.label_lower] = {
                row["id"]: {k: v for k, v in row.items() if k not in ignored}
                for row in model.objects.values()
            }
    return out


@dataclass
class Diff:
    added: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    removed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    changed: dict[str, dict[Any, dict[str, tuple[Any, Any]]]] = field(default_factory=dict)

    @classmethod
    def between(cls, before: dict[str, Any], after: dict[str, Any]) -> Diff:
        diff = cls()
        for model, old in before.items():
            new = after[model]
            if added := [new[pk] for pk in new.keys() - old.keys()]:
                diff.added[model] = added
            if removed := [old[pk] for pk in old.keys() - new.keys()]:
                diff.removed[model] = removed
            for pk in old.keys() & new.keys():
                fields = {k: (old[pk][k], new[pk][k]) for k in old[pk] if old[pk][k] != new[pk][k]}
                if fields:
                    diff.changed.setdefault(model, {})[pk] = fields
        return diff

    def models(self) -> set[str]:
        return set(self.added) | set(self.removed) | set(self.changed)

    def one_added(self, model: str) -> dict[str, Any]:
        rows = self.added.get(model, [])
        assert len(rows) == 1, f"one new {model} expected: {rows}"
        return rows[0]


# --- the cases ----------------------------------------------------------------------------------

Check = Callable[[Diff, dict[str, Any]], None]


@dataclass
class Case:
    """A page's form: ``url(world)``, the form (``#id`` or part of its action), what the user
    types (``fill(world)``), who sends it, the models that may change and what must be stored.
    Without ``fill`` and ``touches`` it is an edit form sent back unchanged."""

    url: Callable[[dict[str, Any]], str]
    form: str | Callable[[dict[str, Any]], dict[str, Any]]
    fill: Callable[[dict[str, Any]], dict[str, Any]] = lambda w: {}
    user: str = "org"
    touches: set[str] = field(default_factory=set)
    check: Check = lambda diff, w: None
    #: the answer: a redirect after a save, 400 when the form is shown again with its errors
    status: int = 302
    #: nothing was typed where something must be: an error is shown and nothing changes
    refused: bool = False
    #: ... and the browser itself does not send the form (a required field is empty)
    blocked: bool = False

    def locate(self, w: dict[str, Any]) -> dict[str, Any]:
        return {"selector": self.form} if isinstance(self.form, str) else self.form(w)


def _absence(diff: Diff, w: dict[str, Any]) -> None:
    row = diff.one_added("tournaments.entryabsence")
    assert (row["entry_id"], row["round_number"]) == (w["e"][0].pk, 4)


def _new_entry(diff: Diff, w: dict[str, Any]) -> None:
    row = diff.one_added("tournaments.entry")
    assert (row["name"], row["seed"], row["club_id"]) == ("Новая «пара»", 7, w["e"][1].club_id)
    names = {(p["last_name"], p["first_name"]) for p in diff.added["tournaments.player"]}
    assert names == {("Новиков", "Пётр"), ("Новикова", "Анна")}


def _imported_entries(diff: Diff, w: dict[str, Any]) -> None:
    assert [r["name"] for r in diff.added["tournaments.entry"]] == ["Новиков – Новикова"]


def _new_tournament(diff: Diff, w: dict[str, Any]) -> None:
    row = diff.one_added("tournaments.tournament")
    assert row["name"] == "Осенний «Дубль»"
    assert (row["start_date"], row["end_date"]) == (datetime.date(2026, 10, 3),
                                                    datetime.date(2026, 10, 4))  # fmt: skip
    assert row["rules_options"] == {"target": 125}
    assert row["tie_breaks"] == ["wins", "points"]
    assert (row["public"], row["red_card_points"]) == (True, 40)


def _imported_tournament(diff: Diff, w: dict[str, Any]) -> None:
    """The review waits with the archive's settings as sent (issue 25: nothing else written)."""
    row = diff.one_added("tournaments.pendingimport")
    settings = row["data"]["tournament"]
    assert settings["name"] == w["t"].name and settings["rounds"] == w["t"].rounds


def _sanction(diff: Diff, w: dict[str, Any]) -> None:
    row = diff.one_added("tournaments.sanction")
    assert (row["entry_id"], row["round_number"], row["kind"]) == (w["e"][2].pk, 1, "red")
    assert row["game_points"] == 30  # the tournament's red card
    assert row["reason"].splitlines() == ["грубость", "за столом 2"]


def _revoked(diff: Diff, w: dict[str, Any]) -> None:
    change = diff.changed["tournaments.sanction"][w["sanction"].pk]
    assert change["revoke_reason"] == ("", "ошибка судьи")


def _locked(diff: Diff, w: dict[str, Any]) -> None:
    assert diff.changed["tournaments.pairing"] == {w["tables2"][2].pk: {"locked": (False, True)}}


def _new_match(diff: Diff, w: dict[str, Any]) -> None:
    row = diff.one_added("scoring.match")
    assert (row["label"], row["table"], row["rules_preset"]) == ("Товарищеская", "7", "kozel")
    assert row["seat_n_id"] == w["e"][0].players.order_by("pk").first().pk


def _deals_kept(diff: Diff, w: dict[str, Any]) -> None:
    deals = Deal.objects.filter(match_id=w["m3"]).order_by("n").values_list("record", flat=True)
    assert [d for d in deals] == [_clean(d) for d in sport_deals()]


def _clean(deal: dict[str, Any]) -> dict[str, Any]:
    from scoring.services.state import _clean_record

    return _clean_record(deal)


def _confirmed(diff: Diff, w: dict[str, Any]) -> None:
    assert diff.changed["scoring.match"][w["m2"]]["status"] == ("submitted", "confirmed")


def _deleted(diff: Diff, w: dict[str, Any]) -> None:
    assert [d["match_id"] for d in diff.removed["scoring.deal"]] == [w["m1"]]
    assert not Deal.objects.filter(match_id=w["m1"]).exists()


def _pin(diff: Diff, w: dict[str, Any]) -> None:
    assert set(diff.changed["scoring.match"][w["m1"]]) >= {"confirm_pin"}


AUDIT = "accounts.auditentry"
CSV = "entry;last_name;first_name\nНовые;Новиков;Пётр\nНовые;Новикова;Анна\n"


def manage(name: str, **kwargs: Any) -> Callable[[dict[str, Any]], str]:
    return lambda w: reverse(f"tournaments:{name}", kwargs={"pk": w["t"].pk, **kwargs})


CASES: dict[str, Case] = {
    # edit forms: sent back unchanged, nothing changes
    "setup": Case(manage("manage_setup"), "#setup-form"),
    "setup, every field empty or default": Case(
        lambda w: reverse("tournaments:manage_setup", args=[w["bare"].pk]), "#setup-form"),
    "entry without club or seed": Case(
        lambda w: reverse("tournaments:manage_entry", args=[w["bare"].pk, w["lone"].pk]),
        "#entry-edit-form"),
    "entry": Case(lambda w: reverse("tournaments:manage_entry", args=[w["t"].pk, w["e"][3].pk]),
                  "#entry-edit-form"),
    "referee of a table, a superuser": Case(manage("manage_round", number=2), lambda w: {
        "action": "/referee/", "holding": {"pairing": w["tables2"][1].pk}}),
    "referee of a table": Case(manage("manage_round", number=2), lambda w: {
        "action": "/referee/", "holding": {"pairing": w["tables2"][2].pk}}),
    # create and action forms: what was typed is stored, nothing else changes
    "new tournament": Case(
        lambda w: reverse("tournaments:manage_create"), "#setup-form",
        fill=lambda w: {"name": "Осенний «Дубль»", "start_date": "2026-10-03",
                        "end_date": "2026-10-04", "classic_target": "125",
                        "tie_breaks": ["wins", "points"], "public": True},
        touches={"tournaments.tournament", "tournaments.tournament_organisers", AUDIT},
        check=_new_tournament,
    ),  # fmt: skip
    "add entry": Case(
        manage("manage_entries"), "#entry-form",
        fill=lambda w: {"name": "Новая «пара»", "seed": "7", "club": w["e"][1].club_id,
                        "last_name_1": "Новиков", "first_name_1": "Пётр",
                        "last_name_2": "Новикова", "first_name_2": "Анна"},
        touches={"tournaments.entry", "tournaments.entry_players", "tournaments.player", AUDIT},
        check=_new_entry,
    ),  # fmt: skip
    "absence": Case(
        manage("manage_entries"), lambda w: {"action": f"/entries/{w['e'][0].pk}/absence/"},
        fill=lambda w: {"round_number": "4"}, touches={"tournaments.entryabsence", AUDIT},
        check=_absence,
    ),
    "absence already recorded, with its reason": Case(manage("manage_entries"), lambda w: {
        "action": f"/entries/{w['e'][4].pk}/absence/"}, fill=lambda w: {"round_number": "5"}),
    "absence, nothing typed": Case(manage("manage_entries"), lambda w: {
        "action": f"/entries/{w['e'][0].pk}/absence/"}, refused=True),
    "CSV import": Case(
        manage("manage_entries"), "#import-form",
        fill=lambda w: {"file": SimpleUploadedFile("e.csv", CSV.encode())},
        touches={"tournaments.entry", "tournaments.entry_players", "tournaments.player", AUDIT},
        check=_imported_entries,
    ),
    "lock a table": Case(
        manage("manage_round", number=2), lambda w: {
            "action": "/lock/", "holding": {"pairing": w["tables2"][2].pk}},
        touches={"tournaments.pairing", AUDIT}, check=_locked,
    ),
    "swap, one entry twice": Case(manage("manage_round", number=2), "#swap-form", fill=lambda w: {
        f"entry_{x}": w["tables2"][1].places.first().entry_id for x in "ab"}, refused=True),
    "sanction": Case(
        manage("manage_discipline"), "#sanction-form", user="chief",
        fill=lambda w: {"entry": w["e"][2].pk, "round_number": "1", "kind": "red",
                        "reason": "грубость\nза столом 2"},
        touches={"tournaments.sanction", AUDIT}, check=_sanction,
    ),  # fmt: skip
    "sanction, nothing typed": Case(manage("manage_discipline"), "#sanction-form",
                                    user="chief", blocked=True),  # fmt: skip
    "revoke": Case(
        manage("manage_discipline"), lambda w: {
            "action": f"/discipline/{w['sanction'].pk}/revoke/"}, user="chief",
        fill=lambda w: {"reason": "ошибка судьи"},
        touches={"tournaments.sanction", AUDIT}, check=_revoked,
    ),
    "archive import": Case(  # the upload shows the review; only the confirmation writes
        lambda w: reverse("tournaments:manage_archive_import"), "#archive-form",
        fill=lambda w: {"file": SimpleUploadedFile("t.json", archive.dumps(
            {k: v for k, v in archive.export_tournament(w["t"]).items()
             if k != "source"}).encode())},
        touches={"tournaments.pendingimport"}, status=200,
        check=_imported_tournament,
    ),  # fmt: skip
    "new match": Case(
        lambda w: reverse("scoring:create"), "#match-form",
        fill=lambda w: {"label": "Товарищеская", "table": "7", "rules_preset": "kozel",
                        "seat_N": w["e"][0].players.order_by("pk").first().pk},
        touches={"scoring.match", "scoring.matchversion", "scoring.creationkey"},
        check=_new_match,
    ),  # fmt: skip
    "correction, deals as shown": Case(
        lambda w: reverse("scoring:correct", args=[w["m3"]]), "#correct-form", user="chief",
        fill=lambda w: {"reason": "проверка"},
        touches={"scoring.match", "scoring.deal", "scoring.matchversion"}, check=_deals_kept,
    ),  # fmt: skip
    "confirm with the PIN": Case(
        lambda w: reverse("scoring:confirm", args=[w["m2"]]), "#pin-form", user="ref",
        fill=lambda w: {"pin": "2468"},
        touches={"scoring.match", "scoring.matchversion"}, check=_confirmed,
    ),
    "issue a PIN": Case(
        lambda w: reverse("scoring:sheet", args=[w["m1"]]), "#pin-issue-form",
        fill=lambda w: {"pin": "1357"}, touches={"scoring.match", "scoring.matchversion"},
        check=_pin,
    ),
    "delete the last deal": Case(
        lambda w: reverse("scoring:sheet", args=[w["m1"]]),
        lambda w: {"action": "/deals/last/delete/"},
        touches={"scoring.match", "scoring.deal", "scoring.matchversion"}, check=_deleted,
    ),
    "deal, nothing tapped": Case(lambda w: reverse("scoring:sheet", args=[w["m1"]]),
                                 "#deal-form", status=400, refused=True),  # fmt: skip
}


def error_messages(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "error"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_form_saves_what_was_meant_and_nothing_else(name: str, language: str, world) -> None:
    case = CASES[name]
    client = Client()
    client.force_login(world["users"][case.user])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    form = FormPage.load(client, case.url(world)).form(**case.locate(world))
    form.fill(case.fill(world))
    if case.blocked:
        assert form.problems(), "the browser sends this form: give the case a status"
        return
    before = rows()
    response = form.submit(client)
    diff = Diff.between(before, rows())
    assert response.status_code == case.status, response.content.decode()[:3000]
    errors = error_messages(response)
    if case.refused:
        assert errors or response.status_code == 400, "an error must say what is missing"
    else:
        assert not errors, errors
    assert diff.models() <= case.touches, f"changed what the form did not mean to: {diff}"
    case.check(diff, world)
