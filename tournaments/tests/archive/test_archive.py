"""The tournament archive: export, import, a round trip that restores everything, refusals that
write nothing, and the pages, API and commands that use them."""

from __future__ import annotations

import copy
import datetime
import io
import json
import random
import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.tokens import issue
from rules import Judge, make_rules
from rules.simulate import play_match
from scoring import services as scoring
from scoring.errors import Conflict as ScoringConflict
from scoring.models import Deal, Match, MatchVersion
from tournaments import access, archive, discipline, registration, results, rounds
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import (
    ArchiveImport,
    Category,
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Prize,
    Round,
    Sanction,
    Stage,
    Standing,
    Tournament,
)
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

SEATS = ("seat_n", "seat_e", "seat_s", "seat_w")
#: which keys of which list refer to which list (written here, not taken from the module)
REFS: dict[str, dict[str, str]] = {
    "players": {"club": "clubs"},
    "entries": {"club": "clubs", "team": "entries", "players": "players"},
    "absences": {"entry": "entries"},
    "stages": {"seeds": "entries", "members": "entries"},
    "rounds": {"stage": "stages"},
    "pairings": {"round": "rounds", "match": "matches", **dict.fromkeys(SEATS, "players")},
    "places": {"entry": "entries"},
    "matches": dict.fromkeys(SEATS, "players"),
    "sanctions": {"entry": "entries", "player": "players", "pairing": "pairings"},
    "standings": {"round": "rounds", "entry": "entries"},
    "categories": {"club": "clubs", "entries": "entries"},
    "prizes": {"category": "categories"},
}
LISTS = ("clubs", "players", "entries", "absences", "stages", "rounds", "matches", "pairings",
         "sanctions", "standings", "categories", "prizes")  # fmt: skip


def as_imported(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as an import reproduces it: an archive grants no rights, so the copy has no
    chief referees (only the importer organises it; docs/security.md), and it arrives private
    and unrated (issue 25)."""
    return {**doc, "tournament": {**doc["tournament"], "chief_referees": [], "public": False,
                                  "rated": False}}


def normalise(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with ``exported_at`` dropped and every id replaced by its row's position."""
    doc = copy.deepcopy(doc)
    doc.pop("exported_at")
    position = {name: {row["id"]: i for i, row in enumerate(doc[name])} for name in LISTS}

    def fix(row: dict[str, Any], refs: dict[str, str]) -> None:
        for key, target in refs.items():
            value = row[key]
            if isinstance(value, list) and value and isinstance(value[0], list):
                row[key] = [[position[target][v] for v in group] for group in value]
            elif isinstance(value, list):
                row[key] = [position[target][v] for v in value]
            elif value is not None:
                row[key] = position[target][value]

    for name in LISTS:
        for row in doc[name]:
            row["id"] = position[name][row["id"]]
            fix(row, REFS.get(name, {}))
            for place in row.get("places", []):
                fix(place, REFS["places"])
    return doc


def lines(table: results.Table, lot: bool = True) -> list[tuple[Any, ...]]:
    """The table's lines without the entries' primary keys.

    The lot (the last resort) is seeded by the tournament's creation time, which the import
    restores, and draws over the participants' ids in their order; imported rows keep that order,
    so the entries' ranks agree. ``lot=False`` is for the players' table: players are matched
    by federation ID or created anew in another order, so lines tied on everything else may
    swap ranks; they are compared by name, ranks aside.
    """
    out = []
    for line in table.lines:
        row = {k: v for k, v in line.row.items() if k != "participant"}
        rank: Any = line.rank
        if not lot:
            assert "lot" not in table.order  # then the lot is the last tie-break
            row.pop("lot"), row.pop("rank")
            row["tiebreaks"] = row["tiebreaks"][:-1]
            rank = None
        out.append((rank, line.name, line.club, row, line.pending, line.players))
    return out if lot else sorted(out, key=repr)


def counts() -> dict[str, int]:
    models = (Tournament, Club, Player, Entry, EntryAbsence, Round, Pairing, PairingEntry, Match,
              Deal, MatchVersion, Sanction, Standing)  # fmt: skip
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def chief(db: Any) -> User:
    return make_user("chief", "Chief referee")


def real_match(
    user: User,
    chief: User | None,
    seats: dict[str, Player],
    seed: int,
    label: str,
    table: str,
    referee: User | None,
    deals: int | None = None,
) -> Match:
    """A match written through the scoring services with simulated legal deals; confirmed by
    ``chief`` when it is played to the end."""
    match = scoring.create_match(user=user, rules_preset="sport", seats=seats, referee=referee,
                                 label=label, table=table)  # fmt: skip
    records = play_match(match.get_rules(), random.Random(seed))
    for n, record in enumerate(records[:deals] if deals else records, start=1):
        scoring.record_deal(match.pk, record, user, client_id=f"00000000-0000-4000-8000-{n:012d}")
    if deals is None:
        scoring.submit(match.pk, user)
        scoring.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk)


