"""A round and its tables: ``Round``, ``Pairing`` (a table or a bye) and ``PairingEntry``
(a side of it)."""


from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Entry, Player, Tournament
from tournaments.models.stages import Stage


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
    #: the final stage this round belongs to; empty: the qualifying stage (every round of a
    #: tournament that has one stage)
    stage = models.ForeignKey(
        Stage, verbose_name=_("stage"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="rounds",
    )  # fmt: skip
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
    # The round clock (``tournaments.rounds.clock``): it runs out at ``clock_started_at`` +
    # ``clock_minutes`` + ``clock_extra_minutes`` + the time it stood paused.
    #: the limit it was started with; null: the clock was never started
    clock_minutes = models.PositiveSmallIntegerField(_("time limit, minutes"), null=True,
                                                     blank=True)
    clock_extra_minutes = models.PositiveSmallIntegerField(_("minutes added"), default=0)
    clock_started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    #: set while the clock is paused
    clock_paused_at = models.DateTimeField(_("clock paused"), null=True, blank=True)
    #: seconds of the earlier pauses, already over
    clock_paused_seconds = models.PositiveIntegerField(_("seconds paused"), default=0)

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

    def _clock_end_unpaused(self) -> datetime:
        assert self.clock_started_at is not None
        minutes = (self.clock_minutes or 0) + self.clock_extra_minutes
        return self.clock_started_at + timedelta(minutes=minutes,
                                                 seconds=self.clock_paused_seconds)

    def clock_ends_at(self) -> datetime | None:
        """When the running clock runs out (None: not started, or paused)."""
        if self.clock_started_at is None or self.clock_paused_at is not None:
            return None
        return self._clock_end_unpaused()

    def clock_paused_left(self) -> int | None:
        """Seconds left on the paused clock (None: not paused)."""
        if self.clock_started_at is None or self.clock_paused_at is None:
            return None
        return max(0, int((self._clock_end_unpaused() - self.clock_paused_at).total_seconds()))

    def clock_json(self, now: datetime | None = None) -> dict[str, Any] | None:
        """The clock as ``static/js/clock.js`` reads it (the shape of scoring's
        ``ClockState.as_json``): the server's time, the end, paused; None: no clock."""
        now = now or timezone.now()
        left = self.clock_paused_left()
        end = self.clock_ends_at()
        if left is None and end is None:
            return None
        if left is None:
            assert end is not None
            left = max(0, round((end - now).total_seconds()))
        return {"now": now.isoformat(), "ends_at": end.isoformat() if end else None,
                "paused": end is None, "left": left, "time_up": end is not None and left <= 0}


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

    def _places_of(self, sides: tuple[str, ...]) -> list["PairingEntry"]:
        # through ``places.all()``, so a prefetch serves every table of a page
        return sorted((p for p in self.places.all() if p.side in sides),
                      key=lambda p: (SIDE_ORDER[p.side], p.position))  # fmt: skip

    @property
    def north_south(self) -> list["PairingEntry"]:
        """The places of the pages' first column: the NS pair(s), or the players at N and S
        where each player is his own side."""
        return self._places_of(("NS", "N", "S"))

    @property
    def east_west(self) -> list["PairingEntry"]:
        """The places of the second column: the EW pair(s), or the players at E and W."""
        return self._places_of(("EW", "E", "W"))


#: the sides of a table in seat order (``sorted(..., key=SIDE_ORDER.get)``): a database
#: ``order_by("side")`` sorts EW before NS
SIDE_ORDER = {"NS": 0, "N": 0, "EW": 1, "E": 1, "S": 2, "W": 3, "BYE": 4}


class PairingEntry(models.Model):
    """An entry's place in a round: its side at a table, or its bye. One per entry per round
    (the round is repeated here so that the database can say so).

    The side is named as the side of the table's match (``tournaments.formats``): ``NS`` or
    ``EW`` where partners share a side, the seat (``N``, ``E``, ``S``, ``W``) where each player
    is his own side (head to head, each for himself)."""

    class Side(models.TextChoices):
        NS = "NS", "NS"
        EW = "EW", "EW"
        N = "N", "N"
        E = "E", "E"
        S = "S", "S"
        W = "W", "W"
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
    #: order within the side (individual format: 0 sits N or E, 1 sits S or W; 0 for a seat)
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
