"""Properties of the pure standings on random Swiss-like events (hypothesis, no database)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import TIEBREAKS, Game, Sanction, Settings, standings
from tournaments.standings.types import End, Result

FIXED = {
    "match_points": "match_points",
    "wins": "wins",
    "difference": "difference",
    "points": "points_for",
    "efectividad": "efectividad",
    "buchholz": "buchholz",
    "buchholz_cut1": "buchholz_cut1",
    "median_buchholz": "median_buchholz",
    "sonneborn_berger": "sonneborn_berger",
    "progressive": "progressive",
    "head_to_head": "head_to_head",
    "lot": "lot",
}


def random_event(n: int, rounds: int, rng: random.Random) -> list[Game]:
    """Random pairings each round; an odd one out gets a bye; some forfeits and absences."""
    games: list[Game] = []
    ids = list(range(1, n + 1))
    for rnd in range(1, rounds + 1):
        rng.shuffle(ids)
        if len(ids) % 2:
            games.append(Game(rnd, ids[-1], None, "win", played=False, kind="bye"))
        for a, b in zip(ids[0:-1:2], ids[1::2], strict=False):
            roll = rng.random()
            if roll < 0.1:
                games.append(Game(rnd, a, None, "win", played=False, kind="forfeit_win"))
                games.append(Game(rnd, b, None, "loss", played=False, kind="forfeit_loss"))
                continue
            if roll < 0.15:
                games.append(Game(rnd, a, None, "loss", played=False, kind="absent"))
                games.append(Game(rnd, b, None, "loss", played=False, kind="withdrawn"))
                continue
            pa, pb = rng.randint(0, 250), rng.randint(0, 250)
            ra: Result = "win" if pa > pb else "loss" if pa < pb else "draw"
            rb: Result = "loss" if pa > pb else "win" if pa < pb else "draw"
            end: End = rng.choice(("target", "time", "deals"))
            games.append(Game(rnd, a, b, ra, pa, pb, rng.randint(0, 9), True, "", end))
            games.append(Game(rnd, b, a, rb, pb, pa, rng.randint(0, 9), True, "", end))
    return games


events = st.builds(
    lambda n, rounds, seed: (n, rounds, random_event(n, rounds, random.Random(seed))),
    st.integers(0, 12),
    st.integers(0, 5),
    st.integers(0, 2**32),
)
orders = st.lists(st.sampled_from(TIEBREAKS), unique=True, max_size=6).map(tuple)


def make_settings(order: tuple[str, ...], seed: int) -> Settings:
    return Settings(order=order, seed=seed, target=200)


@settings(max_examples=150, deadline=None)
@given(events, orders, st.integers(0, 10**6))
def test_ranks_are_a_permutation_and_rows_follow_the_tiebreak_tuple(
    event: tuple[int, int, list[Game]], order: tuple[str, ...], seed: int
) -> None:
    n, _, games = event
    rows = standings(range(1, n + 1), games, make_settings(order, seed))
    assert [row.rank for row in rows] == list(range(1, n + 1))
    assert sorted(row.participant for row in rows) == list(range(1, n + 1))
    keys = [row.tiebreaks for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == n
    used = order if "lot" in order else (*order, "lot")
    for row in rows:
        assert len(row.tiebreaks) == len(used)
        for name, value in zip(used, row.tiebreaks, strict=True):
            assert value == getattr(row, FIXED[name])


@settings(max_examples=100, deadline=None)
@given(events, orders, st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_standings_are_deterministic_for_a_seed_whatever_the_input_order(
    event: tuple[int, int, list[Game]], order: tuple[str, ...], seed: int, rng: random.Random
) -> None:
    n, _, games = event
    first = standings(range(1, n + 1), games, make_settings(order, seed))
    ids = list(range(1, n + 1))
    shuffled = list(games)
    rng.shuffle(ids)
    rng.shuffle(shuffled)
    second = standings(ids, shuffled, make_settings(order, seed))
    assert first == second


@settings(max_examples=100, deadline=None)
@given(events)
def test_played_games_balance_and_cuts_never_raise_buchholz(
    event: tuple[int, int, list[Game]],
) -> None:
    n, rounds, games = event
    rows = standings(range(1, n + 1), games, Settings(target=200))
    played = [g for g in games if g.played]
    assert sum(r.games_won for r in rows) == sum(g.result == "loss" for g in played)
    assert sum(r.difference for r in rows) == 0
    for row in rows:
        assert row.wins + row.draws + row.losses == sum(
            g.participant == row.participant for g in games
        )
        assert row.median_buchholz <= row.buchholz_cut1 <= row.buchholz
        assert row.progressive <= row.match_points * rounds


@settings(max_examples=60, deadline=None)
@given(events, st.integers(0, 10**6), st.integers(0, 5))
def test_later_rounds_do_not_change_standings_upto_a_round(
    event: tuple[int, int, list[Game]], seed: int, upto: int
) -> None:
    n, _, games = event
    sanctions = [Sanction(1, 1, 2)] if n else []
    kept = [g for g in games if g.round <= upto]
    whole = standings(range(1, n + 1), games, make_settings((), seed), sanctions, upto)
    cut = standings(range(1, n + 1), kept, make_settings((), seed), sanctions, upto)
    assert whole == cut


@settings(max_examples=150, deadline=None)
@given(events, st.integers(0, 10**6), st.sampled_from(["capped", "plain"]),
       st.lists(st.tuples(st.integers(1, 12), st.integers(1, 5), st.integers(0, 3),
                          st.integers(0, 30)), max_size=4))  # fmt: skip
def test_every_metric_is_the_one_its_definition_gives(
    event: tuple[int, int, list[Game]], seed: int, efectividad: str,
    raw_sanctions: list[tuple[int, int, int, int]],
) -> None:
    """The table computes totals and the opponents' view in one pass (``metrics.tally``) and
    the four opponent metrics together (``metrics.opponent_figures``) for speed: every value
    equals the one the separate definitions in ``metrics`` give."""
    from collections import defaultdict

    from tournaments.standings import metrics

    n, _, games = event
    sanctions = [Sanction(p, r, mp, gp) for p, r, mp, gp in raw_sanctions if p <= n]
    rules = Settings(order=(), seed=seed, target=200, efectividad=efectividad)  # type: ignore[arg-type]
    rows = standings(range(1, n + 1), games, rules, sanctions)
    last = max((g.round for g in games), default=0)
    games_of: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        games_of[game.participant].append(game)
    deductions: dict[int, dict[int, int]] = defaultdict(dict)
    game_points: dict[int, int] = defaultdict(int)
    for s in sanctions:
        deductions[s.participant][s.round] = deductions[s.participant].get(s.round, 0) + s.points
        game_points[s.participant] += s.game_points
    adjusted = {p: metrics.adjusted_score(games_of[p], rules, sum(deductions[p].values()))
                for p in range(1, n + 1)}  # fmt: skip
    for row in rows:
        p = row.participant
        mine = games_of[p]
        results = [metrics.effective_result(g, rules) for g in mine]
        per_round = [sum(rules.points_for(r) for g, r in zip(mine, results, strict=True)
                         if g.round == k) - deductions[p].get(k, 0)
                     for k in range(1, last + 1)]  # fmt: skip
        match_points = sum(per_round) - sum(v for k, v in deductions[p].items() if k > last)
        assert row.match_points == match_points
        assert row.progressive == sum(sum(per_round[:k]) for k in range(1, last + 1))
        assert (row.wins, row.draws, row.losses) == (
            results.count("win"), results.count("draw"), results.count("loss"))
        assert row.games_won == sum(r == "win" and g.played for g, r in zip(mine, results,
                                                                             strict=True))
        assert row.points_for == sum(g.points_for for g in mine) - game_points[p]
        assert row.efectividad == sum(metrics.game_efectividad(g, rules) for g in mine) \
            - game_points[p]  # fmt: skip
        items = metrics.contributions(mine, rules, row.match_points, adjusted)
        assert (row.buchholz, row.buchholz_cut1, row.median_buchholz, row.sonneborn_berger) == (
            metrics.buchholz(items), metrics.buchholz_cut1(items),
            metrics.median_buchholz(items), metrics.sonneborn_berger(items))  # fmt: skip


def refined(
    ids: list[int], games: list[Game], rules: Settings
) -> list[tuple[int, tuple[float, ...]]]:
    """The ranking as it was first written, kept as the reference ``ranking.ranked`` (one sort
    of the value tuples) must agree with: groups split criterion by criterion, head-to-head
    applied inside each group tied so far."""
    from collections import defaultdict

    from tournaments.standings.ranking import direct_encounter

    rows = {row.participant: row for row in standings(ids, games, rules)}
    games_of: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        games_of[game.participant].append(game)
    order = rules.order if "lot" in rules.order else (*rules.order, "lot")
    values: dict[int, list[float]] = {pid: [] for pid in ids}
    groups = [list(ids)] if ids else []
    for name in order:
        split: list[list[int]] = []
        for group in groups:
            if name == "head_to_head":
                subgroups = direct_encounter(group, games_of, rules)
                below = len(group)
                for subgroup in subgroups:
                    below -= len(subgroup)
                    for pid in subgroup:
                        values[pid].append(float(below))
                split.extend(subgroups)
                continue
            buckets: dict[float, list[int]] = defaultdict(list)
            for pid in group:
                value = float(getattr(rows[pid], FIXED[name]))
                values[pid].append(value)
                buckets[value].append(pid)
            split.extend(buckets[key] for key in sorted(buckets, reverse=True))
        groups = split
    return [(pid, tuple(values[pid])) for (pid,) in groups]


@settings(max_examples=150, deadline=None)
@given(events, orders, st.integers(0, 10**6))
def test_one_sort_of_the_value_tuples_ranks_as_the_criterion_by_criterion_refinement(
    event: tuple[int, int, list[Game]], order: tuple[str, ...], seed: int
) -> None:
    n, _, games = event
    rules = make_settings((*order, "head_to_head") if "head_to_head" not in order else order,
                          seed)  # fmt: skip
    rows = standings(range(1, n + 1), games, rules)
    assert [(row.participant, row.tiebreaks) for row in rows] == refined(
        list(range(1, n + 1)), games, rules)
