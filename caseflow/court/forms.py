"""Forms for a hearing: its details (before), its outcome (after), and the safety steps to add."""

from __future__ import annotations

from typing import Any

from django import forms

from caseflow.accounts import zones
from caseflow.court.models import Attendance, HearingKind, HearingOutcome, Support
from caseflow.court.orders import PlanOrder
from caseflow.court.services import starts_at_problem
from caseflow.lib.form_parts import moment_field, submit_helper
from caseflow.lib.i18n import gettext_lazy as _

TEXT_MAX = 2000


class HearingForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind of hearing"), choices=HearingKind.choices)
    court = forms.CharField(
        label=_("Court"),
        max_length=200,
        required=False,
        help_text=_("Stored encrypted; never in the calendar feed or reminders."),
    )
    starts_at = moment_field(_("Date and time"))
    attendance = forms.ChoiceField(
        label=_("How the survivor attends"),
        choices=Attendance.choices,
        initial=Attendance.NOT_KNOWN,
    )
    support = forms.MultipleChoiceField(
        label=_("Support arranged"),
        choices=Support.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, submit: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts_at"].help_text = zones.your_time()
        self.helper = submit_helper(submit or _("Record the hearing"))

    def clean_starts_at(self):
        value = self.cleaned_data["starts_at"]
        problem = starts_at_problem(value)
        if problem:
            raise forms.ValidationError(problem)
        return value


class OutcomeForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=[("", _("Choose…")), *HearingOutcome.choices]
    )
    attendance = forms.ChoiceField(label=_("How the survivor attended"), choices=Attendance.choices)
    orders = forms.MultipleChoiceField(
        label=_("Protective orders made (from the safety plan)"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "An order not listed here is recorded in the safety plan's protective orders "
            "first, then chosen here."
        ),
    )
    notes = forms.CharField(
        label=_("What happened"),
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea({"rows": 4}),
        help_text=_("Stored encrypted."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, plan_orders: list[PlanOrder], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["orders"]
        field.choices = [(o.key, o.label) for o in plan_orders]  # type: ignore[attr-defined]
        if not plan_orders:
            field.help_text = _(
                "The safety plan records no protective order yet: record an order there, "
                "then choose it here."
            )
        self.helper = submit_helper(_("Save the outcome"))


class StepsForm(forms.Form):
    steps = forms.MultipleChoiceField(
        label=_("Safety steps to add"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["steps"].choices = choices  # type: ignore[attr-defined]
        self.helper = submit_helper(_("Add the ticked steps"))
