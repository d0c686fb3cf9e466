"""A tournament's categories and its prize list (issue 30).

A **category** is a set of conditions on a player (sex, age counted by year of birth, a rating
band, a club), all of which must hold; a condition left empty asks nothing. An entry (a pair, a
team, a player) belongs to it when all its players qualify, when any one does, or when the
organiser has put it there (``members``). ``tournaments.prizes`` ranks a category's entries and
hands out the prizes; this module only keeps what the organiser set.

A **prize** is a place of the overall list (no category) or of a category's list, with a value
(what decides which of two prizes an entry takes) and a text (a cup, a book). Each entry wins
one prize at most.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from config.inputs import validate_name
from tournaments.models.players import Club, Player
from tournaments.models.registration import Entry, Tournament


class Category(models.Model):
    class Members(models.TextChoices):
        ALL = "all", _("all its players qualify")
        ANY = "any", _("one of its players qualifies")
        CHOSEN = "chosen", _("the organiser chooses them")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    sex = models.CharField(_("sex"), max_length=1, choices=Player.Sex.choices, blank=True)
    #: veterans: at least this age; juniors: at most this age (counted by year of birth)
    age_min = models.PositiveSmallIntegerField(_("age at least"), null=True, blank=True,
                                               validators=[MaxValueValidator(150)])
    age_max = models.PositiveSmallIntegerField(_("age at most"), null=True, blank=True,
                                               validators=[MaxValueValidator(150)])
    age_on = models.DateField(
        _("age counted on"), null=True, blank=True,
        help_text=_("The age a player reaches in this date's year (the year minus the year of "
                    "birth). Empty: the tournament's start date."),
    )  # fmt: skip
    rating_min = models.IntegerField(_("rating at least"), null=True, blank=True)
    rating_max = models.IntegerField(_("rating at most"), null=True, blank=True)
    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    members = models.CharField(_("an entry belongs to it when"), max_length=10,
                               choices=Members.choices, default=Members.ALL)
    #: the entries the organiser put in it (``members`` = chosen)
    entries = models.ManyToManyField(Entry, verbose_name=_("entries"), blank=True,
                                     related_name="categories")

    class Meta:
        ordering = ["order", "pk"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="category_name_unique"),
            models.CheckConstraint(
                condition=Q(age_min__isnull=True) | Q(age_max__isnull=True)
                | Q(age_max__gte=F("age_min")), name="category_ages_ordered"),
            models.CheckConstraint(
                condition=Q(rating_min__isnull=True) | Q(rating_max__isnull=True)
                | Q(rating_max__gte=F("rating_min")), name="category_ratings_ordered"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return self.name


class Prize(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="prizes")
    #: None: a prize of the overall standings
    category = models.ForeignKey(Category, verbose_name=_("category"), null=True, blank=True,
                                 on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(
        _("place"), validators=[MinValueValidator(1), MaxValueValidator(1000)])
    amount = models.DecimalField(
        _("value"), max_digits=10, decimal_places=2, default=0,
        validators=[MinValueValidator(0)],
        help_text=_("Money, or what a cup or a book is worth: of two prizes an entry takes "
                    "the one of more value."),
    )  # fmt: skip
    text = models.CharField(_("prize"), max_length=200, blank=True, validators=[validate_name],
                            help_text=_("A cup, a medal, a book… (optional)"))

    class Meta:
        # the overall list first (no category), then the categories in their order
        ordering = [F("category__order").asc(nulls_first=True),
                    F("category_id").asc(nulls_first=True), "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "category", "place"],
                                    name="prize_place_unique"),
            # NULLs are distinct in a unique constraint: the overall list needs its own
            models.UniqueConstraint(fields=["tournament", "place"],
                                    condition=Q(category__isnull=True),
                                    name="prize_overall_place_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="prize_amount_not_negative"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.category or '—'} #{self.place}"
