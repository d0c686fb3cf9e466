"""The demo's club cup (``seed_demo``): «Кубок клуба «Дубль»» — 8 pairs of the three clubs, a
Swiss of 3 rounds, then the best 4 in a knock-out (one game a tie, a match for third place)
played to a champion; veterans (60 and over) and the under-35s as categories, and a prize list. The
organiser's guide to a cup (docs/guides/cup.*.md) is walked and photographed on it.

Everything goes through the services, as the rest of the demo: the stage's setup, the pairing
job, simulated protocols recorded, submitted and confirmed, the final stage started by the
organiser's button's service.
"""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from tournaments import registration, rounds
from tournaments.models import Category, Club, Player, Round, Stage, Tournament
from tournaments.prizes import services as prizes
from tournaments.stages import services as stages

CUP_NAME = "Кубок клуба «Дубль»"
#: (club, index) of the players, two by two: the 8 pairs, best seed first
CUP_PLAYERS = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (0, 2), (0, 3),
               (1, 2), (1, 3), (2, 2), (2, 3), (0, 4), (0, 5), (1, 4), (1, 5)]  # fmt: skip
#: born 1966 or before: the veterans (60 and over this year); 1991 or after: under 35
BORN = [1958, 1971, 1962, 1960, 1985, 1990, 1955, 1957, 1979, 1968, 1999, 1961, 1964, 1950,
        1988, 1975]  # fmt: skip


def build(command: Any, users: dict[str, Any], clubs: list[Club], players: list[list[Player]],
          name: str = CUP_NAME, qualifying_only: bool = False) -> Tournament:  # fmt: skip
    """The cup, played to its end (``qualifying_only``: to the end of the Swiss, the final
    stage waiting for the organiser's button, as the cup guide shows it)."""
    organiser = users["organiser"]
    day = timezone.localdate() - timedelta(days=14)
    tournament = registration.create_tournament(
        organiser, name=name, start_date=day, end_date=day,
        venue="Москва, ДК «Дубль», малый зал", rules_preset="sport",
        format=Tournament.Format.PAIRS, system=Tournament.System.SWISS, rounds=3, public=True,
    )  # fmt: skip
    command._appoint_chief(tournament, users)
    chosen = [players[c][i] for c, i in CUP_PLAYERS]
    for index, player in enumerate(chosen):
        Player.objects.filter(pk=player.pk).update(birth_year=BORN[index], sex="m")
    for seed, (first, second) in enumerate(zip(chosen[::2], chosen[1::2], strict=True), 1):
        registration.add_entry(
            organiser, tournament.pk, name=f"{first.last_name} — {second.last_name}",
            players=[first, second], club=first.club, seed=seed,
        )  # fmt: skip
    stages.configure(organiser, tournament.pk, Stage.Kind.KNOCKOUT, qualifiers=4, best_of=1,
                     third_place=True)  # fmt: skip
    _prize_list(organiser, tournament)
    rng = random.Random(20241116)
    for _number in range(tournament.rounds):
        _play_round(command, users, command._pair(organiser, tournament, users), rng)
    if qualifying_only:
        return tournament
    round_ = rounds.start_final_stage(organiser, tournament.pk)
    while round_ is not None:
        rounds.run_pairing(round_.pk)
        round_.refresh_from_db()
        if round_.status != Round.Status.PAIRED:
            raise RuntimeError(f"pairing knock-out round {round_.number} failed: {round_.error}")
        _referees(command, users, round_)
        rounds.publish(organiser, round_.pk)
        _play_round(command, users, round_, rng)
        round_ = Round.objects.filter(tournament=tournament, number=round_.number + 1).first()
    rounds.close_tournament(organiser, tournament.pk)
    return tournament


def _referees(command: Any, users: dict[str, Any], round_: Round) -> None:
    referees = ("referee", "referee2", "referee3", "referee4")
    for index, pairing in enumerate(command._tables(round_)):
        rounds.assign_referee(users["organiser"], pairing.pk, users[referees[index % 4]])


def _play_round(command: Any, users: dict[str, Any], round_: Round, rng: random.Random) -> None:
    for pairing in command._tables(round_):
        command._play(pairing, rng, users)
    rounds.finish_round(users["organiser"], round_.pk)


def _prize_list(organiser: Any, tournament: Tournament) -> None:
    veterans = prizes.save_category(organiser, tournament.pk, {
        "name": "Ветераны", "order": 1, "age_min": 60, "members": Category.Members.ALL})
    young = prizes.save_category(organiser, tournament.pk, {
        "name": "До 35 лет", "order": 2, "age_max": 35, "members": Category.Members.ANY})
    for place, amount, text in ((1, "5000", "Кубок и диплом"), (2, "3000", "Медали"),
                                (3, "2000", "Медали")):  # fmt: skip
        prizes.save_prize(organiser, tournament.pk, None, place, Decimal(amount), text)
    prizes.save_prize(organiser, tournament.pk, veterans.pk, 1, Decimal("1500"), "Диплом")
    prizes.save_prize(organiser, tournament.pk, young.pk, 1, Decimal("1500"), "Диплом")
