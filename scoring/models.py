"""Tables of the scoring app: a match at a table, its deals and the audit trail of its protocol.

What the database guarantees here, not only the code:

- a deal's place in the match (``n``) and its client id are unique per match, and the key a
  match was created with is unique per user (``CreationKey``);
- at most one history row per match holds the confirmed protocol (a partial unique constraint on
  ``MatchVersion.confirmed``), so a correction must retire the old one in the same transaction.

Rows are written only by ``scoring.services``: every service judges through ``rules`` and
recomputes the cached totals from the engine's fold of the stored deals, so nothing here is ever
taken from input. The only link to another app is the seats' ``tournaments.Player`` foreign keys.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from config.inputs import validate_name
from rules import RulesError
from scoring.games import AnyRules, make_match_rules

SEATS: tuple[str, ...] = ("N", "E", "S", "W")

#: a label stored with its round before the round had a field of its own («… · тур 4»; the
#: table was always apart): migration 0008 and old tournament archives are read with it
LEGACY_ROUND = re.compile(r"^(?P<label>.+) · (?:тур|round) (?P<round>\d{1,4})$")


class Match(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        IN_PLAY = "in_play", _("In play")
        SUBMITTED = "submitted", _("Submitted")
        CONFIRMED = "confirmed", _("Confirmed")

    label = models.CharField(_("label"), max_length=200, blank=True, validators=[validate_name])
    table = models.CharField(_("table"), max_length=50, blank=True, validators=[validate_name])
    #: the round of an event this match belongs to; with ``label`` (the event) and ``table``
    #: the title is composed when shown, in the reader's language (``title``), never stored
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    seat_n = models.ForeignKey(
        "tournaments.Player", verbose_name=_("seat N"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    seat_e = models.ForeignKey(
        "tournaments.Player", verbose_name=_("seat E"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    seat_s = models.ForeignKey(
        "tournaments.Player", verbose_name=_("seat S"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    seat_w = models.ForeignKey(
        "tournaments.Player", verbose_name=_("seat W"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    rules_preset = models.CharField(_("rules preset"), max_length=50, default="sport")
    rules_options = models.JSONField(_("rule overrides"), default=dict, blank=True)
    #: every knob as resolved at creation; a later change to a tournament never alters it
    rules = models.JSONField(_("rules in force"), default=dict)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("referee"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="refereed_matches",
    )  # fmt: skip
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    #: bumped by every change; a write made against another version is refused (409)
    version = models.PositiveIntegerField(_("version"), default=1)
    # The engine's fold of the stored deals, recomputed by every service that changes them.
    totals = models.JSONField(_("totals"), default=dict)
    finished = models.BooleanField(_("finished"), default=False)
    # "" where the contract says null (unfinished, or a leader the record does not tell)
    end = models.CharField(_("end"), max_length=20, blank=True)
    winner = models.CharField(_("winner"), max_length=10, blank=True)
    unclaimed_eggs = models.IntegerField(_("unclaimed eggs"), default=0)
    #: the desk typed the final score without deals (a tournament that allows it): marked
    #: «итог без раздач» wherever the match is shown
    result_only = models.BooleanField(_("final score without deals"), default=False)
    #: deals each side won (legal deals with a winner), e.g. {"NS": 5, "EW": 3}
    deals_won = models.JSONField(_("deals won"), default=dict, blank=True)
    next_leader = models.CharField(_("next leader"), max_length=1, blank=True)
    #: a club game's result beyond the totals (RULES.md section 34): ``losers``, ``titles``,
    #: and ``losses`` (``general``) or ``out`` (``semerka``, the seats out in order); {} for
    #: the other games
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    #: times deals left the protocol (its last deal deleted, or all replaced by a correction).
    #: While 0, every key the history knows is a stored deal's, so recording a deal under a new
    #: key needs no look into the history (``scoring.services.deals``).
    deals_removed = models.PositiveIntegerField(_("deal removals"), default=0)
    #: hashed PIN of the opposing captain, who may confirm on the referee's phone
    confirm_pin = models.CharField(_("confirmation PIN"), max_length=128, blank=True)
    pin_failures = models.PositiveSmallIntegerField(_("wrong PIN attempts"), default=0)
    #: who issued the PIN (the desk); a PIN the submitter issued cannot confirm their protocol
    pin_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("PIN issued by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("submitted by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("confirmed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    confirmed_with_pin = models.BooleanField(_("confirmed by the captain's PIN"), default=False)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # The clock of the event the match belongs to (a tournament's round clock pushes it here
    # through ``scoring.services.set_clock``), kept on the row that ``record_deal`` locks anyway
    # so that deciding "time is up" costs the referee's write no query.
    #: when time runs out; null: no clock, or the clock is paused
    clock_ends_at = models.DateTimeField(_("time runs out"), null=True, blank=True)
    #: seconds left while the clock is paused (null when running or when there is no clock)
    clock_paused_left = models.PositiveIntegerField(_("time left (paused)"), null=True,
                                                    blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="match_version_positive"),
        ]

    def __str__(self) -> str:
        # the number tells apart stand-alone matches of one label («Товарищеская»)
        return f"{self.title} #{self.pk}"

    @property
    def title(self) -> str:
        """«Кубок трёх клубов · тур 4 · стол 5» in the language of the request showing it (the
        label was stored with the round in Russian: «… · тур 4 · table 5» in English)."""
        parts = [self.label or str(_("Match"))]
        if self.round:
            parts.append(_("round %(number)s") % {"number": self.round})
        if self.table:
            parts.append(_("table %(number)s") % {"number": self.table})
        return " · ".join(parts)

    def seat_player_ids(self) -> dict[str, int | None]:
        return {seat: getattr(self, f"seat_{seat.lower()}_id") for seat in SEATS}

    def get_rules(self) -> AnyRules:
        """The rules stored with the match (not the preset's current defaults), of its game's
        engine (``scoring.games``)."""
        stored: dict[str, Any] = dict(self.rules)
        preset = stored.pop("preset", self.rules_preset)
        return make_match_rules(preset, stored)

    def clean(self) -> None:
        super().clean()
        try:
            make_match_rules(self.rules_preset, self.rules_options)
        except RulesError as err:
            field = (
                "rules_preset" if err.problem.extra.get("option") == "preset" else "rules_options"
            )
            lang = "en" if (get_language() or "ru").startswith("en") else "ru"
            raise ValidationError({field: err.problem.message(lang)}, code=err.code) from err


class CreationKey(models.Model):
    """The key (``Idempotency-Key``) a user created a match with: the same creation sent again
    finds the match instead of making a second one. Two sent at the same moment: the unique
    constraint lets one insert through and the other finds it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="+",
    )  # fmt: skip
    key = models.UUIDField(_("key"))
    match = models.OneToOneField(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="creation_key"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("creation key")
        verbose_name_plural = _("creation keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="creation_key_unique_per_user"),
        ]

    def __str__(self) -> str:
        return str(self.key)


class Deal(models.Model):
    """One legal deal: the referee's record (contract shape) and the engine's verdict of it."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="deals"
    )
    n = models.PositiveSmallIntegerField(_("deal number"))
    record = models.JSONField(_("record"))
    verdict = models.JSONField(_("verdict"))
    client_id = models.UUIDField(_("client id"), null=True, blank=True)
    #: ``time_up`` was set by the server because the match's clock had run out when the deal
    #: was recorded, not sent with the record (a retry without it is still the same deal)
    time_up_by_clock = models.BooleanField(_("time up by the clock"), default=False)
    #: the match version this deal's last write produced (part of the idempotent answer)
    match_version = models.PositiveIntegerField(_("match version"), default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("recorded by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["match", "n"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["match", "n"], name="deal_n_unique_in_match"),
            models.UniqueConstraint(
                fields=["match", "client_id"],
                condition=Q(client_id__isnull=False),
                name="deal_client_id_unique_in_match",
            ),
            models.CheckConstraint(condition=Q(n__gte=1), name="deal_n_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.n}"


class MatchVersion(models.Model):
    """One change of a match: who, when, what (before and after) and why.

    ``confirmed`` marks the row that holds the protocol as currently confirmed (its ``protocol``
    snapshot); a correction clears the old row's flag and sets its own in one transaction, and
    the database allows only one such row per match.
    """

    class Action(models.TextChoices):
        CREATE = "create", _("Created")
        RECORD_DEAL = "record_deal", _("Deal recorded")
        AMEND_DEAL = "amend_deal", _("Last deal amended")
        DELETE_DEAL = "delete_deal", _("Last deal deleted")
        SUBMIT = "submit", _("Submitted")
        CONFIRM = "confirm", _("Confirmed")
        CORRECT = "correct", _("Corrected")
        SET_PIN = "set_pin", _("Captain's PIN issued")
        REASSIGN = "reassign", _("Seats or referee changed")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="history"
    )
    version = models.PositiveIntegerField(_("version"))
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    at = models.DateTimeField(_("when"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    #: the whole protocol (deal records and totals) for confirm and correct rows
    protocol = models.JSONField(_("protocol"), null=True, blank=True)
    confirmed = models.BooleanField(_("confirmed protocol"), default=False)

    class Meta:
        ordering = ["match", "version"]
        verbose_name = _("match version")
        verbose_name_plural = _("match versions")
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="match_version_unique"),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(confirmed=True),
                name="one_confirmed_version_per_match",
            ),
            models.CheckConstraint(
                condition=Q(confirmed=False) | Q(protocol__isnull=False),
                name="confirmed_version_has_protocol",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} v{self.version} {self.action}"


def _photo_path(photo: ProtocolPhoto, filename: str) -> str:
    """A name nobody guesses, whatever the phone called the file."""
    return f"protocols/{photo.match_id}/{uuid.uuid4().hex}.{photo.extension}"


class ProtocolPhoto(models.Model):
    """A photograph of the signed paper protocol, kept with the match: shown to its referee and
    its desk (the chief referee beside the entered deals, and in the history), never public."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="photos")  # fmt: skip
    file = models.FileField(_("file"), upload_to=_photo_path, max_length=200)
    content_type = models.CharField(_("type"), max_length=40)
    size = models.PositiveIntegerField(_("size, bytes"))
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("uploaded by"),
                                    null=True, on_delete=models.SET_NULL, related_name="+")
    uploaded_at = models.DateTimeField(_("uploaded"), auto_now_add=True)

    class Meta:
        ordering = ["match", "uploaded_at", "pk"]
        verbose_name = _("protocol photograph")
        verbose_name_plural = _("protocol photographs")

    def __str__(self) -> str:
        return f"{self.match_id}: {self.file.name}"

    @property
    def extension(self) -> str:
        return {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}.get(
            self.content_type, "bin")
