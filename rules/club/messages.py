"""Messages of the error codes the club games add (RULES.md section 33).

Added to ``rules.errors.MESSAGES`` at import, as the fives games add theirs; a code already there
keeps its text.
"""

from __future__ import annotations

from ..errors import MESSAGES

CLUB_MESSAGES: dict[str, tuple[str, str]] = {
    "tiles_needed": (
        "Seat {seat}: this game values a hand by its tiles; write the tiles, not only the pips",
        "Место {seat}: в этой игре руку считают по костям — запишите кости, а не только очки",
    ),
}

for _code, _texts in CLUB_MESSAGES.items():
    MESSAGES.setdefault(_code, _texts)
