"""What the referee's phone page gives ``static/js/fives.js`` for a fives match (RULES.md sections
15–23): the seats and sides, the table's rules (the spinner), the totals so far, the API address
the deal is posted to, and the page's words. The deal itself is judged by the server
(``scoring.services.record_deal``), which the script's own board only mirrors.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules.fives import FivesRules
from scoring.models import Match


def fives_data(match: Match, rules: FivesRules) -> dict[str, Any]:
    side_of = {seat: ("NS" if seat in "NS" else "EW") if rules.partnership else seat
               for seat in rules.seats}  # fmt: skip
    return {
        "match": match.pk,
        "version": match.version,
        "seats": list(rules.seats),
        "sides": list(rules.sides),
        "side_of": side_of,
        "spinner": rules.spinner == "first_double",
        "all_arms": rules.spinner_count == "all_arms",
        "max_points": rules.max_move_points,
        "leader": match.next_leader or "",
        "totals": {side: int((match.totals or {}).get(side, 0)) for side in rules.sides},
        "api_url": f"/api/v1/matches/{match.pk}/deals/",  # the API's deal route
        "strings": {
            "to_play": _("To play: %(seat)s"), "lead": _("lead"), "count": _("count"),
            "points": _("points"), "draws": _("draws"), "passes": _("passes"),
            "ends": _("Open ends"), "no_fit": _("This tile fits no open end."),
            "choose_end": _("Lay it on:"), "played": _("This tile is already on the table."),
            "draw_tap": _("Tap the tile drawn from the boneyard."), "total": _("Total"),
            "saved": _("Deal saved."), "hands_of": _("Hand of %(seat)s"),
            "kept_offline": _("No connection. The deal is kept on this phone and will be "
                              "sent again automatically; tapping Save again will not "
                              "record it twice."),
            "refused": _("The deal was not saved:"), "went_out": _("went out"),
            "score_for": _("Points scored by %(seat)s"),
            "end_names": {"L": _("left"), "R": _("right"), "U": _("up"), "D": _("down")},
        },
    }
