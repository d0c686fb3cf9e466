"""Who plays a round: an entry's absence from one (``EntryAbsence``, which the pairing leaves
out) and the roll call before it, who is here and who is late (``RollCall``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Entry


class RollCall(models.Model):
    """An entry called present (or late) for a round by the desk."""

    class State(models.TextChoices):
        PRESENT = "present", _("present")
        LATE = "late", _("late")

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="roll_calls"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices)
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("called by"),
                                  null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")  # fmt: skip
    called_at = models.DateTimeField(_("called at"), auto_now=True)

    class Meta:
        ordering = ["entry", "round_number"]
        verbose_name = _("roll call")
        verbose_name_plural = _("roll calls")
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"],
                                    name="one_roll_call_per_entry_and_round"),  # fmt: skip
            models.CheckConstraint(condition=Q(round_number__gte=1), name="roll_call_round_1_up"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} · {self.round_number}: {self.state}"


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
