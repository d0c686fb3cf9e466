"""The audit log: every change to a tournament's setup, registration, rounds, tables, sanctions
and imports leaves an entry with who, when, what and the changed fields before and after; the
organisers read it on /manage/<pk>/audit/ and the admin shows it read-only."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from accounts.models import AuditEntry
from scoring.models import MatchVersion
from scoring.tests.helpers import sport_deals
from tournaments import archive, discipline, errors, registration, rounds
from tournaments.models import Pairing, Round, Tournament
from tournaments.rounds import finish_round
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


def entries(tournament: Tournament, action: str | None = None) -> list[AuditEntry]:
    rows = AuditEntry.objects.filter(tournament_id=tournament.pk).order_by("pk")
    return list(rows.filter(action=action) if action else rows)


def only(tournament: Tournament, action: str) -> AuditEntry:
    found = entries(tournament, action)
    assert len(found) == 1, [e.action for e in entries(tournament)]
    return found[0]


def test_setup_changes_keep_only_the_changed_fields(tournament, organiser) -> None:
    registration.update_tournament(organiser, tournament.pk, venue="Клуб «Дубль»", rounds=7)
    entry = only(tournament, "tournament.update")
    assert entry.user == organiser and entry.username == "org"
    assert entry.object_type == "tournament" and entry.object_id == str(tournament.pk)
    assert entry.before == {"venue": tournament.venue, "rounds": 5}
    assert entry.after == {"venue": "Клуб «Дубль»", "rounds": 7}
    registration.update_tournament(organiser, tournament.pk, rounds=7)  # no change, no entry
    assert len(entries(tournament, "tournament.update")) == 1


def test_a_refused_change_leaves_no_entry(tournament, organiser, other_organiser) -> None:
    with pytest.raises(errors.NotAllowed):
        registration.update_tournament(other_organiser, tournament.pk, rounds=9)
    with pytest.raises(errors.TournamentError):
        registration.update_tournament(organiser, tournament.pk, rounds=-1)
    assert entries(tournament) == []


def test_creating_a_tournament_is_logged(organiser) -> None:
    created = registration.create_tournament(organiser, name="Осенний", start_date="2026-10-01")
    entry = only(created, "tournament.create")
    assert entry.after["name"] == "Осенний" and entry.before is None


def test_entries_add_edit_withdraw_reinstate_and_absence(tournament, organiser) -> None:
    added = registration.add_entry(organiser, tournament.pk, name="Дубль", seed=3,
                               new_players=[("Иванов", "Пётр"), ("Петров", "Иван")])  # fmt: skip
    entry = only(tournament, "entry.add")
    assert entry.object_id == str(added.pk) and entry.after["name"] == "Дубль"
    assert entry.after["seed"] == 3 and len(entry.after["players"]) == 2
    registration.update_entry(organiser, added.pk, name="Дубль-2", seed=3)
    edit = only(tournament, "entry.update")
    assert (edit.before, edit.after) == ({"name": "Дубль"}, {"name": "Дубль-2"})
    registration.withdraw_entry(organiser, added.pk)
    registration.reinstate_entry(organiser, added.pk)
    assert only(tournament, "entry.withdraw").after == {"status": "withdrawn"}
    assert only(tournament, "entry.reinstate").before == {"status": "withdrawn"}
    registration.set_absence(organiser, added.pk, 2, True, "работа")
    absence = only(tournament, "entry.absence")
    assert absence.before == {"round": 2, "absent": False, "reason": ""}
    assert absence.after == {"round": 2, "absent": True, "reason": "работа"}


def test_csv_and_archive_imports_are_logged(tournament, organiser, pairs) -> None:
    text = "entry;last_name;first_name\nДубль;Иванов;Пётр\nДубль;Петров;Иван\n"
    registration.import_csv(organiser, tournament.pk, text)
    assert only(tournament, "entry.import").after["entries"] == 1
    copy_ = archive.import_tournament(
        json.loads(archive.dumps(archive.export_tournament(tournament))), organiser
    )
    imported = only(copy_, "tournament.import")
    assert imported.user == organiser and imported.after["name"] == copy_.name


def test_pairing_review_publication_and_finish(
    tournament, organiser, referee, pairs, django_capture_on_commit_callbacks
) -> None:
    e = pairs(tournament, 4)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.start_pairing(organiser, tournament.pk)
    assert only(tournament, "round.pair").after == {"number": 1, "status": "pairing"}
    table1 = Pairing.objects.get(round=round_, table=1)
    a, b = [p.entry_id for p in table1.places.all()][:1] + [
        p.entry_id for p in Pairing.objects.get(round=round_, table=2).places.all()
    ][:1]
    rounds.swap(organiser, round_.pk, a, b)
    swap = only(tournament, "round.swap")
    assert swap.before[str(a)]["table"] == 1 and swap.after[str(a)]["table"] == 2
    assert swap.before[str(b)]["table"] == 2 and swap.after[str(b)]["table"] == 1
    rounds.set_locked(organiser, table1.pk, True)
    assert only(tournament, "pairing.lock").after == {"table": 1, "locked": True}
    with django_capture_on_commit_callbacks(execute=True):
        rounds.regenerate(organiser, round_.pk)
    assert only(tournament, "round.regenerate").after["locked_tables"] == [1]
    rounds.assign_referee(organiser, table1.pk, referee)
    assert only(tournament, "pairing.referee").after == {"table": 1, "referee": referee.pk}
    rounds.publish(organiser, round_.pk)
    assert only(tournament, "round.publish").before == {"status": "paired"}
    assert {x.pk for x in e}  # the entries stay


def test_finishing_a_round_sanctions_and_closing(tournament, organiser, pairs) -> None:
    a, b = pairs(tournament, 2)
    Tournament.objects.filter(pk=tournament.pk).update(rounds=1, status="running")
    round_ = play_round(tournament, 1, [(a, b, (120, 80))])
    chief = make_user("chief", "Chief referee")
    tournament.chief_referees.add(chief)  # chief referees are per tournament
    sanction = discipline.record_sanction(chief, tournament.pk, entry_id=b.pk, round_number=1,
                                       kind="yellow", reason="спор")  # fmt: skip
    recorded = only(tournament, "sanction.record")
    assert recorded.user == chief and recorded.object_id == str(sanction.pk)
    assert recorded.after["kind"] == "yellow" and recorded.after["entry"] == b.pk
    discipline.revoke_sanction(organiser, sanction.pk, "ошибка")
    revoked = only(tournament, "sanction.revoke")
    assert revoked.user == organiser
    assert revoked.after == {"active": False, "revoke_reason": "ошибка"}
    finish_round(organiser, round_.pk)
    assert only(tournament, "round.finish").before == {"status": Round.Status.PUBLISHED}
    finish_round(organiser, round_.pk)  # already finished: no second entry
    rounds.close_tournament(organiser, tournament.pk)
    assert only(tournament, "tournament.close").after == {"status": "finished"}


def test_finish_through_the_api_and_the_page_is_logged(tournament, organiser, pairs,
                                                       client) -> None:  # fmt: skip
    a, b, c, d = pairs(tournament, 4)
    r1 = play_round(tournament, 1, [(a, b, (120, 80))])
    r2 = play_round(tournament, 2, [(c, d, (100, 90))])
    client.force_login(organiser)
    assert client.post(f"/manage/{tournament.pk}/rounds/1/finish/").status_code == 302
    assert client.post(f"/api/v1/rounds/{r2.pk}/finish/").status_code == 200
    assert [e.object_id for e in entries(tournament, "round.finish")] == [str(r1.pk), str(r2.pk)]


def test_protocol_changes_are_kept_by_the_match_history(tournament, organiser, pairs,
                                                        client) -> None:  # fmt: skip
    """Results: every protocol change is a MatchVersion row (who, when, before/after); the audit
    page lists them next to the tournament's own entries."""
    from scoring import services as scoring

    a, b = pairs(tournament, 2)
    round_ = play_round(tournament, 1, [(a, b, None)])
    match = Pairing.objects.get(round=round_, table=1).match
    chief = make_user("chief", "Chief referee")
    tournament.chief_referees.add(chief)  # chief referees are per tournament
    scoring.record_deal(match.pk, sport_deals()[0], chief)
    row = MatchVersion.objects.filter(match=match, action="record_deal").get()
    assert row.user == chief and row.after is not None
    registration.update_tournament(organiser, tournament.pk, venue="<b>Зал</b>")
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/audit/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-action="tournament.update"' in html and 'data-action="record_deal"' in html
    assert "<b>Зал</b>" not in html and "&lt;b&gt;Зал&lt;/b&gt;" in html
    assert f'href="/manage/{tournament.pk}/audit/"' in html  # the tab in the nav


def test_the_audit_page_is_for_the_tournaments_organisers(
    tournament, organiser, other_organiser, client
) -> None:
    assert client.get(f"/manage/{tournament.pk}/audit/").status_code == 302  # to login
    client.force_login(other_organiser)
    assert client.get(f"/manage/{tournament.pk}/audit/").status_code == 403
    client.force_login(make_user("chief", "Chief referee"))
    assert client.get(f"/manage/{tournament.pk}/audit/").status_code == 403


def test_the_admin_shows_the_log_read_only(tournament, organiser, client) -> None:
    registration.update_tournament(organiser, tournament.pk, rounds=6)
    admin = User.objects.create_superuser("root", password="x-pass-1234")
    client.force_login(admin)
    entry = only(tournament, "tournament.update")
    assert client.get("/admin/accounts/auditentry/").status_code == 200
    page = client.get(f"/admin/accounts/auditentry/{entry.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.get("/admin/accounts/auditentry/add/").status_code == 403
    assert client.post(f"/admin/accounts/auditentry/{entry.pk}/delete/",
                       {"post": "yes"}).status_code == 403  # fmt: skip
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
