"""``Substitute``: a player who replaces a player of an entry (a pair, a team's pair) for one
round or from a round on. The entry keeps its results; the tables' seats and every player-level
table (players' standings, a player's page, ratings) credit who actually played
(``tournaments.selectors.lineups``)."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Entry, Player, Tournament


class Substitute(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="substitutes",
    )  # fmt: skip
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="substitutes"
    )
    replaced = models.ForeignKey(
        Player, verbose_name=_("replaced player"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("substitute"), on_delete=models.PROTECT, related_name="+"
    )
    from_round = models.PositiveSmallIntegerField(_("from round"))
    #: the last round it covers; null: every round from ``from_round`` on
    to_round = models.PositiveSmallIntegerField(_("to round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("set by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "from_round", "pk"]
        verbose_name = _("substitute")
        verbose_name_plural = _("substitutes")
        constraints = [
            models.CheckConstraint(condition=Q(from_round__gte=1), name="substitute_round_1_up"),
            models.CheckConstraint(
                condition=Q(to_round__isnull=True) | Q(to_round__gte=F("from_round")),
                name="substitute_rounds_in_order",
            ),
            models.CheckConstraint(condition=~Q(replaced=F("player")),
                                   name="substitute_not_self"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.entry} {self.replaced_id}→{self.player_id} {self.from_round}"

    def covers(self, number: int) -> bool:
        return self.from_round <= number and (self.to_round is None or number <= self.to_round)
