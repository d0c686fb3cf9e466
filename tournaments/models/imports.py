"""Where an imported tournament came from: ``ArchiveImport``, one per tournament created from an
archive (``tournaments.archive``), and ``PendingImport``, an archive read and waiting for its
importer to confirm the review (nothing of it is written before)."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Tournament


class ArchiveImport(models.Model):
    """Who imported which archive, when, and every username the archive gave.

    An archive is a claim of another installation (or of whoever wrote the file): its usernames
    are kept here as text and never linked to users of this site, so that an import neither
    grants anyone rights nor says that someone here confirmed, recorded or sanctioned anything.
    ``names`` keeps, per imported row and field, the name the archive gave (``{"matches":
    {"<pk>": {"confirmed_by": "chief"}}, "deals": {"<match pk>/<n>": …}, "history":
    {"<match pk>/<version>": …}, "rounds", "pairings", "sanctions"}``); the export writes it
    where no user of this site is linked, so an exported import names what its archive named.
    """

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="import_record",
    )  # fmt: skip
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("imported by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    #: kept when the user is deleted
    imported_by_name = models.CharField(_("imported by (username)"), max_length=150)
    imported_at = models.DateTimeField(_("imported"), auto_now_add=True)
    #: of the bytes received (the file, the request body)
    sha256 = models.CharField(_("archive SHA-256"), max_length=64)
    #: what the archive says of itself
    exported_at = models.DateTimeField(_("exported"), null=True, blank=True)
    organisers = models.JSONField(_("organisers in the archive"), default=list, blank=True)
    usernames = models.JSONField(_("usernames in the archive"), default=list, blank=True)
    names = models.JSONField(_("usernames of the imported rows"), default=dict, blank=True)
    #: the exported tournament the archive says it is (``archive.source``): "" when it says none
    source = models.CharField(_("exported tournament"), max_length=100, blank=True, default="")
    #: imports made since re-imports are refused: one copy per archive and per exported
    #: tournament, which the database holds even against two confirmations at once (older
    #: imports may repeat each other and are left as they were)
    guarded = models.BooleanField(_("one copy only"), default=False)

    class Meta:
        verbose_name = _("archive import")
        verbose_name_plural = _("archive imports")
        constraints = [
            models.UniqueConstraint(fields=["sha256"], condition=Q(guarded=True),
                                    name="archive_import_one_copy_per_archive"),
            models.UniqueConstraint(fields=["source"], condition=Q(guarded=True) & ~Q(source=""),
                                    name="archive_import_one_copy_per_source"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.tournament_id} ← {self.sha256[:12]}"


class PendingImport(models.Model):
    """An archive read and checked, shown to its importer for review; confirming it (by its
    ``token``, only the same user) writes the tournament and deletes this row."""

    token = models.UUIDField(_("token"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("importer"),
                             on_delete=models.CASCADE, related_name="+")  # fmt: skip
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sha256 = models.CharField(_("archive SHA-256"), max_length=64)
    source = models.CharField(_("exported tournament"), max_length=100, blank=True, default="")
    data = models.JSONField(_("archive"))
    #: per archive player: how he will be written (``archive.review``)
    players = models.JSONField(_("players"), default=list)
    #: the copy this import restores over (its organisers asked for it explicitly)
    replaces = models.ForeignKey(
        Tournament, verbose_name=_("restores over"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )  # fmt: skip

    class Meta:
        verbose_name = _("pending archive import")
        verbose_name_plural = _("pending archive imports")

    def __str__(self) -> str:
        return f"{self.user_id} ? {self.sha256[:12]}"
