"""Section 31's tile-level checks (``rules/club/tiles.py``) on tables built by hand: the line,
the cross and its counting test, the fish, the size of a hand and the finishing tiles."""

from __future__ import annotations

from typing import Any

import pytest

from rules import tiles as T
from rules.contract import check

D = dict[str, Any]
EVERY = [T.NAMES[t] for t in range(T.TILE_COUNT)]


def split(table: str, hand_size: int) -> tuple[str, str]:
    """E's hand (the first ``hand_size`` tiles not on ``table``) and the boneyard (the rest)."""
    on_table = {T.NAMES[T.parse_tiles(x)[0]] for x in table.split()}
    rest = [name for name in EVERY if name not in on_table]
    return " ".join(rest[:hand_size]), " ".join(rest[hand_size:])


def codes_of(preset: str, deal: D, players: int = 2, options: D | None = None) -> list[str]:
    out, _status = check({"preset": preset, "players": players, "options": options or {},
                          "deals": [deal]})  # fmt: skip
    return [e["code"] for e in out["deals"][0]["errors"]]


def domino_with_table(preset: str, table: str) -> D:
    hand, boneyard = split(table, 7)
    return {"result": "domino", "by": "N", "hands": {"E": hand}, "boneyard": boneyard}


#: 6:6 with one tile leaving it (6:0), three far ends (3, 4, 5) behind 0: odd numbers 6, 3, 4,
#: 5 — no line; around 6:6 (or 3:3) only one tile crosses into the rest: no cross either
NO_CROSS = "6:6 6:0 0:1 1:4 0:2 2:5 0:3 3:3"
#: the same arms from 0:0: four arms (6, 4, 5, 3), each leaving the cross on its own tile
CROSS = "0:0 6:0 0:1 1:4 0:2 2:5 0:3 3:3"
#: seed example 9's table: the arms 6:5; 6:1 1:0 0:4 4:1; 6:2 2:2 around 6:6
EXAMPLE_9 = "1:0 2:2 4:0 4:1 6:1 6:2 6:5 6:6"


@pytest.mark.parametrize("table", [CROSS, EXAMPLE_9])
def test_a_real_cross_passes_in_osel_and_chechevo(table: str) -> None:
    assert codes_of("osel", domino_with_table("osel", table)) == []


@pytest.mark.parametrize("table", [CROSS, EXAMPLE_9])
def test_a_cross_is_not_a_line_in_the_line_games(table: str) -> None:
    assert codes_of("dvorovoe", domino_with_table("dvorovoe", table)) == ["not_a_line"]


@pytest.mark.parametrize("table", [
    NO_CROSS,  # the cut around the double fails (3 far ends, one tile crossing)
    "6:6 6:1 6:2 6:3 6:4 6:5 1:1 2:2",  # five arms from 6:6
    "6:6 6:5 5:5 5:4 1:0 2:1 3:2 0:0",  # two separate groups
])
def test_what_no_cross_can_be_is_refused(table: str) -> None:
    assert codes_of("osel", domino_with_table("osel", table)) == ["not_a_line"]


def test_a_fish_with_tiles_left_to_draw_is_not_blocked_in_the_line_games() -> None:
    table = "6:6 6:5 5:5 5:4 4:4 4:3 3:3"
    hand, boneyard = split(table, 7)
    fish = {"result": "fish", "by": "N", "hands": {"N": hand.split()[0], "E": " ".join(
        hand.split()[1:])}, "boneyard": boneyard}  # fmt: skip
    assert "not_blocked" in codes_of("dvorovoe", fish)


def test_closing_the_last_ends_with_tiles_left_is_a_fish_in_osel() -> None:
    # seed example 8's kind: the ends are unknown (closed doubles are not recorded)
    table = "6:6 6:5 5:5 5:4 4:4 4:3 3:3"
    hand, boneyard = split(table, 8)
    fish = {"result": "fish", "by": "E", "hands": {"N": " ".join(hand.split()[:4]),
            "E": " ".join(hand.split()[4:])}, "boneyard": boneyard}  # fmt: skip
    assert codes_of("osel", fish) == []


def test_a_hand_larger_than_dealt_and_drawn_is_refused() -> None:
    hand = " ".join(EVERY[:22])
    assert codes_of("dvorovoe", {"result": "domino", "by": "N", "hands": {"E": hand}}) == [
        "hand_too_large"]


@pytest.mark.parametrize(("preset", "last", "ok"), [
    ("kozel_morskoy", "5:5", True),
    ("kozel_morskoy", "5:5 4:4", True),       # two doubles in one move: a line has two ends
    ("kozel_morskoy", "5:5 4:4 3:3", False),  # more than two
    ("osel", "5:5 4:4 3:3", True),            # a cross has four
    ("dvorovoe", "5:5 4:4", False),           # one tile a move
    ("kozel_morskoy", "5:5 5:4", False),      # not all doubles
    ("kozel_morskoy", "1:0", False),          # still in a hand
])
def test_the_finishing_tiles(preset: str, last: str, ok: bool) -> None:
    table = "6:6 6:5 5:5 5:4 4:4 4:3 3:3"
    hand, boneyard = split(table, 7)
    assert "1:0" in hand
    deal = {"result": "domino", "by": "N", "hands": {"E": hand}, "boneyard": boneyard,
            "last_tiles": last}
    assert ("bad_last_tiles" not in codes_of(preset, deal)) == ok