def seat(round_: Round, table: int, match: Match, ns: Entry, ew: Entry, referee: User) -> None:
    pairing = Pairing.objects.create(
        round=round_, table=table, match=match, referee=referee, flags=["float_up"], locked=True,
        seat_n=match.seat_n, seat_e=match.seat_e, seat_s=match.seat_s, seat_w=match.seat_w,
    )  # fmt: skip
    PairingEntry.objects.create(pairing=pairing, round=round_, entry=ns, side="NS")
    PairingEntry.objects.create(pairing=pairing, round=round_, entry=ew, side="EW", position=0)


def protocol_round(tournament: Tournament, number: int,
                   tables: list[tuple[Entry, Entry, int | None]], byes: list[Entry], user: User,
                   chief: User, referee: User) -> Round:  # fmt: skip
    """A published round whose tables carry protocols written through the scoring services:
    simulated with the given seed and confirmed by ``chief``, or (None) created and not started.
    An archive brings a result only with the deals it comes from."""
    round_ = Round.objects.create(tournament=tournament, number=number,
                                  status=Round.Status.PUBLISHED, published_at=timezone.now())
    for table, (ns, ew, seed) in enumerate(tables, start=1):
        (n, s), (e, w) = (list(entry.players.all()) for entry in (ns, ew))
        seats, label = {"N": n, "E": e, "S": s, "W": w}, f"{tournament.name} {number}/{table}"
        if seed is None:
            match = scoring.create_match(user=user, rules_preset="sport", seats=seats,
                                         referee=referee, label=label, table=str(table))
        else:
            match = real_match(user, chief, seats, seed, label, str(table), referee)
        seat(round_, table, match, ns, ew, referee)
    for entry in byes:
        pairing = Pairing.objects.create(round=round_, table=None)
        PairingEntry.objects.create(pairing=pairing, round=round_, entry=entry, side="BYE")
    return round_


@pytest.fixture
def event(tournament: Tournament, pairs, organiser: User, chief: User, referee: User) -> Tournament:
    """Five pairs, four rounds: real protocols with simulated deals (one corrected, two still in
    play, one of them not started), byes, an absence, a forfeit, a revoked card, a deduction of
    a named player, a withdrawn entry, a finished round with its snapshot, a draft round."""
    Tournament.objects.filter(pk=tournament.pk).update(
        tie_breaks=["match_points", "buchholz", "difference"], rules_options={"target": 151},
        yellow_card_points=10, venue="Клуб «Рыба»", status="running", points_win=3,
    )  # fmt: skip
    tournament.refresh_from_db()
    tournament.chief_referees.add(chief)  # chief referees are per tournament
    a, b, c, d, e = pairs(tournament, 5)
    star = a.players.first()
    star.federation_id, star.rating = "RUS-0042", 1850
    star.save()

    r1 = protocol_round(tournament, 1, [(a, b, 21), (c, d, 22)], [e], organiser, chief, referee)
    card = discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=1,
                                   kind="yellow", reason="late")  # fmt: skip
    discipline.revoke_sanction(chief, card.pk, "the clock was wrong")
    rounds.finish_round(organiser, r1.pk)

    r2 = Round.objects.create(
        tournament=tournament,
        number=2,
        status=Round.Status.PUBLISHED,
        published_at=timezone.now(),
        paired_at=timezone.now(),
        requested_by=organiser,
        notes=["Bye: 4 (rank 4, 0 earlier byes)"],
    )
    ap, cp, ep, bp = (list(x.players.all()) for x in (a, c, e, b))
    m1 = real_match(organiser, chief, {"N": ap[0], "E": cp[0], "S": ap[1], "W": cp[1]}, 1,
                    "R2 T1", "1", referee)  # fmt: skip
    scoring.correct(m1.pk, chief, play_match(m1.get_rules(), random.Random(11)), "wrong sheet")
    m1.refresh_from_db()
    seat(r2, 1, m1, a, c, referee)
    m2 = real_match(organiser, None, {"N": ep[0], "E": bp[0], "S": ep[1], "W": bp[1]}, 2,
                    "R2 T2", "2", None, deals=3)  # fmt: skip
    seat(r2, 2, m2, e, b, referee)
    bye = Pairing.objects.create(round=r2, table=None, flags=["bye"])
    PairingEntry.objects.create(pairing=bye, round=r2, entry=d, side="BYE")

    EntryAbsence.objects.create(entry=c, round_number=3, reason="train")
    protocol_round(tournament, 3, [(e, a, 31), (b, d, None)], [], organiser, chief, referee)
    discipline.record_sanction(
        organiser,
        tournament.pk,
        entry_id=d.pk,
        round_number=3,
        kind="forfeit",
        reason="did not come to table 2",
        table=2,
    )
    discipline.record_sanction(organiser, tournament.pk, entry_id=b.pk, round_number=3,
                            kind="deduction", reason="phone", player_id=bp[0].pk,
                            match_points=1, game_points=5)  # fmt: skip
    registration.withdraw_entry(organiser, c.pk)
    # groups as dealt (issue 30: the archive keeps who played in which group)
    Stage.objects.create(tournament=tournament, number=1, kind=Stage.Kind.GROUPS, groups=2,
                         members=[[a.pk, c.pk, e.pk], [b.pk, d.pk]], started_at=timezone.now())
    # a knock-out of the best two, started, its first round's job failed (issue 30)
    stage = Stage.objects.create(tournament=tournament, qualifiers=2, best_of=3, third_place=False,
                                 seeds=[a.pk, b.pk], started_at=timezone.now(),
                                 started_by=organiser)  # fmt: skip
    Round.objects.create(tournament=tournament, number=4, status=Round.Status.NEW, stage=stage)
    # categories and prizes (issue 30): veteran women of a club, guests chosen by hand
    Tournament.objects.filter(pk=tournament.pk).update(prize_priority="category",
                                                       prize_ties="split", club_best=2)
    a.players.update(sex="f", birth_year=1958)
    women = Category.objects.create(tournament=tournament, name="Ветеранки", order=1, sex="f",
                                    age_min=60, age_on=datetime.date(2025, 12, 31),
                                    rating_min=1000, rating_max=2000, club=a.club)  # fmt: skip
    guests = Category.objects.create(tournament=tournament, name="Гости", order=2,
                                     members=Category.Members.CHOSEN)  # fmt: skip
    guests.entries.set([b, d])
    Prize.objects.create(tournament=tournament, place=1, amount="1000.50", text="Кубок")
    Prize.objects.create(tournament=tournament, category=women, place=1, amount=300)
    Prize.objects.create(tournament=tournament, category=guests, place=2, amount=0, text="Книга")
    tournament.refresh_from_db()
    return tournament


