"""The organiser's form of the final stage (parsed here, decided by ``stages.services``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Stage
from tournaments.models.stages import QUALIFIER_CHOICES


class StageForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Final stage"), required=False,
        choices=[("", _("none: the qualifying rounds decide")),
                 (Stage.Kind.KNOCKOUT, _("a knock-out of the best of the standings"))],
    )  # fmt: skip
    qualifiers = forms.TypedChoiceField(label=_("Qualifiers"), choices=QUALIFIER_CHOICES,
                                        coerce=int, initial=8,
                                        help_text=_("The best of the qualifying standings, by "
                                                    "the tie-break order in force."))  # fmt: skip
    best_of = forms.TypedChoiceField(
        label=_("A tie is"), coerce=int, initial=1,
        choices=[(1, _("one match")), (3, _("the best of three matches"))],
    )  # fmt: skip
    third_place = forms.BooleanField(label=_("A match for third place"), required=False)

    @classmethod
    def of(cls, stage: Stage | None) -> StageForm:
        if stage is None:
            return cls(initial={"kind": "", "qualifiers": 8, "best_of": 1})
        return cls(initial={"kind": stage.kind, "qualifiers": stage.qualifiers,
                            "best_of": stage.best_of, "third_place": stage.third_place})
