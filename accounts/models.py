"""Users are ``django.contrib.auth`` users and roles are its groups; the one table of this app is
the audit log of changes to tournaments (``accounts.audit``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """One change: who, when, what (action, object, tournament) and the changed fields.

    ``tournament_id`` is a plain number (no foreign key): the log does not depend on the
    tournaments app and outlives what it describes. Protocol changes of matches are kept by
    ``scoring.models.MatchVersion``; this log covers setup, registration, rounds, pairings,
    sanctions and imports.
    """

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    username = models.CharField(_("username"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=50, db_index=True)
    object_type = models.CharField(_("object type"), max_length=50)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    tournament_id = models.PositiveBigIntegerField(_("tournament"), null=True, blank=True,
                                                   db_index=True)  # fmt: skip
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username or '-'} {self.action}"
