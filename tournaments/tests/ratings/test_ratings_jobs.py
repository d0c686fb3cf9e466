"""The ratings' recompute as a job (``tournaments.ratings.jobs``, ``services.update``): it never
stops on data the site holds, says so when it fails anyway, replays only from the first match
that changed, and gives exactly what a replay from scratch gives whatever happened in between."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse

from scoring.models import Match
from tournaments.models import (
    Entry,
    PlayerRating,
    RatingChange,
    RatingsJob,
    Round,
    Substitute,
    Tournament,
)
from tournaments.ratings import jobs, services
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every stored rating and rating change, as a page or the API would read them."""
    changes = list(RatingChange.objects.order_by("player_id", "sequence").values_list(
        "player_id", "match_id", "tournament_id", "round_number", "sequence", "played_on",
        "result", "mu_before", "sigma_before", "mu_after", "sigma_after"))  # fmt: skip
    states = list(PlayerRating.objects.order_by("player_id").values_list(
        "player_id", "mu", "sigma", "matches", "last_played"))  # fmt: skip
    return states, changes


def test_a_match_seating_a_player_twice_is_left_out_and_the_rest_is_rated(client) -> None:
    """Written around the services (an old archive, the admin): one player on both sides. The
    recompute used to fail on ``one_rating_change_per_match`` and freeze every rating."""
    event = TournamentFactory(start_date=datetime.date(2027, 3, 1))
    a, b, c, d = add_pairs(event, 4)
    play_round(event, 1, [(a, b, (120, 80)), (c, d, (90, 100))])
    twice = a.players.first()
    b.players.add(twice)
    bad = Match.objects.get(pairing__round__tournament=event, pairing__table=1)

    assert jobs.run() == 1
    assert not RatingChange.objects.filter(match=bad).exists()
    assert RatingChange.objects.filter(player__in=c.players.all()).count() == 2
    job = jobs.status()
    assert job.skipped == [bad.pk] and not job.failing and job.succeeded_at is not None
    page = client.get(reverse("tournaments:ratings")).content.decode()
    assert "1 партия не учтена в рейтинге: в ней один игрок сидит дважды." in page


def test_a_failed_recompute_keeps_the_ratings_and_says_so_on_the_page_and_in_healthz(
    client,
) -> None:
    event = TournamentFactory(start_date=datetime.date(2027, 3, 1))
    a, b = add_pairs(event, 2)
    play_round(event, 1, [(a, b, (120, 80))])
    jobs.run()
    before = snapshot()
    # a broken row (not something the site accepts): the totals of a match are not a mapping
    match = Match.objects.get(pairing__round__tournament=event)
    Match.objects.filter(pk=match.pk).update(totals=[1, 2])
    with pytest.raises(AttributeError):
        jobs.run()

    assert snapshot() == before  # the last good ratings stay
    job = jobs.status()
    assert job.failing and "AttributeError" in job.error
    page = client.get(reverse("tournaments:ratings")).content.decode()
    assert "Рейтинги не удалось пересчитать" in page and "ниже — рейтинги на" in page
    assert "AttributeError" not in page  # why is for the administrators
    health = client.get("/healthz").json()
    assert health["status"] == "degraded" and health["ratings"].startswith("failing since ")
    assert health["ratings"].endswith(": AttributeError")  # the kind, not the data it quotes

    Match.objects.filter(pk=match.pk).update(totals={"NS": 120, "EW": 80})
    jobs.run()
    assert not jobs.status().failing and client.get("/healthz").json()["ratings"] == "ok"
    page = client.get(reverse("tournaments:ratings")).content.decode()
    assert "Рейтинги не удалось пересчитать" not in page and "Рейтинги на" in page


def test_the_admin_shows_the_job(admin_client) -> None:
    jobs.run()
    failed = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
    RatingsJob.objects.filter(pk=jobs.JOB).update(error="ValueError: broken", failed_at=failed)
    page = admin_client.get(reverse("admin:tournaments_ratingsjob_changelist")).content.decode()
    assert "ValueError: broken" in page


