"""The shared registry: clubs and players, whom every tournament of the site seats.

A player is one person across tournaments (ratings and history follow them), so rows here are
shared by every organiser: what creates them (registration, CSV, archive import) must not
duplicate a person already here.
"""

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q, QuerySet
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


class PlayerQuerySet(models.QuerySet["Player"]):
    def offered_to(self, user: Any) -> "QuerySet[Player]":
        """The players a page may offer ``user`` to choose from: the registry, plus the players
        an archive import created for a tournament ``user`` organises (staff: everyone). An
        import's players stay out of every other organiser's choices, so an archive cannot fill
        their lists (issue 25)."""
        if getattr(user, "is_staff", False):
            return self.all()
        mine = Q(imported_in__organisers=user) if getattr(user, "is_authenticated", False) else Q()
        if not mine:
            return self.filter(in_registry=True)
        # a subquery, not a join: the join would repeat a player once per organiser
        ids = self.model.objects.filter(mine).values("pk")
        return self.filter(Q(in_registry=True) | Q(pk__in=ids))

    def in_registry(self) -> "QuerySet[Player]":
        """The shared registry (ratings lists, search): not the players an import created."""
        return self.filter(in_registry=True)


class Player(models.Model):
    class Sex(models.TextChoices):
        FEMALE = "f", _("female")
        MALE = "m", _("male")

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
    #: what the categories of a prize list ask (``tournaments.prizes``); unknown is no category's
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"), null=True, blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )  # fmt: skip
    #: False for a player an archive import created: offered only to the importing tournament's
    #: organisers (``offered_to``) until an administrator takes him into the registry
    in_registry = models.BooleanField(_("in the registry"), default=True)
    imported_in = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("created by the import of"), null=True,
        blank=True, on_delete=models.SET_NULL, related_name="imported_players",
    )  # fmt: skip

    objects = PlayerQuerySet.as_manager()

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
