"""Stages of a tournament: the final stage that follows the qualifying one.

A tournament without a ``Stage`` row is played as it always was: one stage, its ``system``
(Swiss or round robin) over ``rounds`` rounds. A ``Stage`` row numbered 2 adds a final stage
after them: a knock-out of the best ``qualifiers`` of the qualifying standings, or (after groups)
a final round robin of the best ``per_group`` of each group. Its rounds point at it
(``Round.stage``); the qualifying rounds keep ``stage`` empty, so older tournaments need nothing.
A ``Stage`` row numbered 1 of kind ``groups`` plays the qualifying rounds in groups: the entries
split by snake seeding, a Berger round robin inside each.

A knock-out tie is one match or the best of three; each game of a tie is a table of its own
round (``tournaments.pairing.knockout`` reads the bracket back from those rounds), so the
referee's phone, the protocols, the desk and the round's life stay what they are.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.registration import Tournament

#: how many of the qualifying standings may go through to a knock-out
QUALIFIER_CHOICES = [(2, "2"), (4, "4"), (8, "8"), (16, "16")]


class Stage(models.Model):
    """A stage: number 1 is the qualifying stage when it is played in groups (otherwise the
    tournament's own system, with no row); number 2 the final stage (a knock-out, or a round
    robin of the groups' best)."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss system")
        ROUND_ROBIN = "round_robin", _("Round robin")
        GROUPS = "groups", _("Groups")
        KNOCKOUT = "knockout", _("Knock-out")

    class Seeding(models.TextChoices):
        SEED = "seed", _("by seed")
        RATING = "rating", _("by rating")

    class CarryOver(models.TextChoices):
        NONE = "none", _("none")
        BETWEEN_FINALISTS = "finalists", _("the results between finalists")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="stages",
    )  # fmt: skip
    number = models.PositiveSmallIntegerField(_("number"), default=2)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices,
                            default=Kind.KNOCKOUT)  # fmt: skip
    qualifiers = models.PositiveSmallIntegerField(
        _("qualifiers"), choices=QUALIFIER_CHOICES, default=8,
        help_text=_("The best of the qualifying standings, by the tie-break order in force."),
    )  # fmt: skip
    best_of = models.PositiveSmallIntegerField(
        _("a tie is"), choices=[(1, _("one match")), (3, _("the best of three matches"))],
        default=1,
    )  # fmt: skip
    third_place = models.BooleanField(_("a match for third place"), default=False)
    carry_over = models.CharField(_("carried over"), max_length=20, choices=CarryOver.choices,
                                  default=CarryOver.NONE)  # fmt: skip
    # groups (a first stage of kind ``groups``): how many, seeded how, the best K of each go on
    groups = models.PositiveSmallIntegerField(_("groups"), default=0)
    seeding = models.CharField(_("groups seeded"), max_length=10, choices=Seeding.choices,
                               default=Seeding.SEED)  # fmt: skip
    per_group = models.PositiveSmallIntegerField(_("qualifiers per group"), default=2)
    #: groups: each group's entry ids (snake seeding), frozen when round 1 is paired
    members = models.JSONField(_("members"), default=list, blank=True)
    #: the qualifiers' entry ids in seed order, frozen when the stage starts (a later
    #: correction of a qualifying round must not move a bracket already being played)
    seeds = models.JSONField(_("seeds"), default=list, blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("started by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_1_up"),
            models.CheckConstraint(condition=Q(best_of__in=[1, 3]), name="stage_best_of_1_3"),
            models.CheckConstraint(condition=Q(qualifiers__in=[2, 4, 8, 16]),
                                   name="stage_qualifiers_power_of_two"),
            models.CheckConstraint(condition=Q(groups__lte=64) & Q(per_group__gte=1),
                                   name="stage_groups_bounds"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.tournament} · {self.get_kind_display()}"

    @property
    def started(self) -> bool:
        return self.started_at is not None
