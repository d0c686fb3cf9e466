"""factory_boy factories for the tournaments app's tables."""

import factory

from tournaments.models import Club, Entry, Player, Tournament


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Клуб {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    last_name = factory.Sequence(lambda n: f"Игроков{n}")
    first_name = "Иван"
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Турнир {n}")
    public = True


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Пара {n}")
