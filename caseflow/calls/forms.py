"""The duty worker's call form, made to be filled on a phone during the call: only who called
is required, "when" is now unless changed, everything else is a tick or optional. Times are the
staff's own (the agency's zone). The service refuses personal data on an anonymous call too; the
form says so first, on the field."""

from __future__ import annotations

import datetime as dt

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils import timezone

from caseflow.accounts import zones
from caseflow.calls.models import CallerKind, CallNeed, CallResponse, SafetyConcern
from caseflow.calls.services import AHEAD, LONGEST_MINUTES, OLDEST
from caseflow.lib.i18n import gettext_lazy as _

TEXT_MAX = 8_000
SHORT_MAX = 2_000
NAME_MAX = 200

#: Fields an anonymous call may not fill.
PERSONAL = ("caller_name", "caller_phone", "notes", "safety_detail", "follow_up_detail")


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class CallForm(forms.Form):
    caller_kind = forms.ChoiceField(
        label=_("Who is calling"), choices=CallerKind.choices, widget=forms.RadioSelect
    )
    taken_at = forms.DateTimeField(
        label=_("When"),
        widget=DateTimeLocalInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Now, unless you change it."),
    )
    duration_minutes = forms.IntegerField(
        label=_("How long (minutes)"),
        min_value=0,
        max_value=LONGEST_MINUTES,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    needs = forms.MultipleChoiceField(
        label=_("Needs raised"),
        choices=CallNeed.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    safety_concerns = forms.MultipleChoiceField(
        label=_("Safety concerns"),
        choices=SafetyConcern.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    responses = forms.MultipleChoiceField(
        label=_("Given or referred"),
        choices=CallResponse.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    caller_name = forms.CharField(
        label=_("Caller's name"),
        max_length=NAME_MAX,
        required=False,
        help_text=_("Only if they want to give it. Never for an anonymous call."),
    )
    caller_phone = forms.CharField(
        label=_("Safe number to call back"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "tel", "autocomplete": "off"}),
    )
    notes = forms.CharField(
        label=_("Notes"),
        max_length=TEXT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Stored encrypted. Never for an anonymous call."),
    )
    safety_detail = forms.CharField(
        label=_("About the safety concerns"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    follow_up_wanted = forms.BooleanField(label=_("The caller wants a follow-up"), required=False)
    follow_up_detail = forms.CharField(
        label=_("How and when it is safe to follow up"),
        max_length=SHORT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "data-reveal-when": "follow_up_wanted"}),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("taken_at", timezone.localtime().replace(second=0))
        super().__init__(*args, **kwargs)
        self.fields["taken_at"].help_text = zones.your_time(str(self.fields["taken_at"].help_text))
        self.helper = FormHelper()
        self.helper.form_id = "call-form"
        self.helper.add_input(Submit("submit", _("Save the call"), css_class="btn-lg w-100"))

    def clean_taken_at(self) -> dt.datetime:
        value = self.cleaned_data["taken_at"]
        now = timezone.now()
        if value > now + AHEAD:
            raise forms.ValidationError(_("This time is in the future."))
        if value < now - OLDEST:
            raise forms.ValidationError(
                _("A call can be logged up to three months after it was taken.")
            )
        return value

    def clean(self):
        data = super().clean()
        if data.get("caller_kind") == CallerKind.ANONYMOUS:
            for name in PERSONAL:
                if (data.get(name) or "").strip():
                    self.add_error(
                        name,
                        _(
                            "An anonymous call keeps nothing that could identify the caller: "
                            "leave this empty, or choose who called."
                        ),
                    )
            if data.get("follow_up_wanted"):
                self.add_error(
                    "follow_up_wanted",
                    _("An anonymous caller cannot be followed up: choose who called."),
                )
        return data


class AttachSearchForm(forms.Form):
    """Find the case to put a call on, by the survivor's name. Sent by POST so that the name
    never appears in a URL, a browser history or an access log."""

    name = forms.CharField(
        label=_("Survivor's full name"),
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
