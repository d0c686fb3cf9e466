"""Ratings recomputed from a long history on PostgreSQL (issue 16: 10,000 matches in ≤ 5 s).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/ratings_bench.py [--matches 10000] [--players 600] [--repeat 3]
            [--scratch bench_ratings]

Creates a scratch database beside the one DATABASE_URL names (dropped at the end) with public
club evenings of fixed pairs, 20 pairs a night over 5 rounds (50 matches a night), until
``--matches`` confirmed matches exist; pairs are drawn from ``--players`` players, so partners
and opponents recur across evenings as in a club. Then times ``ratings.recompute()`` (loading the
history, replaying it through openskill, rewriting every rating and rating change) and prints the
median, the share of the pure replay, the rows written, and the incremental recompute after a
correction of the history's last match. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scratch import scratch_database  # noqa: E402


def build(matches: int, players: int) -> None:
    import datetime

    from django.core.management import call_command
    from django.utils import timezone

    from scoring.models import Match
    from tournaments.models import Entry, Pairing, PairingEntry, Player, Round, Tournament

    call_command("migrate", verbosity=0)
    rng = random.Random(16)
    people = Player.objects.bulk_create(Player(last_name=f"Игрок{i}") for i in range(players))
    made = night = 0
    now = timezone.now()
    while made < matches:
        night += 1
        tournament = Tournament.objects.create(
            name=f"Вечер {night}", public=True, rounds=5, status="finished",
            start_date=datetime.date(2026, 1, 1) + datetime.timedelta(days=night))  # fmt: skip
        chosen = rng.sample(people, 40)
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, name=f"Пара {i}") for i in range(20))
        Entry.players.through.objects.bulk_create(
            Entry.players.through(entry_id=e.pk, player_id=chosen[2 * i + k].pk)
            for i, e in enumerate(entries) for k in (0, 1))  # fmt: skip
        for number in range(1, 6):
            round_ = Round.objects.create(tournament=tournament, number=number,
                                          status="finished", published_at=now)  # fmt: skip
            order = entries[:]
            rng.shuffle(order)
            found = Match.objects.bulk_create(
                Match(label=f"{night}/{number}/{t}", table=str(t), status="confirmed",
                      finished=True, end="target", confirmed_at=now,
                      winner=rng.choice(["NS", "EW"]),
                      totals={"NS": rng.randint(0, 150), "EW": rng.randint(0, 150)})
                for t in range(1, 11))  # fmt: skip
            pairings = Pairing.objects.bulk_create(
                Pairing(round=round_, table=t, match=m) for t, m in enumerate(found, 1))
            PairingEntry.objects.bulk_create(
                PairingEntry(pairing=p, round=round_, entry=order[2 * i + k],
                             side=("NS", "EW")[k], position=0)
                for i, p in enumerate(pairings) for k in (0, 1))  # fmt: skip
            made += len(found)
    print(f"built {made} confirmed matches over {night} evenings, {players} players")


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.db import connection

    from tournaments import ratings
    from tournaments.models import PlayerRating, RatingChange
    from tournaments.ratings.compute import replay

    build(args.matches, args.players)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        rated = ratings.recompute(full=True)
        times.append(time.perf_counter() - start)
    # a correction of the history's last evening: replayed from its first changed match only
    from scoring.models import Match
    from tournaments.ratings import services

    last = Match.objects.order_by("-pk").first()
    assert last is not None
    Match.objects.filter(pk=last.pk).update(winner="NS" if last.winner == "EW" else "EW")
    start = time.perf_counter()
    outcome = services.update()
    incremental = time.perf_counter() - start
    history, _where, _skipped = ratings.rated_history()
    start = time.perf_counter()
    replay(history)
    pure = time.perf_counter() - start
    print(f"recompute of {rated} matches: median {statistics.median(times):.2f} s over "
          f"{args.repeat} runs (target ≤ 5 s); the openskill replay alone {pure:.2f} s; "
          f"{PlayerRating.objects.count()} ratings and {RatingChange.objects.count()} "
          f"rating changes written; after a correction of the last match: {incremental:.2f} s "
          f"(replayed {outcome.replayed} from place {outcome.replayed_from})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scratch", default="bench_ratings")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    with scratch_database(args.scratch, keep=args.keep):
        run(args)


if __name__ == "__main__":
    main()