def test_the_archive_holds_every_field_of_every_table(event: Tournament) -> None:
    doc = json.loads(archive.dumps(archive.export_tournament(event)))
    assert doc["format"] == "domino-tournament-archive" and doc["version"] == 1

    def names(model: Any, *left_out: str) -> set[str]:
        return {f.name for f in model._meta.concrete_fields} - {"id", *left_out}

    assert set(doc["tournament"]) == names(Tournament) | {"organisers", "chief_referees",
                                                          "seasons"}
    assert set(doc["clubs"][0]) == names(Club) | {"id"}
    # where an import put a player is this site's bookkeeping, not the archive's
    assert set(doc["players"][0]) == names(Player, "in_registry", "imported_in") | {"id"}
    # an entry's personal key is a credential of this site: an import makes new ones
    assert set(doc["entries"][0]) == names(Entry, "tournament", "token") | {"id", "players"}
    assert set(doc["absences"][0]) == names(EntryAbsence) | {"id"}
    assert set(doc["rounds"][0]) == names(Round, "tournament") | {"id"}
    assert set(doc["stages"][0]) == names(Stage, "tournament") | {"id"}
    entry_ids = [e["id"] for e in doc["entries"]]
    assert doc["stages"][0]["members"] == [entry_ids[0:5:2], entry_ids[1:4:2]]
    assert doc["stages"][1]["seeds"] == entry_ids[:2] and doc["rounds"][3]["stage"] is not None
    assert set(doc["pairings"][0]) == names(Pairing) | {"id", "places"}
    assert set(doc["pairings"][0]["places"][0]) == names(PairingEntry, "pairing", "round")
    # the PIN hash stays behind; the count of deal removals is the history's, recounted; the
    # round is its pairing's (set again on import)
    assert set(doc["matches"][0]) == names(Match, "confirm_pin", "deals_removed", "round") | {
        "id", "deals", "history"}
    assert set(doc["matches"][2]["deals"][0]) == names(Deal, "match")
    assert set(doc["matches"][2]["history"][0]) == names(MatchVersion, "match")
    assert set(doc["sanctions"][0]) == names(Sanction, "tournament") | {"id"}
    assert set(doc["standings"][0]) == names(Standing) | {"id"}
    assert set(doc["categories"][0]) == names(Category, "tournament") | {"id", "entries"}
    assert set(doc["prizes"][0]) == names(Prize, "tournament") | {"id"}
    assert doc["categories"][1]["entries"] == [entry_ids[1], entry_ids[3]]
    assert doc["prizes"][0]["amount"] == "1000.50" and doc["players"][0]["birth_year"] == 1958
    assert doc["tournament"]["prize_ties"] == "split"
    assert len(doc["entries"]) == 5 and len(doc["rounds"]) == 4 and len(doc["sanctions"]) == 3
    real = doc["matches"][2]
    assert real["label"] == "R2 T1" and real["confirmed_by"] == "chief"
    assert [h["action"] for h in real["history"]][-3:] == ["submit", "confirm", "correct"]
    assert real["deals"][0]["client_id"] is None  # the correction rewrote the deals
    assert doc["matches"][3]["deals"][0]["client_id"].endswith("000000000001")
    assert doc["tournament"]["organisers"] == ["org"]
    assert doc["tournament"]["chief_referees"] == ["chief"]
    revoked = doc["sanctions"][0]
    assert revoked["revoked_by"] == "chief" and revoked["revoke_reason"] == "the clock was wrong"


