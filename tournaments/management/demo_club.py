"""The demo's club evenings of the seed-003 games (``seed_demo``, issue 27), one of each family:

- «Вечер Чечевэ» — «Чечевэ» each for himself, 7 players (a table of four, one of three), Swiss,
  3 rounds, finished: fewer points rank first, a 0:0 finish makes the others «козлы»;
- «Семёрка до последнего» — «Семёрка», 8 players at two tables of four, 2 rounds: each table
  plays until one player is left, sticks and the players out in order on every protocol;
- «Генерал: вечер клуба» — «Генерал», 8 players with partners drawn each round, 2 rounds, each
  table's match ends by time after its sixth deal: generals, not points;
- «Генерал на вылет» — 4 fixed pairs queue at one table (``tournaments.rotation``): a stint ends
  at two lost deals, its loser waits at the end; five stints played, the sixth at the table;
- «Осёл» at one table, a match in play that the referee ``referee`` is recording.

Played like the rest of the demo: the pairing job, the club simulator's deals
(``rules.club.simulate``) recorded, submitted and confirmed through ``scoring.services``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

from rules.club import ClubRules, club_judge
from rules.club.simulate import play_club_match
from scoring import services as scoring
from tournaments import registration, rounds
from tournaments.models import Club, Player, Tournament

CHECHEVO_NAME = "Вечер Чечевэ"
SEMERKA_NAME = "Семёрка до последнего"
GENERAL_NAME = "Генерал: вечер клуба"
OSEL_LABEL = "Осёл на веранде"
ROTATION_NAME = "Генерал на вылет"
#: the rotation's four pairs (club, index of two players each)
ROTATION_PAIRS = [((0, 1), (0, 2)), ((1, 1), (1, 2)), ((2, 1), (2, 2)), ((0, 3), (1, 3))]
ROTATION_PLAYED = 5
#: the evenings, in the order the demo lists them
NAMES = (CHECHEVO_NAME, SEMERKA_NAME, GENERAL_NAME, ROTATION_NAME)
#: «Генерал» is played by time: the deal after which the referee marks that time is up
GENERAL_DEALS = 6

CHECHEVO_PLAYERS = [(0, 6), (0, 7), (0, 8), (1, 6), (1, 7), (2, 6), (2, 7)]
SEMERKA_PLAYERS = [(0, 9), (0, 10), (1, 11), (1, 12), (2, 12), (2, 13), (0, 11), (1, 13)]
GENERAL_PLAYERS = [(0, 12), (0, 13), (0, 14), (1, 14), (1, 15), (2, 14), (2, 15), (0, 15)]


def club_records(rules: ClubRules, rng: random.Random) -> list[dict[str, Any]]:
    """A club match's deals as its referee records them; «Генерал» (played by time) stops
    after ``GENERAL_DEALS`` deals, the last marked ``time_up``."""
    records = play_club_match(club_judge(rules), rng)
    if rules.preset == "general" and rules.end == "time":
        records = records[:GENERAL_DEALS]
        records[-1]["time_up"] = True
    return records


def build(command: Any, users: dict[str, Any], clubs: list[Club],
          players: list[list[Player]]) -> None:  # fmt: skip
    """The three evenings and the «Осёл» match in play."""
    today = timezone.localdate()
    for name, preset, format_, chosen, count, days, seed in (
        (CHECHEVO_NAME, "chechevo", Tournament.Format.FREE_FOR_ALL, CHECHEVO_PLAYERS, 3, 5, 31),
        (SEMERKA_NAME, "semerka", Tournament.Format.FREE_FOR_ALL, SEMERKA_PLAYERS, 2, 4, 32),
        (GENERAL_NAME, "general", Tournament.Format.INDIVIDUAL, GENERAL_PLAYERS, 2, 2, 33),
    ):
        if Tournament.objects.filter(name=name).exists():
            continue
        command._players_event(
            users, clubs, players, chosen, random.Random(seed), name=name,
            start_date=today - timedelta(days=days), venue="Москва, клуб «Дубль», веранда",
            rules_preset=preset, format=format_, rounds=count,
        )  # fmt: skip
    if not Tournament.objects.filter(name=ROTATION_NAME).exists():
        _rotation(command, users, clubs, players)
    _osel_in_play(users, players)


def _rotation(command: Any, users: dict[str, Any], clubs: list[Club],
              players: list[list[Player]]) -> None:  # fmt: skip
    """«Генерал на вылет»: five stints confirmed, the sixth published and not yet begun."""
    organiser = users["organiser"]
    day = timezone.localdate()
    tournament = registration.create_tournament(
        organiser, name=ROTATION_NAME, start_date=day, end_date=day,
        venue="Москва, клуб «Дубль», веранда", rules_preset="general",
        rules_options={"end": "losses"}, format=Tournament.Format.PAIRS,
        system=Tournament.System.ROTATION, rounds=8, public=True,
    )  # fmt: skip
    command._appoint_chief(tournament, users)
    for seed, ((c1, i1), (c2, i2)) in enumerate(ROTATION_PAIRS, 1):
        first, second = players[c1][i1], players[c2][i2]
        registration.add_entry(organiser, tournament.pk,
                               name=f"{first.last_name} — {second.last_name}",
                               players=[first, second], club=clubs[c1], seed=seed)
    rng = random.Random(35)
    for number in range(1, ROTATION_PLAYED + 2):
        round_ = command._pair(organiser, tournament, users)
        if number > ROTATION_PLAYED:
            break
        for pairing in command._tables(round_):
            command._play(pairing, rng, users)
        rounds.finish_round(organiser, round_.pk)


def _osel_in_play(users: dict[str, Any], players: list[list[Player]]) -> None:
    from scoring.models import Match

    if Match.objects.filter(label=OSEL_LABEL).exists():
        return
    referee = users["referee"]
    seats = dict(zip("NESW", (players[0][1], players[1][1], players[0][2], players[1][2]),
                     strict=True))  # fmt: skip
    match = scoring.create_match(user=users["chief"], referee=referee, seats=seats,
                                 rules_preset="osel", label=OSEL_LABEL, table="1")
    for record in club_records(match.get_rules(), random.Random(34))[:3]:
        scoring.record_deal(match.pk, record, referee)
