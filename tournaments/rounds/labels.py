"""The pairing's flags (``tournaments.pairing.FLAGS``) in words of the page's language; an
organiser's swap adds ``swapped``. ``rounds.explain`` tells the flags with names behind them in
whole sentences and uses these labels for the rest."""

from django.utils.translation import gettext_lazy as _

from tournaments.pairing import FLAGS

FLAG_LABELS = {
    "float_up": _("paired with a higher score group"),
    "float_down": _("paired with a lower score group"),
    "bye": _("no opponent this round"),
    "rematch": _("these sides met before: no rematch-free pairing existed"),
    "rematch_avoided": _("the natural opponent was a rematch and was avoided"),
    "partner_repeated": _("partners again: it could not be avoided"),
    "winners_met": _("round 1's winning partners face each other: it could not be avoided"),
    "last_round_block": _("last round: 1+3 against 2+4 within a block of four of the standings"),
    "last_round_moved": _("last round: not 1+3 against 2+4 in its block of four, which would "
                          "repeat partners"),
    "same_club": _("same club: every pairing without it needed a rematch (strict avoidance)"),
    "same_club_kept": _("same club: separating them would have cost score difference"),
    "same_club_allowed": _("same club: club avoidance is off in this round"),
    "seat_repeated": _("same seat (NS/EW) as last time: it could not be balanced"),
    "by_seed": _("round 1 by seed: top half against bottom half"),
    "by_lot": _("round 1 by lot"),
    "opponent_repeated": _("met some of these players before: it could not be avoided"),
    "table_of_three": _("three players at this table"),
    "knockout": _("a knock-out tie: seeded from the qualifying standings, the better seed at "
                  "NS"),
    "third_place": _("the match for third place (the semi-finals' losers)"),
    "group": _("a round robin inside a group (Berger tables)"),
    "rotation": _("«на вылет»: the team that stayed at N–S, the next in the queue at E–W"),
    "swapped": _("changed by the organiser"),
}
assert set(FLAGS) <= set(FLAG_LABELS)  # noqa: S101 - every flag of the contract is explained