def test_an_import_restores_the_tournament_exactly(event: Tournament, organiser: User) -> None:
    before = archive.export_tournament(event)
    copy_ = archive.import_tournament(json.loads(archive.dumps(before)), organiser)
    assert copy_.pk != event.pk and copy_.name == event.name
    assert copy_.archive_notes == []
    after = archive.export_tournament(copy_)
    assert after["exported_at"] >= before["exported_at"]
    assert normalise(after) == normalise(as_imported(before))
    assert not copy_.chief_referees.exists()
    # new rows, not the old ones
    assert set(copy_.entries.values_list("pk", flat=True)).isdisjoint(
        event.entries.values_list("pk", flat=True)
    )
    # the player with a federation ID is shared; the others are new rows with the same data
    assert Player.objects.filter(federation_id="RUS-0042").count() == 1
    assert Club.objects.filter(name__startswith="Клуб").count() == 2
    assert lines(results.live_table(copy_)) == lines(results.live_table(event))
    assert lines(results.live_table(copy_, scope="players"), lot=False) == lines(
        results.live_table(event, scope="players"), lot=False
    )
    assert [line.name for line in results.live_table(copy_).lines] == [
        line.name for line in results.live_table(event).lines
    ]
    assert results.table(copy_, 1).source == "snapshot"
    assert lines(results.table(copy_, 1)) == lines(results.table(event, 1))
    assert copy_.created_at == event.created_at
    assert copy_.tie_break_order() == ["match_points", "buchholz", "difference"]
    # the imported protocols are live: the match in play takes its next deal
    in_play = Match.objects.get(pairing__round__tournament=copy_, label="R2 T2")
    assert in_play.status == Match.Status.IN_PLAY and in_play.deals.count() == 3
    assert in_play.confirm_pin == ""
    # what the history tells of the protocols is recounted, not taken on the archive's word
    assert {m.label: m.deals_removed for m in Match.objects.filter(
        pairing__round__tournament=copy_)} == {m.label: m.deals_removed for m in
                                                Match.objects.filter(
                                                    pairing__round__tournament=event)}
    assert Match.objects.get(pairing__round__tournament=copy_, label="R2 T1").deals_removed == 1


def test_a_deleted_deals_key_is_still_refused_in_the_imported_copy(
    event: Tournament, organiser: User
) -> None:
    original = Match.objects.get(pairing__round__tournament=event, label="R2 T2")
    record = play_match(original.get_rules(), random.Random(2))[2]
    key = "00000000-0000-4000-8000-000000000003"  # deal 3's, as ``real_match`` sent it
    scoring.delete_last_deal(original.pk, organiser)
    copy_ = archive.import_tournament(
        json.loads(archive.dumps(archive.export_tournament(event))), organiser
    )
    in_play = Match.objects.get(pairing__round__tournament=copy_, label="R2 T2")
    assert in_play.deals.count() == 2 and in_play.deals_removed == 1
    with pytest.raises(ScoringConflict) as refused:
        scoring.record_deal(in_play.pk, record, organiser, client_id=key)
    assert refused.value.errors[0]["code"] == "idempotency_conflict"
    assert in_play.deals.count() == 2
    # under a new key the same deal is recorded
    assert scoring.record_deal(in_play.pk, record, organiser, client_id=None).deal.n == 3


def wipe(tournament: Tournament) -> None:
    """Delete the tournament, its matches, players and clubs (as on another installation)."""
    players = set(
        Player.objects.filter(entries__tournament=tournament).values_list("pk", flat=True)
    )
    clubs = set(Club.objects.filter(players__pk__in=players).values_list("pk", flat=True))
    matches = list(Match.objects.filter(pairing__round__tournament=tournament)
                   .values_list("pk", flat=True))  # fmt: skip
    Sanction.objects.filter(tournament=tournament).delete()
    Standing.objects.filter(round__tournament=tournament).delete()
    PairingEntry.objects.filter(round__tournament=tournament).delete()
    Pairing.objects.filter(round__tournament=tournament).delete()
    Match.objects.filter(pk__in=matches).delete()
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()
    Club.objects.filter(pk__in=clubs).delete()


def test_restored_after_deletion_with_the_same_standings(event: Tournament, organiser: User,
                                                         chief: User) -> None:  # fmt: skip
    doc = archive.export_tournament(event)
    live = {s: lines(results.live_table(event, scope=s), lot=s == "entries")
            for s in ("entries", "players")}  # fmt: skip
    snapshot = lines(results.table(event, 1))
    wipe(event)
    chief.delete()
    assert not Tournament.objects.exists() and not Player.objects.exists()
    restored = archive.import_tournament(doc, organiser)
    for scope, expected in live.items():
        assert lines(results.live_table(restored, scope=scope), lot=scope == "entries") == expected
    assert lines(results.table(restored, 1)) == snapshot
    # no field is linked to a user here: the archive's names are kept as text (and exported)
    assert "chief" in restored.import_record.usernames
    assert not Match.objects.filter(confirmed_by__isnull=False, label="R2 T1").exists()
    assert not Sanction.objects.filter(tournament=restored, revoked_by__isnull=False).exists()
    again = archive.export_tournament(restored)
    assert again["matches"][2]["confirmed_by"] == "chief"
    assert again["sanctions"][0]["revoked_by"] == "chief"
    for deal in doc["matches"][2]["deals"]:  # the correction's deals were the chief's
        assert deal["created_by"] == "chief"
    assert normalise(again)["matches"][2]["deals"] == normalise(doc)["matches"][2]["deals"]