def test_a_change_late_in_the_history_replays_only_from_there() -> None:
    early = TournamentFactory(start_date=datetime.date(2027, 1, 1))
    late = TournamentFactory(start_date=datetime.date(2027, 5, 1))
    for event in (early, late):
        a, b, c, d = add_pairs(event, 4)
        play_round(event, 1, [(a, b, (120, 80)), (c, d, (90, 100))])
        play_round(event, 2, [(a, c, (120, 80)), (b, d, (90, 100))])
    first = services.update()
    assert (first.matches, first.replayed_from, first.replayed) == (8, 0, 8)
    assert services.update().replayed == 0  # nothing changed: nothing replayed

    last = Match.objects.filter(pairing__round__tournament=late).order_by("pk").last()
    Match.objects.filter(pk=last.pk).update(winner="NS" if last.winner == "EW" else "EW")
    again = services.update()
    assert (again.replayed_from, again.replayed) == (7, 1)
    incremental = snapshot()
    services.update(full=True)
    assert snapshot() == incremental


# --- Random histories: the incremental recompute equals a replay from scratch ------------------


class History:
    """A few tournaments sharing players, changed at random as organisers and chiefs do."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.players = [PlayerFactory() for _ in range(12)]
        self.events: list[Tournament] = []
        self.event()

    def event(self) -> None:
        """A new tournament (an import of an earlier or later event) of pairs drawn from the
        shared players, one round played."""
        day = datetime.date(2027, 1, 1) + datetime.timedelta(days=self.rng.randrange(0, 300))
        event = TournamentFactory(start_date=day, public=True, rated=True)
        entries = add_pairs(event, 4)
        drawn = self.rng.sample(self.players, 8)
        for index, entry in enumerate(entries):
            entry.players.set(drawn[2 * index: 2 * index + 2])
        self.events.append(event)
        self.round(event)

    def round(self, event: Tournament) -> None:
        number = (Round.objects.filter(tournament=event).count()) + 1
        entries = list(Entry.objects.filter(tournament=event))
        self.rng.shuffle(entries)
        score = lambda: (self.rng.choice([60, 80, 100, 120]), self.rng.choice([70, 90, 110]))  # noqa: E731
        play_round(event, number, [(entries[0], entries[1], score()),
                                   (entries[2], entries[3], score())])  # fmt: skip

    def correct(self) -> None:
        match = self.rng.choice(list(Match.objects.filter(status=Match.Status.CONFIRMED)))
        ns, ew = self.rng.choice([(120, 60), (60, 120), (90, 90)])
        winner = "draw" if ns == ew else ("NS" if ns > ew else "EW")
        Match.objects.filter(pk=match.pk).update(totals={"NS": ns, "EW": ew}, winner=winner)

    def switch(self) -> None:
        event = self.rng.choice(self.events)
        field = self.rng.choice(["public", "rated"])
        Tournament.objects.filter(pk=event.pk).update(**{field: not getattr(event, field)})
        event.refresh_from_db()

    def move(self) -> None:
        event = self.rng.choice(self.events)
        Tournament.objects.filter(pk=event.pk).update(
            start_date=datetime.date(2027, 1, 1) + datetime.timedelta(days=self.rng.randrange(300)))

    def substitute(self) -> None:
        event = self.rng.choice(self.events)
        entry = self.rng.choice(list(Entry.objects.filter(tournament=event)))
        seated = set(Entry.players.through.objects.filter(entry__tournament=event)
                     .values_list("player_id", flat=True))  # fmt: skip
        subbing = set(Substitute.objects.filter(tournament=event)
                      .values_list("player_id", flat=True))  # fmt: skip
        free = [p for p in self.players if p.pk not in seated | subbing]
        if not free:
            return
        Substitute.objects.create(tournament=event, entry=entry, replaced=entry.players.first(),
                                  player=self.rng.choice(free), from_round=1, to_round=None)

    def step(self) -> None:
        action = self.rng.choice(["event", "round", "correct", "switch", "move", "substitute"])
        if action == "round":
            self.round(self.rng.choice(self.events))
        else:
            getattr(self, action)()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_any_order_of_changes_the_incremental_recompute_equals_one_from_scratch(seed) -> None:
    history = History(random.Random(seed))
    services.update()
    for _ in range(25):
        history.step()
        services.update()
        incremental = snapshot()
        services.update(full=True)
        assert snapshot() == incremental
    assert RatingChange.objects.exists()
