"""The shared registry: clubs and players, whom every tournament of the site seats.

A player is one person across tournaments (ratings and history follow them), so rows here are
shared by every organiser: what creates them (registration, CSV, archive import) must not
duplicate a person already here.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from config.inputs import validate_name


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True, validators=[validate_name])
    city = models.CharField(_("city"), max_length=100, blank=True, validators=[validate_name])

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    last_name = models.CharField(_("last name"), max_length=100, validators=[validate_name])
    first_name = models.CharField(_("first name"), max_length=100, blank=True,
                                  validators=[validate_name])  # fmt: skip
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
