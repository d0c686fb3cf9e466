"""Operations on a tournament's setup and registration. Each is one transaction.

    create_tournament(user, **fields) -> Tournament        the creator becomes an organiser
    update_tournament(user, tournament_id, **fields) -> Tournament
    set_chief_referees(user, tournament_id, chief_referees) -> Tournament   the list replaced
    add_entry(user, tournament_id, *, name, players=(), club=None, seed=None, team=None,
              new_players=())
        after round 1 was paired the entry is late: it joins at the next round
    update_entry(user, entry_id, **fields) -> Entry
    withdraw_entry(user, entry_id) / reinstate_entry(user, entry_id) -> Entry
    set_absence(user, entry_id, round_number, absent=True, reason="") -> Entry
        reason=None keeps the reason already recorded

Who may do what is ``tournaments.access``; the CSV import is ``registration.csv_import``.
Refusals raise ``tournaments.errors`` (400/403/409); a missing row raises its ``DoesNotExist``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts import audit
from accounts.roles import CHIEF_REFEREE, has_role
from tournaments import formats
from tournaments.access import User, can_create_tournament, locked_tournament, require_manager
from tournaments.errors import Conflict, NotAllowed, TournamentError, error
from tournaments.models import Club, Entry, EntryAbsence, Player, Round, Tournament
from tournaments.registration.names import entry_name

SETUP_FIELDS = (
    "name", "start_date", "end_date", "venue", "rules_preset", "rules_options", "format",
    "system", "rounds", "public", "points_win", "points_draw", "points_loss", "tie_breaks",
    "bye_result", "club_avoidance", "club_strict_until", "individual_federation",
    "first_round", "yellow_card_points", "red_card_points", "efectividad",
    "forfeit_win_percent", "forfeit_loss_percent", "bye_percent", "seed_by_rating",
    "round_minutes", "result_only_tables", "acceleration",
)  # fmt: skip


#: fields that cannot change once a round has been paired
FIXED_AFTER_START = ("format", "system")


ENTRY_FIELDS = ("name", "club", "seed", "joins_round", "team")


#: what the audit log keeps of an entry
AUDITED_ENTRY_FIELDS = ("name", "club", "seed", "joins_round", "team", "status", "players")


def _locked_entry(entry_id: int) -> Entry:
    entries = Entry.objects.select_for_update(of=("self",)).select_related("tournament")
    return entries.get(pk=entry_id)


def _validation_errors(err: ValidationError) -> TournamentError:
    items = []
    for field, errors in err.error_dict.items():
        name = None if field == "__all__" else field
        # the validator's own code where it has one (bad_option, invisible_character …)
        items += [error(e.code or "invalid", message, name)
                  for e in errors for message in e.messages]  # fmt: skip
    return TournamentError(items)


def _full_clean(instance: Any, exclude: Iterable[str] = ()) -> None:
    try:
        instance.full_clean(exclude=list(exclude), validate_unique=True)
    except ValidationError as err:
        raise _validation_errors(err) from err


def create_tournament(user: User, **fields: Any) -> Tournament:
    if not can_create_tournament(user):
        raise NotAllowed.one("not_organiser", _("Only organisers create tournaments."))
    unknown = set(fields) - set(SETUP_FIELDS)
    if unknown:
        raise TournamentError([error("unknown_field", _("Unknown field."), f) for f in unknown])
    tournament = Tournament(**fields)
    _full_clean(tournament)
    with transaction.atomic():
        tournament.save()
        tournament.organisers.add(user)  # type: ignore[arg-type]
        audit.record(user, "tournament.create", tournament, tournament_id=tournament.pk,
                     after=audit.snapshot(tournament, SETUP_FIELDS))  # fmt: skip
    return tournament


def update_tournament(user: User, tournament_id: int, **fields: Any) -> Tournament:
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        before = audit.snapshot(tournament, SETUP_FIELDS)
        started = tournament.round_set.exists()
        for name, value in fields.items():
            if name not in SETUP_FIELDS:
                raise TournamentError.one("unknown_field", _("Unknown field."), name)
            if started and name in FIXED_AFTER_START and getattr(tournament, name) != value:
                raise Conflict.one(
                    "started", _("The format and system cannot change once a round is paired."),
                    name,
                )
            setattr(tournament, name, value)
        _full_clean(tournament)
        tournament.save()
        old, new = audit.changed(before, audit.snapshot(tournament, SETUP_FIELDS))
        if new:
            audit.record(user, "tournament.update", tournament, tournament_id=tournament.pk,
                         before=old, after=new)  # fmt: skip
    return tournament


def set_chief_referees(user: User, tournament_id: int, chief_referees: Iterable[Any]) -> Tournament:
    """Appoint the tournament's chief referees: the list replaces the previous one (the
    organisers only). Each must hold the Chief referee role; the role alone judges nothing."""
    chosen = list(dict.fromkeys(chief_referees))
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        refused = [str(u) for u in chosen if not has_role(u, CHIEF_REFEREE)]
        if refused:
            raise TournamentError.one(
                "not_chief_referee",
                _("Not in the Chief referee role: %(names)s.") % {"names": ", ".join(refused)},
                "chief_referees",
            )
        before = audit.snapshot(tournament, ["chief_referees"])
        tournament.chief_referees.set(chosen)
        old, new = audit.changed(before, audit.snapshot(tournament, ["chief_referees"]))
        if new:
            audit.record(user, "tournament.chief_referees", tournament,
                         tournament_id=tournament.pk, before=old, after=new)  # fmt: skip
    return tournament


def next_round_number(tournament: Tournament) -> int:
    """The round a late entry joins: the one after the last round already paired."""
    started = tournament.round_set.exclude(status=Round.Status.NEW)
    return int(started.aggregate(n=Max("number"))["n"] or 0) + 1


def _check_players(tournament: Tournament, players: list[Player], entry: Entry | None) -> None:
    if len({p.pk for p in players}) != len(players):
        raise TournamentError.one("duplicate_player", _("A player is listed twice."), "players")
    wanted: int | None = formats.players_per_entry(tournament.format)
    if tournament.format == Tournament.Format.TEAMS:
        wanted = 2 if (entry and entry.team_id) else None
    if wanted is not None and players and len(players) != wanted:
        raise TournamentError.one(
            "players_count",
            _("An entry of this format has %(n)s player(s).") % {"n": wanted},
            "players",
        )
    taken = Entry.objects.filter(
        tournament=tournament, players__in=players, status=Entry.Status.ACTIVE
    )
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    clash = taken.values_list("players__last_name", flat=True).first()
    if clash is not None:
        raise TournamentError.one(
            "player_taken",
            _("%(name)s already plays in another entry.") % {"name": clash},
            "players",
        )


def _check_team(tournament: Tournament, team: Entry | None, entry: Entry | None) -> None:
    """A pair plays for a club team of its own tournament: not another tournament's entry, not
    itself, not a pair of a team, and not while it is a team with pairs of its own."""
    if team is None:
        return
    own_pairs = entry is not None and entry.pk is not None and entry.pairs.exists()
    if (team.tournament_id != tournament.pk or team.team_id is not None
            or (entry is not None and team.pk == entry.pk) or own_pairs):  # fmt: skip
        raise TournamentError.one("bad_team", _("No such team in this tournament."), "team")


def _save_entry(entry: Entry, players: list[Player] | None) -> Entry:
    _full_clean(entry, exclude=["tournament"])
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError as err:
        raise TournamentError.one(
            "duplicate", _("An entry with this name or seed already exists."), "name"
        ) from err
    if players is not None:
        entry.players.set(players)
    return entry


def _new_player(last_name: str, first_name: str, club: Club | None) -> Player:
    player = Player(last_name=last_name.strip(), first_name=first_name.strip(), club=club)
    _full_clean(player)
    player.save()
    return player


def add_entry(
    user: User,
    tournament_id: int,
    *,
    name: str,
    players: Iterable[Player] = (),
    club: Club | None = None,
    seed: int | None = None,
    team: Entry | None = None,
    new_players: Iterable[tuple[str, str]] = (),
) -> Entry:
    """``new_players``: (last name, first name) of players created for this entry."""
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict.one("finished", _("The tournament is finished."))
        _check_team(tournament, team, None)
        entry = Entry(
            tournament=tournament, name=name.strip(), club=club, seed=seed, team=team,
            joins_round=next_round_number(tournament),
        )  # fmt: skip
        players = list(players) + [
            _new_player(last, first, club) for last, first in new_players if last.strip()
        ]
        if not entry.name and players:  # named after its players, as the CSV import does
            entry.name = entry_name(players, tournament.entries.values_list("name", flat=True))
        _check_players(tournament, players, entry)
        saved = _save_entry(entry, players)
        audit.record(user, "entry.add", saved, tournament_id=tournament.pk,
                     after=audit.snapshot(saved, AUDITED_ENTRY_FIELDS))  # fmt: skip
        return saved


def update_entry(
    user: User, entry_id: int, *, players: Iterable[Player] | None = None, **fields: Any
) -> Entry:
    with transaction.atomic():
        entry = _locked_entry(entry_id)
        require_manager(user, entry.tournament)
        before = audit.snapshot(entry, AUDITED_ENTRY_FIELDS)
        for name, value in fields.items():
            if name not in ENTRY_FIELDS:
                raise TournamentError.one("unknown_field", _("Unknown field."), name)
            setattr(entry, name, value.strip() if isinstance(value, str) else value)
        if "team" in fields:
            _check_team(entry.tournament, fields["team"], entry)
        chosen = None if players is None else list(players)
        if chosen is not None:
            _check_players(entry.tournament, chosen, entry)
        saved = _save_entry(entry, chosen)
        old, new = audit.changed(before, audit.snapshot(saved, AUDITED_ENTRY_FIELDS))
        if new:
            audit.record(user, "entry.update", saved, tournament_id=saved.tournament_id,
                         before=old, after=new)  # fmt: skip
        return saved


def _set_status(user: User, entry_id: int, status: str) -> Entry:
    with transaction.atomic():
        entry = _locked_entry(entry_id)
        require_manager(user, entry.tournament)
        if status == Entry.Status.ACTIVE and entry.status != status:
            _check_players(entry.tournament, list(entry.players.all()), entry)
        old = entry.status
        entry.status = status
        entry.save(update_fields=["status"])
        if old != status:
            action = "entry.reinstate" if status == Entry.Status.ACTIVE else "entry.withdraw"
            audit.record(user, action, entry, tournament_id=entry.tournament_id,
                         before={"status": old}, after={"status": status})  # fmt: skip
    return entry


def withdraw_entry(user: User, entry_id: int) -> Entry:
    """The entry plays no further round; its past rounds stay as they were."""
    return _set_status(user, entry_id, Entry.Status.WITHDRAWN)


def reinstate_entry(user: User, entry_id: int) -> Entry:
    return _set_status(user, entry_id, Entry.Status.ACTIVE)


def set_absence(
    user: User, entry_id: int, round_number: int, absent: bool = True, reason: str | None = ""
) -> Entry:
    """Mark (or unmark) an entry absent for a round that has not been paired yet; a reason of
    None keeps the one already recorded for that round (none for a new absence)."""
    with transaction.atomic():
        # The tournament first, as ``rounds.start_pairing`` locks it to create the round: a
        # pairing started meanwhile is seen (refused: already paired), or starts after this
        # commits and its job reads the absence. Before, both read the other's state from
        # before, and an entry marked absent was paired anyway.
        tournament_id = Entry.objects.values_list("tournament_id", flat=True).get(pk=entry_id)
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        entry = _locked_entry(entry_id)
        tournament = entry.tournament
        require_manager(user, tournament)
        if not 1 <= round_number <= tournament.rounds:
            raise TournamentError.one(
                "bad_round",
                _("The round must be between 1 and %(n)s.") % {"n": tournament.rounds},
                "round_number",
            )
        if round_number < next_round_number(tournament):
            raise Conflict.one(
                "round_paired", _("Round %(n)s is already paired.") % {"n": round_number},
                "round_number",
            )  # fmt: skip
        old = EntryAbsence.objects.filter(entry=entry, round_number=round_number).first()
        before = {"round": round_number, "absent": old is not None,
                  "reason": old.reason if old else ""}  # fmt: skip
        if reason is None:
            reason = before["reason"]
        if absent:
            EntryAbsence.objects.update_or_create(
                entry=entry, round_number=round_number, defaults={"reason": reason[:200]}
            )
        else:
            EntryAbsence.objects.filter(entry=entry, round_number=round_number).delete()
        after = {"round": round_number, "absent": absent, "reason": reason[:200] if absent else ""}
        if after != before:
            audit.record(user, "entry.absence", entry, tournament_id=tournament.pk,
                         before=before, after=after)  # fmt: skip
    return entry
