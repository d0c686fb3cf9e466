"""Results kept in the database: the chief referee's ``Sanction``s and the ``Standing``
snapshot taken when a round is finished."""


from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Entry, Player, Tournament
from tournaments.models.rounds import Pairing, Round

#: the largest deductions one sanction may make: far beyond any event (a match is worth a few
#: match points and at most a few thousand points) and well inside the columns' ranges
MAX_SANCTION_MATCH_POINTS = 1000
MAX_SANCTION_GAME_POINTS = 100_000


class Sanction(models.Model):
    """A disciplinary decision of the chief referee: who, in which round, what, why, by whom.

    A deduction takes match points and/or points recorded off the entry's standings; a yellow or
    red card deducts the points the tournament sets for it; a black card withdraws the entry from
    the following rounds; a forfeit gives the offender's table to the other side. Nothing is
    deleted: a sanction taken back keeps its row, marked revoked with who, when and why.
    """

    class Kind(models.TextChoices):
        DEDUCTION = "deduction", _("Point deduction")
        YELLOW = "yellow", _("Yellow card")
        RED = "red", _("Red card")
        BLACK = "black", _("Black card (withdrawn)")
        FORFEIT = "forfeit", _("Forfeit")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="sanctions",
    )  # fmt: skip
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="sanctions"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="sanctions",
    )  # fmt: skip
    round_number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    match_points = models.PositiveSmallIntegerField(
        _("match points deducted"), default=0,
        validators=[MaxValueValidator(MAX_SANCTION_MATCH_POINTS)],
    )  # fmt: skip
    game_points = models.PositiveIntegerField(
        _("points deducted"), default=0, validators=[MaxValueValidator(MAX_SANCTION_GAME_POINTS)]
    )
    #: a forfeit: the table the offender did not play
    pairing = models.ForeignKey(
        Pairing, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="forfeits",
    )  # fmt: skip
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("recorded by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("revoked by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    revoke_reason = models.TextField(_("why revoked"), blank=True)

    class Meta:
        ordering = ["tournament", "round_number", "pk"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        constraints = [
            models.CheckConstraint(condition=Q(round_number__gte=1), name="sanction_round_1_up"),
            models.CheckConstraint(
                condition=~Q(kind="forfeit") | Q(pairing__isnull=False),
                name="forfeit_names_its_table",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="sanction_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.entry} · {self.round_number}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Standing(models.Model):
    """One line of the standings snapshot taken when a round is finished.

    ``scope`` says which table: the entries (pairs, players of an individual event, or the pairs
    of a team event) or the teams. ``metrics`` holds every metric of ``tournaments.standings.Row``.
    """

    class Scope(models.TextChoices):
        ENTRIES = "entries", _("Entries")
        TEAMS = "teams", _("Teams")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="standings"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="standings"
    )
    scope = models.CharField(
        _("table"), max_length=10, choices=Scope.choices, default=Scope.ENTRIES
    )
    rank = models.PositiveIntegerField(_("rank"))
    match_points = models.IntegerField(_("match points"))
    metrics = models.JSONField(_("metrics"), default=dict)

    class Meta:
        ordering = ["round", "scope", "rank"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_standing_per_round"),
            models.UniqueConstraint(
                fields=["round", "scope", "rank"], name="one_rank_per_round_and_scope"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.rank}. {self.entry_id}"


class RoundGames(models.Model):
    """The games a finished round's tables gave, kept beside its ``Standing`` snapshot: the live
    standings of the later rounds read them instead of every table of every earlier round
    (``tournaments.results.round_games``). Derived data, written only by ``take_snapshot``.

    ``data`` is the round's games (``tournaments.standings.Game`` tuples), the entries whose
    table was still in play and the number of such tables, in ``marshal`` format 4: read back
    in a few milliseconds where JSON took five times longer. ``basis`` names the format and the
    settings the games were derived under; a round stored under another is read from its tables.
    """

    round = models.OneToOneField(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="kept_games"
    )
    basis = models.CharField(_("basis"), max_length=200)
    data = models.BinaryField(_("games"))

    class Meta:
        verbose_name = _("games of a finished round")
        verbose_name_plural = _("games of finished rounds")

    def __str__(self) -> str:
        return f"{self.round} · {self.basis}"
