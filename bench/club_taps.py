"""Taps on the referee's phone to record a deal of each club game (issue 27), counted over the
club simulator's deals (``rules.club.simulate``, seeds 0–19) with the sheet's tap rules:

- a domino: who went out (that chooses *domino*), a fish: *fish* and who blocked;
- each hand written: its seat's button and one tap per tile;
- *Went out with* where the game asks it and the finish was 0:0 or 6:6; Save.

    PYTHONPATH=. .venv/bin/python bench/club_taps.py

In «Генерал» the hands are optional (nothing is scored from them): a referee who skips them taps
3 times (who went out, the finish, Save); the figures below count them written.
"""

from __future__ import annotations

import random
import statistics

from rules.club import club_judge, make_club_rules
from rules.club.presets import CLUB_PRESETS
from rules.club.simulate import play_club_match
from scoring.games import sheet_asks

SEEDS = range(20)


def taps(deal: dict, asks_finish: bool) -> int:
    count = (0 if deal["result"] == "domino" else 1) + 1
    count += sum(1 + len(h.split()) for h in (deal.get("hands") or {}).values())
    finish = deal.get("last_tiles") or ""
    if deal["result"] == "domino" and asks_finish and ("0:0" in finish or "6:6" in finish):
        count += 1
    return count + 1


def main() -> None:
    for preset, (_rules, _takes, (low, high)) in CLUB_PRESETS.items():
        for players in range(low, high + 1):
            rules = make_club_rules(preset, {"players": players})
            asks = "finish" in sheet_asks(rules)
            counts = sorted(
                taps(d, asks) for seed in SEEDS
                for d in play_club_match(club_judge(rules), random.Random(seed))
                if d["result"] != "redeal")  # fmt: skip
            print(f"{preset:14} {players} players: median {statistics.median(counts):.0f} taps, "
                  f"p90 {counts[int(len(counts) * 0.9)]}, over {len(counts)} deals")


if __name__ == "__main__":
    main()