def refused(doc: Any, user: User) -> TournamentError:
    before = counts()
    with pytest.raises(TournamentError) as caught:
        archive.import_tournament(doc, user)
    assert counts() == before  # nothing written
    return caught.value


def test_not_an_archive_or_an_unknown_version_is_refused(event, organiser) -> None:
    doc = archive.export_tournament(event)
    assert refused({"format": "csv"}, organiser).codes == ["not_archive"]
    assert refused([1, 2], organiser).codes == ["not_archive"]
    assert refused(doc | {"version": 2}, organiser).codes == ["bad_version"]
    without = {k: v for k, v in doc.items() if k != "players"}
    err = refused(without, organiser)
    assert err.codes == ["missing_key"] and err.errors[0]["field"] == "players"
    with pytest.raises(TournamentError) as caught:
        archive.load_file(b"{not json")
    assert caught.value.codes == ["not_archive"]


def test_a_tampered_protocol_is_refused_naming_the_match(event, organiser) -> None:
    doc = archive.export_tournament(event)
    doc["matches"][2]["totals"]["NS"] += 1
    err = refused(doc, organiser)
    assert err.codes == ["totals_mismatch"]
    assert "R2 T1" in err.messages[0] and err.errors[0]["field"] == "matches[2].totals"

    doc = archive.export_tournament(event)
    deal = doc["matches"][2]["deals"][0]["record"]
    deal["by"] = {"N": "E", "E": "S", "S": "W", "W": "N"}[deal["by"]]
    err = refused(doc, organiser)
    assert err.codes[0] in ("illegal_deal", "totals_mismatch") and "R2 T1" in err.messages[0]

    doc = archive.export_tournament(event)
    doc["matches"][2]["deals"][0]["record"] = {"result": "domino"}
    err = refused(doc, organiser)
    assert err.codes == ["illegal_deal"] and err.errors[0]["field"] == "matches[2].deals[0].record"


def test_dangling_references_and_bad_values_are_refused(event, organiser) -> None:
    doc = archive.export_tournament(event)
    doc["entries"][0]["club"] = 999_999
    doc["pairings"][0]["places"][0]["entry"] = "nobody"
    doc["standings"][0]["round"] = None
    err = refused(doc, organiser)
    assert err.codes == ["dangling_reference"] * 3
    fields = {item["field"] for item in err.errors}
    assert fields == {"entries[0].club", "pairings[0].places[0].entry", "standings[0].round"}

    doc = archive.export_tournament(event)
    doc["rounds"][1]["status"] = "played"
    doc["tournament"]["start_date"] = "yesterday"
    doc["players"].append(dict(doc["players"][0]))
    err = refused(doc, organiser)  # ids are checked first
    assert err.codes == ["duplicate_id"] and err.errors[0]["field"] == "players[10].id"
    doc["players"].pop()
    err = refused(doc, organiser)
    assert err.codes == ["bad_value", "bad_value"]
    assert {e["field"] for e in err.errors} == {"rounds[1].status", "tournament.start_date"}


def test_rules_the_engine_refuses_are_refused(event, organiser) -> None:
    doc = archive.export_tournament(event)
    doc["tournament"]["rules_options"] = {"target": "far"}
    assert refused(doc, organiser).codes == ["bad_rules"]
    doc = archive.export_tournament(event)
    doc["matches"][0]["rules"] = {"preset": "chess"}
    err = refused(doc, organiser)
    assert err.codes == ["bad_rules"] and err.errors[0]["field"] == "matches[0].rules"
    doc = archive.export_tournament(event)
    doc["tournament"]["tie_breaks"] = ["luck"]
    assert refused(doc, organiser).codes == ["bad_value"]


def test_what_only_the_database_refuses_is_refused_as_a_whole(event, organiser) -> None:
    doc = archive.export_tournament(event)
    doc["entries"][1]["name"] = doc["entries"][0]["name"]  # names are unique in a tournament
    err = refused(doc, organiser)
    assert err.codes == ["invalid_archive"]


def test_only_organisers_import_and_the_importer_organises(event, organiser, referee) -> None:
    doc = archive.export_tournament(event)
    with pytest.raises(NotAllowed):
        archive.import_tournament(doc, referee)
    other = make_user("someone", "Organiser")
    copy_ = archive.import_tournament(doc, other)
    # the archive's organisers ("org") are named, not given the copy
    assert doc["tournament"]["organisers"] == ["org"]
    assert set(copy_.organisers.values_list("username", flat=True)) == {"someone"}
    assert access.can_manage(other, copy_) and not access.can_manage(other, event)
    assert not access.can_manage(organiser, copy_)


