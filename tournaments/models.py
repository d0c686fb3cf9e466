"""Tables of the tournaments app and the invariants the database enforces for them.

Rounds and their pairings live here too, with the chief referee's sanctions and the standings
snapshot taken when a round is finished.
``Tournament.rules_preset`` and ``rules_options`` are validated by the rules engine
(``rules.make_rules``) in ``Tournament.clean``, so the admin and every form built on the model
refuse rules the engine cannot judge.
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules import Rules, RulesError, make_rules

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
    return ["match_points", "difference", "buchholz", "head_to_head"]


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

    class ByeResult(models.TextChoices):
        WIN = "win", _("a win")
        DRAW = "draw", _("a draw")
        LOSS = "loss", _("a loss")

    class FirstRound(models.TextChoices):
        SEED = "seed", _("by seed (top half against bottom half)")
        LOT = "lot", _("by lot")

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
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    #: tie-break names in order (``TIE_BREAKS``); empty: the preset's default order
    tie_breaks = models.JSONField(_("tie-break order"), default=list, blank=True)
    bye_result = models.CharField(
        _("a bye counts as"), max_length=10, choices=ByeResult.choices, default=ByeResult.WIN
    )
    avoid_same_club_until = models.PositiveSmallIntegerField(
        _("avoid same-club opponents up to round"), default=0,
        help_text=_("0: never avoided."),
    )  # fmt: skip
    first_round = models.CharField(
        _("round 1"), max_length=10, choices=FirstRound.choices, default=FirstRound.SEED
    )
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

    def tie_break_order(self) -> list[str]:
        """The stored order, or the default of the rules preset."""
        return list(self.tie_breaks) or default_tie_breaks(self.rules_preset)

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
    #: a late entry joins at this round (1: from the start); earlier rounds count as absent
    joins_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    #: teams format: the club team this pair plays for (the team is an entry without players)
    team = models.ForeignKey(
        "self", verbose_name=_("team"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="pairs",
    )  # fmt: skip

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


class EntryAbsence(models.Model):
    """An entry that will not play one round (it gets neither a table nor a bye)."""

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="absences"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["entry", "round_number"]
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "round_number"], name="one_absence_per_entry_and_round"
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="absence_round_1_up"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} / {self.round_number}"


class Round(models.Model):
    """A round: ``new → pairing`` (a Celery job runs) ``→ paired`` (a draft the organiser may
    review) ``→ published → finished``. A failed job returns the round to ``new`` with ``error``."""

    class Status(models.TextChoices):
        NEW = "new", _("New")
        PAIRING = "pairing", _("Pairing")
        PAIRED = "paired", _("Paired (draft)")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.NEW
    )
    task_id = models.CharField(_("task id"), max_length=64, blank=True)
    error = models.TextField(_("error"), blank=True)
    #: 0–100 while the job runs, and the step it is at
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    step = models.CharField(_("step"), max_length=20, blank=True)
    notes = models.JSONField(_("notes"), default=list, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    pairing_started_at = models.DateTimeField(_("pairing started"), null=True, blank=True)
    paired_at = models.DateTimeField(_("paired"), null=True, blank=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_1_up"),
            models.CheckConstraint(condition=Q(progress__lte=100), name="round_progress_100"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Pairing(models.Model):
    """A table of a round (its sides, seats, referee and scoring match), or a bye (no table)."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairings"
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat_n = models.ForeignKey(
        Player, verbose_name=_("seat N"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )  # fmt: skip
    seat_e = models.ForeignKey(
        Player, verbose_name=_("seat E"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )  # fmt: skip
    seat_s = models.ForeignKey(
        Player, verbose_name=_("seat S"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )  # fmt: skip
    seat_w = models.ForeignKey(
        Player, verbose_name=_("seat W"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )  # fmt: skip
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("referee"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="refereed_pairings",
    )  # fmt: skip
    flags = models.JSONField(_("flags"), default=list, blank=True)
    locked = models.BooleanField(_("locked"), default=False)
    match = models.OneToOneField(
        "scoring.Match", verbose_name=_("match"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="pairing",
    )  # fmt: skip

    class Meta:
        ordering = ["round", models.F("table").asc(nulls_last=True), "pk"]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"], condition=Q(table__isnull=False),
                name="one_pairing_per_table_and_round",
            ),
            models.CheckConstraint(condition=Q(table__isnull=True) | Q(table__gte=1),
                                   name="pairing_table_1_up"),
            # a bye has no table and no match
            models.CheckConstraint(condition=Q(table__isnull=False) | Q(match__isnull=True),
                                   name="bye_has_no_match"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.round} · {self.table or _('bye')}"

    @property
    def is_bye(self) -> bool:
        return self.table is None


class PairingEntry(models.Model):
    """An entry's place in a round: its side at a table, or its bye. One per entry per round
    (the round is repeated here so that the database can say so)."""

    class Side(models.TextChoices):
        NS = "NS", "NS"
        EW = "EW", "EW"
        BYE = "BYE", _("bye")

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="places"
    )
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="places"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="places"
    )
    side = models.CharField(_("side"), max_length=3, choices=Side.choices)
    #: order within the side (individual format: 0 sits N or E, 1 sits S or W)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["pairing", "side", "position"]
        verbose_name = _("place")
        verbose_name_plural = _("places")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entry"], name="one_place_per_entry_and_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} {self.side} {self.entry_id}"


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
    match_points = models.PositiveSmallIntegerField(_("match points deducted"), default=0)
    game_points = models.PositiveIntegerField(_("points deducted"), default=0)
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
