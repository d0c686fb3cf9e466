"""``manage.py seed_demo``: eight demo events, their clubs and players, and demo accounts.

- «Кубок трёх клубов» — sport domino, 24 fixed pairs from three clubs, Swiss, 6 rounds, now in
  round 4: rounds 1–3 confirmed and finished (standings snapshots), round 4 published with
  most tables confirmed, three in progress, one protocol submitted and waiting for confirmation
  (the captain's PIN is ``2468``) and one table that has not recorded a deal yet; a yellow card.
- Личный турнир «Осенний дубль» — individual, 12 players with partners drawn every round,
  5 rounds, finished and closed.
- Клубный вечер «Козёл» — the ``kozel`` preset, 4 pairs, round robin, 3 rounds, finished.
- «Кубок клуба «Дубль»» — 8 pairs, a Swiss of 3 rounds, then a top-4 knock-out with a match for
  third place, closed; veterans and under-35s, a prize list (``management/demo_cup.py``).
- Вечер «Пятёрки» — ``muggins`` (RULES.md 15–23), 7 players each for himself, Swiss, 3 rounds.
- «Чечевэ», «Семёрка», «Генерал» (one «на вылет») evenings, an «Осёл» match (``demo_club``).

Everything is written through the real services: the pairing of ``tournaments.rounds``, deals
played by ``rules.simulate`` (and ``rules.club.simulate``) with a seeded RNG and recorded,
submitted and confirmed by ``scoring.services``, rounds finished by
``tournaments.rounds.finish_round``. So every protocol is legal and every invariant holds,
and the same data comes out on every run.

The account ``chief`` is appointed chief referee of every demo event (chief referees are per
tournament). Idempotent: an event that exists (by name) is left as it is, except that ``chief``
is appointed if he is not; accounts are created once (their passwords are set only then).
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts import roles
from config.inputs import quoted
from rules.club import ClubRules
from rules.fives import FivesRules
from rules.simulate import play_fives_match, play_match
from scoring import services as scoring
from scoring.models import Match
from tournaments import discipline, ratings, registration, rounds
from tournaments.management import demo_club, demo_cup
from tournaments.management.demo_cup import CUP_NAME
from tournaments.models import Club, Pairing, Player, Round, Season, Tournament

DEMO_PASSWORD = "demo12345"
DEMO_PIN = "2468"

SWISS_NAME = "Кубок трёх клубов"
INDIVIDUAL_NAME = "Личный турнир «Осенний дубль»"
KOZEL_NAME = "Клубный вечер «Козёл»"
FIVES_NAME = "Вечер «Пятёрки»"
DEMO_TOURNAMENTS = (SWISS_NAME, INDIVIDUAL_NAME, KOZEL_NAME, FIVES_NAME, CUP_NAME,
                    *demo_club.NAMES)
SEASON_NAME = "Зимний сезон 2026/27"

DEMO_ACCOUNTS = [
    # username, first name, last name, role
    ("organiser", "Ольга", "Организаторова", roles.ORGANISER),
    ("chief", "Глеб", "Главный", roles.CHIEF_REFEREE),
    ("referee", "Семён", "Судейкин", roles.REFEREE),
    ("referee2", "Анна", "Лаптева", roles.REFEREE),
    ("referee3", "Ринат", "Галиев", roles.REFEREE),
    ("referee4", "Вера", "Соколова", roles.REFEREE),
]
REFEREES = ("referee", "referee2", "referee3", "referee4")

CLUBS = [
    ("Клуб «Дубль»", "Москва"),
    ("ДК «Металлург»", "Липецк"),
    ("«Морской узел»", "Калининград"),
]

# 16 players of each club: last name, first name (rating falls down the list)
CLUB_PLAYERS = [
    [
        ("Иванов", "Пётр"),
        ("Петров", "Иван"),
        ("Сидоров", "Алексей"),
        ("Кузнецов", "Николай"),
        ("Смирнов", "Виктор"),
        ("Попов", "Сергей"),
        ("Волков", "Андрей"),
        ("Фёдоров", "Михаил"),
        ("Морозов", "Дмитрий"),
        ("Лебедев", "Юрий"),
        ("Козлов", "Геннадий"),
        ("Новиков", "Олег"),
        ("Соловьёв", "Борис"),
        ("Васильев", "Константин"),
        ("Зайцев", "Аркадий"),
        ("Павлов", "Степан"),
    ],
    [
        ("Семёнов", "Владимир"),
        ("Голубев", "Анатолий"),
        ("Виноградов", "Евгений"),
        ("Богданов", "Валерий"),
        ("Воробьёв", "Игорь"),
        ("Филиппов", "Роман"),
        ("Марков", "Леонид"),
        ("Белов", "Григорий"),
        ("Комаров", "Станислав"),
        ("Орлов", "Вадим"),
        ("Киселёв", "Тимофей"),
        ("Макаров", "Павел"),
        ("Андреев", "Фёдор"),
        ("Ковалёв", "Артём"),
        ("Ильин", "Вячеслав"),
        ("Гусев", "Антон"),
    ],
    [
        ("Титов", "Максим"),
        ("Кудрявцев", "Егор"),
        ("Баранов", "Кирилл"),
        ("Куликов", "Денис"),
        ("Алексеев", "Руслан"),
        ("Степанов", "Илья"),
        ("Яковлев", "Матвей"),
        ("Сорокин", "Арсений"),
        ("Сергеев", "Всеволод"),
        ("Романов", "Ярослав"),
        ("Захаров", "Семён"),
        ("Борисов", "Тарас"),
        ("Королёв", "Эдуард"),
        ("Герасимов", "Лев"),
        ("Пономарёв", "Савелий"),
        ("Григорьев", "Глеб"),
    ],
]

# the individual event: 12 players, 4 of each club
INDIVIDUAL_PLAYERS = [(club, index) for index in (0, 3, 6, 9) for club in range(3)]
# the Козёл evening: 4 pairs of the Moscow club's veterans
KOZEL_PLAYERS = [(0, 10), (0, 11), (0, 12), (0, 13), (0, 14), (0, 15), (1, 14), (1, 15)]
# the «Пятёрка» evening: 7 players of Kaliningrad and Lipetsk, each for himself
FIVES_PLAYERS = [(2, 8), (2, 9), (2, 10), (2, 11), (1, 8), (1, 9), (1, 10)]

# Round 4 of the Swiss event (indexes of its tables, 0 = table 1; the referees take the tables in
# turn, so the account ``referee`` has tables 1, 5 and 9): tables in play and how many deals each
# has recorded, the submitted one, the one with no deal yet; the rest are confirmed.
IN_PROGRESS = {2: 5, 8: 6, 9: 3}
SUBMITTED_TABLE = 6
EMPTY_TABLE = 4


class Command(BaseCommand):
    help = "Create demo events, players and accounts (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        # the pairing task sent on commit finds its round paired already; not worth a log line
        quiet = logging.getLogger("celery")
        level = quiet.level
        quiet.setLevel(logging.WARNING)
        try:
            self._seed()
        finally:
            quiet.setLevel(level)

    def _seed(self) -> None:
        users = self._accounts()
        clubs, players = self._players()
        built = []
        for name, build in (
            (SWISS_NAME, self._swiss),
            (INDIVIDUAL_NAME, self._individual),
            (KOZEL_NAME, self._kozel),
            (FIVES_NAME, self._fives),
            (CUP_NAME, lambda *a: demo_cup.build(self, *a)),
        ):
            if Tournament.objects.filter(name=name).exists():
                continue
            with transaction.atomic():
                build(users, clubs, players)
            built.append(name)
        fresh = [n for n in demo_club.NAMES if not Tournament.objects.filter(name=n).exists()]
        with transaction.atomic():  # the seed-003 club evenings (``demo_club``)
            demo_club.build(self, users, clubs, players)
        built += fresh
        for name in DEMO_TOURNAMENTS:
            tournament = Tournament.objects.get(name=name)
            tournament.organisers.add(users["organiser"])
            self._appoint_chief(tournament, users)
            state = "created" if name in built else "exists"
            self.stdout.write(f"  [{state}] {quoted(name)} — /tournaments/{tournament.pk}/")
        # the club's season of the public evenings, and everybody's rating from their matches
        season, made = Season.objects.get_or_create(name=SEASON_NAME)
        season.tournaments.add(*Tournament.objects.filter(name__in=DEMO_TOURNAMENTS, public=True))
        rated = ratings.recompute()
        state = "created" if made else "exists"
        self.stdout.write(f"  [{state}] {quoted(SEASON_NAME)} — /seasons/{season.pk}/; "
                          f"ratings from {rated} matches — /ratings/")  # fmt: skip
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, _first, _last, role in DEMO_ACCOUNTS:
            self.stdout.write(f"  {username:<10} {roles.label(role)}")
        self.stdout.write(self.style.SUCCESS("Demo data ready."))

    # --- people -------------------------------------------------------------------------------

    @staticmethod
    def _appoint_chief(tournament: Tournament, users: dict[str, Any]) -> None:
        """``chief`` judges the event (kept with any chief referee appointed since)."""
        chiefs = list(tournament.chief_referees.all())
        if users["chief"] not in chiefs:
            registration.set_chief_referees(users["organiser"], tournament.pk,
                                            [*chiefs, users["chief"]])  # fmt: skip

    def _accounts(self) -> dict[str, Any]:
        user_model = get_user_model()
        users = {}
        for username, first_name, last_name, role in DEMO_ACCOUNTS:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"first_name": first_name, "last_name": last_name}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            group, _ = Group.objects.get_or_create(name=role)
            user.groups.add(group)
            users[username] = user
        return users

    def _players(self) -> tuple[list[Club], list[list[Player]]]:
        clubs, players = [], []
        for c, ((club_name, city), names) in enumerate(zip(CLUBS, CLUB_PLAYERS, strict=True)):
            club, _ = Club.objects.get_or_create(name=club_name, defaults={"city": city})
            clubs.append(club)
            members = []
            for i, (last_name, first_name) in enumerate(names):
                player, _ = Player.objects.get_or_create(
                    federation_id=f"DEMO-{c + 1}{i + 1:02d}",
                    defaults={"last_name": last_name, "first_name": first_name,
                              "rating": 1700 - 20 * i - 7 * c, "club": club},
                )  # fmt: skip
                members.append(player)
            players.append(members)
        return clubs, players

    # --- the events ---------------------------------------------------------------------------

    def _swiss(self, users: dict[str, Any], clubs: list[Club], players: list[list[Player]]) -> None:
        organiser = users["organiser"]
        today = timezone.localdate()
        tournament = registration.create_tournament(
            organiser, name=SWISS_NAME, start_date=today, end_date=today,
            venue="Москва, ДК «Дубль», большой зал", rules_preset="sport",
            format=Tournament.Format.PAIRS, system=Tournament.System.SWISS, rounds=6,
            public=True, club_avoidance=Tournament.ClubAvoidance.AMONG_EQUALS,
            club_strict_until=2, yellow_card_points=10,
        )  # fmt: skip
        self._appoint_chief(tournament, users)
        for c, club in enumerate(clubs):
            members = players[c]
            for k in range(8):
                first, second = members[2 * k], members[2 * k + 1]
                registration.add_entry(
                    organiser, tournament.pk, name=f"{first.last_name} — {second.last_name}",
                    players=[first, second], club=club, seed=3 * k + c + 1,  # clubs alternate
                )  # fmt: skip
        rng = random.Random(20240901)
        for number in (1, 2, 3):
            round_ = self._pair(organiser, tournament, users)
            for pairing in self._tables(round_):
                self._play(pairing, rng, users)
            if number == 2:
                self._yellow_card(users["chief"], tournament, round_)
            rounds.finish_round(users["organiser"], round_.pk)
        round_ = self._pair(organiser, tournament, users)
        for index, pairing in enumerate(self._tables(round_)):
            if index == EMPTY_TABLE:
                continue
            if index in IN_PROGRESS:
                self._play(pairing, rng, users, deals=IN_PROGRESS[index])
            elif index == SUBMITTED_TABLE:
                scoring.set_confirm_pin(pairing.match_id, users["chief"], DEMO_PIN)
                self._play(pairing, rng, users, confirm=False)
            else:
                self._play(pairing, rng, users)

    def _individual(
        self, users: dict[str, Any], clubs: list[Club], players: list[list[Player]]
    ) -> None:
        self._players_event(
            users, clubs, players, INDIVIDUAL_PLAYERS, random.Random(20241005),
            name=INDIVIDUAL_NAME, start_date=timezone.localdate() - timedelta(days=30),
            venue="Липецк, ДК «Металлург»",
            rules_preset="sport", format=Tournament.Format.INDIVIDUAL, rounds=5,
        )  # fmt: skip

    def _players_event(self, users: dict[str, Any], clubs: list[Club],
                       players: list[list[Player]], chosen: list[tuple[int, int]],
                       rng: random.Random, **setup: Any) -> None:  # fmt: skip
        """A finished event whose entries are single players (``chosen``: club, index)."""
        organiser = users["organiser"]
        tournament = registration.create_tournament(
            organiser, end_date=setup["start_date"], system=Tournament.System.SWISS, public=True,
            **setup,
        )  # fmt: skip
        self._appoint_chief(tournament, users)
        for seed, (c, i) in enumerate(chosen, 1):
            player = players[c][i]
            registration.add_entry(organiser, tournament.pk, name=player.full_name,
                                   players=[player], club=clubs[c], seed=seed)  # fmt: skip
        self._play_all(tournament, users, rng)

    def _kozel(self, users: dict[str, Any], clubs: list[Club], players: list[list[Player]]) -> None:
        organiser = users["organiser"]
        day = timezone.localdate() - timedelta(days=7)
        tournament = registration.create_tournament(
            organiser, name=KOZEL_NAME, start_date=day, end_date=day,
            venue="Москва, клуб «Дубль», веранда", rules_preset="kozel",
            format=Tournament.Format.PAIRS, system=Tournament.System.ROUND_ROBIN, rounds=3,
            public=True,
        )  # fmt: skip
        self._appoint_chief(tournament, users)
        chosen = [players[c][i] for c, i in KOZEL_PLAYERS]
        for seed, (first, second) in enumerate(zip(chosen[::2], chosen[1::2], strict=True), 1):
            registration.add_entry(
                organiser, tournament.pk, name=f"{first.last_name} — {second.last_name}",
                players=[first, second], club=first.club, seed=seed,
            )  # fmt: skip
        self._play_all(tournament, users, random.Random(20241102))

    def _fives(self, users: dict[str, Any], clubs: list[Club], players: list[list[Player]]) -> None:
        self._players_event(
            users, clubs, players, FIVES_PLAYERS, random.Random(20241122), name=FIVES_NAME,
            start_date=timezone.localdate() - timedelta(days=3),
            venue="Калининград, клуб «Морской узел»", rules_preset="muggins",
            format=Tournament.Format.FREE_FOR_ALL, rounds=3,
        )  # fmt: skip

    def _play_all(self, tournament: Tournament, users: dict[str, Any], rng: random.Random) -> None:
        for _number in range(tournament.rounds):
            round_ = self._pair(users["organiser"], tournament, users)
            for pairing in self._tables(round_):
                self._play(pairing, rng, users)
            rounds.finish_round(users["organiser"], round_.pk)
        rounds.close_tournament(users["organiser"], tournament.pk)

    # --- rounds and tables --------------------------------------------------------------------

    def _pair(self, organiser: Any, tournament: Tournament, users: dict[str, Any]) -> Round:
        """Pair the next round as the organiser's button does, give each table a referee, and
        publish it. The job itself runs here (in the embedded mode its task, sent on commit,
        then finds the round paired and does nothing)."""
        round_ = rounds.start_pairing(organiser, tournament.pk)
        outcome = rounds.run_pairing(round_.pk)
        round_.refresh_from_db()
        if outcome != "paired" or round_.status != Round.Status.PAIRED:
            raise RuntimeError(f"pairing round {round_.number} failed: {round_.error}")
        for index, pairing in enumerate(self._tables(round_)):
            referee = users[REFEREES[index % len(REFEREES)]]
            rounds.assign_referee(organiser, pairing.pk, referee)
        return rounds.publish(organiser, round_.pk)

    @staticmethod
    def _tables(round_: Round) -> list[Pairing]:
        return list(round_.pairings.filter(table__isnull=False).order_by("table"))

    def _play(
        self, pairing: Pairing, rng: random.Random, users: dict[str, Any],
        deals: int | None = None, confirm: bool = True,
    ) -> None:  # fmt: skip
        """Record a simulated match at the table as its referee would; submit it when it is
        over and have the chief referee confirm it."""
        match = Match.objects.get(pk=pairing.match_id)
        referee: AbstractBaseUser = pairing.referee or users["chief"]
        rules = match.get_rules()
        if isinstance(rules, FivesRules):  # the line of play, move by move
            records = play_fives_match(rules, rng)
        elif isinstance(rules, ClubRules):  # the club games of seed 003
            records = demo_club.club_records(rules, rng)
        else:
            records = play_match(rules, rng)
        for record in records[:deals]:
            scoring.record_deal(match.pk, record, referee)
        if deals is not None:
            return
        scoring.submit(match.pk, referee)
        if confirm:
            scoring.confirm(match.pk, users["chief"])

    def _yellow_card(self, chief: Any, tournament: Tournament, round_: Round) -> None:
        pairing = self._tables(round_)[3]
        place = pairing.places.select_related("entry").first()
        assert place is not None
        player = place.entry.players.order_by("pk").first()
        discipline.record_sanction(
            chief, tournament.pk, entry_id=place.entry_id, round_number=round_.number,
            kind="yellow", player_id=player.pk if player else None, table=pairing.table,
            reason="Подсказка партнёру жестом во время розыгрыша (стол "
            f"{pairing.table}); предупреждение.",
        )  # fmt: skip
