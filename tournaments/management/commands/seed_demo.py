"""``manage.py seed_demo``: a demo club, players, pairs, the tournament "Demo" and demo accounts.

Idempotent: running it again finds what it made before and creates nothing twice. Passwords of
the demo accounts are set only when the accounts are created.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import roles
from tournaments.models import Club, Entry, Player, Tournament

DEMO_PASSWORD = "demo12345"
DEMO_TOURNAMENT = "Demo"

DEMO_ACCOUNTS = [
    # username, first name, last name, role
    ("organiser", "Ольга", "Организаторова", roles.ORGANISER),
    ("chief", "Глеб", "Главный", roles.CHIEF_REFEREE),
    ("referee", "Семён", "Судейкин", roles.REFEREE),
]

DEMO_PLAYERS = [
    # last name, first name, rating
    ("Иванов", "Пётр", 1620),
    ("Петров", "Иван", 1580),
    ("Сидоров", "Алексей", 1540),
    ("Кузнецов", "Николай", 1510),
    ("Смирнов", "Виктор", 1490),
    ("Попов", "Сергей", 1470),
    ("Волков", "Андрей", 1450),
    ("Фёдоров", "Михаил", 1400),
]


class Command(BaseCommand):
    help = "Create demo data and demo accounts (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        club, _ = Club.objects.get_or_create(name="Клуб «Дубль»", defaults={"city": "Москва"})
        players = []
        for index, (last_name, first_name, rating) in enumerate(DEMO_PLAYERS, start=1):
            player, _ = Player.objects.get_or_create(
                federation_id=f"DEMO-{index:03d}",
                defaults={
                    "last_name": last_name,
                    "first_name": first_name,
                    "rating": rating,
                    "club": club,
                },
            )
            players.append(player)

        tournament, _ = Tournament.objects.get_or_create(
            name=DEMO_TOURNAMENT,
            defaults={
                "venue": "Клуб «Дубль», Москва",
                "rules_preset": "sport",
                "format": Tournament.Format.PAIRS,
                "system": Tournament.System.SWISS,
                "rounds": 3,
                "public": True,
            },
        )
        for seed, (first, second) in enumerate(zip(players[::2], players[1::2], strict=True), 1):
            entry, created = Entry.objects.get_or_create(
                tournament=tournament,
                name=f"{first.last_name} — {second.last_name}",
                defaults={"club": club, "seed": seed},
            )
            if created:
                entry.players.set([first, second])

        self._create_accounts(tournament)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: tournament «{tournament.name}» (id {tournament.pk}), "
                f"{tournament.entries.count()} pairs."
            )
        )

    def _create_accounts(self, tournament: Tournament) -> None:
        user_model = get_user_model()
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, first_name, last_name, role in DEMO_ACCOUNTS:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"first_name": first_name, "last_name": last_name}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            group, _ = Group.objects.get_or_create(name=role)
            user.groups.add(group)
            if role == roles.ORGANISER:
                tournament.organisers.add(user)
            self.stdout.write(f"  {username:<10} {roles.label(role)}")
