"""The prize arithmetic by hand: one prize per entry (the better one), priorities, shared places,
category standings and the club classification (``tournaments.prizes`` pure modules)."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.prizes.allocation import Place, PrizeSpec, allocate, category_places
from tournaments.prizes.membership import ClubEntry, Person, Rule, belongs, club_table, qualifies

WOMEN = 1
VETERANS = 2


def places(*entries: int) -> list[Place]:
    return [Place(e, n, 10 - n) for n, e in enumerate(entries, 1)]


def prize(pk: int, category: int | None, place: int, amount: str) -> PrizeSpec:
    return PrizeSpec(pk, category, place, Decimal(amount))


def won(result) -> dict[int, tuple[int | None, Decimal]]:
    return {a.entry: (a.prize.id if a.prize else None, a.amount) for a in result.awards}


def test_a_player_entitled_to_two_prizes_gets_the_better_one() -> None:
    # B is second overall (500) and the best woman (700): she takes the women's prize, the
    # overall second prize goes down to C, and the next woman D gets nothing of the women's
    overall = places(1, 2, 3, 4)  # A=1, B=2 (woman), C=3, D=4 (woman)
    prizes = [prize(10, None, 1, "1000"), prize(11, None, 2, "500"), prize(20, WOMEN, 1, "700")]
    result = allocate(overall, {WOMEN: category_places(overall, {2, 4})}, prizes)
    assert won(result) == {1: (10, Decimal(1000)), 2: (20, Decimal(700)), 3: (11, Decimal(500))}
    # the other way round: the overall prize is worth more, the women's goes to the next woman
    prizes = [prize(10, None, 1, "1000"), prize(11, None, 2, "800"), prize(20, WOMEN, 1, "700")]
    result = allocate(overall, {WOMEN: category_places(overall, {2, 4})}, prizes)
    assert won(result) == {1: (10, Decimal(1000)), 2: (11, Decimal(800)), 4: (20, Decimal(700))}


def test_equal_prizes_follow_the_organisers_priority() -> None:
    overall = places(1, 2, 3)
    women = {WOMEN: category_places(overall, {2, 3})}
    prizes = [prize(10, None, 1, "900"), prize(11, None, 2, "300"), prize(20, WOMEN, 1, "300")]
    first = allocate(overall, women, prizes, priority="overall")
    assert won(first) == {1: (10, Decimal(900)), 2: (11, Decimal(300)), 3: (20, Decimal(300))}
    second = allocate(overall, women, prizes, priority="category")
    assert won(second) == {1: (10, Decimal(900)), 2: (20, Decimal(300)), 3: (11, Decimal(300))}


def test_a_list_gives_its_places_in_order_and_runs_out() -> None:
    overall = places(1, 2, 3)
    veterans = {VETERANS: category_places(overall, {1})}
    prizes = [prize(10, None, 1, "100"), prize(30, VETERANS, 1, "50"), prize(31, VETERANS, 2, "40")]
    result = allocate(overall, veterans, prizes)
    assert won(result) == {1: (10, Decimal(100))}
    assert [p.id for p in result.unawarded] == [30, 31]


def test_shared_places_split_the_overall_prizes_of_the_tied_entries() -> None:
    # B, C and D level on 6 points for places 2-4: 500 + 300 + 0 shared three ways
    overall = [Place(1, 1, 8), Place(2, 2, 6), Place(3, 3, 6), Place(4, 4, 6), Place(5, 5, 2)]
    prizes = [prize(10, None, 1, "1000"), prize(11, None, 2, "500"), prize(12, None, 3, "300")]
    result = allocate(overall, {}, prizes, ties="split")
    assert won(result) == {1: (10, Decimal(1000)), 2: (11, Decimal("266.66")),
                           3: (12, Decimal("266.66")), 4: (None, Decimal("266.66"))}
    assert result.of_entry()[4].shared_with == (2, 3, 4)
    tiebreak = allocate(overall, {}, prizes, ties="tiebreak")
    assert won(tiebreak) == {1: (10, Decimal(1000)), 2: (11, Decimal(500)), 3: (12, Decimal(300))}


def test_a_tied_entry_with_a_category_prize_keeps_it_and_does_not_share() -> None:
    overall = [Place(1, 1, 6), Place(2, 2, 6), Place(3, 3, 6)]
    prizes = [prize(10, None, 1, "300"), prize(11, None, 2, "100"), prize(20, WOMEN, 1, "200")]
    result = allocate(overall, {WOMEN: category_places(overall, {2})}, prizes, ties="split")
    assert won(result) == {1: (10, Decimal(200)), 2: (20, Decimal(200)), 3: (11, Decimal(200))}


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 900)),
                                    max_size=15), st.integers(0, 10**6),
       st.sampled_from(["overall", "category"]), st.sampled_from(["tiebreak", "split"]))
def test_no_entry_wins_twice_and_nothing_is_invented(n, raw, seed, priority, ties) -> None:
    rng = random.Random(seed)
    overall = [Place(e, e, rng.randint(0, 3)) for e in range(1, n + 1)]
    overall.sort(key=lambda p: -p.score)
    overall = [Place(p.entry, i, p.score) for i, p in enumerate(overall, 1)]
    lists = {c: category_places(overall, {e for e in range(1, n + 1) if rng.random() < 0.5})
             for c in (1, 2, 3)}
    counters: dict[int | None, int] = {}
    prizes = []
    # a list's prizes are worth less place by place, as prize lists are
    raw = sorted(raw, key=lambda r: (r[0], -r[1]))
    for pk, (cat, amount) in enumerate(raw):
        key = cat or None
        counters[key] = counters.get(key, 0) + 1
        prizes.append(prize(pk, key, counters[key], str(amount)))
    result = allocate(overall, lists, prizes, priority, ties)
    entries = [a.entry for a in result.awards]
    assert len(entries) == len(set(entries))
    given_prizes = [a.prize.id for a in result.awards if a.prize] + [p.id for p in result.unawarded]
    assert sorted(given_prizes) == list(range(len(raw)))
    paid = sum((a.amount for a in result.awards), Decimal(0))
    assert paid <= sum((p.amount for p in prizes), Decimal(0))
    for award in result.awards:  # a category prize goes to a member of the category
        if award.prize and award.prize.category:
            assert award.entry in {p.entry for p in lists[award.prize.category]}
    if ties == "tiebreak":
        # nobody left without a prize would have preferred one given to a worse placed entry
        mine = result.of_entry()
        for award in result.awards:
            key = award.prize.category
            standing = overall if key is None else lists[key]
            for p in standing:
                if p.entry == award.entry:
                    break
                better = mine.get(p.entry)
                assert better is not None and better.prize.amount >= award.prize.amount


def test_category_places_rank_members_among_themselves() -> None:
    overall = [Place(7, 1), Place(8, 2), Place(9, 2), Place(5, 4)]
    assert category_places(overall, {8, 9, 5}) == [Place(8, 1), Place(9, 1), Place(5, 3)]


def test_categories_by_sex_age_rating_and_club() -> None:
    veteran = Rule(age_min=60, year=2025)
    assert qualifies(Person(birth_year=1965), veteran)  # turns 60 in 2025
    assert not qualifies(Person(birth_year=1966), veteran)
    assert not qualifies(Person(), veteran)  # year of birth unknown
    junior = Rule(age_max=18, year=2025)
    assert qualifies(Person(birth_year=2007), junior) and not qualifies(Person(birth_year=2006),
                                                                         junior)
    band = Rule(rating_min=1200, rating_max=1499)
    assert qualifies(Person(rating=1499), band) and not qualifies(Person(rating=1500), band)
    assert not qualifies(Person(), band)
    women = Rule(sex="f")
    pair = [Person(sex="f"), Person(sex="m")]
    assert not belongs(pair, women, 1)
    assert belongs(pair, Rule(sex="f", members="any"), 1)
    assert belongs([Person(sex="f"), Person(sex="f")], women, 1)
    assert belongs([], Rule(members="chosen", chosen=frozenset({3})), 3)
    assert not belongs([], women, 3)
    assert qualifies(Person(club=4), Rule(club=4)) and not qualifies(Person(club=5), Rule(club=4))


def test_the_club_classification_sums_the_best_entries() -> None:
    lines = [ClubEntry(1, 1, 10, "Alpha"), ClubEntry(2, 2, 9, "Beta"), ClubEntry(3, 3, 8, "Beta"),
             ClubEntry(4, 4, 7, "Alpha"), ClubEntry(5, 5, 7, "Alpha"), ClubEntry(6, 6, 1, "")]
    two = club_table(lines, 2)
    assert [(c.rank, c.club, c.score, c.entries) for c in two] == [
        (1, "Alpha", 17, [1, 4]), (1, "Beta", 17, [2, 3])]  # level on score and places
    assert [(c.club, c.score) for c in club_table(lines, 3)] == [("Alpha", 24), ("Beta", 17)]
    assert [(c.rank, c.club) for c in club_table(lines, 1)] == [(1, "Alpha"), (2, "Beta")]
