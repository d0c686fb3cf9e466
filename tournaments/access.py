"""Who may see and do what in a tournament: the one place pages, the API, services and the
scoring hook (``tournaments.apps``) ask.

Doing:

    can_manage(user, tournament) -> bool        the tournament's organisers and superusers
    can_create_tournament(user) -> bool         users in the Organiser role
    require_manager(user, tournament)           NotAllowed (403) unless ``can_manage``
    locked_tournament(user, tournament_id)      the row locked ``FOR UPDATE``, for its managers
    can_judge(user, tournament) -> bool         its organisers and its chief referees (sanctions,
                                                confirming its protocols, its unpublished rounds)
    can_correct(user, tournament) -> bool       its chief referees (corrections of protocols)

Seeing — one rule for everything that belongs to a tournament:

    a tournament is visible to everyone when public, else to those who judge it (and staff);
    a round, its tables and their matches once the round is published, except to those who
    judge the tournament; a table's match also to the table's referee, whatever the round.

    visible_tournaments(user) / judged_tournaments(user) / corrected_tournaments(user)
    visible_rounds(user, rounds=None) -> QuerySet[Round]
    visible_tables(user, prefix="") -> Q        Pairing rows (or rows reaching one by ``prefix``,
                                                e.g. ``"pairing__"`` from a scoring Match)
    can_see(user, tournament) / can_see_round(user, round) -> bool
    managed_tournaments(user) / public_tournament_list()

Hidden objects are answered 404 by the callers (their existence is not revealed). Superusers
see and judge everything. Depends on the models and ``accounts`` only; every concern may use it.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils.translation import gettext as _

from accounts.roles import ORGANISER, has_role
from tournaments.errors import NotAllowed
from tournaments.models import (
    Entry,
    Round,
    Tournament,
)

User: TypeAlias = AbstractBaseUser | AnonymousUser

#: rounds everyone may see (the results count the same ones: ``results.ledger.COUNTED``)
PUBLISHED = (Round.Status.PUBLISHED, Round.Status.FINISHED)


def _signed_in(user: User) -> bool:
    return bool(user.is_authenticated and user.is_active)


def _superuser(user: User) -> bool:
    return _signed_in(user) and bool(getattr(user, "is_superuser", False))


def can_manage(user: User, tournament: Tournament) -> bool:
    if not _signed_in(user):
        return False
    if _superuser(user):
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def can_create_tournament(user: User) -> bool:
    return has_role(user, ORGANISER)


def require_manager(user: User, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise NotAllowed.one(
            "not_organiser", _("Only the tournament's organisers may change it.")
        )


def locked_tournament(user: User, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_manager(user, tournament)
    return tournament


# --- the querysets every check below is made of -------------------------------------------------


def judged_tournaments(user: User) -> QuerySet[Tournament]:
    """Tournaments the user organises or is a chief referee of (superusers: all)."""
    if _superuser(user):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(Q(organisers=user) | Q(chief_referees=user)).distinct()


def corrected_tournaments(user: User) -> QuerySet[Tournament]:
    """Tournaments whose confirmed protocols the user may correct: its chief referees'."""
    if _superuser(user):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(chief_referees=user)


def visible_tournaments(user: User) -> QuerySet[Tournament]:
    """Public tournaments for everyone; staff see all; organisers and chief referees also see
    those they judge."""
    queryset = Tournament.objects.all()
    if _signed_in(user) and getattr(user, "is_staff", False):
        return queryset
    if _signed_in(user):
        return queryset.filter(Q(public=True) | Q(pk__in=judged_tournaments(user)))
    return queryset.filter(public=True)


def visible_rounds(user: User, rounds: QuerySet[Round] | None = None) -> QuerySet[Round]:
    """Published rounds of visible tournaments; every round of the tournaments the user judges."""
    rounds = Round.objects.all() if rounds is None else rounds
    seen = Q(tournament__in=visible_tournaments(user), status__in=PUBLISHED)
    return rounds.filter(seen | Q(tournament__in=judged_tournaments(user)))


def visible_tables(user: User, prefix: str = "") -> Q:
    """Tables (``Pairing`` rows) the user may see: those of visible rounds, and his own as the
    table's referee. ``prefix`` reaches the pairing from another model (``"pairing__"``)."""
    seen = Q(**{f"{prefix}round__in": visible_rounds(user)})
    if _signed_in(user):
        seen |= Q(**{f"{prefix}referee": user})
    return seen


# --- per object, from the same querysets ------------------------------------------------------


def _in(queryset: QuerySet[Any], obj: Any) -> bool:
    return bool(queryset.filter(pk=obj.pk).exists())


def can_judge(user: User, tournament: Tournament) -> bool:
    return _in(judged_tournaments(user), tournament)


def can_correct(user: User, tournament: Tournament) -> bool:
    return _in(corrected_tournaments(user), tournament)


def can_see(user: User, tournament: Tournament) -> bool:
    return _in(visible_tournaments(user), tournament)


def can_see_round(user: User, round_: Round) -> bool:
    return _in(visible_rounds(user), round_)


def public_tournament_list() -> QuerySet[Tournament]:
    """The home page's list: those running now, then those to come (the soonest first), then
    the finished ones (the latest first); a tournament without a date after the dated ones.
    Ordered here: a query with a count is grouped, and Django leaves ``Meta.ordering`` out of
    grouped queries (the home page came in the database's order)."""
    active = Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    status = Tournament.Status
    stage = Case(When(status=status.RUNNING, then=0), When(status=status.REGISTRATION, then=1),
                 default=2)  # fmt: skip
    coming = Case(When(status=status.FINISHED, then=None), default=F("start_date"))
    return Tournament.objects.filter(public=True).annotate(entry_count=active).order_by(
        stage, coming.asc(nulls_last=True), F("start_date").desc(nulls_last=True), "-pk")


def managed_tournaments(user: User) -> QuerySet[Tournament]:
    if _superuser(user):
        return Tournament.objects.all()
    if not _signed_in(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(organisers=user)