def test_a_result_without_deals_is_refused(tournament, pairs, organiser) -> None:
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (7, 3))])  # a result entered without a protocol
    doc = archive.export_tournament(tournament)
    err = refused(doc, organiser)
    assert err.codes == ["unproven_result"] and err.errors[0]["field"] == "matches[0].status"
    doc["matches"][0]["winner"] = "N"
    assert refused(doc, organiser).codes == ["bad_value"]
    # not started, the table comes in as it was
    doc["matches"][0].update(status="in_play", totals={}, winner="", finished=False, end="",
                             confirmed_at=None)  # fmt: skip
    copy_ = archive.import_tournament(doc, organiser)
    match = Match.objects.get(pairing__round__tournament=copy_)
    assert match.status == Match.Status.IN_PLAY and match.totals == {} and match.winner == ""


# --- pages, API and commands ----------------------------------------------------------------


def test_the_organiser_downloads_and_imports_on_the_pages(client, event, organiser,
                                                          other_organiser) -> None:  # fmt: skip
    client.force_login(other_organiser)
    assert client.get(f"/manage/{event.pk}/archive.json").status_code == 403
    client.force_login(organiser)
    dashboard = client.get(f"/manage/{event.pk}/").content.decode()
    assert f"/manage/{event.pk}/archive.json" in dashboard
    assert "/manage/import/" in client.get("/manage/").content.decode()
    answer = client.get(f"/manage/{event.pk}/archive.json")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f'attachment; filename="tournament-{event.pk}.json"'
    body = answer.content
    assert json.loads(body)["tournament"]["name"] == event.name

    upload = SimpleUploadedFile("t.json", body, content_type="application/json")
    answer = client.post("/manage/import/", {"file": upload})
    # the tournament itself is on this site: refused, with a link to it (issue 25)
    assert answer.status_code == 409 and f'href="/manage/{event.pk}/"' in answer.content.decode()
    body = json.dumps(foreign(json.loads(body))).encode()
    upload = SimpleUploadedFile("t.json", body, content_type="application/json")
    answer = confirm_page(client, client.post("/manage/import/", {"file": upload}))
    copy_ = Tournament.objects.exclude(pk=event.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/manage/{copy_.pk}/"
    assert copy_.entries.count() == 5

    tampered = json.loads(body)
    tampered["matches"][2]["winner"] = "EW" if tampered["matches"][2]["winner"] == "NS" else "NS"
    before = counts()
    bad = SimpleUploadedFile("t.json", json.dumps(tampered).encode(), "application/json")
    answer = client.post("/manage/import/", {"file": bad})
    assert answer.status_code == 400 and counts() == before
    page = answer.content.decode()
    assert 'id="archive-errors"' in page and "R2 T1" in page and "matches[2].winner" in page
    answer = client.post("/manage/import/", {"file": SimpleUploadedFile("x.json", b"[1")})
    assert answer.status_code == 400 and counts() == before


def confirm_page(client: Any, answer: Any) -> Any:
    """The review the import page showed, confirmed (issue 25: nothing is written before)."""
    assert answer.status_code == 200, answer.content.decode()[:2000]
    token = re.search(r'action="/manage/import/([0-9a-f-]+)/"', answer.content.decode())
    assert token is not None
    return client.post(f"/manage/import/{token.group(1)}/")


def confirm_api(api: Any, answer: Any) -> Any:
    """The review the import API gave, confirmed (issue 25: nothing is written before)."""
    assert answer.status_code == 200, answer.json()
    return api.post(answer.json()["confirm"])


def foreign(doc: dict[str, Any]) -> dict[str, Any]:
    """The archive as another site's: it does not say it is a tournament of this one."""
    return {k: v for k, v in doc.items() if k != "source"}


def test_a_referee_may_not_import_on_the_page(client, referee) -> None:
    client.force_login(referee)
    assert client.get("/manage/import/").status_code == 403


def test_the_api_exports_with_a_token_and_imports(event, organiser, other_organiser) -> None:
    api = APIClient()
    assert api.get(f"/api/v1/tournaments/{event.pk}/archive/").status_code == 401
    _, token = issue(organiser)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    answer = api.get(f"/api/v1/tournaments/{event.pk}/archive/")
    assert answer.status_code == 200
    doc = answer.json()
    assert doc["format"] == "domino-tournament-archive" and len(doc["matches"]) == 6

    refused_copy = api.post("/api/v1/tournaments/import/", doc, format="json")
    assert refused_copy.status_code == 409  # the tournament is on this site (issue 25)
    assert refused_copy.json()["errors"][0]["url"] == f"/manage/{event.pk}/"
    doc = foreign(doc)
    created = confirm_api(api, api.post("/api/v1/tournaments/import/", doc, format="json"))
    assert created.status_code == 201, created.json()
    new_id = created.json()["id"]
    assert created.json()["url"] == f"/manage/{new_id}/" and created.json()["notes"] == []
    # the copy's export names the archive it came from by its content (issue 25)
    assert normalise(foreign(archive.export_tournament(Tournament.objects.get(pk=new_id)))) == (
        normalise(as_imported(doc)))

    upload = SimpleUploadedFile("t.json", json.dumps(doc).encode(), "application/json")
    # the same archive again, as a file: refused (issue 25)
    assert api.post("/api/v1/tournaments/import/", {"file": upload}).status_code == 409

    before = counts()
    refused_answer = api.post("/api/v1/tournaments/import/", doc | {"version": 9}, format="json")
    assert refused_answer.status_code == 400 and counts() == before
    assert refused_answer.json()["errors"][0]["code"] == "bad_version"

    other = APIClient()
    other.force_authenticate(other_organiser)
    answer = other.get(f"/api/v1/tournaments/{event.pk}/archive/")
    assert answer.status_code == 403 and answer.json()["errors"][0]["code"] == "not_organiser"
    referee = APIClient()
    referee.force_authenticate(make_user("r2", "Referee"))
    answer = referee.post("/api/v1/tournaments/import/", doc, format="json")
    assert answer.status_code == 403 and counts() == before


def test_the_commands_export_and_import(event, organiser, other_organiser, tmp_path) -> None:
    path = tmp_path / "archive.json"
    call_command("export_tournament", str(event.pk), "-o", str(path), stderr=io.StringIO())
    out = io.StringIO()
    # the event is here: its archive is refused (issue 25), restored over it only when asked
    with pytest.raises(CommandError, match=f"already_imported: .*/manage/{event.pk}/"):
        call_command("import_tournament", str(path), "--user", "org", "--yes")
    # another organiser cannot restore over it from the command line either
    with pytest.raises(CommandError, match="not_organiser"):
        call_command("import_tournament", str(path), "--user", other_organiser.username,
                     "--replaces", str(event.pk), "--yes")  # fmt: skip
    assert Tournament.objects.filter(pk=event.pk).exists() and not ArchiveImport.objects.exists()
    # without --yes (and no terminal to ask at) the review is shown and nothing is written
    review = io.StringIO()
    with pytest.raises(CommandError, match="run again with --yes"):
        call_command("import_tournament", str(path), "--user", "org", "--replaces",
                     str(event.pk), stderr=review)  # fmt: skip
    assert "players:" in review.getvalue() and f"Restores over tournament {event.pk}" in (
        review.getvalue())
    assert not ArchiveImport.objects.exists() and Tournament.objects.filter(pk=event.pk).exists()
    call_command("import_tournament", str(path), "--user", "org", "--replaces", str(event.pk),
                 "--yes", stdout=out, stderr=io.StringIO())  # fmt: skip
    copy_ = Tournament.objects.get(pk=int(out.getvalue()))
    assert not Tournament.objects.filter(pk=event.pk).exists()
    # the same archive again: refused with the copy, not a second tournament
    with pytest.raises(CommandError, match=f"already_imported: .*/manage/{copy_.pk}/"):
        call_command("import_tournament", str(path), "--user", "org", "--yes")
    assert Tournament.objects.filter(name=copy_.name).count() == 1
    assert normalise(archive.export_tournament(copy_)) == normalise(
        as_imported(json.loads(path.read_text())))
    stdout = io.StringIO()
    call_command("export_tournament", str(copy_.pk), stdout=stdout)
    assert json.loads(stdout.getvalue())["tournament"]["name"] == event.name

    doc = json.loads(path.read_text())
    doc["entries"][0]["club"] = 12345
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match=r"dangling_reference: .*\[entries\[0\]\.club\]"):
        call_command("import_tournament", str(path), "--user", "org", "--yes")
    with pytest.raises(CommandError, match="No active user"):
        call_command("import_tournament", str(path), "--user", "nobody", "--yes")
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_tournament", "999999")


