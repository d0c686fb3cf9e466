"""Property tests of «Телефон» (``telefon``, RULES.md section 32) on simulated legal play.

An independent model recounts every move from the arms of tiles laid, with the «дом» found as
section 32 says (the first double laid; of the first doubles laid together, the first covered);
random matches are judged without error; the strong and light forms agree; and every single
tampering of a several-doubles move is refused with its code.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules import tiles as T
from rules.fives import FivesJudge, FivesRules, FivesTable, make_fives_rules
from rules.simulate import light_scores, play_fives_deal, play_fives_match

GAMES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (4, {"pairs": False}), (2, {"spinner_count": "all_arms"}),
    (2, {"deal_end": "bonus"}), (3, {"target_check": "move", "target": 151}),
    (4, {"bonus_round": "nearest", "target": 151}),
]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAME = st.sampled_from(GAMES)
FAST = settings(max_examples=120, deadline=None)


def _rules(game: tuple[int, dict[str, Any]]) -> FivesRules:
    return make_fives_rules("telefon", game[1], game[0])


def _tile(text: str) -> int:
    return T.parse_tiles(text)[0]


# ------------------------------------------------------------------ independent model
def model_counts(rules: FivesRules, play: list[dict[str, Any]]) -> list[int]:
    """The count after each move from the arms of tiles (inner half, outer half); the «дом» is
    ("lead",) or (arm, position), candidates of doubles laid together wait in ``pending``."""
    arms: dict[str, list[tuple[int, int]]] = {e: [] for e in "LRUD"}
    lead: tuple[int, int] = (0, 0)
    dom: tuple[str, int] | None = None
    pending: list[tuple[str, int]] = []
    counts: list[int] = []

    def shows(end: str) -> int:
        if arms[end]:
            return arms[end][-1][1]
        if end in "LR":
            return lead[0] if end == "L" else lead[1]
        return dom_number()

    def dom_number() -> int:
        assert dom is not None
        return lead[0] if dom[0] == "lead" else arms[dom[0]][dom[1]][0]

    def arms_open() -> bool:
        if dom is None:
            return False
        if dom[0] == "lead":
            return bool(arms["L"]) and bool(arms["R"])
        return len(arms[dom[0]]) > dom[1] + 1

    def open_ends() -> list[str]:
        return ["L", "R", "U", "D"] if arms_open() else ["L", "R"]

    def weight(end: str) -> int:
        if arms[end]:
            inner, outer = arms[end][-1]
            return 2 * outer if inner == outer else outer
        if end in "LR":
            return 2 * lead[0] if lead[0] == lead[1] else shows(end)
        return dom_number() if rules.spinner_count == "all_arms" else 0

    def lay(t: int, end: str | None) -> str:
        a, b = T.TILES[t]
        if end is None:
            end = next(e for e in open_ends() if shows(e) in (a, b))
        inner = shows(end)
        arms[end].append((inner, b if a == inner else a))
        return end

    for i, entry in enumerate(e for e in play if "tile" in e or "tiles" in e):
        if i == 0:
            lead = T.TILES[_tile(entry["tile"])]
            dom = ("lead", -1) if lead[0] == lead[1] else None
            counts.append(sum(lead))
            continue
        if "tiles" in entry:
            ends = [lay(_tile(p["tile"]), p.get("end")) for p in entry["tiles"]]
            if dom is None and not pending:
                pending = [(e, len(arms[e]) - 1) for e in ends]
        else:
            t = _tile(entry["tile"])
            end = lay(t, entry.get("end"))
            covered = [p for p in pending if p[0] == end and len(arms[end]) == p[1] + 2]
            if dom is None and covered:
                dom, pending = covered[0], []
            elif dom is None and not pending and T.IS_DOUBLE[t]:
                dom = (end, len(arms[end]) - 1)
        counts.append(sum(weight(e) for e in open_ends()))
    return counts


# ------------------------------------------------------------------ properties
@FAST
@given(GAME, SEEDS)
def test_random_games_are_judged_and_counted_as_the_model_counts(
        game: tuple[int, dict[str, Any]], seed: int) -> None:
    rules = _rules(game)
    rng = random.Random(seed)
    judge = FivesJudge(rules)
    state = judge.start()
    for _ in range(3):
        played = play_fives_deal(rules, rng, state.leader, state.totals)
        verdict = judge.judge(state, played.record)
        assert verdict.ok, verdict.errors
        counts = model_counts(rules, played.record["play"])
        assert [m["count"] for m in verdict.moves] == counts
        assert [m["points"] for m in verdict.moves] == \
            [c if c > 0 and c % 5 == 0 else 0 for c in counts]
        assert max(m["points"] for m in verdict.moves) <= 35
        assert all(v >= 0 for v in verdict.totals.values())
        if state.finished:
            break


@FAST
@given(GAME, SEEDS, st.sampled_from(["tiles", "counted", "pips"]))
def test_strong_and_light_forms_agree(game: tuple[int, dict[str, Any]], seed: int,
                                      style: str) -> None:
    rules = _rules(game)
    strong = play_fives_match(rules, random.Random(seed), style=style, max_deals=12)
    judge = FivesJudge(rules)
    verdict = judge.fold(strong)
    assert verdict.ok
    light = []
    for record, deal in zip(strong, verdict.deals, strict=True):
        form = light_scores(record, deal.moves)
        if record["result"] == "fish":  # the light form names the next leader in ``by``
            form["by"] = [e for e in record["play"] if "tile" in e or "tiles" in e][-1]["seat"]
        light.append(form)
    light_verdict = judge.fold(light)
    assert light_verdict.ok, [d.errors for d in light_verdict.deals if not d.ok]
    for a, b in zip(verdict.deals, light_verdict.deals, strict=True):
        assert (a.recorded, a.bonus, a.write_off, a.play_points, a.winner, a.next_leader) == \
            (b.recorded, b.bonus, b.write_off, b.play_points, b.winner, b.next_leader)
    assert verdict.to_dict()["losers"] == light_verdict.to_dict()["losers"]
    assert verdict.state.totals == light_verdict.state.totals


def test_simulated_matches_end_and_lay_several_doubles() -> None:
    rng = random.Random(26)
    several = 0
    for game in GAMES:
        rules = _rules(game)
        records = play_fives_match(rules, rng, declare=True)
        verdict = FivesJudge(rules).fold(records).to_dict()
        assert verdict["ok"] and verdict["finished"], game
        several += sum(1 for r in records for e in r["play"] if "tiles" in e)
        if verdict["end"] == "target" and len(set(verdict["totals"].values())) > 1:
            assert verdict["losers"]
    assert several > 20


# ------------------------------------------------------------------ tampering
def _multi(record: dict[str, Any], rng: random.Random) -> int | None:
    found = [i for i, e in enumerate(record["play"]) if "tiles" in e]
    return rng.choice(found) if found else None


def _before(rules: FivesRules, record: dict[str, Any], index: int) -> tuple[FivesTable, int]:
    table, on = FivesTable(rules), 0
    for e in record["play"][:index]:
        if "tile" in e:
            table.play(_tile(e["tile"]), e.get("end") if table.moves else None)
            on |= 1 << _tile(e["tile"])
        elif "tiles" in e:
            tiles = [_tile(p["tile"]) for p in e["tiles"]]
            table.play_doubles(tiles, [p.get("end") for p in e["tiles"]])
            on |= sum(1 << t for t in tiles)
    return table, on


def not_a_double(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    plain = [t for t in range(T.TILE_COUNT) if not T.IS_DOUBLE[t]]
    rng.choice(r["play"][i]["tiles"])["tile"] = T.NAMES[rng.choice(plain)]
    return "bad_multi_move"


def same_double(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    tiles = r["play"][i]["tiles"]
    tiles[1]["tile"] = tiles[0]["tile"]
    return "bad_multi_move"


def same_end(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    tiles = r["play"][i]["tiles"]
    table, _ = _before(rules, r, i)
    end = table.legal_ends(_tile(tiles[0]["tile"]))[0]
    tiles[0]["end"] = tiles[1]["end"] = end
    return "bad_multi_move"


def multi_points(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    table, _ = _before(rules, r, i + 1)
    scored = table.count if table.count % 5 == 0 else 0
    r["play"][i]["points"] = scored + rng.choice((5, 10, -5))
    return "points_mismatch"


def multi_wrong_end(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    tiles = r["play"][i]["tiles"]
    table, _ = _before(rules, r, i)
    k = rng.randrange(len(tiles))
    t = _tile(tiles[k]["tile"])
    taken = {p.get("end") for p in tiles}
    wrong = [e for e, n in table.open_ends.items() if not T.NUMBERS[t] >> n & 1
             and e not in taken]
    if not wrong:
        return None
    # an earlier double's own end checks come first, and they stay right
    tiles[k]["end"] = rng.choice(wrong)
    return "tile_does_not_match_end"


def multi_played_tile(rules: FivesRules, r: dict[str, Any], i: int, rng: random.Random) -> Any:
    _, on = _before(rules, r, i)
    doubles = [t for t in T.tiles_of(on) if T.IS_DOUBLE[t]]
    if not doubles:
        return None
    mine = {_tile(p["tile"]) for p in r["play"][i]["tiles"]}
    r["play"][i]["tiles"][0]["tile"] = T.NAMES[rng.choice(doubles)]
    assert not mine & set(doubles)
    return "tile_already_played"


TAMPERS = [not_a_double, same_double, same_end, multi_points, multi_wrong_end,
           multi_played_tile]


@settings(max_examples=300, deadline=None)
@given(GAME, SEEDS, st.sampled_from(TAMPERS))
def test_a_tampered_several_doubles_move_is_refused(game: tuple[int, dict[str, Any]],
                                                    seed: int, tamper: Any) -> None:
    rules = _rules(game)
    rng = random.Random(seed)
    record = play_fives_deal(rules, rng).record
    i = _multi(record, rng)
    assume(i is not None)
    assert i is not None
    judge = FivesJudge(rules)
    assert judge.judge(judge.start(), record, apply=False).ok
    tampered = copy.deepcopy(record)
    code = tamper(rules, tampered, i, rng)
    assume(code is not None)
    verdict = judge.judge(judge.start(), tampered, apply=False)
    assert not verdict.ok
    error = verdict.errors[0].to_dict()
    assert error["code"] == code, (tamper.__name__, error)
    assert error["entry"] == i + 1 and error["message_ru"]
