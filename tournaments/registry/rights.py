"""Who may change a record of the shared player registry.

    tournaments_of(player_ids) -> set[int]    the tournaments a player plays or substitutes in
    may_change(user, player) -> bool          see below
    changeable(user, players) -> set[int]     the pks of ``players`` that ``user`` may change

A player is one person across every organiser's tournaments: his name, club, rating, sex and
year of birth decide other organisers' seeding, categories and prizes. So an organiser may
change (or merge) a player only when every tournament the player is in is one he organises —
or, for a player an archive import created and nobody else uses, when he organises the
importing tournament. A player in another organiser's tournament, and a player in none, are
the site administrators' (superusers') to change: nobody else can tell that the change is right
for everyone who uses him.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from tournaments.models import Player, Substitute, Tournament


def _superuser(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_superuser)


def tournaments_by_player(player_ids: Iterable[int]) -> dict[int, set[int]]:
    """Each player's tournaments: his entries' and the ones he substitutes in."""
    ids = list(player_ids)
    found: dict[int, set[int]] = {pk: set() for pk in ids}
    rows = Tournament.objects.filter(entries__players__in=ids).values_list(
        "entries__players", "pk")  # fmt: skip
    subs = Substitute.objects.filter(Q(player__in=ids) | Q(replaced__in=ids)).values_list(
        "player", "replaced", "tournament")  # fmt: skip
    for player, tournament in rows:
        found[player].add(tournament)
    for player, replaced, tournament in subs:
        for pk in (player, replaced):
            if pk in found:
                found[pk].add(tournament)
    return found


def tournaments_of(player_ids: Iterable[int]) -> set[int]:
    return set().union(*tournaments_by_player(player_ids).values())


def changeable(user: Any, players: Iterable[Player]) -> set[int]:
    players = list(players)
    if not (user.is_authenticated and user.is_active):
        return set()
    if _superuser(user):
        return {p.pk for p in players}
    used = tournaments_by_player(p.pk for p in players)
    organised = set(Tournament.objects.filter(
        pk__in=set().union(*used.values()) | {p.imported_in_id for p in players
                                              if p.imported_in_id},
        organisers=user).values_list("pk", flat=True))  # fmt: skip
    allowed = set()
    for player in players:
        mine = used[player.pk] or ({player.imported_in_id} if not player.in_registry else set())
        if mine and None not in mine and mine <= organised:
            allowed.add(player.pk)
    return allowed


def may_change(user: Any, player: Player) -> bool:
    return player.pk in changeable(user, [player])
