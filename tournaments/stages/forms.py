"""The organiser's form of the stages (parsed here, decided by ``stages.services``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Stage
from tournaments.models.stages import QUALIFIER_CHOICES


class StageForm(forms.Form):
    groups = forms.IntegerField(
        label=_("Groups"), min_value=0, max_value=64, initial=0, required=False,
        help_text=_("0: no groups. Otherwise the entries are split by snake seeding and play a "
                    "round robin inside each group (the round robin system)."),
    )  # fmt: skip
    seeding = forms.ChoiceField(label=_("Groups seeded"), choices=Stage.Seeding.choices,
                                initial=Stage.Seeding.SEED, required=False)  # fmt: skip
    per_group = forms.IntegerField(label=_("Qualifiers per group"), min_value=1, max_value=8,
                                   initial=2, required=False)  # fmt: skip
    kind = forms.ChoiceField(
        label=_("Final stage"), required=False,
        choices=[("", _("none: the qualifying rounds decide")),
                 (Stage.Kind.KNOCKOUT, _("a knock-out of the best of the standings")),
                 (Stage.Kind.ROUND_ROBIN, _("a final round robin of the groups' best"))],
    )  # fmt: skip
    qualifiers = forms.TypedChoiceField(label=_("Qualifiers"), choices=QUALIFIER_CHOICES,
                                        coerce=int, initial=8,
                                        help_text=_("The best of the qualifying standings, by "
                                                    "the tie-break order in force (after "
                                                    "groups: every group's best)."))  # fmt: skip
    best_of = forms.TypedChoiceField(
        label=_("A tie is"), coerce=int, initial=1,
        choices=[(1, _("one match")), (3, _("the best of three matches"))],
    )  # fmt: skip
    third_place = forms.BooleanField(label=_("A match for third place"), required=False)
    carry_over = forms.ChoiceField(label=_("Carried over to the final round robin"),
                                   choices=Stage.CarryOver.choices, required=False,
                                   initial=Stage.CarryOver.NONE)  # fmt: skip

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        # a form without the groups' fields (or left empty) means no groups
        data["groups"] = data.get("groups") or 0
        data["per_group"] = data.get("per_group") or 2
        data["seeding"] = data.get("seeding") or Stage.Seeding.SEED
        data["carry_over"] = data.get("carry_over") or Stage.CarryOver.NONE
        return data

    @classmethod
    def of(cls, first: Stage | None, stage: Stage | None) -> StageForm:
        initial: dict[str, object] = {"groups": 0, "kind": "", "qualifiers": 8, "best_of": 1,
                                      "per_group": 2, "seeding": Stage.Seeding.SEED,
                                      "carry_over": Stage.CarryOver.NONE}  # fmt: skip
        if first is not None:
            initial.update(groups=first.groups, seeding=first.seeding, per_group=first.per_group)
        if stage is not None:
            initial.update(kind=stage.kind, qualifiers=stage.qualifiers, best_of=stage.best_of,
                           third_place=stage.third_place, carry_over=stage.carry_over)
        return cls(initial=initial)
