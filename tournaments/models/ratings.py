"""Ratings and seasons: each player's current rating, its change in every rated match, and the
seasons that group tournaments into one table.

``PlayerRating`` and ``RatingChange`` are derived data: ``tournaments.ratings`` rewrites them
all from the confirmed matches of public tournaments (one transaction), so nothing else writes
them. A ``Season`` is set up by an organiser; its table is computed when shown.
"""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from config.inputs import validate_name
from tournaments.models.registration import Player, Tournament

#: a rating is shown as mu and sigma times this (openskill's 25 ± 8.3 as 1500 ± 500)
DISPLAY_SCALE = 60


class PlayerRating(models.Model):
    """A player's rating after every rated match so far (openskill's mu and sigma)."""

    player = models.OneToOneField(Player, verbose_name=_("player"), on_delete=models.CASCADE,
                                  related_name="club_rating")  # fmt: skip
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(_("matches"), default=0)
    last_played = models.DateField(_("last played"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player} {self.rating} ± {self.uncertainty}"

    @property
    def rating(self) -> int:
        return round(self.mu * DISPLAY_SCALE)

    @property
    def uncertainty(self) -> int:
        return round(self.sigma * DISPLAY_SCALE)

    @property
    def conservative(self) -> int:
        """What the list is ranked by: the rating less three uncertainties."""
        return round((self.mu - 3 * self.sigma) * DISPLAY_SCALE)


class RatingChange(models.Model):
    """One player's rating before and after one rated match, in the order they were rated."""

    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE,
                               related_name="rating_changes")  # fmt: skip
    match = models.ForeignKey("scoring.Match", verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")  # fmt: skip
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="+")  # fmt: skip
    round_number = models.PositiveSmallIntegerField(_("round"))
    #: the position of the match in the whole rated history (the order of recomputing)
    sequence = models.PositiveIntegerField()
    played_on = models.DateField(_("date"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=10)  # win, draw, loss
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    #: a fingerprint of the rated match at this place of the history (its players, places, date
    #: and round): a recompute replays only from the first place whose fingerprint changed
    digest = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["player", "sequence"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="one_rating_change_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} / {self.match_id}: {self.before} → {self.after}"

    @property
    def before(self) -> int:
        return round(self.mu_before * DISPLAY_SCALE)

    @property
    def after(self) -> int:
        return round(self.mu_after * DISPLAY_SCALE)

    @property
    def delta(self) -> int:
        return self.after - self.before


class RatingsJob(models.Model):
    """The one row that says how the ratings' recompute stands: whether one is queued, when the
    last one finished or failed and why. Written by ``tournaments.ratings.jobs`` only; the
    rating page, the admin and ``/healthz`` read it."""

    queued = models.BooleanField(_("queued"), default=False)
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    #: the latest change that asked for a recompute (a queued job waits for a quiet moment)
    requested_at = models.DateTimeField(_("requested at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    succeeded_at = models.DateTimeField(_("ratings as of"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed at"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    #: recomputes run so far (a burst of changes should add one or two)
    runs = models.PositiveIntegerField(_("recomputes"), default=0)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    #: the place of the history the last recompute replayed from (0: the whole history)
    replayed_from = models.PositiveIntegerField(_("replayed from"), default=0)
    #: matches left out of the ratings because their data cannot be rated (a player on two sides)
    skipped = models.JSONField(_("matches not rated"), default=list, blank=True)

    class Meta:
        verbose_name = _("ratings recompute")
        verbose_name_plural = _("ratings recomputes")

    def __str__(self) -> str:
        return str(_("Ratings recompute"))

    @property
    def failing(self) -> bool:
        """The last attempt failed: the ratings shown are those of ``succeeded_at``."""
        return self.failed_at is not None and (self.succeeded_at is None
                                               or self.failed_at > self.succeeded_at)


def default_scale() -> list[int]:
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Season(models.Model):
    """Tournaments grouped into one table: points per placing, the best N results counted."""

    class Scope(models.TextChoices):
        PLAYERS = "players", _("Players")
        PAIRS = "pairs", _("Fixed pairs")

    name = models.CharField(_("name"), max_length=200, unique=True, validators=[validate_name])
    tournaments = models.ManyToManyField(Tournament, verbose_name=_("tournaments"), blank=True,
                                         related_name="seasons")  # fmt: skip
    scope = models.CharField(_("ranks"), max_length=10, choices=Scope.choices,
                             default=Scope.PLAYERS)  # fmt: skip
    #: points for 1st, 2nd, … place; places below the scale score 0
    scale = models.JSONField(_("points per place"), default=default_scale)
    best_of = models.PositiveSmallIntegerField(
        _("best results counted"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Empty: every result counts."),
    )  # fmt: skip
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                                   name="season_best_of_positive"),  # fmt: skip
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        scale = self.scale
        if (not isinstance(scale, list) or not scale or len(scale) > 200
                or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 10_000
                           for p in scale)):  # fmt: skip
            raise ValidationError(
                {"scale": _("A list of points per place, such as [25, 18, 15, 12, 10].")},
                code="bad_scale",
            )
