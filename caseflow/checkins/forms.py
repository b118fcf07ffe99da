"""Forms for check-ins, outcomes and follow-ups. Times are entered in the survivor's zone."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils import timezone

from caseflow.accounts.models import User
from caseflow.cases.models import Channel
from caseflow.checkins.models import CheckInOutcome
from caseflow.inbox.kinds import GeneralFollowUpKind, followup_kind_choices
from caseflow.lib import recurrence, weekly_windows
from caseflow.lib.i18n import gettext_lazy as _

NOTE_MAX = 500
MAX_AHEAD_DAYS = 366
DETAILS_MAX = 2000

REPEAT_RULES = {
    "": "",
    "daily": "FREQ=DAILY",
    "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "weekly": "FREQ=WEEKLY",
    "fortnightly": "FREQ=WEEKLY;INTERVAL=2",
    "monthly": "FREQ=MONTHLY",
}
REPEAT_CHOICES = [
    ("", _("Does not repeat")),
    ("daily", _("Every day")),
    ("weekdays", _("Every weekday")),
    ("weekly", _("Every week")),
    ("fortnightly", _("Every two weeks")),
    ("monthly", _("Every month")),
    ("custom", _("Custom rule (RFC 5545 RRULE)")),
]


def _helper(label: str) -> FormHelper:
    helper = FormHelper()
    helper.add_input(Submit("submit", label))
    return helper


class CheckInForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}))
    channel = forms.ChoiceField(label=_("Channel"), choices=Channel.choices)
    assignee = forms.ModelChoiceField(
        queryset=User.objects.none(), empty_label=None, label=_("Advocate")
    )
    repeat = forms.ChoiceField(label=_("Repeat"), choices=REPEAT_CHOICES, required=False)
    rule = forms.CharField(
        max_length=200,
        required=False,
        label=_("Custom rule"),
        help_text=_("For example FREQ=WEEKLY;BYDAY=MO,TH;COUNT=8"),
    )
    until = forms.DateField(
        label=_("Until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Last day of the repeats (optional)."),
    )

    def __init__(self, *args, assignees, tz: str, channels: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        assignee = self.fields["assignee"]
        assert isinstance(assignee, forms.ModelChoiceField)
        assignee.queryset = assignees
        self.fields["date"].help_text = f"In the survivor's time zone ({tz})."
        self.fields["time"].help_text = f"In the survivor's time zone ({tz})."
        safe = [c for c in Channel.choices if c[0] in channels]
        if safe:
            self.fields["channel"].help_text = _("Safe channels: ") + ", ".join(
                str(c[1]) for c in safe
            )
        self.helper = _helper(_("Schedule check-in"))

    def clean_date(self):
        value = self.cleaned_data["date"]
        today = timezone.localdate()
        if not today - dt.timedelta(days=1) <= value <= today + dt.timedelta(days=MAX_AHEAD_DAYS):
            raise forms.ValidationError(_("Pick a date between today and a year from now."))
        return value

    def clean(self):
        data = super().clean()
        repeat = data.get("repeat") or ""
        if repeat == "custom":
            rule = (data.get("rule") or "").strip()
            if not rule:
                self.add_error("rule", _("Write the rule, or choose a simpler repeat."))
        else:
            rule = REPEAT_RULES.get(repeat, "")
        if rule and data.get("until"):
            if "UNTIL=" in rule.upper() or "COUNT=" in rule.upper():
                self.add_error("until", _("The custom rule already says when it ends."))
            else:
                rule += f";UNTIL={data['until']:%Y%m%d}"
        if rule:
            try:
                recurrence.validate_rule(rule)
            except recurrence.RecurrenceError as exc:
                self.add_error("rule" if repeat == "custom" else "repeat", str(exc))
        data["rrule"] = rule
        return data


class OutcomeForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=CheckInOutcome.choices, widget=forms.RadioSelect
    )
    note = forms.CharField(
        label=_("Note"),
        max_length=NOTE_MAX,
        required=False,
        widget=forms.Textarea({"rows": 2}),
        help_text=_("Short, factual. Stored encrypted."),
    )
    reschedule_date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("New date")
    )
    reschedule_time = forms.TimeField(
        required=False, widget=forms.TimeInput(attrs={"type": "time"}), label=_("New time")
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper(_("Record outcome"))

    def clean_reschedule_date(self):
        value = self.cleaned_data.get("reschedule_date")
        today = timezone.localdate()
        if value and not today - dt.timedelta(days=1) <= value <= today + dt.timedelta(days=366):
            raise forms.ValidationError(_("Pick a date between today and a year from now."))
        return value

    def clean(self):
        data = super().clean()
        if data.get("outcome") == CheckInOutcome.RESCHEDULED and not (
            data.get("reschedule_date") and data.get("reschedule_time")
        ):
            self.add_error("reschedule_date", _("Give the new date and time."))
        return data


class FollowUpForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"), choices=followup_kind_choices, initial=GeneralFollowUpKind.TASK
    )
    due_at = forms.DateTimeField(
        label=_("Due"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In UTC."),
    )
    details = forms.CharField(
        label=_("Details"),
        max_length=DETAILS_MAX,
        required=False,
        widget=forms.Textarea({"rows": 3}),
        help_text=_("Stored encrypted; never shown in reminders."),
    )
    assignee = forms.ModelChoiceField(
        queryset=User.objects.none(), empty_label=None, label=_("Advocate")
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, assignees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assignee"].queryset = assignees
        self.helper = _helper(_("Save follow-up"))

    def clean_due_at(self):
        value = self.cleaned_data["due_at"]
        now = timezone.now()
        if not now - dt.timedelta(days=366) <= value <= now + dt.timedelta(days=3660):
            raise forms.ValidationError(_("Pick a date within a year ago and ten years ahead."))
        return value


class SafeContactForm(forms.Form):
    timezone = forms.ChoiceField(
        label=_("Timezone"),
        choices=[],
        initial="Europe/London",
        help_text=_("The survivor's own time zone."),
    )
    channels = forms.MultipleChoiceField(
        choices=Channel.choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("Safe channels"),
    )
    windows = forms.CharField(
        widget=forms.Textarea({"rows": 3}),
        max_length=2000,
        label=_("Safe times"),
        help_text=_(
            "One per line, in the survivor's time zone, e.g. “Mon-Fri 10:00-12:00” or "
            "“Sat 22:00-01:00”."
        ),
    )
    voicemail_safe = forms.BooleanField(required=False, label=_("Voicemail is safe"))
    safe_phone = forms.CharField(label=_("Safe phone"), max_length=40, required=False)
    safe_email = forms.EmailField(label=_("Safe email"), max_length=254, required=False)
    third_party = forms.CharField(
        max_length=200, required=False, label=_("Named third party (if contact goes through one)")
    )
    code_word = forms.CharField(
        max_length=200, required=False, label=_("Code word / “is it safe to talk?” opener")
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        zones = sorted(zoneinfo.available_timezones())
        self.fields["timezone"].choices = [(z, z) for z in zones]
        self.helper = _helper(_("Save"))

    def clean_windows(self) -> list[dict]:
        try:
            windows = weekly_windows.parse_windows(self.cleaned_data["windows"])
        except weekly_windows.WindowSyntaxError as exc:
            raise forms.ValidationError(str(exc)) from exc
        if not windows:
            raise forms.ValidationError(_("Give at least one safe time."))
        return [w.to_dict() for w in windows]

    def clean(self):
        data = super().clean()
        channels = data.get("channels") or []
        if Channel.THIRD_PARTY in channels and not data.get("third_party"):
            self.add_error("third_party", _("Name the third party, or untick that channel."))
        if Channel.PHONE in channels and not data.get("safe_phone"):
            self.add_error("safe_phone", _("Give the safe phone number for phone calls."))
        if Channel.TEXT in channels and not data.get("safe_phone"):
            self.add_error("safe_phone", _("Give the safe phone number for text messages."))
        if Channel.EMAIL in channels and not data.get("safe_email"):
            self.add_error("safe_email", _("Give the safe e-mail address."))
        return data
