"""Property tests of the club games over random legal matches (``rules.club.simulate``): every
simulated match is judged without a refusal, and every single tampering of a simulated deal
that no legal deal can show is refused with its section's code."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from rules import tiles as T
from rules.club import club_judge, make_club_rules
from rules.club.simulate import play_club_match

GAMES = [("dvorovoe", 2), ("dvorovoe", 4), ("kozel_morskoy", 4), ("kozel_morskoy", 2),
         ("osel", 4), ("osel", 2), ("chechevo", 3), ("chechevo", 4), ("semerka", 3),
         ("semerka", 4), ("general", 4)]  # fmt: skip
MATCHES = 25


def matches(preset: str, players: int, count: int = MATCHES) -> list[list[dict[str, Any]]]:
    judge = club_judge(make_club_rules(preset, players=players))
    rng = random.Random(f"{preset}-{players}")
    return [play_club_match(judge, rng) for _ in range(count)]


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_random_legal_matches_are_judged_without_a_refusal(preset: str, players: int) -> None:
    judge = club_judge(make_club_rules(preset, players=players))
    played = matches(preset, players)
    for deals in played:
        verdict = judge.fold(deals)
        refused = [(d.n, [p.code for p in d.errors]) for d in verdict.deals if not d.ok]
        assert not refused, (preset, players, refused, deals)
    kinds = {d["result"] for m in played for d in m}
    assert "domino" in kinds  # the simulator plays real deals, not only redeals
    if preset in ("osel", "chechevo", "kozel_morskoy", "general"):
        # several doubles in one move happen, and are accepted
        assert any(len(d.get("last_tiles", "").split()) > 1 for m in played for d in m)
    if preset in ("osel", "chechevo"):
        # real crosses (more than two open ends) are played, and accepted
        assert any(_odd_numbers(d) > 2 for m in played for d in m if d["result"] != "redeal")


def _odd_numbers(deal: dict[str, Any]) -> int:
    """How many numbers the table shows an odd number of times (a line: at most two)."""
    off = T.mask_of(T.parse_tiles(" ".join([*deal["hands"].values(),
                                            deal.get("boneyard", "")])))  # fmt: skip
    odd = 0
    for t in T.tiles_of(T.FULL_SET & ~off):
        odd ^= T.PARITY[t]
    return odd.bit_count()


def _tamperings(deal: dict[str, Any], preset: str) -> list[tuple[str, dict[str, Any]]]:
    """Single changes no legal deal can show, each with the code that must refuse it."""
    out: list[tuple[str, dict[str, Any]]] = []
    hands = {s: h.split() for s, h in deal["hands"].items()}
    holders = [s for s, h in hands.items() if h]
    if len(holders) >= 2:
        a, b = holders[0], holders[1]
        twice = copy.deepcopy(deal)  # a tile in two hands
        twice["hands"][b] = " ".join([*hands[b], hands[a][0]])
        out.append(("duplicate_tile", twice))
    if deal["result"] == "domino":
        finisher = deal["by"]
        given = copy.deepcopy(deal)  # the finisher keeps a tile
        spare = next(t for t in T.NAMES if all(t not in h for h in hands.values())
                     and t not in deal.get("boneyard", "").split()
                     and t not in deal.get("last_tiles", "").split())  # fmt: skip
        given["hands"][finisher] = spare
        out.append(("finisher_has_tiles", given))
        if deal.get("last_tiles") and holders:
            kept = copy.deepcopy(deal)  # the finishing tile still in a hand
            tile = deal["last_tiles"].split()[0]
            kept["hands"][finisher] = ""
            kept["hands"][holders[0]] = " ".join([*hands[holders[0]], tile])
            out.append(("bad_last_tiles", kept))
    if holders:
        missing = copy.deepcopy(deal)  # a hand left out
        del missing["hands"][holders[-1]]
        # (in Генерал nothing is scored from the hands: they are optional)
        if preset != "general" and (holders[-1] != deal.get("by") or deal["result"] != "domino"):
            out.append(("missing_hand", missing))
        wrong = copy.deepcopy(deal)  # pips that are not the tiles'
        seat = holders[0]
        actual = sum(int(x) for t in hands[seat] for x in t.split(":"))
        wrong["pips"] = {seat: actual - 1 if actual else 1}
        out.append(("pips_mismatch", wrong))
    if deal.get("leader"):
        led = copy.deepcopy(deal)
        seats = sorted(deal["hands"]) + ([deal["by"]] if deal["by"] not in deal["hands"] else [])
        led["leader"] = next(s for s in sorted(set(seats)) if s != deal["leader"])
        out.append(("wrong_leader", led))
    return out


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_every_single_tampering_is_refused_with_its_code(preset: str, players: int) -> None:
    judge = club_judge(make_club_rules(preset, players=players))
    tried = 0
    for deals in matches(preset, players, 8):
        for i, deal in enumerate(deals):
            if deal["result"] == "redeal":
                continue
            state = judge.fold(deals[:i]).state
            for code, tampered in _tamperings(deal, preset):
                verdict = judge.judge(copy.deepcopy(state), tampered, apply=False)
                assert not verdict.ok and code in [p.code for p in verdict.errors], (
                    preset, code, tampered, [p.code for p in verdict.errors])
                tried += 1
    assert tried > 50
