"""Tables of the tournaments app and the invariants the database enforces for them.

Kept small on purpose: rounds, pairings, availability and standings snapshots come in later
issues. ``Tournament.rules_preset`` and ``rules_options`` are validated by the rules engine
(``rules.make_rules``) in ``Tournament.clean``, so the admin and every form built on the model
refuse rules the engine cannot judge.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules import Rules, RulesError, make_rules


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    last_name = models.CharField(_("last name"), max_length=100)
    first_name = models.CharField(_("first name"), max_length=100, blank=True)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    federation_id = models.CharField(_("federation ID"), max_length=50, blank=True)

    class Meta:
        ordering = ["last_name", "first_name", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~Q(federation_id=""),
                name="player_federation_id_unique_when_set",
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()


class Tournament(models.Model):
    class Format(models.TextChoices):
        PAIRS = "pairs", _("Fixed pairs")
        INDIVIDUAL = "individual", _("Individual (partners drawn each round)")
        TEAMS = "teams", _("Club teams")

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss system")
        ROUND_ROBIN = "round_robin", _("Round robin")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    rules_preset = models.CharField(_("rules preset"), max_length=50, default="sport")
    rules_options = models.JSONField(_("rule overrides"), default=dict, blank=True)
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.PAIRS
    )
    system = models.CharField(
        _("system"), max_length=20, choices=System.choices, default=System.SWISS
    )
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), default=7)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    public = models.BooleanField(_("public"), default=False)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        blank=True,
        related_name="organised_tournaments",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_rounds_positive"),
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
    def rules(self) -> Rules:
        """The rules in force (raises ``rules.RulesError`` for settings the engine refuses)."""
        return make_rules(self.rules_preset, self.rules_options)

    def clean(self) -> None:
        super().clean()
        try:
            self.rules  # noqa: B018 - building the rules is the check
        except RulesError as err:
            field = "rules_preset" if err.problem.extra.get("option") == "preset" else (
                "rules_options")
            lang = "ru" if get_language() == "ru" else "en"
            raise ValidationError({field: err.problem.message(lang)}, code=err.code) from err


class Entry(models.Model):
    """One competitor registered in a tournament: a fixed pair, a player or a club team."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    name = models.CharField(_("name"), max_length=200)
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
        ]

    def __str__(self) -> str:
        return self.name
