"""The organiser's changes to the categories and the prize list; each one transaction, audited.

    save_settings(user, tournament_id, priority, ties, club_best)
    save_category(user, tournament_id, fields, entries=(), category_id=None) -> Category
    delete_category(user, tournament_id, category_id)
    save_prize(user, tournament_id, category_id, place, amount, text="") -> Prize
                        a place already listed gets the new value and text
    delete_prize(user, tournament_id, prize_id)
    set_players(user, tournament_id, {player_id: (sex, birth_year)}) -> int   changed players

Only the tournament's organisers act (``locked_tournament``); a category, prize, entry or player
of another tournament is not found here (``not_found``), so no organiser reaches another's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import audit
from tournaments.access import User, locked_tournament
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Category, Entry, Player, Prize, Tournament
from tournaments.registry.records import refusal_of
from tournaments.registry.rights import changeable

CATEGORY_FIELDS = ("name", "order", "sex", "age_min", "age_max", "age_on", "rating_min",
                   "rating_max", "club", "members")  # fmt: skip


def _not_found(message: str) -> TournamentError:
    return TournamentError.one("not_found", message, None)


def save_settings(user: User, tournament_id: int, priority: str, ties: str,
                  club_best: int) -> Tournament:  # fmt: skip
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        names = ("prize_priority", "prize_ties", "club_best")
        before = audit.snapshot(tournament, names)
        tournament.prize_priority, tournament.prize_ties = priority, ties
        tournament.club_best = club_best
        try:
            tournament.full_clean(exclude=[f.name for f in Tournament._meta.fields
                                           if f.name not in names])  # fmt: skip
        except ValidationError as err:
            raise refusal_of(err) from err
        tournament.save(update_fields=list(names))
        audit.record(user, "prizes.settings", tournament, tournament_id=tournament.pk,
                     before=before, after=audit.snapshot(tournament, names))  # fmt: skip
        return tournament


def save_category(user: User, tournament_id: int, fields: Mapping[str, Any],
                  entries: Iterable[int] = (),
                  category_id: int | None = None) -> Category:  # fmt: skip
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        if category_id is None:
            category = Category(tournament=tournament)
        else:
            category = Category.objects.filter(tournament=tournament, pk=category_id).first()
            if category is None:
                raise _not_found(_("No such category in this tournament."))
        before = audit.snapshot(category, CATEGORY_FIELDS) if category.pk else {}
        for name in CATEGORY_FIELDS:
            if name in fields:
                setattr(category, name, fields[name])
        chosen = set(entries)
        known = set(Entry.objects.filter(tournament=tournament, pk__in=chosen)
                    .values_list("pk", flat=True))  # fmt: skip
        if chosen - known:
            raise _not_found(_("No such entry in this tournament."))
        try:
            category.full_clean()
        except ValidationError as err:
            raise refusal_of(err) from err
        category.save()
        category.entries.set(sorted(known) if category.members == Category.Members.CHOSEN else [])
        audit.record(user, "category.save", category, tournament_id=tournament.pk,
                     before=before, after=audit.snapshot(category, CATEGORY_FIELDS))  # fmt: skip
        return category


def delete_category(user: User, tournament_id: int, category_id: int) -> None:
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        category = Category.objects.filter(tournament=tournament, pk=category_id).first()
        if category is None:
            raise _not_found(_("No such category in this tournament."))
        before = audit.snapshot(category, CATEGORY_FIELDS)
        audit.record(user, "category.delete", category, tournament_id=tournament.pk,
                     before=before, after={})  # fmt: skip
        category.delete()  # and its prizes


def save_prize(user: User, tournament_id: int, category_id: int | None, place: int,
               amount: Decimal, text: str = "") -> Prize:  # fmt: skip
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        category = None
        if category_id is not None:
            category = Category.objects.filter(tournament=tournament, pk=category_id).first()
            if category is None:
                raise _not_found(_("No such category in this tournament."))
        prize = Prize.objects.filter(tournament=tournament, category=category,
                                     place=place).first()  # fmt: skip
        prize = prize or Prize(tournament=tournament, category=category, place=place)
        names = ("place", "amount", "text")
        before = audit.snapshot(prize, names) if prize.pk else {}
        prize.amount, prize.text = amount, text
        try:
            prize.full_clean(exclude=["tournament", "category"], validate_unique=False,
                             validate_constraints=False)  # one per place: found above
        except ValidationError as err:
            raise refusal_of(err) from err
        prize.save()
        audit.record(user, "prize.save", prize, tournament_id=tournament.pk, before=before,
                     after=audit.snapshot(prize, names) | {"category": str(category or "")})
        return prize


def delete_prize(user: User, tournament_id: int, prize_id: int) -> None:
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        prize = Prize.objects.filter(tournament=tournament, pk=prize_id).first()
        if prize is None:
            raise _not_found(_("No such prize in this tournament."))
        audit.record(user, "prize.delete", prize, tournament_id=tournament.pk,
                     before=audit.snapshot(prize, ("place", "amount", "text")), after={})
        prize.delete()


def tournament_players(tournament: Tournament) -> list[Player]:
    """The players of the tournament's entries (pairs, players, teams' pairs), by name."""
    return list(Player.objects.filter(entries__tournament=tournament).distinct()
                .select_related("club").order_by("last_name", "first_name", "pk"))  # fmt: skip


def set_players(user: User, tournament_id: int,
                values: Mapping[int, tuple[str, int | None]]) -> int:  # fmt: skip
    """Sex and year of birth of players of this tournament (a player is one person across
    tournaments: what is set here is his, as his rating is)."""
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        # FOR UPDATE takes no DISTINCT: the tournament's players first, then their rows
        ids = set(Entry.players.through.objects.filter(
            entry__tournament=tournament, player_id__in=list(values))
            .values_list("player_id", flat=True))  # fmt: skip
        players = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids)}
        if set(values) - set(players):
            raise _not_found(_("No such player in this tournament."))
        changed = 0
        allowed = changeable(user, players.values())
        for pk, (sex, year) in values.items():
            player = players[pk]
            if (player.sex, player.birth_year) == (sex, year):
                continue
            if pk not in allowed:  # shared with another organiser's tournament: not his
                raise NotAllowed.one("not_yours", _(
                    "%(name)s also plays in a tournament you do not organise: only a site "
                    "administrator may change his record.") % {"name": player.full_name})
            before = audit.snapshot(player, ("sex", "birth_year"))
            player.sex, player.birth_year = sex, year
            try:
                player.full_clean(exclude=[f.name for f in Player._meta.fields
                                           if f.name not in ("sex", "birth_year")],
                                  validate_unique=False)  # fmt: skip
            except ValidationError as err:
                raise refusal_of(err) from err
            player.save(update_fields=["sex", "birth_year"])
            audit.record(user, "player.update", player, tournament_id=tournament.pk,
                         before=before, after=audit.snapshot(player, ("sex", "birth_year")))
            changed += 1
        return changed
