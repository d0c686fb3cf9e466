"""The base of the ``Judge``: the rules in force, read once into the settings every stage uses.

Seats and sides, the lead, the boneyard, the minimum and hanging points, and the values of a lone
0:0 and/or 6:6. It judges nothing itself; the stages of judging are its subclasses.
"""

from __future__ import annotations

from .. import tiles as T
from ..presets import Rules

_ZZ = 1 << T.ZERO_ZERO
_SS = 1 << T.SIX_SIX


class JudgeBase:
    """The settings derived from ``rules`` that every stage of the ``Judge`` reads."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.seat_set = frozenset(self.seats)
        self.sides = rules.sides
        if rules.partnership:
            self.side_of = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
        else:
            self.side_of = {s: s for s in self.seats}
        self.side_set = frozenset(self.sides)
        self.rotate = rules.next_lead == "rotate"
        self.players = rules.players
        self.seat_sides = tuple((s, self.side_of[s]) for s in self.seats)
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)]
                          for i, s in enumerate(self.seats)}
        self.boneyard_start = 28 - rules.players * rules.hand_size
        self.lower_wins = rules.scoring == "losers_record_own" or rules.end == "target_loses"
        lead = rules.first_lead
        self.first_leader = lead[5:] if lead.startswith("seat_") else None
        # With every tile dealt, the ladder's first lead is always 1:1 and can be checked.
        self.ladder_first = lead == "ladder" and not self.boneyard_start
        self.hang = rules.below_min == "hang"
        self.min_always = rules.min_record_scope == "always"
        self.fish_difference = rules.fish_scoring == "difference"
        self.specials = rules.na_sto or rules.instant_doubles
        # Hands that hold only 0:0 and/or 6:6 and have a value of their own.
        lone = {_ZZ: rules.bonus_zero, _SS: rules.bonus_six, _ZZ | _SS: rules.bonus_both}
        self.bonus_domino = {m: v for m, v in lone.items() if v is not None}
        self.bonus_fish = self.bonus_domino if rules.bonus_on_fish else None
