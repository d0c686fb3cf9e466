"""The organisers' audit page: every logged change of the tournament (``accounts.audit``), in
words (``words``: names, not ids), and every change of its tables' protocols
(``scoring.models.MatchVersion``), newest first.

    GET /manage/<pk>/audit/    the tournament's organisers and superusers (403 otherwise)
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from accounts import audit
from accounts.models import AuditEntry
from scoring.models import MatchVersion
from tournaments.audit.words import describe
from tournaments.http import ManageView
from tournaments.models import Pairing

PAGE_SIZE = 100

ACTIONS = {
    "tournament.create": _("Tournament created"),
    "tournament.update": _("Setup changed"),
    "tournament.import": _("Imported from an archive"),
    "tournament.close": _("Tournament closed"),
    "tournament.chief_referees": _("Chief referees appointed"),
    "entry.add": _("Entry added"),
    "entry.update": _("Entry changed"),
    "entry.withdraw": _("Entry withdrawn"),
    "entry.reinstate": _("Entry reinstated"),
    "entry.absence": _("Availability changed"),
    "entry.import": _("Entries imported from CSV"),
    "entry.substitute": _("Substitute set"),
    "entry.substitute_remove": _("Substitute removed"),
    "entry.new_link": _("Personal link renewed (the old one no longer opens)"),
    "round.pair": _("Round pairing started"),
    "round.regenerate": _("Round paired again"),
    "round.swap": _("Entries swapped"),
    "round.publish": _("Round published"),
    "round.finish": _("Round finished"),
    "round.clock_start": _("Round clock started"),
    "round.clock_pause": _("Round clock paused"),
    "round.clock_resume": _("Round clock resumed"),
    "round.clock_extend": _("Minutes added to the round clock"),
    "pairing.lock": _("Table locked"),
    "pairing.unlock": _("Table unlocked"),
    "pairing.referee": _("Referee assigned"),
    "sanction.record": _("Sanction recorded"),
    "sanction.revoke": _("Sanction revoked"),
    "player.update": _("Player changed"),
    "player.delete": _("Player deleted"),
    "player.merge": _("Two records of one player merged"),
    "player.unmerge": _("Merge of two players undone"),
    "registry.rating_import": _("Rating list imported"),
    "club.update": _("Club changed"),
    "club.delete": _("Club deleted"),
    "prizes.settings": _("Prize list rules changed"),
    "category.save": _("Category saved"),
    "category.delete": _("Category removed"),
    "prize.save": _("Prize saved"),
    "prize.delete": _("Prize removed"),
}


def _merge_id(entry: AuditEntry) -> str | None:
    """A merge of two players (``tournaments.registry.merge``) can be undone from its row."""
    if entry.action != "player.merge" or not isinstance(entry.after, dict):
        return None
    return entry.after.get("merge_id")


class AuditView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        entries = audit.entries_of(pk).select_related("user")  # each row names its author
        page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
        shown = list(page)
        rows = [
            {"entry": e, "label": ACTIONS.get(e.action, e.action), "changes": changes,
             "merge_id": _merge_id(e)}
            for e, changes in zip(shown, describe(shown), strict=True)
        ]  # fmt: skip
        undone = set(AuditEntry.objects.filter(
            action="player.unmerge", after__merge_id__in=[r["merge_id"] for r in rows
                                                          if r["merge_id"]],
        ).values_list("after__merge_id", flat=True))  # fmt: skip
        for row in rows:
            row["undone"] = row["merge_id"] in undone
        matches = Pairing.objects.filter(round__tournament_id=pk, match__isnull=False)
        protocol = (
            MatchVersion.objects.filter(match__in=matches.values("match"))
            .exclude(action=MatchVersion.Action.CREATE)
            .select_related("user", "match")
            .order_by("-at", "-pk")[:PAGE_SIZE]
        )
        return self.render("audit/audit.html", rows=rows, page=page, protocol=list(protocol))