# --- size and speed (PostgreSQL) ------------------------------------------------------------


def build_big_event(tournament: Tournament, pairs: Any, n_pairs: int, n_rounds: int) -> None:
    """``n_pairs`` pairs and ``n_rounds`` finished rounds of confirmed protocols with simulated
    deals, written in bulk (as the scoring services would leave them)."""
    rules = make_rules("sport")
    judge, stored = Judge(rules), rules.to_dict()
    rng = random.Random(2024)
    entries = pairs(tournament, n_pairs)
    seats = {e.pk: list(e.players.all()) for e in entries}
    for number in range(1, n_rounds + 1):
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            status=Round.Status.PUBLISHED,
            published_at=timezone.now(),
        )
        order = entries[:]
        rng.shuffle(order)
        tables = list(zip(order[::2], order[1::2], strict=True))
        matches, deal_rows = [], []
        for index, (ns, ew) in enumerate(tables, start=1):
            records = play_match(rules, rng)
            verdict = judge.fold(records)
            state = verdict.state
            (n1, s1), (e1, w1) = seats[ns.pk], seats[ew.pk]
            matches.append(Match(
                label=f"{number}/{index}", table=str(index), seat_n=n1, seat_e=e1, seat_s=s1,
                seat_w=w1, rules_preset="sport", rules=stored, status=Match.Status.CONFIRMED,
                version=len(records) + 3, totals=dict(state.totals), finished=True,
                end=state.end or "", winner=state.winner or "", unclaimed_eggs=state.eggs,
                next_leader=state.leader or "", confirmed_at=timezone.now(),
                submitted_at=timezone.now(),
            ))  # fmt: skip
            deal_rows.append(
                [(r, v.to_dict()) for r, v in zip(records, verdict.deals, strict=True)]
            )
        Match.objects.bulk_create(matches)
        if hasattr(Match, "deals_won"):
            for match, rows in zip(matches, deal_rows, strict=True):
                won: dict[str, int] = {}
                for _r, v in rows:
                    if v["winner"]:
                        won[v["winner"]] = won.get(v["winner"], 0) + 1
                match.deals_won = won
            Match.objects.bulk_update(matches, ["deals_won"])
        Deal.objects.bulk_create(
            Deal(match=m, n=n, record=r, verdict=v, match_version=n + 1)
            for m, rows in zip(matches, deal_rows, strict=True)
            for n, (r, v) in enumerate(rows, start=1)
        )
        MatchVersion.objects.bulk_create(
            MatchVersion(match=m, version=m.version, action="confirm", before={}, after={},
                         protocol={"deals": [r for r, _v in rows]}, confirmed=True)
            for m, rows in zip(matches, deal_rows, strict=True)
        )  # fmt: skip
        pairings = Pairing.objects.bulk_create(
            Pairing(round=round_, table=i, match=m, seat_n=m.seat_n, seat_e=m.seat_e,
                    seat_s=m.seat_s, seat_w=m.seat_w)
            for i, m in enumerate(matches, start=1)
        )  # fmt: skip
        PairingEntry.objects.bulk_create(
            PairingEntry(pairing=p, round=round_, entry=e, side=side)
            for p, (ns, ew) in zip(pairings, tables, strict=True)
            for e, side in ((ns, "NS"), (ew, "EW"))
        )
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)
        round_.status = Round.Status.FINISHED
        results.take_snapshot(round_)


