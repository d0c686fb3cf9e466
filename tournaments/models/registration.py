"""Registration: tournaments with their setup, entries, absences (the registry: ``players``).

``Tournament.rules_preset`` and ``rules_options`` are validated by the rules engine of their
game, with the players the format seats at a table (``tournaments.formats``), in
``Tournament.clean``, so the admin and every form built on the model refuse rules the engine
cannot judge and formats the rules cannot be played in.
"""

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from config.inputs import validate_name
from rules import Rules, RulesError
from rules.fives import FivesRules
from tournaments import formats
from tournaments.models.players import Club, Player

#: tie-breaks an organiser may order (``tournaments.standings`` computes them); the seeded lot
#: is always the last resort, appended when the order lacks it
TIE_BREAKS: dict[str, Any] = {
    "match_points": _("match points"),
    "wins": _("wins"),
    "difference": _("points difference"),
    "points": _("points scored"),
    "efectividad": _("efectividad"),
    "buchholz": _("Buchholz (opponents' match points)"),
    "buchholz_cut1": _("Buchholz cut 1"),
    "median_buchholz": _("median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "progressive": _("progressive score"),
    "head_to_head": _("head-to-head"),
    "lot": _("lot"),
}


def default_tie_breaks(preset: str) -> list[str]:
    if preset == "international":
        return ["wins", "efectividad", "points"]
    # played to a target: the points and efectividad tell
    if preset in ("fives", "muggins", "telefon"):
        return ["match_points", "difference", "efectividad", "buchholz"]
    return ["match_points", "difference", "buchholz", "head_to_head"]


class Tournament(models.Model):
    class Format(models.TextChoices):
        PAIRS = "pairs", _("Fixed pairs")
        INDIVIDUAL = "individual", _("Individual (partners drawn each round)")
        TEAMS = "teams", _("Club teams")
        SINGLES = "singles", _("Head to head (one player against one)")
        FREE_FOR_ALL = "free_for_all", _("Each for himself (three or four players at a table)")

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss system")
        ROUND_ROBIN = "round_robin", _("Round robin")
        #: «Генерал» «на вылет»: teams queue at one table (``tournaments.rotation``)
        ROTATION = "rotation", _("Rotation at one table («на вылет»)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class ByeResult(models.TextChoices):
        WIN = "win", _("a win")
        DRAW = "draw", _("a draw")
        LOSS = "loss", _("a loss")

    class FirstRound(models.TextChoices):
        SEED = "seed", _("by seed (top half against bottom half)")
        LOT = "lot", _("by lot")

    class Acceleration(models.TextChoices):
        """Accelerated Swiss pairing (``pairing.acceleration``): none, or FIDE C.04.5.1 Baku."""

        NONE = "none", _("none")
        BAKU = "baku", _("Baku acceleration")

    class ClubAvoidance(models.TextChoices):
        """How the Swiss pairing treats two entries of one club (``pairing.swiss``)."""

        OFF = "off", _("not avoided")
        AMONG_EQUALS = "among_equals", _("avoided among equals")
        STRICT = "strict", _("avoided strictly")

    name = models.CharField(_("name"), max_length=200, validators=[validate_name])
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[validate_name])
    rules_preset = models.CharField(_("rules preset"), max_length=50, default="sport")
    rules_options = models.JSONField(_("rule overrides"), default=dict, blank=True)
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.PAIRS
    )
    system = models.CharField(
        _("system"), max_length=20, choices=System.choices, default=System.SWISS
    )
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), default=7)
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text=_("The round clock's time limit; when it runs out each table finishes the "
                    "deal in play. Empty: no clock."),
    )  # fmt: skip
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    public = models.BooleanField(_("public"), default=False)
    #: counts in the site's ratings (``tournaments.ratings``); an imported tournament arrives
    #: unrated and only a site administrator marks it rated, so an archive is never a lever on
    #: real players' ratings
    rated = models.BooleanField(
        _("rated"), default=True,
        help_text=_("Its confirmed matches count in the site's ratings."),
    )  # fmt: skip
    #: clubs that keep only the match score on paper: the desk may type a table's final score
    #: without deals (``rounds.result_only``); off by default, sports domino is deal by deal
    result_only_tables = models.BooleanField(
        _("final scores without deals"), default=False,
        help_text=_("The desk may type a table's final score without its deals; such a result "
                    "is marked «final score without deals» everywhere. Leave it off where the "
                    "protocols are kept deal by deal."),
    )  # fmt: skip
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    #: tie-break names in order (``TIE_BREAKS``); empty: the preset's default order
    tie_breaks = models.JSONField(_("tie-break order"), default=list, blank=True)
    bye_result = models.CharField(
        _("a bye counts as"), max_length=10, choices=ByeResult.choices, default=ByeResult.WIN
    )
    club_avoidance = models.CharField(
        _("same-club opponents"), max_length=20, choices=ClubAvoidance.choices,
        default=ClubAvoidance.AMONG_EQUALS,
        help_text=_("Among equals: two entries of one club meet only where every other pairing "
                    "has a larger score difference. Strict: they meet only where every other "
                    "pairing needs a rematch, even if the score groups suffer for it."),
    )  # fmt: skip
    club_strict_until = models.PositiveSmallIntegerField(
        _("strict club avoidance up to round"), default=0,
        help_text=_("Rounds 1 to this one avoid same-club opponents strictly, the later ones as "
                    "chosen above; 0: none."),
    )  # fmt: skip
    first_round = models.CharField(
        _("round 1"), max_length=10, choices=FirstRound.choices, default=FirstRound.SEED
    )
    #: the first half of the Swiss rounds paired with virtual points for the top half of the
    #: list (FIDE C.04.5.1); pairing only, never in the standings
    acceleration = models.CharField(
        _("accelerated pairing"), max_length=10, choices=Acceleration.choices,
        default=Acceleration.NONE,
        help_text=_("Baku acceleration (FIDE C.04.5.1), Swiss only: the top half of the list by "
                    "seed (rounded up to an even number) is paired as if it had a win's match "
                    "points more in the first quarter of the rounds and half a win's more up to "
                    "the middle, so that the strong meet each other early in a big field. "
                    "Pairing only: the standings never show these points."),
    )  # fmt: skip
    individual_federation = models.BooleanField(
        _("federation seating (individual format)"), default=False,
        help_text=_("Round 2 keeps round 1's winning partners apart; the last round seats 1+3 "
                    "against 2+4 in blocks of four of the standings."),
    )  # fmt: skip
    yellow_card_points = models.PositiveSmallIntegerField(
        _("points deducted for a yellow card"), default=0,
        help_text=_("Points recorded, taken off the offender's total in the standings."),
    )  # fmt: skip
    red_card_points = models.PositiveSmallIntegerField(
        _("points deducted for a red card"), default=40,
        help_text=_("Points recorded, taken off the offender's total in the standings."),
    )  # fmt: skip
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        blank=True,
        related_name="organised_tournaments",
    )
    #: appointed by the organisers (users in the Chief referee role); the role alone judges no
    #: tournament (``tournaments.access.can_judge``)
    chief_referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("chief referees"),
        blank=True,
        related_name="chief_refereed_tournaments",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: how the standings compute efectividad and what unplayed rounds give in it (issue 16)
    efectividad = models.CharField(
        _("efectividad"), max_length=10, default="capped",
        choices=[("capped", _("capped at the target")), ("plain", _("plain: for minus against"))],
        help_text=_("Capped: a game ended at the target gives the winner T minus the loser's "
                    "points. Plain: points for minus points against, every game."),
    )  # fmt: skip
    forfeit_win_percent = models.PositiveSmallIntegerField(
        _("forfeit: efectividad of the other side, per cent of the target"), default=50,
        validators=[MaxValueValidator(200)],
    )  # fmt: skip
    forfeit_loss_percent = models.PositiveSmallIntegerField(
        _("forfeit: efectividad taken from the offender, per cent of the target"), default=100,
        validators=[MaxValueValidator(200)],
    )  # fmt: skip
    bye_percent = models.PositiveSmallIntegerField(
        _("bye: efectividad, per cent of the target"), default=50,
        validators=[MaxValueValidator(200)],
    )  # fmt: skip
    seed_by_rating = models.BooleanField(
        _("seed round 1 and order entries by rating"), default=False,
        help_text=_("The players' club rating (recomputed from every confirmed match); "
                    "entries without one by the rating their players were imported with."),
    )  # fmt: skip
    #: the prize list's rules (``tournaments.prizes``) and the club classification's best N
    prize_priority = models.CharField(
        _("of two equal prizes an entry takes"), max_length=10, default="overall",
        choices=[("overall", _("the overall one")), ("category", _("the category one"))],
    )  # fmt: skip
    prize_ties = models.CharField(
        _("shared places"), max_length=10, default="tiebreak",
        choices=[("tiebreak", _("decided by the tie-breaks")),
                 ("split", _("overall prizes shared equally"))],
    )  # fmt: skip
    club_best = models.PositiveSmallIntegerField(
        _("club classification: entries counted per club"), default=3,
        validators=[MinValueValidator(1), MaxValueValidator(50)])  # fmt: skip

    class Meta:
        ordering = ["-start_date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(
                condition=Q(round_minutes__isnull=True) | Q(round_minutes__gte=1),
                name="tournament_round_minutes_positive",
            ),
            models.CheckConstraint(
                condition=Q(start_date__isnull=True)
                | Q(end_date__isnull=True)
                | Q(end_date__gte=F("start_date")),
                name="tournament_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def rules(self) -> Rules | FivesRules:
        """The rules of a full table of the format (raises ``rules.RulesError`` for settings
        the engine refuses)."""
        return formats.table_rules(self.rules_preset, self.rules_options, self.format)

    @property
    def is_fives(self) -> bool:
        """Played by a fives game (RULES.md sections 15–23): points during play, a target."""
        return isinstance(self.rules, FivesRules)

    def tie_break_order(self) -> list[str]:
        """The stored order, or the default of the rules preset."""
        return list(self.tie_breaks) or default_tie_breaks(self.rules_preset)

    def tie_break_labels(self) -> list[str]:
        """The order in words of the current language (the pages show these, not the ids)."""
        return [str(TIE_BREAKS.get(name, name)) for name in self.tie_break_order()]

    def club_mode(self, round_number: int) -> str:
        """The club avoidance of one round: strict up to ``club_strict_until``, then the mode."""
        if round_number <= self.club_strict_until:
            return self.ClubAvoidance.STRICT.value
        return str(self.club_avoidance)

    def match_points(self, result: str) -> int:
        """Match points for "win", "draw" or "loss"."""
        return {"win": self.points_win, "draw": self.points_draw, "loss": self.points_loss}[result]

    def clean(self) -> None:
        super().clean()
        unknown = [name for name in self.tie_breaks or [] if name not in TIE_BREAKS]
        if not isinstance(self.tie_breaks, list) or unknown:
            raise ValidationError(
                {"tie_breaks": _("Unknown tie-break: %(names)s.") % {"names": ", ".join(
                    map(str, unknown or [self.tie_breaks]))}},
                code="bad_tie_break",
            )
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValidationError({"tie_breaks": _("A tie-break is listed twice.")},
                                  code="bad_tie_break")  # fmt: skip
        lang = "ru" if get_language() == "ru" else "en"
        try:
            formats.check(self.rules_preset, self.rules_options, self.format, self.system)
        except formats.SetupProblem as problem:
            raise ValidationError(
                {problem.field: ValidationError(problem.message(lang), code=problem.code)}
            ) from problem
        except RulesError as err:
            field = "rules_preset" if err.problem.extra.get("option") == "preset" else (
                "rules_options")
            raise ValidationError(
                {field: ValidationError(err.problem.message(lang), code=err.code)}
            ) from err


def new_entry_token() -> str:
    """An unguessable key of an entry's personal page (``/p/<token>/``): 128 random bits in 22
    URL-safe characters, short enough for a small QR code."""
    return secrets.token_urlsafe(16)


class Entry(models.Model):
    """One competitor registered in a tournament: a fixed pair, a player or a club team."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    name = models.CharField(_("name"), max_length=200, validators=[validate_name])
    players = models.ManyToManyField(
        Player, verbose_name=_("players"), blank=True, related_name="entries"
    )
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    #: a late entry joins at this round (1: from the start); earlier rounds count as absent
    joins_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    #: teams format: the club team this pair plays for (the team is an entry without players)
    team = models.ForeignKey(
        "self", verbose_name=_("team"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="pairs",
    )  # fmt: skip
    #: the key of the entry's personal page, which opens without an account
    #: (``tournaments.personal``); a new one revokes the old link
    token = models.CharField(_("personal link key"), max_length=32, unique=True,
                             default=new_entry_token, editable=False)  # fmt: skip

    class Meta:
        ordering = ["tournament", "seed", "name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"], name="entry_name_unique_in_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_unique_in_tournament",
            ),
            models.CheckConstraint(condition=Q(joins_round__gte=1), name="entry_joins_round_1_up"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def late(self) -> bool:
        return self.joins_round > 1

    def clean(self) -> None:
        """The team is an entry of the same tournament, not this one and not a team's pair
        (the registration services say so first, with the code ``bad_team``; this keeps the
        admin's forms to it as well)."""
        super().clean()
        team = self.team
        if team is not None and (team.tournament_id != self.tournament_id or team.pk == self.pk
                                 or team.team_id is not None):  # fmt: skip
            raise ValidationError({"team": _("No such team in this tournament.")},
                                  code="bad_team")  # fmt: skip