def test_200_pairs_and_7_rounds_export_and_import_in_seconds(require_postgres, tournament, pairs,
                                                             organiser) -> None:  # fmt: skip
    build_big_event(tournament, pairs, 200, 7)
    with CaptureQueriesContext(connection) as exported:
        started = time.perf_counter()
        doc = archive.export_tournament(tournament)
        text = archive.dumps(doc)
        export_s = time.perf_counter() - started
    with CaptureQueriesContext(connection) as imported:
        started = time.perf_counter()
        copy_ = archive.import_tournament(json.loads(text), organiser)
        import_s = time.perf_counter() - started
    deals = sum(len(m["deals"]) for m in doc["matches"])
    print(f"\n200 pairs x 7 rounds: {len(doc['matches'])} matches, {deals} deals, "
          f"{len(text) / 2**20:.1f} MB; export {export_s:.2f} s in {len(exported)} queries, "
          f"import {import_s:.2f} s in {len(imported)} queries")  # fmt: skip
    assert len(doc["matches"]) == 700 and len(doc["standings"]) == 1400
    assert export_s < 5 and import_s < 10
    assert len(exported) < 25 and len(imported) < 150
    assert normalise(archive.export_tournament(copy_)) == normalise(as_imported(doc))


@pytest.mark.parametrize(("until", "strict_until"), [(0, 0), (3, 3)])
def test_an_archive_from_before_the_club_modes_imports_with_the_pairing_it_had(
    client, event, organiser, until: int, strict_until: int
) -> None:
    """An archive of version 1 written before the club avoidance modes has
    ``avoid_same_club_until`` (K: avoided before score up to round K, never after; 0: never):
    it imports as strict up to round K, off afterwards, without federation seating."""
    client.force_login(organiser)
    doc = json.loads(client.get(f"/manage/{event.pk}/archive.json").content)
    settings = doc["tournament"]
    for key in ("club_avoidance", "club_strict_until", "individual_federation"):
        del settings[key]
    settings["avoid_same_club_until"] = until
    upload = SimpleUploadedFile("old.json", json.dumps(foreign(doc)).encode(), "application/json")
    answer = confirm_page(client, client.post("/manage/import/", {"file": upload}))
    assert answer.status_code == 302
    copy_ = Tournament.objects.exclude(pk=event.pk).get()
    assert (copy_.club_avoidance, copy_.club_strict_until) == ("off", strict_until)
    assert not copy_.individual_federation
    assert [copy_.club_mode(n) for n in (1, 3, 4)] == (
        ["strict", "strict", "off"] if until else ["off", "off", "off"])
